// libFuzzer entry for the static model loader: arbitrary bytes must be rejected (CORRUPT_INDEX /
// UNSUPPORTED_VERSION) or load into a model whose sentence vectors are finite.
#include <cmath>
#include <cstdint>
#include <string_view>

#include "embed/static_embedder.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ragwasm;
  const std::string_view raw(reinterpret_cast<const char*>(data), size);
  auto r = embed::StaticEmbedder::load(raw);
  if (!r.ok()) {
    if (r.error().code != ErrorCode::kCorruptIndex && r.error().code != ErrorCode::kUnsupportedVersion) __builtin_trap();
    return 0;
  }
  for (float x : r.value().embed("the cat dog, THE Cat!")) {
    if (!std::isfinite(x)) __builtin_trap();
  }
  return 0;
}
