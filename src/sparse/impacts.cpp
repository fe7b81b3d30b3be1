// BM25 impact table of a built index (see impacts.h): each impact is read back through
// term_hits() (search_terms' scorer, a single term of weight 1), so the table cannot drift from the scorer.
#include "sparse/impacts.h"

#include <algorithm>
#include <utility>

namespace ragwasm::sparse {

ImpactReader::ImpactReader(Bm25Index& index) : index_(&index), terms_(index.terms()), ids_(index.ids()) {
  ordinal_.reserve(ids_.size());
  for (std::size_t i = 0; i < ids_.size(); ++i) ordinal_.emplace(ids_[i], static_cast<std::uint32_t>(i));
}

Result<ImpactBatch> ImpactReader::read(std::size_t first, std::size_t max_terms, std::size_t max_rows) {
  if (first > terms_.size()) {
    return make_error(ErrorCode::kInvalidArgument,
                      "impacts first: expected a term index in [0, " + std::to_string(terms_.size()) + "], got " + std::to_string(first));
  }
  ImpactBatch out;
  out.row_start.push_back(0);
  std::size_t t = first;
  std::vector<std::pair<std::uint32_t, double>> rows;
  for (; t < terms_.size() && out.terms.size() < max_terms && (out.doc.size() < max_rows || out.terms.empty()); ++t) {
    const std::size_t df = index_->document_frequency(terms_[t]);
    if (df == 0) continue;
    auto hits = index_->term_hits(terms_[t]);  // every live document holding the term
    if (!hits.ok()) return hits.error();
    rows.clear();
    for (const auto& h : hits.value()) rows.emplace_back(ordinal_.at(h.id), h.score);
    std::sort(rows.begin(), rows.end());  // by document ordinal: a stable, engine-friendly order
    out.terms.push_back(terms_[t]);
    for (const auto& [d, s] : rows) {
      out.doc.push_back(d);
      out.impact.push_back(s);
    }
    out.row_start.push_back(static_cast<std::uint32_t>(out.doc.size()));
  }
  out.next_term = t;
  return out;
}

std::vector<WeightedTerm> query_weights(const Bm25Index& index, std::string_view query) {
  std::vector<WeightedTerm> out;
  for (const auto& term : index.analyze(query)) {
    auto it = std::find_if(out.begin(), out.end(), [&](const WeightedTerm& w) { return w.term == term; });
    if (it != out.end()) {
      it->weight += 1;
    } else {
      out.push_back(WeightedTerm{term, 1.0});
    }
  }
  return out;
}

}  // namespace ragwasm::sparse
