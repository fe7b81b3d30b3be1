// BM25 index: RM3 pseudo-relevance feedback (expansion terms from the top documents).
#include "sparse/index_internal.h"

namespace ragwasm::sparse {

Result<std::vector<std::pair<std::uint32_t, double>>> Bm25Index::Impl::rm3_terms(std::string_view text, const SearchOptions& o) {
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
    return ranks_before(a.second, terms[a.first], b.second, terms[b.first]);
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

Result<std::vector<WeightedTerm>> Bm25Index::expand_query(std::string_view query, const SearchOptions& options) {
  auto t = impl_->rm3_terms(query, options);
  if (!t.ok()) return t.error();
  std::vector<WeightedTerm> out;
  for (const auto& [id, w] : t.value()) out.push_back(WeightedTerm{impl_->terms[id], w});
  return out;
}

}  // namespace ragwasm::sparse
