// Extractive answerer: answer units scored by IDF-weighted question-term coverage and the question's
// answer type (see extractive.h).
#include "answer/extractive.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include "text/casefold.h"
#include "text/utf8.h"

namespace ragwasm::answer {
namespace {

constexpr std::size_t kMaxChunks = 10000;
// A unit after the first joins the answer only when it scores at least this share of the best unit.
constexpr double kSecondUnitRatio = 0.75;
// question_entities returns at most this many identifiers (the first ones).
constexpr std::size_t kMaxEntities = 16;

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

// Words of folded text (letters/digits runs), no stemming, no stop-word removal.
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

namespace {

bool contains_phrase(const std::string& s, std::string_view p) {
  for (std::size_t at = s.find(p); at != std::string::npos; at = s.find(p, at + 1)) {
    const bool left = at == 0 || !is_word_byte(static_cast<unsigned char>(s[at - 1]));
    const bool right = at + p.size() >= s.size() || !is_word_byte(static_cast<unsigned char>(s[at + p.size()]));
    if (left && right) return true;
  }
  return false;
}

}  // namespace

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
  for (const QuestionWord& qw : question_words(question)) {
    const std::string_view tok = qw.word;
    const bool closes = qw.closes;
    const bool possessive = qw.possessive;
    const std::string f = text::fold(tok);
    // "When can an employee take a sabbatical?": a phrase opened after a modal verb runs into the
    // question's main verb; it is its last word unless the phrase ends at an auxiliary ("does the office have").
    const bool ends_phrase = open && (kDeterminers.count(f) || stop_words().count(f) || kClosers.count(f));
    if (ends_phrase && after_modal && words >= 2 && !kAuxLike.count(f)) out.resize(last_at);
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
    }
    // A possessive opens the phrase it qualifies ("Larkspire's full-year revenue").
    if (possessive && !open) {
      open = true;
      after_modal = false;
      words = 0;
    }
    if (closes) open = false;
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

// Words that commonly start an English sentence without starting a name: a capitalized first word of a
// unit that is one of these is capitalized by position only (the person-type check below).
bool starts_sentences(const std::string& folded) {
  static const char* const kWords[] = {
      "a", "after", "all", "an", "and", "any", "as", "at", "before", "both", "but", "by", "each", "every", "for",
      "from", "he", "her", "his", "how", "i", "if", "in", "it", "its", "new", "no", "not", "note", "on", "once",
      "only", "or", "our", "please", "see", "she", "since", "some", "that", "the", "their", "there", "these", "they",
      "this", "those", "to", "under", "until", "use", "we", "what", "when", "where", "which", "while", "who", "with",
      "you", "your"};
  for (const char* w : kWords) {
    if (folded == w) return true;
  }
  return false;
}

// Does a question (its folded words) ask for an organization: "which" / "what" with an organization noun as the
// next or the second-next word ("which company", "what cloud provider"), the word between them not a stop word?
bool asks_for_organization(const std::vector<std::string>& words) {
  static const std::unordered_set<std::string> kOrganizations = {
      "company", "companies", "firm", "firms", "vendor", "vendors", "supplier", "suppliers", "manufacturer",
      "manufacturers", "maker", "makers", "distributor", "distributors", "reseller", "resellers", "courier",
      "couriers", "carrier", "carriers", "bank", "banks", "insurer", "insurers", "provider", "providers",
      "contractor", "contractors", "agency", "agencies", "partner", "partners", "brand", "brands"};
  for (std::size_t i = 0; i + 1 < words.size(); ++i) {
    if (words[i] != "which" && words[i] != "what") continue;
    if (kOrganizations.count(words[i + 1])) return true;
    if (i + 2 < words.size() && !stop_words().count(words[i + 1]) && kOrganizations.count(words[i + 2])) return true;
  }
  return false;
}

}  // namespace

QuestionType question_type(std::string_view question) {
  const std::string f = text::fold(question);
  const auto words = raw_words(f);
  if (words.empty()) return QuestionType::kOther;
  for (const char* p : {"how many", "how much", "how long", "how large", "how quickly", "how often", "how big", "how far",
                        "how soon", "how old", "how fast", "how heavy", "how tall", "how high", "how deep", "how wide",
                        "how frequently", "how accurate", "how hot", "how cold", "how warm", "what share", "what percentage",
                        "what percent"}) {
    if (contains_phrase(f, p)) return QuestionType::kNumber;
  }
  for (const auto& w : words) {
    if (w == "who" || w == "whom" || w == "whose") return QuestionType::kPerson;
  }
  if (asks_for_organization(words)) return QuestionType::kPerson;
  if (words[0] == "when" || contains_phrase(f, "what date") || contains_phrase(f, "which year") ||
      contains_phrase(f, "what year") || contains_phrase(f, "which date") || contains_phrase(f, "what day") ||
      contains_phrase(f, "which day") || contains_phrase(f, "what weekday") || contains_phrase(f, "which weekday")) {
    return QuestionType::kDate;
  }
  // "What time does the tour start?" asks for a time of day ("What time period ..." does not).
  static const std::unordered_set<std::string> kTimeAux = {"does", "do", "did", "is", "are", "was", "were", "should",
                                                           "must", "can", "will", "would", "shall"};
  for (std::size_t i = 0; i + 2 < words.size(); ++i) {
    if ((words[i] == "what" || words[i] == "which") && words[i + 1] == "time" && kTimeAux.count(words[i + 2])) {
      return QuestionType::kDate;
    }
  }
  static const std::unordered_set<std::string> kAux = {"is", "are", "do", "does", "did", "was", "were", "can",
                                                       "could", "has", "have", "had", "will", "would", "should",
                                                       "may", "must"};
  if (kAux.count(words[0])) return QuestionType::kYesNo;
  // "A customer's unit is 3.5 years old. Is it still covered?": the question is the last sentence.
  const std::size_t dot = f.find_last_of(".!?", f.find_last_not_of(" \t\r\n.!?"));
  if (dot != std::string::npos) {
    const auto last = raw_words(f.substr(dot + 1));
    if (!last.empty() && kAux.count(last[0])) return QuestionType::kYesNo;
  }
  return QuestionType::kOther;
}

const char* question_type_name(QuestionType t) {
  switch (t) {
    case QuestionType::kPerson: return "person";
    case QuestionType::kNumber: return "number";
    case QuestionType::kDate: return "date";
    case QuestionType::kYesNo: return "yes-no";
    case QuestionType::kOther: break;
  }
  return "other";
}

namespace {

bool is_ascii_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Is the number at byte `i` a phone number or extension ("ext. 4242", "phone 555 0100", "+32 9 555")? Not a quantity.
bool phone_number_at(std::string_view t, std::size_t i) {
  // back over the number's other digit groups ("555 0100", "(09) 555-01") and the label's punctuation
  std::size_t k = i;
  while (k > 0 && (is_digit(t[k - 1]) || t[k - 1] == ' ' || t[k - 1] == '.' || t[k - 1] == ':' || t[k - 1] == '-' ||
                   t[k - 1] == '(' || t[k - 1] == ')')) {
    --k;
  }
  if (k > 0 && t[k - 1] == '+') return true;
  std::size_t b = k;
  while (b > 0 && is_ascii_letter(t[b - 1])) --b;
  std::string w(t.substr(b, k - b));
  for (char& c : w) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return w == "ext" || w == "extension" || w == "tel" || w == "phone" || w == "fax";
}

}  // namespace

bool has_quantity(std::string_view t) {
  std::size_t i = 0;
  while (i < t.size()) {
    if (!is_digit(t[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    std::size_t dots = 0;
    while (j < t.size() && (is_digit(t[j]) || ((t[j] == '.' || t[j] == ',') && j + 1 < t.size() && is_digit(t[j + 1])))) {
      if (t[j] == '.') ++dots;
      ++j;
    }
    // "LS-240", "E04", "Q4": a letter (or letter + hyphen) right before the number makes it a code.
    const bool letter_before = i > 0 && (is_ascii_letter(t[i - 1]) || (t[i - 1] == '-' && i > 1 && is_ascii_letter(t[i - 2])));
    // "0x01", "4B2": a letter then a digit right after it too; a unit ("16MB", "10kHz", "2h") does not.
    const bool code_after = j + 1 < t.size() && is_ascii_letter(t[j]) && is_digit(t[j + 1]);
    if (!letter_before && !code_after && dots < 2 && !phone_number_at(t, i)) return true;  // "3.2.1" is a version
    i = j;
  }
  static const std::unordered_set<std::string> kSpelled = {
      "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
      "fifteen", "twenty", "thirty", "forty", "fifty", "hundred", "thousand", "million", "billion", "half", "dozen"};
  for (const auto& w : raw_words(text::fold(t))) {
    if (kSpelled.count(w)) return true;
  }
  return false;
}

namespace {

// Does a (folded) how-much question ask for a price ("How much does an HX-9 cost?", "how much is the fee")?
bool asks_for_money(const std::string& fq) {
  if (!contains_phrase(fq, "how much")) return false;
  for (const char* w : {"cost", "costs", "price", "priced", "pay", "paid", "charge", "charged", "fee", "fees", "spend", "spent"}) {
    if (contains_phrase(fq, w)) return true;
  }
  return false;
}

// Does the text name an amount of money: a currency sign or a currency word?
bool has_money(std::string_view t) {
  for (const char* sign : {"$", "\xE2\x82\xAC", "\xC2\xA3"}) {  // $ € £
    if (t.find(sign) != std::string_view::npos) return true;
  }
  const std::string f = text::fold(t);
  for (const char* w : {"usd", "eur", "gbp", "dollar", "dollars", "euro", "euros", "cent", "cents"}) {
    if (contains_phrase(f, w)) return true;
  }
  return false;
}

const std::unordered_set<std::string>& time_units() {
  static const std::unordered_set<std::string> kUnits = {
      "second", "seconds", "sec", "s", "ms", "minute", "minutes", "min", "mins", "hour", "hours", "h", "hr", "hrs", "day",
      "days", "week", "weeks", "month", "months", "year", "years", "yr", "yrs", "decade", "decades"};
  return kUnits;
}

const std::unordered_set<std::string>& length_units() {
  static const std::unordered_set<std::string> kUnits = {
      "m", "cm", "mm", "km", "ft", "feet", "foot", "metre", "metres", "meter", "meters", "kilometre", "kilometres", "kilometer",
      "kilometers", "centimetre", "centimetres", "centimeter", "centimeters", "millimetre", "millimetres", "millimeter",
      "millimeters", "inch", "inches", "yard", "yards", "yd", "mile", "miles"};
  return kUnits;
}

const std::unordered_set<std::string>& mass_units() {
  static const std::unordered_set<std::string> kUnits = {
      "g", "kg", "mg", "gram", "grams", "gramme", "grammes", "kilogram", "kilograms", "kilogramme", "kilogrammes", "kilo",
      "kilos", "lb", "lbs", "pound", "pounds", "oz", "ounce", "ounces", "tonne", "tonnes", "ton", "tons"};
  return kUnits;
}

// The kinds of unit a text names, in one pass: a unit word alone ("10 km") or after its number ("10km", "2.5h");
// a temperature by its degree sign or name ("70 °C", "degrees").
struct UnitKinds {
  bool time = false;
  bool length = false;
  bool mass = false;
  bool temperature = false;
};
UnitKinds unit_kinds(std::string_view t) {
  UnitKinds k;
  for (const auto& w : raw_words(text::fold(t))) {
    const std::size_t digits = w.find_first_not_of("0123456789.,");
    const std::string_view word = digits > 0 && digits != std::string::npos && is_digit(w[0])
                                      ? std::string_view(w).substr(digits) : std::string_view(w);
    const std::string unit(word);
    k.time = k.time || time_units().count(unit) > 0;
    k.length = k.length || length_units().count(unit) > 0;
    k.mass = k.mass || mass_units().count(unit) > 0;
    k.temperature = k.temperature || unit == "degree" || unit == "degrees" || unit == "celsius" || unit == "fahrenheit";
  }
  if (t.find("\xC2\xB0") != std::string_view::npos) k.temperature = true;  // U+00B0 DEGREE SIGN
  return k;
}

// The unit a number question's quantity must come with: "how long" a duration or a length, "how soon / old" a
// duration, "how far / deep / tall / wide" a length, "how heavy" or a question about weight ("How much does a DL-7
// weigh?") a mass, "how hot / cold / warm" a temperature.
enum class UnitNeed { kNone, kTimeOrLength, kTime, kLength, kMass, kTemperature };
UnitNeed unit_need(const std::string& fq) {
  for (const char* p : {"how heavy", "weigh", "weighs", "weight", "weighed"}) {
    if (contains_phrase(fq, p)) return UnitNeed::kMass;
  }
  for (const char* p : {"how hot", "how cold", "how warm"}) {
    if (contains_phrase(fq, p)) return UnitNeed::kTemperature;
  }
  if (contains_phrase(fq, "how long")) return UnitNeed::kTimeOrLength;
  if (contains_phrase(fq, "how soon") || contains_phrase(fq, "how old")) return UnitNeed::kTime;
  for (const char* p : {"how far", "how deep", "how tall", "how wide"}) {
    if (contains_phrase(fq, p)) return UnitNeed::kLength;
  }
  return UnitNeed::kNone;
}

}  // namespace

bool has_measure_unit(std::string_view t) {
  const UnitKinds k = unit_kinds(t);
  return k.time || k.length;
}

bool matches_type(std::string_view unit, QuestionType t, std::string_view question) {
  switch (t) {
    case QuestionType::kNumber: {
      // "How long ...?" asks for a duration or a length: the quantity must come with its unit.
      const std::string fq = text::fold(question);
      if (!has_quantity(unit)) return false;
      const UnitNeed need = unit_need(fq);
      if (need != UnitNeed::kNone) {
        const UnitKinds k = unit_kinds(unit);
        if (need == UnitNeed::kTimeOrLength && !k.time && !k.length) return false;
        if (need == UnitNeed::kTime && !k.time) return false;
        if (need == UnitNeed::kLength && !k.length) return false;
        if (need == UnitNeed::kMass && !k.mass) return false;
        if (need == UnitNeed::kTemperature && !k.temperature) return false;
      }
      // "How much does X cost?" asks for money: the unit must name an amount of it.
      return !asks_for_money(fq) || has_money(unit);
    }
    case QuestionType::kDate: {
      const std::string f = text::fold(unit);
      for (const char* m : {"january", "february", "march", "april", "may", "june", "july", "august", "september",
                            "october", "november", "december", "monday", "tuesday", "wednesday", "thursday", "friday",
                            "saturday", "sunday", "mondays", "tuesdays", "wednesdays", "thursdays", "fridays",
                            "saturdays", "sundays"}) {
        if (contains_phrase(f, m)) return true;
      }
      // A time of day: "08:00", "9:30".
      for (std::size_t i = 1; i + 2 < f.size(); ++i) {
        if (f[i] == ':' && is_digit(f[i - 1]) && is_digit(f[i + 1]) && is_digit(f[i + 2]) &&
            (i + 3 >= f.size() || !is_digit(f[i + 3]))) {
          return true;
        }
      }
      for (const auto& w : raw_words(f)) {
        if (w.size() == 4 && (w.compare(0, 2, "19") == 0 || w.compare(0, 2, "20") == 0) &&
            std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; })) {
          return true;
        }
      }
      return false;
    }
    case QuestionType::kPerson: {
      const std::string f = text::fold(unit);
      const std::string fq = text::fold(question);
      for (const char* r : {"ceo", "cfo", "cto", "coo", "vp", "founder", "founded", "director", "manager", "head",
                            "lead", "officer", "president", "chair", "team", "committee", "owner", "signer",
                            "signers", "approver", "engineer", "dr", "ms", "mr"}) {
        // "Who is the CEO?" asks for a name: the role word it names is not an answer.
        if (contains_phrase(f, r) && !contains_phrase(fq, r)) return true;
      }
      // Two adjacent capitalized ASCII words, not counting the unit's first word; one for an organization.
      const bool organization = asks_for_organization(raw_words(fq));
      bool prev_cap = false;
      bool first = true;
      std::size_t i = 0;
      while (i < unit.size()) {
        const unsigned char c = static_cast<unsigned char>(unit[i]);
        if (!std::isalpha(c) && c < 0x80) {
          if (c != ' ' && c != '-') prev_cap = false;
          ++i;
          continue;
        }
        std::size_t j = i;
        while (j < unit.size() && (std::isalpha(static_cast<unsigned char>(unit[j])) || static_cast<unsigned char>(unit[j]) >= 0x80)) ++j;
        // A capitalized word the question names itself ("Who founded Acme Corp?") is not a name answering it.
        const bool cap = std::isupper(c) && j - i >= 2 && std::islower(static_cast<unsigned char>(unit[i + 1])) &&
                         !contains_phrase(fq, text::fold(unit.substr(i, j - i)));
        if (cap && !first && (prev_cap || organization)) return true;
        // The first word is capitalized by position: it starts a name ("Noor Haddad was the incident
        // commander.") only when it is not a word that commonly starts a sentence ("The Board ...").
        if (!first || !cap) prev_cap = cap;
        else prev_cap = !starts_sentences(text::fold(unit.substr(i, j - i)));
        first = false;
        i = j;
      }
      return false;
    }
    case QuestionType::kOther:
    case QuestionType::kYesNo: break;
  }
  return true;
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
