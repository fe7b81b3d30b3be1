// Unicode-aware lowercasing and accent folding for search and matching. Covers ASCII, Latin-1
// Supplement, Latin Extended-A, Greek, Cyrillic, Armenian and fullwidth Latin; combining marks
// (U+0300-U+036F) are removed by accent folding. Invalid UTF-8 is folded as U+FFFD.
#pragma once

#include <string>
#include <string_view>

namespace ragwasm::text {

// Simple (1:1) lowercase mapping of one code point; unchanged when it has none in the covered blocks.
char32_t lower_code_point(char32_t cp);

// ASCII spelling of a Latin letter without its accent ("é" -> "e", "ß" -> "ss", "Æ" -> "AE"),
// "" for a combining mark, nullptr when the code point is not folded.
const char* fold_code_point(char32_t cp);

struct FoldOptions {
  bool lowercase = true;
  bool fold_accents = true;
};

// Lowercases and/or removes accents from UTF-8 text. Example: fold("Ça Déjà") == "ca deja".
std::string fold(std::string_view text, const FoldOptions& options = {});
// The same into *out (replaced, its capacity reused): no allocation once *out is large enough.
// ASCII runs are copied a word at a time.
void fold_into(std::string_view text, const FoldOptions& options, std::string* out);

// True for the code points treated as CJK ideographs, kana or hangul (bigram-tokenized by analyzers).
bool is_cjk(char32_t cp);

}  // namespace ragwasm::text
