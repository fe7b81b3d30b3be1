// Documented size limits, checked before allocating so that oversized input is LIMIT_EXCEEDED,
// never an out-of-memory trap. The JS layer checks the same numbers first (web/src/core/limits.js).
#pragma once

#include <cstddef>
#include <string>

#include "common/result.h"

namespace ragwasm {

constexpr std::size_t kMaxTextBytes = std::size_t{256} << 20;  // one text argument: 256 MiB of UTF-8
constexpr std::size_t kMaxAbbreviations = 100000;              // custom sentence-splitter abbreviations
constexpr std::size_t kMaxAbbreviationBytes = 64;               // one abbreviation
// JSON nesting depth (arrays + objects) of any JSON text that enters C++: configs, options,
// tokenizer.json, judge replies, JSONL runs. Checked by a linear pre-scan before parsing
// (common/json_depth.h); deeper -> LIMIT_EXCEEDED. Real configs nest fewer than 10 levels.
constexpr std::size_t kMaxJsonDepth = 256;
// Dynamic-programming cells of one quadratic alignment: ANLS's banded edit distance, ROUGE-L's
// LCS table, evidence matching's semi-global alignment (one prediction/reference or excerpt/chunk
// pair). Checked before the table is filled; more -> LIMIT_EXCEEDED. 1e8 cells is about 0.3 s
// in WASM: two 10,000-character strings at ANLS's threshold 0.5 fit, as do 10,000 x 10,000 tokens.
constexpr double kMaxAlignmentCells = 1e8;
// One LLM judge reply parsed for scores/claims/key-values (1 MiB; a reply is kilobytes). The parsers
// are linear (at most 64 JSON candidates, each bracket-matched once); this bounds their constant.
constexpr std::size_t kMaxJudgeReplyBytes = std::size_t{1} << 20;
// k of one search, the same rule for every search entry point (BM25, vector index; in JS also
// Collection, the sharded indexes and the Postgres retriever): an integer in [1, kMaxSearchK].
// A search for 0 hits is a caller's mistake (the pipeline config's retrieval.k 0, "no retrieval", is
// decided before any search); more than 100,000 hits is more than any ranking metric or reranker reads.
constexpr std::size_t kMaxSearchK = 100000;

// INVALID_ARGUMENT "k: expected an integer in [1, 100000], got N" unless 1 <= k <= kMaxSearchK.
inline Status check_search_k(std::size_t k) {
  if (k >= 1 && k <= kMaxSearchK) return Status{};
  return make_error(ErrorCode::kInvalidArgument, "k: expected an integer in [1, " + std::to_string(kMaxSearchK) + "], got " + std::to_string(k));
}

}  // namespace ragwasm
