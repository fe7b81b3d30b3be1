// The answerer's shared word helpers (words.h).
#include "answer/words.h"

namespace ragwasm::answer {

const std::unordered_set<std::string>& stop_words() {
  static const std::unordered_set<std::string> kWords = {
      "a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been", "before",
      "being", "between", "both", "but", "by", "can", "could", "did", "do", "does", "doing", "done", "during",
      "each", "for", "from", "had", "has", "have", "having", "he", "her", "hers", "him", "his", "how", "i",
      "if", "in", "into", "is", "it", "its", "just", "me", "more", "most", "my", "no", "nor", "not", "of",
      "on", "or", "other", "our", "out", "over", "own", "same", "she", "should", "so", "some", "such",
      "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those", "through",
      "to", "too", "under", "until", "up", "very", "was", "we", "were", "what", "when", "where", "which",
      "while", "who", "whom", "whose", "why", "will", "with", "would", "you", "your", "according",
      "document", "documents", "tell", "much", "many"};
  return kWords;
}

bool is_word_byte(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c >= 0x80;  // after folding: lowercase
}

std::vector<std::string> raw_words(const std::string& folded) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < folded.size()) {
    if (!is_word_byte(static_cast<unsigned char>(folded[i]))) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < folded.size() && is_word_byte(static_cast<unsigned char>(folded[j]))) ++j;
    out.push_back(folded.substr(i, j - i));
    i = j;
  }
  return out;
}

bool contains_phrase(const std::string& s, std::string_view p) {
  for (std::size_t at = s.find(p); at != std::string::npos; at = s.find(p, at + 1)) {
    const bool left = at == 0 || !is_word_byte(static_cast<unsigned char>(s[at - 1]));
    const bool right = at + p.size() >= s.size() || !is_word_byte(static_cast<unsigned char>(s[at + p.size()]));
    if (left && right) return true;
  }
  return false;
}

}  // namespace ragwasm::answer
