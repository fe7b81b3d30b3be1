// src/pipeline/config: the JSON pipeline config, its defaults and its path-named errors, as a spec.
#include <catch2/catch.hpp>

#include <string>

#include "pipeline/config.h"

using namespace ragwasm;
using namespace ragwasm::pipeline;

namespace {
std::string error_of(const std::string& json) {
  auto r = parse_config(json);
  REQUIRE_FALSE(r.ok());
  return r.error().message;
}
ErrorCode code_of(const std::string& json) {
  auto r = parse_config(json);
  REQUIRE_FALSE(r.ok());
  return r.error().code;
}
}  // namespace

TEST_CASE("an empty config is the default hybrid pipeline", "[unit]") {
  auto r = parse_config("{}");
  REQUIRE(r.ok());
  const auto& c = r.value();
  REQUIRE(c.bm25.enabled);
  REQUIRE(c.dense.enabled);
  REQUIRE(c.retrieval.retrievers == std::vector<std::string>{"bm25", "dense"});
  REQUIRE(c.retrieval.fusion.mode == fusion::Mode::kConvex);
  REQUIRE(c.retrieval.fusion.weights == std::vector<double>{0.7, 0.3});
  REQUIRE(c.retrieval.fusion_mode == "hybrid");
  REQUIRE(c.retrieval.k == 10);
  REQUIRE(c.retrieval.candidates == 100);
  REQUIRE(c.chunker.strategy == "recursive");
  REQUIRE(c.chunker.chunk_size == 1000);
  REQUIRE(c.chunker.chunk_overlap == 200);
  REQUIRE_FALSE(c.rerank.enabled);
  REQUIRE(c.assembly.token_budget == 2000);
  REQUIRE(c.assembly.order == "score");
}

TEST_CASE("a full config is read into the structs", "[unit]") {
  auto r = parse_config(R"({
    "version": 1,
    "chunker": {"strategy": "sentence", "chunkSize": 400, "chunkOverlap": 0, "unit": "tokens", "newlineBreaks": true},
    "indexes": {"bm25": {"k1": 1.2, "b": 0.75, "analyzer": {"stemmer": "none"}},
                "dense": {"model": "minilm", "index": "hnsw", "hnsw": {"M": 32, "efSearch": 100}}},
    "retrieval": {"retrievers": ["dense", "bm25"], "k": 5, "candidates": 50,
                  "fusion": {"mode": "rrf", "weights": [1, 2], "rrfK": 20}},
    "rerank": {"type": "custom", "candidates": 30, "keep": 5},
    "assembly": {"tokenBudget": 1500, "order": "ends", "docContext": false}
  })");
  REQUIRE(r.ok());
  const auto& c = r.value();
  REQUIRE(c.chunker.strategy == "sentence");
  REQUIRE(c.chunker.chunk_size == 400);
  REQUIRE(c.chunker.unit == "tokens");
  REQUIRE(c.chunker.options_json.find("\"newlineBreaks\":true") != std::string::npos);
  REQUIRE(c.bm25.k1 == 1.2);
  REQUIRE(c.bm25.index_options.analyzer.stemmer == sparse::Stemmer::kNone);
  REQUIRE(c.deprecations.empty());
  REQUIRE(c.dense.index == "hnsw");
  REQUIRE(c.dense.hnsw_m == 32);
  REQUIRE(c.dense.hnsw_ef_search == 100);
  REQUIRE(c.dense.hnsw_ef_construction == 200);
  REQUIRE(c.retrieval.retrievers == std::vector<std::string>{"dense", "bm25"});
  REQUIRE(c.retrieval.fusion.mode == fusion::Mode::kRrf);
  REQUIRE(c.retrieval.fusion.weights == std::vector<double>{1, 2});
  REQUIRE(parse_config(R"({"retrieval": {"fusion": {"mode": "rrf"}}})").value().retrieval.fusion.weights == std::vector<double>{1, 1});
  REQUIRE(c.retrieval.fusion.rrf_k == 20);
  REQUIRE(c.rerank.enabled);
  REQUIRE(c.rerank.type == "custom");
  REQUIRE(c.rerank.keep == 5);
  REQUIRE(c.assembly.order == "ends");
  REQUIRE(c.assembly.doc_context == "none");  // the boolean of the old format: false = none
}

TEST_CASE("assembly docContext names what the answer prompt puts before each chunk (issue 32)", "[unit]") {
  REQUIRE(parse_config("{}").value().assembly.doc_context == "chunker");
  REQUIRE(parse_config(R"({"assembly": {"docContext": "title"}})").value().assembly.doc_context == "title");
  REQUIRE(parse_config(R"({"assembly": {"docContext": true}})").value().assembly.doc_context == "chunker");
  auto bad = parse_config(R"({"assembly": {"docContext": "summary"}})");
  REQUIRE_FALSE(bad.ok());
  REQUIRE(bad.error().message.find("assembly.docContext") != std::string::npos);
}

TEST_CASE("listing only the bm25 index makes a bm25-only pipeline", "[unit]") {
  auto r = parse_config(R"({"indexes": {"bm25": {}}})");
  REQUIRE(r.ok());
  REQUIRE_FALSE(r.value().dense.enabled);
  REQUIRE(r.value().retrieval.retrievers == std::vector<std::string>{"bm25"});
  REQUIRE(r.value().retrieval.fusion.weights == std::vector<double>{1.0});
}

TEST_CASE("wrong types and unknown keys name the JSON path", "[unit]") {
  REQUIRE(error_of(R"({"retrieval": {"fusion": {"weights": [1, -1]}}})") ==
          "ragwasm: retrieval.fusion.weights[1]: expected a number >= 0, got -1");
  REQUIRE(error_of(R"({"retrieval": {"fusion": {"weights": [1, "x"]}}})") ==
          "ragwasm: retrieval.fusion.weights[1]: expected a number, got \"x\"");
  REQUIRE(error_of(R"({"retrieval": {"fusion": {"weights": [1]}}})") ==
          "ragwasm: retrieval.fusion.weights: expected 2 weights (one per list), got 1");
  REQUIRE(error_of(R"({"retrieval": {"k": "10"}})") == "ragwasm: retrieval.k: expected an integer in [0, 100000], got \"10\"");
  REQUIRE(error_of(R"({"retrieval": {"k": 2.5}})").find("retrieval.k: expected an integer") != std::string::npos);
  REQUIRE(error_of(R"({"retreival": {}})").find("retreival: unknown key") != std::string::npos);
  REQUIRE(error_of(R"({"indexes": {"bm25": {"k3": 1}}})").find("indexes.bm25.k3: unknown key") != std::string::npos);
  REQUIRE(error_of(R"({"indexes": {"dense": {"hnsw": {"M": 1}}}})") == "ragwasm: indexes.dense.hnsw.M: expected an integer in [2, 128], got 1");
  REQUIRE(error_of(R"({"indexes": {"dense": {"hnsw": {"m": 1}}}})") == "ragwasm: indexes.dense.hnsw.m: expected an integer in [2, 128], got 1");
  REQUIRE(error_of(R"({"assembly": {"order": "middle"}})") == "ragwasm: assembly.order: expected one of \"score\", \"ends\", got \"middle\"");
  REQUIRE(error_of(R"({"chunker": []})") == "ragwasm: chunker: expected an object, got an array of 0");
  REQUIRE(error_of("[]").find("(root): expected an object") != std::string::npos);
  REQUIRE(code_of(R"({"retrieval": {"k": -1}})") == ErrorCode::kInvalidArgument);
}

TEST_CASE("the chunk overlap defaults to a fifth of the size up to 200", "[unit]") {
  REQUIRE(parse_config(R"({"chunker": {"chunkSize": 60}})").value().chunker.chunk_overlap == 12);
  REQUIRE(parse_config(R"({"chunker": {"chunkSize": 5000}})").value().chunker.chunk_overlap == 200);
  REQUIRE(parse_config(R"({"chunker": {"chunkSize": 4}})").value().chunker.chunk_overlap == 0);
}

TEST_CASE("inconsistent settings are rejected", "[unit]") {
  REQUIRE(error_of(R"({"chunker": {"chunkSize": 100, "chunkOverlap": 100}})") ==
          "ragwasm: chunker.chunkOverlap: expected less than chunker.chunkSize (100), got 100");
  REQUIRE(error_of(R"({"retrieval": {"k": 20, "candidates": 10}})") ==
          "ragwasm: retrieval.candidates: expected >= retrieval.k (20), got 10");
  REQUIRE(error_of(R"({"rerank": {"candidates": 5, "keep": 10}})") == "ragwasm: rerank.keep: expected <= rerank.candidates (5), got 10");
  REQUIRE(error_of(R"({"indexes": {}})").find("indexes: expected at least one") != std::string::npos);
  REQUIRE(error_of(R"({"retrieval": {"retrievers": []}})").find("retrieval.retrievers: expected at least one") != std::string::npos);
  REQUIRE(error_of(R"({"retrieval": {"retrievers": ["bm25", "bm25"]}})").find("listed twice") != std::string::npos);
  REQUIRE(error_of(R"({"retrieval": {"fusion": {"mode": "convex", "weights": [0, 0]}}})").find("at least one weight > 0") != std::string::npos);
}

TEST_CASE("a retriever naming a missing index is NOT_FOUND", "[unit]") {
  auto r = parse_config(R"({"indexes": {"bm25": {}}, "retrieval": {"retrievers": ["bm25", "dense"]}})");
  REQUIRE(r.error().code == ErrorCode::kNotFound);
  REQUIRE(r.error().message == "ragwasm: retrieval.retrievers[1]: index \"dense\" is not configured in indexes (configured: bm25)");
}

TEST_CASE("malformed JSON and other versions are reported as such", "[unit]") {
  auto p = parse_config("{\"retrieval\": ");
  REQUIRE(p.error().code == ErrorCode::kParseError);
  REQUIRE(p.error().message.find("at byte") != std::string::npos);
  REQUIRE(code_of(R"({"version": 2})") == ErrorCode::kUnsupportedVersion);
  REQUIRE(code_of(R"({"version": "1"})") == ErrorCode::kInvalidArgument);
  REQUIRE(parse_config(R"({"version": 1})").ok());
}

TEST_CASE("the normalized JSON round-trips", "[unit]") {
  for (const char* src : {"{}", R"({"retrieval": {"fusion": {"mode": "rrf"}}})", R"({"indexes": {"dense": {"index": "hnsw"}}, "rerank": {"model": "m"}, "assembly": {"order": "ends"}})",
                          R"({"chunker": {"strategy": "fixed", "chunkSize": 64, "chunkOverlap": 8, "strict": true},
                              "retrieval": {"fusion": {"mode": "convex", "normalization": "zscore", "weights": [0.4, 0.6]}}})"}) {
    INFO(src);
    auto a = parse_config(src);
    REQUIRE(a.ok());
    const std::string j = to_json(a.value());
    auto b = parse_config(j);
    REQUIRE(b.ok());
    REQUIRE(to_json(b.value()) == j);
    REQUIRE(b.value().retrieval.fusion.weights == a.value().retrieval.fusion.weights);
    REQUIRE(b.value().retrieval.fusion.mode == a.value().retrieval.fusion.mode);
  }
}

TEST_CASE("the leg check is on for the default hybrid and off for explicit fusion modes", "[unit]") {
  REQUIRE(default_config().retrieval.leg_check);
  REQUIRE(parse_config("{}").value().retrieval.leg_check);
  REQUIRE(parse_config(R"({"retrieval": {"fusion": {"mode": "hybrid"}}})").value().retrieval.leg_check);
  REQUIRE_FALSE(parse_config(R"({"retrieval": {"fusion": {"mode": "rrf"}}})").value().retrieval.leg_check);
  REQUIRE_FALSE(parse_config(R"({"retrieval": {"fusion": {"legCheck": false}}})").value().retrieval.leg_check);
  REQUIRE_FALSE(parse_config(R"({"retrieval": {"fusion": {"weights": [0.5, 0.5]}}})").value().retrieval.leg_check);
  REQUIRE_FALSE(parse_config(to_json(parse_config(R"({"retrieval": {"fusion": {"legCheck": false}}})").value())).value().retrieval.leg_check);
  REQUIRE(parse_config(R"({"retrieval": {"fusion": {"mode": "convex", "legCheck": true}}})").value().retrieval.leg_check);
  // One retriever: nothing to check against.
  REQUIRE_FALSE(parse_config(R"({"indexes": {"bm25": {}}})").value().retrieval.leg_check);
  REQUIRE(to_json(parse_config("{}").value()).find("\"legCheck\":true") != std::string::npos);
  auto bad = parse_config(R"({"retrieval": {"fusion": {"legCheck": "yes"}}})");
  REQUIRE_FALSE(bad.ok());
  REQUIRE(bad.error().message.find("retrieval.fusion.legCheck") != std::string::npos);
}

TEST_CASE("#14 bm25 fields default to title and text with boost 1", "[unit]") {
  auto c = parse_config("{}");
  REQUIRE(c.ok());
  REQUIRE(c.value().bm25.fields.size() == 2);
  REQUIRE(c.value().bm25.fields[0].name == "text");
  REQUIRE(c.value().bm25.fields[0].boost == 1.0);
  REQUIRE(c.value().bm25.fields[1].name == "title");
  REQUIRE(c.value().bm25.fields[1].boost == 1.0);
  REQUIRE(to_json(c.value()).find(R"("fields":[{"boost":1.0,"name":"text"},{"boost":1.0,"name":"title"}])") != std::string::npos);
}

TEST_CASE("#14 bm25 fields with boosts are read and round-trip", "[unit]") {
  auto c = parse_config(R"({"indexes": {"bm25": {"fields": {"text": 1, "title": 2.5, "summary": 0.5}}}})");
  REQUIRE(c.ok());
  const auto& f = c.value().bm25.fields;
  REQUIRE(f.size() == 3);
  // nlohmann's object keeps keys sorted: summary, text, title
  REQUIRE(f[0].name == "summary");
  REQUIRE(f[0].boost == 0.5);
  REQUIRE(f[2].name == "title");
  REQUIRE(f[2].boost == 2.5);
  auto again = parse_config(to_json(c.value()));
  REQUIRE(again.ok());
  REQUIRE(to_json(again.value()) == to_json(c.value()));
}

TEST_CASE("#14 bad bm25 fields name the JSON path", "[unit]") {
  REQUIRE(error_of(R"({"indexes": {"bm25": {"fields": "text"}}})").find("indexes.bm25.fields: expected an array of fields") != std::string::npos);
  REQUIRE(error_of(R"({"indexes": {"bm25": {"fields": ["title"]}}})") ==
          "ragwasm: indexes.bm25.fields: expected a \"text\" field (the chunk text), got none");
  REQUIRE(error_of(R"({"indexes": {"bm25": {"fields": ["text", {"name": "title", "boost": -1}]}}})").find("indexes.bm25.fields[1].boost: expected a number") !=
          std::string::npos);
  REQUIRE(error_of(R"({"indexes": {"bm25": {"fields": ["text", "text"]}}})") == "ragwasm: indexes.bm25.fields[1]: field \"text\" is listed twice");
  REQUIRE(error_of(R"({"indexes": {"bm25": {"fields": {}}}})") == "ragwasm: indexes.bm25.fields: expected 1 to 16 fields, got 0");
  REQUIRE(error_of(R"({"indexes": {"bm25": {"fields": {"title": 2}}}})") ==
          "ragwasm: indexes.bm25.fields: expected a \"text\" field (the chunk text), got none");
  REQUIRE(error_of(R"({"indexes": {"bm25": {"fields": {"text": 1, "title": 0}}}})").find("indexes.bm25.fields.title: expected a number") !=
          std::string::npos);
  REQUIRE(error_of(R"({"indexes": {"bm25": {"fields": {"text": 1, "title": "2"}}}})").find("indexes.bm25.fields.title") != std::string::npos);
  REQUIRE(error_of(R"({"indexes": {"bm25": {"fields": {"text": 1, "metadata": 1}}}})").find("indexes.bm25.fields.metadata: expected a field name") !=
          std::string::npos);
}

TEST_CASE("#14 every chunk strategy is accepted including markdown-header and semantic", "[unit]") {
  for (const char* s : {"fixed", "recursive", "markdown", "markdown-header", "sentence", "semantic"}) {
    INFO(s);
    auto c = parse_config(std::string(R"({"chunker": {"strategy": ")") + s + R"("}})");
    REQUIRE(c.ok());
    REQUIRE(c.value().chunker.strategy == s);
  }
  auto sem = parse_config(R"({"chunker": {"strategy": "semantic", "breakpoint": "gradient", "breakpointAmount": 90, "maxChunkSize": 800}})");
  REQUIRE(sem.ok());
  REQUIRE(to_json(sem.value()).find(R"("breakpoint":"gradient")") != std::string::npos);
  REQUIRE(error_of(R"({"chunker": {"strategy": "semantic", "breakpoint": "median"}})").find("chunker.breakpoint: expected one of") !=
          std::string::npos);
  REQUIRE(error_of(R"({"chunker": {"strategy": "recursive", "bufferSize": 2}})") ==
          "ragwasm: chunker.bufferSize: only used by strategy \"semantic\", got strategy \"recursive\"");
}

TEST_CASE("#14 chunker context options are validated and kept", "[unit]") {
  auto c = parse_config(R"({"chunker": {"strategy": "markdown-header", "context": {"template": "{title}", "separator": "\n", "headerPath": true},
                            "sizeIncludesContext": true}})");
  REQUIRE(c.ok());
  REQUIRE(c.value().chunker.has_context);
  REQUIRE(c.value().chunker.context_header_path);
  const std::string j = to_json(c.value());
  REQUIRE(j.find(R"("context":{"headerPath":true,"separator":"\n","template":"{title}"})") != std::string::npos);
  REQUIRE(to_json(parse_config(j).value()) == j);
  REQUIRE(error_of(R"({"chunker": {"context": {"template": 3}}})") == "ragwasm: chunker.context.template: expected a string, got 3");
  REQUIRE(error_of(R"({"chunker": {"context": {"headerPath": "yes"}}})").find("chunker.context.headerPath") != std::string::npos);
  REQUIRE(error_of(R"({"chunker": {"context": {"chunkContexts": []}}})").find("chunker.context.chunkContexts: unknown key") != std::string::npos);
  REQUIRE(error_of(R"({"chunker": {"sizeIncludesContext": 1}})").find("chunker.sizeIncludesContext") != std::string::npos);
}

TEST_CASE("#16 chunker context LLM steps are validated with their JSON paths and kept", "[unit]") {
  auto c = parse_config(R"({"chunker": {"context": {"template": "{title}: {summary}", "llmSummary": {"maxTokens": 80},
                            "llmChunkContext": {"prompt": {"id": "p"}}}}})");
  REQUIRE(c.ok());
  const std::string j = to_json(c.value());
  REQUIRE(j.find(R"("llmSummary":{"maxTokens":80})") != std::string::npos);
  REQUIRE(j.find(R"("llmChunkContext":{"prompt":{"id":"p"}})") != std::string::npos);
  REQUIRE(to_json(parse_config(j).value()) == j);
  REQUIRE(error_of(R"({"chunker": {"context": {"llmSummary": true}}})") == "ragwasm: chunker.context.llmSummary: expected an object, got true");
  REQUIRE(error_of(R"({"chunker": {"context": {"llmSummary": {"maxTokens": 0}}}})").find("chunker.context.llmSummary.maxTokens: expected an integer") !=
          std::string::npos);
  REQUIRE(error_of(R"({"chunker": {"context": {"llmChunkContext": {"prompt": "x"}}}})") ==
          "ragwasm: chunker.context.llmChunkContext.prompt: expected a prompt template object, got \"x\"");
  REQUIRE(error_of(R"({"chunker": {"context": {"llmChunkContext": {"model": "x"}}}})").find("chunker.context.llmChunkContext.model: unknown key") !=
          std::string::npos);
  REQUIRE(error_of(R"({"chunker": {"context": {"summary": "s", "llmSummary": {}}}})").find("chunker.context.llmSummary: the LLM writes the summary") !=
          std::string::npos);
  REQUIRE(error_of(R"({"chunker": {"context": {"template": "{title}", "llmSummary": {}}}})").find("has no {summary} placeholder") != std::string::npos);
}

TEST_CASE("#16 the judges section: triad, kept only when given", "[unit]") {
  auto c = parse_config(R"({"judges": {"triad": true}})");
  REQUIRE(c.ok());
  REQUIRE(c.value().judges.triad);
  const std::string j = to_json(c.value());
  REQUIRE(j.find(R"("judges":{"triad":true})") != std::string::npos);
  REQUIRE(to_json(parse_config(j).value()) == j);
  REQUIRE(to_json(parse_config("{}").value()).find("judges") == std::string::npos);
  REQUIRE(error_of(R"({"judges": {"triad": 1}})").find("judges.triad") != std::string::npos);
  REQUIRE(error_of(R"({"judges": {"faithfulness": true}})").find("judges.faithfulness: unknown key") != std::string::npos);
}

TEST_CASE("#13 a one-retriever config needs no fusion weights", "[unit]") {
  for (const char* src : {R"({"indexes": {"bm25": {}}})", R"({"indexes": {"dense": {}}})",
                          R"({"indexes": {"bm25": {}, "dense": {}}, "retrieval": {"retrievers": ["dense"]}})",
                          R"({"indexes": {"bm25": {}}, "retrieval": {"fusion": {"mode": "rrf"}}})"}) {
    INFO(src);
    auto c = parse_config(src);
    REQUIRE(c.ok());
    REQUIRE(c.value().retrieval.retrievers.size() == 1);
    REQUIRE(c.value().retrieval.fusion.weights == std::vector<double>{1.0});
    REQUIRE_FALSE(c.value().retrieval.leg_check);
    REQUIRE(to_json(parse_config(to_json(c.value())).value()) == to_json(c.value()));
  }
}

TEST_CASE("#16 retrieval k 0 means no retrieval and is accepted", "[unit]") {
  auto c = parse_config(R"({"retrieval": {"k": 0}})");
  REQUIRE(c.ok());
  REQUIRE(c.value().retrieval.k == 0);
  REQUIRE(parse_config(to_json(c.value())).value().retrieval.k == 0);
}

TEST_CASE("#16 the answerer section is read validated and round-trips", "[unit]") {
  auto d = parse_config("{}").value();
  REQUIRE(d.answerer.type == "extractive");
  REQUIRE(d.answerer.chunks == 5);
  auto c = parse_config(R"({"answerer": {"type": "llm", "chunks": 3, "threshold": 0.5, "maxSentences": 4}})");
  REQUIRE(c.ok());
  REQUIRE(c.value().answerer.type == "llm");
  REQUIRE(c.value().answerer.chunks == 3);
  REQUIRE(c.value().answerer.threshold == 0.5);
  REQUIRE(c.value().answerer.max_sentences == 4);
  auto again = parse_config(to_json(c.value())).value();
  REQUIRE(again.answerer.type == "llm");
  REQUIRE(again.answerer.max_sentences == 4);
  REQUIRE(error_of(R"({"answerer": {"type": "abstractive"}})") ==
          "ragwasm: answerer.type: expected one of \"extractive\", \"llm\", \"none\", got \"abstractive\"");
  REQUIRE(error_of(R"({"answerer": {"chunks": 0}})") == "ragwasm: answerer.chunks: expected an integer in [1, 1000], got 0");
  REQUIRE(error_of(R"({"answerer": {"threshold": 1.5}})").find("answerer.threshold") != std::string::npos);
  REQUIRE(error_of(R"({"answerer": {"model": "x"}})").find("answerer.model: unknown key") != std::string::npos);
}

// #14: the config says what the index options say (docs/api.md), every index option is reachable.
TEST_CASE("#14 the bm25 section takes Bm25Index options by their own names", "[unit]") {
  auto r = parse_config(R"({"indexes": {"bm25": {"fields": [{"name": "text", "boost": 1}, "title"], "scorer": "bm25plus", "k1": 1.2, "b": 0.7,
                             "delta": 0.25, "analyzer": {"stemmer": "none", "stopwords": false, "cjkBigrams": false, "maxTokenBytes": 64}}}})");
  REQUIRE(r.ok());
  const auto& o = r.value().bm25.index_options;
  REQUIRE(o.scoring.scorer == sparse::Scorer::kBm25Plus);
  REQUIRE(o.scoring.k1 == 1.2);
  REQUIRE(o.scoring.b == 0.7);
  REQUIRE(o.scoring.delta == 0.25);
  REQUIRE(o.analyzer.stemmer == sparse::Stemmer::kNone);
  REQUIRE_FALSE(o.analyzer.use_stopwords);
  REQUIRE_FALSE(o.analyzer.cjk_bigrams);
  REQUIRE(o.analyzer.max_token_bytes == 64);
  REQUIRE(o.fields.size() == 2);
  REQUIRE(o.fields[1].name == "title");
  REQUIRE(r.value().deprecations.empty());
  const std::string j = to_json(r.value());
  REQUIRE(j.find(R"("scorer":"bm25plus")") != std::string::npos);
  REQUIRE(j.find(R"("delta":0.25)") != std::string::npos);
  REQUIRE(to_json(parse_config(j).value()) == j);
  // errors come from the index's own option parser, under the config's path
  REQUIRE(error_of(R"({"indexes": {"bm25": {"scorer": "okapi"}}})").find("indexes.bm25.scorer: expected one of 'lucene'") != std::string::npos);
  REQUIRE(error_of(R"({"indexes": {"bm25": {"analyzer": {"stem": 1}}}})").find("indexes.bm25.analyzer: unknown option 'stem'") != std::string::npos);
}

TEST_CASE("#14 the dense section takes VectorIndex options by their own names", "[unit]") {
  auto r = parse_config(R"({"indexes": {"dense": {"dimension": 384, "metric": "dot", "storage": "binary", "binaryRescore": "f32",
                             "hnsw": {"M": 8, "efConstruction": 50, "efSearch": 20, "seed": 7}}}})");
  REQUIRE(r.ok());
  const auto& d = r.value().dense;
  REQUIRE(d.dimension == 384);
  REQUIRE(d.storage == "binary");
  REQUIRE(d.binary_rescore == "f32");
  REQUIRE(d.hnsw_m == 8);
  REQUIRE(d.hnsw_seed == 7);
  const std::string j = to_json(r.value());
  REQUIRE(j.find(R"("hnsw":{"M":8,"efConstruction":50,"efSearch":20,"seed":7})") != std::string::npos);
  REQUIRE(j.find(R"("dimension":384)") != std::string::npos);
  REQUIRE(to_json(parse_config(j).value()) == j);
  REQUIRE(to_json(parse_config("{}").value()).find(R"("dimension")") == std::string::npos);
  REQUIRE(error_of(R"({"indexes": {"dense": {"storage": "binary", "index": "hnsw"}}})").find("indexes.dense.storage: \"binary\" works with index \"flat\" only") !=
          std::string::npos);
  REQUIRE(error_of(R"({"indexes": {"dense": {"dimension": 0}}})") == "ragwasm: indexes.dense.dimension: expected an integer in [1, 8192], got 0");
}

TEST_CASE("#14 the RRF constant is rrfK and retrieval k is a result count", "[unit]") {
  auto r = parse_config(R"({"retrieval": {"k": 7, "fusion": {"mode": "rrf", "rrfK": 30}}})");
  REQUIRE(r.ok());
  REQUIRE(r.value().retrieval.fusion.rrf_k == 30);
  REQUIRE(r.value().retrieval.k == 7);
  const std::string j = to_json(r.value());
  REQUIRE(j.find(R"("rrfK":30.0)") != std::string::npos);
  REQUIRE(j.find(R"("fusion":{"k")") == std::string::npos);
  REQUIRE(error_of(R"({"retrieval": {"fusion": {"rrfK": -1}}})") == "ragwasm: retrieval.fusion.rrfK: expected a number >= 0, got -1");
}

TEST_CASE("#14 old names give the same config plus one deprecation each", "[unit]") {
  auto old_names = parse_config(R"({"indexes": {"bm25": {"variant": "bm25l", "stemmer": "none", "stopwords": false, "fields": {"text": 1, "title": 2}},
                                    "dense": {"quantization": "int8", "index": "hnsw", "hnsw": {"m": 24}}},
                                    "retrieval": {"fusion": {"mode": "rrf", "k": 40}}})");
  auto new_names = parse_config(R"({"indexes": {"bm25": {"scorer": "bm25l", "analyzer": {"stemmer": "none", "stopwords": false},
                                                         "fields": [{"name": "text", "boost": 1}, {"name": "title", "boost": 2}]},
                                    "dense": {"storage": "int8", "index": "hnsw", "hnsw": {"M": 24}}},
                                    "retrieval": {"fusion": {"mode": "rrf", "rrfK": 40}}})");
  REQUIRE(old_names.ok());
  REQUIRE(new_names.ok());
  REQUIRE(to_json(old_names.value()) == to_json(new_names.value()));
  REQUIRE(new_names.value().deprecations.empty());
  const auto& d = old_names.value().deprecations;
  REQUIRE(d.size() == 6);
  auto has = [&](const char* path, const char* old_name, const char* new_name) {
    for (const auto& x : d) {
      if (x.path == path && x.old_name == old_name && x.new_name == new_name) return true;
    }
    return false;
  };
  REQUIRE(has("indexes.bm25", "variant", "scorer"));
  REQUIRE(has("indexes.bm25", "stemmer", "analyzer.stemmer"));
  REQUIRE(has("indexes.bm25", "stopwords", "analyzer.stopwords"));
  REQUIRE(has("indexes.dense", "quantization", "storage"));
  REQUIRE(has("indexes.dense.hnsw", "m", "M"));
  REQUIRE(has("retrieval.fusion", "k", "rrfK"));
  // the old values map onto the new ones
  REQUIRE(parse_config(R"({"indexes": {"bm25": {"variant": "bm25"}}})").value().bm25.scorer == "lucene");
  REQUIRE(parse_config(R"({"indexes": {"bm25": {"variant": "bm25+"}}})").value().bm25.scorer == "bm25plus");
  REQUIRE(parse_config(R"({"indexes": {"dense": {"quantization": "none"}}})").value().dense.storage == "f32");
  REQUIRE(parse_config(R"({"indexes": {"bm25": {"stopwords": true}}})").value().bm25.index_options.analyzer.use_stopwords);
  // a bad old value names the old path
  REQUIRE(error_of(R"({"indexes": {"bm25": {"variant": "lucene"}}})") == "ragwasm: indexes.bm25.variant: expected one of \"bm25\", \"bm25l\", \"bm25+\", got \"lucene\"");
  // what to_json writes has only new names
  REQUIRE(parse_config(to_json(old_names.value())).value().deprecations.empty());
}

TEST_CASE("#14 an old and a new name for one setting together is an error naming both paths", "[unit]") {
  REQUIRE(error_of(R"({"indexes": {"bm25": {"variant": "bm25", "scorer": "lucene"}}})") ==
          "ragwasm: indexes.bm25.variant and indexes.bm25.scorer: the same setting twice (variant is the old name of scorer); keep only indexes.bm25.scorer");
  REQUIRE(error_of(R"({"indexes": {"bm25": {"stemmer": "none", "analyzer": {"stemmer": "porter2"}}}})").find(
              "indexes.bm25.stemmer and indexes.bm25.analyzer.stemmer: the same setting twice") != std::string::npos);
  REQUIRE(error_of(R"({"indexes": {"bm25": {"stopwords": true, "analyzer": {"stopwords": false}}}})").find(
              "indexes.bm25.stopwords and indexes.bm25.analyzer.stopwords") != std::string::npos);
  REQUIRE(error_of(R"({"indexes": {"dense": {"quantization": "int8", "storage": "int8"}}})").find(
              "indexes.dense.quantization and indexes.dense.storage") != std::string::npos);
  REQUIRE(error_of(R"({"indexes": {"dense": {"hnsw": {"m": 16, "M": 16}}}})").find("indexes.dense.hnsw.m and indexes.dense.hnsw.M") != std::string::npos);
  REQUIRE(error_of(R"({"retrieval": {"fusion": {"k": 60, "rrfK": 60}}})").find("retrieval.fusion.k and retrieval.fusion.rrfK") != std::string::npos);
  REQUIRE(code_of(R"({"retrieval": {"fusion": {"k": 60, "rrfK": 60}}})") == ErrorCode::kInvalidArgument);
}

TEST_CASE("#27 retrieval.llmExpansion: mode and maxTokens, shorthand, kept only when given", "[unit]") {
  auto c = parse_config(R"({"retrieval": {"llmExpansion": "hyde"}})");
  REQUIRE(c.ok());
  REQUIRE(c.value().retrieval.llm_expansion == "hyde");
  REQUIRE(c.value().retrieval.llm_expansion_max_tokens == 128);
  const std::string j = to_json(c.value());
  REQUIRE(j.find(R"("llmExpansion":{"maxTokens":128,"mode":"hyde"})") != std::string::npos);
  REQUIRE(to_json(parse_config(j).value()) == j);
  auto o = parse_config(R"({"retrieval": {"llmExpansion": {"mode": "query2doc", "maxTokens": 64}}})");
  REQUIRE(o.ok());
  REQUIRE(o.value().retrieval.llm_expansion == "query2doc");
  REQUIRE(o.value().retrieval.llm_expansion_max_tokens == 64);
  REQUIRE(to_json(parse_config("{}").value()).find("llmExpansion") == std::string::npos);
  REQUIRE(error_of(R"({"retrieval": {"llmExpansion": "rm3"}})").find("retrieval.llmExpansion: expected one of") != std::string::npos);
  REQUIRE(error_of(R"({"retrieval": {"llmExpansion": true}})").find("retrieval.llmExpansion: expected") != std::string::npos);
  REQUIRE(error_of(R"({"retrieval": {"llmExpansion": {"maxTokens": 64}}})") ==
          "ragwasm: retrieval.llmExpansion.mode: expected \"hyde\" or \"query2doc\", got nothing");
  REQUIRE(error_of(R"({"retrieval": {"llmExpansion": {"mode": "hyde", "maxTokens": 8}}})").find("retrieval.llmExpansion.maxTokens") != std::string::npos);
  REQUIRE(error_of(R"({"retrieval": {"llmExpansion": {"mode": "hyde", "n": 1}}})").find("retrieval.llmExpansion.n: unknown key") != std::string::npos);
}

TEST_CASE("#27 retrieval.expansion is read checked and round-trips", "[unit]") {
  auto c = parse_config(R"({"indexes": {"bm25": {}}, "retrieval": {"expansion": {"source": "static", "perTerm": 3, "minSimilarity": 0.65, "weight": 1, "unmatchedOnly": true}}})");
  REQUIRE(c.ok());
  const auto& x = c.value().retrieval.expansion;
  CHECK(x.enabled);
  CHECK(x.per_term == 3);
  CHECK(x.min_similarity == 0.65);
  CHECK(x.weight == 1.0);
  CHECK(x.unmatched_only);
  CHECK(x.max_words == 100000);
  auto again = parse_config(to_json(c.value()));
  REQUIRE(again.ok());
  REQUIRE(to_json(again.value()) == to_json(c.value()));
  // absent = off, and not written
  auto off = parse_config("{}");
  REQUIRE(off.ok());
  CHECK_FALSE(off.value().retrieval.expansion.enabled);
  CHECK(to_json(off.value()).find("expansion") == std::string::npos);
  for (const char* bad : {R"({"retrieval": {"expansion": {"source": "wordnet"}}})", R"({"retrieval": {"expansion": {"perTerm": 0}}})",
                          R"({"retrieval": {"expansion": {"weight": 0}}})", R"({"retrieval": {"expansion": {"floor": 0.5}}})",
                          R"({"retrieval": {"expansion": true}})", R"({"indexes": {"dense": {}}, "retrieval": {"expansion": {}}})"}) {
    auto r = parse_config(bad);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ErrorCode::kInvalidArgument);
    CHECK(r.error().message.find("retrieval.expansion") != std::string::npos);
  }
}

TEST_CASE("#31 chunker.preprocess and retrieval.filter: checked, kept, round-tripped", "[unit]") {
  auto c = parse_config(R"({"chunker": {"preprocess": "markdown-to-text"}, "retrieval": {"filter": {"form": "10-K", "year": {"gte": 2024}}}})");
  REQUIRE(c.ok());
  REQUIRE(c.value().retrieval.filter_json == R"({"form":"10-K","year":{"gte":2024}})");
  const std::string j = to_json(c.value());
  REQUIRE(j.find(R"("preprocess":"markdown-to-text")") != std::string::npos);
  REQUIRE(j.find(R"("filter":{"form":"10-K","year":{"gte":2024}})") != std::string::npos);
  REQUIRE(to_json(parse_config(j).value()) == j);
  REQUIRE(to_json(parse_config("{}").value()).find("filter") == std::string::npos);
  REQUIRE(parse_config(R"({"chunker": {"preprocess": "none"}})").ok());
  REQUIRE(error_of(R"({"chunker": {"preprocess": "html"}})").find("chunker.preprocess: expected one of") != std::string::npos);
  REQUIRE(error_of(R"({"retrieval": {"filter": "10-K"}})").find("retrieval.filter") != std::string::npos);
  REQUIRE(error_of(R"({"retrieval": {"filter": {"year": {"after": 1}}}})").find("retrieval.filter.year") != std::string::npos);
  REQUIRE(code_of(R"({"retrieval": {"filter": [1]}})") == ErrorCode::kInvalidArgument);
}
