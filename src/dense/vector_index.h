// VectorIndex: exact flat search and HNSW over float32, int8 (per-vector symmetric scale) or binary
// (1-bit sign + int8/f32 rescoring copy) vectors with string ids; cosine / dot / L2; save/load.
//
//   auto ix = VectorIndex::create({/*dimension*/ 384}).value();
//   ix.add({"a", "b"}, data, 2 * 384);  auto hits = ix.search(query, 384, {}).value();
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/result.h"

namespace ragwasm::dense {

enum class Metric : std::uint8_t { kCosine = 0, kDot = 1, kL2 = 2 };
enum class Storage : std::uint8_t { kF32 = 0, kInt8 = 1, kBinary = 2 };
enum class IndexKind : std::uint8_t { kFlat = 0, kHnsw = 1 };

constexpr std::uint32_t kMaxDimension = 8192;            // int8 sums stay exact in int32 far beyond this
constexpr std::size_t kMaxIdBytes = 1024;                // one id, UTF-8
constexpr float kMaxAbsValue = 1e15f;                    // |x| bound: no score can overflow float32
constexpr std::uint64_t kMaxStorageBytes = 3ull << 30;   // largest single vector array (WASM: 4 GB memory)
constexpr std::uint32_t kMaxHnswM = 128;                 // M in [2, 128]
constexpr std::uint32_t kMaxEf = 100000;                 // efConstruction / efSearch upper bound
constexpr std::uint32_t kMaxLevel = 30;                  // HNSW levels are capped (P ~ M^-30)

struct HnswOptions {
  std::uint32_t m = 16;                 // links per node on levels >= 1; level 0 keeps 2*M
  std::uint32_t ef_construction = 200;  // candidate list size while inserting
  std::uint32_t ef_search = 64;         // default candidate list size while searching (>= k is used)
  std::uint64_t seed = 42;              // level generator seed
};

struct IndexOptions {
  std::uint32_t dimension = 0;             // required, 1..8192
  Metric metric = Metric::kCosine;
  Storage storage = Storage::kF32;
  Storage binary_rescore = Storage::kInt8;  // storage=kBinary: copy kept for rescoring (kInt8 or kF32)
  IndexKind kind = IndexKind::kFlat;
  HnswOptions hnsw;
};

struct SearchOptions {
  std::uint32_t k = 10;           // 1..100000 (kMaxSearchK, common/limits.h); fewer hits when fewer vectors (match the filter)
  std::uint32_t ef_search = 0;    // HNSW: 0 = the index's default; max(ef, k) is used
  std::uint32_t rescore = 8;      // binary: rescore the best k*rescore by Hamming; 0 = Hamming scores
  const std::uint8_t* allow = nullptr;  // optional filter: allow[slot] != 0 keeps the slot
  std::size_t allow_size = 0;           // must equal slot_count() when allow is set
};

struct Hit {
  std::uint32_t slot;
  float score;  // higher is better: cosine, dot, or -(squared L2 distance)
};

// Bench reference passes (tests/bench/suites/dense.mjs): what a flat search costs without its parts.
enum class ReferencePass : std::uint8_t {
  kKernel = 0,  // the single-row kernel against every stored row it scans, no top-k
  kBatch = 1,   // the batch kernel the scan uses, in the scan's blocks, no top-k
  kRead = 2,    // a read-only SIMD pass (XOR) over the same stored bytes: the memory-read ceiling
};
struct ReferenceResult {
  double checksum = 0;      // depends on every value read, so the pass cannot be optimized away
  std::uint64_t bytes = 0;  // stored (padded) bytes the pass read
};

class VectorIndex {
 public:
  // Errors: INVALID_ARGUMENT (dimension 0 or > 8192, HNSW options out of range, binary+hnsw,
  // binary_rescore not int8/f32).
  static Result<VectorIndex> create(const IndexOptions& options);

  // Adds `ids.size()` vectors stored row-major in `data` (`count` floats = ids.size() * dimension).
  // All or nothing. Errors: INVALID_ARGUMENT (empty batch, empty/long id, NaN/Inf or |x| > 1e15 with
  // the row and column), DIMENSION_MISMATCH (count not ids.size() * dimension), DUPLICATE_ID (id in
  // the index or twice in the batch), LIMIT_EXCEEDED (storage would pass 3 GiB).
  Status add(const std::vector<std::string>& ids, const float* data, std::size_t count);

  // Removes vectors by id, all or nothing. Errors: INVALID_ARGUMENT (empty batch), NOT_FOUND.
  Status remove(const std::vector<std::string>& ids);

  // HNSW: drops the tombstones of remove() by rebuilding the graph from the live vectors in insertion
  // order with the seed's level stream, so the index equals (saved bytes) one built by adding those
  // vectors in that order; builds the new index beside the old one (both held for a moment) and keeps
  // the old on failure. Flat indexes remove rows physically, and an HNSW index without tombstones is
  // that build already: both are left as they are. -> the number of tombstones dropped.
  std::size_t compact();

  // Top-k by score desc, ties by insertion order (earlier first). Errors: DIMENSION_MISMATCH,
  // INVALID_ARGUMENT (k outside [1, 100000] (check_search_k), NaN/Inf in the query, filter of the wrong size, ef > 100000).
  Result<std::vector<Hit>> search(const float* query, std::size_t length, const SearchOptions& options) const;

  // Exact top-k over the stored vectors regardless of index kind (the HNSW oracle).
  Result<std::vector<Hit>> search_exact(const float* query, std::size_t length, const SearchOptions& options) const;

  // search_exact of `count` queries (row i at queries + i * length) in one pass over the stored
  // vectors: each block of rows is scored for every query while it is in cache, so a batch reads
  // memory once instead of once per query. Hits equal search_exact of each query (same kernels on
  // the same blocks, same ranking). Binary storage: search_exact per query. Errors: as search, for
  // the first bad query.
  Result<std::vector<std::vector<Hit>>> search_exact_many(const float* queries, std::size_t count, std::size_t length,
                                                          const SearchOptions& options) const;

  // search_exact_many over the slots [begin, end) only (end clamped to slot_count()): one part of a
  // scan split across threads (the optional WASM-threads build, docs/parallel.md). Each list is that
  // range's top k by the index's ranking; merge_hits() of the lists of ranges covering every slot
  // once equals search_exact_many, bit for bit. f32 and int8 storage (binary: INVALID_ARGUMENT, its
  // rescoring pool is not a per-row score). Errors: as search_exact_many, and INVALID_ARGUMENT when begin > end.
  Result<std::vector<std::vector<Hit>>> search_exact_many_slots(const float* queries, std::size_t count,
                                                                std::size_t length, const SearchOptions& options,
                                                                std::size_t begin, std::size_t end) const;

  // The best k of the hits of `n` lists (each ranked, from disjoint slot ranges of this index), by the
  // index's ranking: score descending, then insertion ordinal ascending.
  std::vector<Hit> merge_hits(const std::vector<Hit>* const* lists, std::size_t n, std::uint32_t k) const;

  // One bench reference pass over the rows a flat search for `query` reads first (f32, int8 or, for
  // binary storage, the sign bits). Errors: as search.
  Result<ReferenceResult> reference_pass(const float* query, std::size_t length, ReferencePass which) const;

  std::size_t size() const { return live_; }                 // live vectors
  std::size_t slot_count() const { return ids_.size(); }     // slots, including HNSW tombstones
  bool is_live(std::uint32_t slot) const { return alive_[slot] != 0; }
  const std::string& id(std::uint32_t slot) const { return ids_[slot]; }
  // The live slots in ascending order (what a filter mask built outside the index enumerates).
  std::vector<std::uint32_t> live_slots() const {
    std::vector<std::uint32_t> out;
    for (std::uint32_t s = 0; s < slot_count(); ++s) {
      if (is_live(s)) out.push_back(s);
    }
    return out;
  }
  bool contains(std::string_view id) const { return map_.count(std::string(id)) != 0; }
  // Filter mask (size slot_count()) allowing exactly the listed ids that exist.
  std::vector<std::uint8_t> mask_for_ids(const std::vector<std::string>& ids) const;
  const IndexOptions& options() const { return options_; }

  // Serialized form (docs/formats.md): the one container, magic "RWVECTOR", unpadded rows, XXH64.
  std::vector<std::uint8_t> save() const;
  // Errors: CORRUPT_INDEX (magic, lengths, checksum, values or graph invalid), UNSUPPORTED_VERSION.
  static Result<VectorIndex> load(std::string_view bytes);
  // Every check of load() on saved bytes without building the index (no id table, no vector copy;
  // a save's check that its bytes load: docs/scale.md), except that live ids are not checked for
  // duplicates: each is passed to on_id (in slot order), whose caller compares them with what it
  // expects. -> {dimension, live vectors}; the same errors as load() otherwise.
  struct SavedSummary {
    std::uint32_t dimension = 0;
    std::uint64_t live = 0;
  };
  static Result<SavedSummary> check(std::string_view bytes, const std::function<void(std::string_view)>& on_id);

  static constexpr std::uint32_t kFormatVersion = 2;  // 1: the "RWDV" layout, still read

 private:
  struct Query;  // a prepared query: padded f32, quantized int8 + scale, norm, sign bits
  struct Graph;  // HNSW links

  VectorIndex() = default;

  std::size_t stride() const { return stride_; }
  bool has_f32() const;
  bool has_i8() const;
  bool has_bits() const { return options_.storage == Storage::kBinary; }
  Storage score_storage() const;  // what search scores with: f32 or int8 (binary: its rescore copy)

  void encode_row(const float* src, std::uint32_t slot);
  Query prepare(const float* query) const;
  // validates and prepares `count` queries (row i at queries + i * length) into qs; the first bad one's error
  Status prepare_many(const float* queries, std::size_t count, std::size_t length, const SearchOptions& o,
                      std::vector<Query>& qs) const;
  Query slot_query(std::uint32_t slot) const;
  float score(const Query& q, std::uint32_t slot) const;
  void scan(const Query& q, std::uint32_t k, const std::uint8_t* allow, std::vector<Hit>& out) const;
  // scan of several queries, block by block; out[i] = scan of qs[i]
  // over the slots [begin, end)
  void scan_many(const Query* qs, std::size_t count, std::uint32_t k, const std::uint8_t* allow,
                 std::vector<std::vector<Hit>>& out, std::size_t begin = 0, std::size_t end = SIZE_MAX) const;
  void scan_binary(const Query& q, std::uint32_t k, std::uint32_t pool, const std::uint8_t* allow,
                   std::vector<Hit>& out) const;
  Status validate_query(const float* query, std::size_t length, const SearchOptions& o) const;
  void move_slot(std::uint32_t from, std::uint32_t to);

  // HNSW (vector_index_hnsw.cpp)
  std::uint32_t random_level();
  void hnsw_insert(std::uint32_t slot);
  // Greedy walk from the entry point through layers max_level_ .. stop_level + 1 (best neighbour
  // until none is better); returns the closest node found, the entry for the layers below.
  std::uint32_t greedy_descend(const Query& q, std::uint32_t stop_level) const;
  void hnsw_search(const Query& q, std::uint32_t k, std::uint32_t ef, const std::uint8_t* allow,
                   std::vector<Hit>& out) const;
  std::uint32_t* links(std::uint32_t slot, std::uint32_t level);
  const std::uint32_t* links(std::uint32_t slot, std::uint32_t level) const;
  std::uint32_t max_links(std::uint32_t level) const { return level == 0 ? 2 * options_.hnsw.m : options_.hnsw.m; }
  template <class Allow>
  void search_layer(const Query& q, std::uint32_t entry, std::uint32_t ef, std::uint32_t level, Allow allow,
                    std::vector<Hit>& out) const;
  void select_neighbors(std::vector<Hit>& candidates, std::uint32_t m) const;
  void connect(std::uint32_t slot, std::uint32_t neighbor, std::uint32_t level);

  IndexOptions options_;
  bool score_f32_ = true;         // scores with f32 rows (else int8 rows)
  bool l2_ = false;               // metric is L2
  std::size_t stride_ = 0;        // dimension rounded up to 16 (f32 and int8 rows)
  std::size_t bit_bytes_ = 0;     // bytes per sign-bit row, a multiple of 16
  std::vector<float> f32_;        // slot-major rows of stride_ floats (cosine: normalized)
  std::vector<std::int8_t> i8_;   // slot-major rows of stride_ int8
  std::vector<float> scale_;      // int8 scale per slot: x ~ scale * q
  std::vector<float> norm2_;      // squared norm per slot of the stored (normalized) f32 vector
  std::vector<std::uint8_t> bits_;  // slot-major sign bits
  std::vector<std::string> ids_;
  std::vector<std::uint64_t> seq_;  // insertion ordinal per slot: the tie-break
  std::vector<std::uint8_t> alive_;
  std::unordered_map<std::string, std::uint32_t> map_;
  std::uint64_t next_seq_ = 0;
  std::size_t live_ = 0;

  // HNSW
  std::vector<std::uint8_t> level_;                 // per slot
  std::vector<std::uint32_t> links0_;               // per slot: [count, 2M links]
  std::vector<std::vector<std::uint32_t>> upper_;   // per slot: level * [count, M links]
  std::uint32_t entry_ = 0;
  std::uint32_t max_level_ = 0;
  std::uint64_t rng_ = 0;
  mutable std::vector<std::uint32_t> visited_;      // search scratch: generation marks
  mutable std::uint32_t visit_gen_ = 0;

  friend class Serializer;
};

const char* metric_name(Metric m);
const char* storage_name(Storage s);

}  // namespace ragwasm::dense
