// A saved index section held in the WASM heap: made once by the index's own writer (Bm25Index::save,
// VectorIndex::save), checked in place (sparse_checkSection / dense_checkSection: Bm25Index::check,
// VectorIndex::check on a view, no copy back from JS), then read out by JS in pieces from its heap
// address and deleted (web/src/core/heap-bytes.js). Collection.save() holds its index sections so
// instead of as JS ArrayBuffers (~216 MB at 1M chunks; issue #18 item 6, docs/scale.md).
// Registered as common_SavedSection in bind_common.cpp. Converts only: no algorithm here.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bind_common.h"
#include "common/checksum.h"

namespace ragwasm::wasm {

class SavedSection {
 public:
  explicit SavedSection(std::string bytes) : str_(std::move(bytes)) {}
  explicit SavedSection(std::vector<std::uint8_t> bytes) : vec_(std::move(bytes)), is_vec_(true) {}
  SavedSection(SavedSection&&) = default;
  SavedSection& operator=(SavedSection&&) = default;
  SavedSection(const SavedSection&) = delete;
  SavedSection& operator=(const SavedSection&) = delete;

  std::string_view view() const {
    return is_vec_ ? std::string_view(reinterpret_cast<const char*>(vec_.data()), vec_.size()) : std::string_view(str_);
  }
  // -> {address, length}: the bytes' heap address (stable while this object lives) and their count
  val where() const {
    return guard([&] {
      const auto v = view();
      val r = val::object();
      r.set("address", static_cast<double>(reinterpret_cast<std::uintptr_t>(v.data())));
      r.set("length", static_cast<double>(v.size()));
      return reply_ok(r);
    });
  }
  // -> the bytes' XXH64 (src/common/checksum.h) as 16 hex digits, read in place: Collection.save() records
  // it when it checks the section, and compares it with the section made again for the write
  val hash() const {
    return guard([&] {
      static const char kHex[] = "0123456789abcdef";
      std::uint64_t h = ragwasm::xxh64(view());
      std::string out(16, '0');
      for (int i = 15; i >= 0; --i, h >>= 4) out[static_cast<std::size_t>(i)] = kHex[h & 0xf];
      return reply_ok(val(out));
    });
  }

 private:
  std::string str_;
  std::vector<std::uint8_t> vec_;
  bool is_vec_ = false;
};

}  // namespace ragwasm::wasm
