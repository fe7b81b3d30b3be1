// BM25 index: interning terms and metadata, encoding postings and forward records, appending a document.
#include "sparse/index_internal.h"

namespace ragwasm::sparse {

using internal::kBlock;
using internal::kMaxDocs;

std::uint32_t Bm25Index::Impl::intern_term(std::string_view t) {
  const std::uint32_t h = WordCache::hash(t);
  const std::uint32_t found = term_ids.find(t, h, terms);
  if (found != TermTable::kNone) return found;
  const auto id = static_cast<std::uint32_t>(terms.size());
  terms.emplace_back(t);
  term_ids.insert(h, id);
  postings.emplace_back();
  max_score.push_back(0);
  max_version.push_back(0);
  return id;
}

std::uint32_t Bm25Index::Impl::intern(std::vector<std::string>& names, std::unordered_map<std::string, std::uint32_t>& ids,
                                      const std::string& s) {
  auto it = ids.find(s);
  if (it != ids.end()) return it->second;
  const auto id = static_cast<std::uint32_t>(names.size());
  names.push_back(s);
  ids.emplace(s, id);
  return id;
}

void Bm25Index::Impl::append_postings(std::uint32_t doc, const std::vector<TermTf>& tt) {
  for (const auto& e : tt) {
    Postings& pl = postings[e.term];
    if (pl.count % kBlock == 0) pl.skips.push_back(Skip{pl.last_plus1, static_cast<std::uint32_t>(pl.bytes.size())});
    codec::put_varint(pl.bytes, doc + 1 - pl.last_plus1);
    for (std::size_t f = 0; f < nf; ++f) codec::put_varint(pl.bytes, e.tf[f]);
    pl.last_plus1 = doc + 1;
    ++pl.count;
    ++pl.df;
  }
}

std::string Bm25Index::Impl::encode_forward(const std::vector<TermTf>& tt) const {
  std::string out;
  out.reserve(2 + tt.size() * (2 + nf));  // typical sizes: one growth-free allocation
  codec::put_varint(out, tt.size());
  std::uint32_t prev = 0;
  for (std::size_t i = 0; i < tt.size(); ++i) {
    codec::put_varint(out, i == 0 ? tt[i].term : tt[i].term - prev);
    prev = tt[i].term;
    for (std::size_t f = 0; f < nf; ++f) codec::put_varint(out, tt[i].tf[f]);
  }
  return out;
}

void Bm25Index::Impl::append_doc(const std::string& id, std::vector<TermTf>& tt, const std::vector<std::uint32_t>& lens,
                                 std::vector<MetaEntry> m) {
  const auto d = static_cast<std::uint32_t>(doc_ids.size());
  const auto by_term = [](const TermTf& a, const TermTf& b) { return a.term < b.term; };
  if (!std::is_sorted(tt.begin(), tt.end(), by_term)) std::sort(tt.begin(), tt.end(), by_term);
  append_postings(d, tt);
  forward.push_back(encode_forward(tt));
  doc_ids.push_back(id);
  for (std::size_t f = 0; f < nf; ++f) {
    doc_len.push_back(lens[f]);
    total_len[f] += lens[f];
  }
  deleted.push_back(0);
  meta.push_back(std::move(m));
  id_map.emplace(id, d);
  ++live;
  ++version;
}

}  // namespace ragwasm::sparse
