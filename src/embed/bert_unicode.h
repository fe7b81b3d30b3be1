// Unicode properties used by the BERT normalizer and pre-tokenizer, generated from the JS engine's
// data (src/embed/gen_unicode_tables.mjs) so that results match transformers.js.
#pragma once

#include <cstddef>
#include <string>

namespace ragwasm::embed::unicode {

bool is_punctuation(char32_t cp);      // \p{P} or ASCII 33-47, 58-64, 91-96, 123-126
bool is_control(char32_t cp);          // \p{Cc} \p{Cf} \p{Co} \p{Cs} (tab, LF, CR excluded by callers)
bool is_white_space(char32_t cp);      // JS \s
bool is_nonspacing_mark(char32_t cp);  // \p{Mn}
bool is_cased(char32_t cp);            // \p{Cased}
bool is_case_ignorable(char32_t cp);   // \p{Case_Ignorable}
// transformers.js BertNormalizer's CJK test; it looks at UTF-16 units, so only BMP ranges apply.
bool is_chinese_char(char32_t cp);

// Appends the full lowercase mapping of cp (String.prototype.toLowerCase, without the final-sigma
// context rule, which callers apply).
void append_lower(char32_t cp, std::u32string& out);
// Appends the full canonical decomposition (NFD, without canonical reordering) of cp.
void append_nfd(char32_t cp, std::u32string& out);

}  // namespace ragwasm::embed::unicode
