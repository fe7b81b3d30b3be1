// libFuzzer entry for src/chunk: every strategy (and JSON option parsing) on arbitrary bytes. The
// first 4 bytes pick strategy, unit, sizes and flags; the rest is the text (invalid UTF-8 included,
// rejected or repaired by option). Checks order, bounds, code point boundaries and size limits.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "chunk/chunk.h"
#include "text/utf8.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ragwasm::chunk;
  if (size < 4) return 0;
  const std::string_view raw(reinterpret_cast<const char*>(data + 4), size - 4);
  // Option parsing must never crash on any text either.
  (void)parse_options(raw);

  ChunkOptions o;
  o.strategy = static_cast<Strategy>(data[0] % 5);
  o.unit = static_cast<Unit>((data[0] / 5) % 4);
  o.strict = (data[0] & 0x80) != 0;
  o.chunk_size = 1 + data[1] % 64;
  o.chunk_overlap = data[2] % (o.chunk_size + 1);  // sometimes == size: must be INVALID_ARGUMENT
  o.split_levels = 1 + data[3] % 6;
  o.strip_headers = (data[3] & 0x40) != 0;
  o.overlap_sentences = data[3] % 3;
  o.invalid_utf8 = (data[3] & 0x80) ? InvalidUtf8::kRepair : InvalidUtf8::kReject;
  if (data[3] & 0x20) o.separators = {"\n", std::string(raw.substr(0, data[2] % 3))};

  auto r = chunk_text(raw, o);
  if (!r.ok()) {
    if (validate(o).ok() && ragwasm::text::is_valid_utf8(raw)) __builtin_trap();  // only bad options/UTF-8 fail
    return 0;
  }
  const ChunkList& list = r.value();
  const std::string_view t = list.repaired ? std::string_view(list.repaired_text) : raw;
  const bool bounded = o.strategy == Strategy::kFixed || o.strategy == Strategy::kMarkdownHeader ||
                       ((o.strategy == Strategy::kRecursive || o.strategy == Strategy::kMarkdown) && o.strict);
  std::size_t prev_start = 0, prev_end = 0;
  for (const ChunkSpan& c : list.chunks) {
    if (c.start >= c.end || c.end > t.size()) __builtin_trap();
    if (c.start < prev_start || c.end < prev_end) __builtin_trap();
    if (!ragwasm::text::is_utf8_lead(static_cast<unsigned char>(t[c.start]))) __builtin_trap();
    if (c.end < t.size() && !ragwasm::text::is_utf8_lead(static_cast<unsigned char>(t[c.end]))) __builtin_trap();
    if (bounded && measure(t.substr(c.start, c.end - c.start), o.unit) > o.chunk_size) __builtin_trap();
    if (c.header >= static_cast<int>(list.headers.size())) __builtin_trap();
    prev_start = c.start;
    prev_end = c.end;
  }
  // Semantic breakpoints over the same text split at every newline, with byte-derived distances.
  std::vector<ChunkSpan> units;
  std::size_t p = 0;
  while (p < t.size()) {
    std::size_t q = t.find('\n', p);
    q = q == std::string_view::npos ? t.size() : q + 1;
    units.push_back(ChunkSpan{p, q, -1});
    p = q;
  }
  std::vector<double> d;
  for (std::size_t i = 0; i + 1 < units.size(); ++i) d.push_back(static_cast<unsigned char>(t[units[i].start]) / 255.0);
  SemanticOptions so;
  so.method = static_cast<Breakpoint>(data[1] % 4);
  so.max_chunk_size = data[2] % 2 ? 0 : o.chunk_size;
  so.unit = o.unit;
  auto s = semantic_chunks(t, units, d, so);
  if (!s.ok()) __builtin_trap();
  return 0;
}
