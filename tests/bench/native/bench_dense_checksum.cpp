// Checksum throughput on a realistic saved index, to choose the container's checksum
// (docs/formats.md): CRC-32 (bytewise table, what the vector index v1 and JS collections used),
// CRC-32C (Castagnoli, portable slicing-by-8: the hardware instruction does not exist in WASM) and
// XXH64. The input is a saved flat f32 vector index of 10,000 seeded Gaussian 384-d vectors.
// Native: build/native/tests/bench/... ; WASM: compiled by em++ as in docs/formats.md.
// Usage: bench_dense_checksum. Prints one JSON object (MB/s = 1e6 bytes per second, median of 9).
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "common/checksum.h"
#include "dense/vector_index.h"

namespace {

using Clock = std::chrono::steady_clock;

// CRC-32C, reflected polynomial 0x82F63B78, slicing-by-8 (8 tables of 256 entries).
struct Crc32cTables {
  std::uint32_t t[8][256];
  Crc32cTables() {
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1u) ? 0x82F63B78u ^ (c >> 1) : c >> 1;
      t[0][i] = c;
    }
    for (std::uint32_t i = 0; i < 256; ++i)
      for (int s = 1; s < 8; ++s) t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xFFu];
  }
};
const Crc32cTables kC;

std::uint32_t crc32c(const std::uint8_t* p, std::size_t n) {
  std::uint32_t c = 0xFFFFFFFFu;
  while (n >= 8) {
    const std::uint32_t lo = (static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
                              static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24) ^ c;
    const std::uint32_t hi = static_cast<std::uint32_t>(p[4]) | static_cast<std::uint32_t>(p[5]) << 8 |
                             static_cast<std::uint32_t>(p[6]) << 16 | static_cast<std::uint32_t>(p[7]) << 24;
    c = kC.t[7][lo & 0xFF] ^ kC.t[6][(lo >> 8) & 0xFF] ^ kC.t[5][(lo >> 16) & 0xFF] ^ kC.t[4][lo >> 24] ^
        kC.t[3][hi & 0xFF] ^ kC.t[2][(hi >> 8) & 0xFF] ^ kC.t[1][(hi >> 16) & 0xFF] ^ kC.t[0][hi >> 24];
    p += 8;
    n -= 8;
  }
  while (n--) c = kC.t[0][(c ^ *p++) & 0xFFu] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

template <class F>
double median_mb_s(std::size_t bytes, F&& f) {
  volatile std::uint64_t sink = 0;
  for (int i = 0; i < 2; ++i) sink = sink + f();
  std::vector<double> ms;
  for (int i = 0; i < 9; ++i) {
    const auto t0 = Clock::now();
    sink = sink + f();
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return static_cast<double>(bytes) / 1e3 / ms[ms.size() / 2];
}

}  // namespace

int main() {
  using namespace ragwasm::dense;
  const std::size_t n = 10000, dim = 384;
  IndexOptions o;
  o.dimension = dim;
  auto ix = VectorIndex::create(o).value();
  std::mt19937 rng(42);
  std::normal_distribution<float> g(0.0f, 1.0f);
  std::vector<float> data(n * dim);
  for (float& x : data) x = g(rng);
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < n; ++i) ids.push_back("doc-" + std::to_string(i));
  const auto added = ix.add(ids, data.data(), data.size());
  if (!added.ok()) {
    std::fprintf(stderr, "%s\n", added.error().message.c_str());
    return 1;
  }
  const std::vector<std::uint8_t> saved = ix.save();
  const std::uint8_t* p = saved.data();
  const std::size_t len = saved.size();
  if (crc32c(reinterpret_cast<const std::uint8_t*>("123456789"), 9) != 0xE3069283u) return 2;  // check value
  const double crc = median_mb_s(len, [&] { return ragwasm::crc32(p, len); });
  const double crcc = median_mb_s(len, [&] { return crc32c(p, len); });
  const double xx = median_mb_s(len, [&] { return ragwasm::xxh64(p, len); });
  std::printf("{\"bytes\": %zu, \"crc32_mb_s\": %.0f, \"crc32c_slice8_mb_s\": %.0f, \"xxh64_mb_s\": %.0f}\n", len, crc, crcc, xx);
  return 0;
}
