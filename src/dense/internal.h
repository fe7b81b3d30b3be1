// Internals shared by the vector_index*.cpp files: the prepared query, the deterministic top-k
// heap (score desc, then insertion ordinal asc) and float formatting for error messages.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "common/ranking.h"
#include "dense/kernels.h"
#include "dense/vector_index.h"

namespace ragwasm::dense {

struct VectorIndex::Query {
  std::vector<float> own_f;
  std::vector<std::int8_t> own_q;
  std::vector<std::uint8_t> own_bits;
  const float* f = nullptr;           // padded (cosine: normalized) f32 values
  const std::int8_t* q = nullptr;     // quantized values (int8 scoring)
  const std::uint8_t* bits = nullptr; // sign bits (binary)
  float scale = 0.0f;                 // int8 scale
  float norm2 = 0.0f;                 // squared norm of f
};

// Deterministic order: a before b when its score is higher, or equal with a smaller insertion ordinal.
struct Ranked {
  float score;
  std::uint64_t seq;
  std::uint32_t slot;
};
inline bool ranks_before(const Ranked& a, const Ranked& b) {
  return ::ragwasm::ranks_before(a.score, a.seq, b.score, b.seq);
}

struct RanksBefore {  // a functor, so heap and sort calls inline the comparison
  bool operator()(const Ranked& a, const Ranked& b) const { return ranks_before(a, b); }
};

// Keeps the k best by ranks_before; the heap's front is the worst kept.
class TopK {
 public:
  TopK(std::uint32_t k, const std::uint64_t* seq) : k_(k), seq_(seq) { heap_.reserve(k < 4096 ? k : 4096); }

  void push(float score, std::uint32_t slot) {
    if (heap_.size() < k_) {
      heap_.push_back({score, seq_[slot], slot});
      std::push_heap(heap_.begin(), heap_.end(), RanksBefore());
      return;
    }
    const Ranked& worst = heap_.front();
    if (score < worst.score) return;
    const Ranked c{score, seq_[slot], slot};
    if (!ranks_before(c, worst)) return;
    std::pop_heap(heap_.begin(), heap_.end(), RanksBefore());
    heap_.back() = c;
    std::push_heap(heap_.begin(), heap_.end(), RanksBefore());
  }

  // Scores below this cannot enter (the worst kept once k are kept, else -infinity): the same test
  // push() starts with, so a scan may skip such rows before looking at them further.
  float bound() const { return heap_.size() < k_ ? -std::numeric_limits<float>::infinity() : heap_.front().score; }

  void take_sorted(std::vector<Hit>& out) {
    std::sort(heap_.begin(), heap_.end(), RanksBefore());
    out.clear();
    out.reserve(heap_.size());
    for (const Ranked& r : heap_) out.push_back({r.slot, r.score});
    heap_.clear();
  }

 private:
  std::uint32_t k_;
  const std::uint64_t* seq_;
  std::vector<Ranked> heap_;
};

// Score of a prepared query against a stored row (higher is better), inline for the HNSW walk.
inline float VectorIndex::score(const Query& q, std::uint32_t slot) const {
  if (score_f32_) {
    const float* row = f32_.data() + slot * stride_;
    return l2_ ? -l2sq_f32(q.f, row, stride_) : dot_f32(q.f, row, stride_);
  }
  const float d = static_cast<float>(dot_i8(q.q, i8_.data() + slot * stride_, stride_)) * q.scale * scale_[slot];
  return l2_ ? -((q.norm2 + norm2_[slot]) - 2.0f * d) : d;
}

inline std::string format_float(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", static_cast<double>(v));
  return buf;
}

}  // namespace ragwasm::dense
