// Text -> index terms: Unicode-aware tokenization (letters and digits), lowercasing + accent folding
// (src/text/casefold.h), identifiers joined by - _ . / kept whole and by parts ("TS-999" -> "ts",
// "999", "ts-999"), an English stopword list (replaceable), the Snowball English (Porter2) stemmer
// and overlapping bigrams for CJK runs. Every stage can be switched off.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "common/result.h"

namespace ragwasm::sparse {

enum class Stemmer { kNone, kPorter2 };

// Lucene's English stop words (EnglishAnalyzer.ENGLISH_STOP_WORDS_SET, 33 words).
const std::vector<std::string>& lucene_english_stopwords();

struct AnalyzerOptions {
  bool lowercase = true;
  bool fold_accents = true;
  bool use_stopwords = true;
  std::vector<std::string> stopwords = lucene_english_stopwords();  // folded like the text
  Stemmer stemmer = Stemmer::kPorter2;
  bool cjk_bigrams = true;     // CJK runs -> overlapping bigrams (off: one token per character)
  bool identifiers = true;     // also emit joined compounds that contain a digit ("covid-19")
  std::size_t max_token_bytes = 255;  // longer tokens are dropped (Lucene's default limit)
};

// One token before normalization. kWord still needs normalize() (possessive, stopword, stem);
// kFinal is a finished term (CJK gram); kOverlap is a finished joined identifier that overlaps its
// parts (not counted in lengths, like Lucene's position-increment-0 tokens with discountOverlaps).
struct RawToken {
  enum class Kind : std::uint8_t { kWord, kFinal, kOverlap };
  std::string_view text;
  Kind kind;
};

class Analyzer {
 public:
  static Result<Analyzer> create(const AnalyzerOptions& options);
  const AnalyzerOptions& options() const { return options_; }

  // Appends the terms of `text` (any bytes; invalid UTF-8 is read as U+FFFD) to *out. Joined
  // identifiers overlap their parts (as Lucene's preserved originals at position increment 0): when
  // `overlaps` is given it is increased by their number, so lengths can leave them out.
  void analyze(std::string_view text, std::vector<std::string>* out, std::size_t* overlaps = nullptr) const;
  std::vector<std::string> analyze(std::string_view text) const {
    std::vector<std::string> out;
    analyze(text, &out);
    return out;
  }

  // Tokenization only. Views point into `text` or into *scratch (the folded text), so both must
  // outlive the tokens. Clears *out first.
  void tokenize(std::string_view text, std::string* scratch, std::vector<RawToken>* out) const;
  // Word -> term: possessive removal, stopwords, stemming. False when the word is dropped.
  // memo = false skips the stem memo (same result): for callers that memoize words themselves, as
  // indexing does (its word cache), where the memo only costs a lookup and an insert per new word.
  bool normalize(std::string_view word, std::string* out, bool memo = true) const;

 private:
  void emit_word(std::string_view word, std::vector<std::string>* out) const;
  AnalyzerOptions options_;
  std::unordered_set<std::string> stop_;
  std::size_t max_stop_len_ = 0;
  mutable std::unordered_map<std::string, std::string> stem_cache_;  // bounded memo of porter2_stem
};

}  // namespace ragwasm::sparse
