// Distance kernels of the vector index: the only file with WASM SIMD128 intrinsics (inline, so the
// HNSW walk and the scans inline them). Each kernel has a
// scalar twin (native builds) that adds in the same lane order, so native and WASM scores are equal.
// Every length is a padded stride: a multiple of 16 elements (f32, i8) or 16 bytes (bits).
#pragma once

#include <cstddef>
#include <cstdint>

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

namespace ragwasm::dense {

// Elements per padded block: vectors are stored zero-padded to a multiple of this.
constexpr std::size_t kLanes = 16;

namespace detail {

#ifdef __wasm_simd128__

inline float reduce_acc(v128_t a0, v128_t a1, v128_t a2, v128_t a3) {
  const v128_t s = wasm_f32x4_add(wasm_f32x4_add(a0, a1), wasm_f32x4_add(a2, a3));
  return (wasm_f32x4_extract_lane(s, 0) + wasm_f32x4_extract_lane(s, 1)) +
         (wasm_f32x4_extract_lane(s, 2) + wasm_f32x4_extract_lane(s, 3));
}

inline float dot_f32_impl(const float* a, const float* b, std::size_t stride) {
  v128_t a0 = wasm_f32x4_splat(0.0f), a1 = a0, a2 = a0, a3 = a0;
  for (std::size_t i = 0; i < stride; i += 16) {
    a0 = wasm_f32x4_add(a0, wasm_f32x4_mul(wasm_v128_load(a + i), wasm_v128_load(b + i)));
    a1 = wasm_f32x4_add(a1, wasm_f32x4_mul(wasm_v128_load(a + i + 4), wasm_v128_load(b + i + 4)));
    a2 = wasm_f32x4_add(a2, wasm_f32x4_mul(wasm_v128_load(a + i + 8), wasm_v128_load(b + i + 8)));
    a3 = wasm_f32x4_add(a3, wasm_f32x4_mul(wasm_v128_load(a + i + 12), wasm_v128_load(b + i + 12)));
  }
  return reduce_acc(a0, a1, a2, a3);
}

inline float l2sq_f32_impl(const float* a, const float* b, std::size_t stride) {
  v128_t a0 = wasm_f32x4_splat(0.0f), a1 = a0, a2 = a0, a3 = a0;
  for (std::size_t i = 0; i < stride; i += 16) {
    const v128_t d0 = wasm_f32x4_sub(wasm_v128_load(a + i), wasm_v128_load(b + i));
    const v128_t d1 = wasm_f32x4_sub(wasm_v128_load(a + i + 4), wasm_v128_load(b + i + 4));
    const v128_t d2 = wasm_f32x4_sub(wasm_v128_load(a + i + 8), wasm_v128_load(b + i + 8));
    const v128_t d3 = wasm_f32x4_sub(wasm_v128_load(a + i + 12), wasm_v128_load(b + i + 12));
    a0 = wasm_f32x4_add(a0, wasm_f32x4_mul(d0, d0));
    a1 = wasm_f32x4_add(a1, wasm_f32x4_mul(d1, d1));
    a2 = wasm_f32x4_add(a2, wasm_f32x4_mul(d2, d2));
    a3 = wasm_f32x4_add(a3, wasm_f32x4_mul(d3, d3));
  }
  return reduce_acc(a0, a1, a2, a3);
}

inline std::int32_t sum_i32x4(v128_t s) {
  return wasm_i32x4_extract_lane(s, 0) + wasm_i32x4_extract_lane(s, 1) + wasm_i32x4_extract_lane(s, 2) +
         wasm_i32x4_extract_lane(s, 3);
}

inline std::int32_t dot_i8_impl(const std::int8_t* a, const std::int8_t* b, std::size_t stride) {
  // Each 8-byte half is loaded sign-extended to int16 (v128.load8x8_s, one instruction), then
  // i32x4.dot_i16x8 adds adjacent products into int32 lanes: |a*b| <= 16384, so nothing overflows.
  // Integer sums are exact, so the lane order cannot change the result (1.1-1.3x faster than
  // extmul + extadd_pairwise in a microbench, docs/dense.md).
  v128_t acc0 = wasm_i32x4_splat(0), acc1 = acc0;
  for (std::size_t i = 0; i < stride; i += 16) {
    acc0 = wasm_i32x4_add(acc0, wasm_i32x4_dot_i16x8(wasm_i16x8_load8x8(a + i), wasm_i16x8_load8x8(b + i)));
    acc1 = wasm_i32x4_add(acc1, wasm_i32x4_dot_i16x8(wasm_i16x8_load8x8(a + i + 8), wasm_i16x8_load8x8(b + i + 8)));
  }
  return sum_i32x4(wasm_i32x4_add(acc0, acc1));
}

inline std::uint32_t hamming_impl(const std::uint8_t* a, const std::uint8_t* b, std::size_t bytes) {
  v128_t acc = wasm_i32x4_splat(0);
  for (std::size_t i = 0; i < bytes; i += 16) {
    const v128_t c = wasm_i8x16_popcnt(wasm_v128_xor(wasm_v128_load(a + i), wasm_v128_load(b + i)));
    acc = wasm_i32x4_add(acc, wasm_u32x4_extadd_pairwise_u16x8(wasm_u16x8_extadd_pairwise_u8x16(c)));
  }
  return wasm_u32x4_extract_lane(acc, 0) + wasm_u32x4_extract_lane(acc, 1) + wasm_u32x4_extract_lane(acc, 2) +
         wasm_u32x4_extract_lane(acc, 3);
}

#else  // scalar twins: p[j] holds the running sum of lane j = i mod 16, as the SIMD accumulators do.

// Final reduction shared by both twins: s[l] = (p[l] + p[4+l]) + (p[8+l] + p[12+l]);
// result (s0 + s1) + (s2 + s3).
inline float reduce16(const float* p) {
  float s[4];
  for (int l = 0; l < 4; ++l) s[l] = (p[l] + p[4 + l]) + (p[8 + l] + p[12 + l]);
  return (s[0] + s[1]) + (s[2] + s[3]);
}


inline float dot_f32_impl(const float* a, const float* b, std::size_t stride) {
  float p[16] = {};
  for (std::size_t i = 0; i < stride; i += 16) {
    for (int j = 0; j < 16; ++j) p[j] = p[j] + a[i + j] * b[i + j];
  }
  return reduce16(p);
}

inline float l2sq_f32_impl(const float* a, const float* b, std::size_t stride) {
  float p[16] = {};
  for (std::size_t i = 0; i < stride; i += 16) {
    for (int j = 0; j < 16; ++j) {
      const float d = a[i + j] - b[i + j];
      p[j] = p[j] + d * d;
    }
  }
  return reduce16(p);
}

inline std::int32_t dot_i8_impl(const std::int8_t* a, const std::int8_t* b, std::size_t stride) {
  std::int32_t s = 0;
  for (std::size_t i = 0; i < stride; ++i) s += std::int32_t{a[i]} * std::int32_t{b[i]};
  return s;
}

inline std::uint32_t popcount64(std::uint64_t x) {  // SWAR: portable, no -mpopcnt needed
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return static_cast<std::uint32_t>((x * 0x0101010101010101ull) >> 56);
}

inline std::uint32_t hamming_impl(const std::uint8_t* a, const std::uint8_t* b, std::size_t bytes) {
  std::uint32_t s = 0;
  for (std::size_t i = 0; i < bytes; i += 8) {
    std::uint64_t x, y;
    __builtin_memcpy(&x, a + i, 8);
    __builtin_memcpy(&y, b + i, 8);
    s += popcount64(x ^ y);
  }
  return s;
}

#endif

}  // namespace detail

// Sum over i of a[i]*b[i], f32. Order: 16 partial sums p[j] (j = i mod 16, each a running
// p[j] = p[j] + a[i]*b[i]), then s[l] = (p[l] + p[4+l]) + (p[8+l] + p[12+l]) for l = 0..3,
// result (s[0] + s[1]) + (s[2] + s[3]). `stride` is a multiple of 16.
inline float dot_f32(const float* a, const float* b, std::size_t stride) { return detail::dot_f32_impl(a, b, stride); }

// Sum over i of (a[i]-b[i])^2 in the same order as dot_f32.
inline float l2sq_f32(const float* a, const float* b, std::size_t stride) { return detail::l2sq_f32_impl(a, b, stride); }

// Exact integer dot product of int8 vectors with values in [-128, 127] (stride multiple of 16,
// stride <= 65536 so the int32 sum cannot overflow).
inline std::int32_t dot_i8(const std::int8_t* a, const std::int8_t* b, std::size_t stride) {
  return detail::dot_i8_impl(a, b, stride);
}

// Number of differing bits (popcount of a XOR b) over `bytes` bytes (a multiple of 16).
inline std::uint32_t hamming(const std::uint8_t* a, const std::uint8_t* b, std::size_t bytes) {
  return detail::hamming_impl(a, b, bytes);
}

// Batch forms: out[r] = kernel(q, base + r*stride) for r in [0, n). Row-major `base`. Every out[r]
// is bit for bit the single-row kernel's value (tests/cpp/test_dense_kernels.cpp). In WASM, int8 and
// Hamming take 4 rows per step (the query block is loaded once for 4 rows, and the 4 horizontal sums
// share one transpose); f32 keeps one row per step: blocking f32 rows measured slower here (the
// 4 x 4 accumulators spill V8's 16 registers and the f32 scan is memory-bound), docs/dense.md.
void dot_f32_batch(const float* q, const float* base, std::size_t stride, std::size_t n, float* out);
void l2sq_f32_batch(const float* q, const float* base, std::size_t stride, std::size_t n, float* out);
void dot_i8_batch(const std::int8_t* q, const std::int8_t* base, std::size_t stride, std::size_t n,
                  std::int32_t* out);
void hamming_batch(const std::uint8_t* q, const std::uint8_t* base, std::size_t bytes, std::size_t n,
                   std::uint32_t* out);

// XOR of every 16-byte block of `p` folded to 32 bits (= the XOR of all its 32-bit words): a read-only pass over `bytes` bytes
// (a multiple of 16) with no arithmetic to speak of, the memory-read ceiling the scan is measured
// against (tests/bench/suites/dense.mjs). Returns a value so the pass cannot be optimized away.
std::uint32_t read_pass(const std::uint8_t* p, std::size_t bytes);

// True when this build uses the SIMD128 kernels (WASM with -msimd128).
bool simd_enabled();

}  // namespace ragwasm::dense
