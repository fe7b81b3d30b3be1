// Pipeline configuration: one JSON document describing chunker -> indexes (bm25 / dense / both) ->
// retrieval -> fusion -> rerank -> assembly, parsed strictly (unknown keys and wrong types are errors
// naming the JSON path) into plain structs with documented defaults. The collection layer builds
// the pipeline from PipelineConfig; this file only parses and validates.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "fusion/fusion.h"

namespace ragwasm::pipeline {

constexpr int kConfigVersion = 1;  // the only "version" this build reads

struct ChunkerConfig {
  std::string strategy = "recursive";  // fixed | recursive | markdown | markdown-header | sentence | semantic
  std::size_t chunk_size = 1000;
  std::size_t chunk_overlap = 200;     // < chunk_size; default min(200, chunk_size / 5)
  std::string unit = "utf16";          // utf16 | codepoints | bytes | tokens
  std::string options_json = "{}";     // the whole "chunker" object, for chunk() in JS
  // "context": {template, summary, separator, headerPath}: what chunk() puts before each chunk's text
  // in its indexText (the Collection indexes indexText in BM25 and the dense leg).
  bool has_context = false;
  bool context_header_path = false;  // the chunk's markdown header path ("A > B") as its chunk context
};

struct Bm25Field {
  std::string name;   // "text" = the chunk's indexText; any other name = that document field (e.g. title)
  double boost = 1;   // > 0
};

struct Bm25Config {
  bool enabled = true;
  std::string variant = "bm25";  // bm25 | bm25l | bm25+
  double k1 = 0.9;               // >= 0 (Anserini's BEIR default)
  double b = 0.4;                // in [0, 1]
  std::string stemmer = "porter2";  // porter2 | none
  bool stopwords = true;
  // Indexed fields with boosts, by name ("fields": {"text": 1, "title": 2}); default title and text,
  // boost 1 each (Bm25Index's default). "text" must be one of them.
  std::vector<Bm25Field> fields = {{"text", 1}, {"title", 1}};
};

struct DenseConfig {
  bool enabled = true;
  std::string model = "static";  // embedder name (models/manifest.json); "static" = the offline model
  std::string metric = "cosine"; // cosine | dot | l2
  std::string index = "flat";    // flat | hnsw
  std::string quantization = "none";  // none | int8
  std::size_t hnsw_m = 16;
  std::size_t hnsw_ef_construction = 200;
  std::size_t hnsw_ef_search = 64;
};

struct RetrievalConfig {
  std::vector<std::string> retrievers;  // index names ("bm25", "dense"); default: every enabled index
  std::size_t k = 10;                   // hits returned; 0 = no retrieval (the "no context" baseline)
  std::size_t candidates = 100;         // hits fetched per retriever before fusion, >= k
  fusion::FuseOptions fusion;           // default: the safe hybrid (fusion::default_hybrid_options)
  std::string fusion_mode = "hybrid";   // as written: hybrid | rrf | convex | combsum | combmnz
  // Label-free leg check before fusing (docs/fusion.md "Leg check"): a leg whose self-retrieval MRR is
  // far below the best leg's is benched (weight 0) and reported. Default: on for mode "hybrid" without
  // explicit weights (and two or more retrievers).
  bool leg_check = true;
};

struct RerankConfig {
  bool enabled = false;
  std::string type = "cross-encoder";  // cross-encoder | llm | custom
  std::string model;                   // cross-encoder model name from models/manifest.json
  std::size_t candidates = 50;         // retrieve N (>= keep)
  std::size_t keep = 10;               // keep K
};

struct AssemblyConfig {
  std::size_t token_budget = 2000;  // >= 1
  std::string order = "score";      // score | ends
  std::size_t max_chunks = 0;       // 0 = no limit
  bool doc_context = true;          // include each document's context once
  std::string token_count = "estimate";  // estimate (ceil(chars/4)) | wordpiece
};

// What answers from the retrieved chunks: the extractive answerer (no LLM), an LLM (the caller brings
// the client), or nothing (retrieval-only runs). Read by ask()-style callers and the experiment runner.
struct AnswererConfig {
  std::string type = "extractive";  // extractive | llm | none
  std::size_t chunks = 5;           // top chunks the answerer reads (>= 1; min(chunks, k) are read)
  double threshold = 0.35;          // extractive abstention threshold in [0, 1] (PRESETS.docChatAnswer)
  std::size_t max_sentences = 2;    // extractive units in an answer, 1..32
};

struct PipelineConfig {
  int version = kConfigVersion;
  ChunkerConfig chunker;
  Bm25Config bm25;
  DenseConfig dense;
  RetrievalConfig retrieval;
  RerankConfig rerank;
  AssemblyConfig assembly;
  AnswererConfig answerer;
};

// Parses a JSON pipeline config; missing keys take the defaults above; "{}" = the default hybrid
// pipeline (bm25 + dense, safe hybrid fusion).
//   auto c = parse_config(R"({"indexes": {"bm25": {}}, "retrieval": {"k": 5}})");
// Errors: PARSE_ERROR (malformed JSON, with byte offset); INVALID_ARGUMENT naming the JSON path
// (unknown key, wrong type, out of range, "retrieval.fusion.weights[1]: expected a number >= 0, got -1",
// overlap >= size, candidates < k, keep > candidates, no index enabled; retrieval.k 0 is allowed: no retrieval); NOT_FOUND (a retriever that
// names an index not configured); UNSUPPORTED_VERSION ("version" other than 1).
Result<PipelineConfig> parse_config(std::string_view json);

// The normalized config as JSON (every default filled in); parse_config(to_json(c)) == c.
std::string to_json(const PipelineConfig& c);

// The default hybrid pipeline (what `--retriever hybrid` means).
PipelineConfig default_config();

}  // namespace ragwasm::pipeline
