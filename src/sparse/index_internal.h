// Internals of the BM25 index shared by its files (one job each):
//   index.cpp          public API (create, forwarding), option validation, scorer names
//   index_postings.cpp term/metadata interning, postings and forward-record encoding, appending a document
//   index_mutation.cpp validating, adding, removing documents and compaction
//   index_filter.cpp   metadata filter compilation and evaluation
//   index_search.cpp   BM25 norms, per-term bounds, the exhaustive oracle and MaxScore top-k, search entry points
//   index_rm3.cpp      RM3 pseudo-relevance feedback
//   index_stats.cpp    statistics, document frequency, ids
//   index_io.cpp       the saved format (save / load)
//   index_global.cpp   collection statistics of a shard and injected collection-wide statistics
//   index_verify.cpp   stored texts checked against the terms the index holds for their ids
// Postings layout: per posting varint(doc + 1 - prev_plus1), then one varint tf per field; a skip entry
// every kBlock postings. Readers of the postings (e.g. impact precomputation) use Cursor below.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/ranking.h"
#include "sparse/analyzer.h"
#include "sparse/codec.h"
#include "sparse/index.h"
#include "sparse/term_dictionary.h"
#include "sparse/term_table.h"
#include "sparse/word_cache.h"

namespace ragwasm::sparse {
namespace internal {

constexpr std::uint32_t kEnd = 0xFFFFFFFFu;
constexpr std::uint32_t kBlock = 128;  // postings per skip entry
constexpr std::size_t kMaxDocs = 0x7FFFFFFF;

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

}  // namespace internal

struct Bm25Index::Impl {
  using Skip = internal::Skip;
  using Postings = internal::Postings;
  using MetaEntry = internal::MetaEntry;
  using Cursor = internal::Cursor;
  static constexpr std::uint32_t kEnd = internal::kEnd;

  IndexOptions opt;
  Analyzer analyzer;
  std::size_t nf = 1;
  double delta = 0;

  std::vector<std::string> terms;
  TermTable term_ids;  // term -> id (keys are `terms`)
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

  // collection-wide statistics injected by set_global_stats(); used while global_version == version
  // (any mutation bumps version, which restores the local statistics)
  std::uint64_t global_version = 0;
  double global_docs = 0;
  std::vector<std::uint64_t> global_len;
  std::vector<std::uint32_t> global_df;
  bool global_on() const { return global_version != 0 && global_version == version; }
  // N and df as scored: the injected collection-wide values when set, else this index's own
  double scored_docs() const { return global_on() ? global_docs : static_cast<double>(live); }
  std::uint32_t scored_df(std::uint32_t t) const { return global_on() ? global_df[t] : postings[t].df; }
  std::uint64_t scored_len(std::size_t f) const { return global_on() ? global_len[f] : total_len[f]; }

  // caches, valid while *_version == version
  std::uint64_t norm_version = 0;
  std::vector<double> norm;  // 1 - b + b * dl / avgdl
  double avgdl = 0;
  std::vector<double> max_score;
  std::vector<std::uint64_t> max_version;

  // the dictionary in byte order for prefix / fuzzy expansion (index_fuzzy.cpp), rebuilt when version moves
  TermDictionary sorted_terms;

  // raw word -> term id (-1: dropped by the analyzer); rebuilt lazily
  WordCache word_cache;
  std::vector<RawToken> raw_tokens;
  std::string scratch, normalized;
  std::vector<std::uint32_t> slot_stamp, slot_index;
  std::uint32_t stamp_now = 0;

  explicit Impl(Analyzer a) : analyzer(std::move(a)) {}

  Impl& operator=(Impl&&) = default;
  Impl(Impl&&) = default;
  Impl(const Impl&) = delete;

  // ---- documents (index_postings.cpp) ----
  std::uint32_t intern_term(std::string_view t);
  std::uint32_t term_id(std::string_view t) const { return term_ids.find(t, terms); }  // or kNone
  std::uint32_t intern(std::vector<std::string>& names, std::unordered_map<std::string, std::uint32_t>& ids,
                       const std::string& s);

  // term id -> tf per field, sorted by term id
  struct TermTf {
    std::uint32_t term;
    std::uint32_t tf[kMaxFields];
  };
  // add()'s per-document scratch (reused: no allocation per document once warm)
  std::vector<TermTf> add_tt, add_sorted;
  std::vector<std::uint32_t> add_lens, add_terms;

  void append_postings(std::uint32_t doc, const std::vector<TermTf>& tt);
  std::string encode_forward(const std::vector<TermTf>& tt) const;

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
                  std::vector<MetaEntry> m);

  // ---- mutation (index_mutation.cpp) ----
  Status validate(const Document& doc, bool allow_existing) const;
  Status add(const Document& doc);
  Status remove(std::string_view id);
  // Rebuilds everything from the live documents; terms no live document uses are dropped.
  void compact();

  // ---- scoring (inline: the top-k loops call these per posting) ----
  void ensure_norms();

  double idf(std::uint32_t df) const {
    const double N = scored_docs();
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

  double term_max(std::uint32_t t, double idf_t);

  // ---- filters (index_filter.cpp) ----
  struct CompiledClause {
    std::uint32_t key = kEnd;  // kEnd: unknown key, nothing matches
    bool range = false;
    std::vector<std::uint32_t> strs;
    std::vector<double> nums;
    double lo, hi;
    bool lo_open, hi_open;
  };

  std::vector<CompiledClause> compile(const std::vector<FilterClause>& clauses) const;
  bool passes(std::uint32_t d, const std::vector<CompiledClause>& f) const;

  // ---- top-k (index_search.cpp) ----
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
    return ranks_before(a.score, doc_ids[a.doc], b.score, doc_ids[b.doc]);
  }

  std::vector<Hit> finish(std::vector<Cand>& c) const;
  std::vector<Cand> exhaustive(const std::vector<QTerm>& q, std::size_t k, const std::vector<CompiledClause>& f);
  static double hi(double bound) { return bound + std::fabs(bound) * 1e-9 + 1e-300; }
  std::vector<Cand> maxscore(const std::vector<QTerm>& q, std::size_t k, const std::vector<CompiledClause>& f);
  Result<std::vector<Hit>> search_ids(std::vector<std::pair<std::uint32_t, double>> terms, const SearchOptions& o);
  // analyzed query -> (term id, count) in order of first appearance; unknown terms dropped
  std::vector<std::pair<std::uint32_t, double>> query_terms(std::string_view text) const;

  // ---- expansion: prefix, fuzzy, AND, per-query field boosts (index_fuzzy.cpp) ----
  struct MatchTerm {
    std::uint32_t term;
    TermMatch::Kind kind;
    unsigned distance;
    double weight;
  };
  struct MatchGroup {
    std::string query;
    std::vector<MatchTerm> terms;
  };
  Result<std::vector<MatchGroup>> match_groups(std::string_view text, const SearchOptions& o);
  std::vector<Cand> and_search(const std::vector<MatchGroup>& groups, const std::vector<QTerm>& q, std::size_t k,
                               const std::vector<CompiledClause>& f);
  // ---- query expansion from word neighbours (index_expansion.cpp) ----
  Result<std::vector<ExpansionTerm>> expansion(std::string_view text, const SearchOptions& o) const;

  // ---- RM3 (index_rm3.cpp) ----
  Result<std::vector<std::pair<std::uint32_t, double>>> rm3_terms(std::string_view text, const SearchOptions& o);
};

}  // namespace ragwasm::sparse
