#include "sparse/options_json.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "common/json_depth.h"
#include "common/limits.h"

namespace ragwasm::sparse {
namespace {

using json = nlohmann::json;

Error bad(const std::string& name, const std::string& expected, const json& got) {
  std::string g = got.dump();
  if (g.size() > 60) g = g.substr(0, 57) + "...";
  return make_error(ErrorCode::kInvalidArgument, name + ": expected " + expected + ", got " + g);
}

Result<json> parse(std::string_view s, const std::string& name) {
  if (s.empty()) return json::object();
  RAGWASM_TRY(check_json_depth(s, name));
  json j = json::parse(s.begin(), s.end(), nullptr, false);
  if (j.is_discarded()) return make_error(ErrorCode::kInvalidArgument, name + ": not valid JSON");
  if (!j.is_object()) return bad(name, "an object", j);
  return j;
}

Status unknown_keys(const json& j, const std::string& name, std::initializer_list<const char*> known) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool ok = false;
    for (const char* k : known) ok = ok || it.key() == k;
    if (!ok) return make_error(ErrorCode::kInvalidArgument, name + ": unknown option '" + it.key() + "'");
  }
  return Status::success();
}

Status get_bool(const json& j, const char* key, const std::string& name, bool* out) {
  if (!j.contains(key)) return Status::success();
  if (!j[key].is_boolean()) return bad(name + "." + key, "true or false", j[key]);
  *out = j[key].get<bool>();
  return Status::success();
}

Status get_num(const json& j, const char* key, const std::string& name, double lo, double hi, double* out) {
  if (!j.contains(key)) return Status::success();
  const json& v = j[key];
  if (!v.is_number() || !(v.get<double>() >= lo && v.get<double>() <= hi)) {
    return bad(name + "." + key, "a number in [" + json(lo).dump() + ", " + json(hi).dump() + "]", v);
  }
  *out = v.get<double>();
  return Status::success();
}

Status get_size(const json& j, const char* key, const std::string& name, std::size_t lo, std::size_t hi, std::size_t* out) {
  if (!j.contains(key)) return Status::success();
  const json& v = j[key];
  if (!v.is_number_integer() || v.get<std::int64_t>() < static_cast<std::int64_t>(lo) || v.get<std::int64_t>() > static_cast<std::int64_t>(hi)) {
    return bad(name + "." + key, "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]", v);
  }
  *out = static_cast<std::size_t>(v.get<std::int64_t>());
  return Status::success();
}

}  // namespace

Result<IndexOptions> parse_index_options(std::string_view text, std::string_view name_view) {
  const std::string name(name_view);
  auto pj = parse(text, name);
  if (!pj.ok()) return pj.error();
  const json& j = pj.value();
  RAGWASM_TRY(unknown_keys(j, name, {"fields", "scorer", "k1", "b", "delta", "analyzer"}));
  IndexOptions o;
  if (j.contains("fields")) {
    const json& f = j["fields"];
    if (!f.is_array() || f.empty() || f.size() > kMaxFields) return bad(name + ".fields", "an array of 1 to 16 fields", f);
    o.fields.clear();
    for (std::size_t i = 0; i < f.size(); ++i) {
      const std::string fn = name + ".fields[" + std::to_string(i) + "]";
      FieldSpec s;
      if (f[i].is_string()) {
        s.name = f[i].get<std::string>();
      } else if (f[i].is_object()) {
        RAGWASM_TRY(unknown_keys(f[i], fn, {"name", "boost"}));
        if (!f[i].contains("name") || !f[i]["name"].is_string()) return bad(fn + ".name", "a string", f[i].value("name", json()));
        s.name = f[i]["name"].get<std::string>();
        RAGWASM_TRY(get_num(f[i], "boost", fn, 1e-9, 1e6, &s.boost));
      } else {
        return bad(fn, "a field name or {name, boost}", f[i]);
      }
      o.fields.push_back(std::move(s));
    }
  }
  if (j.contains("scorer")) {
    const json& s = j["scorer"];
    const std::string v = s.is_string() ? s.get<std::string>() : "";
    if (v == "lucene") o.scoring.scorer = Scorer::kLucene;
    else if (v == "robertson") o.scoring.scorer = Scorer::kRobertson;
    else if (v == "atire") o.scoring.scorer = Scorer::kAtire;
    else if (v == "bm25l") o.scoring.scorer = Scorer::kBm25L;
    else if (v == "bm25plus") o.scoring.scorer = Scorer::kBm25Plus;
    else return bad(name + ".scorer", "one of 'lucene', 'robertson', 'atire', 'bm25l', 'bm25plus'", s);
  }
  RAGWASM_TRY(get_num(j, "k1", name, 0, 100, &o.scoring.k1));
  RAGWASM_TRY(get_num(j, "b", name, 0, 1, &o.scoring.b));
  RAGWASM_TRY(get_num(j, "delta", name, 0, 100, &o.scoring.delta));
  if (j.contains("analyzer")) {
    const json& a = j["analyzer"];
    const std::string an = name + ".analyzer";
    if (!a.is_object()) return bad(an, "an object", a);
    RAGWASM_TRY(unknown_keys(a, an, {"lowercase", "foldAccents", "stopwords", "stemmer", "cjkBigrams", "identifiers", "maxTokenBytes"}));
    auto& ao = o.analyzer;
    RAGWASM_TRY(get_bool(a, "lowercase", an, &ao.lowercase));
    RAGWASM_TRY(get_bool(a, "foldAccents", an, &ao.fold_accents));
    RAGWASM_TRY(get_bool(a, "cjkBigrams", an, &ao.cjk_bigrams));
    RAGWASM_TRY(get_bool(a, "identifiers", an, &ao.identifiers));
    RAGWASM_TRY(get_size(a, "maxTokenBytes", an, 1, 4096, &ao.max_token_bytes));
    if (a.contains("stemmer")) {
      const json& s = a["stemmer"];
      if (s == "porter2") ao.stemmer = Stemmer::kPorter2;
      else if (s == "none" || s == false) ao.stemmer = Stemmer::kNone;
      else return bad(an + ".stemmer", "'porter2' or 'none'", s);
    }
    if (a.contains("stopwords")) {
      const json& s = a["stopwords"];
      if (s == false) {
        ao.use_stopwords = false;
        ao.stopwords.clear();
      } else if (s == "lucene") {
        ao.stopwords = lucene_english_stopwords();
      } else if (s.is_array() && s.size() <= 100000) {
        ao.stopwords.clear();
        for (const auto& w : s) {
          if (!w.is_string()) return bad(an + ".stopwords", "an array of strings", s);
          ao.stopwords.push_back(w.get<std::string>());
        }
      } else {
        return bad(an + ".stopwords", "false, 'lucene' or an array of at most 100000 strings", s);
      }
    }
  }
  return o;
}

// prefix / fuzzy / maxFuzzy / weights / combineWith / boost (issue 29; index_fuzzy.cpp). explain is read by
// the binding (it asks Bm25Index::explain for the hits) and accepted here.
static Status parse_match(const json& j, const std::string& name, SearchOptions* o) {
  auto& x = o->match;
  if (j.contains("prefix")) {
    const json& p = j["prefix"];
    if (p.is_boolean()) {
      x.prefix = p.get<bool>();
    } else if (p.is_array()) {
      for (const auto& v : p) {
        if (!v.is_boolean()) return bad(name + ".prefix", "true, false or an array of those (one per analyzed query term)", p);
        x.prefix_terms.push_back(v.get<bool>() ? 1 : 0);
      }
    } else {
      return bad(name + ".prefix", "true, false or an array of those (one per analyzed query term)", p);
    }
  }
  auto fuzzy_value = [&](const json& v, double* out) -> Status {
    const std::string fn = name + ".fuzzy";
    if (v.is_null() || v == false) {
      *out = 0;
    } else if (v == true) {
      *out = 0.2;  // MiniSearch's fuzzy: true
    } else if (v.is_number() && v.get<double>() >= 0 && v.get<double>() < 1) {
      *out = v.get<double>();
    } else if (v.is_number() && v.get<double>() >= 1 && v.get<double>() <= 16 && std::floor(v.get<double>()) == v.get<double>()) {
      *out = v.get<double>();
    } else {
      return bad(fn, "a fraction of the term length in [0, 1), an edit distance (an integer in [1, 16]), true (0.2) or false", v);
    }
    return Status::success();
  };
  if (j.contains("fuzzy")) {
    const json& f = j["fuzzy"];
    if (f.is_array()) {
      for (const auto& v : f) {
        double d = 0;
        RAGWASM_TRY(fuzzy_value(v, &d));
        x.fuzzy_terms.push_back(d);
      }
    } else {
      RAGWASM_TRY(fuzzy_value(f, &x.fuzzy));
    }
  }
  RAGWASM_TRY(get_size(j, "maxFuzzy", name, 0, 16, &x.max_fuzzy));
  if (j.contains("weights")) {
    const json& w = j["weights"];
    const std::string wn = name + ".weights";
    if (!w.is_object()) return bad(wn, "{prefix, fuzzy}", w);
    RAGWASM_TRY(unknown_keys(w, wn, {"prefix", "fuzzy"}));
    RAGWASM_TRY(get_num(w, "prefix", wn, 0, 1, &x.prefix_weight));
    RAGWASM_TRY(get_num(w, "fuzzy", wn, 0, 1, &x.fuzzy_weight));
  }
  if (j.contains("combineWith")) {
    const json& c = j["combineWith"];
    if (c == "OR" || c == "or") o->combine = Combine::kOr;
    else if (c == "AND" || c == "and") o->combine = Combine::kAnd;
    else return bad(name + ".combineWith", "'OR' or 'AND'", c);
  }
  if (j.contains("boost")) {
    const json& b = j["boost"];
    if (!b.is_object()) return bad(name + ".boost", "an object {field: number}", b);
    for (auto it = b.begin(); it != b.end(); ++it) {
      const json& v = it.value();
      if (!v.is_number() || !(v.get<double>() >= 0) || !std::isfinite(v.get<double>())) return bad(name + ".boost." + it.key(), "a finite number >= 0", v);
      o->boost.emplace_back(it.key(), v.get<double>());
    }
  }
  bool explain = false;
  RAGWASM_TRY(get_bool(j, "explain", name, &explain));
  return Status::success();
}

Result<SearchOptions> parse_search_options(std::string_view text) {
  const std::string name = "search options";
  auto pj = parse(text, name);
  if (!pj.ok()) return pj.error();
  const json& j = pj.value();
  RAGWASM_TRY(unknown_keys(j, name, {"k", "exhaustive", "filter", "rm3", "prefix", "fuzzy", "maxFuzzy", "weights", "combineWith", "boost", "explain", "expansion"}));
  SearchOptions o;
  RAGWASM_TRY(parse_match(j, name, &o));
  RAGWASM_TRY(get_size(j, "k", name, 1, kMaxSearchK, &o.k));  // the rule of every search (common/limits.h)
  RAGWASM_TRY(get_bool(j, "exhaustive", name, &o.exhaustive));
  if (j.contains("rm3")) {
    const json& r = j["rm3"];
    const std::string rn = name + ".rm3";
    if (r == true) {
      o.rm3.enabled = true;
    } else if (r == false) {
      o.rm3.enabled = false;
    } else if (r.is_object()) {
      RAGWASM_TRY(unknown_keys(r, rn, {"fbDocs", "fbTerms", "originalWeight"}));
      o.rm3.enabled = true;
      RAGWASM_TRY(get_size(r, "fbDocs", rn, 1, 1000, &o.rm3.fb_docs));
      RAGWASM_TRY(get_size(r, "fbTerms", rn, 1, 1000, &o.rm3.fb_terms));
      RAGWASM_TRY(get_num(r, "originalWeight", rn, 0, 1, &o.rm3.original_weight));
    } else {
      return bad(rn, "true, false or {fbDocs, fbTerms, originalWeight}", r);
    }
  }
  if (j.contains("expansion")) {
    // {perTerm, minSimilarity, weight}: the word source is given by the caller (the binding)
    const json& x = j["expansion"];
    const std::string xn = name + ".expansion";
    if (!x.is_object()) return bad(xn, "an object {perTerm, minSimilarity, weight, unmatchedOnly}", x);
    RAGWASM_TRY(unknown_keys(x, xn, {"perTerm", "minSimilarity", "weight", "unmatchedOnly"}));
    o.expansion.enabled = true;
    RAGWASM_TRY(get_size(x, "perTerm", xn, 1, 16, &o.expansion.per_term));
    RAGWASM_TRY(get_num(x, "minSimilarity", xn, 0, 1, &o.expansion.min_similarity));
    RAGWASM_TRY(get_num(x, "weight", xn, 0, 1, &o.expansion.weight));
    RAGWASM_TRY(get_bool(x, "unmatchedOnly", xn, &o.expansion.unmatched_only));
  }
  if (j.contains("filter") && !j["filter"].is_null()) {
    const json& f = j["filter"];
    if (!f.is_object()) return bad(name + ".filter", "an object", f);
    for (auto it = f.begin(); it != f.end(); ++it) {
      const std::string cn = name + ".filter." + it.key();
      const json& v = it.value();
      FilterClause c;
      c.key = it.key();
      auto add_value = [&](const json& x) -> Status {
        if (x.is_string()) c.strings.push_back(x.get<std::string>());
        else if (x.is_number() && std::isfinite(x.get<double>())) c.numbers.push_back(x.get<double>());
        else return bad(cn, "a string, a finite number, an array of those or a range {gte, gt, lte, lt}", x);
        return Status::success();
      };
      if (v.is_array()) {
        for (const auto& x : v) RAGWASM_TRY(add_value(x));
      } else if (v.is_object()) {
        RAGWASM_TRY(unknown_keys(v, cn, {"gte", "gt", "lte", "lt", "in"}));
        if (v.contains("in")) {
          if (v.size() != 1 || !v["in"].is_array()) return bad(cn + ".in", "an array (alone)", v);
          for (const auto& x : v["in"]) RAGWASM_TRY(add_value(x));
        } else {
          c.kind = FilterClause::Kind::kRange;
          const double inf = std::numeric_limits<double>::infinity();
          for (const char* k : {"gte", "gt", "lte", "lt"}) {
            if (v.contains(k) && (!v[k].is_number() || std::isnan(v[k].get<double>()))) return bad(cn + "." + k, "a number", v[k]);
          }
          if (v.contains("gte") && v.contains("gt")) return bad(cn, "at most one of gte and gt", v);
          if (v.contains("lte") && v.contains("lt")) return bad(cn, "at most one of lte and lt", v);
          c.lo = v.contains("gte") ? v["gte"].get<double>() : v.contains("gt") ? v["gt"].get<double>() : -inf;
          c.lo_open = v.contains("gt");
          c.hi = v.contains("lte") ? v["lte"].get<double>() : v.contains("lt") ? v["lt"].get<double>() : inf;
          c.hi_open = v.contains("lt");
        }
      } else {
        RAGWASM_TRY(add_value(v));
      }
      o.filter.push_back(std::move(c));
    }
  }
  return o;
}

Result<std::vector<std::vector<MetaValue>>> parse_metadata(std::string_view text, std::size_t count) {
  std::vector<std::vector<MetaValue>> out(count);
  if (text.empty()) return out;
  RAGWASM_TRY(check_json_depth(text, "documents metadata"));
  json j = json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded() || !j.is_array() || j.size() != count) {
    return make_error(ErrorCode::kInvalidArgument, "documents metadata: expected one object or null per document");
  }
  for (std::size_t i = 0; i < count; ++i) {
    const json& m = j[i];
    if (m.is_null()) continue;
    const std::string mn = "documents[" + std::to_string(i) + "].metadata";
    if (!m.is_object()) return bad(mn, "an object", m);
    for (auto it = m.begin(); it != m.end(); ++it) {
      auto one = [&](const json& x) -> Status {
        MetaValue v;
        v.key = it.key();
        if (x.is_string()) {
          v.str = x.get<std::string>();
        } else if (x.is_number() && std::isfinite(x.get<double>())) {
          v.is_number = true;
          v.num = x.get<double>();
        } else {
          return bad(mn + "." + it.key(), "a string, a finite number or an array of those", x);
        }
        out[i].push_back(std::move(v));
        return Status::success();
      };
      if (it.value().is_array()) {
        for (const auto& x : it.value()) RAGWASM_TRY(one(x));
      } else {
        RAGWASM_TRY(one(it.value()));
      }
    }
  }
  return out;
}

}  // namespace ragwasm::sparse
