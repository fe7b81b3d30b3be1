// JSON front end of the fusion module: the WASM binding passes one UTF-8 JSON request and gets one
// JSON reply, so all parsing/validation (with JSON-path error messages) lives here and is tested
// natively. Request and reply shapes are documented in docs/fusion.md ("JSON requests").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "fusion/fusion.h"
#include "common/json_reader.h"

namespace ragwasm::fusion {

// Parses a list of {"retriever", "ids", "scores"} objects at `path`.
Result<std::vector<RankedList>> lists_from_json(const jsonr::json& j, std::string_view path);
// Parses fusion options {mode, normalization, weights, k, topK, primary} at `path` for `num_lists`
// lists; mode "hybrid" (the default) = default_hybrid_options(num_lists, primary) unless weights given.
Result<FuseOptions> options_from_json(const jsonr::json& j, std::string_view path, std::size_t num_lists);
jsonr::json options_to_json(const FuseOptions& o);

// {"lists": [...], + options, "diagnosticsK": 10, "minOverlap": 0.2} ->
// {"options": {...}, "hits": [...], "diagnostics": {...}}
Result<std::string> fuse_json(std::string_view request);
// {"queries": [{"queryId", "lists"}], "qrels": {q: {doc: rel}}, "grid": [options...] (default grid when
// absent), "cutoff": 10} -> {"best", "bestIndex", "bestObjective", "queries", "singleLeg", "table"}
Result<std::string> tune_json(std::string_view request);
// {"ids", "scores", "lambda", "k"} + vectors (n*dim floats, dim > 0) or similarity (n*n, dim = 0)
Result<std::string> mmr_json(std::string_view request, const std::vector<float>& vectors, std::size_t dim,
                             const std::vector<double>& similarity);
// {"hits": {"ids","scores"}, "chunks": [{"id","docId","ordinal","start","end"}], "before", "after"}
Result<std::string> expand_json(std::string_view request);
// {"ids", "docIds", "scores", "method": "max"|"sum"|"topm", "m": 3, "topK": 0}
Result<std::string> aggregate_json(std::string_view request);

}  // namespace ragwasm::fusion
