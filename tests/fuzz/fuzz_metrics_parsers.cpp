// libFuzzer entry for src/metrics text surfaces: TREC/BEIR qrels, TREC/JSONL runs, evaluation of
// whatever parsed, trec_eval output formatting, citation parsing and answer normalization.
// Invariants: no crash; a parsed run is in trec_eval order; every measure value is finite and the
// ratio measures lie in [0, 1].
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "metrics/answer.h"
#include "metrics/evidence.h"
#include "metrics/trec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ragwasm::metrics;
  const std::string_view raw(reinterpret_cast<const char*>(data), size);
  // Split the input at the first 0x00 byte: qrels text before, run text after.
  const std::size_t cut = raw.find('\0');
  const std::string_view qtext = raw.substr(0, cut);
  const std::string_view rtext = cut == std::string_view::npos ? raw : raw.substr(cut + 1);
  auto q = parse_qrels(qtext, "fuzz.qrels");
  (void)parse_beir_qrels(qtext, "fuzz.tsv");
  auto r = parse_run(rtext, "fuzz.run");
  (void)parse_jsonl_run(rtext, "fuzz.jsonl");
  if (r.ok()) {
    const Run& run = r.value();
    for (std::size_t i = 0; i < run.num_queries(); ++i) {
      const auto& e = run.entries(i);
      for (std::size_t k = 1; k < e.size(); ++k) {
        if (e[k - 1].score < e[k].score) __builtin_trap();
        if (e[k - 1].score == e[k].score && std::strcmp(run.docno(e[k - 1].doc).c_str(), run.docno(e[k].doc).c_str()) <= 0) __builtin_trap();
      }
    }
  }
  if (q.ok() && r.ok()) {
    for (int level : {0, 1, 2}) {
      EvalOptions o;
      o.complete_queries = true;
      o.relevance_level = level;
      auto res = evaluate(q.value(), r.value(), o);
      if (!res.ok()) __builtin_trap();  // with -c nothing can be missing
      const auto& e = res.value();
      for (std::size_t qi = 0; qi < e.query_ids.size(); ++qi) {
        for (std::size_t m = 0; m < e.measures.size(); ++m) {
          const double v = e.value(qi, m);
          if (!std::isfinite(v)) __builtin_trap();
          if (!e.is_count[m] && (v < 0 || v > 1 + 1e-12)) __builtin_trap();
        }
      }
      (void)format_trec_eval(e, true);
    }
  }
  const std::string_view head = raw.substr(0, 512);
  auto part = [&](std::size_t pos, std::size_t n) { return pos < head.size() ? head.substr(pos, n) : std::string_view(); };
  auto c = citation_metrics(head, {"c1", "c2"}, {"c1"});
  if (c.precision < 0 || c.precision > 1 || c.recall < 0 || c.recall > 1) __builtin_trap();
  (void)squad_normalize(head);
  const double f1 = token_f1(part(0, 128), {std::string(part(128, 128))});
  if (!(f1 >= 0 && f1 <= 1)) __builtin_trap();
  const double ev = evidence_containment(part(0, 64), part(64, 256)).value();  // 64 x 256 cells: under the limit
  if (!(ev >= 0 && ev <= 1)) __builtin_trap();
  return 0;
}
