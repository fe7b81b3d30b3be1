// libFuzzer entry for the vector index loader (VectorIndex::load). Each input is loaded as is, then
// once more with its trailing CRC-32 recomputed, so mutations also reach the structural checks behind
// the checksum (lengths, ids, values, graph links). A loaded index must then search and save safely.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "common/checksum.h"
#include "dense/vector_index.h"

namespace {

void exercise(std::string_view bytes) {
  using namespace ragwasm::dense;
  auto r = VectorIndex::load(bytes);
  if (!r.ok()) return;
  VectorIndex& ix = r.value();
  const std::uint32_t dim = ix.options().dimension;
  std::vector<float> q(dim, 0.0f);
  for (std::uint32_t i = 0; i < dim; ++i) q[i] = static_cast<float>((i * 7) % 5) - 2.0f;
  SearchOptions so;
  so.k = 5;
  (void)ix.search(q.data(), q.size(), so);
  (void)ix.search_exact(q.data(), q.size(), so);
  std::vector<std::uint8_t> mask(ix.slot_count(), 1);
  so.allow = mask.data();
  so.allow_size = mask.size();
  (void)ix.search(q.data(), q.size(), so);
  // The index stays usable: add, remove, save, and the saved bytes load again.
  if (!ix.contains("fuzz-new") && ix.add({"fuzz-new"}, q.data(), q.size()).ok()) (void)ix.remove({"fuzz-new"});
  const auto saved = ix.save();
  auto again = VectorIndex::load(std::string_view(reinterpret_cast<const char*>(saved.data()), saved.size()));
  if (!again.ok()) __builtin_trap();  // a saved index must always load
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  exercise(std::string_view(reinterpret_cast<const char*>(data), size));
  if (size >= 16) {
    // both layouts: the container (XXH64, 8 bytes) and the v1 "RWDV" layout (CRC-32, 4 bytes)
    std::string resealed(reinterpret_cast<const char*>(data), size);
    if (std::memcmp(data, "RWDV", 4) == 0) {
      const std::uint32_t crc = ragwasm::crc32(data, size - 4);
      std::memcpy(&resealed[size - 4], &crc, 4);
    } else {
      const std::uint64_t h = ragwasm::xxh64(data, size - 8);
      std::memcpy(&resealed[size - 8], &h, 8);
    }
    exercise(resealed);
  }
  return 0;
}
