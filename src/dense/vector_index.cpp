// VectorIndex: storage encoding (f32 / int8 / sign bits), validation, add/remove and exact search.
// HNSW lives in vector_index_hnsw.cpp, save/load in vector_index_io.cpp.
#include "dense/vector_index.h"

#include <algorithm>
#include <cmath>
#include <new>
#include <string>
#include <unordered_set>

#include "common/check.h"
#include "dense/internal.h"
#include "common/limits.h"
#include "dense/kernels.h"

namespace ragwasm::dense {

namespace {
// Reserves room for `need` elements, at least doubling the capacity when it grows (amortized O(1) adds).
// When the doubled size cannot be allocated, the exact size is tried (near the memory limit).
template <typename V>
void grow_to(V& v, std::size_t need) {
  if (need <= v.capacity()) return;
  try {
    v.reserve(std::max(need, 2 * v.capacity()));
  } catch (const std::bad_alloc&) {
    v.reserve(need);
  }
}
}  // namespace

const char* metric_name(Metric m) {
  switch (m) {
    case Metric::kCosine: return "cosine";
    case Metric::kDot: return "dot";
    case Metric::kL2: return "l2";
  }
  return "?";
}

const char* storage_name(Storage s) {
  switch (s) {
    case Storage::kF32: return "f32";
    case Storage::kInt8: return "int8";
    case Storage::kBinary: return "binary";
  }
  return "?";
}

Result<VectorIndex> VectorIndex::create(const IndexOptions& o) {
  if (o.dimension == 0 || o.dimension > kMaxDimension) {
    return make_error(ErrorCode::kInvalidArgument,
                      "dimension: expected an integer in [1, " + std::to_string(kMaxDimension) + "], got " +
                          std::to_string(o.dimension));
  }
  if (o.metric != Metric::kCosine && o.metric != Metric::kDot && o.metric != Metric::kL2) {
    return make_error(ErrorCode::kInvalidArgument, "metric: expected cosine, dot or l2");
  }
  if (o.storage != Storage::kF32 && o.storage != Storage::kInt8 && o.storage != Storage::kBinary) {
    return make_error(ErrorCode::kInvalidArgument, "storage: expected f32, int8 or binary");
  }
  if (o.binary_rescore != Storage::kF32 && o.binary_rescore != Storage::kInt8) {
    return make_error(ErrorCode::kInvalidArgument, "binary rescore storage: expected f32 or int8");
  }
  if (o.kind != IndexKind::kFlat && o.kind != IndexKind::kHnsw) {
    return make_error(ErrorCode::kInvalidArgument, "index: expected flat or hnsw");
  }
  if (o.kind == IndexKind::kHnsw) {
    if (o.storage == Storage::kBinary) {
      return make_error(ErrorCode::kInvalidArgument,
                        "storage: 'binary' works with index 'flat' only (HNSW needs f32 or int8 vectors), got "
                        "index 'hnsw'");
    }
    if (o.hnsw.m < 2 || o.hnsw.m > kMaxHnswM) {
      return make_error(ErrorCode::kInvalidArgument,
                        "hnsw.M: expected an integer in [2, " + std::to_string(kMaxHnswM) + "], got " +
                            std::to_string(o.hnsw.m));
    }
    if (o.hnsw.ef_construction < 1 || o.hnsw.ef_construction > kMaxEf) {
      return make_error(ErrorCode::kInvalidArgument,
                        "hnsw.efConstruction: expected an integer in [1, " + std::to_string(kMaxEf) + "], got " +
                            std::to_string(o.hnsw.ef_construction));
    }
    if (o.hnsw.ef_search < 1 || o.hnsw.ef_search > kMaxEf) {
      return make_error(ErrorCode::kInvalidArgument,
                        "hnsw.efSearch: expected an integer in [1, " + std::to_string(kMaxEf) + "], got " +
                            std::to_string(o.hnsw.ef_search));
    }
  }
  VectorIndex ix;
  ix.options_ = o;
  ix.stride_ = (o.dimension + kLanes - 1) / kLanes * kLanes;
  ix.bit_bytes_ = (o.dimension + 127) / 128 * 16;
  ix.rng_ = o.hnsw.seed;
  ix.score_f32_ = ix.score_storage() == Storage::kF32;
  ix.l2_ = o.metric == Metric::kL2;
  return ix;
}

bool VectorIndex::has_f32() const {
  return options_.storage == Storage::kF32 ||
         (options_.storage == Storage::kBinary && options_.binary_rescore == Storage::kF32);
}

bool VectorIndex::has_i8() const {
  return options_.storage == Storage::kInt8 ||
         (options_.storage == Storage::kBinary && options_.binary_rescore == Storage::kInt8);
}

Storage VectorIndex::score_storage() const { return has_f32() ? Storage::kF32 : Storage::kInt8; }

namespace {

// Padded copy of `src` (dimension floats, then zeros); cosine normalizes by the kernel's own norm so
// native and WASM agree bit for bit: x[i] / sqrt(dot(x, x)). A zero vector stays zero (score 0).
void padded_copy(const float* src, std::size_t dim, std::size_t stride, bool normalize, float* dst) {
  std::copy(src, src + dim, dst);
  std::fill(dst + dim, dst + stride, 0.0f);
  if (normalize) {
    const float n2 = dot_f32(dst, dst, stride);
    if (n2 > 0.0f) {
      const float n = std::sqrt(n2);
      for (std::size_t i = 0; i < dim; ++i) dst[i] = dst[i] / n;
    }
  }
}

// Symmetric per-vector quantization: scale = max|x| / 127, q = round(x / scale) in [-127, 127].
float quantize(const float* x, std::size_t stride, std::int8_t* q) {
  float m = 0.0f;
  for (std::size_t i = 0; i < stride; ++i) m = std::max(m, std::fabs(x[i]));
  if (m == 0.0f) {
    std::fill(q, q + stride, std::int8_t{0});
    return 0.0f;
  }
  const float scale = m / 127.0f;
  for (std::size_t i = 0; i < stride; ++i) {
    float v = std::round(x[i] / scale);
    v = std::min(127.0f, std::max(-127.0f, v));
    q[i] = static_cast<std::int8_t>(v);
  }
  return scale;
}

void sign_bits(const float* x, std::size_t dim, std::size_t bytes, std::uint8_t* out) {
  std::fill(out, out + bytes, std::uint8_t{0});
  for (std::size_t i = 0; i < dim; ++i) {
    if (x[i] > 0.0f) out[i >> 3] = static_cast<std::uint8_t>(out[i >> 3] | (1u << (i & 7)));
  }
}

std::string quote(std::string_view id) {
  std::string s = "'";
  if (id.size() > 60) {
    s.append(id.substr(0, 57));
    s += "...";
  } else {
    s.append(id);
  }
  return s + "'";
}

}  // namespace

void VectorIndex::encode_row(const float* src, std::uint32_t slot) {
  std::vector<float> tmp(stride_);
  padded_copy(src, options_.dimension, stride_, options_.metric == Metric::kCosine, tmp.data());
  norm2_[slot] = dot_f32(tmp.data(), tmp.data(), stride_);
  if (has_f32()) std::copy(tmp.begin(), tmp.end(), f32_.begin() + static_cast<std::ptrdiff_t>(slot * stride_));
  if (has_i8()) scale_[slot] = quantize(tmp.data(), stride_, i8_.data() + slot * stride_);
  if (has_bits()) sign_bits(tmp.data(), options_.dimension, bit_bytes_, bits_.data() + slot * bit_bytes_);
}

VectorIndex::Query VectorIndex::prepare(const float* query) const {
  Query q;
  q.own_f.resize(stride_);
  padded_copy(query, options_.dimension, stride_, options_.metric == Metric::kCosine, q.own_f.data());
  q.norm2 = dot_f32(q.own_f.data(), q.own_f.data(), stride_);
  q.f = q.own_f.data();
  if (has_i8()) {
    q.own_q.resize(stride_);
    q.scale = quantize(q.own_f.data(), stride_, q.own_q.data());
    q.q = q.own_q.data();
  }
  if (has_bits()) {
    q.own_bits.resize(bit_bytes_);
    sign_bits(q.own_f.data(), options_.dimension, bit_bytes_, q.own_bits.data());
    q.bits = q.own_bits.data();
  }
  return q;
}

VectorIndex::Query VectorIndex::slot_query(std::uint32_t slot) const {
  Query q;
  q.norm2 = norm2_[slot];
  if (has_f32()) q.f = f32_.data() + slot * stride_;
  if (has_i8()) {
    q.q = i8_.data() + slot * stride_;
    q.scale = scale_[slot];
  }
  return q;
}

void VectorIndex::scan(const Query& q, std::uint32_t k, const std::uint8_t* allow, std::vector<Hit>& out) const {
  std::vector<std::vector<Hit>> one;
  scan_many(&q, 1, k, allow, one);
  out = std::move(one[0]);
}

void VectorIndex::scan_many(const Query* qs, std::size_t count, std::uint32_t k, const std::uint8_t* allow,
                            std::vector<std::vector<Hit>>& out, std::size_t begin, std::size_t end) const {
  std::vector<TopK> tops;
  tops.reserve(count);
  std::vector<float> bounds(count);
  for (std::size_t i = 0; i < count; ++i) {
    tops.emplace_back(k, seq_.data());
    bounds[i] = tops[i].bound();
  }
  // 256 rows of up to 1,024 floats: the block stays in cache while every query scores it
  constexpr std::size_t kBlock = 256;
  float scores[kBlock];
  std::int32_t iscores[kBlock];
  const std::size_t n = std::min(end, ids_.size());
  const bool f32 = score_storage() == Storage::kF32;
  const bool l2 = options_.metric == Metric::kL2;
  for (std::size_t b = begin; b < n; b += kBlock) {
    const std::size_t m = std::min(kBlock, n - b);
    for (std::size_t i = 0; i < count; ++i) {
      const Query& q = qs[i];
      if (f32) {
        if (l2) {
          l2sq_f32_batch(q.f, f32_.data() + b * stride_, stride_, m, scores);
          for (std::size_t r = 0; r < m; ++r) scores[r] = -scores[r];
        } else {
          dot_f32_batch(q.f, f32_.data() + b * stride_, stride_, m, scores);
        }
      } else {
        dot_i8_batch(q.q, i8_.data() + b * stride_, stride_, m, iscores);
        for (std::size_t r = 0; r < m; ++r) {
          const float d = static_cast<float>(iscores[r]) * q.scale * scale_[b + r];
          scores[r] = l2 ? -((q.norm2 + norm2_[b + r]) - 2.0f * d) : d;
        }
      }
      TopK& top = tops[i];
      float bound = bounds[i];
      for (std::size_t r = 0; r < m; ++r) {
        if (scores[r] < bound) continue;
        const std::uint32_t slot = static_cast<std::uint32_t>(b + r);
        if (!alive_[slot] || (allow != nullptr && allow[slot] == 0)) continue;
        top.push(scores[r], slot);
        bound = top.bound();
      }
      bounds[i] = bound;
    }
  }
  out.resize(count);
  for (std::size_t i = 0; i < count; ++i) tops[i].take_sorted(out[i]);
}

void VectorIndex::scan_binary(const Query& q, std::uint32_t k, std::uint32_t pool, const std::uint8_t* allow,
                              std::vector<Hit>& out) const {
  const std::uint32_t first = pool == 0 ? k : static_cast<std::uint32_t>(std::min<std::uint64_t>(
                                                   std::uint64_t{k} * pool, ids_.size()));
  TopK top(std::max<std::uint32_t>(first, 1), seq_.data());
  constexpr std::size_t kBlock = 256;
  std::uint32_t ham[kBlock];
  const std::size_t n = ids_.size();
  // Hamming proxy score 1 - 2h/dim (1 = all signs agree, -1 = all differ). With more rows than
  // possible h values (0..8 * bit_bytes_), a table of the same expression replaces the division
  // per row; the scores are the same floats either way.
  const float dim = static_cast<float>(options_.dimension);
  const auto proxy_of = [dim](std::uint32_t h) { return 1.0f - 2.0f * static_cast<float>(h) / dim; };
  std::vector<float> proxy;
  if (n > bit_bytes_ * 8) {
    proxy.resize(bit_bytes_ * 8 + 1);
    for (std::uint32_t h = 0; h < proxy.size(); ++h) proxy[h] = proxy_of(h);
  }
  float bound = top.bound();
  for (std::size_t b = 0; b < n; b += kBlock) {
    const std::size_t m = std::min(kBlock, n - b);
    hamming_batch(q.bits, bits_.data() + b * bit_bytes_, bit_bytes_, m, ham);
    for (std::size_t r = 0; r < m; ++r) {
      const float s = proxy.empty() ? proxy_of(ham[r]) : proxy[ham[r]];
      if (s < bound) continue;
      const std::uint32_t slot = static_cast<std::uint32_t>(b + r);
      if (!alive_[slot] || (allow != nullptr && allow[slot] == 0)) continue;
      top.push(s, slot);
      bound = top.bound();
    }
  }
  top.take_sorted(out);
  if (pool == 0) return;
  TopK best(k, seq_.data());
  for (const Hit& h : out) best.push(score(q, h.slot), h.slot);
  best.take_sorted(out);
}

Result<ReferenceResult> VectorIndex::reference_pass(const float* query, std::size_t length,
                                                   ReferencePass which) const {
  RAGWASM_TRY(validate_query(query, length, SearchOptions{}));
  const Query q = prepare(query);
  const std::size_t n = ids_.size();
  ReferenceResult res;
  constexpr std::size_t kBlock = 256;
  float scores[kBlock];
  std::int32_t iscores[kBlock];
  std::uint32_t ham[kBlock];
  const bool bits = has_bits();
  const bool f32 = !bits && score_f32_;
  const std::size_t row_bytes = bits ? bit_bytes_ : f32 ? stride_ * sizeof(float) : stride_;
  res.bytes = static_cast<std::uint64_t>(n) * row_bytes;
  if (which == ReferencePass::kRead) {
    const auto* p = bits ? bits_.data() : f32 ? reinterpret_cast<const std::uint8_t*>(f32_.data())
                                              : reinterpret_cast<const std::uint8_t*>(i8_.data());
    res.checksum = read_pass(p, n * row_bytes);
    return res;
  }
  double sum = 0;
  if (which == ReferencePass::kKernel) {
    for (std::size_t r = 0; r < n; ++r) {
      if (bits) {
        sum += hamming(q.bits, bits_.data() + r * bit_bytes_, bit_bytes_);
      } else if (f32) {
        sum += l2_ ? l2sq_f32(q.f, f32_.data() + r * stride_, stride_) : dot_f32(q.f, f32_.data() + r * stride_, stride_);
      } else {
        sum += dot_i8(q.q, i8_.data() + r * stride_, stride_);
      }
    }
    res.checksum = sum;
    return res;
  }
  for (std::size_t b = 0; b < n; b += kBlock) {
    const std::size_t m = std::min(kBlock, n - b);
    if (bits) {
      hamming_batch(q.bits, bits_.data() + b * bit_bytes_, bit_bytes_, m, ham);
      for (std::size_t r = 0; r < m; ++r) sum += ham[r];
    } else if (f32) {
      if (l2_) {
        l2sq_f32_batch(q.f, f32_.data() + b * stride_, stride_, m, scores);
      } else {
        dot_f32_batch(q.f, f32_.data() + b * stride_, stride_, m, scores);
      }
      for (std::size_t r = 0; r < m; ++r) sum += scores[r];
    } else {
      dot_i8_batch(q.q, i8_.data() + b * stride_, stride_, m, iscores);
      for (std::size_t r = 0; r < m; ++r) sum += iscores[r];
    }
  }
  res.checksum = sum;
  return res;
}

Status VectorIndex::validate_query(const float* query, std::size_t length, const SearchOptions& o) const {
  if (length != options_.dimension) {
    return make_error(ErrorCode::kDimensionMismatch, "query: has " + std::to_string(length) +
                                                         " values, the index expects dimension " +
                                                         std::to_string(options_.dimension));
  }
  for (std::size_t i = 0; i < length; ++i) {
    if (!std::isfinite(query[i]) || std::fabs(query[i]) > kMaxAbsValue) {
      return make_error(ErrorCode::kInvalidArgument, "query[" + std::to_string(i) +
                                                         "]: expected a finite number with |x| <= 1e15, got " +
                                                         format_float(query[i]));
    }
  }
  RAGWASM_TRY(check_search_k(o.k));
  if (o.ef_search > kMaxEf) {
    return make_error(ErrorCode::kInvalidArgument, "efSearch: expected an integer in [1, " + std::to_string(kMaxEf) +
                                                       "], got " + std::to_string(o.ef_search));
  }
  if (o.rescore > 1000) {
    return make_error(ErrorCode::kInvalidArgument,
                      "rescore: expected an integer in [0, 1000], got " + std::to_string(o.rescore));
  }
  if (o.allow != nullptr && o.allow_size != ids_.size()) {
    return make_error(ErrorCode::kInvalidArgument, "filter: mask has " + std::to_string(o.allow_size) +
                                                       " entries, the index has " + std::to_string(ids_.size()) +
                                                       " slots (the index changed since the mask was built)");
  }
  return Status::success();
}

Result<std::vector<Hit>> VectorIndex::search_exact(const float* query, std::size_t length,
                                                   const SearchOptions& o) const {
  RAGWASM_TRY(validate_query(query, length, o));
  std::vector<Hit> out;
  const Query q = prepare(query);
  if (has_bits()) {
    scan_binary(q, o.k, o.rescore, o.allow, out);
  } else {
    scan(q, o.k, o.allow, out);
  }
  return out;
}

Status VectorIndex::prepare_many(const float* queries, std::size_t count, std::size_t length, const SearchOptions& o,
                                 std::vector<Query>& qs) const {
  qs.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    RAGWASM_TRY(validate_query(queries + i * length, length, o));
    qs.push_back(prepare(queries + i * length));
  }
  return Status::success();
}

Result<std::vector<std::vector<Hit>>> VectorIndex::search_exact_many(const float* queries, std::size_t count,
                                                                     std::size_t length, const SearchOptions& o) const {
  std::vector<Query> qs;
  RAGWASM_TRY(prepare_many(queries, count, length, o, qs));
  std::vector<std::vector<Hit>> out(count);
  if (has_bits()) {
    for (std::size_t i = 0; i < count; ++i) scan_binary(qs[i], o.k, o.rescore, o.allow, out[i]);
  } else {
    scan_many(qs.data(), count, o.k, o.allow, out);
  }
  return out;
}

Result<std::vector<std::vector<Hit>>> VectorIndex::search_exact_many_slots(const float* queries, std::size_t count,
                                                                           std::size_t length, const SearchOptions& o,
                                                                           std::size_t begin, std::size_t end) const {
  if (has_bits()) {
    return make_error(ErrorCode::kInvalidArgument, "storage: a slot range scan needs f32 or int8 storage, got binary");
  }
  if (begin > end) {
    return make_error(ErrorCode::kInvalidArgument,
                      "begin: expected <= end, got " + std::to_string(begin) + " > " + std::to_string(end));
  }
  std::vector<Query> qs;
  RAGWASM_TRY(prepare_many(queries, count, length, o, qs));
  std::vector<std::vector<Hit>> out(count);
  scan_many(qs.data(), count, o.k, o.allow, out, begin, end);
  return out;
}

std::vector<Hit> VectorIndex::merge_hits(const std::vector<Hit>* const* lists, std::size_t n, std::uint32_t k) const {
  std::vector<Ranked> all;
  for (std::size_t i = 0; i < n; ++i) {
    for (const Hit& h : *lists[i]) {
      RAGWASM_DCHECK(h.slot < seq_.size());
      all.push_back({h.score, seq_[h.slot], h.slot});
    }
  }
  const std::size_t keep = std::min<std::size_t>(k, all.size());
  std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(keep), all.end(), RanksBefore());
  std::vector<Hit> out;
  out.reserve(keep);
  for (std::size_t i = 0; i < keep; ++i) out.push_back({all[i].slot, all[i].score});
  return out;
}

Result<std::vector<Hit>> VectorIndex::search(const float* query, std::size_t length, const SearchOptions& o) const {
  if (options_.kind == IndexKind::kFlat) return search_exact(query, length, o);
  RAGWASM_TRY(validate_query(query, length, o));
  std::vector<Hit> out;
  if (live_ == 0) return out;
  const Query q = prepare(query);
  std::size_t allowed = live_;
  if (o.allow != nullptr) {
    allowed = 0;
    for (std::size_t s = 0; s < ids_.size(); ++s) allowed += (alive_[s] != 0 && o.allow[s] != 0) ? 1 : 0;
  }
  const std::uint32_t ef = std::max(o.k, o.ef_search == 0 ? options_.hnsw.ef_search : o.ef_search);
  const std::size_t want = std::min<std::size_t>(o.k, allowed);
  // A filter passing few vectors: the exact scan over them is cheaper than walking the graph and
  // always returns k (docs/dense.md "Filters").
  if (allowed * 20 < live_ || allowed <= ef) {
    scan(q, o.k, o.allow, out);
    return out;
  }
  hnsw_search(q, o.k, ef, o.allow, out);
  if (out.size() < want) scan(q, o.k, o.allow, out);  // the graph walk found too few: exact fallback
  return out;
}

Status VectorIndex::add(const std::vector<std::string>& ids, const float* data, std::size_t count) {
  const std::size_t n = ids.size();
  const std::size_t dim = options_.dimension;
  if (n == 0) return make_error(ErrorCode::kInvalidArgument, "ids: expected at least one id, got an empty batch");
  if (count != n * dim) {
    return make_error(ErrorCode::kDimensionMismatch,
                      "vectors: expected " + std::to_string(n) + " x " + std::to_string(dim) + " = " +
                          std::to_string(n * dim) + " values for " + std::to_string(n) +
                          " ids at the index dimension " + std::to_string(dim) + ", got " + std::to_string(count) +
                          (count % dim == 0 ? " (" + std::to_string(count / dim) + " vectors)" : std::string()));
  }
  std::unordered_set<std::string_view> batch;
  batch.reserve(n);
  for (std::size_t r = 0; r < n; ++r) {
    const std::string& id = ids[r];
    if (id.empty() || id.size() > kMaxIdBytes) {
      return make_error(ErrorCode::kInvalidArgument, "ids[" + std::to_string(r) + "]: expected 1.." +
                                                         std::to_string(kMaxIdBytes) + " UTF-8 bytes, got " +
                                                         std::to_string(id.size()));
    }
    if (map_.count(id) != 0) {
      return make_error(ErrorCode::kDuplicateId,
                        "ids[" + std::to_string(r) + "]: " + quote(id) + " is already in the index; remove it first");
    }
    if (!batch.insert(id).second) {
      return make_error(ErrorCode::kDuplicateId,
                        "ids[" + std::to_string(r) + "]: " + quote(id) + " appears twice in this batch");
    }
  }
  for (std::size_t i = 0; i < count; ++i) {
    if (!std::isfinite(data[i]) || std::fabs(data[i]) > kMaxAbsValue) {
      return make_error(ErrorCode::kInvalidArgument,
                        "vectors[" + std::to_string(i / dim) + "][" + std::to_string(i % dim) + "] (id " +
                            quote(ids[i / dim]) + "): expected a finite number with |x| <= 1e15, got " +
                            format_float(data[i]));
    }
  }
  const std::uint64_t slots = ids_.size() + n;
  if (slots * stride_ * sizeof(float) > kMaxStorageBytes || slots >= 0xFFFFFFFFull) {
    return make_error(ErrorCode::kLimitExceeded, "vectors: " + std::to_string(slots) + " x " + std::to_string(dim) +
                                                     " would pass the 3 GiB storage limit of one index");
  }
  // Reserve everything first: an allocation failure leaves the index as it was. Capacity grows
  // geometrically (grow_to): an exact reserve per batch copied every array (and rehashed the id map)
  // on each add, so building in batches was quadratic (1M x 100 int8 in batches of 1000: 367 s of a
  // 548 s Collection build in Chromium, docs/scale.md "A million chunks").
  const std::size_t s = static_cast<std::size_t>(slots);
  if (has_f32()) grow_to(f32_, s * stride_);
  if (has_i8()) {
    grow_to(i8_, s * stride_);
    grow_to(scale_, s);
  }
  if (has_bits()) grow_to(bits_, s * bit_bytes_);
  grow_to(norm2_, s);
  grow_to(ids_, s);
  grow_to(seq_, s);
  grow_to(alive_, s);
  if (static_cast<float>(s) > static_cast<float>(map_.bucket_count()) * map_.max_load_factor()) {
    try {
      map_.reserve(std::max(s, 2 * map_.size()));
    } catch (const std::bad_alloc&) {
      map_.reserve(s);
    }
  }
  if (options_.kind == IndexKind::kHnsw) {
    grow_to(level_, s);
    grow_to(links0_, s * (2 * options_.hnsw.m + 1));
    grow_to(upper_, s);
  }
  for (std::size_t r = 0; r < n; ++r) {
    const auto slot = static_cast<std::uint32_t>(ids_.size());
    ids_.push_back(ids[r]);
    seq_.push_back(next_seq_++);
    alive_.push_back(1);
    norm2_.push_back(0.0f);
    if (has_f32()) f32_.resize(f32_.size() + stride_);
    if (has_i8()) {
      i8_.resize(i8_.size() + stride_);
      scale_.push_back(0.0f);
    }
    if (has_bits()) bits_.resize(bits_.size() + bit_bytes_);
    encode_row(data + r * dim, slot);
    map_.emplace(ids[r], slot);
    ++live_;
    if (options_.kind == IndexKind::kHnsw) hnsw_insert(slot);
  }
  return Status::success();
}

void VectorIndex::move_slot(std::uint32_t from, std::uint32_t to) {
  if (from == to) return;
  if (has_f32()) std::copy_n(f32_.begin() + from * stride_, stride_, f32_.begin() + to * stride_);
  if (has_i8()) {
    std::copy_n(i8_.begin() + from * stride_, stride_, i8_.begin() + to * stride_);
    scale_[to] = scale_[from];
  }
  if (has_bits()) std::copy_n(bits_.begin() + from * bit_bytes_, bit_bytes_, bits_.begin() + to * bit_bytes_);
  norm2_[to] = norm2_[from];
  ids_[to] = std::move(ids_[from]);
  seq_[to] = seq_[from];
  alive_[to] = alive_[from];
  map_[ids_[to]] = to;
}

Status VectorIndex::remove(const std::vector<std::string>& ids) {
  if (ids.empty()) return make_error(ErrorCode::kInvalidArgument, "ids: expected at least one id, got an empty batch");
  for (std::size_t r = 0; r < ids.size(); ++r) {
    if (map_.count(ids[r]) == 0) {
      return make_error(ErrorCode::kNotFound, "ids[" + std::to_string(r) + "]: " + quote(ids[r]) +
                                                  " is not in the index; nothing was removed");
    }
  }
  for (const std::string& id : ids) {
    auto it = map_.find(id);
    if (it == map_.end()) continue;  // listed twice in the batch
    const std::uint32_t slot = it->second;
    map_.erase(it);
    --live_;
    if (options_.kind == IndexKind::kHnsw) {
      alive_[slot] = 0;  // tombstone: still routes graph walks, never returned
      continue;
    }
    // Flat: move the last row into the hole. Ties still follow insertion order through seq_.
    const auto last = static_cast<std::uint32_t>(ids_.size() - 1);
    move_slot(last, slot);
    ids_.pop_back();
    seq_.pop_back();
    alive_.pop_back();
    norm2_.pop_back();
    if (has_f32()) f32_.resize(f32_.size() - stride_);
    if (has_i8()) {
      i8_.resize(i8_.size() - stride_);
      scale_.pop_back();
    }
    if (has_bits()) bits_.resize(bits_.size() - bit_bytes_);
  }
  return Status::success();
}

std::size_t VectorIndex::compact() {
  const std::size_t tombstones = ids_.size() - live_;
  if (options_.kind != IndexKind::kHnsw || tombstones == 0) return 0;
  VectorIndex out;
  out.options_ = options_;
  out.stride_ = stride_;
  out.bit_bytes_ = bit_bytes_;
  out.rng_ = options_.hnsw.seed;
  out.score_f32_ = score_f32_;
  out.l2_ = l2_;
  if (has_f32()) out.f32_.reserve(live_ * stride_);
  if (has_i8()) {
    out.i8_.reserve(live_ * stride_);
    out.scale_.reserve(live_);
  }
  out.norm2_.reserve(live_);
  out.ids_.reserve(live_);
  out.seq_.reserve(live_);
  out.alive_.reserve(live_);
  out.map_.reserve(live_);
  out.level_.reserve(live_);
  out.links0_.reserve(live_ * (2 * options_.hnsw.m + 1));
  out.upper_.reserve(live_);
  // The stored rows are what add() would store again from the same input (the encoding is a
  // function of the input), so they are copied, not re-encoded: int8 rows have no f32 to encode from.
  for (std::uint32_t slot = 0; slot < ids_.size(); ++slot) {
    if (alive_[slot] == 0) continue;
    const auto to = static_cast<std::uint32_t>(out.ids_.size());
    if (has_f32()) out.f32_.insert(out.f32_.end(), f32_.begin() + slot * stride_, f32_.begin() + (slot + 1) * stride_);
    if (has_i8()) {
      out.i8_.insert(out.i8_.end(), i8_.begin() + slot * stride_, i8_.begin() + (slot + 1) * stride_);
      out.scale_.push_back(scale_[slot]);
    }
    out.norm2_.push_back(norm2_[slot]);
    out.ids_.push_back(ids_[slot]);
    out.seq_.push_back(out.next_seq_++);
    out.alive_.push_back(1);
    out.map_.emplace(ids_[slot], to);
    ++out.live_;
    out.hnsw_insert(to);
  }
  *this = std::move(out);
  return tombstones;
}

std::vector<std::uint8_t> VectorIndex::mask_for_ids(const std::vector<std::string>& ids) const {
  std::vector<std::uint8_t> mask(ids_.size(), 0);
  for (const std::string& id : ids) {
    auto it = map_.find(id);
    if (it != map_.end()) mask[it->second] = 1;
  }
  return mask;
}

}  // namespace ragwasm::dense
