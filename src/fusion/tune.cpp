// Grid search over fusion settings on labelled queries (see tune.h).
#include "fusion/tune.h"

#include <algorithm>
#include <cmath>

namespace ragwasm::fusion {

double ndcg_at(const std::vector<std::string>& ranked_ids, const std::map<std::string, int>& rels, std::size_t k) {
  std::vector<int> ideal;
  for (const auto& [id, rel] : rels) {
    if (rel > 0) ideal.push_back(rel);
  }
  std::sort(ideal.begin(), ideal.end(), std::greater<int>());
  double idcg = 0.0;
  for (std::size_t r = 0; r < ideal.size() && r < k; ++r) idcg += ideal[r] / std::log2(static_cast<double>(r) + 2.0);
  if (idcg <= 0) return 0.0;
  double dcg = 0.0;
  for (std::size_t r = 0; r < ranked_ids.size() && r < k; ++r) {
    auto it = rels.find(ranked_ids[r]);
    // zero-based r: the document at rank r+1 is discounted by log2((r+1)+1).
    if (it != rels.end() && it->second > 0) dcg += it->second / std::log2(static_cast<double>(r) + 2.0);
  }
  return dcg / idcg;
}

std::vector<FuseOptions> default_grid(std::size_t n) {
  std::vector<FuseOptions> g;
  if (n == 0) return g;
  for (std::size_t i = 0; i < n; ++i) {
    FuseOptions o;
    o.mode = Mode::kRrf;
    o.weights.assign(n, 0.0);
    o.weights[i] = 1.0;
    g.push_back(o);
  }
  if (n == 1) return g;
  {
    FuseOptions o;
    o.mode = Mode::kRrf;
    o.weights.assign(n, 1.0);
    g.push_back(o);
  }
  g.push_back(default_hybrid_options(n));
  const Mode modes[] = {Mode::kRrf, Mode::kConvex, Mode::kConvex, Mode::kConvex};
  const Normalization norms[] = {Normalization::kMinMax, Normalization::kMinMax, Normalization::kZScore, Normalization::kRank};
  for (int m = 0; m < 4; ++m) {
    if (n == 2) {
      for (int step = 1; step <= 9; ++step) {
        FuseOptions o;
        o.mode = modes[m];
        o.normalization = norms[m];
        const double a = step / 10.0;
        o.weights = {a, 1.0 - a};
        g.push_back(o);
      }
    } else {
      for (std::size_t p = 0; p < n; ++p) {
        FuseOptions o = default_hybrid_options(n, p);
        o.mode = modes[m];
        o.normalization = norms[m];
        g.push_back(o);
      }
    }
  }
  for (Mode m : {Mode::kCombSum, Mode::kCombMnz}) {
    FuseOptions o;
    o.mode = m;
    o.normalization = Normalization::kMinMax;
    o.weights.assign(n, 1.0);
    g.push_back(o);
  }
  return g;
}

double paired_t(const std::vector<double>& a, const std::vector<double>& b) {
  const std::size_t n = std::min(a.size(), b.size());
  if (n < 2) return 0.0;
  double mean = 0.0;
  for (std::size_t i = 0; i < n; ++i) mean += a[i] - b[i];
  mean /= static_cast<double>(n);
  double ss = 0.0;
  for (std::size_t i = 0; i < n; ++i) ss += (a[i] - b[i] - mean) * (a[i] - b[i] - mean);
  const double sd = std::sqrt(ss / static_cast<double>(n - 1));
  if (sd == 0) return mean == 0 ? 0.0 : (mean > 0 ? 1e300 : -1e300);
  return mean / (sd / std::sqrt(static_cast<double>(n)));
}

Result<TuneResult> tune(const std::vector<LabelledQuery>& queries, const Qrels& qrels,
                        const std::vector<FuseOptions>& grid, const Objective& objective, std::size_t cutoff,
                        double min_gain) {
  if (queries.empty()) return make_error(ErrorCode::kInvalidArgument, "labelledRuns: expected at least one query, got 0");
  if (grid.empty()) return make_error(ErrorCode::kInvalidArgument, "grid: expected at least one configuration, got 0");
  if (cutoff == 0) return make_error(ErrorCode::kInvalidArgument, "cutoff: expected an integer >= 1, got 0");
  const auto& first = queries[0].lists;
  for (std::size_t q = 0; q < queries.size(); ++q) {
    const auto& lists = queries[q].lists;
    bool same = lists.size() == first.size();
    for (std::size_t i = 0; same && i < lists.size(); ++i) same = lists[i].retriever == first[i].retriever;
    if (!same || lists.empty()) {
      return make_error(ErrorCode::kInvalidArgument,
                        "labelledRuns[" + std::to_string(q) + "] (query \"" + queries[q].query_id +
                            "\"): expected the same non-empty retriever lists in the same order as query \"" +
                            queries[0].query_id + "\"");
    }
  }

  // Queries evaluated.
  std::vector<std::size_t> eval;
  std::vector<std::string> eval_ids;
  static const std::map<std::string, int> kNone;
  for (std::size_t q = 0; q < queries.size(); ++q) {
    if (objective) {
      eval.push_back(q);
    } else {
      auto it = qrels.find(queries[q].query_id);
      const bool relevant = it != qrels.end() &&
                            std::any_of(it->second.begin(), it->second.end(), [](const auto& p) { return p.second > 0; });
      if (relevant) eval.push_back(q);
    }
  }
  for (std::size_t q : eval) eval_ids.push_back(queries[q].query_id);
  if (eval.empty()) {
    return make_error(ErrorCode::kInvalidArgument, "qrels: no query of labelledRuns has a relevant document (rel > 0)");
  }

  auto score = [&](const FuseOptions& o, const std::string& where, std::vector<double>* per_query = nullptr) -> Result<double> {
    std::vector<std::vector<FusedHit>> fused;
    fused.reserve(eval.size());
    for (std::size_t q : eval) {
      auto r = fuse(queries[q].lists, o);
      if (!r.ok()) {
        Error e = r.error();
        e.message = "ragwasm: " + where + " on query \"" + queries[q].query_id + "\": " + e.message.substr(9);
        return e;
      }
      fused.push_back(std::move(r).value());
    }
    double v = 0.0;
    if (objective) {
      v = objective(eval_ids, fused);
    } else {
      double sum = 0.0;
      for (std::size_t i = 0; i < eval.size(); ++i) {
        std::vector<std::string> ids;
        for (std::size_t r = 0; r < fused[i].size() && r < cutoff; ++r) ids.push_back(fused[i][r].id);
        auto it = qrels.find(eval_ids[i]);
        const double v1 = ndcg_at(ids, it == qrels.end() ? kNone : it->second, cutoff);
        if (per_query) per_query->push_back(v1);
        sum += v1;
      }
      v = sum / static_cast<double>(eval.size());
    }
    if (!std::isfinite(v)) {
      return make_error(ErrorCode::kInvalidArgument, where + ": the objective returned a non-finite value");
    }
    return v;
  };

  TuneResult out;
  out.queries = eval.size();
  for (std::size_t g = 0; g < grid.size(); ++g) {
    auto v = score(grid[g], "grid[" + std::to_string(g) + "]");
    if (!v.ok()) return v.error();
    out.table.push_back(TuneRow{grid[g], v.value()});
    if (g == 0 || v.value() > out.best_objective) {  // strict: the first best in grid order wins ties
      out.best_objective = v.value();
      out.best_index = g;
    }
  }
  out.best = grid[out.best_index];
  const std::size_t L = first.size();
  std::vector<std::vector<double>> leg_per_query(L);
  std::vector<FuseOptions> leg_options(L);
  for (std::size_t i = 0; i < L; ++i) {
    FuseOptions o;
    o.mode = Mode::kRrf;
    o.weights.assign(L, 0.0);
    o.weights[i] = 1.0;
    leg_options[i] = o;
    auto v = score(o, "single leg " + std::to_string(i), &leg_per_query[i]);
    if (!v.ok()) return v.error();
    out.single_leg.push_back(v.value());
  }
  // Safe recommendation (see tune.h).
  std::size_t best_leg = 0;
  for (std::size_t i = 1; i < L; ++i) {
    if (out.single_leg[i] > out.single_leg[best_leg]) best_leg = i;
  }
  const FuseOptions& b = out.best;
  bool best_is_leg = b.mode == Mode::kRrf && b.weights.size() == L &&
                     std::count(b.weights.begin(), b.weights.end(), 0.0) == static_cast<std::ptrdiff_t>(L - 1);
  bool keep_best = best_is_leg || L == 1;
  std::string why = "best grid entry";
  if (!keep_best) {
    if (objective) {
      const double gain = out.best_objective - out.single_leg[best_leg];
      keep_best = gain >= min_gain;
      if (!keep_best) why = "single leg " + std::to_string(best_leg) + ": gain " + std::to_string(gain) + " over it is below minGain";
    } else {
      std::vector<double> best_per_query;
      auto v = score(b, "best", &best_per_query);
      if (!v.ok()) return v.error();
      out.paired_t = paired_t(best_per_query, leg_per_query[best_leg]);
      keep_best = out.paired_t >= 1.645;
      if (!keep_best) {
        why = "single leg " + std::to_string(best_leg) + ": the gain of the best grid entry is not significant (paired t = " +
              std::to_string(out.paired_t) + " < 1.645)";
      }
    }
  }
  if (keep_best) {
    out.recommended_index = out.best_index;
    out.recommended = out.best;
    out.recommended_objective = out.best_objective;
  } else {
    out.recommended_index = grid.size() + best_leg;
    out.recommended = leg_options[best_leg];
    out.recommended_objective = out.single_leg[best_leg];
  }
  out.recommendation = why;
  return out;
}

}  // namespace ragwasm::fusion
