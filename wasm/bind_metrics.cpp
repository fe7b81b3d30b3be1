// Bindings for src/metrics: qrels/run handles, trec_eval-exact evaluation and its text output,
// single-query measures, answer and citation metrics, evidence evaluation, agreement and
// significance statistics. Text arrives as UTF-8 bytes; bulk numbers leave as typed arrays.
#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bind_common.h"
#include "common/json_depth.h"
#include "metrics/agreement.h"
#include "metrics/answer.h"
#include "metrics/evidence.h"
#include "metrics/trec.h"

namespace ragwasm::wasm {
namespace {

using namespace ragwasm::metrics;

class QrelsBinding {
 public:
  explicit QrelsBinding(Qrels q) : core_(std::move(q)) {}
  double num_queries() const { return static_cast<double>(core_.num_queries()); }
  double size() const { return static_cast<double>(core_.size()); }
  const Qrels& core() const { return core_; }

 private:
  Qrels core_;
};

class RunBinding {
 public:
  explicit RunBinding(Run r) : core_(std::move(r)) {}
  double num_queries() const { return static_cast<double>(core_.num_queries()); }
  double size() const { return static_cast<double>(core_.size()); }
  std::string run_id() const { return core_.run_id(); }
  // docs: docnos joined by '\n'; scores: one per docno. All or nothing: validated before adding.
  val add_query(const Bytes& qid, const Bytes& docs, val scores_js) {
    return guard([&] {
      const std::vector<double> scores = emscripten::convertJSArrayToNumberVector<double>(scores_js);
      std::vector<std::string_view> ids;
      std::size_t pos = 0;
      if (!docs.empty()) {
        while (true) {
          const std::size_t nl = docs.find('\n', pos);
          ids.emplace_back(std::string_view(docs).substr(pos, nl == std::string::npos ? std::string::npos : nl - pos));
          if (nl == std::string::npos) break;
          pos = nl + 1;
        }
      }
      Status st = core_.add_query(qid, ids, scores);
      if (!st.ok()) return reply_error(st.error());
      return reply_ok(val::undefined());
    });
  }
  const Run& core() const { return core_; }

 private:
  Run core_;
};

val bind_parse_qrels(const Bytes& text, const std::string& format, const std::string& name) {
  return guard([&] {
    Result<Qrels> r = format == "trec" ? parse_trec_qrels(text, name) : format == "beir" ? parse_beir_qrels(text, name) : metrics::parse_qrels(text, name);
    if (!r.ok()) return reply_error(r.error());
    return reply_ok(val(QrelsBinding(std::move(r).value())));
  });
}

val bind_parse_run(const Bytes& text, const std::string& format, const std::string& name) {
  return guard([&] {
    Result<Run> r = format == "trec" ? parse_trec_run(text, name) : format == "jsonl" ? parse_jsonl_run(text, name) : metrics::parse_run(text, name);
    if (!r.ok()) return reply_error(r.error());
    return reply_ok(val(RunBinding(std::move(r).value())));
  });
}

val create_run(const std::string& run_id) {
  return guard([&] {
    Run r;
    r.set_run_id(run_id);
    return reply_ok(val(RunBinding(std::move(r))));
  });
}

EvalOptions eval_options(val measures, int level, bool complete) {
  EvalOptions o;
  o.relevance_level = level;
  o.complete_queries = complete;
  o.measures = to_string_vector(measures);
  return o;
}

val evaluate_run(const QrelsBinding& q, const RunBinding& r, val measures, int level, bool complete) {
  return guard([&] {
    auto res = metrics::evaluate(q.core(), r.core(), eval_options(measures, level, complete));
    if (!res.ok()) return reply_error(res.error());
    const EvalResult& e = res.value();
    val out = val::object();
    val names = val::array(), counts = val::array(), qids = val::array();
    for (std::size_t i = 0; i < e.measures.size(); ++i) {
      names.call<void>("push", e.measures[i]);
      counts.call<void>("push", static_cast<bool>(e.is_count[i]));
    }
    for (const auto& id : e.query_ids) qids.call<void>("push", id);
    out.set("measures", names);
    out.set("isCount", counts);
    out.set("queryIds", qids);
    out.set("perQuery", to_typed_array(e.per_query));
    out.set("aggregate", to_typed_array(e.aggregate));
    out.set("numQ", static_cast<double>(e.num_q));
    out.set("runId", e.run_id);
    return reply_ok(out);
  });
}

val bind_format_trec_eval(const QrelsBinding& q, const RunBinding& r, val measures, int level, bool complete, bool per_query) {
  return guard([&] {
    auto res = metrics::evaluate(q.core(), r.core(), eval_options(measures, level, complete));
    if (!res.ok()) return reply_error(res.error());
    const auto& ms = eval_options(measures, level, complete).measures;
    const bool header = ms.empty() || std::find(ms.begin(), ms.end(), "all_trec") != ms.end();
    return reply_ok(val(metrics::format_trec_eval(res.value(), per_query, header)));
  });
}

val ranked_measure(const std::string& name, val rels_js, val judged_js, int k, int level) {
  return guard([&] {
    RankedQuery q{emscripten::convertJSArrayToNumberVector<int>(rels_js), emscripten::convertJSArrayToNumberVector<int>(judged_js)};
    double v;
    if (name == "P") v = precision_at(q, k, level);
    else if (name == "recall") v = recall_at(q, k, level);
    else if (name == "map") v = average_precision(q, k, level);
    else if (name == "recip_rank") v = reciprocal_rank(q, level);
    else if (name == "Rprec") v = r_precision(q, level);
    else if (name == "success") v = success_at(q, k, level);
    else if (name == "bpref") v = metrics::bpref(q, level);
    else if (name == "ndcg") v = ndcg_at(q, k);
    else if (name == "ndcg_exp") v = ndcg_exp_at(q, k);
    else return reply_error(make_error(ErrorCode::kInvalidArgument, "measure: unknown '" + name + "'"));
    return reply_ok(val(v));
  });
}

val answer_metric(const std::string& kind, const Bytes& prediction, val references_js, double param, bool flag) {
  return guard([&] {
    const std::vector<std::string> refs = to_string_vector(references_js);
    double v;
    if (kind == "em") v = exact_match(prediction, refs, flag);
    else if (kind == "f1") v = token_f1(prediction, refs, flag);
    else if (kind == "anls" || kind == "rougeL") {
      Result<double> r = kind == "anls" ? anls(prediction, refs, param) : rouge_l(prediction, refs);
      if (!r.ok()) return reply_error(r.error());
      v = r.value();
    }
    else if (kind == "bleu") v = sentence_bleu(prediction, refs, static_cast<int>(param), flag ? BleuSmoothing::kAddOne : BleuSmoothing::kNone);
    else return reply_error(make_error(ErrorCode::kInvalidArgument, "answer metric: unknown '" + kind + "'"));
    return reply_ok(val(v));
  });
}

val squad_normalize_text(const Bytes& s, bool remove_articles) {
  return guard([&] { return reply_ok(val(squad_normalize(s, remove_articles))); });
}

val bind_citations(const Bytes& answer, val context_ids, val relevant_ids) {
  return guard([&] {
    CitationResult r = citation_metrics(answer, to_string_vector(context_ids), to_string_vector(relevant_ids));
    val out = val::object();
    val markers = val::array(), cited = val::array(), unresolved = val::array();
    for (int m : r.markers) markers.call<void>("push", m);
    for (const auto& c : r.cited) cited.call<void>("push", c);
    for (int m : r.unresolved) unresolved.call<void>("push", m);
    out.set("markers", markers);
    out.set("cited", cited);
    out.set("unresolved", unresolved);
    out.set("precision", r.precision);
    out.set("recall", r.recall);
    out.set("f1", r.f1);
    return reply_ok(out);
  });
}

val containment(const Bytes& excerpt, const Bytes& chunk) {
  return guard([&] {
    auto r = evidence_containment(excerpt, chunk);
    if (!r.ok()) return reply_error(r.error());
    return reply_ok(val(r.value()));
  });
}

// questions JSON: [{"evidence": [{"text", "docId", "start", "end"}], "chunks": [{...}]}]
// options: threshold, minOverlap, k (array), maxK. Returns per-question scores per k, the matches
// and the mean recall curve.
val evidence_evaluate(const Bytes& json, double threshold, double min_overlap, val ks_js, int max_k) {
  return guard([&] {
    if (Status depth = check_json_depth(json, "questions"); !depth.ok()) return reply_error(depth.error());
    const auto j = nlohmann::json::parse(json, nullptr, false);
    if (j.is_discarded() || !j.is_array()) return reply_error(make_error(ErrorCode::kInvalidArgument, "questions: expected an array"));
    const std::vector<int> ks = emscripten::convertJSArrayToNumberVector<int>(ks_js);
    EvidenceOptions o;
    o.threshold = threshold;
    o.min_overlap = static_cast<long>(min_overlap);
    auto span_of = [](const nlohmann::json& x) {
      EvidenceSpan s;
      if (x.contains("docId") && x["docId"].is_string()) s.doc_id = x["docId"].get<std::string>();
      if (x.contains("start") && x["start"].is_number() && x.contains("end") && x["end"].is_number()) {
        s.start = x["start"].get<long>();
        s.end = x["end"].get<long>();
      }
      return s;
    };
    auto text_of = [](const nlohmann::json& x) { return x.contains("text") && x["text"].is_string() ? x["text"].get<std::string>() : std::string(); };
    std::vector<EvidenceQuestion> questions;
    for (const auto& q : j) {
      EvidenceQuestion eq;
      for (const auto& e : q["evidence"]) eq.evidence.push_back(Evidence{text_of(e), span_of(e)});
      for (const auto& c : q["chunks"]) eq.chunks.push_back(RetrievedChunk{text_of(c), span_of(c)});
      questions.push_back(std::move(eq));
    }
    auto r = evaluate_evidence(questions, o, ks, max_k);
    if (!r.ok()) return reply_error(r.error());
    const EvidenceReport& rep = r.value();
    val per = val::array();
    for (const auto& q : rep.per_question) {
      val item = val::object(), rec = val::array(), prec = val::array(), rel = val::array();
      for (double v : q.recall) rec.call<void>("push", v);
      for (double v : q.precision) prec.call<void>("push", v);
      for (bool b : q.relevant) rel.call<void>("push", b);
      item.set("recall", rec);
      item.set("precision", prec);
      item.set("rr", q.rr);
      item.set("relevant", rel);
      per.call<void>("push", item);
    }
    val out = val::object();
    out.set("perQuestion", per);
    out.set("recall", to_typed_array(rep.recall));
    out.set("precision", to_typed_array(rep.precision));
    out.set("mrr", rep.mrr);
    out.set("curve", to_typed_array(rep.curve));
    return reply_ok(out);
  });
}

val recommend(val curve_js, double min_gain, int window) {
  return guard([&] {
    auto r = recommend_cutoff(emscripten::convertJSArrayToNumberVector<double>(curve_js), min_gain, window);
    if (!r.ok()) return reply_error(r.error());
    return reply_ok(val(r.value()));
  });
}

std::vector<int> ints(const val& v) { return emscripten::convertJSArrayToNumberVector<int>(v); }
std::vector<double> doubles(const val& v) { return emscripten::convertJSArrayToNumberVector<double>(v); }

val agreement(const std::string& kind, val a_js, val b_js, double param) {
  return guard([&] {
    if (kind == "confusion") {
      auto r = confusion_matrix(ints(a_js), ints(b_js));
      if (!r.ok()) return reply_error(r.error());
      val labels = val::array(), matrix = val::array();
      for (int l : r.value().labels) labels.call<void>("push", l);
      for (const auto& row : r.value().m) {
        val rv = val::array();
        for (long c : row) rv.call<void>("push", static_cast<double>(c));
        matrix.call<void>("push", rv);
      }
      val out = val::object();
      out.set("labels", labels);
      out.set("matrix", matrix);
      return reply_ok(out);
    }
    if (kind == "binary") {
      auto r = binary_scores(ints(a_js), ints(b_js), static_cast<int>(param));
      if (!r.ok()) return reply_error(r.error());
      const auto& s = r.value();
      val out = val::object();
      out.set("tp", static_cast<double>(s.tp));
      out.set("fp", static_cast<double>(s.fp));
      out.set("fn", static_cast<double>(s.fn));
      out.set("tn", static_cast<double>(s.tn));
      out.set("precision", s.precision);
      out.set("recall", s.recall);
      out.set("f1", s.f1);
      out.set("accuracy", s.accuracy);
      return reply_ok(out);
    }
    Result<double> r = 0.0;
    if (kind == "kappa") r = cohens_kappa(ints(a_js), ints(b_js), param == 0 ? KappaWeights::kNone : param == 1 ? KappaWeights::kLinear : KappaWeights::kQuadratic);
    else if (kind == "within") r = within_accuracy(ints(a_js), ints(b_js), static_cast<int>(param));
    else if (kind == "spearman") r = spearman(doubles(a_js), doubles(b_js));
    else if (kind == "kendall") r = kendall_tau_b(doubles(a_js), doubles(b_js));
    else return reply_error(make_error(ErrorCode::kInvalidArgument, "agreement: unknown '" + kind + "'"));
    if (!r.ok()) return reply_error(r.error());
    return reply_ok(val(r.value()));
  });
}

val compare_systems(const std::string& kind, val a_js, val b_js, double n, double alpha, double seed) {
  return guard([&] {
    const auto a = doubles(a_js), b = doubles(b_js);
    val out = val::object();
    if (kind == "randomization") {
      auto r = randomization_test(a, b, static_cast<int>(n), static_cast<std::uint64_t>(seed));
      if (!r.ok()) return reply_error(r.error());
      out.set("meanDifference", r.value().mean_difference);
      out.set("pValue", r.value().p_value);
      out.set("trials", r.value().trials);
    } else if (kind == "bootstrap") {
      auto r = bootstrap_ci(a, b, static_cast<int>(n), alpha, static_cast<std::uint64_t>(seed));
      if (!r.ok()) return reply_error(r.error());
      out.set("meanDifference", r.value().mean_difference);
      out.set("low", r.value().low);
      out.set("high", r.value().high);
      out.set("alpha", r.value().alpha);
      out.set("samples", r.value().samples);
    } else if (kind == "wtl") {
      auto r = win_tie_loss(a, b, alpha);
      if (!r.ok()) return reply_error(r.error());
      out.set("wins", static_cast<double>(r.value().wins));
      out.set("ties", static_cast<double>(r.value().ties));
      out.set("losses", static_cast<double>(r.value().losses));
    } else {
      return reply_error(make_error(ErrorCode::kInvalidArgument, "compare: unknown '" + kind + "'"));
    }
    return reply_ok(out);
  });
}

val summary(val values_js) {
  return guard([&] {
    auto r = summarize(doubles(values_js));
    if (!r.ok()) return reply_error(r.error());
    const auto& s = r.value();
    val out = val::object();
    out.set("count", static_cast<double>(s.count));
    out.set("min", s.min);
    out.set("max", s.max);
    out.set("mean", s.mean);
    out.set("p50", s.p50);
    out.set("p90", s.p90);
    out.set("p95", s.p95);
    return reply_ok(out);
  });
}

}  // namespace
}  // namespace ragwasm::wasm

EMSCRIPTEN_BINDINGS(ragwasm_metrics) {
  using namespace ragwasm::wasm;
  emscripten::class_<QrelsBinding>("QrelsBinding")
      .function("numQueries", &QrelsBinding::num_queries)
      .function("size", &QrelsBinding::size);
  emscripten::class_<RunBinding>("RunBinding")
      .function("numQueries", &RunBinding::num_queries)
      .function("size", &RunBinding::size)
      .function("runId", &RunBinding::run_id)
      .function("addQuery", &RunBinding::add_query);
  emscripten::function("metrics_parseQrels", &bind_parse_qrels);
  emscripten::function("metrics_parseRun", &bind_parse_run);
  emscripten::function("metrics_createRun", &create_run);
  emscripten::function("metrics_evaluate", &evaluate_run);
  emscripten::function("metrics_formatTrecEval", &bind_format_trec_eval);
  emscripten::function("metrics_rankedMeasure", &ranked_measure);
  emscripten::function("metrics_answer", &answer_metric);
  emscripten::function("metrics_squadNormalize", &squad_normalize_text);
  emscripten::function("metrics_citations", &bind_citations);
  emscripten::function("metrics_containment", &containment);
  emscripten::function("metrics_evidenceEvaluate", &evidence_evaluate);
  emscripten::function("metrics_recommendCutoff", &recommend);
  emscripten::function("metrics_agreement", &agreement);
  emscripten::function("metrics_compare", &compare_systems);
  emscripten::function("metrics_summary", &summary);
}
