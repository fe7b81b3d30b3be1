// Masked mean / CLS pooling and L2 normalization (see pooling.h). Sums run in double, in token order,
// so native and WASM builds agree bit for bit.
#include "embed/pooling.h"

#include <cmath>
#include <string>

namespace ragwasm::embed {

Result<Pooling> parse_pooling(std::string_view name) {
  if (name == "mean") return Pooling::kMean;
  if (name == "cls") return Pooling::kCls;
  if (name == "none") return Pooling::kNone;
  return make_error(ErrorCode::kInvalidArgument, "pooling: expected 'mean', 'cls' or 'none', got '" + std::string(name) + "'");
}

void normalize_rows(float* data, std::size_t rows, std::size_t dim) {
  for (std::size_t r = 0; r < rows; ++r) {
    float* v = data + r * dim;
    double ss = 0;
    for (std::size_t d = 0; d < dim; ++d) ss += static_cast<double>(v[d]) * v[d];
    if (ss <= 0) continue;
    const double inv = 1.0 / std::sqrt(ss);
    for (std::size_t d = 0; d < dim; ++d) v[d] = static_cast<float>(v[d] * inv);
  }
}

Result<std::vector<float>> pool(const float* hidden, std::size_t hidden_size, const std::int32_t* mask, std::size_t mask_size,
                                std::size_t rows, std::size_t tokens, std::size_t dim, Pooling pooling, bool normalize) {
  if (dim == 0 || rows == 0) return make_error(ErrorCode::kInvalidArgument, "model output: expected a non-empty [rows, tokens, dim] tensor");
  const std::size_t t = pooling == Pooling::kNone ? 1 : tokens;
  // Checked products: rows * t * dim can wrap size_t (32 bits in WASM) to the size of a too-small
  // tensor, and the loops below would then read past it.
  std::size_t want = 0, mask_want = 0;
  if (t == 0 || __builtin_mul_overflow(rows, t, &want) || __builtin_mul_overflow(want, dim, &want) || hidden_size != want) {
    return make_error(ErrorCode::kInvalidArgument, "model output: expected " + std::to_string(rows) + " x " + std::to_string(t) + " x " +
                                                       std::to_string(dim) + " floats, got " + std::to_string(hidden_size));
  }
  if (pooling == Pooling::kMean && (__builtin_mul_overflow(rows, tokens, &mask_want) || mask_size != mask_want)) {
    return make_error(ErrorCode::kInvalidArgument, "attention_mask: expected " + std::to_string(rows * tokens) + " values, got " + std::to_string(mask_size));
  }
  std::vector<float> out(rows * dim);
  std::vector<double> acc(dim);
  for (std::size_t r = 0; r < rows; ++r) {
    const float* h = hidden + r * t * dim;
    float* o = out.data() + r * dim;
    if (pooling == Pooling::kMean) {
      std::fill(acc.begin(), acc.end(), 0.0);
      std::size_t count = 0;
      for (std::size_t k = 0; k < tokens; ++k) {
        if (mask[r * tokens + k] == 0) continue;
        ++count;
        for (std::size_t d = 0; d < dim; ++d) acc[d] += h[k * dim + d];
      }
      for (std::size_t d = 0; d < dim; ++d) o[d] = count ? static_cast<float>(acc[d] / static_cast<double>(count)) : 0.0f;
    } else {
      for (std::size_t d = 0; d < dim; ++d) o[d] = h[d];
    }
  }
  for (float x : out) {
    if (!std::isfinite(x)) return make_error(ErrorCode::kInvalidArgument, "model output: contains NaN or Inf");
  }
  if (normalize) normalize_rows(out.data(), rows, dim);
  return out;
}

}  // namespace ragwasm::embed
