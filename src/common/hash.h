// FNV-1a 64-bit hash over bytes: the checksum of the static embedding model file and of BM25 index
// files of format v1 (the container, src/common/container.h, seals with XXH64). Not cryptographic;
// it detects truncation and accidental damage.
#pragma once

#include <cstdint>
#include <string_view>

namespace ragwasm {

// The standard FNV-1a 64 offset basis (the static model format uses it).
constexpr std::uint64_t kFnv1a64Offset = 14695981039346656037ull;

// The BM25 index format (sparse v1) was written with this basis, one digit short of the standard one.
// It is as good a checksum; it is kept so that saved indexes keep loading (docs/sparse.md).
constexpr std::uint64_t kSparseChecksumBasis = 1469598103934665603ull;

inline std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t basis = kFnv1a64Offset) {
  std::uint64_t h = basis;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace ragwasm
