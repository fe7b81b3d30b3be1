// Choosing fusion settings from labelled data: a grid of FuseOptions scored by a metric (default
// nDCG@10 with linear gain, as trec_eval's ndcg_cut.10), best = highest mean, first in grid order on ties.
// Because the default grid starts with every single leg alone, the chosen setting never scores below
// the better single retriever on the labelled queries it was tuned on.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common/result.h"
#include "fusion/fusion.h"

namespace ragwasm::fusion {

// Ranked lists of every retriever for one labelled query (same retrievers, same order, every query).
struct LabelledQuery {
  std::string query_id;
  std::vector<RankedList> lists;
};

// query id -> document id -> graded relevance (<= 0 = not relevant).
using Qrels = std::map<std::string, std::map<std::string, int>>;

// nDCG@k of one ranking (trec_eval ndcg_cut): DCG = sum_{r=1..k} rel(d_r) / log2(r + 1) with
// rel < 0 treated as 0; IDCG from the query's judged relevances sorted desc, cut at k. 0 when IDCG = 0.
double ndcg_at(const std::vector<std::string>& ranked_ids, const std::map<std::string, int>& rels, std::size_t k);

// The default grid for `num_lists` retrievers (order matters for ties):
//   each leg alone (RRF with one-hot weights, which keeps that leg's order exactly);
//   RRF k=60 with equal weights; the default_hybrid_options; then for two lists, weight a on list 0
//   and 1-a on list 1 for a = 0.1..0.9 step 0.1 in RRF, convex min-max, convex z-score and convex rank;
//   for other list counts, each list at 0.7 with the rest sharing 0.3, in those four modes;
//   CombSUM and CombMNZ (min-max, equal weights).
std::vector<FuseOptions> default_grid(std::size_t num_lists);

// Objective: receives the fused ranking of every evaluated query (parallel to `query_ids`) and
// returns a number to maximize.
using Objective = std::function<double(const std::vector<std::string>& query_ids,
                                       const std::vector<std::vector<FusedHit>>& fused)>;

struct TuneRow {
  FuseOptions options;
  double objective = 0.0;
};

struct TuneResult {
  std::size_t best_index = 0;  // into table (= grid)
  FuseOptions best;
  double best_objective = 0.0;
  std::vector<TuneRow> table;  // one row per grid entry, grid order
  std::size_t queries = 0;     // queries evaluated (those with >= 1 relevant document when objective is the default)
  std::vector<double> single_leg;  // default objective of each leg alone (same queries), list order
  // The safe recommendation: `best` when it is a single leg, or when it beats the best single leg
  // significantly on the tuning queries (paired one-sided t-test over per-query nDCG, t >= 1.645,
  // i.e. p < 0.05); otherwise that single leg. With a caller objective (no per-query values) the
  // recommendation requires a gain of at least min_gain over the best single leg instead.
  std::size_t recommended_index = 0;  // into table, or table.size() + leg when a single leg is chosen
  FuseOptions recommended;
  double recommended_objective = 0.0;
  std::string recommendation;  // why: "best grid entry", "single leg 0: gain not significant (t = ...)"
  double paired_t = 0.0;       // t statistic of best vs the best single leg (0 when not computed)
};

// Scores every grid entry and returns the best. objective == nullptr: mean nDCG@cutoff over the
// queries having at least one relevant document in qrels (others are skipped).
// Errors: INVALID_ARGUMENT when queries is empty, queries disagree on the number or names of lists,
// grid is empty, cutoff is 0, no query has a relevant document (default objective), the objective
// returns NaN; any fuse() error of a grid entry, prefixed with "grid[i]".
Result<TuneResult> tune(const std::vector<LabelledQuery>& queries, const Qrels& qrels,
                        const std::vector<FuseOptions>& grid, const Objective& objective = nullptr,
                        std::size_t cutoff = 10, double min_gain = 0.01);

// Paired one-sided t statistic of per-query differences a - b (mean / (sd / sqrt(n)), sample sd);
// 0 when n < 2; +-large when sd == 0 and the mean is not 0.
double paired_t(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace ragwasm::fusion
