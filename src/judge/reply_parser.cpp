// Judge reply parsing: hand-written scanners (no <regex>: predictable cost on adversarial replies,
// which the fuzz entry tests/fuzz/fuzz_judge_reply.cpp feeds in). JSON goes through nlohmann with
// exceptions off (parse(..., allow_exceptions=false)).
#include "judge/reply_parser.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include "common/format.h"
#include "common/json_depth.h"

namespace ragwasm::judge {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxJsonCandidates = 64;
constexpr int kMaxClaims = 1000;

bool is_alnum(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = lower(c);
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

struct Number {
  double value = 0;
  std::size_t start = 0;
  std::size_t end = 0;
  bool has_dot = false;
  bool exponent = false;  // followed by an exponent ("3e2"): not a score, never read as its leading digits
};

// A decimal number starting at pos: [+-]digits[.digits] or [+-].digits. At most 15 significant
// digits are accumulated (enough for any score; longer runs are still consumed). An exponent right
// after it (e or E, an optional sign, a digit: "3e2", "1e309", ".5e1") is consumed and flagged: the
// accepted score grammar has no exponent, and reading "3e2" as 3 would report a score the judge
// did not give.
std::optional<Number> number_at(std::string_view s, std::size_t pos) {
  Number n;
  n.start = pos;
  std::size_t i = pos;
  bool negative = false;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) {
    negative = s[i] == '-';
    ++i;
  }
  double v = 0;
  int digits = 0;
  std::size_t int_start = i;
  while (i < s.size() && is_digit(s[i])) {
    if (digits < 15) v = v * 10 + (s[i] - '0');
    else v *= 10;
    ++digits;
    ++i;
  }
  bool any = i > int_start;
  if (i + 1 < s.size() && s[i] == '.' && is_digit(s[i + 1])) {
    n.has_dot = true;
    ++i;
    double scale = 0.1;
    while (i < s.size() && is_digit(s[i])) {
      v += (s[i] - '0') * scale;
      scale /= 10;
      ++i;
      any = true;
    }
  }
  if (!any) return std::nullopt;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    std::size_t k = i + 1;
    if (k < s.size() && (s[k] == '+' || s[k] == '-')) ++k;
    if (k < s.size() && is_digit(s[k])) {
      while (k < s.size() && is_digit(s[k])) ++k;
      n.exponent = true;
      i = k;
    }
  }
  if (!std::isfinite(v)) return std::nullopt;
  n.value = negative ? -v : v;
  n.end = i;
  return n;
}

// A number with an optional "/ d" or "out of d" denominator and an optional '%'.
struct Scored {
  Number num;
  std::optional<double> denominator;
  bool percent = false;
  std::size_t end = 0;
  std::string malformed;  // why this candidate is not a score ("3e2", "3/0"); empty when it is one
};

Scored complete(std::string_view lower_text, Number n) {
  Scored sc;
  sc.num = n;
  auto quote = [&](std::size_t from, std::size_t to) {
    std::string t(lower_text.substr(from, std::min<std::size_t>(to - from, 40)));
    return "'" + t + "'";
  };
  if (n.exponent) sc.malformed = quote(n.start, n.end) + " is not a plain decimal score (exponents are not accepted)";
  std::size_t i = n.end;
  std::size_t j = i;
  while (j < lower_text.size() && (lower_text[j] == ' ' || lower_text[j] == '*' || lower_text[j] == ']' ||
                                   lower_text[j] == ')')) {
    ++j;
  }
  if (j < lower_text.size() && lower_text[j] == '%') {
    sc.percent = true;
    i = j + 1;
  } else {
    std::size_t k = j;
    bool slash = false;
    if (k < lower_text.size() && lower_text[k] == '/') {
      slash = true;
      ++k;
    } else if (lower_text.compare(k, 6, "out of") == 0) {
      slash = true;
      k += 6;
    }
    if (slash) {
      while (k < lower_text.size() && lower_text[k] == ' ') ++k;
      auto d = number_at(lower_text, k);
      if (d && d->value > 0 && !d->exponent && lower_text[k] != '-' && lower_text[k] != '+') {
        sc.denominator = d->value;
        i = d->end;
      } else if (d && sc.malformed.empty()) {
        // "3/0", "3/-3", "3/1e2": a fraction whose denominator is not a positive plain number.
        sc.malformed = quote(n.start, d->end) + " is not a score (the denominator must be a positive plain number)";
        i = d->end;
      }
    }
  }
  sc.end = i;
  return sc;
}

Error parse_error(std::string_view what) { return make_error(ErrorCode::kParseError, what); }


// Applies the scale: denominators, percent conversion, range and integer checks.
Result<double> to_scale(const Scored& sc, const ScoreOptions& o, double min, double max) {
  if (!sc.malformed.empty()) return parse_error("reply: " + sc.malformed);
  double v = sc.num.value;
  if (o.kind == ScaleKind::kPercent) {
    if (sc.denominator) {
      v = v / *sc.denominator * 100.0;
    } else if (!sc.percent && sc.num.has_dot && v >= 0 && v <= 1) {
      v *= 100.0;  // "0.85" on a percent scale is a fraction of 1
    }
  } else if (sc.denominator && *sc.denominator != max) {
    return parse_error("reply: score " + number_text(v) + "/" + number_text(*sc.denominator) +
                       " does not use the rubric's scale " + number_text(min) + "-" + number_text(max));
  } else if (sc.percent) {
    return parse_error("reply: a percentage (" + number_text(v) + "%) where a rating " + number_text(min) + "-" +
                       number_text(max) + " was expected");
  }
  if (v < min || v > max) {
    return parse_error("reply: score " + number_text(v) + " is outside the scale " + number_text(min) + "-" + number_text(max));
  }
  if (o.integer_only && o.kind == ScaleKind::kRating && v != std::floor(v)) {
    return parse_error("reply: score " + number_text(v) + " is not an integer rating");
  }
  return v;
}

// Index of the bracket closing the one at `open` ('{' or '['), honouring JSON strings; npos if none.
std::size_t matching_bracket(std::string_view s, std::size_t open) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = open; i < s.size(); ++i) {
    char c = s[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '{' || c == '[') ++depth;
    else if (c == '}' || c == ']') {
      if (--depth == 0) return i;
      if (depth < 0) return std::string_view::npos;
    }
  }
  return std::string_view::npos;
}

// Numeric value of a JSON score field: a number, or a string such as "2", "85%", "3/3".
std::optional<Scored> json_score(const json& v, std::size_t offset) {
  if (v.is_number()) {
    double d = v.get<double>();
    if (!std::isfinite(d)) return std::nullopt;
    Scored sc;
    sc.num.value = d;
    sc.num.start = offset;
    sc.num.has_dot = !v.is_number_integer() && !v.is_number_unsigned();
    return sc;
  }
  if (v.is_string()) {
    const std::string text = ascii_lower(trim(v.get_ref<const std::string&>()));
    auto n = number_at(text, 0);
    if (!n) return std::nullopt;
    Scored sc = complete(text, *n);
    if (trim(std::string_view(text).substr(sc.end)).size() != 0) return std::nullopt;
    sc.num.start = offset;
    return sc;
  }
  return std::nullopt;
}

const json* find_label_key(const json& obj, const std::vector<std::string>& labels) {
  for (const auto& label : labels) {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      std::string key = ascii_lower(it.key());
      std::replace(key.begin(), key.end(), '_', ' ');
      if (key == label) return &it.value();
    }
  }
  return nullptr;
}

std::vector<std::string> lowered_labels(const std::vector<std::string>& labels) {
  std::vector<std::string> out;
  for (const auto& l : labels) out.push_back(ascii_lower(l));
  return out;
}

Status check_options(const ScoreOptions& o, std::size_t reply_size) {
  if (reply_size > kMaxReplyBytes) {
    return make_error(ErrorCode::kLimitExceeded, "reply: " + std::to_string(reply_size) +
                                                     " bytes, the limit is " + std::to_string(kMaxReplyBytes));
  }
  if (o.kind == ScaleKind::kRating && !(o.min <= o.max)) {
    return make_error(ErrorCode::kInvalidArgument,
                      "options.min/max: expected min <= max, got " + number_text(o.min) + " > " + number_text(o.max));
  }
  for (const auto& l : o.labels) {
    if (trim(l).empty()) return make_error(ErrorCode::kInvalidArgument, "options.labels: expected non-empty labels, got \"\"");
  }
  return Status::success();
}

struct Candidate {
  Scored scored;
  ScoreMethod method;
};

std::optional<Candidate> last_json(std::string_view text, const std::vector<std::string>& labels) {
  std::vector<std::size_t> opens;
  for (std::size_t i = text.size(); i-- > 0;) {
    if (text[i] == '{') {
      opens.push_back(i);
      if (opens.size() >= kMaxJsonCandidates) break;
    }
  }
  for (std::size_t open : opens) {  // from the last '{' backwards
    const std::size_t close = matching_bracket(text, open);
    if (close == std::string_view::npos) continue;
    const std::string_view candidate = text.substr(open, close - open + 1);
    if (json_depth_overflow_at(candidate) != std::string_view::npos) continue;  // too deep to be a score object
    json j = json::parse(candidate, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object()) continue;
    const json* v = find_label_key(j, labels);
    if (!v) continue;
    auto sc = json_score(*v, open);
    if (sc) return Candidate{*sc, ScoreMethod::kJson};
  }
  return std::nullopt;
}

// All "<label> [:=|is] <number>" matches, in text order.
std::vector<Scored> labelled(std::string_view lower_text, const std::vector<std::string>& labels) {
  std::vector<Scored> out;
  for (const auto& label : labels) {
    std::size_t from = 0;
    while (true) {
      std::size_t at = lower_text.find(label, from);
      if (at == std::string_view::npos) break;
      from = at + 1;
      if (at > 0 && is_alnum(lower_text[at - 1])) continue;
      std::size_t i = at + label.size();
      if (i < lower_text.size() && is_alnum(lower_text[i])) continue;
      auto skip = [&](std::string_view chars) {
        while (i < lower_text.size() && chars.find(lower_text[i]) != std::string_view::npos) ++i;
      };
      skip(" \t*_");
      bool sep = false;
      if (i < lower_text.size() && (lower_text[i] == ':' || lower_text[i] == '=')) {
        sep = true;
        ++i;
      } else if (lower_text.compare(i, 3, "is ") == 0) {
        sep = true;
        i += 3;
      }
      if (!sep) continue;
      skip(" \t*_[(\"'`");
      auto n = number_at(lower_text, i);
      if (!n) continue;
      // "Score: 2023-01-05" or "Rating: 2.3.1" are not scores.
      if (n->end < lower_text.size() && (lower_text[n->end] == '-' || lower_text[n->end] == '.') &&
          n->end + 1 < lower_text.size() && is_digit(lower_text[n->end + 1])) {
        continue;
      }
      out.push_back(complete(lower_text, *n));
    }
  }
  std::sort(out.begin(), out.end(), [](const Scored& a, const Scored& b) { return a.num.start < b.num.start; });
  return out;
}

// Starts of numbers that are not part of a word (e.g. not the "3" of "gpt3" or "v1.2").
std::vector<Number> free_numbers(std::string_view text) {
  std::vector<Number> out;
  std::size_t i = 0;
  while (i < text.size()) {
    if (is_digit(text[i]) && (i == 0 || (!is_alnum(text[i - 1]) && text[i - 1] != '.'))) {
      auto n = number_at(text, i);
      if (n) {
        out.push_back(*n);
        i = n->end;
        continue;
      }
    }
    ++i;
  }
  return out;
}

}  // namespace

const char* score_method_name(ScoreMethod m) {
  switch (m) {
    case ScoreMethod::kJson: return "json";
    case ScoreMethod::kLabelled: return "labelled";
    case ScoreMethod::kPercentSign: return "percent";
    case ScoreMethod::kFraction: return "fraction";
    case ScoreMethod::kBare: return "bare";
  }
  return "bare";
}

Result<ParsedScore> parse_score(std::string_view reply, const ScoreOptions& options) {
  RAGWASM_TRY(check_options(options, reply.size()));
  const double min = options.kind == ScaleKind::kPercent ? 0.0 : options.min;
  const double max = options.kind == ScaleKind::kPercent ? 100.0 : options.max;
  const std::vector<std::string> labels = lowered_labels(options.labels);
  const std::string lower_text = ascii_lower(reply);

  auto finish = [&](const Candidate& c, bool ambiguous) -> Result<ParsedScore> {
    auto v = to_scale(c.scored, options, min, max);
    if (!v.ok()) return v.error();
    ParsedScore p;
    p.value = v.value();
    p.method = c.method;
    p.offset = c.scored.num.start;
    p.ambiguous = ambiguous;
    return p;
  };

  if (auto j = last_json(reply, labels)) return finish(*j, false);

  const auto lab = labelled(lower_text, labels);
  if (!lab.empty()) {
    bool ambiguous = false;
    for (const auto& s : lab) {
      if (s.num.value != lab.back().num.value) ambiguous = true;
    }
    return finish(Candidate{lab.back(), ScoreMethod::kLabelled}, ambiguous);
  }

  const auto nums = free_numbers(lower_text);
  if (options.kind == ScaleKind::kPercent) {
    for (auto it = nums.rbegin(); it != nums.rend(); ++it) {
      Scored sc = complete(lower_text, *it);
      if (sc.percent && sc.malformed.empty()) return finish(Candidate{sc, ScoreMethod::kPercentSign}, false);
    }
  }
  for (auto it = nums.rbegin(); it != nums.rend(); ++it) {
    Scored sc = complete(lower_text, *it);
    if (sc.malformed.empty() && sc.denominator && (options.kind == ScaleKind::kPercent || *sc.denominator == max)) {
      return finish(Candidate{sc, ScoreMethod::kFraction}, false);
    }
  }
  // The whole reply is one number, possibly wrapped in markup or followed by a period.
  std::string_view core = trim(lower_text);
  auto strip = [](char c) { return c == '*' || c == '_' || c == '`' || c == '"' || c == '\'' || c == '[' ||
                                   c == ']' || c == '(' || c == ')' || c == '.' || is_space(c); };
  while (!core.empty() && strip(core.front()) && !(core.front() == '.' && core.size() > 1 && is_digit(core[1]))) {
    core.remove_prefix(1);
  }
  while (!core.empty() && strip(core.back())) core.remove_suffix(1);
  if (!core.empty()) {
    auto n = number_at(core, 0);
    if (n) {
      Scored sc = complete(core, *n);
      if (sc.end == core.size()) {
        sc.num.start = static_cast<std::size_t>(core.data() - lower_text.data());
        return finish(Candidate{sc, sc.percent ? ScoreMethod::kPercentSign : ScoreMethod::kBare}, false);
      }
    }
  }
  if (trim(reply).empty()) return parse_error("reply: empty reply, no score");
  return parse_error("reply: no score found (expected e.g. \"Score: 2\", a JSON {\"score\": 2}" +
                     std::string(options.kind == ScaleKind::kPercent ? ", or \"85%\")" : ")"));
}

namespace {

// Claim number at the start of a line: "[2]", "2.", "2)", "Claim 2:", "- claim 2 -", "**Claim 2**".
std::optional<int> claim_header(std::string_view lower_line, std::size_t* after) {
  std::size_t i = 0;
  while (i < lower_line.size() && (is_space(lower_line[i]) || lower_line[i] == '-' || lower_line[i] == '*' ||
                                   lower_line[i] == '#' || lower_line[i] == '>')) {
    ++i;
  }
  bool worded = false;
  if (lower_line.compare(i, 5, "claim") == 0) {
    worded = true;
    i += 5;
    while (i < lower_line.size() && (lower_line[i] == ' ' || lower_line[i] == '#')) ++i;
  }
  bool bracket = false;
  if (i < lower_line.size() && (lower_line[i] == '[' || lower_line[i] == '(')) {
    bracket = true;
    ++i;
  }
  std::size_t start = i;
  int v = 0;
  while (i < lower_line.size() && is_digit(lower_line[i]) && i - start < 5) {
    v = v * 10 + (lower_line[i] - '0');
    ++i;
  }
  if (i == start) return std::nullopt;
  if (i < lower_line.size() && is_digit(lower_line[i])) return std::nullopt;
  if (bracket) {
    if (i >= lower_line.size() || (lower_line[i] != ']' && lower_line[i] != ')')) return std::nullopt;
    ++i;
  } else if (!worded) {
    if (i >= lower_line.size() || (lower_line[i] != '.' && lower_line[i] != ')' && lower_line[i] != ':')) {
      return std::nullopt;
    }
    ++i;
    // "2.5 ..." is a number, not a header.
    if (lower_line[i - 1] == '.' && i < lower_line.size() && is_digit(lower_line[i])) return std::nullopt;
  }
  *after = i;
  return v;
}

std::string evidence_in(std::string_view block, std::string_view lower_block) {
  std::size_t at = lower_block.find("evidence");
  if (at == std::string_view::npos) return {};
  std::size_t i = at + 8;
  while (i < block.size() && (block[i] == ' ' || block[i] == '*' || block[i] == '_')) ++i;
  if (i >= block.size() || block[i] != ':') return {};
  ++i;
  std::size_t end = block.find('\n', i);
  std::string_view ev = trim(block.substr(i, end == std::string_view::npos ? std::string_view::npos : end - i));
  while (!ev.empty() && (ev.front() == '"' || ev.front() == '*')) ev.remove_prefix(1);
  while (!ev.empty() && (ev.back() == '"' || ev.back() == '*')) ev.remove_suffix(1);
  return std::string(trim(ev));
}

bool json_claims(std::string_view reply, int n_claims, const ScoreOptions& options,
                 std::vector<ClaimScore>* out) {
  std::size_t candidates = 0;
  for (std::size_t i = 0; i < reply.size() && candidates < kMaxJsonCandidates; ++i) {
    if (reply[i] != '{' && reply[i] != '[') continue;
    ++candidates;
    const std::size_t close = matching_bracket(reply, i);
    if (close == std::string_view::npos) continue;
    const std::string_view candidate = reply.substr(i, close - i + 1);
    if (json_depth_overflow_at(candidate) != std::string_view::npos) continue;  // too deep to be a claims list
    json j = json::parse(candidate, nullptr, false);
    const json* arr = nullptr;
    if (j.is_array()) arr = &j;
    else if (j.is_object() && j.contains("claims") && j["claims"].is_array()) arr = &j["claims"];
    if (!arr || arr->empty()) continue;
    bool any = false;
    int position = 0;
    for (const auto& item : *arr) {
      ++position;
      if (!item.is_object()) continue;
      int claim = position;
      for (const char* key : {"claim", "id", "index", "claim_id"}) {
        if (item.contains(key) && item[key].is_number_integer()) claim = item[key].get<int>();
      }
      if (claim < 1 || claim > n_claims) continue;
      ClaimScore& cs = (*out)[static_cast<std::size_t>(claim - 1)];
      const json* v = find_label_key(item, lowered_labels(options.labels));
      if (!v) {
        cs.error = "claim " + std::to_string(claim) + ": no score field";
        continue;
      }
      any = true;
      auto sc = json_score(*v, i);
      if (!sc) {
        cs.error = "claim " + std::to_string(claim) + ": score is not a number";
        continue;
      }
      const double min = options.kind == ScaleKind::kPercent ? 0.0 : options.min;
      const double max = options.kind == ScaleKind::kPercent ? 100.0 : options.max;
      auto r = to_scale(*sc, options, min, max);
      if (!r.ok()) {
        cs.error = r.error().message;
        continue;
      }
      cs.score = r.value();
      cs.error.clear();
      if (item.contains("evidence") && item["evidence"].is_string()) cs.evidence = item["evidence"].get<std::string>();
    }
    if (any) return true;
  }
  return false;
}

}  // namespace

Result<std::vector<ClaimScore>> parse_claim_scores(std::string_view reply, int n_claims,
                                                   const ScoreOptions& options) {
  RAGWASM_TRY(check_options(options, reply.size()));
  if (n_claims < 1 || n_claims > kMaxClaims) {
    return make_error(ErrorCode::kInvalidArgument,
                      "n_claims: expected 1.." + std::to_string(kMaxClaims) + ", got " + std::to_string(n_claims));
  }
  std::vector<ClaimScore> out(static_cast<std::size_t>(n_claims));
  for (int i = 0; i < n_claims; ++i) {
    out[static_cast<std::size_t>(i)].claim = i + 1;
    out[static_cast<std::size_t>(i)].error = "claim " + std::to_string(i + 1) + ": not in the reply";
  }
  if (json_claims(reply, n_claims, options, &out)) return out;

  // Line blocks: a header line "[k] ..." starts claim k's block, which runs to the next header.
  const std::string lower_text = ascii_lower(reply);
  struct Block { int claim; std::size_t start; std::size_t end; };
  std::vector<Block> blocks;
  std::size_t pos = 0;
  while (pos <= reply.size()) {
    std::size_t nl = reply.find('\n', pos);
    std::size_t line_end = nl == std::string_view::npos ? reply.size() : nl;
    std::size_t after = 0;
    auto k = claim_header(std::string_view(lower_text).substr(pos, line_end - pos), &after);
    if (k && *k >= 1 && *k <= n_claims) {
      if (!blocks.empty()) blocks.back().end = pos;
      blocks.push_back(Block{*k, pos + after, reply.size()});
    }
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  for (const auto& b : blocks) {
    std::string_view block = reply.substr(b.start, b.end - b.start);
    std::string_view lower_block = std::string_view(lower_text).substr(b.start, b.end - b.start);
    ClaimScore& cs = out[static_cast<std::size_t>(b.claim - 1)];
    // Only labelled or fractional scores count inside a block: the claim text has its own numbers.
    auto lab = labelled(lower_block, lowered_labels(options.labels));
    std::optional<Scored> found;
    if (!lab.empty()) found = lab.back();
    if (!found) {
      auto nums = free_numbers(lower_block);
      for (auto it = nums.rbegin(); it != nums.rend(); ++it) {
        Scored sc = complete(lower_block, *it);
        if (sc.denominator && sc.malformed.empty()) {
          found = sc;
          break;
        }
      }
    }
    if (!found) {
      cs.score.reset();
      cs.error = "claim " + std::to_string(b.claim) + ": no score in its block";
      continue;
    }
    const double min = options.kind == ScaleKind::kPercent ? 0.0 : options.min;
    const double max = options.kind == ScaleKind::kPercent ? 100.0 : options.max;
    auto r = to_scale(*found, options, min, max);
    if (!r.ok()) {
      cs.score.reset();
      cs.error = "claim " + std::to_string(b.claim) + ": " + r.error().message.substr(9);
      continue;
    }
    cs.score = r.value();
    cs.error.clear();
    cs.evidence = evidence_in(block, lower_block);
  }
  return out;
}

Result<std::vector<std::pair<std::string, std::string>>> parse_key_values(std::string_view reply) {
  if (reply.size() > kMaxReplyBytes) {
    return make_error(ErrorCode::kLimitExceeded, "reply: " + std::to_string(reply.size()) +
                                                     " bytes, the limit is " + std::to_string(kMaxReplyBytes));
  }
  std::vector<std::pair<std::string, std::string>> out;
  std::size_t pos = 0;
  while (pos < reply.size()) {
    std::size_t nl = reply.find('\n', pos);
    std::size_t end = nl == std::string_view::npos ? reply.size() : nl;
    std::string_view line = trim(reply.substr(pos, end - pos));
    pos = end + 1;
    while (!line.empty() && (line.front() == '-' || line.front() == '*' || line.front() == '#' ||
                             line.front() == ' ')) {
      line.remove_prefix(1);
    }
    std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string key = ascii_lower(trim(line.substr(0, colon)));
    key.erase(std::remove(key.begin(), key.end(), '*'), key.end());
    key = std::string(trim(key));
    std::string_view value = trim(line.substr(colon + 1));
    while (!value.empty() && value.front() == '*') value.remove_prefix(1);
    value = trim(value);
    if (key.empty() || value.empty() || key.size() > 64) continue;
    bool seen = false;
    for (const auto& kv : out) seen = seen || kv.first == key;
    if (!seen) out.emplace_back(std::move(key), std::string(value));
  }
  return out;
}

bool is_abstention(std::string_view answer) {
  std::string t = ascii_lower(answer);
  // Curly apostrophe (U+2019) -> "'" so "don’t" matches "don't".
  for (std::size_t at; (at = t.find("\xE2\x80\x99")) != std::string::npos;) t.replace(at, 3, "'");
  static const char* const kPhrases[] = {
      "not in the documents", "not in the provided documents", "not in the context",
      "not in the provided context", "documents do not answer", "documents don't answer",
      "documents do not contain", "documents don't contain", "documents do not mention",
      "documents do not provide", "context does not contain", "context doesn't contain",
      "context does not provide", "context does not mention", "not mentioned in the documents",
      "not mentioned in the context", "not found in the documents", "not found in the context",
      "cannot be determined from", "can't be determined from", "cannot be answered from",
      "can't be answered from", "no information about", "no information on",
      "not enough information", "insufficient information", "i don't know", "i do not know",
      "unable to answer", "cannot answer", "can't answer", "not answerable", "unanswerable"};
  for (const char* p : kPhrases) {
    if (t.find(p) != std::string::npos) return true;
  }
  return false;
}

Aggregate aggregate(const std::vector<std::optional<double>>& scores, AggregateMethod method) {
  Aggregate a;
  a.samples = scores.size();
  std::vector<double> vals;
  for (const auto& s : scores) {
    if (s && std::isfinite(*s)) vals.push_back(*s);
  }
  a.parsed = vals.size();
  a.unparsed = a.samples - a.parsed;
  if (vals.empty()) return a;
  double sum = 0;
  for (double v : vals) sum += v;
  const double mean = sum / static_cast<double>(vals.size());
  double sq = 0;
  for (double v : vals) sq += (v - mean) * (v - mean);
  a.stddev = std::sqrt(sq / static_cast<double>(vals.size()));
  const auto [mn, mx] = std::minmax_element(vals.begin(), vals.end());
  a.spread = *mx - *mn;
  std::map<double, std::size_t> counts;  // ordered: ties resolve to the smaller value
  for (double v : vals) ++counts[v];
  double majority = counts.begin()->first;
  std::size_t best = 0;
  for (const auto& [v, c] : counts) {
    if (c > best) {
      best = c;
      majority = v;
    }
  }
  a.agreement = static_cast<double>(best) / static_cast<double>(vals.size());
  a.value = method == AggregateMethod::kMean ? mean : majority;
  return a;
}

}  // namespace ragwasm::judge
