// The answer-type rules (answer_type.h): question_type, matches_type and the quantity, unit, money and name
// checks they use.
#include "answer/answer_type.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <unordered_set>
#include <vector>

#include "answer/words.h"
#include "text/casefold.h"

namespace ragwasm::answer {

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

// The auxiliary verbs that open a yes/no question ("Is it covered?") and follow "what day" / "what time".
const std::unordered_set<std::string>& auxiliaries() {
  static const std::unordered_set<std::string> kAux = {"is", "are", "do", "does", "did", "was", "were", "can",
                                                       "could", "has", "have", "had", "will", "would", "should",
                                                       "may", "must"};
  return kAux;
}

// "What day is ...?", "Which weekday does ...", "What day of the week ...", "What time does the tour start?":
// "what" / "which" + "day" / "weekday" followed by "of", an auxiliary or nothing, or + "time" followed by an
// auxiliary ("What day-to-day tasks ...", "What day rate ...", "What time period ..." ask for no day or time).
bool asks_for_day_or_time(const std::vector<std::string>& words) {
  for (std::size_t i = 0; i + 1 < words.size(); ++i) {
    if (words[i] != "what" && words[i] != "which") continue;
    const bool end = i + 2 == words.size();
    const bool aux = !end && auxiliaries().count(words[i + 2]) > 0;
    if ((words[i + 1] == "day" || words[i + 1] == "weekday") && (end || aux || words[i + 2] == "of")) return true;
    if (words[i + 1] == "time" && aux) return true;
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
      contains_phrase(f, "what year") || contains_phrase(f, "which date") || asks_for_day_or_time(words)) {
    return QuestionType::kDate;
  }
  const auto& kAux = auxiliaries();
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
  // "+70 °C", "+5%": a signed measurement, not a phone number
  std::size_t e = i;
  while (e < t.size() && (is_digit(t[e]) || t[e] == '.' || t[e] == ',')) ++e;
  while (e < t.size() && t[e] == ' ') ++e;
  if (e < t.size() && (t[e] == '%' || t.substr(e, 2) == "\xC2\xB0")) return false;
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

// A time of day in folded text: "08:00", "9:30" (hours 0-23, two-digit minutes 00-59; not "1:500", "8080:80" or "3:2:1"),
// "2 pm", "6 a.m.", "noon", "midnight".
bool has_time_of_day(const std::string& f) {
  if (contains_phrase(f, "noon") || contains_phrase(f, "midnight")) return true;
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (!is_digit(f[i]) || (i > 0 && (is_digit(f[i - 1]) || f[i - 1] == '.' || f[i - 1] == ':'))) continue;
    std::size_t j = i;
    while (j < f.size() && is_digit(f[j])) ++j;
    if (j - i > 2) continue;
    const int hour = std::stoi(f.substr(i, j - i));
    if (j + 2 < f.size() && f[j] == ':' && is_digit(f[j + 1]) && is_digit(f[j + 2]) &&
        (j + 3 >= f.size() || (!is_digit(f[j + 3]) && f[j + 3] != ':'))) {
      if (hour <= 23 && f[j + 1] <= '5') return true;
      continue;
    }
    if (hour < 1 || hour > 12) continue;
    std::size_t k = j;
    if (k < f.size() && f[k] == ' ') ++k;
    const std::string_view rest = std::string_view(f).substr(k);
    for (std::string_view m : {"a.m.", "p.m.", "am", "pm"}) {
      const bool end = rest.size() == m.size() || m.back() == '.' || !is_word_byte(static_cast<unsigned char>(rest[m.size()]));
      if (rest.substr(0, m.size()) == m && end) return true;
    }
  }
  return false;
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
      "kg", "mg", "gram", "grams", "gramme", "grammes", "kilogram", "kilograms", "kilogramme", "kilogrammes", "kilo",
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
  // "640 g", "95g": grams only as a lowercase g right after a number ("4G" and "5G" are networks)
  for (std::size_t i = 1; i < t.size() && !k.mass; ++i) {
    if (t[i] != 'g' || (i + 1 < t.size() && is_ascii_letter(t[i + 1]))) continue;
    const std::size_t d = t[i - 1] == ' ' ? i - 1 : i;
    k.mass = d > 0 && is_digit(t[d - 1]);
  }
  return k;
}

// The unit a number question's quantity must come with: "how long" a duration or a length, "how soon / old" a
// duration, "how far / deep / tall / wide" a length, "how heavy" or a question about weight ("How much does a DL-7
// weigh?") a mass, "how hot / cold / warm" a temperature.
enum class UnitNeed { kNone, kTimeOrLength, kTime, kLength, kMass, kTemperature };
UnitNeed unit_need(const std::string& fq) {
  // the question's "how" word first: "How far can it fly at full weight?" asks for a length
  if (contains_phrase(fq, "how long")) return UnitNeed::kTimeOrLength;
  if (contains_phrase(fq, "how soon") || contains_phrase(fq, "how old")) return UnitNeed::kTime;
  for (const char* p : {"how far", "how deep", "how tall", "how wide"}) {
    if (contains_phrase(fq, p)) return UnitNeed::kLength;
  }
  for (const char* p : {"how hot", "how cold", "how warm"}) {
    if (contains_phrase(fq, p)) return UnitNeed::kTemperature;
  }
  if (contains_phrase(fq, "how heavy")) return UnitNeed::kMass;
  // "How much weight does price carry?" asks for a share, not a mass
  for (const char* p : {"percent", "percentage", "share", "proportion"}) {
    if (contains_phrase(fq, p)) return UnitNeed::kNone;
  }
  for (const char* p : {"weigh", "weighs", "weight", "weighed"}) {
    if (contains_phrase(fq, p)) return UnitNeed::kMass;
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
      for (const char* m : {"january", "february", "march", "april", "june", "july", "august", "september",
                            "october", "november", "december", "monday", "tuesday", "wednesday", "thursday", "friday",
                            "saturday", "sunday", "mondays", "tuesdays", "wednesdays", "thursdays", "fridays",
                            "saturdays", "sundays"}) {
        if (contains_phrase(f, m)) return true;
      }
      const auto words = raw_words(f);
      const auto numeric = [](const std::string& w) { return !w.empty() && is_digit(w[0]); };
      for (std::size_t i = 0; i < words.size(); ++i) {
        // "May" the month beside a number ("May 5", "5 May 2025"), not the modal verb
        if (words[i] == "may" && ((i > 0 && numeric(words[i - 1])) || (i + 1 < words.size() && numeric(words[i + 1])))) return true;
      }
      if (has_time_of_day(f)) return true;
      for (const auto& w : words) {
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

}  // namespace ragwasm::answer
