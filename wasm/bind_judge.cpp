// Bindings for src/judge: judge reply parsing (scores, per-claim scores, key: value lines),
// abstention detection and self-consistency aggregation. Replies arrive as UTF-8 bytes.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "bind_common.h"
#include "judge/reply_parser.h"
#include "text/utf8.h"

namespace ragwasm::wasm {
namespace {

Result<judge::ScoreOptions> score_options(const std::string& kind, double min, double max, val labels,
                                          bool integer_only) {
  judge::ScoreOptions o;
  if (kind == "percent") o.kind = judge::ScaleKind::kPercent;
  else if (kind == "rating") o.kind = judge::ScaleKind::kRating;
  else return make_error(ErrorCode::kInvalidArgument, "scale.kind: expected 'rating' or 'percent', got '" + kind + "'");
  o.min = min;
  o.max = max;
  if (!labels.isUndefined() && !labels.isNull()) o.labels = to_string_vector(labels);
  o.integer_only = integer_only;
  return o;
}

val parse_score(const Bytes& reply, const std::string& kind, double min, double max, val labels, bool integer_only) {
  return guard([&] {
    auto o = score_options(kind, min, max, labels, integer_only);
    if (!o.ok()) return reply_error(o.error());
    auto r = judge::parse_score(reply, o.value());
    if (!r.ok()) return reply_error(r.error());
    val v = val::object();
    v.set("value", r.value().value);
    v.set("method", std::string(judge::score_method_name(r.value().method)));
    v.set("offset", static_cast<double>(text::OffsetMapper(reply).to_utf16(r.value().offset)));
    v.set("ambiguous", r.value().ambiguous);
    return reply_ok(v);
  });
}

val parse_claim_scores(const Bytes& reply, int n_claims, const std::string& kind, double min, double max, val labels) {
  return guard([&] {
    auto o = score_options(kind, min, max, labels, false);
    if (!o.ok()) return reply_error(o.error());
    auto r = judge::parse_claim_scores(reply, n_claims, o.value());
    if (!r.ok()) return reply_error(r.error());
    val arr = val::array();
    for (const auto& c : r.value()) {
      val item = val::object();
      item.set("claim", c.claim);
      item.set("score", c.score ? val(*c.score) : val::null());
      item.set("evidence", c.evidence);
      item.set("error", c.error.empty() ? val::null() : val(c.error));
      arr.call<void>("push", item);
    }
    return reply_ok(arr);
  });
}

val parse_key_values(const Bytes& reply) {
  return guard([&] {
    auto r = judge::parse_key_values(reply);
    if (!r.ok()) return reply_error(r.error());
    val arr = val::array();
    for (const auto& [k, v] : r.value()) {
      val pair = val::array();
      pair.call<void>("push", k);
      pair.call<void>("push", v);
      arr.call<void>("push", pair);
    }
    return reply_ok(arr);
  });
}

val is_abstention(const Bytes& answer) {
  return guard([&] { return reply_ok(val(judge::is_abstention(answer))); });
}

// scores: a JS array of numbers or null (null = an unparsed sample).
val aggregate(val scores, const std::string& method) {
  return guard([&] {
    judge::AggregateMethod m;
    if (method == "mean") m = judge::AggregateMethod::kMean;
    else if (method == "majority") m = judge::AggregateMethod::kMajority;
    else return reply_error("INVALID_ARGUMENT", "ragwasm: method: expected 'mean' or 'majority', got '" + method + "'");
    const unsigned n = scores["length"].as<unsigned>();
    std::vector<std::optional<double>> s;
    s.reserve(n);
    for (unsigned i = 0; i < n; ++i) {
      val x = scores[i];
      if (x.isNumber() && std::isfinite(x.as<double>())) s.emplace_back(x.as<double>());
      else s.emplace_back(std::nullopt);
    }
    const auto a = judge::aggregate(s, m);
    val v = val::object();
    v.set("value", a.value ? val(*a.value) : val::null());
    v.set("samples", static_cast<double>(a.samples));
    v.set("parsed", static_cast<double>(a.parsed));
    v.set("unparsed", static_cast<double>(a.unparsed));
    v.set("spread", a.spread);
    v.set("stddev", a.stddev);
    v.set("agreement", a.agreement);
    return reply_ok(v);
  });
}

}  // namespace
}  // namespace ragwasm::wasm

EMSCRIPTEN_BINDINGS(ragwasm_judge) {
  using namespace ragwasm::wasm;
  emscripten::function("judge_parseScore", &parse_score);
  emscripten::function("judge_parseClaimScores", &parse_claim_scores);
  emscripten::function("judge_parseKeyValues", &parse_key_values);
  emscripten::function("judge_isAbstention", &is_abstention);
  emscripten::function("judge_aggregate", &aggregate);
}
