// Result shaping after fusion: MMR diversification, neighbour expansion (merge a hit with its
// previous/next chunks) and chunk -> document aggregation (for document-level qrels).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "common/result.h"
#include "fusion/fusion.h"

namespace ragwasm::fusion {

// ---- MMR (Carbonell & Goldstein, SIGIR 1998) ----
// Greedy: S = {}; repeat k times: pick d not in S maximizing
//   mmr(d) = lambda * rel(d) - (1 - lambda) * max_{s in S} sim(d, s)      (max over empty S = 0)
// rel(d) = the candidate's score min-max normalized over the candidates (1 for all when equal), so
// lambda trades comparable scales. sim: cosine of `vectors` (0 when a vector has zero norm), or the
// caller's matrix. Ties: higher rel, then id asc. lambda = 1 returns the candidates by score.
struct MmrOptions {
  double lambda = 0.5;  // in [0, 1]
  std::size_t k = 10;   // number to select (>= 1); fewer when there are fewer candidates
};

struct MmrHit {
  std::string id;
  double score = 0.0;        // the candidate's input score
  double mmr = 0.0;          // the MMR value at the time it was picked
  double max_similarity = 0.0;  // max sim to the already-picked hits (0 for the first)
  std::size_t input_index = 0;
};

// vectors: n rows of `dim` floats, row-major (candidate order). Errors: INVALID_ARGUMENT (lambda not
// in [0,1], k == 0, a score or value not finite, duplicate id -> DUPLICATE_ID), DIMENSION_MISMATCH
// (vectors.size() != n * dim or dim == 0 with candidates).
Result<std::vector<MmrHit>> mmr_vectors(const std::vector<ScoredId>& candidates, const std::vector<float>& vectors,
                                        std::size_t dim, const MmrOptions& options);
// similarity: n*n row-major matrix, sim(i, j) = similarity[i*n + j] (need not be symmetric: the
// picked hit is j). Errors as above; DIMENSION_MISMATCH when similarity.size() != n * n.
Result<std::vector<MmrHit>> mmr_matrix(const std::vector<ScoredId>& candidates, const std::vector<double>& similarity,
                                       const MmrOptions& options);

// ---- Neighbour expansion ----
// Each hit is widened to the chunks [ordinal - before, ordinal + after] of its document that exist in
// `chunks`; windows of one document that overlap or touch (next ordinal) merge into one passage.
// Passage score = max score of the hits inside; passages sorted by score desc, then doc id asc, then
// first ordinal asc.
struct ChunkRef {
  std::string id;
  std::string doc_id;
  std::size_t ordinal = 0;  // position of the chunk within its document
  double start = -1;        // optional offsets of the chunk in its document (-1 = unknown)
  double end = -1;
};

struct Passage {
  std::string doc_id;
  std::vector<std::string> chunk_ids;  // ordinal order
  std::size_t first_ordinal = 0, last_ordinal = 0;
  double start = -1, end = -1;  // min start / max end of the chunks when all are known, else -1
  double score = 0.0;
  std::vector<std::string> hit_ids;  // the hits that produced it, ordinal order
};

struct ExpandOptions {
  std::size_t before = 1;
  std::size_t after = 1;
};

// hits: scored chunk ids; chunks: the table of known chunks (must include every hit id).
// Errors: NOT_FOUND (a hit id missing from chunks), DUPLICATE_ID (a chunk id twice, or two chunks of
// one document with the same ordinal, or a hit id twice), INVALID_ARGUMENT (non-finite score).
Result<std::vector<Passage>> expand_neighbours(const std::vector<ScoredId>& hits, const std::vector<ChunkRef>& chunks,
                                               const ExpandOptions& options);

// ---- Chunk -> document aggregation ----
//   max      doc score = max chunk score
//   sum      doc score = sum of chunk scores (in chunk rank order)
//   topm     doc score = mean of the doc's m best chunk scores (of all of them when it has fewer than m)
// Ties: doc score desc, then doc id asc. best_chunk = the doc's highest-scoring chunk (id asc on ties).
enum class Aggregation { kMax, kSum, kTopMMean };

struct DocHit {
  std::string doc_id;
  double score = 0.0;
  std::size_t chunks = 0;
  std::string best_chunk;
};

struct ChunkHit {
  std::string id;
  std::string doc_id;
  double score = 0.0;
};

// Errors: INVALID_ARGUMENT (non-finite score, m == 0 for topm), DUPLICATE_ID (a chunk id twice).
Result<std::vector<DocHit>> aggregate(const std::vector<ChunkHit>& hits, Aggregation how, std::size_t m = 3,
                                      std::size_t top_k = 0);

}  // namespace ragwasm::fusion
