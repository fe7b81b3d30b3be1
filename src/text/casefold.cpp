// Tables for lowercasing and accent folding; see casefold.h for the covered blocks.
#include "text/casefold.h"

#include <cstdint>
#include <cstring>

#include "text/utf8.h"

namespace ragwasm::text {
namespace {

// ASCII spellings of U+00C0..U+017F with accents removed; nullptr where the character is kept.
constexpr const char* kLatinFold[] = {
    // U+00C0..U+00FF
    "A", "A", "A", "A", "A", "A", "AE", "C", "E", "E", "E", "E", "I", "I", "I", "I",
    "D", "N", "O", "O", "O", "O", "O", nullptr, "O", "U", "U", "U", "U", "Y", "TH", "ss",
    "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i",
    "d", "n", "o", "o", "o", "o", "o", nullptr, "o", "u", "u", "u", "u", "y", "th", "y",
    // U+0100..U+017F
    "A", "a", "A", "a", "A", "a", "C", "c", "C", "c", "C", "c", "C", "c", "D", "d",
    "D", "d", "E", "e", "E", "e", "E", "e", "E", "e", "E", "e", "G", "g", "G", "g",
    "G", "g", "G", "g", "H", "h", "H", "h", "I", "i", "I", "i", "I", "i", "I", "i",
    "I", "i", "IJ", "ij", "J", "j", "K", "k", "k", "L", "l", "L", "l", "L", "l", "L",
    "l", "L", "l", "N", "n", "N", "n", "N", "n", "n", "N", "n", "O", "o", "O", "o",
    "O", "o", "OE", "oe", "R", "r", "R", "r", "R", "r", "S", "s", "S", "s", "S", "s",
    "S", "s", "T", "t", "T", "t", "T", "t", "U", "u", "U", "u", "U", "u", "U", "u",
    "U", "u", "U", "u", "W", "w", "Y", "y", "Y", "Z", "z", "Z", "z", "Z", "z", "s",
};
static_assert(sizeof(kLatinFold) / sizeof(kLatinFold[0]) == 0x180 - 0xC0, "U+00C0..U+017F");

}  // namespace

char32_t lower_code_point(char32_t cp) {
  if (cp < 0x80) return (cp >= 'A' && cp <= 'Z') ? cp + 32 : cp;
  if (cp >= 0xC0 && cp <= 0xDE && cp != 0xD7) return cp + 0x20;
  if (cp >= 0x100 && cp <= 0x17F) {
    if (cp == 0x130) return 'i';                 // İ -> i (the combining dot is dropped)
    if (cp == 0x178) return 0xFF;                // Ÿ -> ÿ
    if (cp == 0x131 || cp == 0x138 || cp == 0x149 || cp == 0x17F) return cp;  // ı ĸ ŉ ſ: lower already
    const bool odd_upper = (cp >= 0x139 && cp <= 0x148) || (cp >= 0x179 && cp <= 0x17E);
    if (odd_upper) return (cp % 2 == 1) ? cp + 1 : cp;
    return (cp % 2 == 0) ? cp + 1 : cp;
  }
  if (cp >= 0x391 && cp <= 0x3A9 && cp != 0x3A2) return cp + 0x20;  // Greek capitals
  if (cp == 0x386) return 0x3AC;
  if (cp >= 0x388 && cp <= 0x38A) return cp + 37;
  if (cp == 0x38C) return 0x3CC;
  if (cp == 0x38E || cp == 0x38F) return cp + 63;
  if (cp >= 0x410 && cp <= 0x42F) return cp + 0x20;  // Cyrillic А..Я
  if (cp >= 0x400 && cp <= 0x40F) return cp + 0x50;  // Ѐ..Џ
  if (cp >= 0x460 && cp <= 0x4FF && cp % 2 == 0 && !(cp >= 0x482 && cp <= 0x489)) {
    if (cp == 0x4C0) return 0x4CF;
    if (cp >= 0x4C1 && cp <= 0x4CE) return cp;  // odd-upper run handled below
    return cp + 1;
  }
  if (cp >= 0x4C1 && cp <= 0x4CE && cp % 2 == 1) return cp + 1;
  if (cp >= 0x531 && cp <= 0x556) return cp + 0x30;  // Armenian
  if (cp >= 0xFF21 && cp <= 0xFF3A) return cp + 0x20;  // fullwidth A..Z
  return cp;
}

const char* fold_code_point(char32_t cp) {
  if (cp >= 0xC0 && cp <= 0x17F) return kLatinFold[cp - 0xC0];
  if (cp >= 0x300 && cp <= 0x36F) return "";  // combining diacritical marks
  return nullptr;
}

bool is_cjk(char32_t cp) {
  return (cp >= 0x3040 && cp <= 0x30FF) ||   // hiragana, katakana
         (cp >= 0x3400 && cp <= 0x4DBF) ||   // CJK extension A
         (cp >= 0x4E00 && cp <= 0x9FFF) ||   // CJK unified ideographs
         (cp >= 0xAC00 && cp <= 0xD7AF) ||   // hangul syllables
         (cp >= 0xF900 && cp <= 0xFAFF) ||   // CJK compatibility ideographs
         (cp >= 0x20000 && cp <= 0x2FA1F);   // extensions B..F, compatibility supplement
}

std::string fold(std::string_view text, const FoldOptions& options) {
  std::string out;
  fold_into(text, options, &out);
  return out;
}

void fold_into(std::string_view text, const FoldOptions& options, std::string* out_str) {
  std::string& out = *out_str;
  // Invariant: out.size() - o >= n - i (room for the rest of the text at one byte per byte). ASCII
  // keeps its length, so the ASCII loops write in place; a non-ASCII code point may grow ("ss" from
  // 2 bytes, U+FFFD's 3 bytes from 1 invalid byte), so that path appends and restores the room.
  out.resize(text.size());
  char* w = out.data();
  std::size_t o = 0;
  std::size_t i = 0;
  const std::size_t n = text.size();
  const char* src = text.data();
  const bool lower = options.lowercase;
  while (i < n) {
    // ASCII fast path: 8 bytes at a time while none has the high bit set.
    while (i + 8 <= n) {
      std::uint64_t v;
      std::memcpy(&v, src + i, 8);
      if ((v & 0x8080808080808080ull) != 0) break;
      if (lower) {
        // Every byte is < 0x80, so adding 0x3F or 0x25 carries into no neighbour: bytes in
        // ['A', 'Z'] get 0x20 added.
        const std::uint64_t ge_a = v + 0x3F3F3F3F3F3F3F3Full;   // bit 7 set when byte >= 0x41
        const std::uint64_t gt_z = v + 0x2525252525252525ull;   // bit 7 set when byte >= 0x5B
        const std::uint64_t upper = (ge_a & ~gt_z) & 0x8080808080808080ull;
        v |= upper >> 2;  // 0x80 >> 2 = 0x20
      }
      std::memcpy(w + o, &v, 8);
      i += 8;
      o += 8;
    }
    if (i >= n) break;
    const auto b = static_cast<unsigned char>(src[i]);
    if (b < 0x80) {
      const char c = lower && b >= 'A' && b <= 'Z' ? static_cast<char>(b + 32) : static_cast<char>(b);
      w[o++] = c;
      ++i;
      continue;
    }
    std::size_t len;
    bool ok;
    char32_t cp = decode_utf8(text, i, &len, &ok);
    if (lower) cp = lower_code_point(cp);
    const char* folded = options.fold_accents ? fold_code_point(cp) : nullptr;
    out.resize(o);  // slow path: append from here on, then restore the headroom
    if (folded != nullptr) {
      for (const char* p = folded; *p; ++p) out.push_back(lower && *p >= 'A' && *p <= 'Z' ? static_cast<char>(*p + 32) : *p);
    } else if (ok && !lower) {
      out.append(src + i, len);
    } else {
      append_utf8(out, cp);
    }
    i += len;
    o = out.size();
    out.resize(o + (n - i));
    w = out.data();
  }
  out.resize(o);
}

}  // namespace ragwasm::text
