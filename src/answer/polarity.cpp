// Yes and No: negation cues, their scope and the polarity a unit states (see polarity.h).
#include "answer/polarity.h"

#include <algorithm>
#include <string>
#include <unordered_set>
#include <vector>

#include "answer/extractive.h"
#include "answer/words.h"
#include "text/casefold.h"

namespace ragwasm::answer {
namespace {

// How many content words after a cue (or around an outcome word) it scopes.
constexpr std::size_t kScopeWords = 4;
// Share of the question's distinct terms a unit must hold for "No." (a negation names few of them: "the
// proposal to raise Pro ... was deferred") / for "Yes." (all: "Customer support: ... phone ..." says nothing
// about phoning on a Saturday).
constexpr double kNoShare = 1.0 / 3.0;
// A negation scoping only one question term ("do not let family members use ..." for "Are contractors allowed to
// use the VPN?") states No only when the unit with its header and chunk context holds more than this share of the
// question's terms: one shared verb is not the question's predicate about the question's subject.
constexpr double kNoShareOneTerm = 0.5;
constexpr double kYesShare = 1.0;

const std::unordered_set<std::string>& plain_cues() {
  static const std::unordered_set<std::string> kCues = {"not", "no", "never", "cannot", "nor", "none", "neither", "nobody",
                                                        "nothing", "nowhere", "without", "unable"};
  return kCues;
}

// Words reporting that a proposal did not happen: they negate the phrase before them as well as after.
const std::unordered_set<std::string>& outcome_cues() {
  static const std::unordered_set<std::string> kCues = {"deferred", "rejected", "declined", "denied", "refused",
                                                        "postponed", "cancelled", "canceled", "withdrawn"};
  return kCues;
}

// Words that make a statement conditional: its polarity then depends on the case.
const std::unordered_set<std::string>& condition_words() {
  static const std::unordered_set<std::string> kWords = {"if", "unless", "except", "provided", "depending", "otherwise"};
  return kWords;
}

// One word of a unit or question as polarity reads it.
struct Word {
  std::string folded;   // lowercase, accents removed; a contraction's "n't" is its own word "not"
  bool clause_start;    // , ; : . ! ? ( ) or the text start came before this word
};

// Folded words with clause boundaries; "can't", "doesn’t", "isn't" -> "can" "not", "doesn" "not", "isn" "not".
std::vector<Word> words_of(std::string_view text) {
  std::string f = text::fold(text);
  // The typographic apostrophe (U+2019) as ASCII, so contractions read the same either way.
  for (std::size_t at = f.find("\xE2\x80\x99"); at != std::string::npos; at = f.find("\xE2\x80\x99", at)) f.replace(at, 3, "'");
  std::vector<Word> out;
  bool boundary = true;
  std::size_t i = 0;
  while (i < f.size()) {
    const unsigned char c = static_cast<unsigned char>(f[i]);
    if (!is_word_byte(c)) {
      if (c == ',' || c == ';' || c == ':' || c == '.' || c == '!' || c == '?' || c == '(' || c == ')') {
        // "3.x", "1,000": a dot or comma between word bytes is inside a word group, not a boundary.
        const bool inner = (c == '.' || c == ',') && i > 0 && i + 1 < f.size() && is_word_byte(static_cast<unsigned char>(f[i - 1])) &&
                           is_word_byte(static_cast<unsigned char>(f[i + 1]));
        if (!inner) boundary = true;
      }
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < f.size() && is_word_byte(static_cast<unsigned char>(f[j]))) ++j;
    std::string w = f.substr(i, j - i);
    // "doesn't": the word before the apostrophe ends in n and "t" follows it.
    if (j + 1 < f.size() && f[j] == '\'' && f[j + 1] == 't' && (j + 2 >= f.size() || !is_word_byte(static_cast<unsigned char>(f[j + 2]))) &&
        w.size() >= 2 && w.back() == 'n') {
      out.push_back({w == "can" || w == "won" ? w : w.substr(0, w.size() - 1), boundary});
      out.push_back({"not", false});
      boundary = false;
      i = j + 2;
      continue;
    }
    out.push_back({std::move(w), boundary});
    boundary = false;
    i = j;
  }
  return out;
}

bool all_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Is the (stemmed) term one of the question's terms, or a close variant of one (numbers exactly)?
bool question_term(const std::vector<std::string>& q, const std::string& term) {
  if (all_digits(term)) return std::find(q.begin(), q.end(), term) != q.end();
  return supports_term(q, term);
}

// The stemmed content term of one folded word ("" for a stop word or a cue).
std::string term_of(const std::string& folded) {
  if (negation_cue(folded)) return "";
  const std::vector<std::string> t = answer_terms(folded);
  return t.empty() ? "" : t.front();
}

// The question term a prefix (un-, in-, non-) negates ("unsupported" -> "support"), or "" when none does.
std::string prefix_negated(const std::string& folded, const std::vector<std::string>& q) {
  for (std::string_view p : {std::string_view("non"), std::string_view("un"), std::string_view("in")}) {
    if (folded.size() < p.size() + 4 || folded.compare(0, p.size(), p) != 0) continue;
    std::string rest = term_of(folded.substr(p.size()));
    if (rest.size() >= 4 && std::find(q.begin(), q.end(), rest) != q.end()) return rest;
  }
  return "";
}

}  // namespace

bool negation_cue(std::string_view word) {
  const std::string w(word);
  return plain_cues().count(w) > 0 || outcome_cues().count(w) > 0;
}

bool question_negated(std::string_view question) {
  for (const Word& w : words_of(question)) {
    if (negation_cue(w.folded)) return true;
  }
  return false;
}

Polarity yes_no_polarity(std::string_view unit_text, UnitKind kind, std::string_view question, std::string_view context) {
  // A table row states values, not a yes or a no.
  if (kind == UnitKind::kTableRow) return Polarity::kUnclear;
  std::vector<std::string> q;
  for (const Word& w : words_of(question)) {
    std::string t = term_of(w.folded);
    if (!t.empty()) q.push_back(std::move(t));
  }
  std::sort(q.begin(), q.end());
  q.erase(std::unique(q.begin(), q.end()), q.end());
  if (q.empty()) return Polarity::kUnclear;

  const std::vector<Word> words = words_of(unit_text);
  std::vector<std::string> terms(words.size());  // "" for stop words and cues
  std::vector<std::string> unit_terms;
  bool any_cue = false, condition = false;
  std::vector<std::string> scoped;     // the distinct question terms a negation scopes
  std::vector<std::size_t> scoped_at;  // the distinct unit words that hold them (one word may match two stems)
  const auto scope = [&](std::size_t at, const std::string& t) {
    for (const auto& x : q) {
      if (question_term({x}, t) && std::find(scoped.begin(), scoped.end(), x) == scoped.end()) scoped.push_back(x);
    }
    if (std::find(scoped_at.begin(), scoped_at.end(), at) == scoped_at.end()) scoped_at.push_back(at);
  };
  for (std::size_t i = 0; i < words.size(); ++i) {
    terms[i] = term_of(words[i].folded);
    if (!terms[i].empty()) unit_terms.push_back(terms[i]);
    if (condition_words().count(words[i].folded)) condition = true;
    const std::string negated = prefix_negated(words[i].folded, q);
    if (!negated.empty()) {
      any_cue = true;
      scope(i, negated);
    }
  }
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (!negation_cue(words[i].folded)) continue;
    any_cue = true;
    // After the cue, within its clause.
    std::size_t seen = 0;
    for (std::size_t j = i + 1; j < words.size() && seen < kScopeWords && !words[j].clause_start; ++j) {
      if (terms[j].empty()) continue;
      ++seen;
      if (question_term(q, terms[j])) scope(j, terms[j]);
    }
    // An outcome word also reports on the phrase before it ("the proposal ... was deferred").
    if (outcome_cues().count(words[i].folded)) {
      seen = 0;
      for (std::size_t j = i; j > 0 && seen < kScopeWords && !words[j].clause_start; --j) {
        if (terms[j - 1].empty()) continue;
        ++seen;
        if (question_term(q, terms[j - 1])) scope(j - 1, terms[j - 1]);
      }
    }
  }
  if (condition) return Polarity::kUnclear;
  // A question term is held when the unit has it (or a close variant), or negates it by a prefix ("unavailable").
  const auto is_scoped = [&](const std::string& t) { return std::find(scoped.begin(), scoped.end(), t) != scoped.end(); };
  std::size_t held = 0;
  for (const auto& t : q) held += question_term(unit_terms, t) || is_scoped(t) ? 1 : 0;
  const double share = static_cast<double>(held) / static_cast<double>(q.size());

  // The same share with the unit's header and chunk context (what the unit is about).
  std::vector<std::string> with_context = unit_terms;
  for (const Word& w : words_of(context)) {
    std::string t = term_of(w.folded);
    if (!t.empty()) with_context.push_back(std::move(t));
  }
  std::size_t held_in_context = 0;
  for (const auto& t : q) held_in_context += question_term(with_context, t) || is_scoped(t) ? 1 : 0;
  const double context_share = static_cast<double>(held_in_context) / static_cast<double>(q.size());

  Polarity stated = Polarity::kUnclear;
  if ((scoped_at.size() >= 2 && share >= kNoShare) || (scoped_at.size() == 1 && context_share > kNoShareOneTerm)) {
    stated = Polarity::kNo;
  } else if (!any_cue && share >= kYesShare) {
    bool complete = true;
    for (const auto& t : q) {
      if (all_digits(t) && std::find(unit_terms.begin(), unit_terms.end(), t) == unit_terms.end()) complete = false;
    }
    const std::vector<std::string> seq = answer_terms(unit_text);
    for (const auto& e : question_entities(question)) {
      if (std::search(seq.begin(), seq.end(), e.begin(), e.end()) == seq.end()) complete = false;
    }
    if (complete) stated = Polarity::kYes;
  }
  if (stated == Polarity::kUnclear || !question_negated(question)) return stated;
  return stated == Polarity::kYes ? Polarity::kNo : Polarity::kYes;
}

const char* polarity_name(Polarity p) {
  switch (p) {
    case Polarity::kYes: return "yes";
    case Polarity::kNo: return "no";
    case Polarity::kUnclear: break;
  }
  return "unclear";
}

}  // namespace ragwasm::answer
