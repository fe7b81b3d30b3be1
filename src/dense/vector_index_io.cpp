// Save/load of VectorIndex. Layout (little-endian; docs/dense.md "Saved format"):
//   "RWDV" | u32 version | u32 header length | header | sections (u32 tag, u64 length, payload)... | u32 CRC-32
// Every length is checked against the bytes left before use; every value the search relies on
// (ids, finite vectors, graph links) is validated, so a crafted file cannot crash a search.
#include <array>
#include <cmath>
#include <cstring>
#include <unordered_set>

#include "common/checksum.h"
#include "dense/internal.h"

namespace ragwasm::dense {

namespace {

constexpr char kMagic[4] = {'R', 'W', 'D', 'V'};

enum Tag : std::uint32_t {
  kIds = 1, kSeq = 2, kAlive = 3, kNorm2 = 4, kF32 = 5, kI8 = 6, kScale = 7, kBits = 8, kLevels = 9, kLinks0 = 10,
  kUpper = 11,
};

class Writer {
 public:
  std::vector<std::uint8_t> buf;
  template <class T>
  void put(T v) {
    const auto at = buf.size();
    buf.resize(at + sizeof(T));
    std::memcpy(buf.data() + at, &v, sizeof(T));
  }
  void raw(const void* p, std::size_t n) {
    const auto* b = static_cast<const std::uint8_t*>(p);
    buf.insert(buf.end(), b, b + n);
  }
  template <class T>
  void section(std::uint32_t tag, const std::vector<T>& v) {
    put<std::uint32_t>(tag);
    put<std::uint64_t>(v.size() * sizeof(T));
    raw(v.data(), v.size() * sizeof(T));
  }
};

class Reader {
 public:
  Reader(const std::uint8_t* p, std::size_t n) : p_(p), n_(n) {}
  std::size_t left() const { return n_ - at_; }
  template <class T>
  bool get(T& v) {
    if (left() < sizeof(T)) return false;
    std::memcpy(&v, p_ + at_, sizeof(T));
    at_ += sizeof(T);
    return true;
  }
  bool bytes(std::size_t n, const std::uint8_t*& out) {
    if (left() < n) return false;
    out = p_ + at_;
    at_ += n;
    return true;
  }
  // Opens the next section; it must carry `tag`. Returns its payload.
  bool section(std::uint32_t tag, const std::uint8_t*& payload, std::uint64_t& len) {
    std::uint32_t t = 0;
    if (!get(t) || t != tag || !get(len) || len > left()) return false;
    payload = p_ + at_;
    at_ += static_cast<std::size_t>(len);
    return true;
  }

 private:
  const std::uint8_t* p_;
  std::size_t n_;
  std::size_t at_ = 0;
};

Error corrupt(const std::string& what) {
  return make_error(ErrorCode::kCorruptIndex, "vector index bytes are corrupt: " + what +
                                                  " (the file was truncated or modified; save it again)");
}

template <class T>
bool read_array(Reader& r, std::uint32_t tag, std::uint64_t count, std::vector<T>& out) {
  const std::uint8_t* p = nullptr;
  std::uint64_t len = 0;
  if (!r.section(tag, p, len) || len != count * sizeof(T)) return false;
  out.resize(static_cast<std::size_t>(count));
  if (count != 0) std::memcpy(out.data(), p, static_cast<std::size_t>(len));
  return true;
}

bool finite_bounded(float v) { return std::isfinite(v) && std::fabs(v) <= kMaxAbsValue; }

}  // namespace

std::uint32_t format_checksum(const std::uint8_t* p, std::size_t n) { return crc32(p, n); }

class Serializer {
 public:
  static std::vector<std::uint8_t> save(const VectorIndex& ix);
  static Result<VectorIndex> load(std::string_view bytes);
};

std::vector<std::uint8_t> Serializer::save(const VectorIndex& ix) {
  Writer w;
  w.raw(kMagic, 4);
  w.put<std::uint32_t>(VectorIndex::kFormatVersion);
  Writer h;
  const IndexOptions& o = ix.options_;
  h.put<std::uint8_t>(static_cast<std::uint8_t>(o.metric));
  h.put<std::uint8_t>(static_cast<std::uint8_t>(o.storage));
  h.put<std::uint8_t>(static_cast<std::uint8_t>(o.kind));
  h.put<std::uint8_t>(static_cast<std::uint8_t>(o.binary_rescore));
  h.put<std::uint32_t>(o.dimension);
  h.put<std::uint64_t>(ix.ids_.size());
  h.put<std::uint64_t>(ix.live_);
  h.put<std::uint64_t>(ix.next_seq_);
  h.put<std::uint32_t>(o.hnsw.m);
  h.put<std::uint32_t>(o.hnsw.ef_construction);
  h.put<std::uint32_t>(o.hnsw.ef_search);
  h.put<std::uint64_t>(o.hnsw.seed);
  h.put<std::uint64_t>(ix.rng_);
  h.put<std::uint32_t>(ix.entry_);
  h.put<std::uint32_t>(ix.max_level_);
  w.put<std::uint32_t>(static_cast<std::uint32_t>(h.buf.size()));
  w.raw(h.buf.data(), h.buf.size());

  Writer ids;
  for (const std::string& id : ix.ids_) {
    ids.put<std::uint32_t>(static_cast<std::uint32_t>(id.size()));
    ids.raw(id.data(), id.size());
  }
  w.section(kIds, ids.buf);
  w.section(kSeq, ix.seq_);
  w.section(kAlive, ix.alive_);
  w.section(kNorm2, ix.norm2_);
  if (ix.has_f32()) w.section(kF32, ix.f32_);
  if (ix.has_i8()) {
    w.section(kI8, ix.i8_);
    w.section(kScale, ix.scale_);
  }
  if (ix.has_bits()) w.section(kBits, ix.bits_);
  if (o.kind == IndexKind::kHnsw) {
    w.section(kLevels, ix.level_);
    w.section(kLinks0, ix.links0_);
    std::vector<std::uint32_t> upper;
    for (const auto& u : ix.upper_) upper.insert(upper.end(), u.begin(), u.end());
    w.section(kUpper, upper);
  }
  w.put<std::uint32_t>(crc32(w.buf.data(), w.buf.size()));
  return std::move(w.buf);
}

Result<VectorIndex> Serializer::load(std::string_view bytes) {
  const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data());
  if (bytes.size() < 16) return corrupt("only " + std::to_string(bytes.size()) + " bytes");
  if (std::memcmp(data, kMagic, 4) != 0) return corrupt("missing the 'RWDV' magic (not a ragwasm vector index)");
  std::uint32_t version = 0;
  std::memcpy(&version, data + 4, 4);
  if (version != VectorIndex::kFormatVersion) {
    return make_error(ErrorCode::kUnsupportedVersion,
                      "vector index format version " + std::to_string(version) +
                          " is not supported; this build reads version " +
                          std::to_string(VectorIndex::kFormatVersion));
  }
  const std::size_t body = bytes.size() - 4;
  std::uint32_t stored_crc = 0;
  std::memcpy(&stored_crc, data + body, 4);
  if (crc32(data, body) != stored_crc) return corrupt("checksum mismatch");

  Reader r(data + 8, body - 8);
  std::uint32_t header_len = 0;
  if (!r.get(header_len) || header_len != 68 || r.left() < header_len) return corrupt("bad header length");
  std::uint8_t metric = 0, storage = 0, kind = 0, rescore = 0;
  std::uint32_t dim = 0, entry = 0, max_level = 0;
  std::uint64_t slots = 0, live = 0, next_seq = 0, seed = 0, rng = 0;
  IndexOptions o;
  r.get(metric);
  r.get(storage);
  r.get(kind);
  r.get(rescore);
  r.get(dim);
  r.get(slots);
  r.get(live);
  r.get(next_seq);
  r.get(o.hnsw.m);
  r.get(o.hnsw.ef_construction);
  r.get(o.hnsw.ef_search);
  r.get(seed);
  r.get(rng);
  r.get(entry);
  r.get(max_level);
  if (metric > 2 || storage > 2 || kind > 1 || rescore > 1) return corrupt("unknown metric, storage or index kind");
  o.metric = static_cast<Metric>(metric);
  o.storage = static_cast<Storage>(storage);
  o.kind = static_cast<IndexKind>(kind);
  o.binary_rescore = static_cast<Storage>(rescore);
  o.dimension = dim;
  o.hnsw.seed = seed;
  auto created = VectorIndex::create(o);
  if (!created.ok()) return corrupt("invalid options (" + created.error().message + ")");
  VectorIndex ix = std::move(created).value();
  ix.rng_ = rng;
  ix.next_seq_ = next_seq;
  const std::size_t stride = ix.stride_;
  // Each slot needs at least 4 bytes of id length + 8 of seq: bounds `slots` before any allocation.
  if (slots > r.left() / 12 || live > slots) return corrupt("vector count larger than the data");

  const std::uint8_t* p = nullptr;
  std::uint64_t len = 0;
  if (!r.section(kIds, p, len)) return corrupt("ids section missing or truncated");
  {
    Reader ids(p, static_cast<std::size_t>(len));
    ix.ids_.resize(static_cast<std::size_t>(slots));
    for (auto& id : ix.ids_) {
      std::uint32_t n = 0;
      const std::uint8_t* b = nullptr;
      if (!ids.get(n) || n == 0 || n > kMaxIdBytes || !ids.bytes(n, b)) return corrupt("bad id");
      id.assign(reinterpret_cast<const char*>(b), n);
    }
    if (ids.left() != 0) return corrupt("ids section length");
  }
  if (!read_array(r, kSeq, slots, ix.seq_)) return corrupt("seq section");
  if (!read_array(r, kAlive, slots, ix.alive_)) return corrupt("alive section");
  if (!read_array(r, kNorm2, slots, ix.norm2_)) return corrupt("norm section");
  std::uint64_t alive_count = 0;
  ix.map_.reserve(static_cast<std::size_t>(live));
  for (std::size_t s = 0; s < slots; ++s) {
    if (ix.alive_[s] > 1 || (o.kind == IndexKind::kFlat && ix.alive_[s] == 0)) return corrupt("alive flags");
    if (ix.seq_[s] >= next_seq) return corrupt("insertion ordinal");
    if (!std::isfinite(ix.norm2_[s]) || ix.norm2_[s] < 0.0f) return corrupt("norm value");
    if (ix.alive_[s]) {
      ++alive_count;
      if (!ix.map_.emplace(ix.ids_[s], static_cast<std::uint32_t>(s)).second) return corrupt("duplicate id");
    }
  }
  if (alive_count != live) return corrupt("live count");
  ix.live_ = static_cast<std::size_t>(live);
  const std::uint64_t cells = slots * stride;
  if (ix.has_f32()) {
    if (!read_array(r, kF32, cells, ix.f32_)) return corrupt("f32 vectors section");
    for (std::size_t s = 0; s < slots; ++s) {
      for (std::size_t i = 0; i < stride; ++i) {
        const float v = ix.f32_[s * stride + i];
        if (!finite_bounded(v) || (i >= dim && v != 0.0f)) return corrupt("f32 vector value");
      }
    }
  }
  if (ix.has_i8()) {
    if (!read_array(r, kI8, cells, ix.i8_)) return corrupt("int8 vectors section");
    for (std::size_t s = 0; s < slots; ++s) {
      for (std::size_t i = dim; i < stride; ++i) {
        if (ix.i8_[s * stride + i] != 0) return corrupt("int8 padding");
      }
    }
    if (!read_array(r, kScale, slots, ix.scale_)) return corrupt("int8 scale section");
    for (float v : ix.scale_) {
      if (!finite_bounded(v) || v < 0.0f) return corrupt("int8 scale value");
    }
  }
  if (ix.has_bits() && !read_array(r, kBits, slots * ix.bit_bytes_, ix.bits_)) return corrupt("bits section");
  if (o.kind == IndexKind::kHnsw) {
    const std::uint32_t m = o.hnsw.m;
    if (!read_array(r, kLevels, slots, ix.level_)) return corrupt("levels section");
    if (!read_array(r, kLinks0, slots * (2 * m + 1), ix.links0_)) return corrupt("level-0 links section");
    std::uint64_t upper_cells = 0;
    std::uint32_t top = 0;
    for (std::uint8_t l : ix.level_) {
      if (l > kMaxLevel) return corrupt("node level");
      upper_cells += std::uint64_t{l} * (m + 1);
      top = std::max<std::uint32_t>(top, l);
    }
    std::vector<std::uint32_t> upper;
    if (!read_array(r, kUpper, upper_cells, upper)) return corrupt("upper links section");
    ix.upper_.resize(static_cast<std::size_t>(slots));
    std::size_t at = 0;
    for (std::size_t s = 0; s < slots; ++s) {
      const std::size_t n = std::size_t{ix.level_[s]} * (m + 1);
      ix.upper_[s].assign(upper.begin() + static_cast<std::ptrdiff_t>(at),
                          upper.begin() + static_cast<std::ptrdiff_t>(at + n));
      at += n;
    }
    for (std::uint32_t s = 0; s < slots; ++s) {
      for (std::uint32_t l = 0; l <= ix.level_[s]; ++l) {
        const std::uint32_t* ll = ix.links(s, l);
        if (ll[0] > ix.max_links(l)) return corrupt("link count");
        for (std::uint32_t i = 1; i <= ll[0]; ++i) {
          // A link must point at a node that exists on this level.
          if (ll[i] >= slots || ix.level_[ll[i]] < l) return corrupt("link target");
        }
      }
    }
    if (slots == 0 ? (entry != 0 || max_level != 0) : (entry >= slots || ix.level_[entry] != max_level || top != max_level)) {
      return corrupt("entry point");
    }
    ix.entry_ = entry;
    ix.max_level_ = max_level;
  }
  if (r.left() != 0) return corrupt("trailing bytes");
  return ix;
}

std::vector<std::uint8_t> VectorIndex::save() const { return Serializer::save(*this); }
Result<VectorIndex> VectorIndex::load(std::string_view bytes) { return Serializer::load(bytes); }

}  // namespace ragwasm::dense
