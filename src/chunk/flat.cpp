// Chunk spans -> the flat [start16, end16, tokens, header + 1] array the JS layer reads (see chunk.h).
#include <cstdint>
#include <string_view>
#include <vector>

#include "chunk/chunk.h"

namespace ragwasm::chunk {

std::vector<std::uint32_t> flat_chunks(std::string_view text, const std::vector<ChunkSpan>& chunks, bool tokens, bool ascii) {
  const std::size_t n = chunks.size();
  std::vector<std::uint32_t> flat(n * 4);
  for (std::size_t k = 0; k < n; ++k) flat[4 * k + 3] = static_cast<std::uint32_t>(chunks[k].header + 1);
  if (!tokens) {
    // Offsets only: ASCII needs no conversion; otherwise one merged forward pass counting units.
    const unsigned char* p = reinterpret_cast<const unsigned char*>(text.data());
    std::size_t pos = 0, units = 0;
    auto to16 = [&](std::size_t byte) {
      if (ascii) return static_cast<std::uint32_t>(byte);
      if (byte < pos) pos = units = 0;
      for (; pos < byte; ++pos) units += static_cast<std::size_t>((p[pos] & 0xC0) != 0x80) + (p[pos] >= 0xF0);
      return static_cast<std::uint32_t>(units);
    };
    std::size_t i = 0, j = 0;
    while (i < n || j < n) {
      if (j >= n || (i < n && chunks[i].start <= chunks[j].end)) {
        flat[4 * i] = to16(chunks[i].start);
        ++i;
      } else {
        flat[4 * j + 1] = to16(chunks[j].end);
        ++j;
      }
    }
    return flat;
  }
  TokenCounter counter(text);
  std::vector<TokenCounter::Snapshot> at_start(n);
  std::size_t i = 0, j = 0;  // next start, next end to visit
  while (i < n || j < n) {
    if (j >= n || (i < n && chunks[i].start <= chunks[j].end)) {
      counter.advance_to(chunks[i].start);
      flat[4 * i] = static_cast<std::uint32_t>(counter.utf16());
      at_start[i] = counter.snapshot();
      ++i;
    } else {
      counter.advance_to(chunks[j].end);
      flat[4 * j + 1] = static_cast<std::uint32_t>(counter.utf16());
      if (j < i) {
        flat[4 * j + 2] = counter.tokens_between(at_start[j], chunks[j].start, counter.snapshot());
      } else {  // cannot happen for ordered spans (start <= end is visited first); stay exact anyway
        flat[4 * j + 2] = estimate_tokens(text.substr(chunks[j].start, chunks[j].end - chunks[j].start));
      }
      ++j;
    }
  }
  return flat;
}

std::vector<std::uint32_t> flat_chunks16(std::u16string_view text, const std::vector<ChunkSpan>& spans, bool tokens) {
  const std::size_t n = spans.size();
  std::vector<std::uint32_t> flat(n * 4, 0);
  for (std::size_t k = 0; k < n; ++k) {
    flat[4 * k] = static_cast<std::uint32_t>(spans[k].start);
    flat[4 * k + 1] = static_cast<std::uint32_t>(spans[k].end);
    if (tokens) flat[4 * k + 2] = estimate_tokens16(text.substr(spans[k].start, spans[k].end - spans[k].start));
  }
  return flat;
}

}  // namespace ragwasm::chunk
