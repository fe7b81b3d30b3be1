#include "sparse/analyzer.h"

#include <algorithm>

#include "sparse/porter2.h"
#include "text/casefold.h"
#include "text/utf8.h"

namespace ragwasm::sparse {
namespace {

constexpr std::size_t kStemCacheMax = std::size_t{1} << 17;

// Non-ASCII code points that separate words: Latin-1 punctuation and symbols, general punctuation,
// symbols, arrows, box drawing, CJK punctuation, fullwidth ASCII punctuation, emoji, and U+FFFD.
bool is_separator_cp(char32_t cp) {
  if (cp < 0xC0) return !(cp == 0xAA || cp == 0xB5 || cp == 0xBA || cp == 0xB2 || cp == 0xB3 || cp == 0xB9);
  if (cp == 0xD7 || cp == 0xF7) return true;
  if (cp >= 0x2000 && cp <= 0x2BFF) return true;  // punctuation, super/subscripts, symbols, arrows, math
  if (cp >= 0x2E00 && cp <= 0x2E7F) return true;
  if (cp >= 0x3000 && cp <= 0x303F) return true;  // CJK symbols and punctuation
  if (cp >= 0xFE30 && cp <= 0xFE4F) return true;
  if (cp >= 0xFF00 && cp <= 0xFF0F) return true;  // fullwidth punctuation
  if (cp >= 0xFF1A && cp <= 0xFF20) return true;
  if (cp >= 0xFF3B && cp <= 0xFF40) return true;
  if (cp >= 0xFF5B && cp <= 0xFF65) return true;
  if (cp >= 0xFFF0 && cp <= 0xFFFF) return true;  // specials, U+FFFD
  if (cp >= 0x1F000 && cp <= 0x1FAFF) return true;  // emoji and pictographs
  if (cp >= 0xE000 && cp <= 0xF8FF) return true;   // private use
  if (cp >= 0x0300 && cp <= 0x036F) return false;  // combining marks stay inside words
  return false;
}

enum class Kind { kWord, kCjk, kApostrophe, kConnector, kOther };

Kind classify(char32_t cp) {
  if (cp < 0x80) {
    const char c = static_cast<char>(cp);
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return Kind::kWord;
    if (c == '\'') return Kind::kApostrophe;
    if (c == '-' || c == '_' || c == '.' || c == '/') return Kind::kConnector;
    return Kind::kOther;
  }
  if (cp == 0x2019) return Kind::kApostrophe;
  if (text::is_cjk(cp)) return Kind::kCjk;
  return is_separator_cp(cp) ? Kind::kOther : Kind::kWord;
}

struct Cp {
  char32_t cp;
  std::size_t len;
  Kind kind;
};

struct AsciiKinds {
  Kind k[128];
  AsciiKinds() {
    for (int c = 0; c < 128; ++c) k[c] = classify(static_cast<char32_t>(c));
  }
};
const AsciiKinds kAscii;

inline Cp at(std::string_view t, std::size_t i) {
  if (i >= t.size()) return {0, 0, Kind::kOther};
  const auto b = static_cast<unsigned char>(t[i]);
  if (b < 0x80) return {b, 1, kAscii.k[b]};
  std::size_t len = 1;
  const char32_t cp = text::decode_utf8(t, i, &len);
  return {cp, len, classify(cp)};
}

bool is_stemmable(std::string_view w) {
  for (char c : w) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '\'')) return false;
  }
  return true;
}

// An identifier mixes letters and digits ("ts-999", "covid-19", "il-6"); plain numbers ("3.5", "1/2")
// and plain hyphenated words are not joined.
bool is_identifier(std::string_view w) {
  bool digit = false, letter = false;
  for (char c : w) {
    if (c >= '0' && c <= '9') digit = true;
    else if (c != '-' && c != '_' && c != '.' && c != '/') letter = true;
  }
  return digit && letter;
}

}  // namespace

const std::vector<std::string>& lucene_english_stopwords() {
  static const std::vector<std::string> kWords = {
      "a",    "an",    "and",  "are",  "as",   "at",    "be",    "but",   "by",   "for",  "if",
      "in",   "into",  "is",   "it",   "no",   "not",   "of",    "on",    "or",   "such", "that",
      "the",  "their", "then", "there", "these", "they", "this", "to",    "was",  "will", "with"};
  return kWords;
}

Result<Analyzer> Analyzer::create(const AnalyzerOptions& options) {
  if (options.max_token_bytes < 1 || options.max_token_bytes > 4096) {
    return make_error(ErrorCode::kInvalidArgument, "analyzer maxTokenBytes: expected an integer in [1, 4096], got " +
                                                       std::to_string(options.max_token_bytes));
  }
  Analyzer a;
  a.options_ = options;
  text::FoldOptions fo;
  fo.lowercase = options.lowercase;
  fo.fold_accents = options.fold_accents;
  if (options.use_stopwords) {
    for (const auto& w : options.stopwords) {
      if (w.size() > 1024) {
        return make_error(ErrorCode::kInvalidArgument, "analyzer stopwords: each word must be at most 1024 bytes");
      }
      a.stop_.insert(text::fold(w, fo));
      a.max_stop_len_ = std::max(a.max_stop_len_, a.stop_.size() ? text::fold(w, fo).size() : 0);
    }
  }
  return a;
}

bool Analyzer::normalize(std::string_view word, std::string* out, bool memo) const {
  std::string tmp;
  if (word.find("\xE2\x80\x99") != std::string_view::npos) {  // typographic apostrophe -> '
    tmp.assign(word);
    std::size_t pos;
    while ((pos = tmp.find("\xE2\x80\x99")) != std::string::npos) tmp.replace(pos, 3, "'");
    word = tmp;
  }
  // possessive: trailing 's / ' removed (Lucene EnglishPossessiveFilter)
  if (word.size() >= 2 && word[word.size() - 2] == '\'' && word.back() == 's') word.remove_suffix(2);
  while (!word.empty() && word.back() == '\'') word.remove_suffix(1);
  if (word.empty() || word.size() > options_.max_token_bytes) return false;
  if (!stop_.empty() && word.size() <= max_stop_len_ && stop_.count(std::string(word)) != 0) return false;
  if (options_.stemmer == Stemmer::kPorter2 && is_stemmable(word)) {
    if (!memo) {
      *out = porter2_stem(word);
      return true;
    }
    std::string key(word);
    auto it = stem_cache_.find(key);
    if (it != stem_cache_.end()) {
      *out = it->second;
      return true;
    }
    std::string st = porter2_stem(word);
    if (stem_cache_.size() >= kStemCacheMax) stem_cache_.clear();
    stem_cache_.emplace(std::move(key), st);
    *out = std::move(st);
    return true;
  }
  out->assign(word);
  return true;
}

void Analyzer::emit_word(std::string_view word, std::vector<std::string>* out) const {
  std::string t;
  if (normalize(word, &t)) out->push_back(std::move(t));
}

void Analyzer::analyze(std::string_view input, std::vector<std::string>* out, std::size_t* overlaps) const {
  std::string scratch;
  std::vector<RawToken> toks;
  tokenize(input, &scratch, &toks);
  for (const auto& t : toks) {
    if (t.kind == RawToken::Kind::kWord) {
      emit_word(t.text, out);
    } else {
      out->emplace_back(t.text);
      if (t.kind == RawToken::Kind::kOverlap && overlaps != nullptr) ++*overlaps;
    }
  }
}

void Analyzer::tokenize(std::string_view input, std::string* scratch, std::vector<RawToken>* out) const {
  out->clear();
  std::string_view t = input;
  if (options_.lowercase || options_.fold_accents) {
    text::FoldOptions fo;
    fo.lowercase = options_.lowercase;
    fo.fold_accents = options_.fold_accents;
    text::fold_into(input, fo, scratch);
    t = *scratch;
  }
  std::size_t i = 0;
  const std::size_t n = t.size();
  std::size_t starts[3];
  while (i < n) {
    Cp c = at(t, i);
    if (c.kind == Kind::kCjk) {
      // the run of CJK code points: bigrams (or unigrams), keeping a window of 3 starts
      std::size_t count = 0;
      std::size_t j = i;
      starts[0] = j;
      while (j < n) {
        Cp d = at(t, j);
        if (d.kind != Kind::kCjk) break;
        j += d.len;
        ++count;
        if (!options_.cjk_bigrams) {
          out->push_back(RawToken{t.substr(j - d.len, d.len), RawToken::Kind::kFinal});
        } else if (count >= 2) {
          out->push_back(RawToken{t.substr(starts[0], j - starts[0]), RawToken::Kind::kFinal});
          starts[0] = j - d.len;
        }
      }
      if (options_.cjk_bigrams && count == 1) out->push_back(RawToken{t.substr(i, j - i), RawToken::Kind::kFinal});
      i = j;
      continue;
    }
    if (c.kind != Kind::kWord) {
      i += c.len;
      continue;
    }
    // a compound: word ((connector) word)*; a word may contain apostrophes between word characters
    const std::size_t compound_start = i;
    std::size_t compound_end = i;
    std::size_t parts = 0;
    for (;;) {
      const std::size_t ws = i;
      for (;;) {
        Cp d = at(t, i);
        if (d.kind == Kind::kWord) {
          i += d.len;
          continue;
        }
        if (d.kind == Kind::kApostrophe && i > ws && at(t, i + d.len).kind == Kind::kWord) {
          i += d.len;
          continue;
        }
        break;
      }
      out->push_back(RawToken{t.substr(ws, i - ws), RawToken::Kind::kWord});
      ++parts;
      compound_end = i;
      Cp d = at(t, i);
      if (d.kind == Kind::kConnector && at(t, i + d.len).kind == Kind::kWord) {
        i += d.len;
        continue;
      }
      break;
    }
    if (options_.identifiers && parts > 1) {
      std::string_view whole = t.substr(compound_start, compound_end - compound_start);
      if (is_identifier(whole) && whole.size() <= options_.max_token_bytes) {
        out->push_back(RawToken{whole, RawToken::Kind::kOverlap});
      }
    }
  }
}

}  // namespace ragwasm::sparse
