// BM25 index: texts stored beside the index (a saved collection's header) checked against the terms
// the index holds for their ids, so a text edited or exchanged after indexing is found (#30 F-2).
// Analysis is add()'s (tokenize + normalize, one cache probe per repeated raw token); the terms the
// index holds for a document are its forward record, sorted by term id, so the comparison is exact.
#include <algorithm>

#include "sparse/index_internal.h"

namespace ragwasm::sparse {

namespace {
constexpr std::int32_t kDropped = -1;  // a raw token the analyzer drops (stopword, too long)
constexpr std::int32_t kUnknown = -3;  // a term the dictionary lacks (never cached: it ends the item)
}  // namespace

std::optional<TermMismatch> Bm25Index::find_term_mismatch(const std::vector<std::string_view>& parts,
                                                          std::size_t texts_per_item) const {
  const Impl& m = *impl_;
  const std::size_t stride = texts_per_item + 1;
  WordCache cache;  // raw token -> term id or kDropped; local, so the index is not touched
  std::string scratch, normalized, key;
  std::vector<RawToken> raw;
  std::vector<std::uint32_t> got, held;
  std::vector<std::string> unknown;
  for (std::size_t item = 0; (item + 1) * stride <= parts.size(); ++item) {
    got.clear();
    unknown.clear();
    for (std::size_t f = 1; f < stride; ++f) {
      m.analyzer.tokenize(parts[item * stride + f], &scratch, &raw);
      for (const auto& rt : raw) {
        const std::uint32_t h = WordCache::hash(rt.text);
        std::int32_t id = cache.find(rt.text, h);
        if (id == WordCache::kMissing) {
          const bool kept = rt.kind != RawToken::Kind::kWord || m.analyzer.normalize(rt.text, &normalized, /*memo=*/false);
          const std::string_view term = rt.kind == RawToken::Kind::kWord ? std::string_view(normalized) : rt.text;
          const std::uint32_t t = kept ? m.term_id(term) : TermTable::kNone;
          if (!kept) {
            id = kDropped;
          } else if (t == TermTable::kNone) {
            unknown.emplace_back(term);
            continue;
          } else {
            id = static_cast<std::int32_t>(t);
          }
          cache.insert(rt.text, h, id);
        }
        if (id >= 0) got.push_back(static_cast<std::uint32_t>(id));
      }
    }
    std::sort(got.begin(), got.end());
    got.erase(std::unique(got.begin(), got.end()), got.end());
    held.clear();
    key.assign(parts[item * stride]);
    const auto it = m.id_map.find(key);  // live documents only
    if (it != m.id_map.end()) m.decode_forward(it->second, [&](std::uint32_t t, const std::uint32_t*) { held.push_back(t); });
    if (unknown.empty() && got == held) continue;
    std::sort(unknown.begin(), unknown.end());
    const auto n_unknown = static_cast<std::size_t>(std::unique(unknown.begin(), unknown.end()) - unknown.begin());
    return TermMismatch{item, got.size() + n_unknown, held.size()};
  }
  return std::nullopt;
}

}  // namespace ragwasm::sparse
