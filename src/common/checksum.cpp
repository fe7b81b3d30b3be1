#include "common/checksum.h"

#include <array>
#include <cstring>

namespace ragwasm {
namespace {

constexpr std::uint64_t kP1 = 11400714785074694791ull;
constexpr std::uint64_t kP2 = 14029467366897019727ull;
constexpr std::uint64_t kP3 = 1609587929392839161ull;
constexpr std::uint64_t kP4 = 9650029242287828579ull;
constexpr std::uint64_t kP5 = 2870177450012600261ull;

inline std::uint64_t rotl(std::uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
// Little-endian loads whatever the host (both our targets are little-endian; this keeps it explicit).
inline std::uint64_t load64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
inline std::uint32_t load32(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 | static_cast<std::uint32_t>(p[2]) << 16 |
         static_cast<std::uint32_t>(p[3]) << 24;
}
inline std::uint64_t round(std::uint64_t acc, std::uint64_t input) {
  acc += input * kP2;
  acc = rotl(acc, 31);
  return acc * kP1;
}
inline std::uint64_t merge(std::uint64_t acc, std::uint64_t v) {
  acc ^= round(0, v);
  return acc * kP1 + kP4;
}

constexpr std::array<std::uint32_t, 256> make_crc_table() {
  std::array<std::uint32_t, 256> t{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    t[i] = c;
  }
  return t;
}
constexpr std::array<std::uint32_t, 256> kCrcTable = make_crc_table();

}  // namespace

Xxh64Stream::Xxh64Stream(std::uint64_t seed)
    : v_{seed + kP1 + kP2, seed + kP2, seed, seed - kP1}, seed_(seed), buffer_{} {}

void Xxh64Stream::update(const std::uint8_t* p, std::size_t n) {
  if (n == 0) return;
  total_ += n;
  if (buffered_ + n < 32) {
    std::memcpy(buffer_ + buffered_, p, n);
    buffered_ += n;
    return;
  }
  const std::uint8_t* const end = p + n;
  if (buffered_ > 0) {
    const std::size_t fill = 32 - buffered_;
    std::memcpy(buffer_ + buffered_, p, fill);
    p += fill;
    for (int i = 0; i < 4; ++i) v_[i] = round(v_[i], load64(buffer_ + 8 * i));
    buffered_ = 0;
  }
  if (end - p >= 32) {
    std::uint64_t v1 = v_[0], v2 = v_[1], v3 = v_[2], v4 = v_[3];
    const std::uint8_t* const limit = end - 32;
    do {
      v1 = round(v1, load64(p));
      v2 = round(v2, load64(p + 8));
      v3 = round(v3, load64(p + 16));
      v4 = round(v4, load64(p + 24));
      p += 32;
    } while (p <= limit);
    v_[0] = v1;
    v_[1] = v2;
    v_[2] = v3;
    v_[3] = v4;
  }
  if (p < end) {
    std::memcpy(buffer_, p, static_cast<std::size_t>(end - p));
    buffered_ = static_cast<std::size_t>(end - p);
  }
}

std::uint64_t Xxh64Stream::digest() const {
  std::uint64_t h;
  if (total_ >= 32) {
    h = rotl(v_[0], 1) + rotl(v_[1], 7) + rotl(v_[2], 12) + rotl(v_[3], 18);
    for (int i = 0; i < 4; ++i) h = merge(h, v_[i]);
  } else {
    h = seed_ + kP5;
  }
  h += total_;
  const std::uint8_t* p = buffer_;
  const std::uint8_t* const end = buffer_ + buffered_;
  while (end - p >= 8) {
    h ^= round(0, load64(p));
    h = rotl(h, 27) * kP1 + kP4;
    p += 8;
  }
  if (end - p >= 4) {
    h ^= static_cast<std::uint64_t>(load32(p)) * kP1;
    h = rotl(h, 23) * kP2 + kP3;
    p += 4;
  }
  while (p < end) {
    h ^= static_cast<std::uint64_t>(*p) * kP5;
    h = rotl(h, 11) * kP1;
    ++p;
  }
  h ^= h >> 33;
  h *= kP2;
  h ^= h >> 29;
  h *= kP3;
  h ^= h >> 32;
  return h;
}

std::uint64_t xxh64(const std::uint8_t* p, std::size_t n, std::uint64_t seed) {
  Xxh64Stream s(seed);
  s.update(p, n);
  return s.digest();
}

std::uint32_t crc32(const std::uint8_t* p, std::size_t n) {
  std::uint32_t c = 0xFFFFFFFFu;
  for (std::size_t i = 0; i < n; ++i) c = kCrcTable[(c ^ p[i]) & 0xFFu] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

}  // namespace ragwasm
