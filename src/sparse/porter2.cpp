// Snowball English (Porter2) stemmer. Step names and rules follow english.sbl; comments quote the
// published description. `among` picks the LONGEST matching suffix; when that suffix's condition
// fails the step does nothing (shorter suffixes are not tried), as in Snowball.
#include "sparse/porter2.h"

#include <cstddef>
#include <cstring>

namespace ragwasm::sparse {
namespace {

bool is_v(char c) { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' || c == 'y'; }
bool is_nonv_wxy(char c) { return !is_v(c) && c != 'w' && c != 'x' && c != 'Y'; }

// Suffix lists are string_views (lengths known at compile time): no strlen per test, and the last
// character is compared before the rest, which rejects most suffixes at once.
bool ends(const std::string& w, std::string_view s, std::size_t* len) {
  const std::size_t n = s.size();
  if (w.size() < n) return false;
  if (n > 0 && (w.back() != s.back() || std::memcmp(w.data() + w.size() - n, s.data(), n) != 0)) return false;
  *len = n;
  return true;
}

// Longest suffix of w among `list`; returns its index or -1, and its length.
int longest(const std::string& w, const std::string_view* list, std::size_t count, std::size_t* len) {
  int best = -1;
  std::size_t best_len = 0;
  for (std::size_t i = 0; i < count; ++i) {
    std::size_t l = 0;
    if (ends(w, list[i], &l) && (best < 0 || l > best_len)) {
      best = static_cast<int>(i);
      best_len = l;
    }
  }
  *len = best_len;
  return best;
}

// shortv tested at the end of w[0, end): (non-v_WXY v non-v) or (non-v v atlimit), read backwards.
bool shortv(const std::string& w, std::size_t end) {
  if (end >= 3 && is_nonv_wxy(w[end - 1]) && is_v(w[end - 2]) && !is_v(w[end - 3])) return true;
  return end == 2 && !is_v(w[1]) && is_v(w[0]);
}

const char* exception1(const std::string& w) {
  static constexpr std::string_view kMap[][2] = {
      {"skis", "ski"},     {"skies", "sky"},    {"dying", "die"},   {"lying", "lie"},
      {"tying", "tie"},    {"idly", "idl"},     {"gently", "gentl"}, {"ugly", "ugli"},
      {"early", "earli"},  {"only", "onli"},    {"singly", "singl"}, {"sky", "sky"},
      {"news", "news"},    {"howe", "howe"},    {"atlas", "atlas"}, {"cosmos", "cosmos"},
      {"bias", "bias"},    {"andes", "andes"},
  };
  for (const auto& e : kMap)
    if (w == e[0]) return e[1].data();  // literals: null-terminated
  return nullptr;
}

bool exception2(const std::string& w) {
  static constexpr std::string_view kWords[] = {"inning", "outing", "canning", "herring",
                                       "earring", "proceed", "exceed", "succeed"};
  for (std::string_view e : kWords)
    if (w == e) return true;
  return false;
}

void replace_end(std::string& w, std::size_t len, const char* with) {
  w.resize(w.size() - len);
  w.append(with);
}

void step_1a(std::string& w) {
  std::size_t len = 0;
  // Step 0: the longest of ' 's 's'.
  if (ends(w, "'s'", &len) || ends(w, "'s", &len) || ends(w, "'", &len)) w.resize(w.size() - len);
  static constexpr std::string_view kList[] = {"sses", "ied", "ies", "s", "us", "ss"};
  const int i = longest(w, kList, 6, &len);
  if (i < 0) return;
  const std::size_t start = w.size() - len;
  switch (i) {
    case 0: replace_end(w, len, "ss"); break;
    case 1:
    case 2: replace_end(w, len, start >= 2 ? "i" : "ie"); break;  // "hop 2": more than one letter before
    case 3: {
      // delete if the word part before the letter preceding the s contains a vowel
      if (start >= 2) {
        for (std::size_t j = 0; j + 1 < start; ++j) {
          if (is_v(w[j])) {
            w.resize(start);
            break;
          }
        }
      }
      break;
    }
    default: break;  // us, ss: unchanged
  }
}

void step_1b(std::string& w, std::size_t p1) {
  static constexpr std::string_view kList[] = {"eed", "eedly", "ed", "edly", "ing", "ingly"};
  std::size_t len = 0;
  const int i = longest(w, kList, 6, &len);
  if (i < 0) return;
  const std::size_t start = w.size() - len;
  if (i <= 1) {
    if (start >= p1) replace_end(w, len, "ee");
    return;
  }
  bool vowel = false;
  for (std::size_t j = 0; j < start; ++j) vowel = vowel || is_v(w[j]);
  if (!vowel) return;
  w.resize(start);
  std::size_t l2 = 0;
  if (ends(w, "at", &l2) || ends(w, "bl", &l2) || ends(w, "iz", &l2)) {
    w.push_back('e');
    return;
  }
  const std::size_t n = w.size();
  if (n >= 2 && w[n - 1] == w[n - 2] && std::strchr("bdfgmnprt", w[n - 1]) != nullptr) {
    w.pop_back();
    return;
  }
  if (n == p1 && shortv(w, n)) w.push_back('e');
}

void step_1c(std::string& w) {
  const std::size_t n = w.size();
  if (n >= 3 && (w[n - 1] == 'y' || w[n - 1] == 'Y') && !is_v(w[n - 2])) w[n - 1] = 'i';
}

void step_2(std::string& w, std::size_t p1) {
  static constexpr std::string_view kList[] = {"tional", "enci",    "anci",   "abli",   "entli",   "izer",
                                               "ization", "ational", "ation",  "ator",   "alism",   "aliti",
                                      "alli",   "fulness", "ousli",  "ousness", "iveness", "iviti",
                                      "biliti", "bli",     "ogi",    "fulli",  "lessli",  "li"};
  static const char* const kTo[] = {"tion", "ence", "ance", "able", "ent", "ize", "ize", "ate",
                                    "ate",  "ate",  "al",   "al",   "al",  "ful", "ous", "ous",
                                    "ive",  "ive",  "ble",  "ble",  "og",  "ful", "less", ""};
  std::size_t len = 0;
  const int i = longest(w, kList, 24, &len);
  if (i < 0) return;
  const std::size_t start = w.size() - len;
  if (start < p1) return;
  if (i == 20) {  // ogi -> og when preceded by l
    if (start >= 1 && w[start - 1] == 'l') replace_end(w, len, "og");
    return;
  }
  if (i == 23) {  // li: delete when preceded by a valid li-ending
    if (start >= 1 && std::strchr("cdeghkmnrt", w[start - 1]) != nullptr) w.resize(start);
    return;
  }
  replace_end(w, len, kTo[i]);
}

void step_3(std::string& w, std::size_t p1, std::size_t p2) {
  static constexpr std::string_view kList[] = {"tional", "ational", "alize", "icate", "iciti",
                                      "ical",   "ful",     "ness",  "ative"};
  static const char* const kTo[] = {"tion", "ate", "al", "ic", "ic", "ic", "", "", ""};
  std::size_t len = 0;
  const int i = longest(w, kList, 9, &len);
  if (i < 0) return;
  const std::size_t start = w.size() - len;
  if (start < p1) return;
  if (i == 8) {
    if (start >= p2) w.resize(start);
    return;
  }
  replace_end(w, len, kTo[i]);
}

void step_4(std::string& w, std::size_t p2) {
  static constexpr std::string_view kList[] = {"al",  "ance", "ence", "er",  "ic",  "able", "ible",
                                      "ant", "ement", "ment", "ent", "ism", "ate", "iti",
                                      "ous", "ive",  "ize",  "ion"};
  std::size_t len = 0;
  const int i = longest(w, kList, 18, &len);
  if (i < 0) return;
  const std::size_t start = w.size() - len;
  if (start < p2) return;
  if (i == 17) {
    if (start >= 1 && (w[start - 1] == 's' || w[start - 1] == 't')) w.resize(start);
    return;
  }
  w.resize(start);
}

void step_5(std::string& w, std::size_t p1, std::size_t p2) {
  const std::size_t n = w.size();
  if (n == 0) return;
  const std::size_t start = n - 1;
  if (w[start] == 'e') {
    if (start >= p2 || (start >= p1 && !shortv(w, start))) w.pop_back();
  } else if (w[start] == 'l') {
    if (start >= p2 && start >= 1 && w[start - 1] == 'l') w.pop_back();
  }
}

}  // namespace

std::string porter2_stem(std::string_view word) {
  std::string w(word);
  if (const char* e = exception1(w)) return e;
  if (w.size() < 3) return w;
  // prelude: initial apostrophe removed; initial y and y after a vowel become consonant Y
  if (w[0] == '\'') w.erase(0, 1);
  if (!w.empty() && w[0] == 'y') w[0] = 'Y';
  for (std::size_t i = 1; i < w.size(); ++i)
    if (w[i] == 'y' && is_v(w[i - 1])) w[i] = 'Y';
  // regions
  const std::size_t n = w.size();
  std::size_t p1 = n, p2 = n;
  {
    std::size_t i = 0;
    bool got = false;
    for (const char* pre : {"gener", "commun", "arsen"}) {
      const std::size_t l = std::strlen(pre);
      if (w.compare(0, l, pre) == 0) {
        p1 = l;
        got = true;
        break;
      }
    }
    if (!got) {
      while (i < n && !is_v(w[i])) ++i;
      while (i < n && is_v(w[i])) ++i;
      p1 = i < n ? i + 1 : n;
    }
    i = p1;
    while (i < n && !is_v(w[i])) ++i;
    while (i < n && is_v(w[i])) ++i;
    p2 = i < n ? i + 1 : n;
    if (p1 > n) p1 = n;
  }
  step_1a(w);
  if (!exception2(w)) {
    step_1b(w, p1);
    step_1c(w);
    step_2(w, p1);
    step_3(w, p1, p2);
    step_4(w, p2);
    step_5(w, p1, p2);
  }
  for (char& c : w)
    if (c == 'Y') c = 'y';
  return w;
}

}  // namespace ragwasm::sparse
