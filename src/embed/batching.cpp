#include "embed/batching.h"

#include <algorithm>
#include <numeric>
#include <string>

namespace ragwasm::embed {

Result<LengthBatches> plan_length_batches(const std::uint32_t* lengths, std::size_t n, std::size_t batch_size,
                                          std::size_t max_tokens) {
  if (batch_size == 0) return make_error(ErrorCode::kInvalidArgument, "batchSize: expected at least 1, got 0");
  if (n > UINT32_MAX) return make_error(ErrorCode::kLimitExceeded, "texts: at most 4294967295 texts per call, got " + std::to_string(n));
  LengthBatches plan;
  plan.order.resize(n);
  std::iota(plan.order.begin(), plan.order.end(), 0U);
  std::stable_sort(plan.order.begin(), plan.order.end(), [lengths](std::uint32_t a, std::uint32_t b) { return lengths[a] < lengths[b]; });
  plan.starts.reserve(n / batch_size + 2);
  if (max_tokens == 0) {
    for (std::size_t s = 0; s < n; s += batch_size) plan.starts.push_back(static_cast<std::uint32_t>(s));
  } else {
    std::size_t rows = 0;
    for (std::size_t k = 0; k < n; ++k) {
      // Sorted ascending: with text k the batch is padded to lengths[order[k]]; 64-bit product, no overflow.
      const std::uint64_t padded = static_cast<std::uint64_t>(rows + 1) * lengths[plan.order[k]];
      if (rows == 0 || rows == batch_size || padded > max_tokens) {
        plan.starts.push_back(static_cast<std::uint32_t>(k));
        rows = 0;
      }
      ++rows;
    }
  }
  plan.starts.push_back(static_cast<std::uint32_t>(n));
  return plan;
}

}  // namespace ragwasm::embed
