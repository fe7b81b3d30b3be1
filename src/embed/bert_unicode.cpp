// Table lookups for bert_unicode.h: binary search over sorted ranges and mappings, with ASCII fast paths.
#include "embed/bert_unicode.h"

#include <algorithm>
#include <cstdint>
#include <iterator>

namespace ragwasm::embed::unicode {
namespace {

struct CodePointRange {
  char32_t lo;
  char32_t hi;
};
struct CodePointMapping {
  char32_t cp;
  std::uint8_t length;
  char32_t to[4];
};

#include "embed/unicode_tables.inc"

template <std::size_t N>
bool in_ranges(const CodePointRange (&table)[N], char32_t cp) {
  const CodePointRange* end = table + N;
  const CodePointRange* it = std::upper_bound(table, end, cp, [](char32_t c, const CodePointRange& r) { return c < r.lo; });
  if (it == table) return false;
  --it;
  return cp <= it->hi;
}

template <std::size_t N>
const CodePointMapping* find_mapping(const CodePointMapping (&table)[N], char32_t cp) {
  const CodePointMapping* end = table + N;
  const CodePointMapping* it = std::lower_bound(table, end, cp, [](const CodePointMapping& m, char32_t c) { return m.cp < c; });
  return (it != end && it->cp == cp) ? it : nullptr;
}

}  // namespace

bool is_punctuation(char32_t cp) {
  if (cp < 0x80) return (cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96) || (cp >= 123 && cp <= 126);
  return in_ranges(kPunctuation, cp);
}
bool is_control(char32_t cp) {
  if (cp < 0x80) return cp < 0x20 || cp == 0x7F;
  return in_ranges(kControl, cp);
}
bool is_white_space(char32_t cp) {
  if (cp < 0x80) return cp == ' ' || (cp >= 9 && cp <= 13);
  return in_ranges(kWhiteSpace, cp);
}
bool is_nonspacing_mark(char32_t cp) { return cp >= 0x300 && in_ranges(kNonspacingMark, cp); }
bool is_cased(char32_t cp) { return in_ranges(kCased, cp); }
bool is_case_ignorable(char32_t cp) { return in_ranges(kCaseIgnorable, cp); }

bool is_chinese_char(char32_t cp) {
  return (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0xF900 && cp <= 0xFAFF);
}

void append_lower(char32_t cp, std::u32string& out) {
  if (cp < 0x80) {
    out.push_back((cp >= 'A' && cp <= 'Z') ? cp + 32 : cp);
    return;
  }
  if (const CodePointMapping* m = find_mapping(kLowercase, cp)) {
    out.append(m->to, m->length);
  } else {
    out.push_back(cp);
  }
}

void append_nfd(char32_t cp, std::u32string& out) {
  if (cp < 0xC0) {
    out.push_back(cp);
    return;
  }
  if (cp >= 0xAC00 && cp <= 0xD7A3) {  // Hangul syllables (Unicode 3.12, algorithmic)
    const char32_t s = cp - 0xAC00;
    out.push_back(0x1100 + s / 588);
    out.push_back(0x1161 + (s % 588) / 28);
    if (s % 28 != 0) out.push_back(0x11A7 + s % 28);
    return;
  }
  if (const CodePointMapping* m = find_mapping(kDecomposition, cp)) {
    out.append(m->to, m->length);
  } else {
    out.push_back(cp);
  }
}

}  // namespace ragwasm::embed::unicode
