// Recursive character splitting with exactly the semantics of LangChain.js 1.0
// RecursiveCharacterTextSplitter (keepSeparator = true), over byte spans instead of strings:
//  _splitText: the first separator that is "" or occurs in the text is used; the text is split
//  before every (overlapping) occurrence at a position > 0 (`split(/(?=sep)/)`); pieces shorter than
//  chunkSize are merged by _mergeSplits; longer ones recurse with the remaining separators, or are
//  emitted untrimmed when none remain. _mergeSplits keeps a window of pieces, emits the JS-trimmed
//  join when the next piece would overflow, then drops pieces from the front while the window is
//  longer than chunkOverlap (or the next piece still does not fit).
// One deliberate difference: the "" separator splits into code points, not UTF-16 units, so a
// surrogate pair is never cut (LangChain.js can emit lone surrogates there).
// One implementation, two code-unit types: `char` (UTF-8 bytes, every unit) and `char16_t` (UTF-16
// code units, unit utf16 only: the JS binding's fast path, which skips encoding the JS string to
// UTF-8 and converting offsets back; a piece's length is then just its span).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "chunk/chunk.h"
#include "text/utf8.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace ragwasm::chunk {

const std::vector<std::string>& default_separators() {
  static const std::vector<std::string> kSeps = {"\n\n", "\n", " ", ""};
  return kSeps;
}

const std::vector<std::string>& markdown_separators() {
  static const std::vector<std::string> kSeps = {
      "\n## ", "\n### ", "\n#### ", "\n##### ", "\n###### ", "```\n\n", "\n\n***\n\n",
      "\n\n---\n\n", "\n\n___\n\n", "\n\n", "\n", " ", ""};
  return kSeps;
}

namespace {

struct Piece {
  std::size_t start;
  std::size_t end;
  std::size_t len;
};

template <typename CharT>
class Recursive {
 public:
  using View = std::basic_string_view<CharT>;
  using Str = std::basic_string<CharT>;
  static constexpr bool kWide = sizeof(CharT) == 2;

  Recursive(View text, const ChunkOptions& o, const std::vector<Str>& seps, std::vector<ChunkSpan>* out)
      : t_(text), o_(o), seps_(seps), out_(out), ascii_utf16_(false) {}

  void run() {
    if (kWide) {
      ascii_utf16_ = true;  // lengths in UTF-16 units are spans (only unit utf16 takes this path)
    } else if (o_.unit == Unit::kUtf16 || o_.unit == Unit::kCodePoints) {
      ascii_utf16_ = true;
      for (CharT ch : t_) {
        if (static_cast<std::uint32_t>(ch) >= 0x80) {
          ascii_utf16_ = false;
          break;
        }
      }
    }
    split(0, t_.size(), 0);
  }

 private:
  std::size_t len(std::size_t a, std::size_t b) const {
    if (ascii_utf16_ || o_.unit == Unit::kBytes) return b - a;
    if (!prefix_.empty() && a >= prefix_base_ && b - prefix_base_ < prefix_.size()) {
      return prefix_[b - prefix_base_] - prefix_[a - prefix_base_];  // a, b are code point boundaries
    }
    if constexpr (kWide) {
      return b - a;
    } else {
      return measure(t_.substr(a, b - a), o_.unit);
    }
  }

  // Before recursing into an oversize piece of non-ASCII text: prefix counts over [a, b) make every
  // sub-piece length O(1) at all deeper levels (children lie inside the parent).
  void cover(std::size_t a, std::size_t b) {
    if (ascii_utf16_ || (o_.unit != Unit::kUtf16 && o_.unit != Unit::kCodePoints)) return;
    if (!prefix_.empty() && a >= prefix_base_ && b - prefix_base_ < prefix_.size()) return;
    prefix_.resize(b - a + 1);
    prefix_base_ = a;
    std::uint32_t u = 0;
    const bool utf16 = o_.unit == Unit::kUtf16;
    for (std::size_t i = a; i < b; ++i) {
      prefix_[i - a] = u;
      const std::uint32_t c = static_cast<std::uint32_t>(t_[i]) & 0xFF;
      u += static_cast<std::uint32_t>((c & 0xC0) != 0x80) + static_cast<std::uint32_t>(utf16 && c >= 0xF0);
    }
    prefix_[b - a] = u;
  }

  void emit_trimmed(std::size_t a, std::size_t b) {
    if constexpr (kWide) {
      trim_js16(t_, &a, &b);
    } else {
      trim_js(t_, &a, &b);
    }
    if (a < b) out_->push_back(ChunkSpan{a, b, -1});
  }

  // _mergeSplits over the contiguous pieces [from, to) (separator length 0: keepSeparator).
  void merge(const std::vector<Piece>& p, std::size_t from, std::size_t to) {
    const std::size_t size = o_.chunk_size;
    const std::size_t overlap = o_.chunk_overlap;
    std::size_t head = from;
    std::size_t total = 0;
    for (std::size_t i = from; i < to; ++i) {
      const std::size_t l = p[i].len;
      if (total + l > size && i > head) {
        emit_trimmed(p[head].start, p[i - 1].end);
        while (total > overlap || (total + l > size && total > 0)) {
          total -= p[head].len;
          ++head;
        }
      }
      total += l;
    }
    if (head < to) emit_trimmed(p[head].start, p[to - 1].end);
  }

  // The first separator in seps_[from..] that is "" or occurs in `text`, or seps_.size() when none:
  // one scan of the text for all candidates at once (instead of one find per absent separator, which
  // the 13 markdown separators made the main cost). Positions whose unit starts some separator still
  // able to win (index < best so far) are tested; whole blocks without such a unit are skipped (SIMD).
  std::size_t first_present(View text, std::size_t from) const {
    const std::size_t n = seps_.size();
    std::size_t best = n;
    for (std::size_t k = from; k < n; ++k) {
      if (seps_[k].empty()) {
        best = k;
        break;
      }
    }
    if (best == from) return best;
    if (best == from + 1) return find(text, seps_[from], 0) != View::npos ? from : best;
    CharT firsts[4];
    std::size_t nf = 0;
    bool few = true;  // at most 4 distinct first units among candidates
    auto rebuild = [&] {
      nf = 0;
      few = true;
      for (std::size_t k = from; k < best; ++k) {
        const CharT c = seps_[k][0];
        bool seen = false;
        for (std::size_t q = 0; q < nf; ++q) seen = seen || firsts[q] == c;
        if (seen) continue;
        if (nf == 4) {
          few = false;
          return;
        }
        firsts[nf++] = c;
      }
    };
    rebuild();
    const std::size_t len = text.size();
    std::size_t i = 0;
    while (i < len) {
#if defined(__wasm_simd128__)
      if (few) {
        constexpr std::size_t kLanes = 16 / sizeof(CharT);
        const v128_t c0 = splat(firsts[0]);
        const v128_t c1 = splat(nf > 1 ? firsts[1] : firsts[0]);
        const v128_t c2 = splat(nf > 2 ? firsts[2] : firsts[0]);
        const v128_t c3 = splat(nf > 3 ? firsts[3] : firsts[0]);
        bool changed = false;
        while (i + kLanes <= len && !changed) {
          const v128_t v = wasm_v128_load(text.data() + i);
          const v128_t m = wasm_v128_or(wasm_v128_or(eq(v, c0), eq(v, c1)), wasm_v128_or(eq(v, c2), eq(v, c3)));
          std::uint32_t bits = bitmask(m);
          while (bits != 0) {  // only the lanes holding a candidate first unit
            const std::size_t lane = static_cast<std::size_t>(__builtin_ctz(bits));
            bits &= bits - 1;
            if (test_at(text, i + lane, from, &best)) {
              if (best == from) return best;
              i += lane + 1;
              changed = true;
              break;
            }
          }
          if (!changed) i += kLanes;
        }
        if (changed) {
          rebuild();
          continue;
        }
        // tail: fewer than kLanes units left
        for (; i < len; ++i) {
          if (test_at(text, i, from, &best)) {
            if (best == from) return best;
            rebuild();
            ++i;
            break;
          }
        }
        continue;
      }
#endif
      if (few) {  // cheap filter before testing the separators one by one
        const CharT c = text[i];
        bool hit = false;
        for (std::size_t q = 0; q < nf; ++q) hit = hit || firsts[q] == c;
        if (!hit) {
          ++i;
          continue;
        }
      }
      if (test_at(text, i, from, &best)) {
        if (best == from) return best;
        rebuild();
      }
      ++i;
    }
    return best;
  }

  // text.find(s, pos) for a non-empty s, scanning for its first unit a block at a time (SIMD).
  static std::size_t find(View text, View s, std::size_t pos) {
    const std::size_t len = text.size();
    if (s.size() > len) return View::npos;
    const std::size_t last = len - s.size();  // the last possible start
    std::size_t i = pos;
#if defined(__wasm_simd128__)
    constexpr std::size_t kLanes = 16 / sizeof(CharT);
    const v128_t c0 = splat(s[0]);
    if constexpr (kWide) {
      // 16 units per step: the two 16-bit compare masks narrowed to one byte mask (lane k = unit i + k).
      while (i + 16 <= len) {
        const v128_t m = wasm_i8x16_narrow_i16x8(eq(wasm_v128_load(text.data() + i), c0), eq(wasm_v128_load(text.data() + i + 8), c0));
        std::uint32_t bits = wasm_i8x16_bitmask(m);
        while (bits != 0) {
          const std::size_t at = i + static_cast<std::size_t>(__builtin_ctz(bits));
          bits &= bits - 1;
          if (at > last) return View::npos;
          if (text.compare(at, s.size(), s) == 0) return at;
        }
        i += 16;
      }
    }
    while (i + kLanes <= len) {
      std::uint32_t bits = bitmask(eq(wasm_v128_load(text.data() + i), c0));
      while (bits != 0) {
        const std::size_t at = i + static_cast<std::size_t>(__builtin_ctz(bits));
        bits &= bits - 1;
        if (at > last) return View::npos;
        if (text.compare(at, s.size(), s) == 0) return at;
      }
      i += kLanes;
    }
#endif
    for (; i <= last; ++i) {
      if (text[i] == s[0] && text.compare(i, s.size(), s) == 0) return i;
    }
    return View::npos;
  }

  // Tests the separators seps_[from, *best) at position i; lowers *best on a match.
  bool test_at(View text, std::size_t i, std::size_t from, std::size_t* best) const {
    const CharT c = text[i];
    for (std::size_t k = from; k < *best; ++k) {
      const Str& s = seps_[k];
      if (s[0] == c && text.size() - i >= s.size() && text.compare(i, s.size(), s) == 0) {
        *best = k;
        return true;
      }
    }
    return false;
  }

#if defined(__wasm_simd128__)
  static v128_t splat(CharT c) {
    if constexpr (kWide) {
      return wasm_i16x8_splat(static_cast<std::int16_t>(c));
    } else {
      return wasm_i8x16_splat(static_cast<std::int8_t>(c));
    }
  }
  static std::uint32_t bitmask(v128_t m) {
    if constexpr (kWide) {
      return wasm_i16x8_bitmask(m);
    } else {
      return wasm_i8x16_bitmask(m);
    }
  }
  static v128_t eq(v128_t a, v128_t b) {
    if constexpr (kWide) {
      return wasm_i16x8_eq(a, b);
    } else {
      return wasm_i8x16_eq(a, b);
    }
  }
#endif

  // _splitText(text[a, b), separators[from..]).
  void split(std::size_t a, std::size_t b, std::size_t from) {
    const std::size_t n = seps_.size();
    View sep;
    bool by_char = false;       // separator "" (or undefined): split into code points
    bool has_next = false;      // newSeparators defined
    std::size_t next_from = n;
    const View text = t_.substr(a, b - a);
    if (from >= n) {
      by_char = true;  // separators = []: separator undefined -> text.split("")
    } else {
      const std::size_t i = first_present(text, from);
      bool found = i < n;
      if (found) {
        if (seps_[i].empty()) {
          by_char = true;
        } else {
          sep = seps_[i];
          has_next = true;
          next_from = i + 1;
        }
      }
      if (!found) sep = seps_[n - 1];  // the last separator, absent from the text: one piece
    }

    std::vector<Piece> pieces;
    if (by_char) {
      std::size_t i = a;
      while (i < b) {
        std::size_t l = 1;
        if constexpr (kWide) {  // a surrogate pair is one piece; a lone surrogate is one unit
          const std::uint32_t c = t_[i];
          if (c >= 0xD800 && c <= 0xDBFF && i + 1 < b && t_[i + 1] >= 0xDC00 && t_[i + 1] <= 0xDFFF) l = 2;
        } else {
          const unsigned char c = static_cast<unsigned char>(t_[i]);
          l = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        }
        const std::size_t e = i + l > b ? b : i + l;
        pieces.push_back(Piece{i, e, len(i, e)});
        i = e;
      }
    } else {
      std::size_t piece_start = a;
      std::size_t pos = sep.empty() ? View::npos : find(text, sep, 1);
      while (pos != View::npos) {
        const std::size_t abs = a + pos;
        pieces.push_back(Piece{piece_start, abs, len(piece_start, abs)});
        piece_start = abs;
        pos = find(text, sep, pos + 1);
      }
      if (piece_start < b) pieces.push_back(Piece{piece_start, b, len(piece_start, b)});
    }

    std::size_t good_from = 0;
    bool have_good = false;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      if (pieces[i].len < o_.chunk_size) {
        if (!have_good) {
          good_from = i;
          have_good = true;
        }
        continue;
      }
      if (have_good) {
        merge(pieces, good_from, i);
        have_good = false;
      }
      if (!has_next) {
        if (o_.strict) {
          emit_trimmed(pieces[i].start, pieces[i].end);
        } else {
          out_->push_back(ChunkSpan{pieces[i].start, pieces[i].end, -1});  // untrimmed, as LangChain.js
        }
      } else {
        cover(pieces[i].start, pieces[i].end);
        split(pieces[i].start, pieces[i].end, next_from);
      }
    }
    if (have_good) merge(pieces, good_from, pieces.size());
  }

  View t_;
  const ChunkOptions& o_;
  const std::vector<Str>& seps_;
  std::vector<ChunkSpan>* out_;
  bool ascii_utf16_;
  std::vector<std::uint32_t> prefix_;
  std::size_t prefix_base_ = 0;
};


template <typename CharT>
std::vector<ChunkSpan> run_recursive(std::basic_string_view<CharT> text, const ChunkOptions& o,
                                     const std::vector<std::basic_string<CharT>>& separators) {
  std::vector<ChunkSpan> out;
  if (text.empty()) return out;
  if (!o.strict) {
    Recursive<CharT>(text, o, separators, &out).run();
    return out;
  }
  // Strict: "" is always the last resort, so no piece is emitted whole when too long.
  std::vector<std::basic_string<CharT>> seps = separators;
  if (seps.empty() || !seps.back().empty()) seps.emplace_back();
  Recursive<CharT>(text, o, seps, &out).run();
  return out;
}

}  // namespace

std::vector<ChunkSpan> split_recursive(std::string_view text, const ChunkOptions& o,
                                       const std::vector<std::string>& separators) {
  return run_recursive<char>(text, o, separators);
}

std::vector<ChunkSpan> split_recursive16(std::u16string_view text, const ChunkOptions& o,
                                         const std::vector<std::string>& separators) {
  std::vector<std::u16string> seps;
  seps.reserve(separators.size());
  for (const std::string& s : separators) seps.push_back(text::to_utf16(s));
  ChunkOptions o16 = o;
  o16.unit = Unit::kUtf16;  // a span of UTF-16 units is its length
  return run_recursive<char16_t>(text, o16, seps);
}

}  // namespace ragwasm::chunk
