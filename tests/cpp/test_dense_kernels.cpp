// src/dense kernels: the batch kernels (4 rows per step in WASM) equal the single-row kernels bit
// for bit for every row count and stride, and both follow the documented summation order, so the
// flat scan (batch) and the HNSW walk (single row) score alike in native and WASM builds. Portable:
// it also runs compiled with em++ -msimd128 under node (docs/dense.md "Tests").
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "dense/kernels.h"
#include "dense/vector_index.h"

using namespace ragwasm;
using namespace ragwasm::dense;

namespace {

constexpr std::uint32_t kSeed = 20261121;
// Padded strides (multiples of 16 values): one block, a few, the 100-d and 384-d shapes of the bench.
constexpr std::size_t kStrides[] = {16, 32, 48, 112, 384};

std::vector<float> gaussian(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> g(0.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = g(rng);
  return v;
}

// int8 values over the whole range [-128, 127], with the extremes forced at both ends of each row.
std::vector<std::int8_t> int8s(std::size_t n, std::size_t stride, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> u(-128, 127);
  std::vector<std::int8_t> v(n);
  for (auto& x : v) x = static_cast<std::int8_t>(u(rng));
  for (std::size_t r = 0; (r + 1) * stride <= n; ++r) {
    v[r * stride] = -128;
    v[r * stride + stride - 1] = (r % 2 != 0) ? 127 : -128;
  }
  return v;
}

std::vector<std::uint8_t> bytes(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> u(0, 255);
  std::vector<std::uint8_t> v(n);
  for (auto& x : v) x = static_cast<std::uint8_t>(u(rng));
  return v;
}

bool same_bits(float a, float b) {
  std::uint32_t x, y;
  std::memcpy(&x, &a, 4);
  std::memcpy(&y, &b, 4);
  return x == y;
}

// The documented order (kernels.h): 16 running lane sums, then (p[l]+p[4+l]) + (p[8+l]+p[12+l]),
// then (s0+s1) + (s2+s3). Written out here so a WASM build is checked against the same formula.
float documented_dot(const float* a, const float* b, std::size_t stride, bool l2) {
  float p[16] = {};
  for (std::size_t i = 0; i < stride; i += 16) {
    for (int j = 0; j < 16; ++j) {
      const float d = a[i + j] - b[i + j];
      p[j] = p[j] + (l2 ? d * d : a[i + j] * b[i + j]);
    }
  }
  float s[4];
  for (int l = 0; l < 4; ++l) s[l] = (p[l] + p[4 + l]) + (p[8 + l] + p[12 + l]);
  return (s[0] + s[1]) + (s[2] + s[3]);
}

}  // namespace

TEST_CASE("f32 dot and l2 batch kernels equal the single-row kernels bit for bit", "[unit]") {
  for (std::size_t stride : kStrides) {
    for (std::size_t n = 0; n <= 9; ++n) {
      // One spare value in front: rows that do not start on a 16-byte boundary are scored too.
      const auto q = gaussian(stride, kSeed + static_cast<std::uint32_t>(stride));
      const auto base = gaussian(1 + n * stride, kSeed + 1 + static_cast<std::uint32_t>(n));
      for (std::size_t offset : {std::size_t{0}, std::size_t{1}}) {
        const float* rows = base.data() + offset;
        if (offset + n * stride > base.size()) continue;
        std::vector<float> dot(n + 1, -7.0f), l2(n + 1, -7.0f);
        dot_f32_batch(q.data(), rows, stride, n, dot.data());
        l2sq_f32_batch(q.data(), rows, stride, n, l2.data());
        for (std::size_t r = 0; r < n; ++r) {
          INFO("stride " << stride << " rows " << n << " row " << r << " offset " << offset << " seed " << kSeed);
          const float* x = rows + r * stride;
          REQUIRE(same_bits(dot[r], dot_f32(q.data(), x, stride)));
          REQUIRE(same_bits(dot[r], documented_dot(q.data(), x, stride, false)));
          REQUIRE(same_bits(l2[r], l2sq_f32(q.data(), x, stride)));
          REQUIRE(same_bits(l2[r], documented_dot(q.data(), x, stride, true)));
        }
        REQUIRE(dot[n] == -7.0f);  // nothing written past n
        REQUIRE(l2[n] == -7.0f);
      }
    }
  }
}

TEST_CASE("the int8 batch kernel equals the single-row kernel and the exact integer sum", "[unit]") {
  for (std::size_t stride : kStrides) {
    for (std::size_t n = 0; n <= 9; ++n) {
      const auto q = int8s(stride, stride, kSeed + static_cast<std::uint32_t>(stride));
      const auto base = int8s(n * stride + 1, stride, kSeed + 2 + static_cast<std::uint32_t>(n));
      for (std::size_t offset : {std::size_t{0}, std::size_t{1}}) {
        const std::int8_t* rows = base.data() + offset;
        if (offset + n * stride > base.size()) continue;
        std::vector<std::int32_t> out(n + 1, -7);
        dot_i8_batch(q.data(), rows, stride, n, out.data());
        for (std::size_t r = 0; r < n; ++r) {
          INFO("stride " << stride << " rows " << n << " row " << r << " offset " << offset << " seed " << kSeed);
          std::int32_t exact = 0;
          for (std::size_t i = 0; i < stride; ++i) exact += std::int32_t{q[i]} * rows[r * stride + i];
          REQUIRE(out[r] == dot_i8(q.data(), rows + r * stride, stride));
          REQUIRE(out[r] == exact);
        }
        REQUIRE(out[n] == -7);
      }
    }
  }
}

TEST_CASE("int8 kernels are exact at the extremes of the value range", "[unit]") {
  // -128 * -128 everywhere is the largest product sum a row of 8192 values can reach.
  const std::size_t stride = 8192;
  std::vector<std::int8_t> q(stride, -128);
  std::vector<std::int8_t> rows(5 * stride, -128);
  for (std::size_t i = 0; i < stride; ++i) rows[stride + i] = 127;  // row 1: -128 * 127
  std::vector<std::int32_t> out(5);
  dot_i8_batch(q.data(), rows.data(), stride, 5, out.data());
  REQUIRE(out[0] == 8192 * 16384);
  REQUIRE(out[1] == 8192 * -16256);
  REQUIRE(out[4] == 8192 * 16384);  // the tail row, single-row kernel
  REQUIRE(dot_i8(q.data(), rows.data() + stride, stride) == 8192 * -16256);
}

TEST_CASE("the Hamming batch kernel equals the single-row kernel and a bit count", "[unit]") {
  // Bytes per row: one block, the 100-d and 384-d shapes, the largest dimension (8192 bits), and a
  // row longer than the 4-row path handles (it falls back to the single-row kernel).
  for (std::size_t row_bytes : {std::size_t{16}, std::size_t{48}, std::size_t{1024}, std::size_t{65552}}) {
    for (std::size_t n = 0; n <= 9; ++n) {
      if (row_bytes > 1024 && n > 5) continue;
      const auto q = bytes(row_bytes, kSeed + static_cast<std::uint32_t>(row_bytes));
      auto base = bytes(n * row_bytes, kSeed + 3 + static_cast<std::uint32_t>(n));
      if (n > 0) std::memcpy(base.data(), q.data(), row_bytes);  // row 0 equals the query: 0 bits
      if (n > 1) {
        for (std::size_t i = 0; i < row_bytes; ++i) base[row_bytes + i] = static_cast<std::uint8_t>(~q[i]);  // all bits
      }
      std::vector<std::uint32_t> out(n + 1, 7u);
      hamming_batch(q.data(), base.data(), row_bytes, n, out.data());
      for (std::size_t r = 0; r < n; ++r) {
        INFO("bytes " << row_bytes << " rows " << n << " row " << r << " seed " << kSeed);
        std::uint32_t bits = 0;
        for (std::size_t i = 0; i < row_bytes; ++i) {
          for (unsigned x = q[i] ^ base[r * row_bytes + i]; x != 0; x &= x - 1) ++bits;
        }
        REQUIRE(out[r] == hamming(q.data(), base.data() + r * row_bytes, row_bytes));
        REQUIRE(out[r] == bits);
      }
      if (n > 0) REQUIRE(out[0] == 0u);
      if (n > 1) REQUIRE(out[1] == row_bytes * 8);
      REQUIRE(out[n] == 7u);
    }
  }
}

TEST_CASE("the read pass folds every 32-bit word of its bytes with XOR", "[unit]") {
  for (std::size_t n : {std::size_t{0}, std::size_t{16}, std::size_t{48}, std::size_t{64}, std::size_t{1040}}) {
    const auto b = bytes(n, kSeed + static_cast<std::uint32_t>(n));
    std::uint32_t expected = 0;
    for (std::size_t i = 0; i < n; i += 4) {
      std::uint32_t w;
      std::memcpy(&w, b.data() + i, 4);
      expected ^= w;
    }
    INFO("bytes " << n);
    REQUIRE(read_pass(b.data(), n) == expected);
  }
}

TEST_CASE("reference passes read every stored byte and score like the scan", "[unit]") {
  const std::uint32_t dim = 100;  // padded to 112 values, 16 sign-bit bytes
  const std::size_t n = 1001;     // not a multiple of 4 or of the scan block
  const auto data = gaussian(n * dim, kSeed + 9);
  const auto query = gaussian(dim, kSeed + 10);
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < n; ++i) ids.push_back("d" + std::to_string(i));
  for (Storage st : {Storage::kF32, Storage::kInt8, Storage::kBinary}) {
    for (Metric m : {Metric::kDot, Metric::kL2}) {
      IndexOptions o;
      o.dimension = dim;
      o.metric = m;
      o.storage = st;
      auto ix = VectorIndex::create(o).value();
      REQUIRE(ix.add(ids, data.data(), data.size()).ok());
      const auto kernel = ix.reference_pass(query.data(), dim, ReferencePass::kKernel);
      const auto batch = ix.reference_pass(query.data(), dim, ReferencePass::kBatch);
      const auto read = ix.reference_pass(query.data(), dim, ReferencePass::kRead);
      REQUIRE(kernel.ok());
      REQUIRE(batch.ok());
      REQUIRE(read.ok());
      INFO("storage " << storage_name(st) << " metric " << metric_name(m));
      const std::uint64_t row = st == Storage::kF32 ? 112 * 4 : st == Storage::kInt8 ? 112 : 16;
      REQUIRE(read.value().bytes == n * row);
      REQUIRE(kernel.value().bytes == n * row);
      // Same per-row values, summed in the same order: the checksums agree exactly.
      REQUIRE(kernel.value().checksum == batch.value().checksum);
      REQUIRE(ix.reference_pass(query.data(), dim - 1, ReferencePass::kRead).error().code ==
              ErrorCode::kDimensionMismatch);
    }
  }
}
