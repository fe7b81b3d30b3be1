// An open-addressing hash map from a raw token (bytes) to a term id, used while indexing so that
// each token costs one probe instead of stopword + stem-cache + dictionary lookups. Derived state:
// never saved; cleared when term ids change (compaction) or when it grows past its byte budget.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace ragwasm::sparse {

class WordCache {
 public:
  static constexpr std::int32_t kMissing = -2;

  static std::uint32_t hash(std::string_view s) {
    std::uint32_t h = 2166136261u;
    for (char c : s) {
      h ^= static_cast<std::uint8_t>(c);
      h *= 16777619u;
    }
    return h;
  }

  std::int32_t find(std::string_view s, std::uint32_t h) const {
    if (slots_.empty()) return kMissing;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
      const Slot& sl = slots_[i];
      if (sl.len == 0) return kMissing;
      if (sl.hash == h && sl.len == s.size() && std::memcmp(arena_.data() + sl.off, s.data(), s.size()) == 0) return sl.value;
    }
  }

  void insert(std::string_view s, std::uint32_t h, std::int32_t value) {
    if (s.empty() || s.size() > 0xFFFF) return;
    if (arena_.size() > (std::size_t{64} << 20)) clear();
    if ((used_ + 1) * 2 > slots_.size()) grow();
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = h & mask;
    while (slots_[i].len != 0) i = (i + 1) & mask;
    slots_[i] = Slot{h, static_cast<std::uint32_t>(arena_.size()), static_cast<std::uint32_t>(s.size()), value};
    arena_.append(s.data(), s.size());
    ++used_;
  }

  void clear() {
    slots_.clear();
    arena_.clear();
    used_ = 0;
  }

  std::size_t memory_bytes() const { return slots_.capacity() * sizeof(Slot) + arena_.capacity(); }

 private:
  struct Slot {
    std::uint32_t hash;
    std::uint32_t off;
    std::uint32_t len;  // 0: empty slot
    std::int32_t value;
  };
  void grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(old.empty() ? 1024 : old.size() * 2, Slot{0, 0, 0, 0});
    const std::size_t mask = slots_.size() - 1;
    for (const Slot& sl : old) {
      if (sl.len == 0) continue;
      std::size_t i = sl.hash & mask;
      while (slots_[i].len != 0) i = (i + 1) & mask;
      slots_[i] = sl;
    }
  }
  std::vector<Slot> slots_;
  std::string arena_;
  std::size_t used_ = 0;
};

}  // namespace ragwasm::sparse
