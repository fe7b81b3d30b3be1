// Length measures (UTF-16 units, code points, bytes, whitespace tokens), JavaScript-exact trimming
// and the token estimate shared by every chunking strategy.
#include <cstddef>
#include <cstdint>

#include "chunk/chunk.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif
#include "text/utf8.h"

namespace ragwasm::chunk {

bool is_js_whitespace(char32_t cp) {
  // ECMAScript WhiteSpace (TAB VT FF SP NBSP ZWNBSP + category Zs) and LineTerminator (LF CR LS PS).
  switch (cp) {
    case 0x09: case 0x0A: case 0x0B: case 0x0C: case 0x0D: case 0x20:
    case 0xA0: case 0x1680: case 0x2028: case 0x2029: case 0x202F: case 0x205F: case 0x3000:
    case 0xFEFF:
      return true;
    default:
      return cp >= 0x2000 && cp <= 0x200A;
  }
}

namespace {

// Decodes the code point ending just before `end` (valid UTF-8); sets *start to its first byte.
char32_t decode_before(std::string_view t, std::size_t end, std::size_t* start) {
  std::size_t s = end - 1;
  while (s > 0 && !text::is_utf8_lead(static_cast<unsigned char>(t[s]))) --s;
  std::size_t len = 0;
  const char32_t cp = text::decode_utf8(t, s, &len);
  *start = s;
  return cp;
}

inline bool ascii_space(unsigned char b) { return b == ' ' || (b >= 0x09 && b <= 0x0D); }

}  // namespace

void trim_js(std::string_view t, std::size_t* start, std::size_t* end) {
  std::size_t s = *start;
  std::size_t e = *end;
  while (s < e) {
    const unsigned char b = static_cast<unsigned char>(t[s]);
    if (b < 0x80) {
      if (!ascii_space(b)) break;
      ++s;
      continue;
    }
    std::size_t len = 0;
    const char32_t cp = text::decode_utf8(t, s, &len);
    if (!is_js_whitespace(cp)) break;
    s += len;
  }
  while (e > s) {
    const unsigned char b = static_cast<unsigned char>(t[e - 1]);
    if (b < 0x80) {
      if (!ascii_space(b)) break;
      --e;
      continue;
    }
    std::size_t cs = 0;
    const char32_t cp = decode_before(t, e, &cs);
    if (cs < s || !is_js_whitespace(cp)) break;
    e = cs;
  }
  *start = s;
  *end = e;
}

void trim_js16(std::u16string_view t, std::size_t* start, std::size_t* end) {
  // Every JS white space character is in the BMP, so a code unit is tested alone (surrogates never are).
  std::size_t s = *start;
  std::size_t e = *end;
  while (s < e && is_js_whitespace(t[s])) ++s;
  while (e > s && is_js_whitespace(t[e - 1])) --e;
  *start = s;
  *end = e;
}

std::size_t measure(std::string_view t, Unit unit) {
  switch (unit) {
    case Unit::kBytes:
      return t.size();
    case Unit::kUtf16: {
      // Every non-continuation byte starts one unit; a 4-byte lead (>= 0xF0) starts a second one.
      std::size_t n = 0;
      for (unsigned char b : t) n += static_cast<std::size_t>((b & 0xC0) != 0x80) + static_cast<std::size_t>(b >= 0xF0);
      return n;
    }
    case Unit::kCodePoints: {
      std::size_t n = 0;
      for (unsigned char b : t) n += static_cast<std::size_t>((b & 0xC0) != 0x80);
      return n;
    }
    case Unit::kTokens: {
      std::size_t n = 0;
      bool in_token = false;
      std::size_t i = 0;
      while (i < t.size()) {
        const unsigned char b = static_cast<unsigned char>(t[i]);
        bool space;
        if (b < 0x80) {
          space = ascii_space(b);
          ++i;
        } else {
          std::size_t len = 0;
          space = is_js_whitespace(text::decode_utf8(t, i, &len));
          i += len;
        }
        if (!space && !in_token) ++n;
        in_token = !space;
      }
      return n;
    }
  }
  return t.size();
}


// One pass of table-driven byte classifications (no per-character branches). Per byte b:
//   word byte  W(b): ASCII letter/digit, or 0x80..0xDF (2-byte leads = Latin/Greek/Cyrillic/... letters,
//                    and continuation bytes, which never break a word)
//   word char:       ASCII letter/digit or a 2-byte lead (0xC2..0xDF)
//   word start:      a word char whose previous byte is not a word byte
//   wide:            a 3- or 4-byte lead (>= 0xE0): CJK, emoji, symbols
//   other:           ASCII punctuation and symbols
// estimate = word_starts + floor((word_chars - word_starts) / 4) + wide + other, which is
// sum(ceil(len / 4)) over words up to rounding across words.
namespace {

constexpr std::uint32_t word_char(unsigned b) {
  return ((b - '0') < 10u) | (((b | 0x20u) - 'a') < 26u) | ((b - 0xC2u) < 0x1Eu);
}
constexpr std::uint32_t word_byte(unsigned b) { return word_char(b) | ((b - 0x80u) < 0x40u); }

// Per byte: packed increments word_char | wide << 21 | other << 42 (64-bit), and flags
// word_char | word_byte << 1. Two table loads per byte and no branches.
struct TokenTables {
  std::uint64_t add[256];
  unsigned char flags[256];
  constexpr TokenTables() : add(), flags() {
    for (unsigned b = 0; b < 256; ++b) {
      const std::uint64_t wchar = word_char(b);
      const std::uint64_t wide = b >= 0xE0u;
      const bool space = b == 0x20u || (b - 0x09u) < 5u;
      const std::uint64_t other = b < 0x80u && !wchar && !space;
      add[b] = wchar | (wide << 21) | (other << 42);
      flags[b] = static_cast<unsigned char>(wchar | (word_byte(b) << 1));
    }
  }
};
constexpr TokenTables kTok;

}  // namespace

std::uint32_t estimate_tokens(std::string_view t) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(t.data());
  const std::size_t n = t.size();
  std::uint64_t word_chars = 0, wide = 0, other = 0, word_starts = 0;
  unsigned prev = 0;  // flags of the previous byte (none before the first: a word char starts a word)
  std::size_t i = 0;
  while (i < n) {
    // Fields are 21 bits wide: flush at least every 2^20 bytes.
    const std::size_t stop = n - i > (std::size_t{1} << 20) ? i + (std::size_t{1} << 20) : n;
    std::uint64_t acc = 0;
    std::uint64_t starts = 0;
    for (; i < stop; ++i) {
      const unsigned b = p[i];
      const unsigned f = kTok.flags[b];
      acc += kTok.add[b];
      starts += f & ~(prev >> 1) & 1u;
      prev = f;
    }
    word_chars += acc & 0x1FFFFF;
    wide += (acc >> 21) & 0x1FFFFF;
    other += acc >> 42;
    word_starts += starts;
  }
  const std::uint64_t tokens = word_starts + (word_chars - word_starts) / 4 + wide + other;
  return tokens > 0xFFFFFFFFull ? 0xFFFFFFFFu : static_cast<std::uint32_t>(tokens);
}

std::uint32_t estimate_tokens16(std::u16string_view t) {
  // estimate_tokens over the UTF-8 encoding, fed with stand-in bytes per code unit (same tables):
  // ASCII as itself; U+0080..U+07FF a lead byte C2 (word character) and a continuation byte;
  // U+0800 and up a lead byte E1 (one wide token) and a continuation byte; a high surrogate the lead
  // F0 of its pair, a low surrogate after it one more continuation byte (a lone surrogate is written
  // by TextEncoder as U+FFFD: one wide token). Continuation bytes keep a word open, as in UTF-8.
  std::uint64_t word_chars = 0, wide = 0, other = 0, word_starts = 0;
  std::uint64_t simd_word_chars = 0, simd_starts = 0, simd_other = 0;  // from the SIMD blocks
  unsigned prev = 0;
  bool prev_high = false;
  const std::size_t n = t.size();
  std::size_t i = 0;
  while (i < n) {
    // Fields are 21 bits wide and a unit adds at most 1 to each: flush every 2^20 units.
    const std::size_t stop = n - i > (std::size_t{1} << 20) ? i + (std::size_t{1} << 20) : n;
    std::uint64_t acc = 0;
    std::uint64_t starts = 0;
    auto step = [&](unsigned b) {
      const unsigned f = kTok.flags[b];
      acc += kTok.add[b];
      starts += f & ~(prev >> 1) & 1u;
      prev = f;
    };
    for (; i < stop; ++i) {
#if defined(__wasm_simd128__)
      // Blocks of 16 ASCII units at once, narrowed to bytes (exact: every unit < 0x80): word
      // characters (ASCII letters/digits), word starts (a word character after a non-word byte),
      // other non-space characters; same counts as step() per unit.
      while (i + 16 <= stop) {
        const v128_t lo = wasm_v128_load(t.data() + i);
        const v128_t hi = wasm_v128_load(t.data() + i + 8);
        if (wasm_v128_any_true(wasm_v128_and(wasm_v128_or(lo, hi), wasm_i16x8_splat(static_cast<std::int16_t>(0xFF80))))) break;
        const v128_t v = wasm_u8x16_narrow_i16x8(lo, hi);
        const v128_t digit = wasm_u8x16_lt(wasm_i8x16_sub(v, wasm_i8x16_splat('0')), wasm_i8x16_splat(10));
        const v128_t letter = wasm_u8x16_lt(wasm_i8x16_sub(wasm_v128_or(v, wasm_i8x16_splat(0x20)), wasm_i8x16_splat('a')),
                                            wasm_i8x16_splat(26));
        const v128_t space = wasm_v128_or(wasm_i8x16_eq(v, wasm_i8x16_splat(' ')),
                                          wasm_u8x16_lt(wasm_i8x16_sub(v, wasm_i8x16_splat(9)), wasm_i8x16_splat(5)));
        const std::uint32_t w = wasm_i8x16_bitmask(wasm_v128_or(digit, letter));
        const std::uint32_t sp = wasm_i8x16_bitmask(space);
        const std::uint32_t prev_word = (prev >> 1) & 1u;
        simd_word_chars += static_cast<std::uint64_t>(__builtin_popcount(w));
        simd_starts += static_cast<std::uint64_t>(__builtin_popcount(w & ~((w << 1) | prev_word)));
        simd_other += static_cast<std::uint64_t>(__builtin_popcount(~(w | sp) & 0xFFFFu));
        prev = ((w >> 15) & 1u) ? 3u : 0u;
        prev_high = false;
        i += 16;
      }
      // Then blocks of 8 (the same counts in 16-bit lanes).
      while (i + 8 <= stop) {
        const v128_t v = wasm_v128_load(t.data() + i);
        if (wasm_v128_any_true(wasm_v128_and(v, wasm_i16x8_splat(static_cast<std::int16_t>(0xFF80))))) break;
        const v128_t digit = wasm_u16x8_lt(wasm_i16x8_sub(v, wasm_i16x8_splat('0')), wasm_i16x8_splat(10));
        const v128_t letter = wasm_u16x8_lt(wasm_i16x8_sub(wasm_v128_or(v, wasm_i16x8_splat(0x20)), wasm_i16x8_splat('a')),
                                            wasm_i16x8_splat(26));
        const v128_t space = wasm_v128_or(wasm_i16x8_eq(v, wasm_i16x8_splat(' ')),
                                          wasm_u16x8_lt(wasm_i16x8_sub(v, wasm_i16x8_splat(9)), wasm_i16x8_splat(5)));
        const v128_t word = wasm_v128_or(digit, letter);
        const std::uint32_t w = wasm_i16x8_bitmask(word);
        const std::uint32_t sp = wasm_i16x8_bitmask(space);
        const std::uint32_t prev_word = (prev >> 1) & 1u;
        simd_word_chars += static_cast<std::uint64_t>(__builtin_popcount(w));
        simd_starts += static_cast<std::uint64_t>(__builtin_popcount(w & ~((w << 1) | prev_word)));
        simd_other += static_cast<std::uint64_t>(__builtin_popcount(~(w | sp) & 0xFFu));
        prev = ((w >> 7) & 1u) ? 3u : 0u;
        prev_high = false;
        i += 8;
      }
      if (i >= stop) break;
#endif
      const std::uint32_t c = t[i];
      if (c < 0x80) {
        step(c);
        prev_high = false;
        continue;
      }
      const bool low = c >= 0xDC00 && c <= 0xDFFF;
      if (!(low && prev_high)) step(c < 0x800 ? 0xC2 : c >= 0xD800 && c <= 0xDBFF ? 0xF0 : 0xE1);
      step(0x80);
      prev_high = !low && c >= 0xD800 && c <= 0xDBFF;
    }
    word_chars += acc & 0x1FFFFF;
    wide += (acc >> 21) & 0x1FFFFF;
    other += acc >> 42;
    word_starts += starts;
  }
  word_chars += simd_word_chars;
  word_starts += simd_starts;
  other += simd_other;
  const std::uint64_t tokens = word_starts + (word_chars - word_starts) / 4 + wide + other;
  return tokens > 0xFFFFFFFFull ? 0xFFFFFFFFu : static_cast<std::uint32_t>(tokens);
}

void TokenCounter::advance_to(std::size_t byte) {
  if (byte < pos_) pos_ = units_ = word_chars_ = word_starts_ = wide_ = other_ = 0;
  const unsigned char* p = reinterpret_cast<const unsigned char*>(t_.data());
  unsigned prev = pos_ > 0 ? kTok.flags[p[pos_ - 1]] : 0;
  while (pos_ < byte) {
    const std::size_t stop = byte - pos_ > (std::size_t{1} << 20) ? pos_ + (std::size_t{1} << 20) : byte;
    std::uint64_t acc = 0;
    std::uint64_t starts = 0;
    std::uint64_t units = 0;
    for (std::size_t i = pos_; i < stop; ++i) {
      const unsigned b = p[i];
      const unsigned f = kTok.flags[b];
      acc += kTok.add[b];
      starts += f & ~(prev >> 1) & 1u;
      units += static_cast<std::uint64_t>((b & 0xC0u) != 0x80u) + (b >= 0xF0u);
      prev = f;
    }
    word_chars_ += acc & 0x1FFFFF;
    wide_ += (acc >> 21) & 0x1FFFFF;
    other_ += acc >> 42;
    word_starts_ += starts;
    units_ += units;
    pos_ = stop;
  }
}

std::uint32_t TokenCounter::tokens_between(const Snapshot& a, std::size_t s, const Snapshot& b) const {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(t_.data());
  std::uint64_t starts = b.word_starts - a.word_starts;
  const std::uint64_t chars = b.word_chars - a.word_chars;
  // Inside the span a word character at s always starts a word; the running count did not count it
  // when the byte before s was a word byte. (chars > 0: the span is not empty.)
  if (chars > 0 && s > 0 && s < t_.size() && (kTok.flags[p[s]] & 1u) && (kTok.flags[p[s - 1]] & 2u)) ++starts;
  const std::uint64_t tokens = starts + (chars - starts) / 4 + (b.wide - a.wide) + (b.other - a.other);
  return tokens > 0xFFFFFFFFull ? 0xFFFFFFFFu : static_cast<std::uint32_t>(tokens);
}

std::string HeaderPath::path() const {
  std::string out;
  for (const auto& l : levels) {
    if (l.empty()) continue;
    if (!out.empty()) out += " > ";
    out += l;
  }
  return out;
}

}  // namespace ragwasm::chunk
