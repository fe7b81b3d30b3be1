// src/common/checksum.h: XXH64 and CRC-32 against reference values.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "common/checksum.h"

TEST_CASE("xxh64 gives the reference values of the xxHash specification", "[unit]") {
  CHECK(ragwasm::xxh64("") == 0xEF46DB3751D8E999ull);
  CHECK(ragwasm::xxh64("a") == 0xD24EC4F1A98C6E5Bull);
  CHECK(ragwasm::xxh64("abc") == 0x44BC2CF5AD770999ull);
}

TEST_CASE("xxh64 of a long input agrees with the zstd frame checksum", "[unit]") {
  // zstd --check stores the low 32 bits of XXH64 (seed 0) of the content: for the bytes 0..99 the
  // frame ends in 97 65 16 32 (printf bytes | zstd -q --check -c | tail -c 4), i.e. 0x32166597.
  std::string b(100, '\0');
  for (int i = 0; i < 100; ++i) b[static_cast<std::size_t>(i)] = static_cast<char>(i);
  CHECK((ragwasm::xxh64(b) & 0xFFFFFFFFull) == 0x32166597ull);
  // every stripe and tail path: lengths 0..70 all differ from each other
  for (std::size_t n = 1; n <= 70; ++n) CHECK(ragwasm::xxh64(b.substr(0, n)) != ragwasm::xxh64(b.substr(0, n - 1)));
}

TEST_CASE("crc32 gives the IEEE check value", "[unit]") {
  CHECK(ragwasm::crc32("123456789") == 0xCBF43926u);
  CHECK(ragwasm::crc32("") == 0u);
}

TEST_CASE("xxh64 fed in pieces of every size equals the whole input at once", "[unit]") {
  std::string b(1000, '\0');
  std::uint64_t x = 0x9E3779B97F4A7C15ull;  // seeded xorshift bytes
  for (auto& c : b) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    c = static_cast<char>(x & 0xFF);
  }
  for (std::size_t len : {0u, 1u, 31u, 32u, 33u, 63u, 64u, 100u, 1000u}) {
    const std::string_view whole = std::string_view(b).substr(0, len);
    for (std::size_t piece = 1; piece <= 70; ++piece) {
      ragwasm::Xxh64Stream s;
      for (std::size_t at = 0; at < len; at += piece) s.update(whole.substr(at, piece));
      INFO("length " << len << " piece " << piece);
      CHECK(s.digest() == ragwasm::xxh64(whole));
    }
  }
  // uneven pieces, a seed, and digest() in the middle does not disturb the stream
  ragwasm::Xxh64Stream s(7);
  std::size_t at = 0, step = 1;
  while (at < b.size()) {
    s.update(std::string_view(b).substr(at, step));
    (void)s.digest();
    at += step;
    step = step * 3 % 97 + 1;
  }
  CHECK(s.digest() == ragwasm::xxh64(b, 7));
  ragwasm::Xxh64Stream abc;
  abc.update("ab");
  abc.update("c");
  CHECK(abc.digest() == 0x44BC2CF5AD770999ull);
}
