// Batch forms of the distance kernels (the kernels themselves are inline in kernels.h).
#include "dense/kernels.h"

namespace ragwasm::dense {

void dot_f32_batch(const float* q, const float* base, std::size_t stride, std::size_t n, float* out) {
  for (std::size_t r = 0; r < n; ++r) out[r] = detail::dot_f32_impl(q, base + r * stride, stride);
}
void l2sq_f32_batch(const float* q, const float* base, std::size_t stride, std::size_t n, float* out) {
  for (std::size_t r = 0; r < n; ++r) out[r] = detail::l2sq_f32_impl(q, base + r * stride, stride);
}
void dot_i8_batch(const std::int8_t* q, const std::int8_t* base, std::size_t stride, std::size_t n,
                  std::int32_t* out) {
  for (std::size_t r = 0; r < n; ++r) out[r] = detail::dot_i8_impl(q, base + r * stride, stride);
}
void hamming_batch(const std::uint8_t* q, const std::uint8_t* base, std::size_t bytes, std::size_t n,
                   std::uint32_t* out) {
  for (std::size_t r = 0; r < n; ++r) out[r] = detail::hamming_impl(q, base + r * bytes, bytes);
}

bool simd_enabled() {
#ifdef __wasm_simd128__
  return true;
#else
  return false;
#endif
}

}  // namespace ragwasm::dense
