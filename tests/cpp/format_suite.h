// The same corruption test for every saved format written in the one container
// (src/common/container.h): truncation at every section boundary and at seeded random points,
// seeded random bit flips, wrong magic, wrong and future versions, and checksum-resealed edits of
// every section length (the checksum then passes, so only the structural checks can reject them).
// Each mutation must fail with CORRUPT_INDEX or UNSUPPORTED_VERSION, never crash; resealed edits of
// a length must fail with CORRUPT_INDEX.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "common/checksum.h"
#include "common/container.h"
#include "common/result.h"

namespace ragwasm::testing {

inline std::uint32_t u32_at(const std::string& b, std::size_t at) {
  std::uint32_t v = 0;
  for (int k = 3; k >= 0; --k) v = (v << 8) | static_cast<std::uint8_t>(b[at + k]);
  return v;
}
inline std::uint64_t u64_at(const std::string& b, std::size_t at) {
  std::uint64_t v = 0;
  for (int k = 7; k >= 0; --k) v = (v << 8) | static_cast<std::uint8_t>(b[at + k]);
  return v;
}
inline void put_u32_at(std::string& b, std::size_t at, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) b[at + k] = static_cast<char>((v >> (8 * k)) & 0xFF);
}
inline void put_u64_at(std::string& b, std::size_t at, std::uint64_t v) {
  for (int k = 0; k < 8; ++k) b[at + k] = static_cast<char>((v >> (8 * k)) & 0xFF);
}

// Recomputes the trailing XXH64 of a container after an edit.
inline std::string reseal(std::string b) {
  put_u64_at(b, b.size() - 8, xxh64(std::string_view(b).substr(0, b.size() - 8)));
  return b;
}

struct SectionAt {
  std::uint32_t tag;
  std::size_t header;  // offset of the section's u32 tag
  std::size_t payload;
  std::size_t length;
};

// Section positions of a well-formed container.
inline std::vector<SectionAt> sections_of(const std::string& b) {
  std::vector<SectionAt> out;
  std::size_t at = container::kHeaderBytes;
  const std::uint32_t n = u32_at(b, 12);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::size_t len = static_cast<std::size_t>(u64_at(b, at + 4));
    out.push_back({u32_at(b, at), at, at + 12, len});
    at += 12 + len;
  }
  REQUIRE(at + 8 == b.size());
  return out;
}

// For files of an old layout (not resealable with XXH64): flipping one bit at every `step`-th byte
// from `from` on must give CORRUPT_INDEX (the old checksum or a structural check catches it).
template <class Load>
void expect_flips_corrupt(const std::string& good, std::size_t from, std::size_t step, std::uint8_t bit, Load&& load) {
  REQUIRE(load(good).ok());
  for (std::size_t at = from; at < good.size(); at += step) {
    std::string b = good;
    b[at] = static_cast<char>(b[at] ^ bit);
    INFO("byte " << at);
    const Status s = load(b);
    REQUIRE_FALSE(s.ok());
    REQUIRE(s.error().code == ErrorCode::kCorruptIndex);
  }
}

// `load` maps bytes to a Status (ok when the object loaded). `max_version` is the newest version
// the loader reads. Returns the number of mutations tried.
template <class Load>
std::size_t run_corruption_suite(const std::string& good, std::uint32_t max_version, Load&& load) {
  REQUIRE(load(good).ok());
  std::size_t tried = 0;
  auto expect_rejected = [&](const std::string& b, const char* what, bool resealed) {
    ++tried;
    INFO(what << " (" << b.size() << " bytes)");
    const Status s = load(b);
    REQUIRE_FALSE(s.ok());
    if (resealed) {
      REQUIRE(s.error().code == ErrorCode::kCorruptIndex);
    } else {
      REQUIRE((s.error().code == ErrorCode::kCorruptIndex || s.error().code == ErrorCode::kUnsupportedVersion));
    }
  };
  const auto secs = sections_of(good);
  // truncation at every section boundary (and one byte either side), then at seeded random points
  for (const auto& s : secs) {
    for (std::size_t cut : {s.header, s.header + 1, s.payload - 1, s.payload, s.payload + s.length}) {
      if (cut < good.size()) expect_rejected(good.substr(0, cut), "truncated at a section boundary", false);
    }
  }
  for (std::size_t cut : {std::size_t{0}, std::size_t{7}, std::size_t{16}, good.size() - 8, good.size() - 1}) {
    expect_rejected(good.substr(0, cut), "truncated at the header or seal", false);
  }
  std::mt19937 rng(20261125);  // seed fixed
  for (int i = 0; i < 200; ++i) expect_rejected(good.substr(0, rng() % good.size()), "truncated at a random point", false);
  // bit flips anywhere (magic, version, lengths, payload, seal)
  for (int i = 0; i < 400; ++i) {
    std::string b = good;
    b[rng() % b.size()] ^= static_cast<char>(1u << (rng() % 8));
    expect_rejected(b, "one bit flipped", false);
  }
  // wrong magic, even when resealed
  {
    std::string b = good;
    b[0] ^= 0x01;
    expect_rejected(b, "wrong magic", false);
    expect_rejected(reseal(b), "wrong magic resealed", true);
  }
  // version 0, the next version and the largest: UNSUPPORTED_VERSION even when resealed
  for (std::uint32_t v : {0u, max_version + 1, 0xFFFFFFFFu}) {
    std::string b = good;
    put_u32_at(b, 8, v);
    INFO("version " << v);
    const Status s = load(reseal(b));
    REQUIRE_FALSE(s.ok());
    REQUIRE(s.error().code == ErrorCode::kUnsupportedVersion);
    ++tried;
  }
  // resealed edits of the section count and of every section's length and tag
  for (std::uint32_t count : {0u, u32_at(good, 12) - 1, u32_at(good, 12) + 1, 0xFFFFFFFFu}) {
    std::string b = good;
    put_u32_at(b, 12, count);
    expect_rejected(reseal(b), "section count edited and resealed", true);
  }
  for (const auto& s : secs) {
    for (std::uint64_t len : {std::uint64_t{0}, std::uint64_t{s.length} - 1, std::uint64_t{s.length} + 1, std::uint64_t{s.length} * 2 + 8,
                              ~std::uint64_t{0}}) {
      if (len == s.length) continue;
      std::string b = good;
      put_u64_at(b, s.header + 4, len);
      expect_rejected(reseal(b), "a section length edited and resealed", true);
    }
  }
  return tried;
}

}  // namespace ragwasm::testing
