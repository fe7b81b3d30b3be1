// The term dictionary's lookup: term bytes -> term id, an open-addressing table of (hash, id) slots
// whose keys are the index's own `terms` strings (no second copy of every term, no node per entry,
// growth moves 8-byte slots without rehashing strings). Replaces std::unordered_map, whose lookups
// and rehashes were a sixth of a SciFact build (docs/sparse.md, "Build speed").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sparse/word_cache.h"

namespace ragwasm::sparse {

class TermTable {
 public:
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;

  // The id of `s` (names[id] == s), or kNone.
  std::uint32_t find(std::string_view s, const std::vector<std::string>& names) const {
    return find(s, WordCache::hash(s), names);
  }
  std::uint32_t find(std::string_view s, std::uint32_t h, const std::vector<std::string>& names) const {
    if (slots_.empty()) return kNone;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
      const Slot& sl = slots_[i];
      if (sl.id == kNone) return kNone;
      if (sl.hash == h && names[sl.id] == s) return sl.id;
    }
  }
  bool contains(std::string_view s, const std::vector<std::string>& names) const { return find(s, names) != kNone; }

  // Records id for a key with hash h that is not in the table yet.
  void insert(std::uint32_t h, std::uint32_t id) {
    if ((used_ + 1) * 2 > slots_.size()) grow();
    place(Slot{h, id});
    ++used_;
  }

  std::size_t size() const { return used_; }
  std::size_t memory_bytes() const { return slots_.capacity() * sizeof(Slot); }

 private:
  struct Slot {
    std::uint32_t hash;
    std::uint32_t id;  // kNone: empty
  };
  void place(Slot s) {
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = s.hash & mask;
    while (slots_[i].id != kNone) i = (i + 1) & mask;
    slots_[i] = s;
  }
  void grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(old.empty() ? 1024 : old.size() * 2, Slot{0, kNone});
    for (const Slot& s : old)
      if (s.id != kNone) place(s);
  }
  std::vector<Slot> slots_;
  std::size_t used_ = 0;
};

}  // namespace ragwasm::sparse
