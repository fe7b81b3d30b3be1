// Extractive answerer (no LLM): picks the sentences of the top retrieved chunks that best cover the
// question's terms and returns them with [n] citations, or says the documents do not answer when no
// sentence reaches the threshold. The default answerer of doc chat when no LLM endpoint is set.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace ragwasm::context {

struct ExtractiveChunk {
  std::string id;    // chunk or document id, echoed in citations
  std::string text;  // UTF-8
  double score = 0;  // retrieval score: informational only; chunks are read in the given (rank) order
};

struct ExtractiveOptions {
  std::size_t max_sentences = 2;  // 1..32 sentences in the answer
  std::size_t max_chunks = 5;     // only the first max_chunks chunks (in the given order) are read
  double threshold = 0.35;        // minimum sentence score in [0, 1] to answer
  std::size_t max_sentence_bytes = 1000;  // longer sentences are skipped (tables, run-on text)
  std::string no_answer_text = "The documents do not answer this question.";
};

struct ExtractedSentence {
  std::size_t chunk_index = 0;  // index into the input chunks
  std::string chunk_id;
  std::size_t start = 0;        // byte span inside the chunk's text
  std::size_t end = 0;
  std::string text;
  double score = 0;             // weighted term coverage in [0, 1]
  int citation = 0;             // 1-based [n] marker shown after the sentence
};

struct ExtractiveAnswer {
  bool answered = false;
  std::string text;                         // sentences joined with " ", each followed by " [n]"
  std::vector<ExtractedSentence> sentences; // in answer order (chunk order, then position)
  std::vector<std::string> citations;       // citations[n-1] = chunk id of marker [n]
  double best_score = 0;                    // the top sentence score (also when not answered)
};

// Terms of a text as the answerer sees them: folded (lowercase, accents removed), split on anything
// that is not a letter or digit, light suffix folding (-ies -> -y, -es, -s, -ed, -ing on words longer
// than 4 bytes), English stop words removed. Exposed for tests and documentation.
std::vector<std::string> answer_terms(std::string_view text);

// Scoring (docs/llm.md, "Extractive answerer"): with Q the distinct question terms and S the
// candidate sentences (all sentences of the chunks read),
//   w(t)  = ln((|S| + 1) / (df(t) + 0.5)),  df(t) = number of sentences of S containing t
//   score = sum_{t in Q and in sentence} w(t) / sum_{t in Q} w(t)
// so a question term found nowhere (df = 0) carries the largest weight and lowers every score.
// Ties: higher score, then earlier chunk, then earlier sentence.
// Errors: INVALID_ARGUMENT (max_sentences outside 1..32, threshold outside [0, 1], max_chunks 0),
// INVALID_UTF8 (question or a chunk is not UTF-8), LIMIT_EXCEEDED (more than 10,000 chunks).
Result<ExtractiveAnswer> extractive_answer(std::string_view question, const std::vector<ExtractiveChunk>& chunks,
                                           const ExtractiveOptions& options = {});

}  // namespace ragwasm::context
