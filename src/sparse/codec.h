// Byte-level helpers for the sparse index: LEB128 varints and a bounds-checked reader/writer used by
// the postings and the saved format. Every read checks the bytes left (corrupt input -> false).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>


namespace ragwasm::sparse::codec {

inline void put_varint(std::vector<std::uint8_t>& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(v));
}
inline void put_varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>(static_cast<std::uint8_t>(v | 0x80)));
    v >>= 7;
  }
  out.push_back(static_cast<char>(static_cast<std::uint8_t>(v)));
}

// Unchecked decode for trusted (validated) in-memory streams.
inline std::uint32_t get_varint32(const std::uint8_t*& p) {
  std::uint32_t v = *p & 0x7F;
  if (*p++ < 0x80) return v;
  v |= static_cast<std::uint32_t>(*p & 0x7F) << 7;
  if (*p++ < 0x80) return v;
  v |= static_cast<std::uint32_t>(*p & 0x7F) << 14;
  if (*p++ < 0x80) return v;
  v |= static_cast<std::uint32_t>(*p & 0x7F) << 21;
  if (*p++ < 0x80) return v;
  v |= static_cast<std::uint32_t>(*p++ & 0x0F) << 28;
  return v;
}

// Appends to its own string, or to a caller's (an output already reserved: container::Packer).
class Writer {
 public:
  Writer() : out_(&own_) {}
  explicit Writer(std::string& into) : out_(&into) {}
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;
  void u8(std::uint8_t v) { out_->push_back(static_cast<char>(v)); }
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out_->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  }
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) out_->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  }
  void f64(double d) {
    std::uint64_t v;
    std::memcpy(&v, &d, 8);
    u64(v);
  }
  void varint(std::uint64_t v) { put_varint(*out_, v); }
  void str(std::string_view s) {
    varint(s.size());
    out_->append(s.data(), s.size());
  }
  std::string& bytes() { return *out_; }

 private:
  std::string own_;
  std::string* out_;
};

// Writer's interface, counting the bytes instead of writing them (to plan an exact output size).
class Counter {
 public:
  void u8(std::uint8_t) { n_ += 1; }
  void u32(std::uint32_t) { n_ += 4; }
  void u64(std::uint64_t) { n_ += 8; }
  void f64(double) { n_ += 8; }
  void varint(std::uint64_t v) {
    do {
      ++n_;
      v >>= 7;
    } while (v != 0);
  }
  void str(std::string_view s) {
    varint(s.size());
    n_ += s.size();
  }
  std::uint64_t size() const { return n_; }

 private:
  std::uint64_t n_ = 0;
};

class Reader {
 public:
  explicit Reader(std::string_view b) : b_(b) {}
  std::size_t left() const { return b_.size() - pos_; }
  bool u8(std::uint8_t* v) {
    if (left() < 1) return false;
    *v = static_cast<std::uint8_t>(b_[pos_++]);
    return true;
  }
  bool u32(std::uint32_t* v) {
    if (left() < 4) return false;
    *v = 0;
    for (int i = 0; i < 4; ++i) *v |= static_cast<std::uint32_t>(static_cast<std::uint8_t>(b_[pos_ + i])) << (8 * i);
    pos_ += 4;
    return true;
  }
  bool u64(std::uint64_t* v) {
    if (left() < 8) return false;
    *v = 0;
    for (int i = 0; i < 8; ++i) *v |= static_cast<std::uint64_t>(static_cast<std::uint8_t>(b_[pos_ + i])) << (8 * i);
    pos_ += 8;
    return true;
  }
  bool f64(double* d) {
    std::uint64_t v;
    if (!u64(&v)) return false;
    std::memcpy(d, &v, 8);
    return true;
  }
  bool varint(std::uint64_t* v) {
    *v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (left() < 1) return false;
      const auto c = static_cast<std::uint8_t>(b_[pos_++]);
      if (shift == 63 && c > 1) return false;
      *v |= static_cast<std::uint64_t>(c & 0x7F) << shift;
      if (c < 0x80) return true;
    }
    return false;
  }
  bool varint32(std::uint32_t* v) {
    std::uint64_t x;
    if (!varint(&x) || x > 0xFFFFFFFFull) return false;
    *v = static_cast<std::uint32_t>(x);
    return true;
  }
  bool str(std::string* s, std::size_t max_len) {
    std::string_view v;
    if (!view(&v, max_len)) return false;
    s->assign(v.data(), v.size());
    return true;
  }
  // str() as a view into the bytes (no copy)
  bool view(std::string_view* s, std::size_t max_len) {
    std::uint64_t n;
    if (!varint(&n) || n > left() || n > max_len) return false;
    *s = b_.substr(pos_, static_cast<std::size_t>(n));
    pos_ += static_cast<std::size_t>(n);
    return true;
  }
  void skip(std::size_t n) { pos_ += n < left() ? n : left(); }
  bool done() const { return pos_ == b_.size(); }

 private:
  std::string_view b_;
  std::size_t pos_ = 0;
};

}  // namespace ragwasm::sparse::codec
