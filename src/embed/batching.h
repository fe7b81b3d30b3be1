// Length-bucketed batching for transformer embedders: texts sorted by token length and cut into
// batches of similar lengths, so a batch padded to its longest row carries little padding. The caller
// runs the batches in `order` and writes each result back to its input position.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/result.h"

namespace ragwasm::embed {

struct LengthBatches {
  // A permutation of 0..n-1: input positions by token length ascending, ties by position ascending.
  std::vector<std::uint32_t> order;
  // Batch b holds order[starts[b] .. starts[b+1]); starts.front() == 0, starts.back() == n.
  std::vector<std::uint32_t> starts;
};

// Plans batches over the sorted order, cut greedily: a batch takes the next text while it holds fewer than
// batch_size texts and, when max_tokens > 0, its padded size (texts x the longest one's length, which is
// the next text's length since the order is ascending) stays <= max_tokens. A text alone over max_tokens
// gets a batch of its own. max_tokens == 0: batches of exactly batch_size texts except the last.
// Errors: INVALID_ARGUMENT when batch_size == 0; LIMIT_EXCEEDED when n does not fit 32 bits.
Result<LengthBatches> plan_length_batches(const std::uint32_t* lengths, std::size_t n, std::size_t batch_size,
                                          std::size_t max_tokens = 0);

}  // namespace ragwasm::embed
