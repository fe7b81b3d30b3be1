// Strict JSON pipeline config parsing (see config.h).
#include "pipeline/config.h"

#include <algorithm>

#include "fusion/fusion_json.h"
#include "common/json_reader.h"

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
    RAGWASM_TRY(jsonr::expect_object(*it, cp, {"template", "summary", "separator", "headerPath"}));
    for (const char* key : {"template", "summary", "separator"}) {
      if (auto t = it->find(key); t != it->end() && !t->is_string()) return jsonr::type_error(jsonr::key_path(cp, key), "a string", *t);
    }
    RAGWASM_TRY(opt_bool(*it, cp, "headerPath", c.context_header_path));
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
                                                 "maxChunkSize", "bufferSize", "batchSize"}));
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

Status parse_bm25(const json& j, Bm25Config& c) {
  const std::string p = "indexes.bm25";
  RAGWASM_TRY(jsonr::expect_object(j, p, {"variant", "k1", "b", "stemmer", "stopwords", "fields"}));
  RAGWASM_TRY(opt_enum(j, p, "variant", c.variant, {"bm25", "bm25l", "bm25+"}));
  RAGWASM_TRY(opt_number(j, p, "k1", c.k1, 0.0, 100.0));
  RAGWASM_TRY(opt_number(j, p, "b", c.b, 0.0, 1.0));
  RAGWASM_TRY(opt_enum(j, p, "stemmer", c.stemmer, {"porter2", "none"}));
  RAGWASM_TRY(opt_bool(j, p, "stopwords", c.stopwords));
  if (auto it = j.find("fields"); it != j.end()) {
    const std::string fp = p + ".fields";
    if (!it->is_object()) return jsonr::type_error(fp, "an object {name: boost}, e.g. {\"text\": 1, \"title\": 2}", *it);
    if (it->empty() || it->size() > 16) {
      return make_error(ErrorCode::kInvalidArgument, fp + ": expected 1 to 16 fields, got " + std::to_string(it->size()));
    }
    c.fields.clear();
    bool has_text = false;
    for (auto f = it->begin(); f != it->end(); ++f) {
      const std::string name = f.key();
      const std::string np = jsonr::key_path(fp, name.c_str());
      if (name.empty() || name.size() > 256 || name == "id" || name == "metadata") {
        return make_error(ErrorCode::kInvalidArgument, np + ": expected a field name of 1 to 256 bytes other than \"id\" and \"metadata\"");
      }
      auto boost = jsonr::number(f.value(), np, 1e-9, 1e6);
      if (!boost.ok()) return boost.error();
      c.fields.push_back({name, boost.value()});
      has_text = has_text || name == "text";
    }
    if (!has_text) return make_error(ErrorCode::kInvalidArgument, fp + ": expected a \"text\" field (the chunk text), got none");
  }
  return Status::success();
}

Status parse_dense(const json& j, DenseConfig& c) {
  const std::string p = "indexes.dense";
  RAGWASM_TRY(jsonr::expect_object(j, p, {"model", "metric", "index", "quantization", "hnsw"}));
  RAGWASM_TRY(opt_string(j, p, "model", c.model));
  RAGWASM_TRY(opt_enum(j, p, "metric", c.metric, {"cosine", "dot", "l2"}));
  RAGWASM_TRY(opt_enum(j, p, "index", c.index, {"flat", "hnsw"}));
  RAGWASM_TRY(opt_enum(j, p, "quantization", c.quantization, {"none", "int8"}));
  if (auto it = j.find("hnsw"); it != j.end()) {
    const std::string hp = p + ".hnsw";
    RAGWASM_TRY(jsonr::expect_object(*it, hp, {"m", "efConstruction", "efSearch"}));
    RAGWASM_TRY(opt_size(*it, hp, "m", c.hnsw_m, 2, 256));
    RAGWASM_TRY(opt_size(*it, hp, "efConstruction", c.hnsw_ef_construction, 1, 100000));
    RAGWASM_TRY(opt_size(*it, hp, "efSearch", c.hnsw_ef_search, 1, 100000));
  }
  return Status::success();
}

}  // namespace

PipelineConfig default_config() {
  PipelineConfig c;
  c.retrieval.retrievers = {"bm25", "dense"};
  c.retrieval.fusion = fusion::default_hybrid_options(2);
  return c;
}

Result<PipelineConfig> parse_config(std::string_view text) {
  auto pj = jsonr::parse(text, "pipeline config");
  if (!pj.ok()) return pj.error();
  const json& j = pj.value();
  RAGWASM_TRY(jsonr::expect_object(j, "", {"version", "chunker", "indexes", "retrieval", "rerank", "assembly", "answerer"}));
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
    if (c.bm25.enabled) RAGWASM_TRY(parse_bm25((*it)["bm25"], c.bm25));
    if (c.dense.enabled) RAGWASM_TRY(parse_dense((*it)["dense"], c.dense));
    if (!c.bm25.enabled && !c.dense.enabled) {
      return make_error(ErrorCode::kInvalidArgument, "indexes: expected at least one of \"bm25\", \"dense\", got an empty object");
    }
  }
  std::vector<std::string> available;
  if (c.bm25.enabled) available.push_back("bm25");
  if (c.dense.enabled) available.push_back("dense");
  c.retrieval.retrievers = available;

  const json empty = json::object();
  const json* fusion_json = &empty;
  if (auto it = j.find("retrieval"); it != j.end()) {
    const std::string p = "retrieval";
    RAGWASM_TRY(jsonr::expect_object(*it, p, {"retrievers", "k", "candidates", "fusion"}));
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
    if (auto f = it->find("fusion"); f != it->end()) fusion_json = &*f;
  }
  RAGWASM_TRY(jsonr::expect_object(*fusion_json, "retrieval.fusion", {"mode", "normalization", "weights", "k", "primary", "legCheck"}));
  auto fo = fusion::options_from_json(*fusion_json, "retrieval.fusion", c.retrieval.retrievers.size());
  if (!fo.ok()) return fo.error();
  c.retrieval.fusion = fo.value();
  c.retrieval.fusion_mode = fusion_json->contains("mode") ? (*fusion_json)["mode"].get<std::string>() : "hybrid";
  // On for the documented default weighting only: explicit weights are the caller's decision.
  c.retrieval.leg_check = c.retrieval.fusion_mode == "hybrid" && c.retrieval.retrievers.size() > 1 && !fusion_json->contains("weights");
  RAGWASM_TRY(opt_bool(*fusion_json, "retrieval.fusion", "legCheck", c.retrieval.leg_check));

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
    RAGWASM_TRY(opt_bool(*it, p, "docContext", c.assembly.doc_context));
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
  return c;
}

std::string to_json(const PipelineConfig& c) {
  json indexes = json::object();
  if (c.bm25.enabled) {
    json fields = json::object();
    for (const auto& f : c.bm25.fields) fields[f.name] = f.boost;
    indexes["bm25"] = {{"variant", c.bm25.variant}, {"k1", c.bm25.k1}, {"b", c.bm25.b}, {"stemmer", c.bm25.stemmer}, {"stopwords", c.bm25.stopwords},
                       {"fields", fields}};
  }
  if (c.dense.enabled) {
    indexes["dense"] = {{"model", c.dense.model}, {"metric", c.dense.metric}, {"index", c.dense.index}, {"quantization", c.dense.quantization},
                        {"hnsw", {{"m", c.dense.hnsw_m}, {"efConstruction", c.dense.hnsw_ef_construction}, {"efSearch", c.dense.hnsw_ef_search}}}};
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
  fusion["legCheck"] = c.retrieval.leg_check;
  json out = {
      {"version", c.version},
      {"chunker", chunker},
      {"indexes", indexes},
      {"retrieval", {{"retrievers", c.retrieval.retrievers}, {"k", c.retrieval.k}, {"candidates", c.retrieval.candidates}, {"fusion", fusion}}},
      {"rerank", {{"enabled", c.rerank.enabled}, {"type", c.rerank.type}, {"candidates", c.rerank.candidates}, {"keep", c.rerank.keep}}},
      {"assembly", {{"tokenBudget", c.assembly.token_budget}, {"order", c.assembly.order}, {"maxChunks", c.assembly.max_chunks},
                    {"docContext", c.assembly.doc_context}, {"tokenCount", c.assembly.token_count}}},
      {"answerer", {{"type", c.answerer.type}, {"chunks", c.answerer.chunks}, {"threshold", c.answerer.threshold},
                    {"maxSentences", c.answerer.max_sentences}}},
  };
  if (!c.rerank.model.empty()) out["rerank"]["model"] = c.rerank.model;
  return out.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace ragwasm::pipeline
