// Extractive answerer (no LLM): reads the top retrieved chunks as plain-text answer units
// (sentences, list items, table rows with their column names; answer/plain_text.h), scores each by
// IDF-weighted coverage of the question's terms, prefers units holding what the question asks for
// (who -> a person or role, how many/much/long -> a number, when -> a date), and answers with the
// best unit (plus a unit covering terms it misses) and [n] citations, or abstains ("Your documents
// don't say.") when no unit reaches the threshold. The default answerer of doc chat without an LLM.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "answer/answer_type.h"
#include "answer/plain_text.h"
#include "answer/polarity.h"
#include "common/result.h"

namespace ragwasm::answer {

struct ExtractiveChunk {
  std::string id;       // chunk or document id, echoed in citations
  std::string text;     // UTF-8 (markdown or plain text)
  double score = 0;     // retrieval score: informational only; chunks are read in the given (rank) order
  std::string context;  // optional document context (title, header path): its terms count like a header's
};

struct ExtractiveOptions {
  std::size_t max_sentences = 2;  // 1..32 units in the answer; units after the first must add a question term
  std::size_t max_chunks = 5;     // only the first max_chunks chunks (in the given order) are read
  // Minimum unit score in [0, 1] to answer. 0.35 was chosen on the tuning half of
  // examples/corpus/split.json (docs/docchat.md, "Calibrating the abstention").
  double threshold = 0.35;
  std::size_t max_sentence_bytes = 1000;  // units whose source is longer are skipped (run-on text)
  double header_weight = 0.5;  // credit in [0, 1] for a question term found only in the unit's header / chunk context
  double type_mismatch = 0.6;  // score factor in [0, 1] for a unit lacking what the question type asks for
  // Score factor in [0, 1] for a unit whose chunk (text or context) lacks an identifier the question
  // names (question_entities: "revision D", "Q2", "Canada"): the documents then talk about another thing.
  double entity_mismatch = 1.0;
  // Score factor in [0, 1] for a unit whose chunk (text or context) does not support every key term of
  // the question (question_key_terms: the nouns of its noun phrases, "the probation period" ->
  // {"probation", "period"}), exactly or as a close variant (one term a prefix of the other, the shorter
  // at least 4 bytes: "approv" ~ "approval"): the chunk then answers a neighbouring question ("the
  // hotel cap in the Netherlands" for "the probation period in the Netherlands"). 1 = off.
  double key_mismatch = 1.0;
  // Score factor in [0, 1] for a unit that names another identifier in place of one the question names:
  // a question identifier (question_entities) is missing from the unit's text, header and chunk context,
  // and the unit names an identifier of the same form (unit_identifiers: a code for a code, "DL-7" for
  // "HX-9", "Q4" for "Q1"; a one-letter one for a one-letter one, "revision C" for "revision D"; a name for
  // a name, "Wexley Ferry" for "Ghent") that the question does not name. The unit then answers the
  // question about that other thing (issue 27). Unlike entity_mismatch it is checked per unit: a chunk that
  // names the asked thing in one sentence and another thing in the next no longer lends the first to the
  // second. 1 = off.
  double entity_conflict = 1.0;
  // yes/no questions: "Yes." / "No." before the unit when the unit states that polarity (yes_no_polarity);
  // a unit whose polarity is unclear (or a table row) is quoted without it
  bool yes_no_prefix = true;
  std::string no_answer_text = "Your documents don't say.";
};

struct ExtractedSentence {
  std::size_t chunk_index = 0;  // index into the input chunks
  std::string chunk_id;
  std::size_t start = 0;        // byte span of the unit's (or quoted clause's) source (markup included) in the chunk's text
  std::size_t end = 0;
  std::string text;             // the unit (or quoted clause) as plain text
  UnitKind kind = UnitKind::kSentence;
  double score = 0;             // in [0, 1]
  int citation = 0;             // 1-based [n] marker shown after the unit
};

struct ExtractiveAnswer {
  bool answered = false;
  // units joined with " ", each followed by " [n]"; or no_answer_text. A sentence or list item made of clauses
  // ("...; ...") is quoted by its clause holding the most question terms (ties: the first) when that clause holds what
  // the question type asks for and its source splits into the same clauses (the shortest supporting span: the
  // sentence's text, start and end are then the clause's).
  std::string text;
  std::vector<ExtractedSentence> sentences; // best first
  std::vector<std::string> citations;       // citations[n-1] = chunk id of marker [n]
  double best_score = 0;                    // the top unit score (also when not answered)
  QuestionType question_type = QuestionType::kOther;
  // Yes/no questions that are answered: what the first unit states (kUnclear: quoted without Yes/No);
  // kUnclear for every other question.
  Polarity polarity = Polarity::kUnclear;
  // Retrieval evidence in [0, 1]: the IDF-weighted share of the question's distinct terms that occur in
  // the text or context of the chunks read (weights w(t) of the scoring formula below; every term weighs 1
  // when the chunks have no units; 1 when the question has no terms; 0 when no chunk was read). Low: the
  // chunks do not match the question at all.
  double evidence = 0;
  // The best unit of each chunk read that has one (chunk order; citation 0; ties: the earlier unit):
  // the sentence to highlight when a passage is shown instead of an answer.
  std::vector<ExtractedSentence> chunk_best;
};

// Terms of a text as the answerer sees them: folded (lowercase, accents removed), split on anything
// that is not a letter or digit, light suffix folding (-ies -> -y, -es, -s, -ed, -ing on words longer
// than 4 bytes), English stop words removed. Exposed for tests and documentation.
std::vector<std::string> answer_terms(std::string_view text);

// Identifiers a question names, each as its answer_terms: words mixing letters and digits ("LS-240"
// -> {"ls", "240"}, "Q2", "E04") and capitalized words that do not start a sentence ("Canada",
// "Wexley Ferry" -> two); a one-letter identifier takes the word before it ("revision D" ->
// {"revision", "d"}); a trailing possessive 's is dropped; plain numbers, month and weekday names and
// "I" are not identifiers; at most the first 16 are returned. A chunk names an identifier when its
// text or context holds those terms in a row.
//   question_entities("Which company is Larkspire's distributor in Canada?")  // {{"larkspire"}, {"canada"}}
std::vector<std::vector<std::string>> question_entities(std::string_view question);

// The form of an identifier: a word mixing letters and digits ("DL-7", "Q4"), a one-letter one with the word
// before it ("revision D"), or a capitalized word ("Ghent").
enum class IdentifierForm { kCode, kLetter, kName };

// Identifiers an answer unit names, by question_entities' rules, with their form; in a unit a word after
// a label's ':' or ';', or after a cell separator ("—"), starts a sentence (a capitalized table cell is not a
// name by position alone). At most the first 16.
//   unit_identifiers("End of Q4 2024: 99.97%")  // {{{"q4"}, kCode}}
std::vector<std::pair<std::vector<std::string>, IdentifierForm>> unit_identifiers(std::string_view unit_text);

// Key terms of a question, each as an answer_term: the words of its noun phrases, i.e. the words after a
// determiner ("the", "a", "an", "any", "its", "their", "our", "your", "this", "that", "these", "those") or a
// possessive ("DL-7's") or a yes/no question's opening modal auxiliary ("Do unused sick days roll over?"), up to the
// next stop word, auxiliary verb or punctuation (after a modal, the phrase's last word is its verb and is dropped; a
// phrase opened by the question's first word gives nothing when it runs to the question's end, and skips adverbs
// and indefinite pronouns such as "still", "anyone");
// plus counted_terms. Numbers,
// month and weekday names and one-letter terms are not key terms. Sorted, distinct.
//   question_key_terms("What is the probation period in the Netherlands?")  // {"netherland", "period", "probation"}
std::vector<std::string> question_key_terms(std::string_view question);

// Is `term` supported by `terms`: present, or a close variant present (one a prefix of the other, the
// shorter at least 4 bytes: "employe" ~ "employee", "approv" ~ "approval")?
bool supports_term(const std::vector<std::string>& terms, const std::string& term);

// What a "how many" / "how much" question counts: the answer_terms of the (at most 3) words after
// "how many" / "how much" up to a verb ("How many car parking spaces does ..." -> {"car", "park",
// "spac"}; "How much is ..." -> {}). A number-type sentence or list item matches only when it, its
// header or its chunk's context holds one of them (table rows are exempt: their numbers are labelled
// by column names and headings).
std::vector<std::string> counted_terms(std::string_view question);

// Scoring (docs/docchat.md, "Extractive answerer"): with Q the distinct question terms and S the
// candidate units of the chunks read,
//   w(t)    = ln((|S| + 1) / (df(t) + 0.5)),  df(t) = units of S whose own text contains t
//   cover   = sum_{t in Q} w(t) * (1 if t in the unit, header_weight if t only in its header or the
//             chunk's context, else 0) / sum_{t in Q} w(t)
//   score   = cover * (1 if matches_type(unit, question_type(question)) else type_mismatch)
//                   * (1 if the unit's chunk names every question_entities identifier else entity_mismatch)
//                   * (1 if the unit's chunk supports every question_key_terms term else key_mismatch)
//                   * (entity_conflict if the unit names another identifier in place of the question's, else 1)
// so a question term found nowhere (df = 0) carries the largest weight and lowers every score.
// The answer is the best unit, then (up to max_sentences) the next best units that reach the threshold
// and 0.75 x the best score and contain a question term the answer does not contain yet. Ties: earlier chunk, then earlier unit.
// Abstains (answered = false, text = no_answer_text) when the best score < threshold.
// Errors: INVALID_ARGUMENT (max_sentences outside 1..32, threshold / header_weight / type_mismatch /
// entity_mismatch / key_mismatch / entity_conflict outside [0, 1], max_chunks 0), INVALID_UTF8 (question, a chunk text or context is not UTF-8),
// LIMIT_EXCEEDED (more than 10,000 chunks).
Result<ExtractiveAnswer> extractive_answer(std::string_view question, const std::vector<ExtractiveChunk>& chunks,
                                           const ExtractiveOptions& options = {});

// The best unit score of each of the first max_chunks chunks (0 for a chunk without units), scored
// exactly as extractive_answer scores them (the IDF weights come from all units read): the extractive
// reranker of doc chat. Errors as extractive_answer.
//   auto s = chunk_scores("How long is the warranty?", chunks);  // s.value()[i] in [0, 1]
Result<std::vector<double>> chunk_scores(std::string_view question, const std::vector<ExtractiveChunk>& chunks,
                                         const ExtractiveOptions& options = {});

// What the unit scorer of docs/docchat.md ("A learned unit scorer", issue 15 round 4) reads about one
// candidate unit: the answerer's own quantities, not a model.
struct UnitFeatures {
  std::size_t chunk_index = 0;  // index into the input chunks
  std::size_t start = 0;        // byte span of the unit's source inside the chunk's text
  std::size_t end = 0;
  std::string text;             // the unit as plain text
  UnitKind kind = UnitKind::kSentence;
  double score = 0;             // the extractive_answer score (formula above)
  double cover = 0;             // IDF-weighted question-term coverage, header / context credit included
  double unit_cover = 0;        // the same, the unit's own terms only
  double term_share = 0;        // share of the distinct question terms the unit holds
  double bigram_share = 0;      // share of the question's adjacent term pairs adjacent in the unit (0 if none)
  double key_share = 1;         // share of question_key_terms the unit itself supports (1 if none)
  double entity_share = 1;      // share of question_entities the unit itself names (1 if none)
  bool type_ok = true;          // matches_type (and the counted-term rule)
  bool entities_ok = true;      // the unit's chunk names every identifier
  bool keys_ok = true;          // the unit's chunk supports every key term (checked only when key_mismatch < 1)
  double position = 0;          // unit index within its chunk / (units in the chunk - 1); 0 for a lone unit
  std::size_t unit_terms = 0;   // answer_terms of the unit (stop words removed)
  double missing_share = 0;     // share of the question's distinct terms no unit read holds (same for every unit)
};

// Every candidate unit of the first max_chunks chunks with its features, in (chunk, position) order;
// units longer than max_sentence_bytes are left out, as extractive_answer leaves them out. Errors as
// extractive_answer.
//   auto f = unit_features("How long is the warranty?", chunks, o);  // f.value()[i].cover in [0, 1]
Result<std::vector<UnitFeatures>> unit_features(std::string_view question, const std::vector<ExtractiveChunk>& chunks,
                                                const ExtractiveOptions& options = {});

}  // namespace ragwasm::answer
