// HNSW (Malkov & Yashunin 2018, arXiv:1603.09320) over the index's stored vectors, as hnswlib does:
// seeded geometric levels, greedy descent, ef-bounded best-first search per layer, the "heuristic"
// neighbor selection (algorithm 4 without extension), and tombstoned deletes that still route.
// Every comparison uses (score desc, slot asc); HNSW slots are append-only, so slot order is insertion
// order and the tie-break equals the flat index's without reading seq_. Builds are reproducible bit for bit.
#include <algorithm>
#include <limits>
#include <queue>

#include "dense/internal.h"
#include "dense/kernels.h"

namespace ragwasm::dense {

namespace {
std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// A graph candidate: 8 bytes, so the heaps move little memory. Slot order is insertion order here.
struct Cand {
  float score;
  std::uint32_t slot;
};
inline bool cand_before(const Cand& a, const Cand& b) {
  return ::ragwasm::ranks_before(a.score, a.slot, b.score, b.slot);
}
struct CandBefore {  // a functor, so heap and sort calls inline the comparison
  bool operator()(const Cand& a, const Cand& b) const { return cand_before(a, b); }
};
struct WorseFirst {  // priority_queue comparator: top() is the best candidate
  bool operator()(const Cand& a, const Cand& b) const { return cand_before(b, a); }
};
}  // namespace

// P(level >= l) = M^-l, the distribution of hnswlib's floor(-ln(U) / ln(M)), drawn with integers only
// so that native and WASM builds agree.
std::uint32_t VectorIndex::random_level() {
  std::uint32_t level = 0;
  while (level < kMaxLevel && splitmix64(rng_) % options_.hnsw.m == 0) ++level;
  return level;
}

std::uint32_t* VectorIndex::links(std::uint32_t slot, std::uint32_t level) {
  if (level == 0) return links0_.data() + static_cast<std::size_t>(slot) * (2 * options_.hnsw.m + 1);
  return upper_[slot].data() + static_cast<std::size_t>(level - 1) * (options_.hnsw.m + 1);
}

const std::uint32_t* VectorIndex::links(std::uint32_t slot, std::uint32_t level) const {
  if (level == 0) return links0_.data() + static_cast<std::size_t>(slot) * (2 * options_.hnsw.m + 1);
  return upper_[slot].data() + static_cast<std::size_t>(level - 1) * (options_.hnsw.m + 1);
}

template <class Allow>
void VectorIndex::search_layer(const Query& q, std::uint32_t entry, std::uint32_t ef, std::uint32_t level,
                               Allow allow, std::vector<Hit>& out) const {
  if (visited_.size() < ids_.size()) visited_.resize(ids_.size(), 0);
  if (++visit_gen_ == 0) {
    std::fill(visited_.begin(), visited_.end(), 0u);
    visit_gen_ = 1;
  }
  const std::uint32_t gen = visit_gen_;
  std::priority_queue<Cand, std::vector<Cand>, WorseFirst> candidates;
  std::vector<Cand> top;  // heap, front = worst kept
  top.reserve(ef + 1);
  std::uint32_t batch[2 * kMaxHnswM];
  float scores[2 * kMaxHnswM];
  const Cand e{score(q, entry), entry};
  visited_[entry] = gen;
  candidates.push(e);
  if (allow(entry)) top.push_back(e);
  while (!candidates.empty()) {
    const Cand c = candidates.top();
    if (top.size() >= ef && cand_before(top.front(), c)) break;  // nothing better can follow
    candidates.pop();
    const std::uint32_t* ll = links(c.slot, level);
    const std::uint32_t count = ll[0];
    // Gather the unvisited neighbors, then score them in one tight loop: independent row loads
    // overlap in the CPU (hnswlib uses explicit prefetches for the same effect).
    std::uint32_t fresh = 0;
    for (std::uint32_t i = 1; i <= count; ++i) {
      const std::uint32_t nb = ll[i];
      if (visited_[nb] == gen) continue;
      visited_[nb] = gen;
      batch[fresh++] = nb;
    }
    for (std::uint32_t i = 0; i < fresh; ++i) scores[i] = score(q, batch[i]);
    for (std::uint32_t i = 0; i < fresh; ++i) {
      const std::uint32_t nb = batch[i];
      const Cand r{scores[i], nb};
      if (top.size() < ef || cand_before(r, top.front())) {
        candidates.push(r);
        if (allow(nb)) {
          top.push_back(r);
          std::push_heap(top.begin(), top.end(), CandBefore());
          if (top.size() > ef) {
            std::pop_heap(top.begin(), top.end(), CandBefore());
            top.pop_back();
          }
        }
      }
    }
  }
  std::sort(top.begin(), top.end(), CandBefore());
  out.clear();
  for (const Cand& r : top) out.push_back({r.slot, r.score});
}

// Keeps a candidate only when it is closer to the new node than to every neighbor kept so far
// (hnswlib getNeighborsByHeuristic2). `candidates` is sorted best first.
void VectorIndex::select_neighbors(std::vector<Hit>& candidates, std::uint32_t m) const {
  if (candidates.size() <= m) return;
  std::vector<Hit> kept;
  kept.reserve(m);
  for (const Hit& c : candidates) {
    const Query cq = slot_query(c.slot);
    bool good = true;
    for (const Hit& r : kept) {
      if (score(cq, r.slot) > c.score) {
        good = false;
        break;
      }
    }
    if (good) {
      kept.push_back(c);
      if (kept.size() == m) break;
    }
  }
  candidates.swap(kept);
}

void VectorIndex::connect(std::uint32_t slot, std::uint32_t neighbor, std::uint32_t level) {
  std::uint32_t* ll = links(slot, level);
  const std::uint32_t cap = max_links(level);
  if (ll[0] < cap) {
    ll[1 + ll[0]] = neighbor;
    ++ll[0];
    return;
  }
  const Query sq = slot_query(slot);
  std::vector<Cand> all;
  all.reserve(cap + 1);
  for (std::uint32_t i = 1; i <= ll[0]; ++i) all.push_back({score(sq, ll[i]), ll[i]});
  all.push_back({score(sq, neighbor), neighbor});
  std::sort(all.begin(), all.end(), CandBefore());
  std::vector<Hit> cand;
  cand.reserve(all.size());
  for (const Cand& r : all) cand.push_back({r.slot, r.score});
  select_neighbors(cand, cap);
  ll[0] = static_cast<std::uint32_t>(cand.size());
  for (std::size_t i = 0; i < cand.size(); ++i) ll[1 + i] = cand[i].slot;
}

std::uint32_t VectorIndex::greedy_descend(const Query& q, std::uint32_t stop_level) const {
  std::uint32_t cur = entry_;
  float cur_score = score(q, cur);
  for (std::uint32_t l = max_level_; l > stop_level; --l) {
    bool changed = true;
    while (changed) {
      changed = false;
      const std::uint32_t* ll = links(cur, l);
      for (std::uint32_t i = 1; i <= ll[0]; ++i) {
        const float s = score(q, ll[i]);
        if (cand_before({s, ll[i]}, {cur_score, cur})) {
          cur = ll[i];
          cur_score = s;
          changed = true;
        }
      }
    }
  }
  return cur;
}

void VectorIndex::hnsw_insert(std::uint32_t slot) {
  const std::uint32_t m = options_.hnsw.m;
  const std::uint32_t level = random_level();
  level_.push_back(static_cast<std::uint8_t>(level));
  links0_.resize(links0_.size() + 2 * m + 1, 0);
  upper_.emplace_back(static_cast<std::size_t>(level) * (m + 1), 0u);
  if (slot == 0) {
    entry_ = slot;
    max_level_ = level;
    return;
  }
  const Query q = slot_query(slot);
  std::uint32_t cur = greedy_descend(q, level);
  std::vector<Hit> found;
  const auto all = [](std::uint32_t) { return true; };
  for (std::uint32_t l = std::min(level, max_level_) + 1; l-- > 0;) {
    search_layer(q, cur, options_.hnsw.ef_construction, l, all, found);
    const std::uint32_t next = found.empty() ? cur : found.front().slot;
    select_neighbors(found, m);
    std::uint32_t* ll = links(slot, l);
    ll[0] = static_cast<std::uint32_t>(found.size());
    for (std::size_t i = 0; i < found.size(); ++i) ll[1 + i] = found[i].slot;
    for (const Hit& h : found) connect(h.slot, slot, l);
    cur = next;
  }
  if (level > max_level_) {
    entry_ = slot;
    max_level_ = level;
  }
}

void VectorIndex::hnsw_search(const Query& q, std::uint32_t k, std::uint32_t ef, const std::uint8_t* allow,
                              std::vector<Hit>& out) const {
  const std::uint32_t cur = greedy_descend(q, 0);
  const std::uint8_t* alive = alive_.data();
  if (allow == nullptr) {
    search_layer(q, cur, ef, 0, [alive](std::uint32_t s) { return alive[s] != 0; }, out);
  } else {
    search_layer(q, cur, ef, 0, [alive, allow](std::uint32_t s) { return alive[s] != 0 && allow[s] != 0; }, out);
  }
  if (out.size() > k) out.resize(k);
}

}  // namespace ragwasm::dense
