// BM25 index: the saved format.
#include <functional>
#include <optional>
#include <unordered_set>

#include "common/container.h"
#include "common/hash.h"
#include "sparse/index_internal.h"

namespace ragwasm::sparse {

using internal::kEnd;
using internal::kMaxDocs;
using internal::MetaEntry;

namespace {
Error corrupt(const std::string& what) {
  return make_error(ErrorCode::kCorruptIndex, "bytes: not a valid saved Bm25Index (" + what + ")");
}
}  // namespace

// ---- persistence ----------------------------------------------------------------------------
// The one container (src/common/container.h, docs/formats.md), magic "RWSPARSE", sections
// 1 options, 2 terms, 3 metadata, 4 documents. Version 2 is sealed by XXH64; version 1 (the same
// layout) by FNV-1a 64 with basis kSparseChecksumBasis (src/common/hash.h) and still loads.
// Only live documents are written.
namespace {
constexpr char kMagic[8] = {'R', 'W', 'S', 'P', 'A', 'R', 'S', 'E'};
constexpr std::uint32_t kVersion = 2;
enum : std::uint32_t { kSecOptions = 1, kSecTerms = 2, kSecMeta = 3, kSecDocs = 4 };
std::uint64_t v1_seal(std::string_view body) { return fnv1a64(body, kSparseChecksumBasis); }
}  // namespace

std::string Bm25Index::save() const {
  const Impl& m = *impl_;
  // term remap: only terms used by live documents
  std::vector<std::uint32_t> remap(m.terms.size(), kEnd);
  std::vector<std::uint32_t> kept;
  for (std::uint32_t t = 0; t < m.terms.size(); ++t) {
    if (m.postings[t].df > 0) {
      remap[t] = static_cast<std::uint32_t>(kept.size());
      kept.push_back(t);
    }
  }
  // Each section is written by a function of a codec::Writer or codec::Counter: counted first, then
  // written straight into the container reserved at its exact size (no second copy of the index).
  const auto options = [&](auto& opt) {
    const auto& a = m.opt.analyzer;
    opt.u8(a.lowercase);
    opt.u8(a.fold_accents);
    opt.u8(a.use_stopwords);
    opt.varint(a.stopwords.size());
    for (const auto& w : a.stopwords) opt.str(w);
    opt.u8(static_cast<std::uint8_t>(a.stemmer));
    opt.u8(a.cjk_bigrams);
    opt.u8(a.identifiers);
    opt.varint(a.max_token_bytes);
    opt.varint(m.nf);
    for (const auto& f : m.opt.fields) {
      opt.str(f.name);
      opt.f64(f.boost);
    }
    opt.u8(static_cast<std::uint8_t>(m.opt.scoring.scorer));
    opt.f64(m.opt.scoring.k1);
    opt.f64(m.opt.scoring.b);
    opt.f64(m.opt.scoring.delta);
  };
  const auto terms = [&](auto& w) {
    w.varint(kept.size());
    for (auto t : kept) w.str(m.terms[t]);
  };
  const auto meta = [&](auto& w) {
    w.varint(m.meta_keys.size());
    for (const auto& k : m.meta_keys) w.str(k);
    w.varint(m.meta_strs.size());
    for (const auto& s : m.meta_strs) w.str(s);
  };
  std::vector<std::pair<std::uint32_t, std::uint32_t>> tt;  // (kept term, first tf index in tfs)
  std::vector<std::uint32_t> tfs;
  const auto docs = [&](auto& w) {
    w.varint(m.live);
    for (std::uint32_t d = 0; d < m.doc_ids.size(); ++d) {
      if (m.deleted[d]) continue;
      w.str(m.doc_ids[d]);
      for (std::size_t f = 0; f < m.nf; ++f) w.varint(m.doc_len[d * m.nf + f]);
      tt.clear();
      tfs.clear();
      m.decode_forward(d, [&](std::uint32_t t, const std::uint32_t* tf) {
        tt.emplace_back(remap[t], static_cast<std::uint32_t>(tfs.size()));
        tfs.insert(tfs.end(), tf, tf + m.nf);
      });
      w.varint(tt.size());
      std::uint32_t prev = 0;
      for (std::size_t i = 0; i < tt.size(); ++i) {
        w.varint(i == 0 ? tt[i].first : tt[i].first - prev);
        prev = tt[i].first;
        for (std::size_t f = 0; f < m.nf; ++f) w.varint(tfs[tt[i].second + f]);
      }
      w.varint(m.meta[d].size());
      for (const auto& e : m.meta[d]) {
        w.varint(e.key);
        w.u8(e.is_number);
        if (e.is_number) w.f64(e.num);
        else w.varint(e.str);
      }
    }
  };
  const auto size_of = [](const auto& section) {
    codec::Counter c;
    section(c);
    return c.size();
  };
  container::Packer<std::string> out(std::string_view(kMagic, 8), kVersion,
                                     {{kSecOptions, size_of(options)}, {kSecTerms, size_of(terms)}, {kSecMeta, size_of(meta)}, {kSecDocs, size_of(docs)}});
  const auto write = [&](const auto& section) {
    codec::Writer w(out.next());
    section(w);
  };
  write(options);
  write(terms);
  write(meta);
  write(docs);
  return out.done();
}

namespace {
// The saved bytes read and checked once, for load() (a sink that builds the index) and check() (a sink
// that builds nothing): every check below is made for both. A sink has
//   std::optional<Error> options(const IndexOptions&)   the index created (or refused) from the options
//   bool term(std::string_view) / meta_key / meta_str   false: a duplicate
//   std::size_t terms() / meta_keys() / meta_strs()     how many were read
//   bool id(std::string_view)                           false: a duplicate document id
//   void doc(std::string_view id, std::vector<TermTf>&, const std::vector<std::uint32_t>& lens, std::vector<MetaEntry>&&)
template <class Sink>
std::optional<Error> parse_saved(std::string_view bytes, Sink& sink) {
  container::Format format;
  format.magic = std::string_view(kMagic, 8);
  format.what = "Bm25Index";
  format.min_version = 1;
  format.max_version = kVersion;
  format.sealed_from = 2;
  format.legacy_seal = v1_seal;
  auto unpacked = container::unpack(bytes, format);
  if (!unpacked.ok()) return unpacked.error();
  std::string_view sec[5];
  for (std::uint32_t t = kSecOptions; t <= kSecDocs; ++t) {
    const container::Section* found = unpacked.value().find(t);
    if (found == nullptr) return corrupt("missing section " + std::to_string(t));
    sec[t] = found->bytes;
  }

  IndexOptions o;
  {
    codec::Reader s(sec[kSecOptions]);
    std::uint8_t lc, fa, us, st, cjk, idn, scorer;
    std::uint64_t nstop, mtb, nf;
    if (!s.u8(&lc) || !s.u8(&fa) || !s.u8(&us) || !s.varint(&nstop) || nstop > s.left()) return corrupt("options");
    o.analyzer.lowercase = lc != 0;
    o.analyzer.fold_accents = fa != 0;
    o.analyzer.use_stopwords = us != 0;
    o.analyzer.stopwords.clear();
    for (std::uint64_t i = 0; i < nstop; ++i) {
      std::string w;
      if (!s.str(&w, 1024)) return corrupt("options: stopword");
      o.analyzer.stopwords.push_back(std::move(w));
    }
    if (!s.u8(&st) || st > 1 || !s.u8(&cjk) || !s.u8(&idn) || !s.varint(&mtb) || !s.varint(&nf) || nf < 1 || nf > kMaxFields) {
      return corrupt("options: analyzer");
    }
    o.analyzer.stemmer = static_cast<Stemmer>(st);
    o.analyzer.cjk_bigrams = cjk != 0;
    o.analyzer.identifiers = idn != 0;
    o.analyzer.max_token_bytes = static_cast<std::size_t>(mtb);
    o.fields.clear();
    for (std::uint64_t i = 0; i < nf; ++i) {
      FieldSpec f;
      if (!s.str(&f.name, 256) || !s.f64(&f.boost)) return corrupt("options: fields");
      o.fields.push_back(std::move(f));
    }
    if (!s.u8(&scorer) || scorer > 4 || !s.f64(&o.scoring.k1) || !s.f64(&o.scoring.b) || !s.f64(&o.scoring.delta) || !s.done()) {
      return corrupt("options: scoring");
    }
    o.scoring.scorer = static_cast<Scorer>(scorer);
  }
  if (auto e = sink.options(o)) return corrupt("options: " + e->message);
  {
    codec::Reader s(sec[kSecTerms]);
    std::uint64_t n;
    if (!s.varint(&n) || n > s.left()) return corrupt("terms: count");
    for (std::uint64_t i = 0; i < n; ++i) {
      std::string_view t;
      if (!s.view(&t, 1 << 16)) return corrupt("terms: entry");
      if (!sink.term(t)) return corrupt("terms: duplicate term");
    }
    if (!s.done()) return corrupt("terms: trailing bytes");
  }
  {
    codec::Reader s(sec[kSecMeta]);
    std::uint64_t n;
    if (!s.varint(&n) || n > s.left()) return corrupt("metadata keys");
    for (std::uint64_t i = 0; i < n; ++i) {
      std::string_view k;
      if (!s.view(&k, kMaxIdBytes) || !sink.meta_key(k)) return corrupt("metadata key");
    }
    if (!s.varint(&n) || n > s.left()) return corrupt("metadata values");
    for (std::uint64_t i = 0; i < n; ++i) {
      std::string_view k;
      if (!s.view(&k, std::size_t{1} << 20) || !sink.meta_str(k)) return corrupt("metadata value");
    }
    if (!s.done()) return corrupt("metadata: trailing bytes");
  }
  {
    codec::Reader s(sec[kSecDocs]);
    std::uint64_t n;
    if (!s.varint(&n) || n > s.left() || n > kMaxDocs) return corrupt("documents: count");
    const std::size_t nf = o.fields.size();
    const std::uint64_t terms = sink.terms(), meta_keys = sink.meta_keys(), meta_strs = sink.meta_strs();
    std::vector<Bm25Index::Impl::TermTf> tt;
    std::vector<std::uint32_t> lens(nf);
    for (std::uint64_t i = 0; i < n; ++i) {
      std::string_view id;
      if (!s.view(&id, kMaxIdBytes) || id.empty() || !sink.id(id)) return corrupt("documents: id");
      for (std::size_t f = 0; f < nf; ++f)
        if (!s.varint32(&lens[f])) return corrupt("documents: length");
      std::uint64_t nt;
      if (!s.varint(&nt) || nt > s.left()) return corrupt("documents: term count");
      tt.clear();
      std::vector<std::uint64_t> sums(nf, 0);
      std::uint64_t term = 0;
      for (std::uint64_t j = 0; j < nt; ++j) {
        std::uint64_t dt;
        // dt < terms also keeps `term + dt` from wrapping around to an earlier (repeated) term
        if (!s.varint(&dt) || (j > 0 && dt == 0) || dt >= terms) return corrupt("documents: term order");
        term = j == 0 ? dt : term + dt;
        if (term >= terms) return corrupt("documents: term id out of range");
        Bm25Index::Impl::TermTf e{};
        e.term = static_cast<std::uint32_t>(term);
        std::uint64_t any = 0;
        for (std::size_t f = 0; f < nf; ++f) {
          if (!s.varint32(&e.tf[f])) return corrupt("documents: tf");
          sums[f] += e.tf[f];
          any += e.tf[f];
        }
        if (any == 0) return corrupt("documents: zero tf");
        tt.push_back(e);
      }
      for (std::size_t f = 0; f < nf; ++f)
        if (lens[f] > sums[f]) return corrupt("documents: length exceeds the term counts");
      std::uint64_t nm;
      if (!s.varint(&nm) || nm > s.left()) return corrupt("documents: metadata count");
      std::vector<MetaEntry> me;
      for (std::uint64_t j = 0; j < nm; ++j) {
        MetaEntry e{};
        std::uint32_t key;
        if (!s.varint32(&key) || key >= meta_keys || !s.u8(&e.is_number) || e.is_number > 1) return corrupt("documents: metadata");
        e.key = key;
        if (e.is_number) {
          if (!s.f64(&e.num) || !std::isfinite(e.num)) return corrupt("documents: metadata number");
        } else {
          if (!s.varint32(&e.str) || e.str >= meta_strs) return corrupt("documents: metadata value");
        }
        me.push_back(e);
      }
      sink.doc(id, tt, lens, std::move(me));
    }
    if (!s.done()) return corrupt("documents: trailing bytes");
  }
  return std::nullopt;
}
}  // namespace

Result<Bm25Index> Bm25Index::load(std::string_view bytes) {
  struct Build {
    std::optional<Bm25Index> idx;
    Impl* m = nullptr;
    std::optional<Error> options(const IndexOptions& o) {
      auto created = create(o);
      if (!created.ok()) return created.error();
      idx.emplace(std::move(created).value());
      m = idx->impl_.get();
      return std::nullopt;
    }
    bool term(std::string_view t) {
      if (m->term_id(t) != TermTable::kNone) return false;
      m->intern_term(t);
      return true;
    }
    bool meta_key(std::string_view k) {
      const std::string key(k);
      if (m->meta_key_ids.count(key) != 0) return false;
      m->intern(m->meta_keys, m->meta_key_ids, key);
      return true;
    }
    bool meta_str(std::string_view k) {
      const std::string key(k);
      if (m->meta_str_ids.count(key) != 0) return false;
      m->intern(m->meta_strs, m->meta_str_ids, key);
      return true;
    }
    std::size_t terms() const { return m->terms.size(); }
    std::size_t meta_keys() const { return m->meta_keys.size(); }
    std::size_t meta_strs() const { return m->meta_strs.size(); }
    bool id(std::string_view id) const { return m->id_map.count(std::string(id)) == 0; }
    void doc(std::string_view id, std::vector<Impl::TermTf>& tt, const std::vector<std::uint32_t>& lens, std::vector<MetaEntry>&& me) {
      m->append_doc(std::string(id), tt, lens, std::move(me));
    }
  } sink;
  if (auto e = parse_saved(bytes, sink)) return *e;
  return std::move(*sink.idx);
}

Result<SavedIndexSummary> Bm25Index::check(std::string_view bytes, const std::function<void(std::string_view)>& on_id) {
  // Views into `bytes` for the uniqueness checks; the documents are not kept (their ids go to on_id).
  struct Check {
    const std::function<void(std::string_view)>& on_id;
    SavedIndexSummary out;
    std::unordered_set<std::string_view> terms_, keys_, strs_;
    std::optional<Error> options(const IndexOptions& o) {
      auto created = create(o);  // the same validation as load(); an empty index, freed at once
      if (!created.ok()) return created.error();
      for (const auto& f : o.fields) out.fields.push_back(f.name);
      return std::nullopt;
    }
    bool term(std::string_view t) { return terms_.insert(t).second; }
    bool meta_key(std::string_view k) { return keys_.insert(k).second; }
    bool meta_str(std::string_view k) { return strs_.insert(k).second; }
    std::size_t terms() const { return terms_.size(); }
    std::size_t meta_keys() const { return keys_.size(); }
    std::size_t meta_strs() const { return strs_.size(); }
    bool id(std::string_view id) const {
      on_id(id);
      return true;
    }
    void doc(std::string_view, std::vector<Impl::TermTf>&, const std::vector<std::uint32_t>&, std::vector<MetaEntry>&&) { ++out.documents; }
  } sink{on_id, {}, {}, {}, {}};
  if (auto e = parse_saved(bytes, sink)) return *e;
  return std::move(sink.out);
}

}  // namespace ragwasm::sparse
