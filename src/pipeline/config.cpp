// Strict JSON pipeline config parsing (see config.h).
#include "pipeline/config.h"

#include <algorithm>

#include "fusion/fusion_json.h"
#include "common/check.h"
#include "common/json_reader.h"
#include "dense/vector_index.h"
#include "embed/static_embedder.h"
#include "sparse/options_json.h"

namespace ragwasm::pipeline {

using jsonr::json;

namespace {

// Small helpers: read an optional member into a field, with the member's path in errors.
Status opt_number(const json& obj, const std::string& path, const char* key, double& out, double lo, double hi) {
  auto it = obj.find(key);
  if (it == obj.end()) return Status::success();
  auto v = jsonr::number(*it, jsonr::key_path(path, key), lo, hi);
  if (!v.ok()) return v.error();
  out = v.value();
  return Status::success();
}
Status opt_size(const json& obj, const std::string& path, const char* key, std::size_t& out, std::uint64_t lo, std::uint64_t hi) {
  auto it = obj.find(key);
  if (it == obj.end()) return Status::success();
  auto v = jsonr::integer(*it, jsonr::key_path(path, key), lo, hi);
  if (!v.ok()) return v.error();
  out = static_cast<std::size_t>(v.value());
  return Status::success();
}
Status opt_bool(const json& obj, const std::string& path, const char* key, bool& out) {
  auto it = obj.find(key);
  if (it == obj.end()) return Status::success();
  auto v = jsonr::boolean(*it, jsonr::key_path(path, key));
  if (!v.ok()) return v.error();
  out = v.value();
  return Status::success();
}
Status opt_enum(const json& obj, const std::string& path, const char* key, std::string& out, std::initializer_list<const char*> allowed) {
  auto it = obj.find(key);
  if (it == obj.end()) return Status::success();
  auto v = jsonr::one_of(*it, jsonr::key_path(path, key), allowed);
  if (!v.ok()) return v.error();
  out = v.value();
  return Status::success();
}
Status opt_string(const json& obj, const std::string& path, const char* key, std::string& out) {
  auto it = obj.find(key);
  if (it == obj.end()) return Status::success();
  auto v = jsonr::string(*it, jsonr::key_path(path, key), false);
  if (!v.ok()) return v.error();
  out = std::move(v).value();
  return Status::success();
}

// The chunker keys the Collection reads itself (context enrichment) and the semantic strategy's.
Status parse_chunker_extras(const json& j, ChunkerConfig& c) {
  const std::string p = "chunker";
  bool size_includes_context = false;
  RAGWASM_TRY(opt_bool(j, p, "sizeIncludesContext", size_includes_context));
  bool keep_separator = false;
  RAGWASM_TRY(opt_bool(j, p, "keepSeparator", keep_separator));
  if (auto it = j.find("context"); it != j.end()) {
    const std::string cp = "chunker.context";
    RAGWASM_TRY(jsonr::expect_object(*it, cp, {"template", "summary", "separator", "headerPath", "llmSummary", "llmChunkContext"}));
    for (const char* key : {"template", "summary", "separator"}) {
      if (auto t = it->find(key); t != it->end() && !t->is_string()) return jsonr::type_error(jsonr::key_path(cp, key), "a string", *t);
    }
    RAGWASM_TRY(opt_bool(*it, cp, "headerPath", c.context_header_path));
    // The LLM steps (run by Collection with its `llm` option): {prompt?: a prompt template object
    // (checked by definePrompt in JS), maxTokens?}. The LLM summary fills the context's {summary}.
    for (const char* key : {"llmSummary", "llmChunkContext"}) {
      auto s = it->find(key);
      if (s == it->end()) continue;
      const std::string sp = jsonr::key_path(cp, key);
      RAGWASM_TRY(jsonr::expect_object(*s, sp, {"prompt", "maxTokens"}));
      if (auto t = s->find("prompt"); t != s->end() && !t->is_object()) return jsonr::type_error(jsonr::key_path(sp, "prompt"), "a prompt template object", *t);
      std::size_t max_tokens = 0;
      RAGWASM_TRY(opt_size(*s, sp, "maxTokens", max_tokens, 1, 100000));
    }
    if (it->contains("llmSummary")) {
      if (it->contains("summary")) {
        return make_error(ErrorCode::kInvalidArgument, cp + ".llmSummary: the LLM writes the summary; remove " + cp + ".summary");
      }
      if (auto t = it->find("template"); t != it->end() && t->get_ref<const std::string&>().find("{summary}") == std::string::npos) {
        return make_error(ErrorCode::kInvalidArgument, cp + ".llmSummary: " + cp + ".template has no {summary} placeholder for it");
      }
    }
    c.has_context = true;
  }
  if (c.strategy == "semantic") {
    std::string breakpoint;
    RAGWASM_TRY(opt_enum(j, p, "breakpoint", breakpoint, {"percentile", "standard_deviation", "interquartile", "gradient"}));
    double amount = 0;
    RAGWASM_TRY(opt_number(j, p, "breakpointAmount", amount, 0.0, 1e6));
    std::size_t n = 0;
    RAGWASM_TRY(opt_size(j, p, "minChunkSize", n, 0, 100000000));
    RAGWASM_TRY(opt_size(j, p, "maxChunkSize", n, 0, 100000000));
    RAGWASM_TRY(opt_size(j, p, "bufferSize", n, 0, 1000));
    RAGWASM_TRY(opt_size(j, p, "batchSize", n, 1, 100000));
  } else {
    for (const char* key : {"breakpoint", "breakpointAmount", "minChunkSize", "maxChunkSize", "bufferSize", "batchSize"}) {
      if (j.contains(key)) {
        return make_error(ErrorCode::kInvalidArgument, jsonr::key_path(p, key) + ": only used by strategy \"semantic\", got strategy \"" + c.strategy + "\"");
      }
    }
  }
  return Status::success();
}

Status parse_chunker(const json& j, ChunkerConfig& c) {
  // Keys mirror chunk::parse_options (src/chunk/chunk.h); the object is passed on as is.
  RAGWASM_TRY(jsonr::expect_object(j, "chunker", {"strategy", "chunkSize", "chunkOverlap", "unit", "separators", "keepSeparator", "strict",
                                                 "splitLevels", "stripHeaders", "overlapSentences", "newlineBreaks", "invalidUtf8",
                                                 "context", "sizeIncludesContext", "breakpoint", "breakpointAmount", "minChunkSize",
                                                 "maxChunkSize", "bufferSize", "batchSize", "preprocess"}));
  // preprocess: a step on each document's text before splitting (the Collection runs it; chunk() never sees it).
  std::string preprocess = "none";
  RAGWASM_TRY(opt_enum(j, "chunker", "preprocess", preprocess, {"none", "markdown-to-text"}));
  RAGWASM_TRY(opt_enum(j, "chunker", "strategy", c.strategy, {"fixed", "recursive", "markdown", "markdown-header", "sentence", "semantic"}));
  RAGWASM_TRY(parse_chunker_extras(j, c));
  RAGWASM_TRY(opt_size(j, "chunker", "chunkSize", c.chunk_size, 1, 100000000));
  // Without an explicit overlap: min(200, chunkSize / 5), as chunk() does.
  c.chunk_overlap = std::min<std::size_t>(200, c.chunk_size / 5);
  RAGWASM_TRY(opt_size(j, "chunker", "chunkOverlap", c.chunk_overlap, 0, 100000000));
  RAGWASM_TRY(opt_enum(j, "chunker", "unit", c.unit, {"utf16", "codepoints", "bytes", "tokens"}));
  if (c.chunk_overlap >= c.chunk_size) {
    return make_error(ErrorCode::kInvalidArgument, "chunker.chunkOverlap: expected less than chunker.chunkSize (" +
                                                       std::to_string(c.chunk_size) + "), got " + std::to_string(c.chunk_overlap));
  }
  c.options_json = j.dump(-1, ' ', false, json::error_handler_t::replace);
  return Status::success();
}

// One old option name (docs/api.md "Old names"): at `path` (the object `obj`), `old_key` is read as
// `new_key` (one nested level allowed: "analyzer.stemmer"), its value converted by `convert` (which
// also checks it, naming the old path). Both names together: INVALID_ARGUMENT naming both paths.
template <typename Convert>
Status read_old_name(json& obj, const std::string& path, const char* old_key, const std::string& new_key, std::vector<Deprecation>& out,
                     Convert convert) {
  auto it = obj.find(old_key);
  if (it == obj.end()) return Status::success();
  const std::string old_path = jsonr::key_path(path, old_key);
  const std::string new_path = jsonr::key_path(path, new_key);
  json* parent = &obj;
  std::string leaf = new_key;
  if (const auto dot = new_key.find('.'); dot != std::string::npos) {
    const std::string head = new_key.substr(0, dot);
    leaf = new_key.substr(dot + 1);
    auto h = obj.find(head);
    if (h == obj.end()) {
      obj[head] = json::object();
    } else if (!h->is_object()) {
      return jsonr::type_error(jsonr::key_path(path, head), "an object", *h);
    }
    parent = &obj[head];
  }
  if (parent->contains(leaf)) {
    return make_error(ErrorCode::kInvalidArgument, old_path + " and " + new_path + ": the same setting twice (" + old_key +
                                                       " is the old name of " + new_key + "); keep only " + new_path);
  }
  auto v = convert(*it, old_path);
  if (!v.ok()) return v.error();
  (*parent)[leaf] = v.value();
  obj.erase(old_key);
  out.push_back({path, old_key, new_key});
  return Status::success();
}

Result<json> same_value(const json& v, const std::string&) { return v; }

// "fields": [{"name", "boost"} | "name", ...] (Bm25Index's form) or the shorthand {name: boost}.
// -> the normalized array [{"name", "boost"}]; "text" (the chunk text) must be one of them.
Result<json> parse_fields(const json& f, const std::string& fp, std::vector<Bm25Field>& out) {
  out.clear();
  auto add = [&](const std::string& name, const json& boost, const std::string& np, const std::string& bp) -> Status {
    if (name.empty() || name.size() > 256 || name == "id" || name == "metadata") {
      return make_error(ErrorCode::kInvalidArgument, np + ": expected a field name of 1 to 256 bytes other than \"id\" and \"metadata\"");
    }
    for (const auto& prev : out) {
      if (prev.name == name) return make_error(ErrorCode::kInvalidArgument, np + ": field \"" + name + "\" is listed twice");
    }
    double b = 1;
    if (!boost.is_null()) {
      auto v = jsonr::number(boost, bp, 1e-9, 1e6);
      if (!v.ok()) return v.error();
      b = v.value();
    }
    out.push_back({name, b});
    return Status::success();
  };
  if (f.is_object()) {
    if (f.empty() || f.size() > sparse::kMaxFields) {
      return make_error(ErrorCode::kInvalidArgument, fp + ": expected 1 to 16 fields, got " + std::to_string(f.size()));
    }
    for (auto it = f.begin(); it != f.end(); ++it) {
      const std::string np = jsonr::key_path(fp, it.key());
      if (it.value().is_null()) return jsonr::type_error(np, "a number", it.value());
      RAGWASM_TRY(add(it.key(), it.value(), np, np));
    }
  } else if (f.is_array()) {
    if (f.empty() || f.size() > sparse::kMaxFields) {
      return make_error(ErrorCode::kInvalidArgument, fp + ": expected 1 to 16 fields, got " + std::to_string(f.size()));
    }
    for (std::size_t i = 0; i < f.size(); ++i) {
      const std::string ip = jsonr::index_path(fp, i);
      if (f[i].is_string()) {
        RAGWASM_TRY(add(f[i].get<std::string>(), json(), ip, ip));
      } else if (f[i].is_object()) {
        RAGWASM_TRY(jsonr::expect_object(f[i], ip, {"name", "boost"}));
        auto name = f[i].contains("name") ? jsonr::string(f[i]["name"], jsonr::key_path(ip, "name")) : jsonr::type_error(jsonr::key_path(ip, "name"), "a string", json());
        if (!name.ok()) return name.error();
        if (f[i].contains("boost") && f[i]["boost"].is_null()) return jsonr::type_error(jsonr::key_path(ip, "boost"), "a number", json());
        RAGWASM_TRY(add(name.value(), f[i].contains("boost") ? f[i]["boost"] : json(), jsonr::key_path(ip, "name"), jsonr::key_path(ip, "boost")));
      } else {
        return jsonr::type_error(ip, "a field name or {name, boost}", f[i]);
      }
    }
  } else {
    return jsonr::type_error(fp, "an array of fields [{\"name\": \"text\", \"boost\": 1}, ...] or an object {name: boost}", f);
  }
  bool has_text = false;
  for (const auto& x : out) has_text = has_text || x.name == "text";
  if (!has_text) return make_error(ErrorCode::kInvalidArgument, fp + ": expected a \"text\" field (the chunk text), got none");
  json norm = json::array();
  for (const auto& x : out) norm.push_back({{"name", x.name}, {"boost", x.boost}});
  return norm;
}

// "indexes.bm25": Bm25Index options under their own names; the index's own parser
// (sparse::parse_index_options) checks them, so both read the same options the same way.
Status parse_bm25(const json& in, Bm25Config& c, std::vector<Deprecation>& deprecations) {
  const std::string p = "indexes.bm25";
  RAGWASM_TRY(jsonr::expect_object(in, p, {"fields", "scorer", "k1", "b", "delta", "analyzer", "variant", "stemmer", "stopwords"}));
  json j = in;
  RAGWASM_TRY(read_old_name(j, p, "variant", "scorer", deprecations, [](const json& v, const std::string& path) -> Result<json> {
    auto s = jsonr::one_of(v, path, {"bm25", "bm25l", "bm25+"});
    if (!s.ok()) return s.error();
    return json(s.value() == "bm25" ? "lucene" : s.value() == "bm25l" ? "bm25l" : "bm25plus");
  }));
  RAGWASM_TRY(read_old_name(j, p, "stemmer", "analyzer.stemmer", deprecations, [](const json& v, const std::string& path) -> Result<json> {
    auto s = jsonr::one_of(v, path, {"porter2", "none"});
    if (!s.ok()) return s.error();
    return json(s.value());
  }));
  RAGWASM_TRY(read_old_name(j, p, "stopwords", "analyzer.stopwords", deprecations, [](const json& v, const std::string& path) -> Result<json> {
    auto b = jsonr::boolean(v, path);
    if (!b.ok()) return b.error();
    return b.value() ? json("lucene") : json(false);
  }));
  if (auto it = j.find("fields"); it != j.end()) {
    auto f = parse_fields(*it, p + ".fields", c.fields);
    if (!f.ok()) return f.error();
    j["fields"] = f.value();
  } else {
    j["fields"] = json::array({{{"name", "text"}, {"boost", 1.0}}, {{"name", "title"}, {"boost", 1.0}}});
    c.fields = {{"text", 1}, {"title", 1}};
  }
  if (!j.contains("scorer")) j["scorer"] = "lucene";
  if (!j.contains("k1")) j["k1"] = 0.9;
  if (!j.contains("b")) j["b"] = 0.4;
  if (!j.contains("analyzer")) j["analyzer"] = json::object();
  if (j["analyzer"].is_object()) {
    if (!j["analyzer"].contains("stemmer")) j["analyzer"]["stemmer"] = "porter2";
    if (!j["analyzer"].contains("stopwords")) j["analyzer"]["stopwords"] = "lucene";
  }
  const std::string text = j.dump(-1, ' ', false, json::error_handler_t::replace);
  auto o = sparse::parse_index_options(text, p);
  if (!o.ok()) return o.error();
  c.index_options = std::move(o).value();
  c.scorer = j["scorer"].get<std::string>();
  c.k1 = c.index_options.scoring.k1;
  c.b = c.index_options.scoring.b;
  c.options_json = text;
  return Status::success();
}

// "indexes.dense": VectorIndex options under their own names, plus the embedder "model".
Status parse_dense(const json& in, DenseConfig& c, std::vector<Deprecation>& deprecations) {
  const std::string p = "indexes.dense";
  RAGWASM_TRY(jsonr::expect_object(in, p, {"model", "dimension", "metric", "storage", "binaryRescore", "index", "hnsw", "quantization"}));
  json j = in;
  RAGWASM_TRY(read_old_name(j, p, "quantization", "storage", deprecations, [](const json& v, const std::string& path) -> Result<json> {
    auto s = jsonr::one_of(v, path, {"none", "int8"});
    if (!s.ok()) return s.error();
    return json(s.value() == "none" ? "f32" : "int8");
  }));
  RAGWASM_TRY(opt_string(j, p, "model", c.model));
  RAGWASM_TRY(opt_size(j, p, "dimension", c.dimension, 1, dense::kMaxDimension));
  RAGWASM_TRY(opt_enum(j, p, "metric", c.metric, {"cosine", "dot", "l2"}));
  RAGWASM_TRY(opt_enum(j, p, "index", c.index, {"flat", "hnsw"}));
  RAGWASM_TRY(opt_enum(j, p, "storage", c.storage, {"f32", "int8", "binary"}));
  RAGWASM_TRY(opt_enum(j, p, "binaryRescore", c.binary_rescore, {"int8", "f32"}));
  if (auto it = j.find("hnsw"); it != j.end()) {
    const std::string hp = p + ".hnsw";
    RAGWASM_TRY(jsonr::expect_object(*it, hp, {"M", "efConstruction", "efSearch", "seed", "m"}));
    RAGWASM_TRY(read_old_name(*it, hp, "m", "M", deprecations, [](const json& v, const std::string& path) -> Result<json> {
      auto m = jsonr::integer(v, path, 2, dense::kMaxHnswM);
      if (!m.ok()) return m.error();
      return json(m.value());
    }));
    RAGWASM_TRY(opt_size(*it, hp, "M", c.hnsw_m, 2, dense::kMaxHnswM));
    RAGWASM_TRY(opt_size(*it, hp, "efConstruction", c.hnsw_ef_construction, 1, dense::kMaxEf));
    RAGWASM_TRY(opt_size(*it, hp, "efSearch", c.hnsw_ef_search, 1, dense::kMaxEf));
    if (auto s = it->find("seed"); s != it->end()) {
      auto v = jsonr::integer(*s, jsonr::key_path(hp, "seed"), 0, 9007199254740991ULL);  // JS Number.MAX_SAFE_INTEGER
      if (!v.ok()) return v.error();
      c.hnsw_seed = v.value();
    }
  }
  if (c.storage == "binary" && c.index == "hnsw") {
    return make_error(ErrorCode::kInvalidArgument, p + ".storage: \"binary\" works with index \"flat\" only (HNSW needs f32 or int8 vectors), got index \"hnsw\"");
  }
  return Status::success();
}

// retrieval.llmExpansion: "hyde" | "query2doc" | {"mode": "hyde"|"query2doc", "maxTokens": 16..2048}.
Status parse_llm_expansion(const json& e, RetrievalConfig& r) {
  const std::string p = "retrieval.llmExpansion";
  if (e.is_string()) {
    auto m = jsonr::one_of(e, p, {"hyde", "query2doc"});
    if (!m.ok()) return m.error();
    r.llm_expansion = m.value();
    return Status::success();
  }
  if (!e.is_object()) return jsonr::type_error(p, "\"hyde\", \"query2doc\" or {mode, maxTokens}", e);
  RAGWASM_TRY(jsonr::expect_object(e, p, {"mode", "maxTokens"}));
  if (!e.contains("mode")) return make_error(ErrorCode::kInvalidArgument, p + ".mode: expected \"hyde\" or \"query2doc\", got nothing");
  RAGWASM_TRY(opt_enum(e, p, "mode", r.llm_expansion, {"hyde", "query2doc"}));
  RAGWASM_TRY(opt_size(e, p, "maxTokens", r.llm_expansion_max_tokens, 16, 2048));
  return Status::success();
}

// "retrieval.expansion": {source: "static", model?, perTerm?, minSimilarity?, weight?, maxWords?}.
Status parse_expansion(const json& j, PipelineConfig& c) {
  const std::string p = "retrieval.expansion";
  RAGWASM_TRY(jsonr::expect_object(j, p, {"source", "model", "perTerm", "minSimilarity", "weight", "unmatchedOnly", "maxWords"}));
  ExpansionConfig& x = c.retrieval.expansion;
  x.enabled = true;
  RAGWASM_TRY(opt_enum(j, p, "source", x.source, {"static"}));
  RAGWASM_TRY(opt_string(j, p, "model", x.model));
  RAGWASM_TRY(opt_size(j, p, "perTerm", x.per_term, 1, 16));
  RAGWASM_TRY(opt_number(j, p, "minSimilarity", x.min_similarity, 0.0, 1.0));
  RAGWASM_TRY(opt_number(j, p, "weight", x.weight, 0.0, 1.0));
  RAGWASM_TRY(opt_bool(j, p, "unmatchedOnly", x.unmatched_only));
  RAGWASM_TRY(opt_size(j, p, "maxWords", x.max_words, 0, embed::kMaxStaticWords));
  for (const char* key : {"minSimilarity", "weight"}) {
    if (auto v = j.find(key); v != j.end() && !(v->get<double>() > 0)) {
      return make_error(ErrorCode::kInvalidArgument, jsonr::key_path(p, key) + ": expected a number in (0, 1], got 0");
    }
  }
  if (!c.bm25.enabled) return make_error(ErrorCode::kInvalidArgument, p + ": expands BM25 queries; the config has no indexes.bm25");
  return Status::success();
}

}  // namespace

PipelineConfig default_config() {
  PipelineConfig c;
  c.retrieval.retrievers = {"bm25", "dense"};
  c.retrieval.fusion = fusion::default_hybrid_options(2);
  std::vector<Deprecation> none;
  [[maybe_unused]] const Status s = parse_bm25(json::object(), c.bm25, none);  // fills options_json
  RAGWASM_DCHECK(s.ok());
  return c;
}

Result<PipelineConfig> parse_config(std::string_view text) {
  auto pj = jsonr::parse(text, "pipeline config");
  if (!pj.ok()) return pj.error();
  const json& j = pj.value();
  RAGWASM_TRY(jsonr::expect_object(j, "", {"version", "chunker", "indexes", "retrieval", "rerank", "assembly", "answerer", "judges"}));
  PipelineConfig c = default_config();
  if (auto it = j.find("version"); it != j.end()) {
    if (!it->is_number_integer() && !it->is_number_unsigned()) return jsonr::type_error("version", "the integer 1", *it);
    if (it->get<std::int64_t>() != kConfigVersion) {
      return make_error(ErrorCode::kUnsupportedVersion, "version: this build reads pipeline config version 1, got " + jsonr::describe(*it));
    }
  }
  if (auto it = j.find("chunker"); it != j.end()) RAGWASM_TRY(parse_chunker(*it, c.chunker));

  if (auto it = j.find("indexes"); it != j.end()) {
    RAGWASM_TRY(jsonr::expect_object(*it, "indexes", {"bm25", "dense"}));
    // Only the indexes listed are built.
    c.bm25.enabled = it->contains("bm25");
    c.dense.enabled = it->contains("dense");
    if (c.bm25.enabled) RAGWASM_TRY(parse_bm25((*it)["bm25"], c.bm25, c.deprecations));
    if (c.dense.enabled) RAGWASM_TRY(parse_dense((*it)["dense"], c.dense, c.deprecations));
    if (!c.bm25.enabled && !c.dense.enabled) {
      return make_error(ErrorCode::kInvalidArgument, "indexes: expected at least one of \"bm25\", \"dense\", got an empty object");
    }
  }
  std::vector<std::string> available;
  if (c.bm25.enabled) available.push_back("bm25");
  if (c.dense.enabled) available.push_back("dense");
  c.retrieval.retrievers = available;

  json fusion_json = json::object();
  if (auto it = j.find("retrieval"); it != j.end()) {
    const std::string p = "retrieval";
    RAGWASM_TRY(jsonr::expect_object(*it, p, {"retrievers", "k", "candidates", "fusion", "llmExpansion", "expansion", "filter"}));
    if (auto f = it->find("filter"); f != it->end() && !f->is_null()) {
      // The Bm25Index filter language, checked by its own parser; errors name retrieval.filter.
      auto checked = sparse::parse_search_options(json{{"filter", *f}}.dump(-1, ' ', false, json::error_handler_t::replace));
      if (!checked.ok()) {
        Error e = checked.error();
        if (auto at = e.message.find("search options.filter"); at != std::string::npos) e.message.replace(at, 21, "retrieval.filter");
        return e;
      }
      c.retrieval.filter_json = f->dump(-1, ' ', false, json::error_handler_t::replace);
    }
    if (auto r = it->find("retrievers"); r != it->end()) {
      RAGWASM_TRY(jsonr::array(*r, "retrieval.retrievers"));
      if (r->empty()) return make_error(ErrorCode::kInvalidArgument, "retrieval.retrievers: expected at least one index name, got an array of 0");
      c.retrieval.retrievers.clear();
      for (std::size_t i = 0; i < r->size(); ++i) {
        const std::string ip = jsonr::index_path("retrieval.retrievers", i);
        auto name = jsonr::one_of((*r)[i], ip, {"bm25", "dense"});
        if (!name.ok()) return name.error();
        bool configured = false;
        for (const auto& a : available) configured = configured || a == name.value();
        if (!configured) {
          std::string list;
          for (const auto& a : available) list += (list.empty() ? "" : ", ") + a;
          return make_error(ErrorCode::kNotFound, ip + ": index \"" + name.value() + "\" is not configured in indexes (configured: " + list + ")");
        }
        for (const auto& prev : c.retrieval.retrievers) {
          if (prev == name.value()) return make_error(ErrorCode::kInvalidArgument, ip + ": \"" + prev + "\" is listed twice");
        }
        c.retrieval.retrievers.push_back(name.value());
      }
    }
    // k 0 = no retrieval: the answerer gets no context (the closed-book baseline of experiments).
    RAGWASM_TRY(opt_size(*it, p, "k", c.retrieval.k, 0, 100000));
    RAGWASM_TRY(opt_size(*it, p, "candidates", c.retrieval.candidates, 1, 1000000));
    if (c.retrieval.candidates < c.retrieval.k) {
      return make_error(ErrorCode::kInvalidArgument, "retrieval.candidates: expected >= retrieval.k (" + std::to_string(c.retrieval.k) +
                                                         "), got " + std::to_string(c.retrieval.candidates));
    }
    if (auto f = it->find("fusion"); f != it->end()) fusion_json = *f;
    if (auto e = it->find("llmExpansion"); e != it->end()) RAGWASM_TRY(parse_llm_expansion(*e, c.retrieval));
    if (auto x = it->find("expansion"); x != it->end()) RAGWASM_TRY(parse_expansion(*x, c));
  }
  const std::string fp = "retrieval.fusion";
  RAGWASM_TRY(jsonr::expect_object(fusion_json, fp, {"mode", "normalization", "weights", "rrfK", "primary", "legCheck", "k"}));
  RAGWASM_TRY(read_old_name(fusion_json, fp, "k", "rrfK", c.deprecations, same_value));
  // The fusion module's JSON calls the RRF constant "k" (docs/fusion.md "JSON requests").
  json fusion_request = fusion_json;
  if (auto r = fusion_json.find("rrfK"); r != fusion_json.end()) {
    auto v = jsonr::number(*r, jsonr::key_path(fp, "rrfK"), 0.0);
    if (!v.ok()) return v.error();
    fusion_request.erase("rrfK");
    fusion_request["k"] = v.value();
  }
  auto fo = fusion::options_from_json(fusion_request, fp, c.retrieval.retrievers.size());
  if (!fo.ok()) return fo.error();
  c.retrieval.fusion = fo.value();
  c.retrieval.fusion_mode = fusion_json.contains("mode") ? fusion_json["mode"].get<std::string>() : "hybrid";
  // On for the documented default weighting only: explicit weights are the caller's decision.
  c.retrieval.leg_check = c.retrieval.fusion_mode == "hybrid" && c.retrieval.retrievers.size() > 1 && !fusion_json.contains("weights");
  RAGWASM_TRY(opt_bool(fusion_json, fp, "legCheck", c.retrieval.leg_check));

  if (auto it = j.find("rerank"); it != j.end()) {
    const std::string p = "rerank";
    RAGWASM_TRY(jsonr::expect_object(*it, p, {"enabled", "type", "model", "candidates", "keep"}));
    c.rerank.enabled = true;  // a rerank section turns reranking on unless "enabled": false
    RAGWASM_TRY(opt_bool(*it, p, "enabled", c.rerank.enabled));
    RAGWASM_TRY(opt_enum(*it, p, "type", c.rerank.type, {"cross-encoder", "llm", "custom"}));
    RAGWASM_TRY(opt_string(*it, p, "model", c.rerank.model));
    RAGWASM_TRY(opt_size(*it, p, "candidates", c.rerank.candidates, 1, 100000));
    RAGWASM_TRY(opt_size(*it, p, "keep", c.rerank.keep, 1, 100000));
    if (c.rerank.keep > c.rerank.candidates) {
      return make_error(ErrorCode::kInvalidArgument, "rerank.keep: expected <= rerank.candidates (" + std::to_string(c.rerank.candidates) +
                                                         "), got " + std::to_string(c.rerank.keep));
    }
  }
  if (auto it = j.find("assembly"); it != j.end()) {
    const std::string p = "assembly";
    RAGWASM_TRY(jsonr::expect_object(*it, p, {"tokenBudget", "order", "maxChunks", "docContext", "tokenCount"}));
    RAGWASM_TRY(opt_size(*it, p, "tokenBudget", c.assembly.token_budget, 1, 100000000));
    RAGWASM_TRY(opt_enum(*it, p, "order", c.assembly.order, {"score", "ends"}));
    RAGWASM_TRY(opt_size(*it, p, "maxChunks", c.assembly.max_chunks, 0, 100000000));
    if (auto d = it->find("docContext"); d != it->end() && d->is_boolean()) {
      c.assembly.doc_context = d->get<bool>() ? "chunker" : "none";  // the format before issue 32
    } else {
      RAGWASM_TRY(opt_enum(*it, p, "docContext", c.assembly.doc_context, {"none", "title", "chunker"}));
    }
    RAGWASM_TRY(opt_enum(*it, p, "tokenCount", c.assembly.token_count, {"estimate", "wordpiece"}));
  }
  if (auto it = j.find("answerer"); it != j.end()) {
    const std::string p = "answerer";
    RAGWASM_TRY(jsonr::expect_object(*it, p, {"type", "chunks", "threshold", "maxSentences"}));
    RAGWASM_TRY(opt_enum(*it, p, "type", c.answerer.type, {"extractive", "llm", "none"}));
    RAGWASM_TRY(opt_size(*it, p, "chunks", c.answerer.chunks, 1, 1000));
    RAGWASM_TRY(opt_number(*it, p, "threshold", c.answerer.threshold, 0.0, 1.0));
    RAGWASM_TRY(opt_size(*it, p, "maxSentences", c.answerer.max_sentences, 1, 32));
  }
  if (auto it = j.find("judges"); it != j.end()) {
    RAGWASM_TRY(jsonr::expect_object(*it, "judges", {"triad"}));
    RAGWASM_TRY(opt_bool(*it, "judges", "triad", c.judges.triad));
    c.judges.set = true;
  }
  return c;
}

std::string to_json(const PipelineConfig& c) {
  json indexes = json::object();
  if (c.bm25.enabled) {
    // options_json was written by parse_bm25 (the normalized Bm25Index options).
    json bm25 = c.bm25.options_json.empty() ? json::object() : json::parse(c.bm25.options_json, nullptr, false);
    if (!bm25.is_object()) bm25 = json::object();
    json fields = json::array();
    for (const auto& f : c.bm25.fields) fields.push_back({{"name", f.name}, {"boost", f.boost}});
    bm25["fields"] = fields;
    bm25["scorer"] = c.bm25.scorer;
    bm25["k1"] = c.bm25.k1;
    bm25["b"] = c.bm25.b;
    if (!bm25.contains("analyzer")) bm25["analyzer"] = {{"stemmer", "porter2"}, {"stopwords", "lucene"}};
    indexes["bm25"] = bm25;
  }
  if (c.dense.enabled) {
    json dense = {{"model", c.dense.model}, {"metric", c.dense.metric}, {"index", c.dense.index}, {"storage", c.dense.storage},
                  {"binaryRescore", c.dense.binary_rescore},
                  {"hnsw", {{"M", c.dense.hnsw_m}, {"efConstruction", c.dense.hnsw_ef_construction}, {"efSearch", c.dense.hnsw_ef_search},
                            {"seed", c.dense.hnsw_seed}}}};
    if (c.dense.dimension != 0) dense["dimension"] = c.dense.dimension;
    indexes["dense"] = dense;
  }
  // options_json was cut from a config that passed the depth check, so it nests less deeply.
  json chunker = json::parse(c.chunker.options_json, nullptr, false);
  if (!chunker.is_object()) chunker = json::object();
  chunker["strategy"] = c.chunker.strategy;
  chunker["chunkSize"] = c.chunker.chunk_size;
  chunker["chunkOverlap"] = c.chunker.chunk_overlap;
  chunker["unit"] = c.chunker.unit;
  json fusion = fusion::options_to_json(c.retrieval.fusion);
  fusion.erase("topK");
  if (auto k = fusion.find("k"); k != fusion.end()) {
    fusion["rrfK"] = *k;
    fusion.erase("k");
  }
  fusion["legCheck"] = c.retrieval.leg_check;
  json out = {
      {"version", c.version},
      {"chunker", chunker},
      {"indexes", indexes},
      {"retrieval", {{"retrievers", c.retrieval.retrievers}, {"k", c.retrieval.k}, {"candidates", c.retrieval.candidates}, {"fusion", fusion}}},
      {"rerank", {{"enabled", c.rerank.enabled}, {"type", c.rerank.type}, {"candidates", c.rerank.candidates}, {"keep", c.rerank.keep}}},
      {"assembly", {{"tokenBudget", c.assembly.token_budget}, {"order", c.assembly.order}, {"maxChunks", c.assembly.max_chunks},
                    // "chunker" / "none" as the booleans of saved format 3 (a saved collection's header holds this JSON:
                    // its bytes stay those of the fixtures); the other values as their names
                    {"docContext", c.assembly.doc_context == "chunker" ? json(true)
                                   : c.assembly.doc_context == "none" ? json(false) : json(c.assembly.doc_context)},
                    {"tokenCount", c.assembly.token_count}}},
      {"answerer", {{"type", c.answerer.type}, {"chunks", c.answerer.chunks}, {"threshold", c.answerer.threshold},
                    {"maxSentences", c.answerer.max_sentences}}},
  };
  if (!c.rerank.model.empty()) out["rerank"]["model"] = c.rerank.model;
  if (c.retrieval.expansion.enabled) {
    const ExpansionConfig& x = c.retrieval.expansion;
    json e = {{"source", x.source}, {"perTerm", x.per_term}, {"minSimilarity", x.min_similarity}, {"weight", x.weight}, {"unmatchedOnly", x.unmatched_only}, {"maxWords", x.max_words}};
    if (!x.model.empty()) e["model"] = x.model;
    out["retrieval"]["expansion"] = e;
  }
  if (c.judges.set) out["judges"] = {{"triad", c.judges.triad}};
  if (!c.retrieval.filter_json.empty()) out["retrieval"]["filter"] = json::parse(c.retrieval.filter_json, nullptr, false);
  if (!c.retrieval.llm_expansion.empty()) {
    out["retrieval"]["llmExpansion"] = {{"mode", c.retrieval.llm_expansion}, {"maxTokens", c.retrieval.llm_expansion_max_tokens}};
  }
  return out.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace ragwasm::pipeline
