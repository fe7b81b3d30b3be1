// JSON forms of the sparse options (what the JS layer and the CLI send), parsed and checked here so
// the bindings stay free of logic. Errors name the option: INVALID_ARGUMENT "index options.k1: ...".
#pragma once

#include <string_view>
#include <vector>

#include "common/result.h"
#include "sparse/index.h"

namespace ragwasm::sparse {

// {"fields":[{"name":"title","boost":1}], "scorer":"lucene|robertson|atire|bm25l|bm25plus", "k1":0.9,
//  "b":0.4, "delta":0.5, "analyzer":{"lowercase":true,"foldAccents":true,"stopwords":[..]|false|"lucene",
//  "stemmer":"porter2|none","cjkBigrams":true,"identifiers":true,"maxTokenBytes":255}}
// `name` starts every error message (the pipeline config passes its JSON path "indexes.bm25").
Result<IndexOptions> parse_index_options(std::string_view json, std::string_view name = "index options");

// {"k":10, "exhaustive":false, "filter":{...}, "rm3":{"fbDocs":10,"fbTerms":10,"originalWeight":0.5}}
// filter: {"key": "v" | 3 | ["a","b",1] | {"gte":1,"lt":5}} ; all keys must hold.
Result<SearchOptions> parse_search_options(std::string_view json);

// Per-document metadata: a JSON array with one object (or null) per document;
// values: string, finite number, or an array of those.
Result<std::vector<std::vector<MetaValue>>> parse_metadata(std::string_view json, std::size_t count);

}  // namespace ragwasm::sparse
