// Answer and citation metrics (see answer.h for formulas and sources).
#include "metrics/answer.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <unordered_map>

#include "common/format.h"
#include "common/limits.h"
#include "text/casefold.h"
#include "text/utf8.h"

namespace ragwasm::metrics {
namespace {

bool ascii_punct(unsigned char c) { return (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126); }
bool is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

std::string lower(std::string_view s) {
  text::FoldOptions o;
  o.lowercase = true;
  o.fold_accents = false;
  return text::fold(s, o);
}

std::vector<std::string> split_spaces(std::string_view s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && is_space(static_cast<unsigned char>(s[i]))) ++i;
    std::size_t j = i;
    while (j < s.size() && !is_space(static_cast<unsigned char>(s[j]))) ++j;
    if (j > i) out.emplace_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

// Lowercased runs of [a-z0-9] plus non-ASCII bytes (rouge-score's tokenizer, Unicode-tolerant).
std::vector<std::string> word_tokens(std::string_view s) {
  const std::string l = lower(s);
  std::vector<std::string> out;
  std::string cur;
  for (unsigned char c : l) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c >= 0x80) {
      cur.push_back(static_cast<char>(c));
    } else if (!cur.empty()) {
      out.push_back(std::move(cur));
      cur.clear();
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

template <class F>
double best_over(const std::vector<std::string>& refs, F&& f) {
  double best = 0;
  for (const auto& r : refs) best = std::max(best, f(r));
  return best;
}

// As best_over for a per-reference score that may fail (LIMIT_EXCEEDED): the first error wins.
template <class F>
Result<double> best_over_checked(const std::vector<std::string>& refs, F&& f) {
  double best = 0;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    Result<double> r = f(refs[i], i);
    if (!r.ok()) return r.error();
    best = std::max(best, r.value());
  }
  return best;
}

// Drops the common prefix and suffix of two strings (they add nothing to an edit distance);
// returns how many code points were dropped from each.
std::size_t strip_common_ends(std::u32string_view& a, std::u32string_view& b) {
  std::size_t n = 0;
  while (!a.empty() && !b.empty() && a.front() == b.front()) {
    a.remove_prefix(1);
    b.remove_prefix(1);
    ++n;
  }
  while (!a.empty() && !b.empty() && a.back() == b.back()) {
    a.remove_suffix(1);
    b.remove_suffix(1);
    ++n;
  }
  return n;
}

// Ukkonen's band for a distance bound k over rows of the shorter string (after strip_common_ends,
// |a| <= |b|): diagonals q = j - i with |q| + |delta - q| <= k, i.e. q in [-h, delta + h] where
// h = (k - delta) / 2. Cells = |a| * band width.
struct Band {
  std::size_t rows = 0, width = 0;
  long lo = 0, hi = 0;
};
Band edit_band(std::size_t n, std::size_t m, std::size_t k) {
  Band band;
  const std::size_t delta = m - n;
  const long h = static_cast<long>((k - delta) / 2);
  band.rows = n;
  band.lo = -h;
  band.hi = static_cast<long>(delta) + h;
  band.width = static_cast<std::size_t>(band.hi - band.lo + 1);
  return band;
}

}  // namespace

std::u32string to_u32(std::string_view utf8) {
  std::u32string out;
  std::size_t i = 0;
  while (i < utf8.size()) {
    std::size_t len = 1;
    out.push_back(text::decode_utf8(utf8, i, &len));
    i += len ? len : 1;
  }
  return out;
}

std::size_t levenshtein(const std::u32string& a, const std::u32string& b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::size_t levenshtein_within(std::u32string_view a, std::u32string_view b, std::size_t k) {
  strip_common_ends(a, b);
  if (a.size() > b.size()) std::swap(a, b);
  const std::size_t n = a.size(), m = b.size();
  if (m - n > k) return k + 1;  // lev >= the length difference
  if (n == 0) return m;
  const Band band = edit_band(n, m, k);
  const std::size_t inf = k + 1;
  // Row storage indexed by diagonal: t = q - band.lo + 1; t = 0 and t = width + 1 stay inf, so the
  // neighbours of the band's edge cells read as "more than k" (no path of cost <= k leaves the band).
  std::vector<std::size_t> prev(band.width + 2, inf), cur(band.width + 2, inf);
  for (std::size_t t = 1; t <= band.width; ++t) {
    const long q = band.lo + static_cast<long>(t) - 1;  // row 0: D[0][j] = j
    prev[t] = q >= 0 && q <= static_cast<long>(m) ? std::min(static_cast<std::size_t>(q), inf) : inf;
  }
  const long lm = static_cast<long>(m), width = static_cast<long>(band.width);
  for (std::size_t i = 1; i <= n; ++i) {
    // Column j = i + q sits at t = j - i - lo + 1; cells with j < 0 or j > m are inf, j = 0 is D[i][0] = i.
    const long base = static_cast<long>(i) + band.lo - 1;  // j at t = 0
    const long t_first = std::max(1L, 1 - base), t_last = std::min(width, lm - base);
    std::size_t row_min = inf;
    for (long t = 1; t < std::min(t_first, width + 1); ++t) cur[static_cast<std::size_t>(t)] = inf;
    if (t_first - 1 >= 1 && base + t_first - 1 == 0) {
      cur[static_cast<std::size_t>(t_first - 1)] = std::min(i, inf);
      row_min = cur[static_cast<std::size_t>(t_first - 1)];
    }
    const char32_t ai = a[i - 1];
    for (long t = t_first; t <= t_last; ++t) {
      const std::size_t tu = static_cast<std::size_t>(t);
      // D[i-1][j] is diagonal q+1 of the previous row, D[i][j-1] diagonal q-1 of this row.
      std::size_t v = std::min(prev[tu + 1], cur[tu - 1]) + 1;
      v = std::min(v, prev[tu] + (ai == b[static_cast<std::size_t>(base + t - 1)] ? 0 : 1));
      v = std::min(v, inf);
      cur[tu] = v;
      row_min = std::min(row_min, v);
    }
    for (long t = std::max(t_last + 1, 1L); t <= width; ++t) cur[static_cast<std::size_t>(t)] = inf;
    if (row_min > k) return inf;  // every path to the end passes this row
    std::swap(prev, cur);
  }
  return prev[static_cast<std::size_t>(static_cast<long>(m - n) - band.lo + 1)];
}

std::string squad_normalize(std::string_view s, bool remove_articles) {
  const std::string l = lower(s);
  std::string no_punct;
  no_punct.reserve(l.size());
  for (unsigned char c : l) {
    if (!ascii_punct(c)) no_punct.push_back(static_cast<char>(c));
  }
  std::string out;
  for (const auto& w : split_spaces(no_punct)) {
    if (remove_articles && (w == "a" || w == "an" || w == "the")) continue;
    if (!out.empty()) out.push_back(' ');
    out += w;
  }
  return out;
}

std::vector<std::string> squad_tokens(std::string_view s, bool remove_articles) { return split_spaces(squad_normalize(s, remove_articles)); }

double exact_match(std::string_view prediction, const std::vector<std::string>& references, bool remove_articles) {
  const std::string p = squad_normalize(prediction, remove_articles);
  return best_over(references, [&](const std::string& r) { return p == squad_normalize(r, remove_articles) ? 1.0 : 0.0; });
}

double token_f1(std::string_view prediction, const std::vector<std::string>& references, bool remove_articles) {
  const auto p = squad_tokens(prediction, remove_articles);
  return best_over(references, [&](const std::string& ref) {
    const auto r = squad_tokens(ref, remove_articles);
    if (p.empty() || r.empty()) return p.empty() && r.empty() ? 1.0 : 0.0;
    std::unordered_map<std::string, long> counts;
    for (const auto& t : r) ++counts[t];
    long same = 0;
    for (const auto& t : p) {
      auto it = counts.find(t);
      if (it != counts.end() && it->second > 0) {
        --it->second;
        ++same;
      }
    }
    if (same == 0) return 0.0;
    const double prec = static_cast<double>(same) / static_cast<double>(p.size());
    const double rec = static_cast<double>(same) / static_cast<double>(r.size());
    return 2 * prec * rec / (prec + rec);
  });
}

Result<double> anls(std::string_view prediction, const std::vector<std::string>& references, double threshold) {
  auto norm = [](std::string_view s) {
    std::string l = lower(s);
    std::size_t b = 0, e = l.size();
    while (b < e && is_space(static_cast<unsigned char>(l[b]))) ++b;
    while (e > b && is_space(static_cast<unsigned char>(l[e - 1]))) --e;
    return to_u32(std::string_view(l).substr(b, e - b));
  };
  const std::u32string p = norm(prediction);
  return best_over_checked(references, [&](const std::string& ref, std::size_t index) -> Result<double> {
    const std::u32string r = norm(ref);
    const std::size_t m = std::max(p.size(), r.size());
    if (m == 0) return 1.0;
    // Distances above k score below the threshold; +1 keeps rounding of (1 - threshold) * m harmless.
    const std::size_t k = std::min(m, static_cast<std::size_t>(std::ceil((1.0 - threshold) * static_cast<double>(m))) + 1);
    std::u32string_view a(p), b(r);
    strip_common_ends(a, b);
    if (a.size() > b.size()) std::swap(a, b);
    if (b.size() - a.size() > k) return 0.0;
    const Band band = edit_band(a.size(), b.size(), k);
    const double cells = static_cast<double>(band.rows) * static_cast<double>(band.width);
    if (cells > kMaxAlignmentCells) {
      return make_error(ErrorCode::kLimitExceeded, "anls: prediction (" + std::to_string(p.size()) + " characters) against references[" +
                                                       std::to_string(index) + "] (" + std::to_string(r.size()) + " characters) needs " +
                                                       number_text(cells) + " edit-distance cells, the limit is " +
                                                       number_text(kMaxAlignmentCells) + "; compare shorter answers");
    }
    const std::size_t d = levenshtein_within(a, b, k);
    if (d > k) return 0.0;
    const double s = 1.0 - static_cast<double>(d) / static_cast<double>(m);
    return s < threshold ? 0.0 : s;
  });
}

Result<double> rouge_l(std::string_view prediction, const std::vector<std::string>& references) {
  // Tokens become ids (one hash lookup each) so the LCS table compares integers.
  std::unordered_map<std::string, std::uint32_t> ids;
  auto to_ids = [&ids](const std::vector<std::string>& tokens) {
    std::vector<std::uint32_t> out;
    out.reserve(tokens.size());
    for (const auto& t : tokens) out.push_back(ids.emplace(t, static_cast<std::uint32_t>(ids.size())).first->second);
    return out;
  };
  const auto p = to_ids(word_tokens(prediction));
  return best_over_checked(references, [&](const std::string& ref, std::size_t index) -> Result<double> {
    const auto r = to_ids(word_tokens(ref));
    if (p.empty() || r.empty()) return 0.0;
    // A common prefix or suffix belongs to some LCS: count it and align only the middles.
    std::size_t lo = 0, p_end = p.size(), r_end = r.size();
    while (lo < p_end && lo < r_end && p[lo] == r[lo]) ++lo;
    while (p_end > lo && r_end > lo && p[p_end - 1] == r[r_end - 1]) --p_end, --r_end;
    const std::size_t pn = p_end - lo, rn = r_end - lo;
    const double cells = static_cast<double>(pn) * static_cast<double>(rn);
    if (cells > kMaxAlignmentCells) {
      return make_error(ErrorCode::kLimitExceeded, "rougeL: prediction (" + std::to_string(p.size()) + " tokens) against references[" +
                                                       std::to_string(index) + "] (" + std::to_string(r.size()) + " tokens) needs " +
                                                       number_text(cells) + " LCS cells, the limit is " + number_text(kMaxAlignmentCells) +
                                                       "; compare shorter answers");
    }
    std::vector<std::uint32_t> prev(rn + 1, 0), cur(rn + 1, 0);
    for (std::size_t i = 1; i <= pn; ++i) {
      for (std::size_t j = 1; j <= rn; ++j) {
        cur[j] = p[lo + i - 1] == r[lo + j - 1] ? prev[j - 1] + 1 : std::max(prev[j], cur[j - 1]);
      }
      std::swap(prev, cur);
    }
    const double lcs = static_cast<double>(prev[rn] + lo + (p.size() - p_end));
    if (lcs == 0) return 0.0;
    const double prec = lcs / static_cast<double>(p.size()), rec = lcs / static_cast<double>(r.size());
    return 2 * prec * rec / (prec + rec);
  });
}

double sentence_bleu(std::string_view prediction, const std::vector<std::string>& references, int max_n, BleuSmoothing smoothing) {
  const auto p = word_tokens(prediction);
  if (p.empty() || references.empty() || max_n < 1) return 0.0;
  std::vector<std::vector<std::string>> refs;
  for (const auto& r : references) refs.push_back(word_tokens(r));
  auto ngrams = [](const std::vector<std::string>& t, int n) {
    std::map<std::string, long> c;
    for (std::size_t i = 0; i + static_cast<std::size_t>(n) <= t.size(); ++i) {
      std::string key;
      for (int k = 0; k < n; ++k) key += t[i + static_cast<std::size_t>(k)] + '\x1f';
      ++c[key];
    }
    return c;
  };
  double log_sum = 0;
  for (int n = 1; n <= max_n; ++n) {
    const auto pc = ngrams(p, n);
    std::map<std::string, long> max_ref;
    for (const auto& r : refs) {
      for (const auto& [k, v] : ngrams(r, n)) max_ref[k] = std::max(max_ref[k], v);
    }
    long hits = 0, total = 0;
    for (const auto& [k, v] : pc) {
      total += v;
      auto it = max_ref.find(k);
      if (it != max_ref.end()) hits += std::min(v, it->second);
    }
    if (n == 1 && hits == 0) return 0.0;  // no unigram in common: 0 whatever the smoothing
    // As NLTK's modified_precision: an order with no n-gram counts 0 / max(1, total).
    double num = static_cast<double>(hits), den = static_cast<double>(std::max(1L, total));
    if (smoothing == BleuSmoothing::kAddOne && n >= 2) {
      num += 1;
      den += 1;
    }
    if (num == 0) return 0.0;
    log_sum += std::log(num / den) / max_n;
  }
  const double c = static_cast<double>(p.size());
  double r = 0;
  double best_diff = -1;
  for (const auto& ref : refs) {
    const double len = static_cast<double>(ref.size());
    const double diff = std::fabs(len - c);
    if (best_diff < 0 || diff < best_diff || (diff == best_diff && len < r)) {
      best_diff = diff;
      r = len;
    }
  }
  const double bp = c > r ? 1.0 : std::exp(1.0 - r / c);
  return bp * std::exp(log_sum);
}

// ------------------------------------------------------------------------------------------------
// Citations

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Parses the inside of "[...]" as a marker list "1", "1, 2", "2-4"; false when it is not one.
bool parse_marker_list(std::string_view in, std::vector<int>* out) {
  std::vector<int> got;
  std::size_t i = 0;
  auto skip = [&] {
    while (i < in.size() && (in[i] == ' ' || in[i] == ',' || in[i] == ';')) ++i;
  };
  auto number = [&](int* v) {
    if (i >= in.size() || !is_digit(in[i])) return false;
    long x = 0;
    while (i < in.size() && is_digit(in[i])) {
      x = x * 10 + (in[i] - '0');
      if (x > 100000) return false;
      ++i;
    }
    *v = static_cast<int>(x);
    return true;
  };
  skip();
  if (i >= in.size()) return false;
  while (i < in.size()) {
    int a;
    if (!number(&a)) return false;
    if (i < in.size() && in[i] == '-') {
      ++i;
      int b;
      if (!number(&b) || b < a || b - a > 100) return false;
      for (int k = a; k <= b; ++k) got.push_back(k);
    } else {
      got.push_back(a);
    }
    skip();
  }
  out->insert(out->end(), got.begin(), got.end());
  return true;
}

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && is_space(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && is_space(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

bool is_sources_heading(std::string_view line) {
  std::string t = trim(line);
  std::size_t b = 0;
  while (b < t.size() && (t[b] == '#' || t[b] == '*' || t[b] == ' ')) ++b;
  std::string core = t.substr(b);
  while (!core.empty() && (core.back() == ':' || core.back() == '*' || core.back() == ' ')) core.pop_back();
  const std::string l = lower(core);
  return l == "sources" || l == "source" || l == "references" || l == "citations";
}

}  // namespace

CitationResult citation_metrics(std::string_view answer, const std::vector<std::string>& context_ids,
                                const std::vector<std::string>& relevant_ids) {
  CitationResult r;
  // Split body / sources section at the first sources heading line.
  std::string_view body = answer, sources;
  std::size_t pos = 0;
  while (pos < answer.size()) {
    std::size_t nl = answer.find('\n', pos);
    if (nl == std::string_view::npos) nl = answer.size();
    if (is_sources_heading(answer.substr(pos, nl - pos))) {
      body = answer.substr(0, pos);
      sources = nl < answer.size() ? answer.substr(nl + 1) : std::string_view();
      break;
    }
    pos = nl + 1;
  }
  // Sources entries.
  std::map<int, std::string> source_of;
  pos = 0;
  while (pos < sources.size()) {
    std::size_t nl = sources.find('\n', pos);
    if (nl == std::string_view::npos) nl = sources.size();
    std::string line = trim(sources.substr(pos, nl - pos));
    pos = nl + 1;
    std::size_t i = 0;
    if (i < line.size() && (line[i] == '-' || line[i] == '*')) ++i;
    while (i < line.size() && line[i] == ' ') ++i;
    int n = -1;
    if (i < line.size() && line[i] == '[') {
      std::size_t close = line.find(']', i);
      std::vector<int> m;
      if (close == std::string::npos || !parse_marker_list(std::string_view(line).substr(i + 1, close - i - 1), &m) || m.size() != 1) continue;
      n = m[0];
      i = close + 1;
    } else if (i < line.size() && is_digit(line[i])) {
      long x = 0;
      while (i < line.size() && is_digit(line[i]) && x < 100000) x = x * 10 + (line[i++] - '0');
      if (i >= line.size() || (line[i] != '.' && line[i] != ')' && line[i] != ':')) continue;
      ++i;
      n = static_cast<int>(x);
    } else {
      continue;
    }
    while (i < line.size() && (line[i] == ' ' || line[i] == ':' || line[i] == '\t')) ++i;
    std::size_t e = i;
    while (e < line.size() && !is_space(static_cast<unsigned char>(line[e]))) ++e;
    std::string id = line.substr(i, e - i);
    while (!id.empty() && (id.back() == ':' || id.back() == ',' || id.back() == ';' || id.back() == '.')) id.pop_back();
    if (!id.empty() && !source_of.count(n)) source_of[n] = id;
  }
  // Inline markers in the body.
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '[') continue;
    std::size_t close = body.find(']', i);
    if (close == std::string_view::npos) break;
    std::vector<int> m;
    if (close - i <= 64 && parse_marker_list(body.substr(i + 1, close - i - 1), &m)) {
      for (int n : m) {
        if (std::find(r.markers.begin(), r.markers.end(), n) == r.markers.end()) r.markers.push_back(n);
      }
      i = close;
    }
  }
  for (int n : r.markers) {
    std::string id;
    auto it = source_of.find(n);
    if (it != source_of.end()) id = it->second;
    else if (n >= 1 && static_cast<std::size_t>(n) <= context_ids.size()) id = context_ids[static_cast<std::size_t>(n - 1)];
    if (id.empty()) {
      r.unresolved.push_back(n);
    } else if (std::find(r.cited.begin(), r.cited.end(), id) == r.cited.end()) {
      r.cited.push_back(id);
    }
  }
  std::size_t hit = 0;
  for (const auto& id : r.cited) {
    if (std::find(relevant_ids.begin(), relevant_ids.end(), id) != relevant_ids.end()) ++hit;
  }
  const std::size_t cited_total = r.cited.size() + r.unresolved.size();
  std::vector<std::string> rel_distinct;
  for (const auto& id : relevant_ids) {
    if (std::find(rel_distinct.begin(), rel_distinct.end(), id) == rel_distinct.end()) rel_distinct.push_back(id);
  }
  r.precision = cited_total ? static_cast<double>(hit) / static_cast<double>(cited_total) : 0.0;
  r.recall = rel_distinct.empty() ? 0.0 : static_cast<double>(hit) / static_cast<double>(rel_distinct.size());
  r.f1 = r.precision + r.recall > 0 ? 2 * r.precision * r.recall / (r.precision + r.recall) : 0.0;
  return r;
}

}  // namespace ragwasm::metrics
