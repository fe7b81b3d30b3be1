// Hybrid fusion of ranked lists from several retrievers (BM25, dense, ...): RRF, convex combination
// with min-max / z-score / rank normalization, CombSUM and CombMNZ, with a per-hit explanation.
//
// Formulas (rank r is 1-based after sorting each list by score desc, then id asc; w_i is the weight
// of retriever i; a document missing from list i takes that list's "floor", see below):
//   RRF      score(d) = sum_i w_i / (k + r_i(d))                        Cormack, Clarke & Buettcher,
//            (a missing document contributes 0)                         SIGIR 2009, k = 60 default
//   convex   score(d) = sum_i (w_i / sum_j w_j) * norm_i(s_i(d))        Bruch, Gai & Ingber, ACM TOIS
//            (weights rescaled to sum to 1)                             2023 ("An analysis of fusion
//                                                                        functions for hybrid retrieval")
//   combsum  score(d) = sum_i w_i * norm_i(s_i(d))                      Fox & Shaw, TREC-2 1994
//   combmnz  score(d) = |{i : d in list i}| * combsum(d)                Fox & Shaw, TREC-2 1994
// Normalizations of one list with scores s_1..s_n (n >= 1):
//   minmax   (s - min) / (max - min); 1 for every hit when max == min;        floor 0
//   zscore   (s - mean) / std (population std); 0 for every hit when std == 0; floor = min z of the list
//   rank     (n - r + 1) / n, i.e. 1 for the top hit, 1/n for the last;       floor 0
// The floor is what a document absent from a list receives, so that not being retrieved never
// scores better than being retrieved last.
// Ties: fused score desc, then id asc (byte order). Summation runs over retrievers in input order
// (fixed order, so native and WASM agree bit for bit).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "common/result.h"

namespace ragwasm::fusion {

struct ScoredId {
  std::string id;
  double score = 0.0;
};

// One retriever's ranked list. Order of `hits` is irrelevant: ranks come from sorting by score desc,
// then id asc. Ids must be unique within a list; scores must be finite.
struct RankedList {
  std::string retriever;  // name shown in explanations and diagnostics, unique across lists
  std::vector<ScoredId> hits;
};

enum class Mode { kRrf, kConvex, kCombSum, kCombMnz };
enum class Normalization { kMinMax, kZScore, kRank };

const char* mode_name(Mode m);
const char* normalization_name(Normalization n);

struct FuseOptions {
  Mode mode = Mode::kRrf;
  Normalization normalization = Normalization::kMinMax;  // ignored by RRF
  std::vector<double> weights;  // one per list, finite and >= 0; empty = all 1
  double rrf_k = 60.0;          // RRF constant, finite and >= 0
  std::size_t top_k = 0;        // keep the best top_k fused hits; 0 = keep all
};

// What one retriever contributed to one fused hit.
struct Contribution {
  bool present = false;       // the retriever returned this id
  std::size_t rank = 0;       // 1-based rank in that retriever's list; 0 when absent
  double raw = 0.0;           // raw retriever score; 0 when absent
  double normalized = 0.0;    // normalized score (RRF: 1/(k+rank)); the floor when absent
  double weight = 0.0;        // effective weight (convex: rescaled to sum to 1)
  double contribution = 0.0;  // weight * normalized (before the CombMNZ multiplier)
};

struct FusedHit {
  std::string id;
  double score = 0.0;
  std::size_t rank = 0;  // 1-based rank in the fused list
  std::size_t present_in = 0;  // number of lists containing the id
  std::vector<Contribution> contributions;  // one per input list, in input order
};

// Fuses ranked lists into one deduplicated list with explanations.
//   auto r = fuse({{"bm25", {{"a", 12.0}}}, {"dense", {{"a", 0.8}, {"b", 0.7}}}}, {});
//   r.value()[0].id == "a"
// Errors: INVALID_ARGUMENT when there are no lists, weights has the wrong length or a weight is
// negative/NaN/infinite, all convex weights are 0, rrf_k is negative/NaN, a score is not finite or a
// retriever name is empty or repeated; DUPLICATE_ID when an id repeats within one list.
Result<std::vector<FusedHit>> fuse(const std::vector<RankedList>& lists, const FuseOptions& options);

// Normalized scores of one list (in the order of `hits`), as used by fuse(). Exposed for tests.
std::vector<double> normalize(const std::vector<ScoredId>& hits, Normalization n);

// ---- Diagnostics: is one leg much weaker? (unsupervised; no labels needed) ----

struct PairAgreement {
  std::size_t a = 0, b = 0;  // list indexes
  double overlap = 0.0;      // |top_k(a) ∩ top_k(b)| / min(k, |a|, |b|); 0 when either list is empty
  double spearman = 0.0;     // Spearman correlation of ranks over ids in both top_k lists (0 if < 3 shared)
  std::size_t shared = 0;    // ids in both top_k lists
};

struct LegStats {
  std::string retriever;
  std::size_t size = 0;
  double max_z = 0.0;  // (top score - mean) / std over the list: how much the best hit stands out
};

struct Diagnostics {
  std::size_t k = 10;
  std::vector<LegStats> legs;
  std::vector<PairAgreement> pairs;
  std::vector<std::string> warnings;  // human-readable, empty when nothing looks wrong
};

// Agreement between legs for one query. Warns when two legs share fewer than `min_overlap` of their
// top-k hits, or a leg is empty.
Diagnostics diagnose(const std::vector<RankedList>& lists, std::size_t k = 10, double min_overlap = 0.2);

// ---- Safe default hybrid without labels ----

// The documented conservative weighting used when no labels are available: convex combination,
// min-max normalization, the primary list (index `primary`, default 0 = the first) weighted 0.7 and
// the remaining 0.3 shared equally by the other lists. Rationale in docs/fusion.md: plain RRF or equal
// weights let a much weaker leg pull the fused list down (SciFact, BM25 0.677 vs static dense 0.253
// nDCG@10: RRF 0.43); keeping the primary leg dominant bounds that loss while still letting strong
// secondary evidence reorder close calls.
FuseOptions default_hybrid_options(std::size_t num_lists, std::size_t primary = 0);

}  // namespace ragwasm::fusion
