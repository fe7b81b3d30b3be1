// Batch forms of the distance kernels (the single-row kernels are inline in kernels.h) and the
// read-only reference pass of the bench.
#include "dense/kernels.h"

#include <cstring>

namespace ragwasm::dense {

#ifdef __wasm_simd128__
namespace {

// Horizontal sums of four i32x4 vectors at once: lane r of the result is s_r[0]+s_r[1]+s_r[2]+s_r[3]
// (integer adds, exact in any order). One 4 x 4 transpose instead of 12 lane extracts.
inline v128_t sum4_i32x4(v128_t s0, v128_t s1, v128_t s2, v128_t s3) {
  const v128_t t0 = wasm_i32x4_shuffle(s0, s1, 0, 4, 1, 5);
  const v128_t t1 = wasm_i32x4_shuffle(s2, s3, 0, 4, 1, 5);
  const v128_t t2 = wasm_i32x4_shuffle(s0, s1, 2, 6, 3, 7);
  const v128_t t3 = wasm_i32x4_shuffle(s2, s3, 2, 6, 3, 7);
  const v128_t a = wasm_i32x4_shuffle(t0, t1, 0, 1, 4, 5);
  const v128_t b = wasm_i32x4_shuffle(t0, t1, 2, 3, 6, 7);
  const v128_t c = wasm_i32x4_shuffle(t2, t3, 0, 1, 4, 5);
  const v128_t d = wasm_i32x4_shuffle(t2, t3, 2, 3, 6, 7);
  return wasm_i32x4_add(wasm_i32x4_add(a, b), wasm_i32x4_add(c, d));
}

// acc += dot of 16 int8 values (query halves ql/qh already widened to int16) with the row at p.
inline v128_t dot16_i8(v128_t acc, v128_t ql, v128_t qh, const std::int8_t* p) {
  return wasm_i32x4_add(acc, wasm_i32x4_add(wasm_i32x4_dot_i16x8(ql, wasm_i16x8_load8x8(p)),
                                            wasm_i32x4_dot_i16x8(qh, wasm_i16x8_load8x8(p + 8))));
}

// acc (u16 lanes) += popcount of (q XOR row) over 16 bytes, pairwise per u16 lane (<= 16 per step).
inline v128_t ham16(v128_t acc, v128_t q, const std::uint8_t* p) {
  return wasm_i16x8_add(acc, wasm_u16x8_extadd_pairwise_u8x16(wasm_i8x16_popcnt(wasm_v128_xor(q, wasm_v128_load(p)))));
}

}  // namespace
#endif

void dot_f32_batch(const float* q, const float* base, std::size_t stride, std::size_t n, float* out) {
  for (std::size_t r = 0; r < n; ++r) out[r] = detail::dot_f32_impl(q, base + r * stride, stride);
}

void l2sq_f32_batch(const float* q, const float* base, std::size_t stride, std::size_t n, float* out) {
  for (std::size_t r = 0; r < n; ++r) out[r] = detail::l2sq_f32_impl(q, base + r * stride, stride);
}

// The 4-row kernel reads four rows in step, 16 bytes of each in turn. For rows of up to 192 bytes it is
// the faster one (dim 100: 18.4 vs 13.0 GB/s, 160: 20.3 vs 14.7); from 256 bytes on it fell to 4.7-11.6
// GB/s while one row at a time kept 16-17 (dim 384: 9.2 -> 16.4, 768: 5.0 -> 17.4; 100k rows, V8 11.3,
// this 2-core VM, docs/dense.md), so longer rows are scored one at a time (the same integer sums).
constexpr std::size_t kI8BatchMaxStride = 192;

void dot_i8_batch(const std::int8_t* q, const std::int8_t* base, std::size_t stride, std::size_t n,
                  std::int32_t* out) {
  std::size_t r = 0;
#ifdef __wasm_simd128__
  for (; stride <= kI8BatchMaxStride && r + 4 <= n; r += 4) {
    const std::int8_t* x0 = base + r * stride;
    const std::int8_t* x1 = x0 + stride;
    const std::int8_t* x2 = x1 + stride;
    const std::int8_t* x3 = x2 + stride;
    v128_t c0 = wasm_i32x4_splat(0), c1 = c0, c2 = c0, c3 = c0;
    for (std::size_t i = 0; i < stride; i += 16) {
      const v128_t ql = wasm_i16x8_load8x8(q + i);
      const v128_t qh = wasm_i16x8_load8x8(q + i + 8);
      c0 = dot16_i8(c0, ql, qh, x0 + i);
      c1 = dot16_i8(c1, ql, qh, x1 + i);
      c2 = dot16_i8(c2, ql, qh, x2 + i);
      c3 = dot16_i8(c3, ql, qh, x3 + i);
    }
    wasm_v128_store(out + r, sum4_i32x4(c0, c1, c2, c3));
  }
#endif
  for (; r < n; ++r) out[r] = detail::dot_i8_impl(q, base + r * stride, stride);
}

void hamming_batch(const std::uint8_t* q, const std::uint8_t* base, std::size_t bytes, std::size_t n,
                   std::uint32_t* out) {
  std::size_t r = 0;
#ifdef __wasm_simd128__
  // u16 lanes gain at most 16 per 16-byte step, so a lane never exceeds `bytes`: exact, and a valid
  // signed int16 for the dot below, while bytes <= 32767 (a row of the largest dimension, 8192
  // bits, is 1024 bytes); longer rows take the single-row kernel.
  if (bytes <= 32767) {
    for (; r + 4 <= n; r += 4) {
      const std::uint8_t* x0 = base + r * bytes;
      const std::uint8_t* x1 = x0 + bytes;
      const std::uint8_t* x2 = x1 + bytes;
      const std::uint8_t* x3 = x2 + bytes;
      v128_t c0 = wasm_i16x8_splat(0), c1 = c0, c2 = c0, c3 = c0;
      for (std::size_t i = 0; i < bytes; i += 16) {
        const v128_t qv = wasm_v128_load(q + i);
        c0 = ham16(c0, qv, x0 + i);
        c1 = ham16(c1, qv, x1 + i);
        c2 = ham16(c2, qv, x2 + i);
        c3 = ham16(c3, qv, x3 + i);
      }
      // u16 -> u32 pairs by a dot product with ones: one pmaddwd on x64 instead of the
      // several instructions of u32x4.extadd_pairwise_u16x8.
      const v128_t ones = wasm_i16x8_splat(1);
      wasm_v128_store(out + r, sum4_i32x4(wasm_i32x4_dot_i16x8(c0, ones), wasm_i32x4_dot_i16x8(c1, ones),
                                          wasm_i32x4_dot_i16x8(c2, ones), wasm_i32x4_dot_i16x8(c3, ones)));
    }
  }
#endif
  for (; r < n; ++r) out[r] = detail::hamming_impl(q, base + r * bytes, bytes);
}

std::uint32_t read_pass(const std::uint8_t* p, std::size_t bytes) {
  std::size_t i = 0;
#ifdef __wasm_simd128__
  v128_t a = wasm_i32x4_splat(0), b = a, c = a, d = a;
  for (; i + 64 <= bytes; i += 64) {
    a = wasm_v128_xor(a, wasm_v128_load(p + i));
    b = wasm_v128_xor(b, wasm_v128_load(p + i + 16));
    c = wasm_v128_xor(c, wasm_v128_load(p + i + 32));
    d = wasm_v128_xor(d, wasm_v128_load(p + i + 48));
  }
  for (; i + 16 <= bytes; i += 16) a = wasm_v128_xor(a, wasm_v128_load(p + i));
  const v128_t s = wasm_v128_xor(wasm_v128_xor(a, b), wasm_v128_xor(c, d));
  return wasm_u32x4_extract_lane(s, 0) ^ wasm_u32x4_extract_lane(s, 1) ^ wasm_u32x4_extract_lane(s, 2) ^
         wasm_u32x4_extract_lane(s, 3);
#else
  std::uint64_t a = 0, b = 0, c = 0, d = 0;
  for (; i + 32 <= bytes; i += 32) {
    std::uint64_t w[4];
    std::memcpy(w, p + i, 32);
    a ^= w[0];
    b ^= w[1];
    c ^= w[2];
    d ^= w[3];
  }
  for (; i + 8 <= bytes; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);
    a ^= w;
  }
  const std::uint64_t s = (a ^ b) ^ (c ^ d);
  return static_cast<std::uint32_t>(s) ^ static_cast<std::uint32_t>(s >> 32);
#endif
}

bool simd_enabled() {
#ifdef __wasm_simd128__
  return true;
#else
  return false;
#endif
}

}  // namespace ragwasm::dense
