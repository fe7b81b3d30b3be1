// trec_eval-exact measures and the qrels/run parsers (see trec.h for the rules and sources).
#include "metrics/trec.h"

#include "common/check.h"
#include "common/json_depth.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <nlohmann/json.hpp>

namespace ragwasm::metrics {
namespace {

constexpr int kDefaultCutoffs[] = {5, 10, 15, 20, 30, 100, 200, 500, 1000};
constexpr int kSuccessCutoffs[] = {1, 5, 10};
constexpr std::size_t kFamilies = 15;

struct FamilyInfo {
  const char* name;
  bool has_cutoffs;
  bool is_count;
};
constexpr FamilyInfo kFamilyInfo[kFamilies] = {
    {"num_ret", false, true}, {"num_rel", false, true}, {"num_rel_ret", false, true},
    {"map", false, false},    {"Rprec", false, false},  {"bpref", false, false},
    {"recip_rank", false, false}, {"P", true, false}, {"recall", true, false},
    {"ndcg", false, false},   {"ndcg_cut", true, false}, {"map_cut", true, false},
    {"success", true, false}, {"ndcg_exp", false, false}, {"ndcg_exp_cut", true, false},
};

std::string line_prefix(std::string_view name, std::size_t line) {
  return std::string(name) + ":" + std::to_string(line) + ": ";
}

Error parse_error(std::string_view name, std::size_t line, const std::string& what) {
  return make_error(ErrorCode::kParseError, line_prefix(name, line) + what);
}

// An empty qrels file would evaluate every run to a table of zeros: refuse it instead.
Status require_judgments(const Qrels& q, std::string_view name) {
  if (q.size() > 0) return Status::success();
  return make_error(ErrorCode::kParseError, std::string(name) + ": no judgments (an empty qrels file evaluates every run to 0)");
}

std::string shorten(std::string_view s) {
  if (s.size() > 60) return std::string(s.substr(0, 57)) + "...";
  return std::string(s);
}

// Splits on runs of ASCII white space (space, tab, CR, VT, FF), as trec_eval's scanner does.
std::size_t split_ws(std::string_view line, std::string_view* out, std::size_t max_fields) {
  std::size_t n = 0, i = 0;
  auto ws = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; };
  while (i < line.size()) {
    while (i < line.size() && ws(line[i])) ++i;
    if (i >= line.size()) break;
    std::size_t j = i;
    while (j < line.size() && !ws(line[j])) ++j;
    if (n < max_fields) out[n] = line.substr(i, j - i);
    ++n;
    i = j;
  }
  return n;
}

bool parse_int(std::string_view s, int* out) {
  if (s.empty() || s.size() > 11) return false;
  std::size_t i = 0;
  bool neg = false;
  if (s[0] == '-' || s[0] == '+') {
    neg = s[0] == '-';
    i = 1;
  }
  if (i >= s.size()) return false;
  long long v = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  if (neg) v = -v;
  if (v < -2147483647LL || v > 2147483647LL) return false;
  *out = static_cast<int>(v);
  return true;
}

// Full-token strtod (trec_eval uses atof; we reject trailing garbage instead of reading a prefix).
bool parse_double(std::string_view s, double* out) {
  if (s.empty() || s.size() > 63) return false;
  char buf[64];
  std::memcpy(buf, s.data(), s.size());
  buf[s.size()] = '\0';
  char* end = nullptr;
  const double v = std::strtod(buf, &end);
  if (end != buf + s.size()) return false;
  *out = v;
  return true;
}

template <class F>
Status for_each_line(std::string_view text, F&& f) {
  std::size_t line_no = 0, pos = 0;
  while (pos <= text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(pos, nl - pos);
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    bool blank = true;
    for (char c : line) {
      if (c != ' ' && c != '\t' && c != '\r') {
        blank = false;
        break;
      }
    }
    if (!blank) RAGWASM_TRY(f(line, line_no));
    if (nl == text.size()) break;
    pos = nl + 1;
  }
  return Status::success();
}

bool valid_id(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') return false;
  }
  return true;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Qrels and Run containers

long Qrels::find(std::string_view qid) const {
  auto it = index_.find(std::string(qid));
  return it == index_.end() ? -1 : static_cast<long>(it->second);
}

Status Qrels::add(std::string_view qid, std::string_view docno, int rel) {
  if (!valid_id(qid)) return make_error(ErrorCode::kInvalidArgument, "qrels qid: expected a non-empty id without white space, got '" + shorten(qid) + "'");
  if (!valid_id(docno)) return make_error(ErrorCode::kInvalidArgument, "qrels docno: expected a non-empty id without white space, got '" + shorten(docno) + "'");
  std::string q(qid);
  auto it = index_.find(q);
  std::size_t qi;
  if (it == index_.end()) {
    qi = qids_.size();
    index_.emplace(q, qi);
    qids_.push_back(q);
    docs_.emplace_back();
    doc_index_.emplace_back();
  } else {
    qi = it->second;
  }
  std::string d(docno);
  if (!doc_index_[qi].emplace(d, docs_[qi].size()).second) {
    return make_error(ErrorCode::kDuplicateId, "qrels: query '" + shorten(qid) + "' judges document '" + shorten(docno) +
                                                   "' twice (trec_eval stops with 'duplicate docs'); keep one line");
  }
  docs_[qi].push_back(Judgment{std::move(d), rel});
  ++total_;
  return Status::success();
}

long Run::find(std::string_view qid) const {
  auto it = index_.find(std::string(qid));
  return it == index_.end() ? -1 : static_cast<long>(it->second);
}

long Run::doc_id(std::string_view docno) const {
  auto it = doc_index_.find(std::string(docno));
  return it == doc_index_.end() ? -1 : static_cast<long>(it->second);
}

std::size_t Run::intern_query(std::string_view qid) {
  if (last_query_ != 0 && qids_[last_query_ - 1] == qid) return last_query_ - 1;
  key_.assign(qid.data(), qid.size());
  auto it = index_.find(key_);
  if (it != index_.end()) return it->second;
  const std::size_t qi = qids_.size();
  index_.emplace(key_, qi);
  qids_.push_back(key_);
  lists_.emplace_back();
  interleaved_.push_back(false);
  return qi;
}

std::uint32_t Run::intern_doc(std::string_view docno) {
  key_.assign(docno.data(), docno.size());
  auto it = doc_index_.find(key_);
  if (it != doc_index_.end()) return it->second;
  const auto di = static_cast<std::uint32_t>(docnos_.size());
  doc_index_.emplace(key_, di);
  docnos_.push_back(key_);
  seen_.push_back(0);
  return di;
}

Status Run::add(std::string_view qid, std::string_view docno, double score) {
  if (!valid_id(qid)) return make_error(ErrorCode::kInvalidArgument, "run qid: expected a non-empty id without white space, got '" + shorten(qid) + "'");
  if (!valid_id(docno)) return make_error(ErrorCode::kInvalidArgument, "run docno: expected a non-empty id without white space, got '" + shorten(docno) + "'");
  if (!std::isfinite(score)) {
    return make_error(ErrorCode::kInvalidArgument, "run score of query '" + shorten(qid) + "' document '" + shorten(docno) +
                                                       "': expected a finite number, got " + (std::isnan(score) ? "NaN" : "infinity"));
  }
  const std::size_t qi = intern_query(qid);
  const std::uint32_t di = intern_doc(docno);
  // seen_[doc] = 1 + last query that added it. Lines of one query are usually contiguous; when they
  // are not, fall back to scanning the query's list.
  if (seen_[di] == qi + 1) {
    return make_error(ErrorCode::kDuplicateId, "run: query '" + shorten(qid) + "' lists document '" + shorten(docno) +
                                                   "' twice (trec_eval stops with 'duplicate docs'); keep one line");
  }
  if (last_query_ != qi + 1 && !lists_[qi].empty()) interleaved_[qi] = true;
  last_query_ = qi + 1;
  if (seen_[di] != 0 && interleaved_[qi]) {  // only when this query's lines were not contiguous
    for (const Entry& e : lists_[qi]) {
      if (e.doc == di) {
        return make_error(ErrorCode::kDuplicateId, "run: query '" + shorten(qid) + "' lists document '" + shorten(docno) +
                                                       "' twice (trec_eval stops with 'duplicate docs'); keep one line");
      }
    }
  }
  seen_[di] = static_cast<std::uint32_t>(qi + 1);
  lists_[qi].push_back(Entry{di, score});
  ++total_;
  return Status::success();
}

void Run::sort_query(std::size_t q) {
  // form_res_rels.c comp_sim_docno: sim descending, then strcmp(p2->docno, p1->docno), i.e. the
  // lexically LARGER docno first among equal scores.
  auto before = [this](const Entry& a, const Entry& b) {
    if (a.score != b.score) return a.score > b.score;
    return std::strcmp(docnos_[a.doc].c_str(), docnos_[b.doc].c_str()) > 0;
  };
  auto& list = lists_[q];
  if (!std::is_sorted(list.begin(), list.end(), before)) std::sort(list.begin(), list.end(), before);
}

void Run::finalize() {
  for (std::size_t q = 0; q < lists_.size(); ++q) sort_query(q);
}

Status Run::add_query(std::string_view qid, const std::vector<std::string_view>& docnos, const std::vector<double>& scores) {
  if (docnos.size() != scores.size()) {
    return make_error(ErrorCode::kInvalidArgument, "run query '" + shorten(qid) + "': expected one score per document id, got " +
                                                       std::to_string(docnos.size()) + " ids and " + std::to_string(scores.size()) +
                                                       " scores (a document id containing a line break?)");
  }
  if (!valid_id(qid)) return make_error(ErrorCode::kInvalidArgument, "run qid: expected a non-empty id without white space, got '" + shorten(qid) + "'");
  if (index_.count(std::string(qid))) {
    return make_error(ErrorCode::kDuplicateId, "run: query '" + shorten(qid) + "' was already added; give all of its documents in one call");
  }
  for (std::size_t i = 0; i < docnos.size(); ++i) {
    if (!valid_id(docnos[i])) {
      return make_error(ErrorCode::kInvalidArgument, "run docno " + std::to_string(i) + " of query '" + shorten(qid) +
                                                         "': expected a non-empty id without white space, got '" + shorten(docnos[i]) + "'");
    }
    if (!std::isfinite(scores[i])) {
      return make_error(ErrorCode::kInvalidArgument, "run score " + std::to_string(i) + " of query '" + shorten(qid) + "' document '" +
                                                         shorten(docnos[i]) + "': expected a finite number, got " + (std::isnan(scores[i]) ? "NaN" : "infinity"));
    }
  }
  // Interning new docnos is harmless if we fail below (ids nobody references).
  std::vector<std::uint32_t> dis(docnos.size());
  for (std::size_t i = 0; i < docnos.size(); ++i) dis[i] = intern_doc(docnos[i]);
  // Duplicates within the batch: stamp seen_ with the new query's number, restoring on failure.
  const auto stamp = static_cast<std::uint32_t>(qids_.size() + 1);
  std::vector<std::uint32_t> old(dis.size());
  for (std::size_t i = 0; i < dis.size(); ++i) {
    if (seen_[dis[i]] == stamp) {
      for (std::size_t j = 0; j < i; ++j) seen_[dis[j]] = old[j];
      return make_error(ErrorCode::kDuplicateId, "run: query '" + shorten(qid) + "' lists document '" + shorten(docnos[i]) +
                                                     "' twice (trec_eval stops with 'duplicate docs'); keep one");
    }
    old[i] = seen_[dis[i]];
    seen_[dis[i]] = stamp;
  }
  const std::size_t qi = intern_query(qid);
  RAGWASM_DCHECK(qi + 1 == stamp);
  auto& list = lists_[qi];
  list.reserve(dis.size());
  for (std::size_t i = 0; i < dis.size(); ++i) list.push_back(Entry{dis[i], scores[i]});
  total_ += dis.size();
  last_query_ = qi + 1;
  sort_query(qi);
  return Status::success();
}

// ---------------------------------------------------------------------------------------------
// Parsers

Result<Qrels> parse_trec_qrels(std::string_view text, std::string_view name) {
  Qrels q;
  Status st = for_each_line(text, [&](std::string_view line, std::size_t n) -> Status {
    std::string_view f[4];
    const std::size_t count = split_ws(line, f, 4);
    if (count != 4) {
      return parse_error(name, n, "expected 4 fields 'qid iter docno rel' (TREC qrels), got " + std::to_string(count) + ": '" + shorten(line) + "'");
    }
    int rel;
    if (!parse_int(f[3], &rel)) return parse_error(name, n, "relevance: expected an integer, got '" + shorten(f[3]) + "'");
    Status s = q.add(f[0], f[2], rel);
    if (!s.ok()) return Error{s.error().code, "ragwasm: " + line_prefix(name, n) + s.error().message.substr(9)};
    return Status::success();
  });
  if (!st.ok()) return st.error();
  RAGWASM_TRY(require_judgments(q, name));
  return q;
}

Result<Qrels> parse_beir_qrels(std::string_view text, std::string_view name) {
  Qrels q;
  bool first = true;
  Status st = for_each_line(text, [&](std::string_view line, std::size_t n) -> Status {
    std::vector<std::string_view> f;
    std::size_t pos = 0;
    while (true) {
      std::size_t t = line.find('\t', pos);
      f.push_back(line.substr(pos, t == std::string_view::npos ? std::string_view::npos : t - pos));
      if (t == std::string_view::npos) break;
      pos = t + 1;
    }
    const bool was_first = first;
    first = false;
    if (f.size() != 3) {
      return parse_error(name, n, "expected 3 tab-separated fields 'query-id corpus-id score' (BEIR qrels), got " + std::to_string(f.size()) + ": '" + shorten(line) + "'");
    }
    int rel;
    if (!parse_int(f[2], &rel)) {
      // Only the first row may be the header "query-id corpus-id score"; any other non-integer
      // score (a header-like first row included) is an error, never a silently dropped judgment.
      if (was_first && f[2] == "score") return Status::success();
      return parse_error(name, n, "score: expected an integer, got '" + shorten(f[2]) + "'");
    }
    Status s = q.add(f[0], f[1], rel);
    if (!s.ok()) return Error{s.error().code, "ragwasm: " + line_prefix(name, n) + s.error().message.substr(9)};
    return Status::success();
  });
  if (!st.ok()) return st.error();
  RAGWASM_TRY(require_judgments(q, name));
  return q;
}

namespace {
std::string_view first_line(std::string_view text) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(pos, nl - pos);
    if (line.find_first_not_of(" \t\r") != std::string_view::npos) return line;
    pos = nl + 1;
  }
  return {};
}
}  // namespace

Result<Qrels> parse_qrels(std::string_view text, std::string_view name) {
  std::string_view line = first_line(text);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (std::count(line.begin(), line.end(), '\t') == 2 && line.find(' ') == std::string_view::npos) return parse_beir_qrels(text, name);
  return parse_trec_qrels(text, name);
}

Result<Run> parse_trec_run(std::string_view text, std::string_view name) {
  Run run;
  bool first = true;
  Status st = for_each_line(text, [&](std::string_view line, std::size_t n) -> Status {
    std::string_view f[6];
    const std::size_t count = split_ws(line, f, 6);
    if (count != 6) {
      return parse_error(name, n, "expected 6 fields 'qid Q0 docno rank score runid' (TREC run), got " + std::to_string(count) + ": '" + shorten(line) + "'");
    }
    double score;
    if (!parse_double(f[4], &score)) return parse_error(name, n, "score: expected a number, got '" + shorten(f[4]) + "'");
    if (first) {
      run.set_run_id(std::string(f[5]));
      first = false;
    }
    Status s = run.add(f[0], f[2], score);
    if (!s.ok()) return Error{s.error().code, "ragwasm: " + line_prefix(name, n) + s.error().message.substr(9)};
    return Status::success();
  });
  if (!st.ok()) return st.error();
  run.finalize();
  return run;
}

namespace {
const nlohmann::json* field(const nlohmann::json& o, std::initializer_list<const char*> keys) {
  for (const char* k : keys) {
    auto it = o.find(k);
    if (it != o.end()) return &*it;
  }
  return nullptr;
}
bool id_of(const nlohmann::json* v, std::string* out) {
  if (!v) return false;
  if (v->is_string()) {
    *out = v->get<std::string>();
    return true;
  }
  if (v->is_number_integer()) {
    *out = std::to_string(v->get<long long>());
    return true;
  }
  return false;
}
}  // namespace

Result<Run> parse_jsonl_run(std::string_view text, std::string_view name) {
  Run run;
  Status st = for_each_line(text, [&](std::string_view line, std::size_t n) -> Status {
    if (json_depth_overflow_at(line) != std::string_view::npos) {
      return make_error(ErrorCode::kLimitExceeded, std::string(name) + ":" + std::to_string(n) + ": JSON nested deeper than " +
                                                       std::to_string(kMaxJsonDepth) + " levels; the limit is " + std::to_string(kMaxJsonDepth));
    }
    nlohmann::json o = nlohmann::json::parse(line.begin(), line.end(), nullptr, false);
    if (o.is_discarded() || !o.is_object()) return parse_error(name, n, "expected one JSON object per line, got '" + shorten(line) + "'");
    std::string qid;
    if (!id_of(field(o, {"qid", "query_id", "query-id"}), &qid)) return parse_error(name, n, "expected a string field \"qid\"");
    auto add_hit = [&](const nlohmann::json& h) -> Status {
      std::string doc;
      if (!h.is_object() || !id_of(field(h, {"docid", "doc_id", "corpus-id", "id"}), &doc)) return parse_error(name, n, "expected a string field \"docid\"");
      const nlohmann::json* s = field(h, {"score"});
      if (!s || !s->is_number()) return parse_error(name, n, "document '" + shorten(doc) + "': expected a numeric field \"score\"");
      Status r = run.add(qid, doc, s->get<double>());
      if (!r.ok()) return Error{r.error().code, "ragwasm: " + line_prefix(name, n) + r.error().message.substr(9)};
      return Status::success();
    };
    if (const nlohmann::json* hits = field(o, {"hits", "results"})) {
      if (!hits->is_array()) return parse_error(name, n, "\"hits\": expected an array");
      for (const auto& h : *hits) RAGWASM_TRY(add_hit(h));
      return Status::success();
    }
    return add_hit(o);
  });
  if (!st.ok()) return st.error();
  run.finalize();
  return run;
}

Result<Run> parse_run(std::string_view text, std::string_view name) {
  std::string_view line = first_line(text);
  std::size_t i = line.find_first_not_of(" \t");
  if (i != std::string_view::npos && line[i] == '{') return parse_jsonl_run(text, name);
  return parse_trec_run(text, name);
}

// ---------------------------------------------------------------------------------------------
// Measures

Result<MeasureSet> parse_measures(const std::vector<std::string>& requests) {
  MeasureSet ms;
  auto enable_all = [&] {
    for (std::size_t f = 0; f < kFamilies; ++f) {
      ms.enabled[f] = true;
      if (!kFamilyInfo[f].has_cutoffs) continue;
      auto& c = ms.cutoffs[f];
      if (f == static_cast<std::size_t>(Family::kSuccess)) c.insert(c.end(), std::begin(kSuccessCutoffs), std::end(kSuccessCutoffs));
      else c.insert(c.end(), std::begin(kDefaultCutoffs), std::end(kDefaultCutoffs));
    }
  };
  if (requests.empty()) enable_all();
  for (const std::string& r : requests) {
    if (r == "all_trec" || r == "all") {
      enable_all();
      continue;
    }
    std::string fam = r, params;
    bool explicit_params = false;
    std::size_t dot = r.find('.');
    if (dot != std::string::npos) {
      fam = r.substr(0, dot);
      params = r.substr(dot + 1);
      explicit_params = true;
    }
    std::size_t f = kFamilies;
    for (std::size_t i = 0; i < kFamilies; ++i) {
      if (fam == kFamilyInfo[i].name) f = i;
    }
    if (f == kFamilies && !explicit_params) {
      // printed form "P_10", "ndcg_cut_5": family + '_' + integer
      std::size_t us = r.rfind('_');
      if (us != std::string::npos) {
        const std::string head = r.substr(0, us);
        for (std::size_t i = 0; i < kFamilies; ++i) {
          if (kFamilyInfo[i].has_cutoffs && head == kFamilyInfo[i].name) {
            f = i;
            params = r.substr(us + 1);
            explicit_params = true;
          }
        }
      }
    }
    if (f == kFamilies) {
      std::string known;
      for (std::size_t i = 0; i < kFamilies; ++i) known += std::string(i ? ", " : "") + kFamilyInfo[i].name;
      return make_error(ErrorCode::kInvalidArgument, "measures: unknown measure '" + shorten(r) + "' (known: all_trec, " + known + "; cutoffs as P.5,10 or P_10)");
    }
    ms.enabled[f] = true;
    if (!kFamilyInfo[f].has_cutoffs) {
      if (explicit_params) return make_error(ErrorCode::kInvalidArgument, "measures: '" + shorten(r) + "' takes no cutoffs");
      continue;
    }
    auto& c = ms.cutoffs[f];
    if (!explicit_params) {
      if (f == static_cast<std::size_t>(Family::kSuccess)) c.insert(c.end(), std::begin(kSuccessCutoffs), std::end(kSuccessCutoffs));
      else c.insert(c.end(), std::begin(kDefaultCutoffs), std::end(kDefaultCutoffs));
      continue;
    }
    std::size_t pos = 0;
    while (pos <= params.size()) {
      std::size_t comma = params.find(',', pos);
      if (comma == std::string::npos) comma = params.size();
      int k;
      if (!parse_int(std::string_view(params).substr(pos, comma - pos), &k) || k <= 0) {
        return make_error(ErrorCode::kInvalidArgument, "measures: '" + shorten(r) + "': cutoff k: expected an integer >= 1, got '" +
                                                           shorten(params.substr(pos, comma - pos)) + "'");
      }
      c.push_back(k);
      pos = comma + 1;
    }
  }
  for (auto& c : ms.cutoffs) {
    std::sort(c.begin(), c.end());
    c.erase(std::unique(c.begin(), c.end()), c.end());
  }
  return ms;
}

namespace {

// Everything one query needs: the ranked relevance list and the judged values.
struct QueryData {
  std::vector<int> rels;         // rank order; -1 not in qrels (NONPOOL), -2 judged < 0 (UNJUDGED)
  std::vector<int> ideal;        // positive judged values, descending (nDCG ideal ordering)
  long num_rel = 0;              // judged >= level
  long num_nonrel = 0;           // judged in [0, level)
};

// log2(i + 2) for 0-based rank i, grown on demand: the nDCG discount (trec_eval divides by it).
struct Scratch {
  std::vector<double> log2_rank;
  std::vector<long> cnt;       // cnt[i] = relevant documents in the top i
  std::vector<double> ap;      // ap[i]  = sum of precision at relevant ranks <= i
  std::vector<double> dcg;     // dcg[i] = linear-gain DCG of the top i
  std::vector<double> dcge;    // exponential-gain DCG of the top i
  std::vector<double> idcg, idcge;
  void ensure_log(std::size_t n) {
    while (log2_rank.size() < n) log2_rank.push_back(std::log2(static_cast<double>(log2_rank.size() + 2)));
  }
};

double exp_gain(int rel) { return rel > 0 ? std::ldexp(1.0, std::min(rel, 1023)) - 1.0 : 0.0; }

// Computes every enabled measure of one query into out, in the order of EvalResult::measures.
// One pass builds prefix sums; each cutoff then reads one entry (cutoffs past the list read the end).
void compute(const QueryData& d, int level, const MeasureSet& ms, Scratch& sc, double* out) {
  const auto& rels = d.rels;
  const std::size_t n = rels.size();
  const double R = static_cast<double>(d.num_rel);
  std::size_t col = 0;
  auto enabled = [&](Family f) { return ms.enabled[static_cast<std::size_t>(f)]; };
  auto cuts = [&](Family f) -> const std::vector<int>& { return ms.cutoffs[static_cast<std::size_t>(f)]; };
  const bool want_ndcg = enabled(Family::kNdcg) || enabled(Family::kNdcgCut);
  const bool want_exp = enabled(Family::kNdcgExp) || enabled(Family::kNdcgExpCut);

  sc.ensure_log(std::max(n, d.ideal.size()));
  sc.cnt.resize(n + 1);
  sc.ap.resize(n + 1);
  sc.cnt[0] = 0;
  sc.ap[0] = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const bool rel = rels[i] >= level;
    sc.cnt[i + 1] = sc.cnt[i] + rel;
    sc.ap[i + 1] = sc.ap[i] + (rel ? static_cast<double>(sc.cnt[i + 1]) / static_cast<double>(i + 1) : 0.0);
  }
  // nDCG (m_ndcg.c / m_ndcg_cut.c): gain = relevance value (levels <= 0 gain 0), summed in rank
  // order as gain / log2(i + 2); relevance_level is not used by trec_eval's nDCG.
  if (want_ndcg) {
    sc.dcg.resize(n + 1);
    sc.dcg[0] = 0;
    for (std::size_t i = 0; i < n; ++i) sc.dcg[i + 1] = sc.dcg[i] + (rels[i] > 0 ? rels[i] / sc.log2_rank[i] : 0.0);
    sc.idcg.resize(d.ideal.size() + 1);
    sc.idcg[0] = 0;
    for (std::size_t i = 0; i < d.ideal.size(); ++i) sc.idcg[i + 1] = sc.idcg[i] + d.ideal[i] / sc.log2_rank[i];
  }
  if (want_exp) {
    sc.dcge.resize(n + 1);
    sc.dcge[0] = 0;
    for (std::size_t i = 0; i < n; ++i) sc.dcge[i + 1] = sc.dcge[i] + (rels[i] > 0 ? exp_gain(rels[i]) / sc.log2_rank[i] : 0.0);
    sc.idcge.resize(d.ideal.size() + 1);
    sc.idcge[0] = 0;
    for (std::size_t i = 0; i < d.ideal.size(); ++i) sc.idcge[i + 1] = sc.idcge[i] + exp_gain(d.ideal[i]) / sc.log2_rank[i];
  }
  auto at = [&](int k) { return std::min(n, static_cast<std::size_t>(k)); };
  auto ideal_at = [&](std::size_t k) { return std::min(d.ideal.size(), k); };
  auto ratio = [](double a, double b) { return b > 0 ? a / b : 0.0; };

  if (enabled(Family::kNumRet)) out[col++] = static_cast<double>(n);
  if (enabled(Family::kNumRel)) out[col++] = R;
  if (enabled(Family::kNumRelRet)) out[col++] = static_cast<double>(sc.cnt[n]);
  if (enabled(Family::kMap)) out[col++] = d.num_rel ? sc.ap[n] / R : 0.0;
  if (enabled(Family::kRprec)) out[col++] = d.num_rel ? sc.cnt[std::min(n, static_cast<std::size_t>(d.num_rel))] / R : 0.0;
  if (enabled(Family::kBpref)) {
    // m_bpref.c: unjudged documents are skipped; each relevant one adds
    // 1 - min(nonrel_above, R) / min(N, R), N = judged non-relevant documents of the query.
    double b = 0;
    long nonrel = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const int r = rels[i];
      if (r < 0) continue;
      if (r < level) {
        ++nonrel;
      } else if (nonrel > 0) {
        b += 1.0 - static_cast<double>(std::min(nonrel, d.num_rel)) / static_cast<double>(std::min(d.num_nonrel, d.num_rel));
      } else {
        b += 1.0;
      }
    }
    out[col++] = d.num_rel ? b / R : 0.0;
  }
  if (enabled(Family::kRecipRank)) {
    double rr = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (rels[i] >= level) {
        rr = 1.0 / static_cast<double>(i + 1);
        break;
      }
    }
    out[col++] = rr;
  }
  if (enabled(Family::kP)) {
    for (int k : cuts(Family::kP)) out[col++] = static_cast<double>(sc.cnt[at(k)]) / k;  // k even past the end
  }
  if (enabled(Family::kRecall)) {
    for (int k : cuts(Family::kRecall)) out[col++] = d.num_rel ? sc.cnt[at(k)] / R : 0.0;
  }
  if (enabled(Family::kNdcg)) out[col++] = ratio(sc.dcg[n], sc.idcg[d.ideal.size()]);
  if (enabled(Family::kNdcgCut)) {
    for (int k : cuts(Family::kNdcgCut)) out[col++] = ratio(sc.dcg[at(k)], sc.idcg[ideal_at(static_cast<std::size_t>(k))]);
  }
  if (enabled(Family::kMapCut)) {
    for (int k : cuts(Family::kMapCut)) out[col++] = d.num_rel ? sc.ap[at(k)] / R : 0.0;
  }
  if (enabled(Family::kSuccess)) {
    for (int k : cuts(Family::kSuccess)) out[col++] = sc.cnt[at(k)] > 0 ? 1.0 : 0.0;
  }
  if (enabled(Family::kNdcgExp)) out[col++] = ratio(sc.dcge[n], sc.idcge[d.ideal.size()]);
  if (enabled(Family::kNdcgExpCut)) {
    for (int k : cuts(Family::kNdcgExpCut)) out[col++] = ratio(sc.dcge[at(k)], sc.idcge[ideal_at(static_cast<std::size_t>(k))]);
  }
}

void fill_judged(const std::vector<int>& judged, int level, QueryData* d) {
  d->ideal.clear();
  d->num_rel = d->num_nonrel = 0;
  for (int v : judged) {
    if (v > 0) d->ideal.push_back(v);
    if (v >= 0 && v >= level) ++d->num_rel;
    if (v >= 0 && v < level) ++d->num_nonrel;
  }
  std::sort(d->ideal.begin(), d->ideal.end(), [](int a, int b) { return a > b; });
}

}  // namespace

Result<EvalResult> evaluate(const Qrels& qrels, const Run& run, const EvalOptions& options) {
  auto ms_r = parse_measures(options.measures);
  if (!ms_r.ok()) return ms_r.error();
  const MeasureSet& ms = ms_r.value();
  const int level = options.relevance_level;

  EvalResult res;
  res.run_id = run.run_id();
  for (std::size_t f = 0; f < kFamilies; ++f) {
    if (!ms.enabled[f]) continue;
    if (kFamilyInfo[f].has_cutoffs) {
      for (int k : ms.cutoffs[f]) {
        res.measures.push_back(std::string(kFamilyInfo[f].name) + "_" + std::to_string(k));
        res.is_count.push_back(false);
      }
    } else {
      res.measures.emplace_back(kFamilyInfo[f].name);
      res.is_count.push_back(kFamilyInfo[f].is_count);
    }
  }
  const std::size_t m = res.measures.size();

  // Queries judged in the qrels, in strcmp order (trec_eval prints them so).
  std::vector<std::size_t> order(qrels.num_queries());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::strcmp(qrels.query_ids()[a].c_str(), qrels.query_ids()[b].c_str()) < 0;
  });

  // Judged documents of the current query in a small open-addressing table keyed by interned doc id
  // (fits in cache; a run-sized array would miss the cache on every retrieved document).
  std::vector<std::uint32_t> hkeys;
  std::vector<int> hvals;
  constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;
  auto slot = [](std::uint32_t key, std::uint32_t mask) {
    std::uint32_t h = key * 2654435761u;  // Knuth multiplicative hash, high bits folded down
    return (h ^ (h >> 16)) & mask;
  };
  QueryData d;
  Scratch scratch;
  std::vector<int> judged;
  res.aggregate.assign(m, 0.0);
  std::vector<double> row(m);
  for (std::size_t qi : order) {
    const std::string& qid = qrels.query_ids()[qi];
    const long ri = run.find(qid);
    if (ri < 0 && !options.complete_queries) {
      return make_error(ErrorCode::kNotFound, "run: query '" + shorten(qid) +
                                                  "' is judged in the qrels but has no results in the run (trec_eval 10.0 stops here); "
                                                  "set completeQueries (trec_eval -c) to count it as 0");
    }
    judged.clear();
    std::size_t cap = 16;
    while (cap < 2 * qrels.judgments(qi).size()) cap *= 2;
    const std::uint32_t mask = static_cast<std::uint32_t>(cap - 1);
    hkeys.assign(cap, kEmpty);
    hvals.assign(cap, 0);
    for (const auto& j : qrels.judgments(qi)) {
      judged.push_back(j.rel);
      const long di = run.doc_id(j.docno);
      if (di < 0) continue;  // never retrieved by any query
      std::uint32_t h = slot(static_cast<std::uint32_t>(di), mask);
      while (hkeys[h] != kEmpty) h = (h + 1) & mask;
      hkeys[h] = static_cast<std::uint32_t>(di);
      hvals[h] = j.rel < 0 ? -2 : j.rel;  // -2: trec_eval's RELVALUE_UNJUDGED
    }
    fill_judged(judged, level, &d);
    d.rels.clear();
    if (ri >= 0) {
      for (const auto& e : run.entries(static_cast<std::size_t>(ri))) {
        std::uint32_t h = slot(e.doc, mask);
        int rel = -1;  // RELVALUE_NONPOOL: not in the qrels
        while (hkeys[h] != kEmpty) {
          if (hkeys[h] == e.doc) {
            rel = hvals[h];
            break;
          }
          h = (h + 1) & mask;
        }
        d.rels.push_back(rel);
      }
    }
    compute(d, level, ms, scratch, row.data());
    res.query_ids.push_back(qid);
    res.per_query.insert(res.per_query.end(), row.begin(), row.end());
    for (std::size_t k = 0; k < m; ++k) res.aggregate[k] += row[k];
  }
  res.num_q = res.query_ids.size();
  for (std::size_t k = 0; k < m; ++k) {
    if (!res.is_count[k]) res.aggregate[k] = res.num_q ? res.aggregate[k] / static_cast<double>(res.num_q) : 0.0;
  }
  return res;
}

std::string format_trec_eval(const EvalResult& r, bool per_query, bool header) {
  std::string out;
  char num[64];
  // "%-22s\t%s\t%6.4f\n" (counts "%ld"), built without a fixed-size line buffer so long ids survive.
  auto line = [&](const std::string& name, const std::string& qid, const char* value) {
    out += name;
    if (name.size() < 22) out.append(22 - name.size(), ' ');
    out += '\t';
    out += qid;
    out += '\t';
    out += value;
    out += '\n';
  };
  auto number = [&](double v, bool count) {
    if (count) std::snprintf(num, sizeof num, "%ld", static_cast<long>(v));
    else std::snprintf(num, sizeof num, "%6.4f", v);
    return num;
  };
  if (per_query) {
    for (std::size_t q = 0; q < r.query_ids.size(); ++q) {
      for (std::size_t k = 0; k < r.measures.size(); ++k) line(r.measures[k], r.query_ids[q], number(r.value(q, k), r.is_count[k]));
    }
  }
  if (header) {
    line("runid", "all", r.run_id.c_str());
    line("num_q", "all", number(static_cast<double>(r.num_q), true));
  }
  for (std::size_t k = 0; k < r.measures.size(); ++k) line(r.measures[k], "all", number(r.aggregate[k], r.is_count[k]));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Single-query helpers

namespace {
QueryData to_data(const RankedQuery& q, int level) {
  QueryData d;
  d.rels = q.rels;
  for (int& r : d.rels) {
    if (r < 0) r = -1;
  }
  fill_judged(q.judged, level, &d);
  return d;
}
double one(const RankedQuery& q, int level, Family f, int k) {
  MeasureSet ms;
  ms.enabled[static_cast<std::size_t>(f)] = true;
  if (k > 0) ms.cutoffs[static_cast<std::size_t>(f)].push_back(k);
  double v = 0;
  Scratch scratch;
  compute(to_data(q, level), level, ms, scratch, &v);
  return v;
}
}  // namespace

double precision_at(const RankedQuery& q, int k, int level) { return one(q, level, Family::kP, k); }
double recall_at(const RankedQuery& q, int k, int level) { return one(q, level, Family::kRecall, k); }
double average_precision(const RankedQuery& q, int k, int level) {
  return k > 0 ? one(q, level, Family::kMapCut, k) : one(q, level, Family::kMap, 0);
}
double reciprocal_rank(const RankedQuery& q, int level) { return one(q, level, Family::kRecipRank, 0); }
double r_precision(const RankedQuery& q, int level) { return one(q, level, Family::kRprec, 0); }
double success_at(const RankedQuery& q, int k, int level) { return one(q, level, Family::kSuccess, k); }
double bpref(const RankedQuery& q, int level) { return one(q, level, Family::kBpref, 0); }
double ndcg_at(const RankedQuery& q, int k) { return k > 0 ? one(q, 1, Family::kNdcgCut, k) : one(q, 1, Family::kNdcg, 0); }
double ndcg_exp_at(const RankedQuery& q, int k) { return k > 0 ? one(q, 1, Family::kNdcgExpCut, k) : one(q, 1, Family::kNdcgExp, 0); }

}  // namespace ragwasm::metrics
