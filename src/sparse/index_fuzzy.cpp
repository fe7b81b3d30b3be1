// BM25 index: typo-tolerant and type-ahead queries (issue 29). Each analyzed query term is expanded over
// the index's own dictionary (TermDictionary: prefix ranges, bounded Levenshtein scans) into weighted
// terms, MiniSearch's definitions and weights (docs/sparse.md, "Prefix and fuzzy"); the weighted query
// runs through the same top-k paths as every search (MaxScore or the oracle), or through the AND scorer
// below. Also per-query field boosts, explain() and suggest().
#include "sparse/index_internal.h"
#include "common/limits.h"

#include <cmath>

namespace ragwasm::sparse {

using internal::kEnd;

namespace {

// Per-query field boosts: multiplies the index's tf weights (not the document lengths, which stay as
// indexed) for the life of the scope, after the norms are computed with the index's own boosts.
class BoostScope {
 public:
  explicit BoostScope(Bm25Index::Impl& m) : m_(m) {}
  Status apply(const std::vector<std::pair<std::string, double>>& boosts) {
    if (boosts.empty()) return Status::success();
    m_.ensure_norms();
    std::vector<double> next;
    for (const auto& f : m_.opt.fields) next.push_back(f.boost);
    for (const auto& [name, b] : boosts) {
      std::size_t i = 0;
      while (i < m_.nf && m_.opt.fields[i].name != name) ++i;
      if (i == m_.nf) {
        std::string known;
        for (const auto& f : m_.opt.fields) known += (known.empty() ? "" : ", ") + f.name;
        return make_error(ErrorCode::kInvalidArgument, "search options.boost: unknown field '" + name + "' (the index has " + known + ")");
      }
      if (!(b >= 0) || !std::isfinite(b)) {
        return make_error(ErrorCode::kInvalidArgument, "search options.boost." + name + ": expected a finite number >= 0");
      }
      next[i] *= b;
    }
    for (std::size_t i = 0; i < m_.nf; ++i) {
      saved_.push_back(m_.opt.fields[i].boost);
      m_.opt.fields[i].boost = next[i];
    }
    return Status::success();
  }
  bool active() const { return !saved_.empty(); }
  ~BoostScope() {
    for (std::size_t i = 0; i < saved_.size(); ++i) m_.opt.fields[i].boost = saved_[i];
  }

 private:
  Bm25Index::Impl& m_;
  std::vector<double> saved_;
};

unsigned fuzzy_distance(double v, std::size_t len, std::size_t max_fuzzy) {
  if (!(v > 0)) return 0;
  if (v < 1) return static_cast<unsigned>(std::min<double>(static_cast<double>(max_fuzzy), std::round(static_cast<double>(len) * v)));
  return static_cast<unsigned>(v);
}

// distinct terms in order of first appearance, weights summed
std::vector<std::pair<std::uint32_t, double>> flatten(const std::vector<Bm25Index::Impl::MatchGroup>& groups) {
  std::vector<std::pair<std::uint32_t, double>> out;
  std::unordered_map<std::uint32_t, std::size_t> at;
  for (const auto& g : groups) {
    for (const auto& e : g.terms) {
      auto it = at.find(e.term);
      if (it == at.end()) {
        at.emplace(e.term, out.size());
        out.emplace_back(e.term, e.weight);
      } else {
        out[it->second].second += e.weight;
      }
    }
  }
  return out;
}

}  // namespace

Result<std::vector<Bm25Index::Impl::MatchGroup>> Bm25Index::Impl::match_groups(std::string_view text, const SearchOptions& o) {
  const auto& x = o.match;
  const auto toks = analyzer.analyze(text);
  if (!x.prefix_terms.empty() && x.prefix_terms.size() != toks.size()) {
    return make_error(ErrorCode::kInvalidArgument, "search options.prefix: expected one flag per analyzed query term (" +
                                                       std::to_string(toks.size()) + "), got " + std::to_string(x.prefix_terms.size()));
  }
  if (!x.fuzzy_terms.empty() && x.fuzzy_terms.size() != toks.size()) {
    return make_error(ErrorCode::kInvalidArgument, "search options.fuzzy: expected one value per analyzed query term (" +
                                                       std::to_string(toks.size()) + "), got " + std::to_string(x.fuzzy_terms.size()));
  }
  if (x.prefix || x.fuzzy > 0 || !x.prefix_terms.empty() || !x.fuzzy_terms.empty()) {
    if (!sorted_terms.built_for(version)) sorted_terms.rebuild(terms, version);
  }
  std::vector<MatchGroup> out;
  for (std::size_t i = 0; i < toks.size(); ++i) {
    const std::string& q = toks[i];
    MatchGroup g;
    g.query = q;
    const std::uint32_t exact = term_id(q);
    if (exact != TermTable::kNone && postings[exact].df > 0) g.terms.push_back(MatchTerm{exact, TermMatch::Kind::kExact, 0, 1.0});
    const bool pre = x.prefix_terms.empty() ? x.prefix : x.prefix_terms[i] != 0;
    const unsigned d = fuzzy_distance(x.fuzzy_terms.empty() ? x.fuzzy : x.fuzzy_terms[i], q.size(), x.max_fuzzy);
    const std::size_t first_prefix = g.terms.size();
    if (pre) {
      sorted_terms.prefix(q, terms, [&](std::uint32_t t) {
        if (t == exact || postings[t].df == 0) return;
        const double len = static_cast<double>(terms[t].size());
        const unsigned dist = static_cast<unsigned>(terms[t].size() - q.size());
        g.terms.push_back(MatchTerm{t, TermMatch::Kind::kPrefix, dist, x.prefix_weight * len / (len + 0.3 * dist)});
      });
    }
    const std::size_t end_prefix = g.terms.size();
    if (d > 0) {
      sorted_terms.fuzzy(q, d, terms, [&](std::uint32_t t, unsigned dist) {
        if (dist == 0 || t == exact || postings[t].df == 0) return;
        // a term that is also a prefix match counts once, as a prefix match (MiniSearch's rule)
        for (std::size_t j = first_prefix; j < end_prefix; ++j)
          if (g.terms[j].term == t) return;
        const double len = static_cast<double>(terms[t].size());
        g.terms.push_back(MatchTerm{t, TermMatch::Kind::kFuzzy, dist, x.fuzzy_weight * len / (len + dist)});
      });
    }
    out.push_back(std::move(g));
  }
  return out;
}

std::vector<Bm25Index::Impl::Cand> Bm25Index::Impl::and_search(const std::vector<MatchGroup>& groups, const std::vector<QTerm>& q,
                                                               std::size_t k, const std::vector<CompiledClause>& f) {
  // a document qualifies when it holds a term of every group (each query term or one of its expansions)
  std::vector<std::uint32_t> cover(doc_ids.size(), 0), stamp(doc_ids.size(), 0);
  for (std::size_t gi = 0; gi < groups.size(); ++gi) {
    for (const auto& e : groups[gi].terms) {
      Cursor c;
      c.open(&postings[e.term], nf);
      for (; c.doc != kEnd; c.next()) {
        if (deleted[c.doc] || stamp[c.doc] == gi + 1) continue;
        stamp[c.doc] = static_cast<std::uint32_t>(gi + 1);
        ++cover[c.doc];
      }
    }
  }
  const std::uint32_t need = static_cast<std::uint32_t>(groups.size());
  // scores summed in query-term order, as the exhaustive oracle does (so AND scores equal OR scores)
  std::vector<double> acc(doc_ids.size(), 0.0);
  std::vector<std::uint32_t> touched;
  for (const auto& qt : q) {
    Cursor c;
    c.open(&postings[qt.term], nf);
    for (; c.doc != kEnd; c.next()) {
      if (deleted[c.doc] || cover[c.doc] != need) continue;
      if (stamp[c.doc] != 0) {
        stamp[c.doc] = 0;  // reused as "seen"
        touched.push_back(c.doc);
      }
      acc[c.doc] += qt.weight * term_score(qt.idf, tfw(c.tf), norm[c.doc]);
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

Result<std::vector<Hit>> Bm25Index::search_expanded(std::string_view query, const SearchOptions& options) {
  RAGWASM_TRY(check_search_k(options.k));
  Impl& m = *impl_;
  if (options.rm3.enabled) {
    return make_error(ErrorCode::kInvalidArgument, "search options.rm3: cannot be combined with prefix, fuzzy, combineWith 'AND' or boost");
  }
  auto groups = m.match_groups(query, options);
  if (!groups.ok()) return groups.error();
  BoostScope scope(m);
  RAGWASM_TRY(scope.apply(options.boost));
  SearchOptions o = options;
  // changed tf weights void the cached MaxScore bounds: score with the oracle (exact, slower)
  if (scope.active()) o.exhaustive = true;
  auto flat = flatten(groups.value());
  if (options.combine == Combine::kOr) return m.search_ids(std::move(flat), o);
  // AND: every group needs a match; search_ids' checks and setup, then the AND scorer
  for (const auto& g : groups.value())
    if (g.terms.empty()) return std::vector<Hit>{};
  if (groups.value().empty() || m.live == 0) return std::vector<Hit>{};
  for (const auto& c : o.filter) {
    if (c.kind == FilterClause::Kind::kRange && (std::isnan(c.lo) || std::isnan(c.hi))) {
      return make_error(ErrorCode::kInvalidArgument, "search filter '" + c.key + "': range bounds must be numbers, got NaN");
    }
  }
  m.ensure_norms();
  std::vector<Impl::QTerm> q;
  for (const auto& [t, w] : flat) {
    if (m.postings[t].df == 0 || !(w > 0)) continue;
    q.push_back(Impl::QTerm{t, w, m.idf(m.scored_df(t)), 0});
  }
  auto c = m.and_search(groups.value(), q, o.k, m.compile(o.filter));
  return m.finish(c);
}

Result<std::vector<std::vector<TermMatch>>> Bm25Index::explain(std::string_view query, const SearchOptions& options,
                                                               const std::vector<Hit>& hits) {
  Impl& m = *impl_;
  auto groups = m.match_groups(query, options);
  if (!groups.ok()) return groups.error();
  BoostScope scope(m);
  RAGWASM_TRY(scope.apply(options.boost));
  m.ensure_norms();
  std::vector<std::vector<TermMatch>> out;
  std::unordered_map<std::uint32_t, double> tfw_of;
  for (const auto& h : hits) {
    std::vector<TermMatch> row;
    auto it = m.id_map.find(h.id);
    if (it == m.id_map.end()) {
      out.push_back(std::move(row));
      continue;
    }
    const std::uint32_t d = it->second;
    tfw_of.clear();
    m.decode_forward(d, [&](std::uint32_t t, const std::uint32_t* tf) { tfw_of[t] = m.tfw(tf); });
    for (const auto& g : groups.value()) {
      for (const auto& e : g.terms) {
        auto f = tfw_of.find(e.term);
        if (f == tfw_of.end()) continue;
        const double s = e.weight * m.term_score(m.idf(m.scored_df(e.term)), f->second, m.norm[d]);
        row.push_back(TermMatch{g.query, m.terms[e.term], e.kind, e.distance, e.weight, s});
      }
    }
    out.push_back(std::move(row));
  }
  return out;
}

Result<std::vector<Completion>> Bm25Index::suggest(std::string_view prefix, std::size_t k) {
  RAGWASM_TRY(check_search_k(k));
  Impl& m = *impl_;
  const auto toks = m.analyzer.analyze(prefix);
  if (toks.empty()) return std::vector<Completion>{};
  if (!m.sorted_terms.built_for(m.version)) m.sorted_terms.rebuild(m.terms, m.version);
  std::vector<std::uint32_t> ids;
  m.sorted_terms.prefix(toks.back(), m.terms, [&](std::uint32_t t) {
    if (m.postings[t].df > 0) ids.push_back(t);
  });
  const auto before = [&](std::uint32_t a, std::uint32_t b) {
    return ranks_before(static_cast<double>(m.postings[a].df), m.terms[a], static_cast<double>(m.postings[b].df), m.terms[b]);
  };
  const std::size_t kk = std::min(k, ids.size());
  std::partial_sort(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(kk), ids.end(), before);
  std::vector<Completion> out;
  for (std::size_t i = 0; i < kk; ++i) out.push_back(Completion{m.terms[ids[i]], m.postings[ids[i]].df});
  return out;
}

}  // namespace ragwasm::sparse
