#include "sparse/index.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include "common/check.h"
#include "sparse/codec.h"
#include "sparse/word_cache.h"
#include "text/utf8.h"

namespace ragwasm::sparse {
namespace {

constexpr std::uint32_t kEnd = 0xFFFFFFFFu;
constexpr std::uint32_t kBlock = 128;  // postings per skip entry
constexpr std::size_t kMaxDocs = 0x7FFFFFFF;
constexpr std::size_t kMaxK = 1000000;

struct Skip {
  std::uint32_t prev_plus1;  // (doc id + 1) of the posting before the block (0 for the first block)
  std::uint32_t offset;      // byte offset of the block's first posting
};

struct Postings {
  std::vector<std::uint8_t> bytes;  // per posting: varint(doc + 1 - prev_plus1), then one varint tf per field
  std::vector<Skip> skips;
  std::uint32_t count = 0;       // postings stored (deleted documents included until compact())
  std::uint32_t last_plus1 = 0;  // doc + 1 of the last posting
  std::uint32_t df = 0;          // live documents containing the term
};

struct MetaEntry {
  std::uint32_t key;
  std::uint8_t is_number;
  std::uint32_t str;
  double num;
};

struct Cursor {
  const Postings* pl = nullptr;
  const std::uint8_t* p = nullptr;
  const std::uint8_t* end = nullptr;
  std::uint32_t prev_plus1 = 0;
  std::size_t block = 0;  // index of the skip entry of the current block
  std::size_t nf = 1;
  std::uint32_t doc = kEnd;
  std::uint32_t tf[kMaxFields] = {};

  void open(const Postings* postings, std::size_t fields) {
    pl = postings;
    p = pl->bytes.data();
    end = p + pl->bytes.size();
    prev_plus1 = 0;
    block = 0;
    nf = fields;
    next();
  }
  void next() {
    if (p == end) {
      doc = kEnd;
      return;
    }
    prev_plus1 += codec::get_varint32(p);
    doc = prev_plus1 - 1;
    for (std::size_t f = 0; f < nf; ++f) tf[f] = codec::get_varint32(p);
  }
  void seek(std::uint32_t target) {
    if (doc >= target) return;
    const auto& sk = pl->skips;
    std::size_t b = block;
    while (b + 1 < sk.size() && sk[b + 1].prev_plus1 <= target) ++b;
    if (b != block) {
      block = b;
      const std::uint8_t* q = pl->bytes.data() + sk[b].offset;
      if (q > p) {
        p = q;
        prev_plus1 = sk[b].prev_plus1;
        next();
      }
    }
    while (doc < target) {
      next();
      // keep `block` in step with the position for later seeks
      while (block + 1 < sk.size() && pl->bytes.data() + sk[block + 1].offset <= p) ++block;
    }
  }
};

Error corrupt(const std::string& what) {
  return make_error(ErrorCode::kCorruptIndex, "bytes: not a valid saved Bm25Index (" + what + ")");
}

}  // namespace

const char* scorer_name(Scorer s) {
  switch (s) {
    case Scorer::kLucene: return "lucene";
    case Scorer::kRobertson: return "robertson";
    case Scorer::kAtire: return "atire";
    case Scorer::kBm25L: return "bm25l";
    case Scorer::kBm25Plus: return "bm25plus";
  }
  return "lucene";
}

struct Bm25Index::Impl {
  IndexOptions opt;
  Analyzer analyzer;
  std::size_t nf = 1;
  double delta = 0;

  std::vector<std::string> terms;
  std::unordered_map<std::string, std::uint32_t> term_ids;
  std::vector<Postings> postings;

  std::vector<std::string> doc_ids;
  std::vector<std::uint32_t> doc_len;  // nf per document
  std::vector<std::uint8_t> deleted;
  std::vector<std::string> forward;    // varint count, then per term: varint term delta, nf varint tf
  std::vector<std::vector<MetaEntry>> meta;
  std::unordered_map<std::string, std::uint32_t> id_map;  // live documents only

  std::vector<std::string> meta_keys;
  std::unordered_map<std::string, std::uint32_t> meta_key_ids;
  std::vector<std::string> meta_strs;
  std::unordered_map<std::string, std::uint32_t> meta_str_ids;

  std::size_t live = 0;
  std::vector<std::uint64_t> total_len;  // per field, over live documents
  std::uint64_t version = 1;

  // caches, valid while *_version == version
  std::uint64_t norm_version = 0;
  std::vector<double> norm;  // 1 - b + b * dl / avgdl
  double avgdl = 0;
  std::vector<double> max_score;
  std::vector<std::uint64_t> max_version;

  // raw word -> term id (-1: dropped by the analyzer); rebuilt lazily
  WordCache word_cache;
  std::vector<RawToken> raw_tokens;
  std::string scratch, normalized;
  std::vector<std::uint32_t> slot_stamp, slot_index;
  std::uint32_t stamp_now = 0;

  explicit Impl(Analyzer a) : analyzer(std::move(a)) {}

  // ---- documents ----
  std::uint32_t intern_term(const std::string& t) {
    auto it = term_ids.find(t);
    if (it != term_ids.end()) return it->second;
    const auto id = static_cast<std::uint32_t>(terms.size());
    terms.push_back(t);
    term_ids.emplace(t, id);
    postings.emplace_back();
    max_score.push_back(0);
    max_version.push_back(0);
    return id;
  }

  std::uint32_t intern(std::vector<std::string>& names, std::unordered_map<std::string, std::uint32_t>& ids,
                       const std::string& s) {
    auto it = ids.find(s);
    if (it != ids.end()) return it->second;
    const auto id = static_cast<std::uint32_t>(names.size());
    names.push_back(s);
    ids.emplace(s, id);
    return id;
  }

  // term id -> tf per field, sorted by term id
  struct TermTf {
    std::uint32_t term;
    std::uint32_t tf[kMaxFields];
  };

  void append_postings(std::uint32_t doc, const std::vector<TermTf>& tt) {
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

  std::string encode_forward(const std::vector<TermTf>& tt) const {
    std::string out;
    codec::put_varint(out, tt.size());
    std::uint32_t prev = 0;
    for (std::size_t i = 0; i < tt.size(); ++i) {
      codec::put_varint(out, i == 0 ? tt[i].term : tt[i].term - prev);
      prev = tt[i].term;
      for (std::size_t f = 0; f < nf; ++f) codec::put_varint(out, tt[i].tf[f]);
    }
    return out;
  }

  template <class F>
  void decode_forward(std::uint32_t d, F&& f) const {
    const auto* p = reinterpret_cast<const std::uint8_t*>(forward[d].data());
    const std::uint32_t n = codec::get_varint32(p);
    std::uint32_t term = 0;
    std::uint32_t tf[kMaxFields];
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::uint32_t delta = codec::get_varint32(p);
      term = i == 0 ? delta : term + delta;
      for (std::size_t k = 0; k < nf; ++k) tf[k] = codec::get_varint32(p);
      f(term, static_cast<const std::uint32_t*>(tf));
    }
  }

  // Appends one document from its term table (used by add, compact and load).
  void append_doc(const std::string& id, std::vector<TermTf>& tt, const std::vector<std::uint32_t>& lens,
                  std::vector<MetaEntry> m) {
    const auto d = static_cast<std::uint32_t>(doc_ids.size());
    std::sort(tt.begin(), tt.end(), [](const TermTf& a, const TermTf& b) { return a.term < b.term; });
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

  Status validate(const Document& doc, bool allow_existing) const {
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

  Status add(const Document& doc) {
    RAGWASM_TRY(validate(doc, false));
    std::vector<std::uint32_t> lens(nf, 0);
    // term -> slot in tt for this document, via a stamp array (no per-document sort of occurrences)
    ++stamp_now;
    std::vector<TermTf> tt;
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
        std::int32_t id;
        if (rt.kind == RawToken::Kind::kWord) {
          const std::uint32_t h = WordCache::hash(rt.text);
          id = word_cache.find(rt.text, h);
          if (id == WordCache::kMissing) {
            id = analyzer.normalize(rt.text, &normalized) ? static_cast<std::int32_t>(intern_term(normalized)) : -1;
            word_cache.insert(rt.text, h, id);
          }
          if (id < 0) continue;
        } else {
          id = static_cast<std::int32_t>(intern_term(std::string(rt.text)));
        }
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
    append_doc(doc.id, tt, lens, std::move(m));
    return Status::success();
  }

  Status remove(std::string_view id) {
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

  // Rebuilds everything from the live documents; terms no live document uses are dropped.
  void compact() {
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
  Impl& operator=(Impl&&) = default;
  Impl(Impl&&) = default;
  Impl(const Impl&) = delete;

  // ---- scoring ----
  void ensure_norms() {
    if (norm_version == version) return;
    norm.assign(doc_ids.size(), 1.0);
    double total = 0;
    for (std::size_t f = 0; f < nf; ++f) total += opt.fields[f].boost * static_cast<double>(total_len[f]);
    avgdl = live > 0 ? total / static_cast<double>(live) : 0;
    const double b = opt.scoring.b;
    for (std::size_t d = 0; d < doc_ids.size(); ++d) {
      double dl = 0;
      for (std::size_t f = 0; f < nf; ++f) dl += opt.fields[f].boost * static_cast<double>(doc_len[d * nf + f]);
      norm[d] = avgdl > 0 ? 1.0 - b + b * dl / avgdl : 1.0;
    }
    norm_version = version;
  }

  double idf(std::uint32_t df) const {
    const double N = static_cast<double>(live);
    const double n = static_cast<double>(df);
    switch (opt.scoring.scorer) {
      case Scorer::kLucene: return std::log(1.0 + (N - n + 0.5) / (n + 0.5));
      case Scorer::kRobertson: return std::log((N - n + 0.5) / (n + 0.5));
      case Scorer::kAtire: return std::log(N / n);
      case Scorer::kBm25L: return std::log((N + 1.0) / (n + 0.5));
      case Scorer::kBm25Plus: return std::log((N + 1.0) / n);
    }
    return 0;
  }

  double tfw(const std::uint32_t* tf) const {
    double s = 0;
    for (std::size_t f = 0; f < nf; ++f) s += opt.fields[f].boost * static_cast<double>(tf[f]);
    return s;
  }

  double term_score(double idf_t, double tf, double nrm) const {
    const double k1 = opt.scoring.k1;
    switch (opt.scoring.scorer) {
      case Scorer::kLucene: return idf_t * tf / (tf + k1 * nrm);
      case Scorer::kRobertson:
      case Scorer::kAtire: return idf_t * (k1 + 1.0) * tf / (tf + k1 * nrm);
      case Scorer::kBm25L: {
        const double c = tf / nrm;
        return idf_t * (k1 + 1.0) * (c + delta) / (k1 + c + delta);
      }
      case Scorer::kBm25Plus: return idf_t * ((k1 + 1.0) * tf / (k1 * nrm + tf) + delta);
    }
    return 0;
  }

  double term_max(std::uint32_t t, double idf_t) {
    if (max_version[t] == version) return max_score[t];
    Cursor c;
    c.open(&postings[t], nf);
    double m = -std::numeric_limits<double>::infinity();
    for (; c.doc != kEnd; c.next()) {
      if (deleted[c.doc]) continue;
      m = std::max(m, term_score(idf_t, tfw(c.tf), norm[c.doc]));
    }
    max_score[t] = m;
    max_version[t] = version;
    return m;
  }

  // ---- filters ----
  struct CompiledClause {
    std::uint32_t key = kEnd;  // kEnd: unknown key, nothing matches
    bool range = false;
    std::vector<std::uint32_t> strs;
    std::vector<double> nums;
    double lo, hi;
    bool lo_open, hi_open;
  };

  std::vector<CompiledClause> compile(const std::vector<FilterClause>& clauses) const {
    std::vector<CompiledClause> out;
    for (const auto& c : clauses) {
      CompiledClause cc;
      auto it = meta_key_ids.find(c.key);
      cc.key = it == meta_key_ids.end() ? kEnd : it->second;
      cc.range = c.kind == FilterClause::Kind::kRange;
      for (const auto& s : c.strings) {
        auto si = meta_str_ids.find(s);
        if (si != meta_str_ids.end()) cc.strs.push_back(si->second);
      }
      cc.nums = c.numbers;
      cc.lo = c.lo;
      cc.hi = c.hi;
      cc.lo_open = c.lo_open;
      cc.hi_open = c.hi_open;
      out.push_back(std::move(cc));
    }
    return out;
  }

  bool passes(std::uint32_t d, const std::vector<CompiledClause>& f) const {
    for (const auto& c : f) {
      if (c.key == kEnd) return false;
      bool ok = false;
      for (const auto& e : meta[d]) {
        if (e.key != c.key) continue;
        if (c.range) {
          if (!e.is_number) continue;
          const bool above = c.lo_open ? e.num > c.lo : e.num >= c.lo;
          const bool below = c.hi_open ? e.num < c.hi : e.num <= c.hi;
          ok = above && below;
        } else if (e.is_number) {
          ok = std::find(c.nums.begin(), c.nums.end(), e.num) != c.nums.end();
        } else {
          ok = std::find(c.strs.begin(), c.strs.end(), e.str) != c.strs.end();
        }
        if (ok) break;
      }
      if (!ok) return false;
    }
    return true;
  }

  // ---- top-k ----
  struct QTerm {
    std::uint32_t term;
    double weight;
    double idf;
    double ub;  // weight * max(0, max term score)
  };

  struct Cand {
    double score;
    std::uint32_t doc;
  };

  bool better(const Cand& a, const Cand& b) const {
    if (a.score != b.score) return a.score > b.score;
    return doc_ids[a.doc] < doc_ids[b.doc];
  }

  std::vector<Hit> finish(std::vector<Cand>& c) const {
    std::sort(c.begin(), c.end(), [&](const Cand& a, const Cand& b) { return better(a, b); });
    std::vector<Hit> out;
    out.reserve(c.size());
    for (const auto& x : c) out.push_back(Hit{doc_ids[x.doc], x.score});
    return out;
  }

  std::vector<Cand> exhaustive(const std::vector<QTerm>& q, std::size_t k, const std::vector<CompiledClause>& f) {
    std::vector<double> acc(doc_ids.size(), 0.0);
    std::vector<std::uint8_t> seen(doc_ids.size(), 0);
    std::vector<std::uint32_t> touched;
    for (const auto& qt : q) {
      Cursor c;
      c.open(&postings[qt.term], nf);
      for (; c.doc != kEnd; c.next()) {
        if (deleted[c.doc]) continue;
        const double s = qt.weight * term_score(qt.idf, tfw(c.tf), norm[c.doc]);
        if (!seen[c.doc]) {
          seen[c.doc] = 1;
          touched.push_back(c.doc);
        }
        acc[c.doc] += s;
      }
    }
    std::vector<Cand> cands;
    for (auto d : touched)
      if (f.empty() || passes(d, f)) cands.push_back(Cand{acc[d], d});
    const std::size_t kk = std::min(k, cands.size());
    std::partial_sort(cands.begin(), cands.begin() + static_cast<std::ptrdiff_t>(kk), cands.end(),
                      [&](const Cand& a, const Cand& b) { return better(a, b); });
    cands.resize(kk);
    return cands;
  }

  static double hi(double bound) { return bound + std::fabs(bound) * 1e-9 + 1e-300; }

  std::vector<Cand> maxscore(const std::vector<QTerm>& q, std::size_t k, const std::vector<CompiledClause>& f) {
    const std::size_t m = q.size();
    std::vector<Cursor> cur(m);
    for (std::size_t i = 0; i < m; ++i) cur[i].open(&postings[q[i].term], nf);
    std::vector<std::size_t> ord(m);
    std::iota(ord.begin(), ord.end(), 0);
    std::stable_sort(ord.begin(), ord.end(), [&](std::size_t a, std::size_t b) { return q[a].ub < q[b].ub; });
    std::vector<double> cum(m);
    double run = 0;
    for (std::size_t i = 0; i < m; ++i) cum[i] = run += q[ord[i]].ub;
    std::vector<double> c(m, 0.0);
    std::vector<Cand> heap;
    heap.reserve(k + 1);
    auto cmp = [&](const Cand& a, const Cand& b) { return better(a, b); };  // top = worst kept
    std::size_t ne = 0;
    double theta = -std::numeric_limits<double>::infinity();
    bool full = false;
    for (;;) {
      std::uint32_t d = kEnd;
      for (std::size_t i = ne; i < m; ++i) d = std::min(d, cur[ord[i]].doc);
      if (d == kEnd) break;
      const bool skip = deleted[d] || (!f.empty() && !passes(d, f));
      double partial = 0;
      for (std::size_t i = ne; i < m; ++i) {
        Cursor& x = cur[ord[i]];
        if (x.doc != d) continue;
        if (!skip) {
          const std::size_t t = ord[i];
          c[t] = q[t].weight * term_score(q[t].idf, tfw(x.tf), norm[d]);
          partial += c[t];
        }
        x.next();
      }
      if (skip) continue;
      double bound = partial + (ne > 0 ? cum[ne - 1] : 0.0);
      bool pruned = false;
      for (std::size_t j = ne; j-- > 0;) {
        if (full && hi(bound) < theta) {
          pruned = true;
          break;
        }
        const std::size_t t = ord[j];
        Cursor& x = cur[t];
        x.seek(d);
        if (x.doc == d) {
          c[t] = q[t].weight * term_score(q[t].idf, tfw(x.tf), norm[d]);
          bound += c[t] - q[t].ub;
        } else {
          bound -= q[t].ub;
        }
      }
      if (!pruned && !(full && hi(bound) < theta)) {
        double score = 0;
        for (std::size_t t = 0; t < m; ++t) score += c[t];
        const Cand cand{score, d};
        if (!full || better(cand, heap.front())) {
          heap.push_back(cand);
          std::push_heap(heap.begin(), heap.end(), cmp);
          if (heap.size() > k) {
            std::pop_heap(heap.begin(), heap.end(), cmp);
            heap.pop_back();
          }
          if (heap.size() == k) {
            full = true;
            theta = heap.front().score;
            while (ne < m && hi(cum[ne]) < theta) ++ne;
            if (ne == m) {
              std::fill(c.begin(), c.end(), 0.0);
              break;
            }
          }
        }
      }
      std::fill(c.begin(), c.end(), 0.0);
    }
    return heap;
  }

  Result<std::vector<Hit>> search_ids(std::vector<std::pair<std::uint32_t, double>> terms, const SearchOptions& o) {
    if (o.k > kMaxK) {
      return make_error(ErrorCode::kInvalidArgument, "search k: expected an integer in [0, 1000000], got " + std::to_string(o.k));
    }
    for (const auto& c : o.filter) {
      if (c.kind == FilterClause::Kind::kRange && (std::isnan(c.lo) || std::isnan(c.hi))) {
        return make_error(ErrorCode::kInvalidArgument, "search filter '" + c.key + "': range bounds must be numbers, got NaN");
      }
    }
    if (o.k == 0 || live == 0 || terms.empty()) return std::vector<Hit>{};
    ensure_norms();
    std::vector<QTerm> q;
    for (const auto& [t, w] : terms) {
      if (postings[t].df == 0 || !(w > 0)) continue;
      QTerm qt{t, w, idf(postings[t].df), 0};
      q.push_back(qt);
    }
    if (q.empty()) return std::vector<Hit>{};
    const auto f = compile(o.filter);
    std::vector<Cand> c;
    if (o.exhaustive) {
      c = exhaustive(q, o.k, f);
    } else {
      for (auto& qt : q) qt.ub = qt.weight * std::max(0.0, term_max(qt.term, qt.idf));
      c = maxscore(q, o.k, f);
    }
    return finish(c);
  }

  // analyzed query -> (term id, count) in order of first appearance; unknown terms dropped
  std::vector<std::pair<std::uint32_t, double>> query_terms(std::string_view text) const {
    std::vector<std::pair<std::uint32_t, double>> out;
    for (const auto& tok : analyzer.analyze(text)) {
      auto it = term_ids.find(tok);
      if (it == term_ids.end()) continue;
      bool found = false;
      for (auto& e : out) {
        if (e.first == it->second) {
          e.second += 1;
          found = true;
          break;
        }
      }
      if (!found) out.emplace_back(it->second, 1.0);
    }
    return out;
  }

  Result<std::vector<std::pair<std::uint32_t, double>>> rm3_terms(std::string_view text, const SearchOptions& o) {
    const auto& r = o.rm3;
    if (r.fb_docs < 1 || r.fb_docs > 1000 || r.fb_terms < 1 || r.fb_terms > 1000 || !(r.original_weight >= 0 && r.original_weight <= 1)) {
      return make_error(ErrorCode::kInvalidArgument, "search rm3: expected fbDocs and fbTerms in [1, 1000] and originalWeight in [0, 1]");
    }
    auto orig = query_terms(text);
    if (orig.empty() || live == 0) return orig;
    SearchOptions first = o;
    first.k = r.fb_docs;
    first.rm3.enabled = false;
    auto hits = search_ids(orig, first);
    if (!hits.ok()) return hits.error();
    std::unordered_map<std::uint32_t, double> rm;
    for (const auto& h : hits.value()) {
      const std::uint32_t d = id_map.at(h.id);
      double dl = 0;
      for (std::size_t f = 0; f < nf; ++f) dl += opt.fields[f].boost * static_cast<double>(doc_len[d * nf + f]);
      if (dl <= 0) continue;
      decode_forward(d, [&](std::uint32_t t, const std::uint32_t* tf) {
        const std::string& s = terms[t];
        if (s.size() < 2 || s.size() > 20) return;
        rm[t] += h.score * tfw(tf) / dl;
      });
    }
    std::vector<std::pair<std::uint32_t, double>> exp(rm.begin(), rm.end());
    std::sort(exp.begin(), exp.end(), [&](const auto& a, const auto& b) {
      if (a.second != b.second) return a.second > b.second;
      return terms[a.first] < terms[b.first];
    });
    if (exp.size() > r.fb_terms) exp.resize(r.fb_terms);
    double es = 0, os = 0;
    for (const auto& e : exp) es += e.second;
    for (const auto& e : orig) os += e.second;
    std::vector<std::pair<std::uint32_t, double>> out;
    const double ow = es > 0 ? r.original_weight : 1.0;  // nothing to expand with: the query alone
    for (const auto& e : orig) out.emplace_back(e.first, ow * e.second / os);
    for (const auto& e : exp) {
      const double w = es > 0 ? (1.0 - r.original_weight) * e.second / es : 0.0;
      bool found = false;
      for (auto& x : out) {
        if (x.first == e.first) {
          x.second += w;
          found = true;
          break;
        }
      }
      if (!found) out.emplace_back(e.first, w);
    }
    return out;
  }
};

// ---------------------------------------------------------------------------------------------

Bm25Index::Bm25Index(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Bm25Index::Bm25Index(Bm25Index&&) noexcept = default;
Bm25Index& Bm25Index::operator=(Bm25Index&&) noexcept = default;
Bm25Index::~Bm25Index() = default;

namespace {
Status validate_options(const IndexOptions& o) {
  if (o.fields.empty() || o.fields.size() > kMaxFields) {
    return make_error(ErrorCode::kInvalidArgument, "index fields: expected 1 to 16 fields, got " + std::to_string(o.fields.size()));
  }
  for (std::size_t i = 0; i < o.fields.size(); ++i) {
    const auto& f = o.fields[i];
    if (f.name.empty() || f.name.size() > 256) {
      return make_error(ErrorCode::kInvalidArgument, "index fields[" + std::to_string(i) + "].name: expected 1 to 256 bytes");
    }
    if (!(f.boost > 0) || !std::isfinite(f.boost) || f.boost > 1e6) {
      return make_error(ErrorCode::kInvalidArgument, "index fields[" + std::to_string(i) + "].boost: expected a number in (0, 1e6], got " + std::to_string(f.boost));
    }
    for (std::size_t j = 0; j < i; ++j)
      if (o.fields[j].name == f.name) return make_error(ErrorCode::kInvalidArgument, "index fields: duplicate field name '" + f.name + "'");
  }
  const auto& s = o.scoring;
  if (!(s.k1 >= 0 && s.k1 <= 100)) return make_error(ErrorCode::kInvalidArgument, "index k1: expected a number in [0, 100], got " + std::to_string(s.k1));
  if (!(s.b >= 0 && s.b <= 1)) return make_error(ErrorCode::kInvalidArgument, "index b: expected a number in [0, 1], got " + std::to_string(s.b));
  if (std::isnan(s.delta) || s.delta > 100) return make_error(ErrorCode::kInvalidArgument, "index delta: expected a number in [0, 100]");
  return Status::success();
}
}  // namespace

Result<Bm25Index> Bm25Index::create(const IndexOptions& options) {
  RAGWASM_TRY(validate_options(options));
  auto a = Analyzer::create(options.analyzer);
  if (!a.ok()) return a.error();
  auto impl = std::make_unique<Impl>(std::move(a).value());
  impl->opt = options;
  impl->nf = options.fields.size();
  impl->total_len.assign(impl->nf, 0);
  const auto& s = options.scoring;
  impl->delta = s.delta >= 0 ? s.delta : (s.scorer == Scorer::kBm25L ? 0.5 : (s.scorer == Scorer::kBm25Plus ? 1.0 : 0.0));
  return Bm25Index(std::move(impl));
}

const IndexOptions& Bm25Index::options() const { return impl_->opt; }
Status Bm25Index::add(const Document& doc) { return impl_->add(doc); }
Status Bm25Index::upsert(const Document& doc) {
  // validate first so that a bad replacement leaves the old document in place
  RAGWASM_TRY(impl_->validate(doc, true));
  if (impl_->id_map.count(doc.id) != 0) RAGWASM_TRY(impl_->remove(doc.id));
  return impl_->add(doc);
}
Status Bm25Index::remove(std::string_view id) { return impl_->remove(id); }
bool Bm25Index::contains(std::string_view id) const { return impl_->id_map.count(std::string(id)) != 0; }
void Bm25Index::compact() { impl_->compact(); }

Result<std::vector<Hit>> Bm25Index::search(std::string_view query, const SearchOptions& options) {
  if (options.rm3.enabled) {
    auto t = impl_->rm3_terms(query, options);
    if (!t.ok()) return t.error();
    return impl_->search_ids(std::move(t).value(), options);
  }
  return impl_->search_ids(impl_->query_terms(query), options);
}

Result<std::vector<Hit>> Bm25Index::search_terms(const std::vector<WeightedTerm>& terms, const SearchOptions& options) {
  std::vector<std::pair<std::uint32_t, double>> q;
  for (const auto& wt : terms) {
    if (!(wt.weight >= 0) || !std::isfinite(wt.weight)) {
      return make_error(ErrorCode::kInvalidArgument, "query term '" + wt.term + "' weight: expected a finite number >= 0");
    }
    auto it = impl_->term_ids.find(wt.term);
    if (it == impl_->term_ids.end()) continue;
    bool found = false;
    for (auto& e : q)
      if (e.first == it->second) {
        e.second += wt.weight;
        found = true;
      }
    if (!found) q.emplace_back(it->second, wt.weight);
  }
  return impl_->search_ids(std::move(q), options);
}

Result<std::vector<WeightedTerm>> Bm25Index::expand_query(std::string_view query, const SearchOptions& options) {
  auto t = impl_->rm3_terms(query, options);
  if (!t.ok()) return t.error();
  std::vector<WeightedTerm> out;
  for (const auto& [id, w] : t.value()) out.push_back(WeightedTerm{impl_->terms[id], w});
  return out;
}

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
  for (const auto& t : m.terms) mem += sizeof(std::string) + (t.size() > 15 ? t.capacity() : 0) + 48;  // + hash node
  for (const auto& f : m.forward) mem += sizeof(std::string) + (f.size() > 15 ? f.capacity() : 0);
  for (const auto& id : m.doc_ids) mem += 2 * sizeof(std::string) + (id.size() > 15 ? 2 * id.capacity() : 0) + 48;
  for (const auto& me : m.meta) mem += sizeof(me) + me.capacity() * sizeof(MetaEntry);
  mem += m.doc_len.capacity() * 4 + m.deleted.capacity() + m.norm.capacity() * 8 + m.max_score.capacity() * 16;
  s.postings_bytes = bytes;
  s.memory_bytes = mem;
  return s;
}

std::size_t Bm25Index::document_frequency(std::string_view term) const {
  auto it = impl_->term_ids.find(std::string(term));
  return it == impl_->term_ids.end() ? 0 : impl_->postings[it->second].df;
}

std::vector<std::string> Bm25Index::ids() const {
  std::vector<std::string> out;
  for (std::size_t d = 0; d < impl_->doc_ids.size(); ++d)
    if (!impl_->deleted[d]) out.push_back(impl_->doc_ids[d]);
  return out;
}

std::vector<std::string> Bm25Index::terms() const { return impl_->terms; }

// ---- persistence ----------------------------------------------------------------------------
// Layout: "RWSPARSE" | u32 version | u32 section count | sections (u32 tag, u64 length, payload) |
// u64 FNV-1a-64 of every byte before it (basis kSparseChecksumBasis, src/common/hash.h). Integers little-endian. Only live documents are written.
namespace {
constexpr char kMagic[8] = {'R', 'W', 'S', 'P', 'A', 'R', 'S', 'E'};
constexpr std::uint32_t kVersion = 1;
enum : std::uint32_t { kSecOptions = 1, kSecTerms = 2, kSecMeta = 3, kSecDocs = 4 };
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
  codec::Writer opt;
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

  codec::Writer terms;
  terms.varint(kept.size());
  for (auto t : kept) terms.str(m.terms[t]);

  codec::Writer meta;
  meta.varint(m.meta_keys.size());
  for (const auto& k : m.meta_keys) meta.str(k);
  meta.varint(m.meta_strs.size());
  for (const auto& s : m.meta_strs) meta.str(s);

  codec::Writer docs;
  docs.varint(m.live);
  for (std::uint32_t d = 0; d < m.doc_ids.size(); ++d) {
    if (m.deleted[d]) continue;
    docs.str(m.doc_ids[d]);
    for (std::size_t f = 0; f < m.nf; ++f) docs.varint(m.doc_len[d * m.nf + f]);
    std::vector<std::pair<std::uint32_t, std::vector<std::uint32_t>>> tt;
    m.decode_forward(d, [&](std::uint32_t t, const std::uint32_t* tf) { tt.emplace_back(remap[t], std::vector<std::uint32_t>(tf, tf + m.nf)); });
    docs.varint(tt.size());
    std::uint32_t prev = 0;
    for (std::size_t i = 0; i < tt.size(); ++i) {
      docs.varint(i == 0 ? tt[i].first : tt[i].first - prev);
      prev = tt[i].first;
      for (auto x : tt[i].second) docs.varint(x);
    }
    docs.varint(m.meta[d].size());
    for (const auto& e : m.meta[d]) {
      docs.varint(e.key);
      docs.u8(e.is_number);
      if (e.is_number) docs.f64(e.num);
      else docs.varint(e.str);
    }
  }

  codec::Writer out;
  for (char c : kMagic) out.u8(static_cast<std::uint8_t>(c));
  out.u32(kVersion);
  out.u32(4);
  auto section = [&](std::uint32_t tag, codec::Writer& w) {
    out.u32(tag);
    out.u64(w.bytes().size());
    out.bytes().append(w.bytes());
  };
  section(kSecOptions, opt);
  section(kSecTerms, terms);
  section(kSecMeta, meta);
  section(kSecDocs, docs);
  const std::uint64_t sum = codec::checksum(out.bytes());
  out.u64(sum);
  return std::move(out.bytes());
}

Result<Bm25Index> Bm25Index::load(std::string_view bytes) {
  if (bytes.size() < 8 + 4 + 4 + 8) return corrupt("too short: " + std::to_string(bytes.size()) + " bytes");
  if (bytes.substr(0, 8) != std::string_view(kMagic, 8)) return corrupt("wrong magic; expected a file written by Bm25Index.save()");
  codec::Reader head(bytes.substr(8));
  std::uint32_t version = 0, nsec = 0;
  (void)head.u32(&version);
  if (version != kVersion) {
    return make_error(ErrorCode::kUnsupportedVersion, "bytes: Bm25Index format version " + std::to_string(version) +
                                                          " is not supported (this build reads version " + std::to_string(kVersion) + ")");
  }
  const std::string_view body = bytes.substr(0, bytes.size() - 8);
  codec::Reader tail(bytes.substr(bytes.size() - 8));
  std::uint64_t sum = 0;
  (void)tail.u64(&sum);
  if (codec::checksum(body) != sum) return corrupt("checksum mismatch: the bytes were truncated or changed");
  (void)head.u32(&nsec);
  codec::Reader r(body.substr(16));
  std::string_view sec[5];
  bool have[5] = {false, false, false, false, false};
  for (std::uint32_t i = 0; i < nsec; ++i) {
    std::uint32_t tag;
    std::uint64_t len;
    if (!r.u32(&tag) || !r.u64(&len) || len > r.left()) return corrupt("section header out of bounds");
    const std::size_t start = body.size() - r.left();
    if (tag >= 1 && tag <= 4) {
      if (have[tag]) return corrupt("duplicate section");
      have[tag] = true;
      sec[tag] = body.substr(start, static_cast<std::size_t>(len));
    }
    r.skip(static_cast<std::size_t>(len));
  }
  if (!r.done()) return corrupt("trailing bytes after the sections");
  for (int t = 1; t <= 4; ++t)
    if (!have[t]) return corrupt("missing section " + std::to_string(t));

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
  auto created = create(o);
  if (!created.ok()) return corrupt("options: " + created.error().message);
  Bm25Index idx = std::move(created).value();
  Impl& m = *idx.impl_;
  {
    codec::Reader s(sec[kSecTerms]);
    std::uint64_t n;
    if (!s.varint(&n) || n > s.left()) return corrupt("terms: count");
    for (std::uint64_t i = 0; i < n; ++i) {
      std::string t;
      if (!s.str(&t, 1 << 16)) return corrupt("terms: entry");
      if (m.term_ids.count(t) != 0) return corrupt("terms: duplicate term");
      m.intern_term(t);
    }
    if (!s.done()) return corrupt("terms: trailing bytes");
  }
  {
    codec::Reader s(sec[kSecMeta]);
    std::uint64_t n;
    if (!s.varint(&n) || n > s.left()) return corrupt("metadata keys");
    for (std::uint64_t i = 0; i < n; ++i) {
      std::string k;
      if (!s.str(&k, kMaxIdBytes) || m.meta_key_ids.count(k) != 0) return corrupt("metadata key");
      m.intern(m.meta_keys, m.meta_key_ids, k);
    }
    if (!s.varint(&n) || n > s.left()) return corrupt("metadata values");
    for (std::uint64_t i = 0; i < n; ++i) {
      std::string k;
      if (!s.str(&k, std::size_t{1} << 20) || m.meta_str_ids.count(k) != 0) return corrupt("metadata value");
      m.intern(m.meta_strs, m.meta_str_ids, k);
    }
    if (!s.done()) return corrupt("metadata: trailing bytes");
  }
  {
    codec::Reader s(sec[kSecDocs]);
    std::uint64_t n;
    if (!s.varint(&n) || n > s.left() || n > kMaxDocs) return corrupt("documents: count");
    const std::size_t nf = m.nf;
    std::vector<Impl::TermTf> tt;
    std::vector<std::uint32_t> lens(nf);
    for (std::uint64_t i = 0; i < n; ++i) {
      std::string id;
      if (!s.str(&id, kMaxIdBytes) || id.empty() || m.id_map.count(id) != 0) return corrupt("documents: id");
      for (std::size_t f = 0; f < nf; ++f)
        if (!s.varint32(&lens[f])) return corrupt("documents: length");
      std::uint64_t nt;
      if (!s.varint(&nt) || nt > s.left()) return corrupt("documents: term count");
      tt.clear();
      std::vector<std::uint64_t> sums(nf, 0);
      std::uint64_t term = 0;
      for (std::uint64_t j = 0; j < nt; ++j) {
        std::uint64_t dt;
        // dt < terms.size() also keeps `term + dt` from wrapping around to an earlier (repeated) term
        if (!s.varint(&dt) || (j > 0 && dt == 0) || dt >= m.terms.size()) return corrupt("documents: term order");
        term = j == 0 ? dt : term + dt;
        if (term >= m.terms.size()) return corrupt("documents: term id out of range");
        Impl::TermTf e{};
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
        if (!s.varint32(&key) || key >= m.meta_keys.size() || !s.u8(&e.is_number) || e.is_number > 1) return corrupt("documents: metadata");
        e.key = key;
        if (e.is_number) {
          if (!s.f64(&e.num) || !std::isfinite(e.num)) return corrupt("documents: metadata number");
        } else {
          if (!s.varint32(&e.str) || e.str >= m.meta_strs.size()) return corrupt("documents: metadata value");
        }
        me.push_back(e);
      }
      m.append_doc(id, tt, lens, std::move(me));
    }
    if (!s.done()) return corrupt("documents: trailing bytes");
  }
  return idx;
}

}  // namespace ragwasm::sparse
