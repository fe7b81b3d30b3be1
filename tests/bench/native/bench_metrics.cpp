// Native twin of the `eval` bench suite: trec_eval-exact evaluation of a synthetic run (Q queries x
// D results, random scores rounded to 3 decimals so ties occur, 20 judgments per query, grades 0-3)
// with every measure (all_trec + ndcg_exp). Same generator as tests/bench/suites/eval.mjs.
// Usage: bench_metrics [queries=10000] [depth=1000]. Prints one JSON object.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "metrics/trec.h"

namespace {
// 32-bit LCG (Numerical Recipes), identical in the JS suite.
struct Lcg {
  std::uint32_t s;
  std::uint32_t next() { return s = s * 1664525u + 1013904223u; }
  double uniform() { return next() / 4294967296.0; }
};
}  // namespace

int main(int argc, char** argv) {
  const int queries = argc > 1 ? std::atoi(argv[1]) : 10000;
  const int depth = argc > 2 ? std::atoi(argv[2]) : 1000;
  using namespace ragwasm::metrics;
  Lcg rng{12345};
  Run run;
  Qrels qrels;
  const auto b0 = std::chrono::steady_clock::now();
  std::vector<std::string> ids(static_cast<std::size_t>(depth));
  std::vector<std::string_view> views(static_cast<std::size_t>(depth));
  std::vector<double> scores(static_cast<std::size_t>(depth));
  for (int q = 0; q < queries; ++q) {
    const std::string qid = "q" + std::to_string(q);
    const std::uint32_t base = rng.next() % 1000000u;
    for (int i = 0; i < depth; ++i) {
      ids[static_cast<std::size_t>(i)] = "d" + std::to_string(base + static_cast<std::uint32_t>(i) * 7u);
      scores[static_cast<std::size_t>(i)] = static_cast<double>(static_cast<int>(rng.uniform() * 1000)) / 1000.0;
    }
    for (int i = 0; i < depth; ++i) views[static_cast<std::size_t>(i)] = ids[static_cast<std::size_t>(i)];
    if (!run.add_query(qid, views, scores).ok()) return 1;
    for (int j = 0; j < 20; ++j) {
      const std::uint32_t pos = rng.next() % static_cast<std::uint32_t>(depth * 2);  // half inside the run
      const int rel = static_cast<int>(rng.next() % 4u);
      ragwasm::Status s = qrels.add(qid, "d" + std::to_string(base + pos * 7u), rel);
      (void)s;  // a repeated position is a duplicate judgment: skipped (the JS suite does the same)
    }
  }
  const auto b1 = std::chrono::steady_clock::now();
  EvalOptions o;
  o.measures = {"all_trec", "ndcg_exp", "ndcg_exp_cut"};
  std::vector<double> ms, cpu;
  double map = 0;
  std::size_t nmeasures = 0;
  for (int rep = 0; rep < 8; ++rep) {
    const std::clock_t c0 = std::clock();
    const auto t0 = std::chrono::steady_clock::now();
    auto r = evaluate(qrels, run, o);
    const auto t1 = std::chrono::steady_clock::now();
    const std::clock_t c1 = std::clock();
    if (!r.ok()) return 1;
    map = r.value().aggregate[3];
    nmeasures = r.value().measures.size();
    if (rep >= 2) {
      ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
      cpu.push_back(1000.0 * static_cast<double>(c1 - c0) / CLOCKS_PER_SEC);
    }
  }
  std::sort(ms.begin(), ms.end());
  std::sort(cpu.begin(), cpu.end());
  // cpu_ms: process CPU time (std::clock), less sensitive than wall time to other load on the machine.
  std::printf("{\"queries\": %d, \"depth\": %d, \"measures\": %zu, \"build_ms\": %.2f, \"median_ms\": %.2f, \"p95_ms\": %.2f, \"cpu_median_ms\": %.2f, \"map\": %.6f}\n",
              queries, depth, nmeasures, std::chrono::duration<double, std::milli>(b1 - b0).count(), ms[ms.size() / 2], ms.back(), cpu[cpu.size() / 2], map);
  return 0;
}
