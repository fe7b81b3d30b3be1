// Checksums of the saved formats. xxh64 seals the one container (src/common/container.h); crc32 is
// kept for the formats written before it (vector index v1, JS collections v1). Neither is
// cryptographic: they detect truncation and accidental damage, not deliberate edits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace ragwasm {

// XXH64 (Yann Collet's xxHash, 64-bit variant, seed 0 by default): xxh64("") = 0xEF46DB3751D8E999,
// xxh64("abc") = 0x44BC2CF5AD770999.
std::uint64_t xxh64(const std::uint8_t* data, std::size_t size, std::uint64_t seed = 0);
inline std::uint64_t xxh64(std::string_view bytes, std::uint64_t seed = 0) {
  return xxh64(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), seed);
}

// XXH64 fed in pieces: update() any number of times with pieces of any size, then digest() equals
// xxh64() of the pieces back to back (the one-shot xxh64 is this with one piece). Lets a large input
// be hashed without holding it in one buffer (container::Writer, the WASM container binding).
class Xxh64Stream {
 public:
  explicit Xxh64Stream(std::uint64_t seed = 0);
  void update(const std::uint8_t* data, std::size_t size);
  void update(std::string_view bytes) { update(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()); }
  std::uint64_t digest() const;  // of everything so far; update() may go on after it

 private:
  std::uint64_t v_[4];
  std::uint64_t seed_;
  std::uint64_t total_ = 0;
  std::uint8_t buffer_[32];
  std::size_t buffered_ = 0;  // bytes in buffer_, always < 32 between calls
};

// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320, as zlib's crc32): crc32("123456789") = 0xCBF43926.
std::uint32_t crc32(const std::uint8_t* data, std::size_t size);
inline std::uint32_t crc32(std::string_view bytes) {
  return crc32(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

}  // namespace ragwasm
