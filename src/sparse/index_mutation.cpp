// BM25 index: validating, adding and removing documents, and compaction.
#include "sparse/index_internal.h"

namespace ragwasm::sparse {

using internal::kMaxDocs;

Status Bm25Index::Impl::validate(const Document& doc, bool allow_existing) const {
  if (doc.id.empty() || doc.id.size() > kMaxIdBytes) {
    return make_error(ErrorCode::kInvalidArgument, "document id: expected 1 to " + std::to_string(kMaxIdBytes) +
                                                       " bytes, got " + std::to_string(doc.id.size()));
  }
  if (doc.fields.size() > nf) {
    return make_error(ErrorCode::kInvalidArgument, "document '" + doc.id + "' fields: expected at most " +
                                                       std::to_string(nf) + " texts, got " + std::to_string(doc.fields.size()));
  }
  if (!allow_existing && id_map.count(doc.id) != 0) {
    return make_error(ErrorCode::kDuplicateId, "document id '" + doc.id + "' already exists (use upsert to replace it)");
  }
  if (doc_ids.size() >= kMaxDocs) return make_error(ErrorCode::kLimitExceeded, "index: at most 2^31-1 documents");
  for (const auto& mv : doc.meta) {
    if (mv.key.empty() || mv.key.size() > kMaxIdBytes) {
      return make_error(ErrorCode::kInvalidArgument, "document '" + doc.id + "' metadata key: expected 1 to 1024 bytes");
    }
    if (mv.is_number && !std::isfinite(mv.num)) {
      return make_error(ErrorCode::kInvalidArgument, "document '" + doc.id + "' metadata '" + mv.key + "': expected a finite number");
    }
    if (!mv.is_number && mv.str.size() > (std::size_t{1} << 20)) {
      return make_error(ErrorCode::kLimitExceeded, "document '" + doc.id + "' metadata '" + mv.key + "': at most 1 MiB");
    }
  }
  return Status::success();
}

Status Bm25Index::Impl::add(const Document& doc) {
  RAGWASM_TRY(validate(doc, false));
  // Scratch tables reused across documents (no allocation per document once warm).
  std::vector<std::uint32_t>& lens = add_lens;
  lens.assign(nf, 0);
  // term -> slot in tt for this document, via a stamp array (no per-document sort of occurrences)
  ++stamp_now;
  std::vector<TermTf>& tt = add_tt;
  tt.clear();
  auto count = [&](std::uint32_t term, std::size_t f) {
    if (term >= slot_stamp.size()) {
      slot_stamp.resize(std::max<std::size_t>(term + 1, slot_stamp.size() * 2), 0);
      slot_index.resize(slot_stamp.size(), 0);
    }
    if (slot_stamp[term] != stamp_now) {
      slot_stamp[term] = stamp_now;
      slot_index[term] = static_cast<std::uint32_t>(tt.size());
      tt.emplace_back();
      tt.back().term = term;
      std::fill(tt.back().tf, tt.back().tf + kMaxFields, 0u);
    }
    ++tt[slot_index[term]].tf[f];
  };
  for (std::size_t f = 0; f < doc.fields.size(); ++f) {
    analyzer.tokenize(doc.fields[f], &scratch, &raw_tokens);
    std::uint32_t len = 0;
    for (const auto& rt : raw_tokens) {
      // One cache for every kind: a word never contains a connector or a CJK character, a joined
      // identifier always contains a connector and a CJK gram only CJK, so their keys never meet.
      const std::uint32_t h = WordCache::hash(rt.text);
      std::int32_t id = word_cache.find(rt.text, h);
      if (id == WordCache::kMissing) {
        if (rt.kind == RawToken::Kind::kWord) {
          id = analyzer.normalize(rt.text, &normalized, /*memo=*/false) ? static_cast<std::int32_t>(intern_term(normalized)) : -1;
        } else {
          id = static_cast<std::int32_t>(intern_term(rt.text));
        }
        word_cache.insert(rt.text, h, id);
      }
      if (id < 0) continue;
      if (rt.kind != RawToken::Kind::kOverlap) ++len;
      count(static_cast<std::uint32_t>(id), f);
    }
    lens[f] = len;
  }
  std::vector<MetaEntry> m;
  for (const auto& mv : doc.meta) {
    MetaEntry e{};
    e.key = intern(meta_keys, meta_key_ids, mv.key);
    e.is_number = mv.is_number ? 1 : 0;
    if (mv.is_number) e.num = mv.num;
    else e.str = intern(meta_strs, meta_str_ids, mv.str);
    m.push_back(e);
  }
  // Sorted by term id: sort the 4-byte ids, then gather the (larger) rows once.
  add_terms.clear();
  for (const TermTf& e : tt) add_terms.push_back(e.term);
  std::sort(add_terms.begin(), add_terms.end());
  add_sorted.resize(tt.size());
  for (std::size_t k = 0; k < add_terms.size(); ++k) add_sorted[k] = tt[slot_index[add_terms[k]]];
  append_doc(doc.id, add_sorted, lens, std::move(m));
  return Status::success();
}

Status Bm25Index::Impl::remove(std::string_view id) {
  auto it = id_map.find(std::string(id));
  if (it == id_map.end()) return make_error(ErrorCode::kNotFound, "document id '" + std::string(id) + "' does not exist");
  const std::uint32_t d = it->second;
  id_map.erase(it);
  deleted[d] = 1;
  decode_forward(d, [&](std::uint32_t t, const std::uint32_t*) { --postings[t].df; });
  for (std::size_t f = 0; f < nf; ++f) total_len[f] -= doc_len[d * nf + f];
  --live;
  ++version;
  return Status::success();
}

void Bm25Index::Impl::compact() {
  std::vector<std::uint32_t> remap(terms.size(), kEnd);
  std::vector<std::string> new_terms;
  for (std::size_t t = 0; t < terms.size(); ++t) {
    if (postings[t].df > 0) {
      remap[t] = static_cast<std::uint32_t>(new_terms.size());
      new_terms.push_back(terms[t]);
    }
  }
  Impl fresh(analyzer);
  fresh.opt = opt;
  fresh.nf = nf;
  fresh.delta = delta;
  fresh.total_len.assign(nf, 0);
  fresh.meta_keys = meta_keys;
  fresh.meta_key_ids = meta_key_ids;
  fresh.meta_strs = meta_strs;
  fresh.meta_str_ids = meta_str_ids;
  for (const auto& t : new_terms) fresh.intern_term(t);
  std::vector<TermTf> tt;
  std::vector<std::uint32_t> lens(nf);
  for (std::uint32_t d = 0; d < doc_ids.size(); ++d) {
    if (deleted[d]) continue;
    tt.clear();
    decode_forward(d, [&](std::uint32_t t, const std::uint32_t* tf) {
      TermTf e{};
      e.term = remap[t];
      std::copy(tf, tf + nf, e.tf);
      tt.push_back(e);
    });
    for (std::size_t f = 0; f < nf; ++f) lens[f] = doc_len[d * nf + f];
    fresh.append_doc(doc_ids[d], tt, lens, meta[d]);
  }
  fresh.version = version + 1;
  *this = std::move(fresh);
  word_cache.clear();
}

}  // namespace ragwasm::sparse
