// Pipeline configs: one JSON document describing chunker -> indexes (bm25 / dense / both) ->
// retrieval -> fusion -> rerank -> assembly. Parsed and validated in WASM (src/pipeline/config.cpp):
// unknown keys and wrong types are errors naming the JSON path. Returns the normalized config with
// every default filled in.
import { RagwasmError, callWasm } from '../core/errors.js';
import { encodeText } from '../core/encode.js';
import { wasm } from '../core/module.js';
import { expectJsonValue, invalid, isPlainObject } from '../core/validate.js';

/**
 * Parses and validates a pipeline config, filling in defaults. `{}` is the default hybrid pipeline
 * (BM25 + dense, safe hybrid fusion). Keys: version (1), chunker {strategy (every chunk() strategy,
 * semantic included), chunkSize, chunkOverlap, unit, context: {template, summary, separator, headerPath},
 * ...chunk() options}, indexes {bm25: {variant, k1, b, stemmer, stopwords, fields: {name: boost}
 * (default {text: 1, title: 1})}, dense: {model, metric,
 * index, quantization, hnsw: {m, efConstruction, efSearch}}}, retrieval {retrievers, k, candidates,
 * fusion: {mode, normalization, weights, k, primary}}, rerank {enabled, type, model, candidates, keep},
 * assembly {tokenBudget, order, maxChunks, docContext, tokenCount}, answerer {type: extractive | llm |
 * none, chunks, threshold, maxSentences}; retrieval.k 0 = no retrieval. Defaults in docs/fusion.md.
 *
 * @example
 * const c = parsePipelineConfig({ indexes: { bm25: {} }, retrieval: { k: 5 } });
 * c.retrieval.retrievers; // ['bm25']
 *
 * @param {string|object} config JSON text or a plain object
 * @returns {object} the normalized config
 * @throws {RagwasmError} PARSE_ERROR (malformed JSON text), INVALID_ARGUMENT naming the JSON path
 *   ("retrieval.fusion.weights[1]: expected a number >= 0, got -1"; NaN values; unknown keys),
 *   NOT_FOUND (a retriever naming an index that is not configured), UNSUPPORTED_VERSION
 */
export function parsePipelineConfig(config) {
  let text;
  if (typeof config === 'string') {
    text = config;
  } else if (isPlainObject(config)) {
    // Iterative walk: cycles and nesting deeper than MAX_NESTING_DEPTH fail before JSON.stringify.
    text = JSON.stringify(expectJsonValue(config, 'config'));
  } else {
    throw invalid('config', 'JSON text or a config object', config);
  }
  if (typeof text.isWellFormed === 'function' && !text.isWellFormed()) {
    throw new RagwasmError('INVALID_UTF8', 'ragwasm: config: contains a lone surrogate (not representable as UTF-8)');
  }
  const bytes = encodeText(text, 'config');
  const m = wasm();
  return JSON.parse(callWasm(() => m.pipeline_parseConfig(bytes)));
}

/**
 * The default hybrid pipeline config (what `--retriever hybrid` means), normalized.
 * @returns {object}
 */
export function defaultPipelineConfig() {
  const m = wasm();
  return JSON.parse(callWasm(() => m.pipeline_defaultConfig()));
}
