// Chunk-agnostic retrieval evaluation: ground truth is an evidence excerpt (text, optionally a
// character span in a document), not a chunk id, so any chunker can be scored against the same
// questions. A retrieved chunk is relevant to an evidence when
//   (a) both carry spans in the same document and the spans overlap by >= min_overlap characters, or
//   (b) otherwise, evidence_containment(excerpt, chunk) >= threshold (fuzzy text match).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace ragwasm::metrics {

// Lowercase + accent fold (text::fold), ASCII punctuation -> space, white space collapsed, trimmed.
std::string normalize_for_match(std::string_view s);

// Fraction of the normalized excerpt found in the normalized chunk, partial-ratio style:
//   1 - min over substrings S of chunk of lev(excerpt, S) / |excerpt|       (code points, >= 0)
// computed by semi-global alignment (Sellers 1980: free start and end in the chunk), O(|e| * |c|).
// An exact substring scores 1 (checked first, linear); a chunk holding only half of the excerpt
// scores about 0.5. An empty excerpt scores 0.
// Errors: kLimitExceeded when the alignment would need more than kMaxAlignmentCells (1e8) cells
// (src/common/limits.h, issue #19: a 50 MB chunk must not freeze the caller).
Result<double> evidence_containment(std::string_view excerpt, std::string_view chunk);

struct EvidenceSpan {
  std::string doc_id;       // "" = same document as the chunk whenever both have spans
  long start = -1, end = -1;  // character offsets [start, end); -1 = unknown
};
struct Evidence {
  std::string text;
  EvidenceSpan span;
};
struct RetrievedChunk {
  std::string text;
  EvidenceSpan span;
};
struct EvidenceOptions {
  double threshold = 0.8;  // minimum evidence_containment for a text match
  long min_overlap = 1;    // characters of span overlap for a span match
};

// matches[i][j]: chunk i (rank i + 1) is relevant to evidence j. LIMIT_EXCEEDED when an inexact
// text match would need more than 4e8 alignment cells (|excerpt| x |chunk| code points).
Result<std::vector<std::vector<bool>>> match_evidence(const std::vector<RetrievedChunk>& chunks, const std::vector<Evidence>& evidence,
                                                      const EvidenceOptions& options);

// Per-question metrics from a match matrix, at cutoff k (k >= 1):
//   recall@k    = evidences matched by at least one of the top k chunks / evidences (0 if none)
//   precision@k = relevant chunks among the top k / k
//   rr          = 1 / rank of the first relevant chunk (0 if none)
struct EvidenceScores {
  double recall = 0, precision = 0, rr = 0;
};
EvidenceScores evidence_scores(const std::vector<std::vector<bool>>& matches, std::size_t num_evidence, int k);

// Recall curve for k = 1..max_k (index k - 1): recall@k of one question.
std::vector<double> recall_curve(const std::vector<std::vector<bool>>& matches, std::size_t num_evidence, int max_k);

// One question of an evidence evaluation: its gold evidence and the retrieved chunks in rank order.
struct EvidenceQuestion {
  std::vector<Evidence> evidence;
  std::vector<RetrievedChunk> chunks;
};
struct EvidenceQuestionScores {
  std::vector<double> recall, precision;  // one per requested cutoff k
  double rr = 0;                          // reciprocal rank of the first relevant chunk
  std::vector<bool> relevant;             // per chunk: it matches at least one evidence
};
// Means over questions (each question weighs 1; an empty question list gives zeros).
struct EvidenceReport {
  std::vector<EvidenceQuestionScores> per_question;
  std::vector<double> recall, precision;  // mean recall@k / precision@k, one per requested k
  double mrr = 0;
  std::vector<double> curve;              // mean recall@k for k = 1..max_k (index k - 1)
};
// Matches every question (match_evidence) and averages evidence_scores and recall_curve over them,
// summing questions in input order. INVALID_ARGUMENT when a k is < 1 or max_k < 0; errors of
// match_evidence pass through.
Result<EvidenceReport> evaluate_evidence(const std::vector<EvidenceQuestion>& questions, const EvidenceOptions& options,
                                         const std::vector<int>& ks, int max_k);

// Cutoff recommender on a mean recall curve (curve[k - 1] = mean recall@k): the smallest k such that
// the marginal gain of the next `window` steps, (curve[k - 1 + window] - curve[k - 1]) / window, is
// below min_gain; curve.size() when the gain never drops. INVALID_ARGUMENT for an empty curve,
// window < 1 or min_gain not in [0, 1].
Result<int> recommend_cutoff(const std::vector<double>& curve, double min_gain = 0.01, int window = 1);

}  // namespace ragwasm::metrics
