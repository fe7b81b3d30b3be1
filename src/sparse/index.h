// A BM25 index: compressed postings (delta + LEB128 varint, a skip entry every 128 postings),
// per-field document lengths, a term dictionary, fields with boosts, metadata filters, updates with
// exact collection statistics, RM3 pseudo-relevance feedback, and a versioned binary format.
//
// Scoring (see docs/sparse.md for the formulas and sources): fields are combined as in "simple
// BM25F" (Robertson, Zaragoza, Taylor 2004) with one k1/b: tf = sum_f boost_f * tf_f and
// dl = sum_f boost_f * len_f, so boosts of 1 equal indexing the concatenated fields.
// Top-k: an exhaustive term-at-a-time oracle and a MaxScore document-at-a-time fast path that
// return identical lists: scores are summed in query-term order in both, ties by document id
// (bytewise ascending).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/result.h"
#include "sparse/analyzer.h"

namespace ragwasm::sparse {

enum class Scorer { kLucene, kRobertson, kAtire, kBm25L, kBm25Plus };
const char* scorer_name(Scorer s);

struct ScoringOptions {
  Scorer scorer = Scorer::kLucene;
  double k1 = 0.9;
  double b = 0.4;
  double delta = -1;  // BM25L / BM25+ delta; < 0 means the default (0.5 for BM25L, 1.0 for BM25+)
};

struct FieldSpec {
  std::string name;
  double boost = 1.0;
};

struct IndexOptions {
  AnalyzerOptions analyzer;
  std::vector<FieldSpec> fields = {{"title", 1.0}, {"text", 1.0}};
  ScoringOptions scoring;
};

constexpr std::size_t kMaxFields = 16;
constexpr std::size_t kMaxIdBytes = 1024;

struct MetaValue {
  std::string key;
  bool is_number = false;
  std::string str;
  double num = 0;
};

struct Document {
  std::string id;
  std::vector<std::string> fields;  // one text per IndexOptions::fields entry (missing = empty)
  std::vector<MetaValue> meta;      // a key may repeat: the document then has a set of values
};

// A metadata predicate. kAnyOf: the document has a value of `key` equal to one of strings/numbers.
// kRange: the document has a numeric value of `key` in [lo, hi] (bounds exclusive when *_open).
struct FilterClause {
  enum class Kind { kAnyOf, kRange };
  std::string key;
  Kind kind = Kind::kAnyOf;
  std::vector<std::string> strings;
  std::vector<double> numbers;
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool lo_open = false;
  bool hi_open = false;
};

// Defaults chosen on SciFact train qrels (docs/sparse.md); Anserini's 10 / 10 / 0.5 scored lower there.
struct Rm3Options {
  bool enabled = false;
  std::size_t fb_docs = 3;
  std::size_t fb_terms = 10;
  double original_weight = 0.9;
};

// Typo-tolerant and type-ahead matching (index_fuzzy.cpp; MiniSearch's definitions and weights, docs/sparse.md):
// each analyzed query term also matches the dictionary terms it prefixes (weight
// prefix_weight * |t| / (|t| + 0.3 * (|t| - |q|))) and those within edit distance d (weight
// fuzzy_weight * |t| / (|t| + d)); a term both prefix and fuzzy counts as prefix; the exact term weighs 1.
struct MatchOptions {
  bool prefix = false;
  std::vector<std::uint8_t> prefix_terms;  // non-empty: one flag per analyzed query term (overrides prefix)
  double fuzzy = 0;                        // 0 off; in (0, 1): round(fraction * |q|) capped by max_fuzzy; >= 1: distance
  std::vector<double> fuzzy_terms;         // non-empty: one fuzzy value per analyzed query term (overrides fuzzy)
  std::size_t max_fuzzy = 6;
  double prefix_weight = 0.375;
  double fuzzy_weight = 0.45;
  bool active() const { return prefix || fuzzy > 0 || !prefix_terms.empty() || !fuzzy_terms.empty(); }
};

enum class Combine { kOr, kAnd };

// Query expansion from word neighbours (index_expansion.cpp, docs/sparse.md "Query expansion"): each
// expandable query word (not a stop word, number, identifier part or all-caps acronym) adds at most
// per_term of its nearest words that analyze to one term of this index's vocabulary, other than the
// query's own terms, each at weight x similarity (the exact terms keep weight = count >= 1).
struct ExpansionOptions {
  bool enabled = false;
  std::size_t per_term = 2;     // 1..16
  double min_similarity = 0.7;  // (0, 1]
  double weight = 0.3;          // (0, 1]
  bool unmatched_only = false;  // expand only the query words whose term no live document holds
};

struct SimilarWord {
  std::string word;  // as the word source spells it (lowercase)
  double similarity = 0;
};
// The word source of an expansion: the words similar to `word` with similarity >= min_similarity,
// best first (similarity descending, ties in a fixed order), the word itself excluded. The embed
// module's WordNeighbours::similar is one (the binding adapts it); tests pass a table.
using SimilarWords = std::function<std::vector<SimilarWord>(std::string_view word, double min_similarity)>;

struct SearchOptions {
  std::size_t k = 10;  // 1..100000 (kMaxSearchK, common/limits.h: the rule of every search)
  std::vector<FilterClause> filter;  // all clauses must hold
  bool exhaustive = false;           // use the oracle scorer instead of MaxScore
  Rm3Options rm3;
  ExpansionOptions expansion;        // needs similar_words; not with rm3
  SimilarWords similar_words;
  MatchOptions match;
  Combine combine = Combine::kOr;    // kAnd: a hit matches every query term (or one of its expansions)
  std::vector<std::pair<std::string, double>> boost;  // per-query field boosts (multiply the index's tf weights)
  bool matching() const { return match.active() || combine == Combine::kAnd || !boost.empty(); }
};

// Why a hit matched (Bm25Index::explain): one entry per (query term, matched index term) pair.
struct TermMatch {
  enum class Kind { kExact, kPrefix, kFuzzy };
  std::string query;   // the analyzed query term
  std::string term;    // the index term that matched
  Kind kind = Kind::kExact;
  unsigned distance = 0;  // prefix: |term| - |query| bytes; fuzzy: edit distance
  double weight = 1;      // the expansion weight (1 for exact)
  double score = 0;       // weight * the term's BM25 score in this document
};

struct Completion {
  std::string term;
  std::size_t df = 0;
};

struct Hit {
  std::string id;
  double score = 0;
};

struct WeightedTerm {
  std::string term;  // an analyzed term
  double weight = 1;
};

// One expansion term of a query: the analyzed term, the query word it came from, the neighbour word
// that analyzed to it, their similarity and the weight it is scored with (weight x similarity).
struct ExpansionTerm {
  std::string term;
  std::string from;
  std::string word;
  double similarity = 0;
  double weight = 0;
};

struct IndexStats {
  std::size_t documents = 0;         // live documents (N)
  std::size_t deleted = 0;           // tombstones awaiting compact()
  std::size_t terms = 0;             // dictionary size (includes terms only in deleted documents)
  double avg_length = 0;             // avgdl of the boosted combined length
  std::size_t postings_bytes = 0;
  std::size_t memory_bytes = 0;      // estimate of the heap bytes held
};

// The statistics BM25 scores depend on, kept as integers so the statistics of several shards (indexes
// over disjoint documents) add up exactly: live documents, per-field token totals (the unboosted sum
// of IndexOptions::fields lengths) and each dictionary term's document frequency, by term id (the
// order of Bm25Index::terms()). docs/parallel.md explains sharded scoring.
struct CollectionStats {
  std::uint64_t documents = 0;
  std::vector<std::uint64_t> field_lengths;
  std::vector<std::uint32_t> df;
};

// What Bm25Index::check() read from saved bytes.
struct SavedIndexSummary {
  std::vector<std::string> fields;  // in saved order
  std::uint64_t documents = 0;
};

// What Bm25Index::find_term_mismatch found: `item` is the index of the first item that differs,
// `analyzed` its distinct analyzed terms, `held` the terms the index holds for its id (0: not indexed).
struct TermMismatch {
  std::size_t item = 0;
  std::size_t analyzed = 0;
  std::size_t held = 0;
};

class Bm25Index {
 public:
  static Result<Bm25Index> create(const IndexOptions& options);
  Bm25Index(Bm25Index&&) noexcept;
  Bm25Index& operator=(Bm25Index&&) noexcept;
  ~Bm25Index();

  const IndexOptions& options() const;

  // Adds a document; DUPLICATE_ID when the id exists (use upsert to replace).
  Status add(const Document& doc);
  // Adds or replaces.
  Status upsert(const Document& doc);
  // Deletes; NOT_FOUND when the id does not exist.
  Status remove(std::string_view id);
  // Deletes many: ignore_missing false -> NOT_FOUND naming the first unknown id and nothing removed;
  // true -> unknown ids are skipped. An id listed twice is removed once. Returns how many were removed.
  Result<std::size_t> remove_many(const std::vector<std::string_view>& ids, bool ignore_missing);
  bool contains(std::string_view id) const;
  // Rewrites postings without deleted documents (statistics are unchanged: they are always exact).
  void compact();

  Result<std::vector<Hit>> search(std::string_view query, const SearchOptions& options);
  Result<std::vector<Hit>> search_terms(const std::vector<WeightedTerm>& terms, const SearchOptions& options);
  // Every live document holding `term` (exact, not analyzed) with its BM25 score for that term at weight 1,
  // as search_terms would rank them with k = its document frequency (which may pass the search k limit).
  Result<std::vector<Hit>> term_hits(std::string_view term);
  // search() with expansion / AND / field boosts (SearchOptions::matching(); index_fuzzy.cpp).
  Result<std::vector<Hit>> search_expanded(std::string_view query, const SearchOptions& options);
  // For each hit (from search with the same query and options), the query terms and expansions it holds.
  Result<std::vector<std::vector<TermMatch>>> explain(std::string_view query, const SearchOptions& options,
                                                      const std::vector<Hit>& hits);
  // Completions of the last analyzed term of `prefix`: dictionary terms it prefixes (itself included),
  // by live document frequency descending then bytes; at most k (1..100000).
  Result<std::vector<Completion>> suggest(std::string_view prefix, std::size_t k);
  // The weighted query that RM3 would run (original terms + expansion), for inspection and tests.
  Result<std::vector<WeightedTerm>> expand_query(std::string_view query, const SearchOptions& options);

  // The expansion terms search() adds for options.expansion (in scoring order). INVALID_ARGUMENT when
  // an option is out of range, similar_words is missing, or rm3 is enabled too.
  Result<std::vector<ExpansionTerm>> expansion_terms(std::string_view query, const SearchOptions& options) const;

  std::vector<std::string> analyze(std::string_view text) const;
  IndexStats stats() const;
  std::size_t document_frequency(std::string_view term) const;  // live documents containing term
  // Ids of live documents in insertion order.
  std::vector<std::string> ids() const;
  // The term dictionary in term-id order (includes terms only in deleted documents: df 0).
  std::vector<std::string> terms() const;

  // This index's own statistics (deleted documents excluded), df aligned with terms().
  CollectionStats collection_stats() const;
  // Scores with collection-wide statistics: N, avgdl and every term's df come from `global` (the sum
  // of the collection_stats() of all shards, df re-aligned with this index's terms()), so a shard's
  // scores equal those of one index over the whole collection bit for bit. INVALID_ARGUMENT when the
  // sizes differ from this index's or a global count is below this index's own. The override holds
  // until the next add/upsert/remove/compact (which restore local statistics); RM3 expansion and
  // stats() always use local statistics. Not saved.
  Status set_global_stats(const CollectionStats& global);
  void clear_global_stats();
  bool has_global_stats() const;

  // Checks texts a caller stored beside the index against it (a saved collection's header, #30 F-2):
  // `parts` holds items of 1 + texts_per_item views, an id then its texts (any fields in any order;
  // empty = none). An item matches when the union of its texts' distinct terms, by this index's
  // analyzer (as add() analyzes), is exactly the set of terms the index holds for the live document
  // with that id (the empty set when no live document has it). Returns the first item that differs,
  // or nullopt when all match; a trailing partial item is ignored. Usage:
  //   if (auto m = index.find_term_mismatch({"d1", "title", "text"}, 2)) ...  // m->item == 0
  std::optional<TermMismatch> find_term_mismatch(const std::vector<std::string_view>& parts, std::size_t texts_per_item) const;

  std::string save() const;
  static Result<Bm25Index> load(std::string_view bytes);
  // Every check of load() on saved bytes without building the index (a save's check that they load:
  // docs/scale.md), except that document ids are not checked for duplicates: each is passed to on_id
  // (in saved order), whose caller compares them with what it expects. Returns the field names and
  // the document count; the same errors as load() otherwise.
  static Result<SavedIndexSummary> check(std::string_view bytes, const std::function<void(std::string_view)>& on_id);

  struct Impl;

 private:
  explicit Bm25Index(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace ragwasm::sparse
