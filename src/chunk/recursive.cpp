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
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "chunk/chunk.h"
#include "text/utf8.h"

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

class Recursive {
 public:
  Recursive(std::string_view text, const ChunkOptions& o, const std::vector<std::string>& seps,
            std::vector<ChunkSpan>* out)
      : t_(text), o_(o), seps_(seps), out_(out), ascii_utf16_(false) {}

  void run() {
    if (o_.unit == Unit::kUtf16 || o_.unit == Unit::kCodePoints) {
      ascii_utf16_ = true;
      for (unsigned char b : t_) {
        if (b >= 0x80) {
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
    return measure(t_.substr(a, b - a), o_.unit);
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
      const unsigned char c = static_cast<unsigned char>(t_[i]);
      u += static_cast<std::uint32_t>((c & 0xC0) != 0x80) + static_cast<std::uint32_t>(utf16 && c >= 0xF0);
    }
    prefix_[b - a] = u;
  }

  void emit_trimmed(std::size_t a, std::size_t b) {
    trim_js(t_, &a, &b);
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

  // _splitText(text[a, b), separators[from..]).
  void split(std::size_t a, std::size_t b, std::size_t from) {
    const std::size_t n = seps_.size();
    std::string_view sep;
    bool by_char = false;       // separator "" (or undefined): split into code points
    bool has_next = false;      // newSeparators defined
    std::size_t next_from = n;
    const std::string_view text = t_.substr(a, b - a);
    if (from >= n) {
      by_char = true;  // separators = []: separator undefined -> text.split("")
    } else {
      bool found = false;
      for (std::size_t i = from; i < n; ++i) {
        const std::string& s = seps_[i];
        if (s.empty()) {
          by_char = true;
          found = true;
          break;
        }
        if (text.find(s) != std::string_view::npos) {
          sep = s;
          has_next = true;
          next_from = i + 1;
          found = true;
          break;
        }
      }
      if (!found) sep = seps_[n - 1];  // the last separator, absent from the text: one piece
    }

    std::vector<Piece> pieces;
    if (by_char) {
      std::size_t i = a;
      while (i < b) {
        const unsigned char c = static_cast<unsigned char>(t_[i]);
        const std::size_t l = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        const std::size_t e = i + l > b ? b : i + l;
        pieces.push_back(Piece{i, e, len(i, e)});
        i = e;
      }
    } else {
      std::size_t piece_start = a;
      std::size_t pos = sep.empty() ? std::string_view::npos : text.find(sep, 1);
      while (pos != std::string_view::npos) {
        const std::size_t abs = a + pos;
        pieces.push_back(Piece{piece_start, abs, len(piece_start, abs)});
        piece_start = abs;
        pos = text.find(sep, pos + 1);
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

  std::string_view t_;
  const ChunkOptions& o_;
  const std::vector<std::string>& seps_;
  std::vector<ChunkSpan>* out_;
  bool ascii_utf16_;
  std::vector<std::uint32_t> prefix_;
  std::size_t prefix_base_ = 0;
};

}  // namespace

std::vector<ChunkSpan> split_recursive(std::string_view text, const ChunkOptions& o,
                                       const std::vector<std::string>& separators) {
  std::vector<ChunkSpan> out;
  if (text.empty()) return out;
  if (!o.strict) {
    Recursive(text, o, separators, &out).run();
    return out;
  }
  // Strict: "" is always the last resort, so no piece is emitted whole when too long.
  std::vector<std::string> seps = separators;
  if (seps.empty() || !seps.back().empty()) seps.emplace_back();
  Recursive(text, o, seps, &out).run();
  return out;
}

}  // namespace ragwasm::chunk
