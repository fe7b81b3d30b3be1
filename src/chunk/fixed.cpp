// Fixed-size windows: chunk_size units per chunk, the next chunk starting chunk_overlap units before
// the previous end. Windows end on code point boundaries (never inside a UTF-8 sequence or between
// the two UTF-16 units of an astral character). Character units keep the windows verbatim (no
// trimming); token windows run from the first token's start to the last token's end.
#include <string_view>
#include <vector>

#include "chunk/chunk.h"
#include "text/utf8.h"

namespace ragwasm::chunk {
namespace {

inline std::size_t seq_len(unsigned char c) { return c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4; }

inline std::size_t weight(unsigned char lead, Unit unit) {
  switch (unit) {
    case Unit::kBytes: return seq_len(lead);
    case Unit::kUtf16: return lead >= 0xF0 ? 2 : 1;
    default: return 1;
  }
}

std::vector<ChunkSpan> fixed_chars(std::string_view t, const ChunkOptions& o) {
  std::vector<ChunkSpan> out;
  const std::size_t n = t.size();
  std::size_t s = 0;
  while (s < n) {
    std::size_t e = s;
    std::size_t units = 0;
    while (e < n) {
      const unsigned char c = static_cast<unsigned char>(t[e]);
      const std::size_t w = weight(c, o.unit);
      if (units + w > o.chunk_size && e > s) break;
      units += w;
      e += seq_len(c);
      if (e > n) e = n;
    }
    out.push_back(ChunkSpan{s, e, -1});
    if (e >= n) break;
    // Step back at most chunk_overlap units from e, whole characters only.
    std::size_t next = e;
    std::size_t back = 0;
    while (next > s) {
      std::size_t p = next - 1;
      while (p > s && !text::is_utf8_lead(static_cast<unsigned char>(t[p]))) --p;
      const std::size_t w = weight(static_cast<unsigned char>(t[p]), o.unit);
      if (back + w > o.chunk_overlap) break;
      back += w;
      next = p;
    }
    if (next <= s) next = s + seq_len(static_cast<unsigned char>(t[s]));  // always make progress
    s = next;
  }
  return out;
}

std::vector<ChunkSpan> fixed_tokens(std::string_view t, const ChunkOptions& o) {
  // Token spans: maximal runs of non-white-space (JavaScript's white space definition).
  std::vector<ChunkSpan> toks;
  std::size_t i = 0;
  std::size_t tok_start = 0;
  bool in_tok = false;
  while (i < t.size()) {
    std::size_t len = 0;
    const char32_t cp = text::decode_utf8(t, i, &len);
    const bool space = is_js_whitespace(cp);
    if (!space && !in_tok) tok_start = i;
    if (space && in_tok) toks.push_back(ChunkSpan{tok_start, i, -1});
    in_tok = !space;
    i += len;
  }
  if (in_tok) toks.push_back(ChunkSpan{tok_start, t.size(), -1});
  std::vector<ChunkSpan> out;
  const std::size_t step = o.chunk_size - o.chunk_overlap;  // >= 1 (validated overlap < size)
  for (std::size_t k = 0; k < toks.size(); k += step) {
    const std::size_t last = k + o.chunk_size < toks.size() ? k + o.chunk_size : toks.size();
    out.push_back(ChunkSpan{toks[k].start, toks[last - 1].end, -1});
    if (last == toks.size()) break;
  }
  return out;
}

}  // namespace

std::vector<ChunkSpan> split_fixed(std::string_view text, const ChunkOptions& o) {
  if (text.empty()) return {};
  if (o.unit == Unit::kTokens) return fixed_tokens(text, o);
  return fixed_chars(text, o);
}

}  // namespace ragwasm::chunk
