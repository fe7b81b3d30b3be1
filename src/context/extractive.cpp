// Extractive answerer: sentence scoring by IDF-weighted question-term coverage (see extractive.h).
#include "context/extractive.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "text/casefold.h"
#include "text/sentences.h"
#include "text/utf8.h"

namespace ragwasm::context {
namespace {

constexpr std::size_t kMaxChunks = 10000;

// A small English stop-word list: function words that carry no topic.
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

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string light_stem(std::string w) {
  if (w.size() <= 4) {
    if (w.size() == 4 && ends_with(w, "s") && !ends_with(w, "ss")) w.pop_back();
    return w;
  }
  if (ends_with(w, "ies")) return w.substr(0, w.size() - 3) + "y";
  if (ends_with(w, "ing")) return w.substr(0, w.size() - 3);
  if (ends_with(w, "ed")) return w.substr(0, w.size() - 2);
  if (ends_with(w, "es") && !ends_with(w, "ses")) return w.substr(0, w.size() - 2);
  if (ends_with(w, "s") && !ends_with(w, "ss") && !ends_with(w, "us") && !ends_with(w, "is")) w.pop_back();
  return w;
}

Error invalid(std::string_view m) { return make_error(ErrorCode::kInvalidArgument, m); }

}  // namespace

std::vector<std::string> answer_terms(std::string_view text) {
  const std::string folded = text::fold(text);
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < folded.size()) {
    if (!is_word_byte(static_cast<unsigned char>(folded[i]))) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < folded.size() && is_word_byte(static_cast<unsigned char>(folded[j]))) ++j;
    std::string w = folded.substr(i, j - i);
    i = j;
    if (stop_words().count(w)) continue;
    out.push_back(light_stem(std::move(w)));
  }
  return out;
}

Result<ExtractiveAnswer> extractive_answer(std::string_view question, const std::vector<ExtractiveChunk>& chunks,
                                           const ExtractiveOptions& options) {
  if (options.max_sentences < 1 || options.max_sentences > 32) {
    return invalid("options.max_sentences: expected 1..32, got " + std::to_string(options.max_sentences));
  }
  if (!(options.threshold >= 0 && options.threshold <= 1)) {
    return invalid("options.threshold: expected a number in [0, 1], got " + std::to_string(options.threshold));
  }
  if (options.max_chunks < 1) return invalid("options.max_chunks: expected at least 1, got 0");
  if (chunks.size() > kMaxChunks) {
    return make_error(ErrorCode::kLimitExceeded, "chunks: at most " + std::to_string(kMaxChunks) + " allowed, got " +
                                                     std::to_string(chunks.size()));
  }
  if (!text::is_valid_utf8(question)) {
    return make_error(ErrorCode::kInvalidUtf8, "question: invalid UTF-8 at byte " + std::to_string(text::find_invalid_utf8(question)));
  }
  for (std::size_t c = 0; c < chunks.size(); ++c) {
    if (!text::is_valid_utf8(chunks[c].text)) {
      return make_error(ErrorCode::kInvalidUtf8, "chunks[" + std::to_string(c) + "].text: invalid UTF-8 at byte " +
                                                     std::to_string(text::find_invalid_utf8(chunks[c].text)));
    }
  }

  ExtractiveAnswer answer;
  answer.text = options.no_answer_text;

  std::vector<std::string> q = answer_terms(question);
  std::sort(q.begin(), q.end());
  q.erase(std::unique(q.begin(), q.end()), q.end());

  struct Candidate {
    std::size_t chunk;
    text::Span span;
    std::unordered_set<std::string> terms;
    double score = 0;
  };
  std::vector<Candidate> cands;
  const std::size_t n_chunks = std::min(chunks.size(), options.max_chunks);
  for (std::size_t c = 0; c < n_chunks; ++c) {
    for (const auto& span : text::split_sentences(chunks[c].text)) {
      if (span.end - span.start > options.max_sentence_bytes) continue;
      Candidate cand{c, span, {}, 0};
      for (auto& t : answer_terms(std::string_view(chunks[c].text).substr(span.start, span.end - span.start))) {
        cand.terms.insert(std::move(t));
      }
      cands.push_back(std::move(cand));
    }
  }
  if (q.empty() || cands.empty()) return answer;

  // Each candidate's question terms, as sorted indexes into q: one hash lookup per candidate term,
  // so the cost is linear in the text (a |q| x |candidates| scan was quadratic: issue #19).
  std::unordered_map<std::string_view, std::size_t> q_index;
  for (std::size_t i = 0; i < q.size(); ++i) q_index.emplace(q[i], i);
  std::vector<std::vector<std::size_t>> hits(cands.size());
  std::vector<std::size_t> df(q.size(), 0);
  for (std::size_t c = 0; c < cands.size(); ++c) {
    for (const auto& t : cands[c].terms) {
      auto it = q_index.find(t);
      if (it == q_index.end()) continue;
      hits[c].push_back(it->second);
      ++df[it->second];
    }
    std::sort(hits[c].begin(), hits[c].end());
  }
  // Weights and sums in the sorted order of q: a fixed summation order, so native and WASM agree.
  const double n = static_cast<double>(cands.size());
  std::vector<double> w(q.size());
  double total = 0;
  for (std::size_t i = 0; i < q.size(); ++i) {
    w[i] = std::log((n + 1.0) / (static_cast<double>(df[i]) + 0.5));
    total += w[i];
  }
  for (std::size_t c = 0; c < cands.size(); ++c) {
    double s = 0;
    for (std::size_t i : hits[c]) s += w[i];
    cands[c].score = total > 0 ? s / total : 0;
  }
  std::vector<std::size_t> order(cands.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  // Candidates are generated in (chunk, position) order, so a stable sort keeps that order on ties.
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return cands[a].score > cands[b].score; });
  answer.best_score = cands[order[0]].score;

  std::vector<std::size_t> picked;
  for (std::size_t i : order) {
    if (picked.size() >= options.max_sentences || cands[i].score < options.threshold || cands[i].score <= 0) break;
    picked.push_back(i);
  }
  if (picked.empty()) return answer;
  std::sort(picked.begin(), picked.end());  // answer order = chunk order, then position

  answer.answered = true;
  answer.text.clear();
  for (std::size_t i : picked) {
    const Candidate& c = cands[i];
    const std::string& id = chunks[c.chunk].id;
    auto it = std::find(answer.citations.begin(), answer.citations.end(), id);
    int citation;
    if (it == answer.citations.end()) {
      answer.citations.push_back(id);
      citation = static_cast<int>(answer.citations.size());
    } else {
      citation = static_cast<int>(it - answer.citations.begin()) + 1;
    }
    ExtractedSentence s;
    s.chunk_index = c.chunk;
    s.chunk_id = id;
    s.start = c.span.start;
    s.end = c.span.end;
    s.text = chunks[c.chunk].text.substr(c.span.start, c.span.end - c.span.start);
    s.score = c.score;
    s.citation = citation;
    if (!answer.text.empty()) answer.text += ' ';
    answer.text += s.text + " [" + std::to_string(citation) + "]";
    answer.sentences.push_back(std::move(s));
  }
  return answer;
}

}  // namespace ragwasm::context
