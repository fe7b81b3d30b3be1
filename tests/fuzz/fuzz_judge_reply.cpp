// libFuzzer entry for src/judge: score, claim and key-value parsing of arbitrary LLM replies.
// Invariants: no crash; a parsed score is finite and inside the declared scale; claim results have
// exactly n entries, each with either a finite in-range score or an error.
#include <cmath>
#include <cstdint>
#include <string_view>

#include "judge/reply_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ragwasm::judge;
  const std::string_view reply(reinterpret_cast<const char*>(data), size);
  ScoreOptions rating;
  auto r = parse_score(reply, rating);
  if (r.ok() && (!std::isfinite(r.value().value) || r.value().value < 0 || r.value().value > 3)) __builtin_trap();
  ScoreOptions pct;
  pct.kind = ScaleKind::kPercent;
  auto p = parse_score(reply, pct);
  if (p.ok() && (!std::isfinite(p.value().value) || p.value().value < 0 || p.value().value > 100)) __builtin_trap();
  auto c = parse_claim_scores(reply, 4, rating);
  if (c.ok()) {
    if (c.value().size() != 4) __builtin_trap();
    for (const auto& cs : c.value()) {
      if (cs.score && (*cs.score < 0 || *cs.score > 3)) __builtin_trap();
      if (!cs.score && cs.error.empty()) __builtin_trap();
    }
  }
  (void)parse_key_values(reply);
  (void)is_abstention(reply);
  return 0;
}
