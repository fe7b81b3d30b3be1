// Sentence splitting in two passes: line structure (blank lines, list items, headers, tables, code
// fences) makes blocks; inside a block, terminators (. ! ? … 。！？) end a sentence when the
// following context says so (see breaks_after_period for the period rules).
#include "text/sentences.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "common/limits.h"
#include "text/casefold.h"
#include "text/utf8.h"

namespace ragwasm::text {
namespace {

// Abbreviations that never end a sentence when followed by a capitalised word (titles, Latin).
constexpr std::array<std::string_view, 33> kTitleAbbreviations = {
    "mr", "mrs", "ms", "dr", "prof", "st", "rev", "hon", "gen", "col", "capt", "lt", "sgt",
    "maj", "cmdr", "adm", "gov", "sen", "rep", "pres", "messrs", "mme", "mlle", "mt", "ft",
    "vs", "cf", "e.g", "i.e", "viz", "approx", "ca", "resp"};
// Abbreviations followed by a number ("No. 5", "Fig. 3", "Jan. 12", "ext. 4400"): no break before a digit.
constexpr std::array<std::string_view, 29> kNumberAbbreviations = {
    "no", "nos", "vol", "vols", "p", "pp", "fig", "figs", "eq", "eqs", "sec", "art", "ch",
    "ref", "refs", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov",
    "dec", "ext", "tel"};
// Abbreviations that may also end a sentence: a break only when a typical sentence opener follows.
constexpr std::array<std::string_view, 20> kFinalAbbreviations = {
    "inc", "ltd", "co", "corp", "llc", "plc", "jr", "sr", "etc", "al", "u.s", "u.k", "a.m", "p.m",
    "dept", "univ", "assn", "bros", "est", "misc"};
constexpr std::array<std::string_view, 64> kSentenceOpeners = {
    "the", "a", "an", "this", "that", "these", "those", "it", "its", "he", "she", "they", "we", "i",
    "you", "our", "their", "his", "her", "there", "here", "in", "on", "at", "as", "for", "but",
    "and", "or", "so", "however", "then", "when", "while", "after", "before", "if", "during",
    "although", "because", "since", "thus", "therefore", "also", "meanwhile", "moreover",
    "finally", "first", "second", "next", "yes", "no", "what", "who", "how", "why", "where",
    "which", "each", "all", "some", "many", "most", "my"};

template <std::size_t N>
bool contains(const std::array<std::string_view, N>& list, std::string_view w) {
  return std::find(list.begin(), list.end(), w) != list.end();
}

bool is_space_byte(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// White space at pos (ASCII, NBSP, ideographic space); sets *len.
bool space_at(std::string_view t, std::size_t pos, std::size_t* len) {
  const auto c = static_cast<unsigned char>(t[pos]);
  if (c < 0x80) {
    *len = 1;
    return is_space_byte(c);
  }
  const char32_t cp = decode_utf8(t, pos, len);
  return cp == 0xA0 || cp == 0x3000 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029;
}

std::size_t skip_space(std::string_view t, std::size_t pos, std::size_t end) {
  std::size_t len;
  while (pos < end && space_at(t, pos, &len)) pos += len;
  return pos;
}

bool is_terminator(char32_t cp) { return cp == '.' || cp == '!' || cp == '?' || cp == 0x2026; }
bool is_cjk_terminator(char32_t cp) { return cp == 0x3002 || cp == 0xFF01 || cp == 0xFF1F || cp == 0xFF0E; }
bool is_closing(char32_t cp) {
  return cp == '"' || cp == '\'' || cp == ')' || cp == ']' || cp == '}' || cp == 0x201D || cp == 0x2019 ||
         cp == 0xBB || cp == 0x300D || cp == 0x300F || cp == 0xFF09;
}
bool is_opening(char32_t cp) {
  return cp == '"' || cp == '\'' || cp == '(' || cp == '[' || cp == '{' || cp == 0x201C || cp == 0x2018 ||
         cp == 0xAB || cp == '*' || cp == '_';
}

bool is_upper_cp(char32_t cp) { return lower_code_point(cp) != cp; }
bool is_lower_cp(char32_t cp) {
  if (cp < 0x80) return cp >= 'a' && cp <= 'z';
  if (cp >= 0xDF && cp <= 0xFF) return cp != 0xF7;
  if (cp >= 0x100 && cp <= 0x17F) return lower_code_point(cp) == cp;
  return (cp >= 0x3AC && cp <= 0x3CE) || (cp >= 0x430 && cp <= 0x45F);
}

// The word starting at pos (letters, digits, apostrophes), ASCII-lowercased.
std::string word_at(std::string_view t, std::size_t pos, std::size_t end) {
  std::string w;
  while (pos < end) {
    const auto c = static_cast<unsigned char>(t[pos]);
    if (c >= 0x80) break;
    if (!(std::isalnum(c) || c == '\'')) break;
    w.push_back(static_cast<char>(std::tolower(c)));
    ++pos;
  }
  return w;
}

// Line classification for the block pass.
enum class LineKind { kBlank, kText, kListItem, kHeader, kTable, kFence };

LineKind classify_line(std::string_view t, std::size_t start, std::size_t end) {
  const std::size_t p = skip_space(t, start, end);
  if (p == end) return LineKind::kBlank;
  const char c = t[p];
  const auto next_is_space = [&](std::size_t q) { return q >= end || is_space_byte(static_cast<unsigned char>(t[q])); };
  if (c == '#') {
    std::size_t q = p;
    while (q < end && t[q] == '#') ++q;
    if (q - p <= 6 && next_is_space(q)) return LineKind::kHeader;
  }
  if (c == '|') return LineKind::kTable;
  if (t.compare(p, 3, "```") == 0 || t.compare(p, 3, "~~~") == 0) return LineKind::kFence;
  if ((c == '-' || c == '*' || c == '+') && next_is_space(p + 1)) return LineKind::kListItem;
  std::size_t len;
  const char32_t cp = decode_utf8(t, p, &len);
  if ((cp == 0x2022 || cp == 0x2023 || cp == 0x25E6 || cp == 0x2043 || cp == 0x25AA) && next_is_space(p + len))
    return LineKind::kListItem;
  // Ordered items: "12." / "3)" / "(a)" followed by a space.
  std::size_t q = p;
  while (q < end && q - p < 3 && std::isdigit(static_cast<unsigned char>(t[q]))) ++q;
  if (q > p && q < end && (t[q] == '.' || t[q] == ')') && next_is_space(q + 1)) return LineKind::kListItem;
  if (c == '(' && p + 2 < end && std::isalnum(static_cast<unsigned char>(t[p + 1])) && t[p + 2] == ')' &&
      next_is_space(p + 3))
    return LineKind::kListItem;
  return LineKind::kText;
}

void emit(std::string_view t, std::size_t start, std::size_t end, std::vector<Span>& out) {
  start = skip_space(t, start, end);
  // Trim trailing white space (ASCII and the Unicode spaces recognised by space_at).
  while (end > start) {
    std::size_t back = end - 1;
    while (back > start && !is_utf8_lead(static_cast<unsigned char>(t[back]))) --back;
    std::size_t len;
    if (!space_at(t, back, &len)) break;
    end = back;
  }
  if (end > start) out.push_back(Span{start, end});
}

}  // namespace

Result<SentenceSplitter> SentenceSplitter::create(const SentenceOptions& options) {
  if (options.abbreviations.size() > kMaxAbbreviations) {
    return make_error(ErrorCode::kLimitExceeded,
                      "abbreviations: at most " + std::to_string(kMaxAbbreviations) + " allowed, got " +
                          std::to_string(options.abbreviations.size()));
  }
  SentenceSplitter s;
  s.newline_breaks_ = options.newline_breaks;
  for (std::size_t i = 0; i < options.abbreviations.size(); ++i) {
    std::string a = options.abbreviations[i];
    while (!a.empty() && a.back() == '.') a.pop_back();
    const bool has_space = std::any_of(a.begin(), a.end(), [](char c) { return is_space_byte(static_cast<unsigned char>(c)); });
    if (a.empty() || has_space || a.size() > kMaxAbbreviationBytes) {
      return make_error(ErrorCode::kInvalidArgument,
                        "abbreviations[" + std::to_string(i) + "]: expected a word of 1-" +
                            std::to_string(kMaxAbbreviationBytes) + " bytes without white space, got \"" +
                            options.abbreviations[i].substr(0, 80) + "\"");
    }
    std::transform(a.begin(), a.end(), a.begin(), [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); });
    s.extra_.insert(std::move(a));
  }
  return s;
}

bool SentenceSplitter::is_abbreviation(std::string_view w) const {
  return contains(kTitleAbbreviations, w) || contains(kNumberAbbreviations, w) ||
         contains(kFinalAbbreviations, w) || extra_.count(std::string(w)) > 0;
}

// Decides whether the period at `period` ends a sentence, given the word before it
// [word_start, period) and the first non-space byte after it, `next`.
bool SentenceSplitter::breaks_after_period(std::string_view t, std::size_t word_start, std::size_t period,
                                           std::size_t next) const {
  std::size_t len;
  const char32_t next_cp = decode_utf8(t, next, &len);
  if (is_lower_cp(next_cp)) return false;  // "approx. five", "etc. and"
  const std::string_view word = t.substr(word_start, period - word_start);
  if (word.empty()) return true;
  std::string lower;
  for (char c : word) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  const bool next_digit = next_cp >= '0' && next_cp <= '9';
  // A single capital letter is an initial ("J. Smith", "U. S. Grant").
  if (word.size() == 1 && std::isupper(static_cast<unsigned char>(word[0])) && is_upper_cp(next_cp)) return false;
  if (contains(kTitleAbbreviations, lower)) return false;
  if (contains(kNumberAbbreviations, lower)) {
    if (next_digit || next_cp == '(') return false;
  }
  const bool dotted = lower.find('.') != std::string::npos;  // "u.s", "ph.d", "e.g"
  if (contains(kFinalAbbreviations, lower) || dotted || extra_.count(lower) > 0) {
    return contains(kSentenceOpeners, word_at(t, next, t.size()));
  }
  return true;
}

std::vector<Span> SentenceSplitter::split(std::string_view t) const {
  std::vector<Span> out;
  // Pass 1: blocks from line structure.
  std::vector<Span> blocks;
  std::size_t block_start = std::string_view::npos;
  bool in_fence = false;
  LineKind prev = LineKind::kBlank;
  std::size_t line_start = 0;
  while (line_start < t.size()) {
    std::size_t line_end = t.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = t.size();
    const std::size_t next_line = line_end < t.size() ? line_end + 1 : t.size();
    const LineKind kind = classify_line(t, line_start, line_end);
    auto close_block = [&](std::size_t at) {
      if (block_start != std::string_view::npos) blocks.push_back(Span{block_start, at});
      block_start = std::string_view::npos;
    };
    if (in_fence) {
      if (kind == LineKind::kFence) {
        in_fence = false;
        close_block(line_end);
      }
    } else if (kind == LineKind::kFence) {
      close_block(line_start);
      block_start = line_start;
      in_fence = true;
    } else if (kind == LineKind::kBlank) {
      close_block(line_start);
    } else {
      const bool starts_new = newline_breaks_ || kind != LineKind::kText || prev == LineKind::kHeader ||
                              prev == LineKind::kTable || prev == LineKind::kBlank || prev == LineKind::kFence;
      if (starts_new) close_block(line_start);
      if (block_start == std::string_view::npos) block_start = line_start;
    }
    prev = kind;
    line_start = next_line;
  }
  if (block_start != std::string_view::npos) blocks.push_back(Span{block_start, t.size()});

  // Pass 2: terminators inside each block (fenced code is kept whole).
  for (const Span& b : blocks) {
    if (classify_line(t, b.start, std::min(t.find('\n', b.start), t.size())) == LineKind::kFence) {
      emit(t, b.start, b.end, out);
      continue;
    }
    std::size_t sent_start = b.start;
    std::size_t i = b.start;
    // A list marker ("1." / "2)") is not a terminator: start scanning after it.
    const std::size_t first_line_end = std::min(t.find('\n', b.start), t.size());
    if (classify_line(t, b.start, first_line_end) == LineKind::kListItem) {
      i = skip_space(t, b.start, b.end);
      while (i < b.end && !is_space_byte(static_cast<unsigned char>(t[i]))) ++i;
    }
    std::size_t word_start = i;  // start of the current whitespace-delimited word
    while (i < b.end) {
      std::size_t len;
      if (space_at(t, i, &len)) {
        i += len;
        word_start = i;
        continue;
      }
      const char32_t cp = decode_utf8(t, i, &len);
      const bool cjk = is_cjk_terminator(cp);
      if (!cjk && !is_terminator(cp)) {
        i += len;
        continue;
      }
      // The run of terminators, then closing quotes/brackets.
      std::size_t j = i + len;
      bool only_period = cp == '.';
      bool has_bang = cp == '!' || cp == '?';
      while (j < b.end) {
        std::size_t l2;
        const char32_t c2 = decode_utf8(t, j, &l2);
        if (!(is_terminator(c2) || is_cjk_terminator(c2))) break;
        only_period = false;
        has_bang = has_bang || c2 == '!' || c2 == '?';
        j += l2;
      }
      while (j < b.end) {
        std::size_t l2;
        const char32_t c2 = decode_utf8(t, j, &l2);
        if (!is_closing(c2)) break;
        j += l2;
      }
      if (j >= b.end) break;
      std::size_t l3;
      bool boundary = false;
      std::size_t next = j;
      if (cjk) {
        boundary = true;
        next = skip_space(t, j, b.end);
      } else if (space_at(t, j, &l3)) {
        next = skip_space(t, j, b.end);
        if (next >= b.end) break;
        std::size_t l4;
        char32_t nc = decode_utf8(t, next, &l4);
        std::size_t probe = next;
        while (is_opening(nc) && probe + l4 < b.end) {  // look through an opening quote
          probe += l4;
          nc = decode_utf8(t, probe, &l4);
        }
        if (only_period) {
          std::size_t ws = word_start;
          while (ws < i) {  // skip opening punctuation at the word start
            std::size_t l5;
            const char32_t c5 = decode_utf8(t, ws, &l5);
            if (!is_opening(c5)) break;
            ws += l5;
          }
          boundary = breaks_after_period(t, ws, i, probe);
        } else if (has_bang) {
          boundary = !is_lower_cp(nc);
        } else {  // ellipsis: a break only before a capital or a digit
          boundary = is_upper_cp(nc) || (nc >= '0' && nc <= '9');
        }
      }
      if (boundary) {
        emit(t, sent_start, j, out);
        sent_start = next;
        i = next;
        word_start = next;
      } else {
        i = j;
      }
    }
    emit(t, sent_start, b.end, out);
  }
  return out;
}

std::vector<Span> split_sentences(std::string_view text) {
  return SentenceSplitter::create().value().split(text);
}

}  // namespace ragwasm::text
