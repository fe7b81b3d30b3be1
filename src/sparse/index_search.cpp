// BM25 index: norms, per-term score bounds, the exhaustive oracle and the MaxScore top-k, search entry points.
#include "sparse/index_internal.h"
#include "common/limits.h"

#include <numeric>

namespace ragwasm::sparse {

using internal::kEnd;

void Bm25Index::Impl::ensure_norms() {
  if (norm_version == version) return;
  norm.assign(doc_ids.size(), 1.0);
  double total = 0;
  for (std::size_t f = 0; f < nf; ++f) total += opt.fields[f].boost * static_cast<double>(scored_len(f));
  const double n_docs = scored_docs();
  avgdl = n_docs > 0 ? total / n_docs : 0;
  const double b = opt.scoring.b;
  for (std::size_t d = 0; d < doc_ids.size(); ++d) {
    double dl = 0;
    for (std::size_t f = 0; f < nf; ++f) dl += opt.fields[f].boost * static_cast<double>(doc_len[d * nf + f]);
    norm[d] = avgdl > 0 ? 1.0 - b + b * dl / avgdl : 1.0;
  }
  norm_version = version;
}

double Bm25Index::Impl::term_max(std::uint32_t t, double idf_t) {
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

std::vector<Hit> Bm25Index::Impl::finish(std::vector<Cand>& c) const {
  std::sort(c.begin(), c.end(), [&](const Cand& a, const Cand& b) { return better(a, b); });
  std::vector<Hit> out;
  out.reserve(c.size());
  for (const auto& x : c) out.push_back(Hit{doc_ids[x.doc], x.score});
  return out;
}

std::vector<Bm25Index::Impl::Cand> Bm25Index::Impl::exhaustive(const std::vector<QTerm>& q, std::size_t k, const std::vector<CompiledClause>& f) {
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

std::vector<Bm25Index::Impl::Cand> Bm25Index::Impl::maxscore(const std::vector<QTerm>& q, std::size_t k, const std::vector<CompiledClause>& f) {
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

Result<std::vector<Hit>> Bm25Index::Impl::search_ids(std::vector<std::pair<std::uint32_t, double>> terms, const SearchOptions& o) {
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
    QTerm qt{t, w, idf(scored_df(t)), 0};
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

std::vector<std::pair<std::uint32_t, double>> Bm25Index::Impl::query_terms(std::string_view text) const {
  std::vector<std::pair<std::uint32_t, double>> out;
  for (const auto& tok : analyzer.analyze(text)) {
    const std::uint32_t id = term_id(tok);
    if (id == TermTable::kNone) continue;
    bool found = false;
    for (auto& e : out) {
      if (e.first == id) {
        e.second += 1;
        found = true;
        break;
      }
    }
    if (!found) out.emplace_back(id, 1.0);
  }
  return out;
}


Result<std::vector<Hit>> Bm25Index::search(std::string_view query, const SearchOptions& options) {
  RAGWASM_TRY(check_search_k(options.k));
  if (options.expansion.enabled) {
    if (options.matching()) {
      return make_error(ErrorCode::kInvalidArgument, "search options: expansion does not combine with prefix, fuzzy, combineWith or boost");
    }
    auto e = impl_->expansion(query, options);
    if (!e.ok()) return e.error();
    // The query's own terms (weight = count), then the expansion terms in their order (distinct
    // from the own terms and from each other, so no weight is merged).
    auto q = impl_->query_terms(query);
    for (const ExpansionTerm& t : e.value()) q.emplace_back(impl_->term_id(t.term), t.weight);
    return impl_->search_ids(std::move(q), options);
  }
  if (options.matching()) return search_expanded(query, options);  // index_fuzzy.cpp
  if (options.rm3.enabled) {
    auto t = impl_->rm3_terms(query, options);
    if (!t.ok()) return t.error();
    return impl_->search_ids(std::move(t).value(), options);
  }
  return impl_->search_ids(impl_->query_terms(query), options);
}

Result<std::vector<Hit>> Bm25Index::search_terms(const std::vector<WeightedTerm>& terms, const SearchOptions& options) {
  RAGWASM_TRY(check_search_k(options.k));
  std::vector<std::pair<std::uint32_t, double>> q;
  for (const auto& wt : terms) {
    if (!(wt.weight >= 0) || !std::isfinite(wt.weight)) {
      return make_error(ErrorCode::kInvalidArgument, "query term '" + wt.term + "' weight: expected a finite number >= 0");
    }
    const std::uint32_t id = impl_->term_id(wt.term);
    if (id == TermTable::kNone) continue;
    bool found = false;
    for (auto& e : q)
      if (e.first == id) {
        e.second += wt.weight;
        found = true;
      }
    if (!found) q.emplace_back(id, wt.weight);
  }
  return impl_->search_ids(std::move(q), options);
}

Result<std::vector<Hit>> Bm25Index::term_hits(std::string_view term) {
  const std::uint32_t id = impl_->term_id(term);
  if (id == TermTable::kNone) return std::vector<Hit>{};
  SearchOptions o;
  o.k = document_frequency(term);  // every live document holding it: not bound by the search k limit
  return impl_->search_ids({{id, 1.0}}, o);
}

}  // namespace ragwasm::sparse
