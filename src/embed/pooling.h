// Pooling of token embeddings into one vector per row: masked mean or the first ([CLS]) token,
// optionally L2-normalized. Used by the ONNX embedder after the model's last_hidden_state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace ragwasm::embed {

enum class Pooling { kMean, kCls, kNone };

// "mean", "cls" or "none" (the model already outputs [rows, dim]). INVALID_ARGUMENT otherwise.
Result<Pooling> parse_pooling(std::string_view name);

// hidden: rows x tokens x dim floats (row-major); mask: rows x tokens (1 = real token). Mean pooling:
// sum_t mask[t] * h[t] / sum_t mask[t] (a row without tokens pools to zeros); cls: h[0].
// normalize: x / ||x||_2 (a zero vector stays zero). For kNone tokens must be 1.
// Errors: INVALID_ARGUMENT when the sizes disagree or dim == 0; INVALID_ARGUMENT for NaN/Inf output.
Result<std::vector<float>> pool(const float* hidden, std::size_t hidden_size, const std::int32_t* mask, std::size_t mask_size,
                                std::size_t rows, std::size_t tokens, std::size_t dim, Pooling pooling, bool normalize);

// L2-normalizes each of the rows (dim floats each) in place; zero rows stay zero.
void normalize_rows(float* data, std::size_t rows, std::size_t dim);

}  // namespace ragwasm::embed
