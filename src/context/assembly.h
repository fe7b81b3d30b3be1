// Context assembly for generation: picks retrieved chunks under a token budget, orders them (by score,
// or best-at-both-ends against "lost in the middle"), prints each document's context once, numbers the
// sources [1..n] for citations and returns the context block with its source list. The LLM module
// renders prompt messages from AssembledContext (the documented hand-over struct).
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace ragwasm::context {

struct ContextChunk {
  std::string chunk_id;  // unique; a repeated id keeps its first (highest-scoring) occurrence
  std::string doc_id;
  std::string text;      // UTF-8
  double score = 0.0;    // retrieval score: selection order is score desc, then chunk id asc
  double start = -1;     // optional offsets of the chunk in its document (echoed in sources; -1 = unknown)
  double end = -1;
  double tokens = -1;    // caller-supplied token count of `text` (e.g. WordPiece); -1 = estimate
};

enum class Order {
  kScore,  // best first
  kEnds,   // best-at-both-ends: ranks 1,3,5,... from the front, 2,4,6,... from the back
           // (Liu et al., "Lost in the Middle", TACL 2024: models use the start and end of a long
           // context best)
};

struct AssemblyOptions {
  std::size_t token_budget = 2000;   // >= 1
  Order order = Order::kScore;
  std::size_t max_chunks = 0;        // 0 = no limit besides the budget
  std::map<std::string, std::string> doc_context;  // doc id -> document-level context (title, summary)
};

struct Source {
  std::size_t n = 0;  // citation number [n], 1-based, in output order
  std::string chunk_id;
  std::string doc_id;
  double start = -1, end = -1;
  double score = 0.0;
  std::size_t tokens = 0;  // tokens charged for the chunk's text
};

// The hand-over struct (JS: {contextText, sources: [{n, chunkId, docId, start, end, score, tokens}],
// tokensUsed, dropped}).
struct AssembledContext {
  std::string context_text;
  std::vector<Source> sources;
  std::size_t tokens_used = 0;
  std::vector<std::string> dropped;  // chunk ids that did not fit the budget (selection order)
};

// Documented character estimate: ceil(code points / 4) (about 4 characters per token for English
// BPE/WordPiece vocabularies; an estimate, not a tokenizer). Text must be valid UTF-8.
std::size_t estimate_tokens(std::string_view utf8);

// Layout of context_text: blocks joined by "\n\n"; block i is "[n] " + (doc context + "\n", for the
// first block of that document in output order) + chunk text.
// Token accounting (order-independent, so the budget check made while selecting stays exact):
//   tokens_used = sum over chunks of tokens(text)            (caller-supplied or estimate_tokens)
//               + sum over included documents of estimate_tokens(doc context + "\n")
//               + sum over n = 1..m of estimate_tokens("[n] ")
//               + (m - 1) * estimate_tokens("\n\n")
// Selection: chunks in score order (desc, then chunk id asc); a chunk whose cost would exceed the
// budget is skipped (listed in `dropped`) and later, smaller chunks may still fit.
// Errors: INVALID_ARGUMENT (token_budget 0, empty chunk id, non-finite score, negative or non-integer
// tokens), INVALID_UTF8 (text or doc context not UTF-8).
Result<AssembledContext> assemble(const std::vector<ContextChunk>& chunks, const AssemblyOptions& options);

// JSON front end used by the WASM binding: {"chunks": [{"chunkId","docId","text","score","start","end",
// "tokens"}], "docContext": {docId: text}, "tokenBudget": 2000, "order": "score"|"ends", "maxChunks": 0}
// -> {"contextText", "sources", "tokensUsed", "dropped"}. Errors name the JSON path; PARSE_ERROR for
// malformed JSON.
Result<std::string> assemble_json(std::string_view request);

}  // namespace ragwasm::context
