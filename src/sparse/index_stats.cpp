// BM25 index: statistics, document frequency and live ids.
#include "sparse/index_internal.h"

namespace ragwasm::sparse {

using internal::Postings;
using internal::Skip;
using internal::MetaEntry;

std::vector<std::string> Bm25Index::analyze(std::string_view text) const { return impl_->analyzer.analyze(text); }

IndexStats Bm25Index::stats() const {
  const Impl& m = *impl_;
  IndexStats s;
  s.documents = m.live;
  s.deleted = m.doc_ids.size() - m.live;
  s.terms = m.terms.size();
  double total = 0;
  for (std::size_t f = 0; f < m.nf; ++f) total += m.opt.fields[f].boost * static_cast<double>(m.total_len[f]);
  s.avg_length = m.live > 0 ? total / static_cast<double>(m.live) : 0;
  std::size_t bytes = 0, mem = 0;
  for (const auto& p : m.postings) {
    bytes += p.bytes.size();
    mem += sizeof(Postings) + p.bytes.capacity() + p.skips.capacity() * sizeof(Skip);
  }
  for (const auto& t : m.terms) mem += sizeof(std::string) + (t.size() > 15 ? t.capacity() : 0);
  mem += m.term_ids.memory_bytes();
  for (const auto& f : m.forward) mem += sizeof(std::string) + (f.size() > 15 ? f.capacity() : 0);
  for (const auto& id : m.doc_ids) mem += 2 * sizeof(std::string) + (id.size() > 15 ? 2 * id.capacity() : 0) + 48;
  for (const auto& me : m.meta) mem += sizeof(me) + me.capacity() * sizeof(MetaEntry);
  mem += m.doc_len.capacity() * 4 + m.deleted.capacity() + m.norm.capacity() * 8 + m.max_score.capacity() * 16;
  s.postings_bytes = bytes;
  s.memory_bytes = mem;
  return s;
}

std::size_t Bm25Index::document_frequency(std::string_view term) const {
  const std::uint32_t id = impl_->term_id(term);
  return id == TermTable::kNone ? 0 : impl_->postings[id].df;
}

std::vector<std::string> Bm25Index::ids() const {
  std::vector<std::string> out;
  for (std::size_t d = 0; d < impl_->doc_ids.size(); ++d)
    if (!impl_->deleted[d]) out.push_back(impl_->doc_ids[d]);
  return out;
}

std::vector<std::string> Bm25Index::terms() const { return impl_->terms; }

}  // namespace ragwasm::sparse
