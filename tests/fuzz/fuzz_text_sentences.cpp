// libFuzzer entry for src/text: UTF-8 checks, repair, folding, offset mapping and sentence splitting
// on arbitrary bytes. Checks the invariants that must hold for any input.
#include <cstdint>
#include <string>
#include <string_view>

#include "text/casefold.h"
#include "text/sentences.h"
#include "text/utf8.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ragwasm::text;
  const std::string_view raw(reinterpret_cast<const char*>(data), size);
  const std::string repaired = repair_utf8(raw);
  if (!is_valid_utf8(repaired)) __builtin_trap();
  if (is_valid_utf8(raw) && repaired != raw) __builtin_trap();
  (void)fold(raw);
  const auto spans = split_sentences(raw);
  std::size_t prev = 0;
  for (const auto& s : spans) {
    if (s.start >= s.end || s.start < prev || s.end > raw.size()) __builtin_trap();
    prev = s.end;
  }
  OffsetMapper m(repaired);
  for (std::size_t i = 0; i <= repaired.size(); i += 7) {
    const std::size_t u = m.to_utf16(i);
    if (u > m.utf16_size()) __builtin_trap();
    if (m.to_utf8(u) > i) __builtin_trap();
  }
  return 0;
}
