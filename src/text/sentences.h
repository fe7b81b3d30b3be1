// Rule-based sentence splitter over UTF-8 text: abbreviations (Dr., U.S., Inc.), initials, decimals,
// ellipses, closing quotes, bullet/numbered lists, markdown headers/tables and blank-line paragraph
// breaks. Returns exact byte spans; used by sentence packing, the extractive answerer and evaluation.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "common/result.h"

namespace ragwasm::text {

struct Span {
  std::size_t start = 0;  // byte offset, inclusive
  std::size_t end = 0;    // byte offset, exclusive
};

struct SentenceOptions {
  // Extra abbreviations (without the final period, any case; "e.g" or "approx"), added to the
  // built-in English list. At most kMaxAbbreviations, each at most kMaxAbbreviationBytes.
  std::vector<std::string> abbreviations;
  // When true every line break ends a sentence (verse, logs); by default a single newline inside a
  // paragraph does not, a blank line always does.
  bool newline_breaks = false;
};

// A compiled splitter (its abbreviation set is built once). Thread-compatible, immutable after create.
class SentenceSplitter {
 public:
  // Errors: INVALID_ARGUMENT when an abbreviation is empty, has white space or is too long;
  // LIMIT_EXCEEDED when there are more than kMaxAbbreviations.
  static Result<SentenceSplitter> create(const SentenceOptions& options = {});

  // Sentences of `text` in order, trimmed of surrounding white space; never empty spans.
  // Spans cover every non-space character of the text exactly once. Invalid UTF-8 bytes are treated
  // as ordinary non-space characters (callers validate or repair first).
  std::vector<Span> split(std::string_view text) const;

 private:
  SentenceSplitter() = default;
  bool is_abbreviation(std::string_view word_lower) const;
  bool breaks_after_period(std::string_view text, std::size_t word_start, std::size_t period,
                           std::size_t next) const;

  std::unordered_set<std::string> extra_;
  bool newline_breaks_ = false;
};

// Convenience: split with the default options.
std::vector<Span> split_sentences(std::string_view text);

}  // namespace ragwasm::text
