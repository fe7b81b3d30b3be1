// Parsers for LLM judge replies: a score on a declared scale ("Rating: 2", "Score: 3/3", "85%",
// JSON, chain-of-thought before the final score), per-claim scores for groundedness, key: value
// lines for metadata extraction, abstention detection, and self-consistency aggregation.
// A reply without a usable score is a PARSE_ERROR with the reason: never NaN, never a silent zero.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/limits.h"
#include "common/result.h"

namespace ragwasm::judge {

// Maximum reply size parsed (bytes); longer replies are LIMIT_EXCEEDED (common/limits.h).
constexpr std::size_t kMaxReplyBytes = kMaxJudgeReplyBytes;

enum class ScaleKind {
  kRating,   // an ordinal rating in [min, max], e.g. 0-3
  kPercent,  // a percentage in [0, 100]; "0.85" (a decimal <= 1 without '%') means 85
};

struct ScoreOptions {
  ScaleKind kind = ScaleKind::kRating;
  double min = 0;  // inclusive; ignored for kPercent (0)
  double max = 3;  // inclusive; ignored for kPercent (100)
  // Labels that introduce the score, matched case-insensitively as whole words ("rating", "score",
  // "final score"...). The JSON key may be any of them as well.
  std::vector<std::string> labels = {"final score", "final rating", "overall score", "rating",
                                     "score", "relevance", "correctness", "grade", "verdict"};
  bool integer_only = false;  // reject 2.5 on an integer rubric
};

// How the score was found, most trusted first.
enum class ScoreMethod { kJson, kLabelled, kPercentSign, kFraction, kBare };
const char* score_method_name(ScoreMethod m);

struct ParsedScore {
  double value = 0;             // on the declared scale (percent: 0-100)
  ScoreMethod method = ScoreMethod::kBare;
  std::size_t offset = 0;       // byte offset of the number in the reply
  bool ambiguous = false;       // several different labelled scores were present (the last one wins)
};

// Finds the judge's final score. Order of precedence:
//   1. the last JSON object in the reply with a label key (e.g. {"score": 2}), code fences allowed;
//   2. the last "<label> : <number>" (also "**Rating:** 2", "Score = 3/3", "Rating: [[2]]");
//      a "/d" denominator must equal the scale max (or for percent scales rescales to 100);
//   3. percent scales only: the last "<number>%";
//   4. the last "<n>/<d>" with d equal to the scale max;
//   5. the whole reply is a single number (after trimming punctuation and markup).
// Number grammar (outside JSON numbers): [+-]? digits ('.' digits)? | [+-]? '.' digits, then an
// optional '%' or "/ d" / "out of d" with d a positive number of the same grammar. No exponents, no
// hex, no infinities: "3e2", "1e309", ".5e1" and "3/0" are refused with PARSE_ERROR naming the text
// (never read as their leading digits); when one is the chosen candidate the reply has no score.
// Errors: PARSE_ERROR when no score is found, when it is outside [min, max], not an integer with
// integer_only, a fraction's denominator does not match, or the chosen number is outside the grammar
// above; LIMIT_EXCEEDED over kMaxReplyBytes;
// INVALID_ARGUMENT when min > max or a label is empty.
Result<ParsedScore> parse_score(std::string_view reply, const ScoreOptions& options = {});

// One claim's score from a groundedness reply.
struct ClaimScore {
  int claim = 0;                      // 1-based claim number
  std::optional<double> score;        // absent when the reply had no usable score for it
  std::string evidence;               // quoted evidence, possibly empty
  std::string error;                  // why the score is absent
};

// Reads per-claim scores for claims 1..n_claims. Accepted shapes: JSON (an array, or an object with
// a "claims" array, of {"claim": n, "score": s, "evidence": "..."}), or one line per claim like
// "[2] Score: 3 | Evidence: ..." / "Claim 2: ... Score: 1/3". Claims missing from the reply have no
// score and an error. Errors: INVALID_ARGUMENT (n_claims outside 1..1000), LIMIT_EXCEEDED.
Result<std::vector<ClaimScore>> parse_claim_scores(std::string_view reply, int n_claims,
                                                   const ScoreOptions& options = {});

// "key: value" lines (metadata extraction). Keys are trimmed and lowercased, markdown bullets and
// bold markers removed; lines without a colon, or with an empty key or value, are skipped; a key
// seen twice keeps its first value. Errors: LIMIT_EXCEEDED.
Result<std::vector<std::pair<std::string, std::string>>> parse_key_values(std::string_view reply);

// True when an answer declines to answer from the documents ("not in the documents", "the documents
// do not answer", "I don't know", "cannot be determined from the context"...), case-insensitive.
bool is_abstention(std::string_view answer);

enum class AggregateMethod { kMean, kMajority };

// Self-consistency over n samples of the same judgment.
struct Aggregate {
  std::optional<double> value;   // absent when no sample parsed
  std::size_t samples = 0;       // all samples
  std::size_t parsed = 0;        // samples with a score
  std::size_t unparsed = 0;      // samples without one (reported, never counted as zero)
  double spread = 0;             // max - min of the parsed scores (0 with < 2 parsed)
  double stddev = 0;             // population standard deviation of the parsed scores
  double agreement = 0;          // share of parsed samples equal to the majority value
};

// mean: arithmetic mean in sample order. majority: the most frequent value; ties go to the smaller
// value (conservative). Absent entries in `scores` are unparsed samples.
Aggregate aggregate(const std::vector<std::optional<double>>& scores, AggregateMethod method);

}  // namespace ragwasm::judge
