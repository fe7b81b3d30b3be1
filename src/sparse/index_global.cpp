// BM25 index: the collection statistics of one shard and injected collection-wide statistics, so an
// index over part of a collection scores its documents exactly as one index over all of it would
// (docs/parallel.md).
#include "sparse/index_internal.h"

namespace ragwasm::sparse {

CollectionStats Bm25Index::collection_stats() const {
  const Impl& m = *impl_;
  CollectionStats s;
  s.documents = m.live;
  s.field_lengths.assign(m.total_len.begin(), m.total_len.end());
  s.df.reserve(m.postings.size());
  for (const auto& p : m.postings) s.df.push_back(p.df);
  return s;
}

Status Bm25Index::set_global_stats(const CollectionStats& global) {
  Impl& m = *impl_;
  if (global.field_lengths.size() != m.nf) {
    return make_error(ErrorCode::kInvalidArgument, "global stats field lengths: expected " + std::to_string(m.nf) +
                                                       " values (one per field), got " + std::to_string(global.field_lengths.size()));
  }
  if (global.df.size() != m.postings.size()) {
    return make_error(ErrorCode::kInvalidArgument, "global stats df: expected " + std::to_string(m.postings.size()) +
                                                       " values (one per dictionary term), got " + std::to_string(global.df.size()));
  }
  if (global.documents < m.live || global.documents > internal::kMaxDocs * 64ull) {
    return make_error(ErrorCode::kInvalidArgument, "global stats documents: expected a count >= this index's " +
                                                       std::to_string(m.live) + ", got " + std::to_string(global.documents));
  }
  for (std::size_t f = 0; f < m.nf; ++f) {
    if (global.field_lengths[f] < m.total_len[f]) {
      return make_error(ErrorCode::kInvalidArgument, "global stats field lengths[" + std::to_string(f) + "]: expected >= this index's " +
                                                         std::to_string(m.total_len[f]) + ", got " + std::to_string(global.field_lengths[f]));
    }
  }
  for (std::size_t t = 0; t < m.postings.size(); ++t) {
    if (global.df[t] < m.postings[t].df || global.df[t] > global.documents) {
      return make_error(ErrorCode::kInvalidArgument, "global stats df[" + std::to_string(t) + "] (term '" + m.terms[t] +
                                                         "'): expected a count in [" + std::to_string(m.postings[t].df) + ", " +
                                                         std::to_string(global.documents) + "], got " + std::to_string(global.df[t]));
    }
  }
  m.global_docs = static_cast<double>(global.documents);
  m.global_len = global.field_lengths;
  m.global_df = global.df;
  ++m.version;  // invalidates the norm and bound caches
  m.global_version = m.version;
  return Status::success();
}

void Bm25Index::clear_global_stats() {
  Impl& m = *impl_;
  if (!m.global_on()) return;
  m.global_version = 0;
  m.global_len.clear();
  m.global_df.clear();
  ++m.version;
}

bool Bm25Index::has_global_stats() const { return impl_->global_on(); }

}  // namespace ragwasm::sparse
