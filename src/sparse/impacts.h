// BM25 impacts: the exact weight a built Bm25Index gives each (term, live document), so a server
// engine (PostgreSQL, docs/postgres.md) can score a query as SUM(weight * impact) and return the
// same ranking and the same scores (bit for bit in float8) as Bm25Index::search.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/result.h"
#include "sparse/index.h"

namespace ragwasm::sparse {

// One batch of impact rows: rows [row_start[i], row_start[i+1]) belong to terms[i]; doc[r] is the
// document's ordinal in ImpactReader::doc_ids() (live documents in insertion order).
struct ImpactBatch {
  std::vector<std::string> terms;
  std::vector<std::uint32_t> row_start;  // terms.size() + 1 entries
  std::vector<std::uint32_t> doc;
  std::vector<double> impact;
  std::size_t next_term = 0;  // pass to read() for the following batch; == term_count() at the end
};

// Reads the impact table of an index term by term (dictionary order). impact = the score that a
// one-term query for `term` gives the document: search_terms({term, 1}) with the index's analyzer,
// scorer, k1, b, delta and field boosts, i.e. the very function search() sums. A query's score is
// then sum over its analyzed terms, in order of first appearance, of count(term) * impact.
// Usage:  ImpactReader r(index); for (std::size_t t = 0; t < r.term_count();) t = r.read(t, 4096).value().next_term;
// The index must outlive the reader and must not change while it is read (the reader snapshots
// the dictionary and the live ids).
class ImpactReader {
 public:
  explicit ImpactReader(Bm25Index& index);

  std::size_t term_count() const { return terms_.size(); }
  const std::vector<std::string>& doc_ids() const { return ids_; }

  // Terms [first, ...) until max_terms terms or max_rows rows were read (at least one term).
  // Terms with no live document are skipped. INVALID_ARGUMENT when first > term_count().
  Result<ImpactBatch> read(std::size_t first, std::size_t max_terms, std::size_t max_rows = 1u << 20);

 private:
  Bm25Index* index_;
  std::vector<std::string> terms_;
  std::vector<std::string> ids_;
  std::unordered_map<std::string, std::uint32_t> ordinal_;
};

// The weighted query terms search(query) scores: analyzed terms of the index's analyzer, in order of
// first appearance, weight = number of occurrences. Terms no live document holds are kept (they
// have no impacts and add nothing), so an empty index with the same analyzer gives the same list.
std::vector<WeightedTerm> query_weights(const Bm25Index& index, std::string_view query);

}  // namespace ragwasm::sparse
