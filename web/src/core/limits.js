// @ts-check
// Documented size limits, mirrored from src/common/limits.h and checked in JS before any call.

/** Largest text argument, in UTF-8 bytes (256 MiB). */
export const MAX_TEXT_BYTES = 256 * 1024 * 1024;
/** Most custom abbreviations a SentenceSplitter accepts. */
export const MAX_ABBREVIATIONS = 100000;
/** Longest single abbreviation, in UTF-8 bytes. */
export const MAX_ABBREVIATION_BYTES = 64;
/**
 * Deepest JSON nesting (arrays + objects) accepted wherever JSON enters the core: pipeline configs,
 * tokenizer.json, chunker/index options, JSONL runs, judge replies. The core refuses deeper text with
 * LIMIT_EXCEEDED after a linear pre-scan, before parsing (src/common/json_depth.h).
 */
export const MAX_JSON_DEPTH = 256;
/**
 * Most dynamic-programming cells of one quadratic alignment: metrics.anls (banded edit distance,
 * after the exact length shortcut and common prefix/suffix), metrics.rougeL (LCS of word tokens) and
 * evidence matching. Decided in the core after normalization and tokenization, before the table is
 * filled; more is LIMIT_EXCEEDED. About two 10,000-character strings at ANLS's threshold 0.5.
 */
export const MAX_ALIGNMENT_CELLS = 1e8;
/**
 * Largest k of one search, the rule of every search entry point (Bm25Index, VectorIndex, Collection,
 * the sharded indexes, the Postgres retriever): options.k is an integer in [1, MAX_SEARCH_K], else
 * INVALID_ARGUMENT "options.k: expected an integer in [1, 100000], got …" (expectSearchK). The core
 * checks the same (kMaxSearchK, check_search_k in src/common/limits.h).
 */
export const MAX_SEARCH_K = 100000;
/** Largest LLM judge reply parsed (parseJudgeScore, parseClaimScores, parseKeyValues), in UTF-8 bytes (1 MiB). */
export const MAX_JUDGE_REPLY_BYTES = 1024 * 1024;
