// The term dictionary in byte order, for prefix ranges and bounded edit-distance (Levenshtein) scans:
// the sorted list is an implicit trie (terms sharing a prefix are adjacent), so a fuzzy scan keeps one
// DP row per prefix byte, reuses the rows of the prefix a term shares with the previous one, and skips
// every term under a prefix whose row already exceeds the distance bound (issue 29, docs/sparse.md).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ragwasm::sparse {

class TermDictionary {
 public:
  // Sorts the ids of `terms` by their bytes; `stamp` names the state it was built for.
  void rebuild(const std::vector<std::string>& terms, std::uint64_t stamp) {
    ids_.resize(terms.size());
    for (std::uint32_t i = 0; i < ids_.size(); ++i) ids_[i] = i;
    std::sort(ids_.begin(), ids_.end(), [&](std::uint32_t a, std::uint32_t b) { return terms[a] < terms[b]; });
    stamp_ = stamp;
  }
  bool built_for(std::uint64_t stamp) const { return stamp_ == stamp && stamp != 0; }
  std::size_t memory_bytes() const { return ids_.capacity() * sizeof(std::uint32_t); }

  // Calls f(id) for every term starting with `prefix`, in byte order.
  template <class F>
  void prefix(std::string_view p, const std::vector<std::string>& terms, F&& f) const {
    auto it = std::lower_bound(ids_.begin(), ids_.end(), p, [&](std::uint32_t id, std::string_view x) { return std::string_view(terms[id]) < x; });
    for (; it != ids_.end(); ++it) {
      const std::string_view t = terms[*it];
      if (t.size() < p.size() || t.compare(0, p.size(), p) != 0) break;
      f(*it);
    }
  }

  // Calls f(id, distance) for every term within Levenshtein distance `max_d` (insert, delete,
  // substitute one byte each) of `q`, in byte order. Distances count bytes: an accented letter
  // (2 UTF-8 bytes) can cost 2 edits; the analyzer folds accents by default.
  template <class F>
  void fuzzy(std::string_view q, unsigned max_d, const std::vector<std::string>& terms, F&& f) const {
    const std::size_t n = q.size() + 1;          // DP columns
    const std::size_t rows = q.size() + max_d + 1;  // a term longer than |q| + max_d cannot match
    const unsigned cap = max_d + 1;              // distances saturate at max_d + 1 (all that matters)
    // Only the band |i - j| <= max_d of row i is ever computed (a cell outside it is > max_d); every other
    // cell keeps `cap` from here, so rows reused across terms hold no stale values (MiniSearch's band).
    std::vector<std::uint8_t> m(rows * n, static_cast<std::uint8_t>(cap));
    for (std::size_t j = 0; j < n; ++j) m[j] = static_cast<std::uint8_t>(std::min<std::size_t>(j, cap));
    std::string_view prev;
    std::size_t valid = 0;  // rows 0..valid hold the DP of prev's first `valid` bytes
    std::size_t pos = 0;
    while (pos < ids_.size()) {
      const std::string_view t = terms[ids_[pos]];
      std::size_t l = 0;
      const std::size_t lim = std::min({prev.size(), t.size(), valid});
      while (l < lim && prev[l] == t[l]) ++l;
      bool dead = false;
      std::size_t i = l + 1;
      for (; i <= t.size(); ++i) {
        if (i >= rows) {  // longer than |q| + max_d: every term under t[0..i) too
          dead = true;
          break;
        }
        const std::uint8_t* up = &m[(i - 1) * n];
        std::uint8_t* row = &m[i * n];
        row[0] = static_cast<std::uint8_t>(std::min<std::size_t>(i, cap));
        unsigned best = row[0];
        const char c = t[i - 1];
        const std::size_t jlo = i > max_d ? i - max_d : 1;
        const std::size_t jhi = std::min(n - 1, i + max_d);
        for (std::size_t j = std::max<std::size_t>(jlo, 1); j <= jhi; ++j) {
          unsigned v = up[j - 1] + (q[j - 1] == c ? 0u : 1u);
          v = std::min(v, up[j] + 1u);
          v = std::min(v, row[j - 1] + 1u);
          v = std::min(v, cap);
          row[j] = static_cast<std::uint8_t>(v);
          best = std::min(best, v);
        }
        if (best > max_d) {  // no extension of t[0..i) can come back within max_d
          dead = true;
          break;
        }
      }
      prev = t;
      if (dead) {
        // rows 0..i-1 are valid for t; skip every term that starts with t[0..i)
        valid = i - 1;
        const std::string_view p = t.substr(0, i);
        const auto starts = [&](std::uint32_t id) {
          const std::string_view s = terms[id];
          return s.size() >= p.size() && s.compare(0, p.size(), p) == 0;
        };
        // gallop: the run of terms under p is usually short, so find its end in O(log run) compares
        std::size_t lo = pos + 1, hi = pos + 1, step = 1;
        while (hi < ids_.size() && starts(ids_[hi])) {
          lo = hi + 1;
          hi += step;
          step *= 2;
        }
        hi = std::min(hi, ids_.size());
        auto it = std::partition_point(ids_.begin() + static_cast<std::ptrdiff_t>(lo), ids_.begin() + static_cast<std::ptrdiff_t>(hi), starts);
        pos = static_cast<std::size_t>(it - ids_.begin());
        continue;
      }
      valid = t.size();
      const unsigned d = m[t.size() * n + n - 1];
      if (d <= max_d) f(ids_[pos], d);
      ++pos;
    }
  }

 private:
  std::vector<std::uint32_t> ids_;
  std::uint64_t stamp_ = 0;
};

}  // namespace ragwasm::sparse
