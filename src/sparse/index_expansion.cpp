// BM25 index: query expansion from word neighbours (a static model's nearest words, or any
// SimilarWords source). For each expandable word of the query, in query order:
//   - skipped: stop words (kExpansionStopWords: English function words, the interrogatives and
//     auxiliaries included), words with a digit, parts of a compound with a digit ("LS-240"), words
//     written in capitals in the query ("PTO", "HX"), words the index analyzer drops, and with
//     unmatched_only the words whose own term a live document holds (only the words the documents
//     do not use are expanded);
//   - its similar words (best first) are read in order; a neighbour is taken when it is letters only,
//     not a stop word, analyzes to exactly one term, that term is in this index's vocabulary (a live
//     document holds it), and it is neither one of the query's own terms nor already taken;
//   - at most per_term neighbours per word; each adds its term at weight x similarity.
// The query's own terms keep weight = count (>= 1), so an expansion term (weight <= 1 x 1) never
// outweighs an exact one. Deterministic: query order, then the source's order.
#include <cctype>
#include <cmath>
#include <unordered_set>

#include "sparse/index_internal.h"

namespace ragwasm::sparse {
namespace {

// Function words that carry no topic: never expanded and never added.
const std::unordered_set<std::string_view>& expansion_stop_words() {
  static const std::unordered_set<std::string_view> kWords = {
      "a", "about", "above", "after", "again", "against", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be",
      "because", "been", "before", "being", "below", "between", "both", "but", "by", "can", "could", "did", "do", "does",
      "doing", "done", "down", "during", "each", "either", "else", "ever", "every", "few", "for", "from", "further", "get",
      "gets", "got", "had", "has", "have", "having", "he", "her", "here", "hers", "herself", "him", "himself", "his", "how",
      "i", "if", "in", "into", "is", "it", "its", "itself", "just", "let", "may", "me", "might", "more", "most", "much",
      "must", "my", "myself", "neither", "no", "nor", "not", "now", "of", "off", "on", "once", "one", "only", "or",
      "other", "others", "ought", "our", "ours", "ourselves", "out", "over", "own", "same", "shall", "she", "should",
      "so", "some", "still", "such", "than", "that", "the", "their", "theirs", "them", "themselves", "then", "there",
      "these", "they", "this", "those", "though", "through", "to", "too", "under", "until", "up", "upon", "us", "very",
      "was", "we", "were", "what", "whatever", "when", "where", "whether", "which", "while", "who", "whom", "whose",
      "why", "will", "with", "within", "without", "would", "yet", "you", "your", "yours", "yourself", "yourselves",
      "many", "several", "anything", "something", "nothing", "everything", "anyone", "someone", "everyone"};
  return kWords;
}

bool is_stop(std::string_view w) { return expansion_stop_words().count(w) != 0; }

// ASCII letters only (GloVe's vocabulary is lowercase ASCII for the words worth adding).
bool letters_only(std::string_view w) {
  if (w.empty()) return false;
  for (char c : w)
    if (!(c >= 'a' && c <= 'z')) return false;
  return true;
}

// Lowercased ASCII words of the query that must not be expanded: every part of a white-space
// separated piece holding a digit ("LS-240" -> "ls"), and pieces written in capitals ("PTO").
std::unordered_set<std::string> identifier_words(std::string_view q) {
  std::unordered_set<std::string> out;
  std::size_t i = 0;
  while (i < q.size()) {
    while (i < q.size() && std::isspace(static_cast<unsigned char>(q[i]))) ++i;
    std::size_t j = i;
    while (j < q.size() && !std::isspace(static_cast<unsigned char>(q[j]))) ++j;
    const std::string_view piece = q.substr(i, j - i);
    bool digit = false;
    for (char c : piece) digit = digit || std::isdigit(static_cast<unsigned char>(c));
    std::string word;
    std::size_t upper = 0, letters = 0;
    auto flush = [&] {
      if (!word.empty() && (digit || (letters >= 2 && upper == letters))) out.insert(word);
      word.clear();
      upper = letters = 0;
    };
    for (char c : piece) {
      if (std::isalpha(static_cast<unsigned char>(c))) {
        ++letters;
        if (c >= 'A' && c <= 'Z') ++upper;
        word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      } else {
        flush();
      }
    }
    flush();
    i = j;
  }
  return out;
}

}  // namespace

Result<std::vector<ExpansionTerm>> Bm25Index::Impl::expansion(std::string_view text, const SearchOptions& o) const {
  const ExpansionOptions& e = o.expansion;
  if (e.per_term < 1 || e.per_term > 16 || !(e.min_similarity > 0 && e.min_similarity <= 1) || !(e.weight > 0 && e.weight <= 1)) {
    return make_error(ErrorCode::kInvalidArgument, "search expansion: expected perTerm in [1, 16], minSimilarity and weight in (0, 1]");
  }
  if (!o.similar_words) return make_error(ErrorCode::kInvalidArgument, "search expansion: no word source (load word vectors for the expansion)");
  if (o.rm3.enabled) return make_error(ErrorCode::kInvalidArgument, "search expansion: expected rm3 off (use one query expansion at a time)");
  std::vector<ExpansionTerm> out;
  std::unordered_set<std::string> own;
  for (auto& t : analyzer.analyze(text)) own.insert(std::move(t));
  const auto skip = identifier_words(text);
  std::string scratch;
  std::vector<RawToken> toks;
  analyzer.tokenize(text, &scratch, &toks);
  std::unordered_set<std::string> seen_words;
  std::unordered_set<std::string> taken;
  std::vector<std::string> terms;
  for (const RawToken& tok : toks) {
    if (tok.kind != RawToken::Kind::kWord) continue;
    const std::string word(tok.text);
    if (!letters_only(word) || is_stop(word) || skip.count(word) != 0 || !seen_words.insert(word).second) continue;
    std::string stem;
    if (!analyzer.normalize(word, &stem)) continue;  // an analyzer stop word
    if (e.unmatched_only) {
      const std::uint32_t own_id = term_id(stem);
      if (own_id != TermTable::kNone && postings[own_id].df > 0) continue;  // the documents use this word
    }
    std::size_t added = 0;
    for (const SimilarWord& n : o.similar_words(word, e.min_similarity)) {
      if (added == e.per_term) break;
      if (!(n.similarity >= e.min_similarity) || !std::isfinite(n.similarity)) continue;
      if (!letters_only(n.word) || is_stop(n.word)) continue;
      terms.clear();
      analyzer.analyze(n.word, &terms);
      if (terms.size() != 1) continue;
      const std::string& t = terms[0];
      if (own.count(t) != 0 || taken.count(t) != 0) continue;
      const std::uint32_t id = term_id(t);
      if (id == TermTable::kNone || postings[id].df == 0) continue;
      taken.insert(t);
      out.push_back(ExpansionTerm{t, word, n.word, n.similarity, e.weight * n.similarity});
      ++added;
    }
  }
  return out;
}

Result<std::vector<ExpansionTerm>> Bm25Index::expansion_terms(std::string_view query, const SearchOptions& options) const {
  return impl_->expansion(query, options);
}

}  // namespace ragwasm::sparse
