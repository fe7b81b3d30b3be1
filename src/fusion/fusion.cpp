// Fusion of ranked lists (see fusion.h for the formulas and their sources).
#include "fusion/fusion.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include "common/format.h"
#include "common/ranking.h"

namespace ragwasm::fusion {

const char* mode_name(Mode m) {
  switch (m) {
    case Mode::kRrf: return "rrf";
    case Mode::kConvex: return "convex";
    case Mode::kCombSum: return "combsum";
    case Mode::kCombMnz: return "combmnz";
  }
  return "rrf";
}

const char* normalization_name(Normalization n) {
  switch (n) {
    case Normalization::kMinMax: return "minmax";
    case Normalization::kZScore: return "zscore";
    case Normalization::kRank: return "rank";
  }
  return "minmax";
}

namespace {

// Indexes of `hits` sorted by score desc, then id asc: position p holds the hit of rank p + 1.
std::vector<std::size_t> rank_order(const std::vector<ScoredId>& hits) {
  std::vector<std::size_t> order(hits.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return ranks_before(hits[a].score, hits[a].id, hits[b].score, hits[b].id);
  });
  return order;
}

struct Moments {
  double mean = 0.0, std = 0.0, min = 0.0, max = 0.0;
};

// Mean and population standard deviation, summed in descending score order so the result does not
// depend on the order the caller listed the hits in.
// Scores are multiplied by `scale` first (see overflow_scale).
Moments moments(const std::vector<ScoredId>& hits, double scale) {
  Moments m;
  if (hits.empty()) return m;
  std::vector<double> s(hits.size());
  for (std::size_t i = 0; i < hits.size(); ++i) s[i] = hits[i].score * scale;
  std::sort(s.begin(), s.end(), std::greater<double>());
  m.max = s.front();
  m.min = s.back();
  double sum = 0.0;
  for (double x : s) sum += x;
  m.mean = sum / static_cast<double>(s.size());
  double sq = 0.0;
  for (double x : s) sq += (x - m.mean) * (x - m.mean);
  m.std = std::sqrt(sq / static_cast<double>(hits.size()));
  return m;
}

// Finite scores near DBL_MAX overflow max - min, the sum or the squared deviations (inf / inf = NaN).
// Min-max and z-score are scale invariant, so such a list is first multiplied by a power of two
// (exact for normal numbers); lists with every |score| < 2^500 keep scale 1 and unchanged results.
double overflow_scale(const std::vector<ScoredId>& hits) {
  double big = 0.0;
  for (const auto& h : hits) big = std::max(big, std::fabs(h.score));
  if (big < std::ldexp(1.0, 500)) return 1.0;
  int e = 0;
  (void)std::frexp(big, &e);
  return std::ldexp(1.0, -e);
}

// The value a document absent from the list receives (see fusion.h).
double floor_value(const std::vector<double>& normalized, Normalization n) {
  if (n != Normalization::kZScore || normalized.empty()) return 0.0;
  return *std::min_element(normalized.begin(), normalized.end());
}


Status validate(const std::vector<RankedList>& lists, const FuseOptions& o) {
  if (lists.empty()) return make_error(ErrorCode::kInvalidArgument, "lists: expected at least one ranked list, got 0");
  if (!o.weights.empty() && o.weights.size() != lists.size()) {
    return make_error(ErrorCode::kInvalidArgument, "weights: expected " + std::to_string(lists.size()) +
                                                       " weights (one per list), got " + std::to_string(o.weights.size()));
  }
  double total = 0.0;
  for (std::size_t i = 0; i < o.weights.size(); ++i) {
    const double w = o.weights[i];
    if (!std::isfinite(w) || w < 0) {
      return make_error(ErrorCode::kInvalidArgument,
                        "weights[" + std::to_string(i) + "]: expected a finite number >= 0, got " + number_text(w));
    }
    total += w;
  }
  if (o.mode == Mode::kConvex && !o.weights.empty() && total <= 0) {
    return make_error(ErrorCode::kInvalidArgument, "weights: convex combination needs at least one weight > 0, got all 0");
  }
  if (!std::isfinite(o.rrf_k) || o.rrf_k < 0) {
    return make_error(ErrorCode::kInvalidArgument, "k: expected a finite number >= 0 (RRF constant), got " + number_text(o.rrf_k));
  }
  std::set<std::string> names;
  for (std::size_t i = 0; i < lists.size(); ++i) {
    const auto& l = lists[i];
    const std::string where = "lists[" + std::to_string(i) + "]";
    if (l.retriever.empty()) return make_error(ErrorCode::kInvalidArgument, where + ".retriever: expected a non-empty name, got \"\"");
    if (!names.insert(l.retriever).second) {
      return make_error(ErrorCode::kInvalidArgument, where + ".retriever: expected a unique name, got \"" + l.retriever + "\" twice");
    }
    std::set<std::string_view> ids;
    for (std::size_t j = 0; j < l.hits.size(); ++j) {
      if (!std::isfinite(l.hits[j].score)) {
        return make_error(ErrorCode::kInvalidArgument, where + ".hits[" + std::to_string(j) +
                                                           "].score: expected a finite number, got " + number_text(l.hits[j].score));
      }
      if (!ids.insert(l.hits[j].id).second) {
        return make_error(ErrorCode::kDuplicateId, where + ".hits[" + std::to_string(j) + "].id: \"" + l.hits[j].id +
                                                       "\" appears twice in retriever \"" + l.retriever + "\"");
      }
    }
  }
  return Status::success();
}

}  // namespace

std::vector<double> normalize(const std::vector<ScoredId>& hits, Normalization n) {
  std::vector<double> out(hits.size(), 0.0);
  if (hits.empty()) return out;
  switch (n) {
    case Normalization::kMinMax: {
      const double scale = overflow_scale(hits);
      const Moments m = moments(hits, scale);
      const double range = m.max - m.min;
      for (std::size_t i = 0; i < hits.size(); ++i) out[i] = range > 0 ? (hits[i].score * scale - m.min) / range : 1.0;
      break;
    }
    case Normalization::kZScore: {
      const double scale = overflow_scale(hits);
      const Moments m = moments(hits, scale);
      for (std::size_t i = 0; i < hits.size(); ++i) out[i] = m.std > 0 ? (hits[i].score * scale - m.mean) / m.std : 0.0;
      break;
    }
    case Normalization::kRank: {
      const auto order = rank_order(hits);
      const double nn = static_cast<double>(hits.size());
      for (std::size_t p = 0; p < order.size(); ++p) out[order[p]] = (nn - static_cast<double>(p)) / nn;
      break;
    }
  }
  return out;
}

Result<std::vector<FusedHit>> fuse(const std::vector<RankedList>& lists, const FuseOptions& o) {
  RAGWASM_TRY(validate(lists, o));
  const std::size_t L = lists.size();

  // Effective weights.
  std::vector<double> w(L, 1.0);
  if (!o.weights.empty()) w = o.weights;
  if (o.mode == Mode::kConvex) {
    double total = 0.0;
    for (double x : w) total += x;
    for (double& x : w) x /= total;
  }

  // Per list: ranks (1-based) and normalized scores, indexed like hits; and the floor.
  std::vector<std::vector<std::size_t>> ranks(L);
  std::vector<std::vector<double>> norm(L);
  std::vector<double> floors(L, 0.0);
  for (std::size_t i = 0; i < L; ++i) {
    const auto& hits = lists[i].hits;
    const auto order = rank_order(hits);
    ranks[i].assign(hits.size(), 0);
    for (std::size_t p = 0; p < order.size(); ++p) ranks[i][order[p]] = p + 1;
    if (o.mode == Mode::kRrf) {
      norm[i].resize(hits.size());
      for (std::size_t j = 0; j < hits.size(); ++j) norm[i][j] = 1.0 / (o.rrf_k + static_cast<double>(ranks[i][j]));
      // rrf_k == 0 and rank >= 1: never a division by zero.
    } else {
      norm[i] = normalize(hits, o.normalization);
      floors[i] = floor_value(norm[i], o.normalization);
    }
  }

  // Union of ids in first-seen order; per id the hit index in each list (or npos).
  constexpr std::size_t npos = static_cast<std::size_t>(-1);
  std::unordered_map<std::string_view, std::size_t> slot;
  std::vector<std::string_view> ids;
  std::vector<std::vector<std::size_t>> where;
  for (std::size_t i = 0; i < L; ++i) {
    for (std::size_t j = 0; j < lists[i].hits.size(); ++j) {
      const std::string_view id = lists[i].hits[j].id;
      auto [it, inserted] = slot.emplace(id, ids.size());
      if (inserted) {
        ids.push_back(id);
        where.emplace_back(L, npos);
      }
      where[it->second][i] = j;
    }
  }

  std::vector<FusedHit> out(ids.size());
  for (std::size_t d = 0; d < ids.size(); ++d) {
    FusedHit& h = out[d];
    h.id = std::string(ids[d]);
    h.contributions.resize(L);
    double sum = 0.0;  // summed over lists in input order
    for (std::size_t i = 0; i < L; ++i) {
      Contribution& c = h.contributions[i];
      c.weight = w[i];
      const std::size_t j = where[d][i];
      if (j != npos) {
        c.present = true;
        c.rank = ranks[i][j];
        c.raw = lists[i].hits[j].score;
        c.normalized = norm[i][j];
        ++h.present_in;
      } else {
        c.normalized = o.mode == Mode::kRrf ? 0.0 : floors[i];
      }
      c.contribution = c.weight * c.normalized;
      sum += c.contribution;
    }
    h.score = o.mode == Mode::kCombMnz ? sum * static_cast<double>(h.present_in) : sum;
  }
  std::sort(out.begin(), out.end(), [](const FusedHit& a, const FusedHit& b) {
    return ranks_before(a.score, a.id, b.score, b.id);
  });
  if (o.top_k > 0 && out.size() > o.top_k) out.resize(o.top_k);
  for (std::size_t r = 0; r < out.size(); ++r) out[r].rank = r + 1;
  return out;
}

Diagnostics diagnose(const std::vector<RankedList>& lists, std::size_t k, double min_overlap) {
  Diagnostics d;
  d.k = k;
  std::vector<std::vector<std::string>> top(lists.size());
  for (std::size_t i = 0; i < lists.size(); ++i) {
    const auto& hits = lists[i].hits;
    LegStats s;
    s.retriever = lists[i].retriever;
    s.size = hits.size();
    const Moments m = moments(hits, overflow_scale(hits));  // max_z is scale invariant too
    s.max_z = m.std > 0 ? (m.max - m.mean) / m.std : 0.0;
    d.legs.push_back(s);
    const auto order = rank_order(hits);
    for (std::size_t p = 0; p < order.size() && p < k; ++p) top[i].push_back(hits[order[p]].id);
    if (hits.empty()) d.warnings.push_back("retriever \"" + s.retriever + "\" returned no hits for this query");
  }
  for (std::size_t a = 0; a < lists.size(); ++a) {
    for (std::size_t b = a + 1; b < lists.size(); ++b) {
      PairAgreement p;
      p.a = a;
      p.b = b;
      std::unordered_map<std::string_view, std::size_t> pos_b;
      for (std::size_t r = 0; r < top[b].size(); ++r) pos_b.emplace(top[b][r], r);
      std::vector<std::pair<double, double>> shared_ranks;
      for (std::size_t r = 0; r < top[a].size(); ++r) {
        auto it = pos_b.find(top[a][r]);
        if (it != pos_b.end()) shared_ranks.emplace_back(static_cast<double>(r), static_cast<double>(it->second));
      }
      p.shared = shared_ranks.size();
      const std::size_t denom = std::min(top[a].size(), top[b].size());
      p.overlap = denom == 0 ? 0.0 : static_cast<double>(p.shared) / static_cast<double>(denom);
      if (shared_ranks.size() >= 3) {
        // Spearman over the shared ids: re-rank them 0..m-1 within each list (no ties: ranks are
        // distinct positions), rho = 1 - 6 * sum d^2 / (m (m^2 - 1)).
        const std::size_t m = shared_ranks.size();
        std::vector<std::size_t> ob(m);
        for (std::size_t i = 0; i < m; ++i) ob[i] = i;
        std::sort(ob.begin(), ob.end(), [&](std::size_t x, std::size_t y) { return shared_ranks[x].second < shared_ranks[y].second; });
        std::vector<double> rb(m);
        for (std::size_t i = 0; i < m; ++i) rb[ob[i]] = static_cast<double>(i);
        double d2 = 0.0;
        for (std::size_t i = 0; i < m; ++i) d2 += (static_cast<double>(i) - rb[i]) * (static_cast<double>(i) - rb[i]);
        const double mm = static_cast<double>(m);
        p.spearman = 1.0 - 6.0 * d2 / (mm * (mm * mm - 1.0));
      }
      if (denom > 0 && p.overlap < min_overlap) {
        d.warnings.push_back("retrievers \"" + lists[a].retriever + "\" and \"" + lists[b].retriever + "\" share only " +
                             std::to_string(p.shared) + " of their top " + std::to_string(denom) +
                             " hits: one leg may be much weaker; check each leg alone or tune the fusion weights with labels");
      }
      d.pairs.push_back(p);
    }
  }
  return d;
}

FuseOptions default_hybrid_options(std::size_t num_lists, std::size_t primary) {
  FuseOptions o;
  o.mode = Mode::kConvex;
  o.normalization = Normalization::kMinMax;
  if (num_lists <= 1) {
    o.weights.assign(num_lists, 1.0);
    return o;
  }
  if (primary >= num_lists) primary = 0;
  o.weights.assign(num_lists, 0.3 / static_cast<double>(num_lists - 1));
  o.weights[primary] = 0.7;
  return o;
}

}  // namespace ragwasm::fusion
