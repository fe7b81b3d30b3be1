// Save/load of VectorIndex (docs/formats.md). Version 2 (written): the one container
// (src/common/container.h), magic "RWVECTOR", a 68-byte header section and one section per array;
// vector rows are stored unpadded (dimension values, ceil(dimension / 8) sign-bit bytes), so every
// row section length must equal count x dimension x bytes per value: the header's dimension is
// tied to the stored data. Version 1 (read only): "RWDV" | u32 version | u32 header length | header |
// sections (u32 tag, u64 length, payload) in a fixed order | u32 CRC-32, rows padded to the SIMD
// stride. Every length is checked against the bytes left before use; every value the search relies
// on (ids, finite vectors, graph links) is validated, so a crafted file cannot crash a search.
#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <unordered_set>

#include "common/checksum.h"
#include "common/container.h"
#include "dense/internal.h"

namespace ragwasm::dense {

namespace {

constexpr char kMagicV1[4] = {'R', 'W', 'D', 'V'};
constexpr char kMagic[8] = {'R', 'W', 'V', 'E', 'C', 'T', 'O', 'R'};
constexpr std::uint32_t kHeaderBytes = 68;

enum Tag : std::uint32_t {
  kIds = 1, kSeq = 2, kAlive = 3, kNorm2 = 4, kF32 = 5, kI8 = 6, kScale = 7, kBits = 8, kLevels = 9, kLinks0 = 10,
  kUpper = 11, kHeader = 12,
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
 private:
  const std::uint8_t* p_;
  std::size_t n_;
  std::size_t at_ = 0;
};

Error corrupt(const std::string& what) {
  return make_error(ErrorCode::kCorruptIndex, "vector index bytes are corrupt: " + what +
                                                  " (the file was truncated or modified; save it again)");
}

bool finite_bounded(float v) { return std::isfinite(v) && std::fabs(v) <= kMaxAbsValue; }

}  // namespace

using IdSink = std::function<void(std::string_view)>;

class Serializer {
 public:
  static std::vector<std::uint8_t> save(const VectorIndex& ix);
  // on_id null: load. Otherwise check: the same checks, but no id table and no vector rows are
  // built (the returned index holds only its options, counts and the small per-slot arrays), and
  // each live id goes to on_id instead of the duplicate check.
  static Result<VectorIndex> load(std::string_view bytes, const IdSink* on_id);

 private:
  static Result<VectorIndex> load_v1(std::string_view bytes, const IdSink* on_id);
  // Builds and validates an index from its header and section payloads (indexed by tag; an empty
  // view with have[tag] false = absent). `padded`: rows are stored at the SIMD stride (v1).
  static Result<VectorIndex> build(std::string_view header, const std::string_view* sec, const bool* have, bool padded, const IdSink* on_id);
};

namespace {

constexpr std::uint32_t kMaxTag = kHeader;

// Rows of `width` values stored as `file_width` values each (the rest of a row is zero).
template <class T>
bool read_rows(std::string_view sec, std::uint64_t rows, std::size_t file_width, std::size_t width, std::vector<T>& out) {
  if (sec.size() != rows * file_width * sizeof(T)) return false;
  out.assign(static_cast<std::size_t>(rows) * width, T{});
  for (std::size_t r = 0; r < rows; ++r) {
    if (file_width != 0) std::memcpy(out.data() + r * width, sec.data() + r * file_width * sizeof(T), file_width * sizeof(T));
  }
  return true;
}

template <class T>
bool read_array(std::string_view sec, std::uint64_t count, std::vector<T>& out) {
  return read_rows(sec, count, 1, 1, out);
}

}  // namespace

std::vector<std::uint8_t> Serializer::save(const VectorIndex& ix) {
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

  // Every section's length is known up front: they are written straight into the container,
  // reserved at its exact size (no copy of the arrays besides the result).
  const std::size_t slots = ix.ids_.size(), dim = o.dimension;
  using Out = std::vector<std::uint8_t>;
  const auto append = [](Out& out, const void* p, std::size_t n) {
    const auto* b = static_cast<const std::uint8_t*>(p);
    out.insert(out.end(), b, b + n);
  };
  std::vector<std::function<void(Out&)>> writers;
  container::Packer<Out>::Plan plan;
  auto add = [&](std::uint32_t tag, std::uint64_t length, std::function<void(Out&)> write) {
    plan.emplace_back(tag, length);
    writers.push_back(std::move(write));
  };
  auto array = [&](std::uint32_t tag, const auto& v) {
    add(tag, v.size() * sizeof(v[0]), [&append, &v](Out& out) { append(out, v.data(), v.size() * sizeof(v[0])); });
  };
  auto rows = [&](std::uint32_t tag, const auto& v, std::size_t width, std::size_t keep) {
    add(tag, std::uint64_t{slots} * keep * sizeof(v[0]), [&append, &v, slots, width, keep](Out& out) {
      for (std::size_t r = 0; r < slots; ++r) append(out, v.data() + r * width, keep * sizeof(v[0]));
    });
  };
  add(kHeader, h.buf.size(), [&](Out& out) { append(out, h.buf.data(), h.buf.size()); });
  std::uint64_t id_bytes = 0;
  for (const std::string& id : ix.ids_) id_bytes += 4 + id.size();
  add(kIds, id_bytes, [&](Out& out) {
    for (const std::string& id : ix.ids_) {
      const auto n = static_cast<std::uint32_t>(id.size());
      append(out, &n, 4);
      append(out, id.data(), id.size());
    }
  });
  array(kSeq, ix.seq_);
  array(kAlive, ix.alive_);
  array(kNorm2, ix.norm2_);
  if (ix.has_f32()) rows(kF32, ix.f32_, ix.stride_, dim);
  if (ix.has_i8()) {
    rows(kI8, ix.i8_, ix.stride_, dim);
    array(kScale, ix.scale_);
  }
  if (ix.has_bits()) rows(kBits, ix.bits_, ix.bit_bytes_, (dim + 7) / 8);
  if (o.kind == IndexKind::kHnsw) {
    array(kLevels, ix.level_);
    array(kLinks0, ix.links0_);
    std::uint64_t cells = 0;
    for (const auto& u : ix.upper_) cells += u.size();
    add(kUpper, cells * sizeof(std::uint32_t), [&](Out& out) {
      for (const auto& u : ix.upper_) append(out, u.data(), u.size() * sizeof(std::uint32_t));
    });
  }
  container::Packer<Out> out(std::string_view(kMagic, 8), VectorIndex::kFormatVersion, std::move(plan));
  for (auto& w : writers) w(out.next());
  return out.done();
}

Result<VectorIndex> Serializer::load(std::string_view bytes, const IdSink* on_id) {
  if (bytes.size() >= 4 && std::memcmp(bytes.data(), kMagicV1, 4) == 0) return load_v1(bytes, on_id);
  container::Format format;
  format.magic = std::string_view(kMagic, 8);
  format.what = "vector index";
  format.min_version = VectorIndex::kFormatVersion;  // version 1 files carry the "RWDV" magic
  format.max_version = VectorIndex::kFormatVersion;
  auto u = container::unpack(bytes, format);
  if (!u.ok()) {
    if (u.error().code == ErrorCode::kUnsupportedVersion) return u.error();
    return corrupt(u.error().message);
  }
  std::string_view sec[kMaxTag + 1];
  bool have[kMaxTag + 1] = {};
  for (const auto& s : u.value().sections) {
    if (s.tag == 0 || s.tag > kMaxTag) return corrupt("unknown section " + std::to_string(s.tag));
    sec[s.tag] = s.bytes;
    have[s.tag] = true;
  }
  if (!have[kHeader]) return corrupt("header section missing");
  return build(sec[kHeader], sec, have, false, on_id);
}

Result<VectorIndex> Serializer::load_v1(std::string_view bytes, const IdSink* on_id) {
  const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data());
  if (bytes.size() < 16) return corrupt("only " + std::to_string(bytes.size()) + " bytes");
  std::uint32_t version = 0;
  std::memcpy(&version, data + 4, 4);
  if (version != 1) {
    return make_error(ErrorCode::kUnsupportedVersion,
                      "vector index format version " + std::to_string(version) + " of the 'RWDV' layout is not supported; this build reads 'RWDV' version 1 and 'RWVECTOR' version " +
                          std::to_string(VectorIndex::kFormatVersion));
  }
  const std::size_t body = bytes.size() - 4;
  std::uint32_t stored_crc = 0;
  std::memcpy(&stored_crc, data + body, 4);
  if (crc32(data, body) != stored_crc) return corrupt("checksum mismatch");
  Reader r(data + 8, body - 8);
  std::uint32_t header_len = 0;
  const std::uint8_t* header = nullptr;
  if (!r.get(header_len) || header_len != kHeaderBytes || !r.bytes(header_len, header)) return corrupt("bad header length");
  std::string_view sec[kMaxTag + 1];
  bool have[kMaxTag + 1] = {};
  while (r.left() != 0) {
    std::uint32_t tag = 0;
    std::uint64_t len = 0;
    const std::uint8_t* p = nullptr;
    if (!r.get(tag) || !r.get(len) || len > r.left() || !r.bytes(static_cast<std::size_t>(len), p)) return corrupt("section header out of bounds");
    if (tag == 0 || tag >= kHeader || have[tag]) return corrupt("unknown or repeated section " + std::to_string(tag));
    sec[tag] = std::string_view(reinterpret_cast<const char*>(p), static_cast<std::size_t>(len));
    have[tag] = true;
  }
  return build(std::string_view(reinterpret_cast<const char*>(header), kHeaderBytes), sec, have, true, on_id);
}

Result<VectorIndex> Serializer::build(std::string_view header, const std::string_view* sec, const bool* have, bool padded, const IdSink* on_id) {
  Reader r(reinterpret_cast<const std::uint8_t*>(header.data()), header.size());
  if (header.size() != kHeaderBytes) return corrupt("bad header length");
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
  const bool hnsw = o.kind == IndexKind::kHnsw;
  const bool wanted[kMaxTag + 1] = {false, true, true, true, true, ix.has_f32(), ix.has_i8(), ix.has_i8(), ix.has_bits(), hnsw, hnsw, hnsw, true};
  for (std::uint32_t t = 1; t < kHeader; ++t) {
    if (have[t] != wanted[t]) return corrupt(std::string(have[t] ? "unexpected" : "missing") + " section " + std::to_string(t));
  }
  // Each slot needs at least 4 bytes of id length + 1 byte of id: bounds `slots` before any allocation.
  if (slots > sec[kIds].size() / 5 || live > slots) return corrupt("vector count larger than the data");

  std::vector<std::string_view> id_views;  // check: the ids stay in the bytes
  {
    Reader ids(reinterpret_cast<const std::uint8_t*>(sec[kIds].data()), sec[kIds].size());
    if (on_id != nullptr) id_views.resize(static_cast<std::size_t>(slots));
    else ix.ids_.resize(static_cast<std::size_t>(slots));
    for (std::size_t s = 0; s < slots; ++s) {
      std::uint32_t n = 0;
      const std::uint8_t* b = nullptr;
      if (!ids.get(n) || n == 0 || n > kMaxIdBytes || !ids.bytes(n, b)) return corrupt("bad id");
      if (on_id != nullptr) id_views[s] = std::string_view(reinterpret_cast<const char*>(b), n);
      else ix.ids_[s].assign(reinterpret_cast<const char*>(b), n);
    }
    if (ids.left() != 0) return corrupt("ids section length");
  }
  if (!read_array(sec[kSeq], slots, ix.seq_)) return corrupt("seq section");
  if (!read_array(sec[kAlive], slots, ix.alive_)) return corrupt("alive section");
  if (!read_array(sec[kNorm2], slots, ix.norm2_)) return corrupt("norm section");
  std::uint64_t alive_count = 0;
  if (on_id == nullptr) ix.map_.reserve(static_cast<std::size_t>(live));
  for (std::size_t s = 0; s < slots; ++s) {
    if (ix.alive_[s] > 1 || (o.kind == IndexKind::kFlat && ix.alive_[s] == 0)) return corrupt("alive flags");
    if (ix.seq_[s] >= next_seq) return corrupt("insertion ordinal");
    if (!std::isfinite(ix.norm2_[s]) || ix.norm2_[s] < 0.0f) return corrupt("norm value");
    if (ix.alive_[s]) {
      ++alive_count;
      if (on_id != nullptr) (*on_id)(id_views[s]);
      else if (!ix.map_.emplace(ix.ids_[s], static_cast<std::uint32_t>(s)).second) return corrupt("duplicate id");
    }
  }
  if (alive_count != live) return corrupt("live count");
  ix.live_ = static_cast<std::size_t>(live);
  // v2 rows hold exactly `dim` values: a header dimension that disagrees with the data is corrupt.
  const std::size_t row = padded ? stride : dim;
  // load: the rows copied to the stride (padding zero), then checked there; check: the same values
  // checked in the bytes (values past a stored row are the zero padding, which passes)
  const bool copy = on_id == nullptr;
  if (ix.has_f32()) {
    const std::string_view f = sec[kF32];
    if (copy ? !read_rows(f, slots, row, stride, ix.f32_) : f.size() != slots * row * sizeof(float)) {
      return corrupt("f32 vectors section length does not match " + std::to_string(slots) + " vectors of dimension " + std::to_string(dim));
    }
    const std::size_t width = copy ? stride : row;
    for (std::size_t s = 0; s < slots; ++s) {
      for (std::size_t i = 0; i < width; ++i) {
        float v;
        if (copy) v = ix.f32_[s * stride + i];
        else std::memcpy(&v, f.data() + (s * row + i) * sizeof(float), sizeof(float));
        if (!finite_bounded(v) || (i >= dim && v != 0.0f)) return corrupt("f32 vector value");
      }
    }
  }
  if (ix.has_i8()) {
    const std::string_view q = sec[kI8];
    if (copy ? !read_rows(q, slots, row, stride, ix.i8_) : q.size() != slots * row) {
      return corrupt("int8 vectors section length does not match " + std::to_string(slots) + " vectors of dimension " + std::to_string(dim));
    }
    const std::size_t width = copy ? stride : row;
    for (std::size_t s = 0; s < slots; ++s) {
      for (std::size_t i = dim; i < width; ++i) {
        if ((copy ? ix.i8_[s * stride + i] : static_cast<std::int8_t>(q[s * row + i])) != 0) return corrupt("int8 padding");
      }
    }
    if (!read_array(sec[kScale], slots, ix.scale_)) return corrupt("int8 scale section");
    for (float v : ix.scale_) {
      if (!finite_bounded(v) || v < 0.0f) return corrupt("int8 scale value");
    }
  }
  if (ix.has_bits()) {
    const std::string_view bb = sec[kBits];
    const std::size_t bit_row = padded ? ix.bit_bytes_ : (dim + 7) / 8;
    if (copy ? !read_rows(bb, slots, bit_row, ix.bit_bytes_, ix.bits_) : bb.size() != slots * bit_row) {
      return corrupt("bits section length does not match " + std::to_string(slots) + " vectors of dimension " + std::to_string(dim));
    }
    const std::size_t width = copy ? ix.bit_bytes_ : bit_row;
    for (std::size_t s = 0; s < slots; ++s) {
      for (std::size_t i = dim; i < width * 8; ++i) {
        const auto byte = copy ? ix.bits_[s * ix.bit_bytes_ + i / 8] : static_cast<std::uint8_t>(bb[s * bit_row + i / 8]);
        if (byte & (1u << (i % 8))) return corrupt("sign bits past the dimension");
      }
    }
  }
  if (hnsw) {
    const std::uint32_t m = o.hnsw.m;
    if (!read_array(sec[kLevels], slots, ix.level_)) return corrupt("levels section");
    if (!read_array(sec[kLinks0], slots * (2 * m + 1), ix.links0_)) return corrupt("level-0 links section");
    std::uint64_t upper_cells = 0;
    std::uint32_t top = 0;
    for (std::uint8_t l : ix.level_) {
      if (l > kMaxLevel) return corrupt("node level");
      upper_cells += std::uint64_t{l} * (m + 1);
      top = std::max<std::uint32_t>(top, l);
    }
    std::vector<std::uint32_t> upper;
    if (!read_array(sec[kUpper], upper_cells, upper)) return corrupt("upper links section");
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
  return ix;
}

std::vector<std::uint8_t> VectorIndex::save() const { return Serializer::save(*this); }
Result<VectorIndex> VectorIndex::load(std::string_view bytes) { return Serializer::load(bytes, nullptr); }
Result<VectorIndex::SavedSummary> VectorIndex::check(std::string_view bytes, const std::function<void(std::string_view)>& on_id) {
  auto r = Serializer::load(bytes, &on_id);
  if (!r.ok()) return r.error();
  SavedSummary out;
  out.dimension = r.value().options_.dimension;
  out.live = r.value().live_;
  return out;
}

}  // namespace ragwasm::dense
