// Pipeline configuration: one JSON document describing chunker -> indexes (bm25 / dense / both) ->
// retrieval -> fusion -> rerank -> assembly, parsed strictly (unknown keys and wrong types are errors
// naming the JSON path) into plain structs with documented defaults. The collection layer builds
// the pipeline from PipelineConfig; this file only parses and validates.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "fusion/fusion.h"
#include "sparse/index.h"

namespace ragwasm::pipeline {

constexpr int kConfigVersion = 1;  // the only "version" this build reads

struct ChunkerConfig {
  std::string strategy = "recursive";  // fixed | recursive | markdown | markdown-header | sentence | semantic
  std::size_t chunk_size = 1000;
  std::size_t chunk_overlap = 200;     // < chunk_size; default min(200, chunk_size / 5)
  std::string unit = "utf16";          // utf16 | codepoints | bytes | tokens
  std::string options_json = "{}";     // the whole "chunker" object, for chunk() in JS
  // "context": {template, summary, separator, headerPath, llmSummary, llmChunkContext}: what chunk() (and the
  // Collection's LLM steps) put before each chunk's text
  // in its indexText (the Collection indexes indexText in BM25 and the dense leg).
  bool has_context = false;
  bool context_header_path = false;  // the chunk's markdown header path ("A > B") as its chunk context
};

struct Bm25Field {
  std::string name;   // "text" = the chunk's indexText; any other name = that document field (e.g. title)
  double boost = 1;   // > 0
};

// "indexes.bm25" holds Bm25Index options under their own names (docs/api.md): fields, scorer, k1, b,
// delta, analyzer {lowercase, foldAccents, stopwords, stemmer, cjkBigrams, identifiers, maxTokenBytes}.
// The normalized section (options_json) is what Bm25Index.create takes, as it is.
struct Bm25Config {
  bool enabled = true;
  std::string scorer = "lucene";  // lucene | robertson | atire | bm25l | bm25plus
  double k1 = 0.9;                // >= 0 (Anserini's BEIR default)
  double b = 0.4;                 // in [0, 1]
  // Indexed fields with boosts: [{"name": "text", "boost": 1}, ...] (or the shorthand {"text": 1,
  // "title": 2}); default text and title, boost 1 each. "text" must be one of them.
  std::vector<Bm25Field> fields = {{"text", 1}, {"title", 1}};
  sparse::IndexOptions index_options;  // every option as the index reads it (analyzer, delta, ...)
  std::string options_json;            // normalized Bm25Index options JSON (defaults filled in)
};

// "indexes.dense" holds VectorIndex options under their own names (dimension, metric, storage,
// binaryRescore, index, hnsw {M, efConstruction, efSearch, seed}) plus the embedder "model".
struct DenseConfig {
  bool enabled = true;
  std::string model = "static";  // embedder name (models/manifest.json); "static" = the offline model
  std::size_t dimension = 0;     // 0 = the embedder's; otherwise it must equal the embedder's
  std::string metric = "cosine"; // cosine | dot | l2
  std::string index = "flat";    // flat | hnsw
  std::string storage = "f32";   // f32 | int8 | binary (binary: index flat only)
  std::string binary_rescore = "int8";  // int8 | f32 (storage binary: the copy kept for rescoring)
  std::size_t hnsw_m = 16;              // hnsw.M
  std::size_t hnsw_ef_construction = 200;
  std::size_t hnsw_ef_search = 64;
  std::uint64_t hnsw_seed = 42;
};

// An old option name the parser accepted (one minor version, docs/api.md "Old names"): at `path`
// (the JSON object holding it, e.g. "indexes.bm25"), `old_name` was read as `new_name`.
struct Deprecation {
  std::string path;
  std::string old_name;
  std::string new_name;
};

// "retrieval.expansion": BM25 query expansion from a static model's word neighbours (docs/sparse.md
// "Query expansion"; Bm25Index search option `expansion`). Absent = off.
struct ExpansionConfig {
  bool enabled = false;
  std::string source = "static";  // the only source: a static model's word vectors
  std::string model;              // a static model file (URL or path); empty = the default static model
  std::size_t per_term = 2;       // 1..16
  double min_similarity = 0.7;    // (0, 1]
  double weight = 0.3;            // (0, 1]
  bool unmatched_only = false;    // expand only query words no document holds
  std::size_t max_words = 100000; // the model's first words kept (0 = all)
};

struct RetrievalConfig {
  std::vector<std::string> retrievers;  // index names ("bm25", "dense"); default: every enabled index
  std::size_t k = 10;                   // hits returned; 0 = no retrieval (the "no context" baseline)
  std::size_t candidates = 100;         // hits fetched per retriever before fusion, >= k
  fusion::FuseOptions fusion;           // default: the safe hybrid (fusion::default_hybrid_options);
                                        // "rrfK" = the RRF constant (fusion.rrf_k)
  std::string fusion_mode = "hybrid";   // as written: hybrid | rrf | convex | combsum | combmnz
  // Label-free leg check before fusing (docs/fusion.md "Leg check"): a leg whose self-retrieval MRR is
  // far below the best leg's is benched (weight 0) and reported. Default: on for mode "hybrid" without
  // explicit weights (and two or more retrievers).
  bool leg_check = true;
  // "llmExpansion": LLM query expansion at ask() time (the caller brings the client). "" = off;
  // "query2doc" searches the question followed by the LLM's hypothetical answer passage, "hyde" the
  // passage alone. Written as {"mode", "maxTokens"}; the string "hyde"/"query2doc" is shorthand.
  std::string llm_expansion;
  std::size_t llm_expansion_max_tokens = 128;  // the passage's token budget, 16..2048
  ExpansionConfig expansion;  // needs the bm25 index
  // "filter": a metadata filter every search of the pipeline applies (the Bm25Index filter language,
  // {"key": value | [values] | {"gte", "gt", "lte", "lt", "in"}}), as written; "" = none.
  std::string filter_json;
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
  // What the answer prompt puts before each chunk (read by the answer prompt's context step,
  // web/src/context/prompt.js): none | title (the document's title) | chunker (the context the chunker
  // put before the chunk in its indexText: title, header path, LLM summary, LLM chunk context, as
  // chunker.context says). The old booleans are read as true = chunker, false = none.
  std::string doc_context = "chunker";
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

// "judges": which LLM judges the commands that answer (rag, experiment) run besides correctness.
struct JudgesConfig {
  bool set = false;    // the section was given (written back only then)
  bool triad = false;  // RAG triad: context relevance, answer relevance, groundedness
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
  JudgesConfig judges;
  // Old names read by parse_config, in the order met (not part of the config: to_json writes only
  // the new names, so parse_config(to_json(c)) has none).
  std::vector<Deprecation> deprecations;
};

// Parses a JSON pipeline config; missing keys take the defaults above; "{}" = the default hybrid
// pipeline (bm25 + dense, safe hybrid fusion).
//   auto c = parse_config(R"({"indexes": {"bm25": {}}, "retrieval": {"k": 5}})");
// Errors: PARSE_ERROR (malformed JSON, with byte offset); INVALID_ARGUMENT naming the JSON path
// (unknown key, wrong type, out of range, "retrieval.fusion.weights[1]: expected a number >= 0, got -1",
// overlap >= size, candidates < k, keep > candidates, no index enabled; retrieval.k 0 is allowed: no retrieval); NOT_FOUND (a retriever that
// names an index not configured); UNSUPPORTED_VERSION ("version" other than 1).
// Old names (indexes.bm25.variant / stemmer / stopwords, indexes.dense.quantization, hnsw.m,
// retrieval.fusion.k) are read as their new names and listed in `deprecations`; an old and a new
// name for the same setting together is INVALID_ARGUMENT naming both JSON paths.
Result<PipelineConfig> parse_config(std::string_view json);

// The normalized config as JSON (every default filled in); parse_config(to_json(c)) == c.
std::string to_json(const PipelineConfig& c);

// The default hybrid pipeline (what `--retriever hybrid` means).
PipelineConfig default_config();

}  // namespace ragwasm::pipeline
