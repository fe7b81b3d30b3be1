// Extractive answerer: answer units scored by IDF-weighted question-term coverage and the question's
// answer type (see extractive.h).
#include "answer/extractive.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include "answer/words.h"
#include "text/casefold.h"
#include "text/utf8.h"

namespace ragwasm::answer {
namespace {

constexpr std::size_t kMaxChunks = 10000;
// A unit after the first joins the answer only when it scores at least this share of the best unit.
constexpr double kSecondUnitRatio = 0.75;
// question_entities returns at most this many identifiers (the first ones).
constexpr std::size_t kMaxEntities = 16;

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

// One white-space separated word of a question, edge punctuation and a possessive 's removed.
struct QuestionWord {
  std::string_view word;       // "Larkspire's?" -> "Larkspire"; "U.S." keeps its inner dots
  bool ends_sentence = false;  // the raw word ends in '.', '?' or '!'
  bool ends_label = false;     // the raw word ends in ':' or ';' (a label or a table cell before it)
  bool closes = false;         // punctuation followed the word ("period?", "office,"): it ends a phrase
  bool possessive = false;     // a trailing 's / ’s was removed
};

// The words of a question as question_entities and question_key_terms read them.
std::vector<QuestionWord> question_words(std::string_view question) {
  const auto is_edge_punct = [](char c) {
    return c == '(' || c == ')' || c == '"' || c == '\'' || c == '?' || c == ',' || c == '.' || c == ':' || c == ';' ||
           c == '!' || c == '[' || c == ']';
  };
  const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  std::vector<QuestionWord> out;
  std::size_t i = 0;
  while (i < question.size()) {
    if (is_space(question[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < question.size() && !is_space(question[j])) ++j;
    QuestionWord w;
    std::string_view tok = question.substr(i, j - i);
    i = j;
    w.ends_sentence = tok.back() == '.' || tok.back() == '?' || tok.back() == '!';
    w.ends_label = tok.back() == ':' || tok.back() == ';';
    while (!tok.empty() && is_edge_punct(tok.front())) tok.remove_prefix(1);
    // "U.S." keeps its inner dots; a sentence's final dot goes.
    while (!tok.empty() && is_edge_punct(tok.back()) && !(tok.back() == '.' && tok.size() >= 2 && tok.find('.') < tok.size() - 1)) {
      tok.remove_suffix(1);
      w.closes = true;
    }
    for (std::string_view poss : {std::string_view("'s"), std::string_view("\xE2\x80\x99s")}) {
      if (tok.size() > poss.size() && tok.substr(tok.size() - poss.size()) == poss) {
        tok.remove_suffix(poss.size());
        w.possessive = true;
      }
    }
    w.word = tok;
    out.push_back(w);
  }
  return out;
}

}  // namespace

std::vector<std::string> answer_terms(std::string_view text) {
  std::vector<std::string> out;
  for (auto& w : raw_words(text::fold(text))) {
    if (!stop_words().count(w)) out.push_back(light_stem(std::move(w)));
  }
  return out;
}

namespace {

// An identifier a text names (question_entities' rules), with its form: what entity_conflict compares.
struct Identifier {
  std::vector<std::string> terms;
  IdentifierForm form = IdentifierForm::kName;
};

// The identifiers of a text by question_entities' rules; `unit` = read an answer unit: a word after a
// table cell's "—" or a label's ':' starts a sentence too (a capitalized cell is not a name by position).
std::vector<Identifier> identifiers(std::string_view text, bool unit) {
  std::vector<Identifier> out;
  bool sentence_start = true;
  std::vector<std::string> previous;  // terms of the previous word
  for (const QuestionWord& qw : question_words(text)) {
    const std::string_view tok = qw.word;
    const bool first = sentence_start;
    sentence_start = qw.ends_sentence || (unit && qw.ends_label);
    if (tok.empty()) {
      previous.clear();
      continue;
    }
    bool letter = false, digit = false;
    for (char c : tok) {
      if (std::isalpha(static_cast<unsigned char>(c))) letter = true;
      if (c >= '0' && c <= '9') digit = true;
    }
    const bool upper_start = std::isupper(static_cast<unsigned char>(tok.front())) != 0;
    const bool code = letter && digit;  // LS-240, Q2, E04
    // Month and weekday names date a scenario ("in April 2025") like a number does: not identifiers.
    static const std::unordered_set<std::string> kCalendar = {
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
        "november", "december", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"};
    const bool name = upper_start && !first && tok != "I" && !kCalendar.count(text::fold(tok));
    if (unit && !letter) sentence_start = true;  // "—", "|", "•" between cells
    std::vector<std::string> terms = answer_terms(tok);
    if (!code && !name) {
      previous = std::move(terms);
      continue;
    }
    // A one-letter identifier ("revision D") is only an identifier with the word before it.
    const bool one_letter = tok.size() == 1;
    if (one_letter && !previous.empty()) terms.insert(terms.begin(), previous.back());
    if (!terms.empty()) {
      out.push_back({terms, code ? IdentifierForm::kCode : one_letter ? IdentifierForm::kLetter : IdentifierForm::kName});
    }
    if (out.size() == kMaxEntities) break;  // bounds the per-chunk check for a run-on question
    previous = std::move(terms);
  }
  return out;
}

}  // namespace

std::vector<std::vector<std::string>> question_entities(std::string_view question) {
  std::vector<std::vector<std::string>> out;
  for (auto& id : identifiers(question, false)) out.push_back(std::move(id.terms));
  return out;
}

std::vector<std::pair<std::vector<std::string>, IdentifierForm>> unit_identifiers(std::string_view unit_text) {
  std::vector<std::pair<std::vector<std::string>, IdentifierForm>> out;
  for (auto& id : identifiers(unit_text, true)) out.emplace_back(std::move(id.terms), id.form);
  return out;
}

std::vector<std::string> counted_terms(std::string_view question) {
  static const std::unordered_set<std::string> kVerbs = {"is", "are", "was", "were", "do", "does", "did", "can",
                                                        "could", "will", "would", "should", "must", "has", "have",
                                                        "had", "may", "might", "shall"};
  const auto words = raw_words(text::fold(question));
  std::vector<std::string> out;
  for (std::size_t i = 0; i + 1 < words.size(); ++i) {
    if (words[i] != "how" || (words[i + 1] != "many" && words[i + 1] != "much")) continue;
    for (std::size_t j = i + 2; j < words.size() && j < i + 5 && !kVerbs.count(words[j]); ++j) {
      if (!stop_words().count(words[j])) out.push_back(light_stem(words[j]));
    }
    break;
  }
  return out;
}

std::vector<std::string> question_key_terms(std::string_view question) {
  static const std::unordered_set<std::string> kDeterminers = {"the", "a", "an", "any", "its", "their", "our", "your",
                                                               "this", "that", "these", "those"};
  // Words that end a noun phrase besides stop words: modal verbs the stop list lacks, and "per" ("requests per day").
  static const std::unordered_set<std::string> kClosers = {"must", "may", "might", "shall", "cannot", "need", "needs", "per"};
  // After these, a phrase that runs to the end of the question ends with its verb ("does the HX-9 use?").
  static const std::unordered_set<std::string> kModals = {"do", "does", "did", "can", "could", "will", "would", "should",
                                                          "must", "may", "might", "shall"};
  static const std::unordered_set<std::string> kAuxLike = {"have", "has", "had", "be", "been", "being", "is", "are",
                                                           "was", "were", "do", "does", "did", "get", "gets"};
  static const std::unordered_set<std::string> kCalendar = {
      "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
      "november", "december", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"};
  std::vector<std::string> out;
  const auto add_terms = [&](std::string_view word) {
    for (auto& w : raw_words(text::fold(word))) {
      if (w.size() < 2 || stop_words().count(w) || kCalendar.count(w) || kClosers.count(w)) continue;
      if (std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; })) continue;
      out.push_back(light_stem(std::move(w)));
    }
  };
  bool open = false;          // inside a noun phrase
  bool after_modal = false;   // the phrase's determiner follows a modal verb
  std::size_t words = 0;      // words in the open phrase
  std::size_t last_at = 0;    // where the terms of its last word start in `out`
  std::string previous;       // the previous word, folded
  bool first_word = true;
  bool aux_phrase = false;    // the open phrase was opened by the question's first word, an auxiliary
  std::size_t phrase_at = 0;  // where its terms start in `out`
  // Words of such a phrase that are neither its nouns nor its verb ("Do employees still have to ...").
  static const std::unordered_set<std::string> kVague = {
      "still", "also", "ever", "always", "really", "actually", "usually", "normally", "typically", "currently",
      "already", "even", "just", "only", "anyone", "anybody", "someone", "somebody", "everyone", "everybody",
      "anything", "something", "everything", "nobody"};
  for (const QuestionWord& qw : question_words(question)) {
    const std::string_view tok = qw.word;
    const bool closes = qw.closes;
    const bool possessive = qw.possessive;
    const std::string f = text::fold(tok);
    // "Do unused sick days roll over?": after a yes/no question's opening auxiliary its subject runs up to its verb,
    // as a phrase after a modal does; a phrase that runs to the question's end ("Do employees receive bonuses?")
    // has no word known to be its verb and gives no key term.
    if (first_word && kModals.count(f)) {
      first_word = false;
      open = !closes;
      after_modal = true;
      aux_phrase = true;
      phrase_at = out.size();
      words = 0;
      previous = f;
      continue;
    }
    first_word = false;
    if (open && aux_phrase && kVague.count(f)) {
      previous = f;
      if (closes) {
        out.resize(phrase_at);
        open = false;
      }
      continue;
    }
    // "When can an employee take a sabbatical?": a phrase opened after a modal verb runs into the
    // question's main verb; it is its last word unless the phrase ends at an auxiliary ("does the office have").
    const bool ends_phrase = open && (kDeterminers.count(f) || stop_words().count(f) || kClosers.count(f));
    if (ends_phrase && after_modal && words >= 2 && !kAuxLike.count(f)) out.resize(last_at);
    if (ends_phrase) aux_phrase = false;
    if (kDeterminers.count(f)) {
      open = !closes;
      after_modal = kModals.count(previous) > 0;
      words = 0;
      previous = f;
      continue;
    }
    previous = f;
    // A participle after the phrase's first word is its verb ("the team approved a budget").
    const bool participle = words > 0 && f.size() > 4 && ends_with(f, "ed") && !ends_with(f, "eed");
    if (stop_words().count(f) || kClosers.count(f) || participle) {
      open = false;
      continue;
    }
    if (open) {
      last_at = out.size();
      add_terms(tok);
      ++words;
      // "How long does a DL-7 firmware update take?": the phrase ran into the question's verb.
      if (closes && after_modal && words >= 2) out.resize(last_at);
      if (closes && aux_phrase) out.resize(phrase_at);
    }
    // A possessive opens the phrase it qualifies ("Larkspire's full-year revenue").
    if (possessive && !open) {
      open = true;
      after_modal = false;
      words = 0;
    }
    if (closes) {
      open = false;
      aux_phrase = false;
    }
  }
  for (auto& t : counted_terms(question)) {
    if (!kClosers.count(t)) out.push_back(std::move(t));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool supports_term(const std::vector<std::string>& terms, const std::string& term) {
  for (const auto& t : terms) {
    if (t == term) return true;
    const std::size_t shorter = std::min(t.size(), term.size());
    if (shorter >= 4 && t.compare(0, shorter, term, 0, shorter) == 0) return true;
  }
  return false;
}

namespace {

Status check_inputs(std::string_view question, const std::vector<ExtractiveChunk>& chunks, const ExtractiveOptions& options) {
  if (options.max_sentences < 1 || options.max_sentences > 32) {
    return invalid("options.max_sentences: expected 1..32, got " + std::to_string(options.max_sentences));
  }
  if (!(options.threshold >= 0 && options.threshold <= 1)) {
    return invalid("options.threshold: expected a number in [0, 1], got " + std::to_string(options.threshold));
  }
  if (!(options.header_weight >= 0 && options.header_weight <= 1)) {
    return invalid("options.header_weight: expected a number in [0, 1], got " + std::to_string(options.header_weight));
  }
  if (!(options.type_mismatch >= 0 && options.type_mismatch <= 1)) {
    return invalid("options.type_mismatch: expected a number in [0, 1], got " + std::to_string(options.type_mismatch));
  }
  if (!(options.entity_mismatch >= 0 && options.entity_mismatch <= 1)) {
    return invalid("options.entity_mismatch: expected a number in [0, 1], got " + std::to_string(options.entity_mismatch));
  }
  if (!(options.key_mismatch >= 0 && options.key_mismatch <= 1)) {
    return invalid("options.key_mismatch: expected a number in [0, 1], got " + std::to_string(options.key_mismatch));
  }
  if (!(options.entity_conflict >= 0 && options.entity_conflict <= 1)) {
    return invalid("options.entity_conflict: expected a number in [0, 1], got " + std::to_string(options.entity_conflict));
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
    if (!text::is_valid_utf8(chunks[c].context)) {
      return make_error(ErrorCode::kInvalidUtf8, "chunks[" + std::to_string(c) + "].context: invalid UTF-8 at byte " +
                                                     std::to_string(text::find_invalid_utf8(chunks[c].context)));
    }
  }
  return Status::success();
}

// Does `terms` hold `run` as consecutive elements?
bool contains_run(const std::vector<std::string>& terms, const std::vector<std::string>& run) {
  if (run.empty()) return true;
  return std::search(terms.begin(), terms.end(), run.begin(), run.end()) != terms.end();
}

struct Candidate {
  std::size_t chunk;
  Unit unit;
  std::unordered_set<std::string> terms;
  std::unordered_set<std::string> header_terms;  // header + chunk context
  bool type_ok = true;
  bool entities_ok = true;  // the unit's chunk names every identifier of the question (question_entities)
  bool keys_ok = true;      // the unit's chunk supports every key term of the question (question_key_terms)
  double score = 0;
  double cover = 0;         // the IDF-weighted coverage (header credit included)
  double unit_cover = 0;    // the same with the unit's own terms only
  double position = 0;      // unit index in its chunk / (units - 1)
  bool conflict = false;    // the unit names another identifier in place of the question's (entity_conflict)
};

// Does a unit name another identifier in place of one the question names (ExtractiveOptions::entity_conflict)?
// `q` = the sorted distinct question terms.
bool names_other(const Candidate& cand, const std::vector<std::vector<std::string>>& entities,
                 const std::vector<IdentifierForm>& forms, const std::vector<std::string>& q) {
  std::vector<IdentifierForm> missing;
  for (std::size_t e = 0; e < entities.size(); ++e) {
    const bool named = std::all_of(entities[e].begin(), entities[e].end(), [&](const std::string& t) {
      return cand.terms.count(t) > 0 || cand.header_terms.count(t) > 0;
    });
    if (!named) missing.push_back(forms[e]);
  }
  if (missing.empty()) return false;
  for (const auto& [terms, form] : unit_identifiers(cand.unit.text)) {
    if (std::find(missing.begin(), missing.end(), form) == missing.end()) continue;
    const bool in_question = std::all_of(terms.begin(), terms.end(), [&](const std::string& t) {
      return std::binary_search(q.begin(), q.end(), t);
    });
    if (!in_question) return true;
  }
  return false;
}

// The candidate units of the first max_chunks chunks with their scores (the formula in extractive.h);
// `q` receives the sorted distinct question terms.
std::vector<Candidate> score_units(std::string_view question, QuestionType type, const std::vector<ExtractiveChunk>& chunks,
                                   const ExtractiveOptions& options, std::vector<std::string>* q_out,
                                   std::vector<double>* w_out = nullptr) {
  std::vector<std::string> q = answer_terms(question);
  std::sort(q.begin(), q.end());
  q.erase(std::unique(q.begin(), q.end()), q.end());

  std::vector<Candidate> cands;
  const std::size_t n_chunks = std::min(chunks.size(), options.max_chunks);
  const auto entities = question_entities(question);
  std::vector<IdentifierForm> forms;  // entities[i]'s form, for entity_conflict
  if (options.entity_conflict < 1) {
    for (const auto& id : identifiers(question, false)) forms.push_back(id.form);
  }
  const auto counted = type == QuestionType::kNumber ? counted_terms(question) : std::vector<std::string>{};
  const auto keys = options.key_mismatch < 1 ? question_key_terms(question) : std::vector<std::string>{};
  for (std::size_t c = 0; c < n_chunks; ++c) {
    const std::vector<std::string> ctx_terms = answer_terms(chunks[c].context);
    const std::unordered_set<std::string> context_terms(ctx_terms.begin(), ctx_terms.end());
    // Does this chunk (text or context) name every identifier of the question, its terms in a row?
    bool names_all = true;
    bool supports_all = true;
    if (!entities.empty() || !keys.empty()) {
      const std::vector<std::string> text_terms = answer_terms(chunks[c].text);
      for (const auto& e : entities) {
        if (!contains_run(text_terms, e) && !contains_run(ctx_terms, e)) names_all = false;
      }
      for (const auto& k : keys) {
        if (!supports_term(text_terms, k) && !supports_term(ctx_terms, k)) supports_all = false;
      }
    }
    std::vector<Unit> units = answer_units(chunks[c].text);
    for (std::size_t u = 0; u < units.size(); ++u) {
      Unit& unit = units[u];
      if (unit.end - unit.start > options.max_sentence_bytes) continue;
      Candidate cand{c, std::move(unit), {}, context_terms, true, names_all, supports_all, 0};
      cand.position = units.size() > 1 ? static_cast<double>(u) / static_cast<double>(units.size() - 1) : 0.0;
      for (auto& t : answer_terms(cand.unit.text)) cand.terms.insert(std::move(t));
      for (auto& t : answer_terms(cand.unit.header)) cand.header_terms.insert(std::move(t));
      cand.type_ok = matches_type(cand.unit.text, type, question);
      // "How many parking spaces ...?" is not answered by "26 people": the number must come with what is counted.
      // A table row is exempt: its numbers are labelled by column names and headings, which seldom repeat the counted noun.
      if (cand.type_ok && !counted.empty() && cand.unit.kind != UnitKind::kTableRow) {
        cand.type_ok = std::any_of(counted.begin(), counted.end(), [&](const std::string& t) {
          return cand.terms.count(t) > 0 || cand.header_terms.count(t) > 0;
        });
      }
      if (!forms.empty()) cand.conflict = names_other(cand, entities, forms, q);
      cands.push_back(std::move(cand));
    }
  }
  if (q.empty() || cands.empty()) {
    *q_out = std::move(q);
    return {};
  }

  // Each candidate's question terms as sorted indexes into q (flag: true = in the unit, false = only in
  // its header/context): one hash lookup per candidate term, so the cost is linear in the text (a
  // |q| x |candidates| scan was quadratic: issue #19).
  std::unordered_map<std::string_view, std::size_t> q_index;
  for (std::size_t i = 0; i < q.size(); ++i) q_index.emplace(q[i], i);
  std::vector<std::vector<std::pair<std::size_t, bool>>> hits(cands.size());
  std::vector<std::size_t> df(q.size(), 0);
  for (std::size_t c = 0; c < cands.size(); ++c) {
    for (const auto& t : cands[c].terms) {
      auto it = q_index.find(t);
      if (it == q_index.end()) continue;
      hits[c].emplace_back(it->second, true);
      ++df[it->second];
    }
    for (const auto& t : cands[c].header_terms) {
      auto it = q_index.find(t);
      if (it == q_index.end() || cands[c].terms.count(t)) continue;
      hits[c].emplace_back(it->second, false);
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
    double s_unit = 0;
    for (const auto& [i, in_unit] : hits[c]) {
      s += in_unit ? w[i] : options.header_weight * w[i];
      if (in_unit) s_unit += w[i];
    }
    cands[c].cover = total > 0 ? s / total : 0;
    cands[c].unit_cover = total > 0 ? s_unit / total : 0;
    cands[c].score = cands[c].cover * (cands[c].type_ok ? 1.0 : options.type_mismatch) *
                     (cands[c].entities_ok ? 1.0 : options.entity_mismatch) * (cands[c].keys_ok ? 1.0 : options.key_mismatch) *
                     (cands[c].conflict ? options.entity_conflict : 1.0);
  }
  *q_out = std::move(q);
  if (w_out != nullptr) *w_out = std::move(w);
  return cands;
}

// The retrieval evidence of extractive.h: the share of the weights of the question terms that occur in
// the text or context of the first n_chunks chunks (w empty: every term weighs 1).
double evidence_of(const std::vector<std::string>& q, const std::vector<double>& w, const std::vector<ExtractiveChunk>& chunks,
                   std::size_t n_chunks) {
  if (n_chunks == 0) return 0;
  if (q.empty()) return 1;
  std::unordered_set<std::string> present;
  for (std::size_t c = 0; c < n_chunks; ++c) {
    for (auto& t : answer_terms(chunks[c].text)) present.insert(std::move(t));
    for (auto& t : answer_terms(chunks[c].context)) present.insert(std::move(t));
  }
  double found = 0, total = 0;
  for (std::size_t i = 0; i < q.size(); ++i) {
    const double wi = w.size() == q.size() ? w[i] : 1.0;
    total += wi;
    if (present.count(q[i])) found += wi;
  }
  return total > 0 ? found / total : 0;
}

// A scored candidate as an answer unit with its [n] marker.
ExtractedSentence sentence_of(const Candidate& c, const std::vector<ExtractiveChunk>& chunks, int citation) {
  ExtractedSentence s;
  s.chunk_index = c.chunk;
  s.chunk_id = chunks[c.chunk].id;
  s.start = c.unit.start;
  s.end = c.unit.end;
  s.text = c.unit.text;
  s.kind = c.unit.kind;
  s.score = c.score;
  s.citation = citation;
  return s;
}

// Where the clauses of a unit's source start and end ("a; b" -> {0, 1}, {3, 4}): split after each ';' followed by
// white space; trailing white space trimmed.
std::vector<std::pair<std::size_t, std::size_t>> clause_spans(std::string_view src) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  std::size_t from = 0;
  for (std::size_t i = 0; i <= src.size(); ++i) {
    const bool cut = i == src.size() || (src[i] == ';' && i + 1 < src.size() && is_space(src[i + 1]));
    if (!cut) continue;
    std::size_t e = i;
    while (e > from && is_space(src[e - 1])) --e;
    out.emplace_back(from, e);
    from = i + 1;
    while (from < src.size() && is_space(src[from])) ++from;
  }
  return out;
}

// What the answer quotes of a sentence or list item with clauses ("...; ..."): the clause holding the most question
// terms (ties: the first), as plain text ending in a full stop and with its source span, when it holds what the
// question type asks for and the source splits into the same clauses; else the whole unit.
ExtractedSentence quote_of(const Candidate& c, const std::vector<ExtractiveChunk>& chunks, int citation, const std::vector<std::string>& q,
                           QuestionType type, std::string_view question) {
  ExtractedSentence s = sentence_of(c, chunks, citation);
  const std::string& t = c.unit.text;
  if (c.unit.kind == UnitKind::kTableRow || t.find("; ") == std::string::npos) return s;
  std::vector<std::string> clauses;
  for (std::size_t at = 0;;) {
    const std::size_t next = t.find("; ", at);
    clauses.push_back(t.substr(at, next == std::string::npos ? std::string::npos : next - at));
    if (next == std::string::npos) break;
    at = next + 2;
  }
  const auto spans = clause_spans(std::string_view(chunks[c.chunk].text).substr(c.unit.start, c.unit.end - c.unit.start));
  if (spans.size() != clauses.size()) return s;
  std::size_t best = 0, best_hits = 0;
  for (std::size_t i = 0; i < clauses.size(); ++i) {
    std::size_t hits = 0;
    std::vector<std::string> terms = answer_terms(clauses[i]);
    std::sort(terms.begin(), terms.end());
    terms.erase(std::unique(terms.begin(), terms.end()), terms.end());
    for (const auto& x : terms) hits += std::binary_search(q.begin(), q.end(), x) ? 1 : 0;
    if (hits > best_hits) {
      best = i;
      best_hits = hits;
    }
  }
  if (best_hits == 0 || !matches_type(clauses[best], type, question)) return s;
  s.text = clauses[best];
  if (!s.text.empty() && s.text.back() != '.' && s.text.back() != '!' && s.text.back() != '?') s.text += '.';
  s.start = c.unit.start + spans[best].first;
  s.end = c.unit.start + spans[best].second;
  return s;
}

}  // namespace

Result<ExtractiveAnswer> extractive_answer(std::string_view question, const std::vector<ExtractiveChunk>& chunks,
                                           const ExtractiveOptions& options) {
  RAGWASM_TRY(check_inputs(question, chunks, options));
  ExtractiveAnswer answer;
  answer.text = options.no_answer_text;
  answer.question_type = question_type(question);
  std::vector<std::string> q;
  std::vector<double> w;
  std::vector<Candidate> cands = score_units(question, answer.question_type, chunks, options, &q, &w);
  answer.evidence = evidence_of(q, w, chunks, std::min(chunks.size(), options.max_chunks));
  // The best unit of each chunk (candidates are in (chunk, position) order: the first of equal scores wins).
  for (std::size_t i = 0; i < cands.size(); ++i) {
    const Candidate& c = cands[i];
    if (!answer.chunk_best.empty() && answer.chunk_best.back().chunk_index == c.chunk) {
      if (c.score > answer.chunk_best.back().score) answer.chunk_best.back() = sentence_of(c, chunks, 0);
    } else {
      answer.chunk_best.push_back(sentence_of(c, chunks, 0));
    }
  }
  if (cands.empty()) return answer;
  std::vector<std::size_t> order(cands.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  // Candidates are generated in (chunk, position) order, so a stable sort keeps that order on ties.
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return cands[a].score > cands[b].score; });
  answer.best_score = cands[order[0]].score;
  if (answer.best_score < options.threshold || answer.best_score <= 0) return answer;

  std::vector<std::size_t> picked{order[0]};
  std::unordered_set<std::string> covered;
  for (const auto& t : q) {
    if (cands[order[0]].terms.count(t)) covered.insert(t);
  }
  for (std::size_t k = 1; k < order.size() && picked.size() < options.max_sentences; ++k) {
    const Candidate& c = cands[order[k]];
    if (c.score < options.threshold || c.score < kSecondUnitRatio * answer.best_score) break;
    bool adds = false;
    for (const auto& t : q) {
      if (!covered.count(t) && c.terms.count(t)) adds = true;
    }
    if (!adds) continue;
    for (const auto& t : q) {
      if (c.terms.count(t)) covered.insert(t);
    }
    picked.push_back(order[k]);
  }

  answer.answered = true;
  answer.text.clear();
  if (answer.question_type == QuestionType::kYesNo) {
    // The polarity of what is quoted (the unit or one of its clauses, quote_of).
    const Candidate& first = cands[picked[0]];
    answer.polarity = yes_no_polarity(quote_of(first, chunks, 0, q, answer.question_type, question).text, first.unit.kind, question,
                                      first.unit.header + "\n" + chunks[first.chunk].context);
    if (options.yes_no_prefix && answer.polarity != Polarity::kUnclear) answer.text = answer.polarity == Polarity::kNo ? "No." : "Yes.";
  }
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
    ExtractedSentence s = quote_of(c, chunks, citation, q, answer.question_type, question);
    if (!answer.text.empty()) answer.text += ' ';
    answer.text += s.text + " [" + std::to_string(citation) + "]";
    answer.sentences.push_back(std::move(s));
  }
  return answer;
}

Result<std::vector<double>> chunk_scores(std::string_view question, const std::vector<ExtractiveChunk>& chunks,
                                         const ExtractiveOptions& options) {
  RAGWASM_TRY(check_inputs(question, chunks, options));
  std::vector<double> best(std::min(chunks.size(), options.max_chunks), 0.0);
  std::vector<std::string> q;
  for (const auto& c : score_units(question, question_type(question), chunks, options, &q)) {
    best[c.chunk] = std::max(best[c.chunk], c.score);
  }
  return best;
}

Result<std::vector<UnitFeatures>> unit_features(std::string_view question, const std::vector<ExtractiveChunk>& chunks,
                                                 const ExtractiveOptions& options) {
  RAGWASM_TRY(check_inputs(question, chunks, options));
  const QuestionType type = question_type(question);
  std::vector<std::string> q;
  const std::vector<Candidate> cands = score_units(question, type, chunks, options, &q);
  std::vector<UnitFeatures> out;
  if (cands.empty()) return out;
  const std::vector<std::string> q_seq = answer_terms(question);  // in question order, for bigrams
  std::vector<std::pair<std::string, std::string>> bigrams;
  for (std::size_t i = 0; i + 1 < q_seq.size(); ++i) bigrams.emplace_back(q_seq[i], q_seq[i + 1]);
  const auto entities = question_entities(question);
  const auto keys = question_key_terms(question);
  // Question terms no unit holds (df = 0), as a share of the question's distinct terms.
  std::size_t missing = 0;
  for (const auto& t : q) {
    if (std::none_of(cands.begin(), cands.end(), [&](const Candidate& c) { return c.terms.count(t) > 0; })) ++missing;
  }
  const double missing_share = q.empty() ? 0.0 : static_cast<double>(missing) / static_cast<double>(q.size());
  out.reserve(cands.size());
  for (const Candidate& c : cands) {
    UnitFeatures f;
    f.chunk_index = c.chunk;
    f.start = c.unit.start;
    f.end = c.unit.end;
    f.text = c.unit.text;
    f.kind = c.unit.kind;
    f.score = c.score;
    f.cover = c.cover;
    f.unit_cover = c.unit_cover;
    std::size_t in_unit = 0;
    for (const auto& t : q) in_unit += c.terms.count(t);
    f.term_share = q.empty() ? 0.0 : static_cast<double>(in_unit) / static_cast<double>(q.size());
    const std::vector<std::string> seq = answer_terms(c.unit.text);
    std::size_t bigram_hits = 0;
    for (const auto& b : bigrams) {
      for (std::size_t i = 0; i + 1 < seq.size(); ++i) {
        if (seq[i] == b.first && seq[i + 1] == b.second) {
          ++bigram_hits;
          break;
        }
      }
    }
    f.bigram_share = bigrams.empty() ? 0.0 : static_cast<double>(bigram_hits) / static_cast<double>(bigrams.size());
    std::size_t key_hits = 0;
    for (const auto& k : keys) key_hits += supports_term(seq, k) ? 1 : 0;
    f.key_share = keys.empty() ? 1.0 : static_cast<double>(key_hits) / static_cast<double>(keys.size());
    std::size_t entity_hits = 0;
    for (const auto& e : entities) entity_hits += contains_run(seq, e) ? 1 : 0;
    f.entity_share = entities.empty() ? 1.0 : static_cast<double>(entity_hits) / static_cast<double>(entities.size());
    f.type_ok = c.type_ok;
    f.entities_ok = c.entities_ok;
    f.keys_ok = c.keys_ok;
    f.position = c.position;
    f.unit_terms = seq.size();
    f.missing_share = missing_share;
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace ragwasm::answer
