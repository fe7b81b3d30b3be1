// libFuzzer entry for the Bm25Index loader. Each input is loaded twice: as given (the checksum
// rejects almost every mutation) and with a freshly computed checksum appended, so that mutations
// reach the structural checks. Any load must fail with CORRUPT_INDEX / UNSUPPORTED_VERSION or give
// an index that searches, saves and reloads to the same bytes.
#include <cstdint>
#include <string>
#include <string_view>

#include "sparse/codec.h"
#include "common/checksum.h"
#include "sparse/index.h"

namespace {
void check(std::string_view bytes) {
  using namespace ragwasm::sparse;
  auto r = Bm25Index::load(bytes);
  if (!r.ok()) {
    const auto c = r.error().code;
    if (c != ragwasm::ErrorCode::kCorruptIndex && c != ragwasm::ErrorCode::kUnsupportedVersion) __builtin_trap();
    return;
  }
  Bm25Index& idx = r.value();
  SearchOptions o;
  o.k = 5;
  if (!idx.search("w1 w2 apple", o).ok()) __builtin_trap();
  o.exhaustive = true;
  if (!idx.search("w1 w2 apple", o).ok()) __builtin_trap();
  const std::string again = idx.save();
  auto r2 = Bm25Index::load(again);
  if (!r2.ok() || r2.value().save() != again) __builtin_trap();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view raw(reinterpret_cast<const char*>(data), size);
  check(raw);
  if (size > 8) {
    std::string fixed(raw.substr(0, size - 8));
    const std::uint64_t h = ragwasm::xxh64(fixed);
    for (int k = 0; k < 8; ++k) fixed.push_back(static_cast<char>((h >> (8 * k)) & 0xFF));
    check(fixed);
  }
  return 0;
}
