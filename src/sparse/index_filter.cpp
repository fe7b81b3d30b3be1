// BM25 index: metadata filters (compiled once per search, evaluated per candidate document).
#include "sparse/index_internal.h"

namespace ragwasm::sparse {

std::vector<Bm25Index::Impl::CompiledClause> Bm25Index::Impl::compile(const std::vector<FilterClause>& clauses) const {
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

bool Bm25Index::Impl::passes(std::uint32_t d, const std::vector<CompiledClause>& f) const {
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

}  // namespace ragwasm::sparse
