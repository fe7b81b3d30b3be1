// The words of the answerer's texts, shared by its files (extractive.cpp, answer_type.cpp): folded-word runs,
// whole-phrase search and the stop-word list the term weights skip.
#pragma once

#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace ragwasm::answer {

// A small English stop-word list: function words that carry no topic.
const std::unordered_set<std::string>& stop_words();
// A byte of a word in folded (lowercase) text: a digit, a-z, or any byte of a non-ASCII character.
bool is_word_byte(unsigned char c);
// Words of folded text (letters/digits runs), no stemming, no stop-word removal.
std::vector<std::string> raw_words(const std::string& folded);
// Does folded text `s` hold the phrase `p` as whole words?
bool contains_phrase(const std::string& s, std::string_view p);

}  // namespace ragwasm::answer
