// MMR, neighbour expansion and chunk -> document aggregation (see shaping.h).
#include "fusion/shaping.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>
#include <tuple>
#include <utility>
#include "common/format.h"
#include "common/ranking.h"

namespace ragwasm::fusion {
namespace {


Status check_candidates(const std::vector<ScoredId>& c, const MmrOptions& o) {
  if (!(o.lambda >= 0.0 && o.lambda <= 1.0)) {
    return make_error(ErrorCode::kInvalidArgument, "lambda: expected a number in [0, 1], got " + number_text(o.lambda));
  }
  if (o.k == 0) return make_error(ErrorCode::kInvalidArgument, "k: expected an integer >= 1, got 0");
  std::set<std::string_view> ids;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (!std::isfinite(c[i].score)) {
      return make_error(ErrorCode::kInvalidArgument, "candidates[" + std::to_string(i) + "].score: expected a finite number, got " + number_text(c[i].score));
    }
    if (!ids.insert(c[i].id).second) {
      return make_error(ErrorCode::kDuplicateId, "candidates[" + std::to_string(i) + "].id: \"" + c[i].id + "\" appears twice");
    }
  }
  return Status::success();
}

template <class Sim>
std::vector<MmrHit> mmr_core(const std::vector<ScoredId>& c, const MmrOptions& o, Sim sim) {
  const std::size_t n = c.size();
  std::vector<double> rel(n, 1.0);
  if (n > 0) {
    double lo = c[0].score, hi = c[0].score;
    for (const auto& x : c) lo = std::min(lo, x.score), hi = std::max(hi, x.score);
    if (hi > lo) {
      for (std::size_t i = 0; i < n; ++i) rel[i] = (c[i].score - lo) / (hi - lo);
    }
  }
  std::vector<double> max_sim(n, 0.0);
  std::vector<bool> picked(n, false);
  std::vector<MmrHit> out;
  const std::size_t k = std::min(o.k, n);
  for (std::size_t step = 0; step < k; ++step) {
    std::size_t best = n;
    double best_v = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      if (picked[i]) continue;
      const double v = o.lambda * rel[i] - (1.0 - o.lambda) * (step == 0 ? 0.0 : max_sim[i]);
      if (best == n || v > best_v || (v == best_v && (rel[i] > rel[best] || (rel[i] == rel[best] && c[i].id < c[best].id)))) {
        best = i;
        best_v = v;
      }
    }
    picked[best] = true;
    out.push_back(MmrHit{c[best].id, c[best].score, best_v, step == 0 ? 0.0 : max_sim[best], best});
    for (std::size_t i = 0; i < n; ++i) {
      if (picked[i]) continue;
      const double s = sim(i, best);
      max_sim[i] = step == 0 ? s : std::max(max_sim[i], s);
    }
  }
  return out;
}

}  // namespace

Result<std::vector<MmrHit>> mmr_vectors(const std::vector<ScoredId>& c, const std::vector<float>& vectors,
                                        std::size_t dim, const MmrOptions& o) {
  RAGWASM_TRY(check_candidates(c, o));
  const std::size_t n = c.size();
  if (n > 0 && (dim == 0 || vectors.size() != n * dim)) {
    return make_error(ErrorCode::kDimensionMismatch, "vectors: expected " + std::to_string(n) + " x dim values with dim >= 1, got " +
                                                         std::to_string(vectors.size()) + " values for dim " + std::to_string(dim));
  }
  for (std::size_t i = 0; i < vectors.size(); ++i) {
    if (!std::isfinite(vectors[i])) {
      return make_error(ErrorCode::kInvalidArgument, "vectors[" + std::to_string(i) + "]: expected a finite number, got " + number_text(vectors[i]));
    }
  }
  std::vector<double> norms(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    double s = 0.0;
    for (std::size_t j = 0; j < dim; ++j) s += static_cast<double>(vectors[i * dim + j]) * vectors[i * dim + j];
    norms[i] = std::sqrt(s);
  }
  return mmr_core(c, o, [&](std::size_t a, std::size_t b) {
    if (norms[a] == 0 || norms[b] == 0) return 0.0;
    double s = 0.0;
    for (std::size_t j = 0; j < dim; ++j) s += static_cast<double>(vectors[a * dim + j]) * vectors[b * dim + j];
    return s / (norms[a] * norms[b]);
  });
}

Result<std::vector<MmrHit>> mmr_matrix(const std::vector<ScoredId>& c, const std::vector<double>& sim, const MmrOptions& o) {
  RAGWASM_TRY(check_candidates(c, o));
  const std::size_t n = c.size();
  if (sim.size() != n * n) {
    return make_error(ErrorCode::kDimensionMismatch, "similarity: expected " + std::to_string(n) + " x " + std::to_string(n) +
                                                         " = " + std::to_string(n * n) + " values, got " + std::to_string(sim.size()));
  }
  for (std::size_t i = 0; i < sim.size(); ++i) {
    if (!std::isfinite(sim[i])) {
      return make_error(ErrorCode::kInvalidArgument, "similarity[" + std::to_string(i) + "]: expected a finite number, got " + number_text(sim[i]));
    }
  }
  return mmr_core(c, o, [&](std::size_t a, std::size_t b) { return sim[a * n + b]; });
}

Result<std::vector<Passage>> expand_neighbours(const std::vector<ScoredId>& hits, const std::vector<ChunkRef>& chunks,
                                               const ExpandOptions& o) {
  std::unordered_map<std::string_view, std::size_t> by_id;
  std::map<std::string, std::map<std::size_t, std::size_t>> by_doc;  // doc -> ordinal -> chunk index
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    if (!by_id.emplace(chunks[i].id, i).second) {
      return make_error(ErrorCode::kDuplicateId, "chunks[" + std::to_string(i) + "].id: \"" + chunks[i].id + "\" appears twice");
    }
    if (!by_doc[chunks[i].doc_id].emplace(chunks[i].ordinal, i).second) {
      return make_error(ErrorCode::kDuplicateId, "chunks[" + std::to_string(i) + "].ordinal: document \"" + chunks[i].doc_id +
                                                     "\" already has a chunk with ordinal " + std::to_string(chunks[i].ordinal));
    }
  }
  // Per document: the hit windows [lo, hi] with their hits.
  struct Window {
    std::size_t lo, hi;
    double score;
    std::size_t hit_ordinal;
    std::string hit_id;
  };
  std::map<std::string, std::vector<Window>> windows;
  std::set<std::string_view> seen;
  for (std::size_t i = 0; i < hits.size(); ++i) {
    if (!std::isfinite(hits[i].score)) {
      return make_error(ErrorCode::kInvalidArgument, "hits[" + std::to_string(i) + "].score: expected a finite number, got " + number_text(hits[i].score));
    }
    if (!seen.insert(hits[i].id).second) {
      return make_error(ErrorCode::kDuplicateId, "hits[" + std::to_string(i) + "].id: \"" + hits[i].id + "\" appears twice");
    }
    auto it = by_id.find(hits[i].id);
    if (it == by_id.end()) {
      return make_error(ErrorCode::kNotFound, "hits[" + std::to_string(i) + "].id: \"" + hits[i].id + "\" is not in chunks");
    }
    const ChunkRef& c = chunks[it->second];
    const std::size_t lo = c.ordinal >= o.before ? c.ordinal - o.before : 0;
    const std::size_t hi = c.ordinal + std::min(o.after, static_cast<std::size_t>(-1) - c.ordinal);
    windows[c.doc_id].push_back(Window{lo, hi, hits[i].score, c.ordinal, hits[i].id});
  }
  std::vector<Passage> out;
  for (auto& [doc, ws] : windows) {
    std::sort(ws.begin(), ws.end(), [](const Window& a, const Window& b) { return a.lo != b.lo ? a.lo < b.lo : a.hit_ordinal < b.hit_ordinal; });
    const auto& ords = by_doc[doc];
    std::size_t i = 0;
    while (i < ws.size()) {
      std::size_t lo = ws[i].lo, hi = ws[i].hi;
      double score = ws[i].score;
      std::vector<std::pair<std::size_t, std::string>> hit_ids{{ws[i].hit_ordinal, ws[i].hit_id}};
      std::size_t j = i + 1;
      // Merge overlapping or touching windows (next lo <= hi + 1).
      while (j < ws.size() && (hi == static_cast<std::size_t>(-1) || ws[j].lo <= hi + 1)) {
        hi = std::max(hi, ws[j].hi);
        score = std::max(score, ws[j].score);
        hit_ids.emplace_back(ws[j].hit_ordinal, ws[j].hit_id);
        ++j;
      }
      Passage p;
      p.doc_id = doc;
      p.score = score;
      bool offsets = true;
      for (auto it = ords.lower_bound(lo); it != ords.end() && it->first <= hi; ++it) {
        const ChunkRef& c = chunks[it->second];
        if (p.chunk_ids.empty()) {
          p.first_ordinal = c.ordinal;
          p.start = c.start;
          p.end = c.end;
        }
        p.last_ordinal = c.ordinal;
        p.chunk_ids.push_back(c.id);
        if (c.start < 0 || c.end < 0) offsets = false;
        p.start = std::min(p.start, c.start);
        p.end = std::max(p.end, c.end);
      }
      if (!offsets) p.start = p.end = -1;
      std::sort(hit_ids.begin(), hit_ids.end());
      for (auto& h : hit_ids) p.hit_ids.push_back(std::move(h.second));
      out.push_back(std::move(p));
      i = j;
    }
  }
  std::sort(out.begin(), out.end(), [](const Passage& a, const Passage& b) {
    return ranks_before(a.score, std::tie(a.doc_id, a.first_ordinal), b.score, std::tie(b.doc_id, b.first_ordinal));
  });
  return out;
}

Result<std::vector<DocHit>> aggregate(const std::vector<ChunkHit>& hits, Aggregation how, std::size_t m, std::size_t top_k) {
  if (how == Aggregation::kTopMMean && m == 0) return make_error(ErrorCode::kInvalidArgument, "m: expected an integer >= 1, got 0");
  std::set<std::string_view> ids;
  for (std::size_t i = 0; i < hits.size(); ++i) {
    if (!std::isfinite(hits[i].score)) {
      return make_error(ErrorCode::kInvalidArgument, "hits[" + std::to_string(i) + "].score: expected a finite number, got " + number_text(hits[i].score));
    }
    if (!ids.insert(hits[i].id).second) {
      return make_error(ErrorCode::kDuplicateId, "hits[" + std::to_string(i) + "].id: \"" + hits[i].id + "\" appears twice");
    }
  }
  // Chunk rank order (score desc, id asc) fixes the summation order.
  std::vector<std::size_t> order(hits.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return ranks_before(hits[a].score, hits[a].id, hits[b].score, hits[b].id);
  });
  std::map<std::string, std::vector<std::size_t>> per_doc;
  for (std::size_t i : order) per_doc[hits[i].doc_id].push_back(i);
  std::vector<DocHit> out;
  for (const auto& [doc, idx] : per_doc) {
    DocHit d;
    d.doc_id = doc;
    d.chunks = idx.size();
    d.best_chunk = hits[idx[0]].id;
    switch (how) {
      case Aggregation::kMax: d.score = hits[idx[0]].score; break;
      case Aggregation::kSum: {
        double s = 0.0;
        for (std::size_t i : idx) s += hits[i].score;
        d.score = s;
        break;
      }
      case Aggregation::kTopMMean: {
        const std::size_t take = std::min(m, idx.size());
        double s = 0.0;
        for (std::size_t t = 0; t < take; ++t) s += hits[idx[t]].score;
        d.score = s / static_cast<double>(take);
        break;
      }
    }
    out.push_back(std::move(d));
  }
  std::sort(out.begin(), out.end(), [](const DocHit& a, const DocHit& b) {
    return ranks_before(a.score, a.doc_id, b.score, b.doc_id);
  });
  if (top_k > 0 && out.size() > top_k) out.resize(top_k);
  return out;
}

}  // namespace ragwasm::fusion
