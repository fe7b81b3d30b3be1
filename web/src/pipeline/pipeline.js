// @ts-check
// Pipeline configs: one JSON document describing chunker -> indexes (bm25 / dense / both) ->
// retrieval -> fusion -> rerank -> assembly. Parsed and validated in WASM (src/pipeline/config.cpp):
// unknown keys and wrong types are errors naming the JSON path. Returns the normalized config with
// every default filled in.
import { RagwasmError, callWasm } from '../core/errors.js';
import { encodeText } from '../core/encode.js';
import { wasm } from '../core/module.js';
import { PRESETS } from './presets.js';
import { expectJsonValue, invalid, isPlainObject } from '../core/validate.js';

/**
 * Parses and validates a pipeline config, filling in defaults. `{}` is the default hybrid pipeline
 * (BM25 + dense, safe hybrid fusion). Keys: version (1), chunker {strategy (every chunk() strategy,
 * semantic included), chunkSize, chunkOverlap, unit, context: {template, summary, separator, headerPath,
 * llmSummary: {prompt?, maxTokens?}, llmChunkContext: {prompt?, maxTokens?} (the Collection's LLM steps)},
 * ...chunk() options}, indexes {bm25: Bm25Index options {fields (default text and title, boost 1;
 * also the shorthand {name: boost}), scorer, k1, b, delta, analyzer}, dense: VectorIndex options
 * {dimension (default: the embedder's), metric, storage, binaryRescore, index, hnsw: {M, efConstruction,
 * efSearch, seed}} + model}, retrieval {retrievers, k (hits returned), candidates, fusion: {mode,
 * normalization, weights, rrfK, primary, legCheck}, llmExpansion: 'hyde' | 'query2doc' | {mode, maxTokens (16..2048,
 * default 128)} (ask()'s LLM query expansion; kept only when given)}, rerank {enabled, type, model, candidates, keep},
 * assembly {tokenBudget, order, maxChunks, docContext, tokenCount}, answerer {type: extractive | llm |
 * none, chunks, threshold, maxSentences}, judges {triad} (rag / experiment: the RAG-triad judges; kept only when
 * given); retrieval.k 0 = no retrieval. Defaults in docs/fusion.md.
 * The normalized `indexes.bm25` is what `Bm25Index.create` takes, `indexes.dense` without `model`
 * what `VectorIndex.create` takes. The names before 0.1.0 (bm25 variant / stemmer / stopwords, dense
 * quantization / hnsw.m, fusion k) are INVALID_ARGUMENT naming the new key; saved collections and
 * JSONL exports that hold them still load (readPipelineConfig).
 *
 * @example
 * const c = parsePipelineConfig({ indexes: { bm25: {} }, retrieval: { k: 5 } });
 * c.retrieval.retrievers; // ['bm25']
 *
 * @param {string|object} config JSON text or a plain object
 * @returns {object} the normalized config
 * @throws {RagwasmError} PARSE_ERROR (malformed JSON text), INVALID_ARGUMENT naming the JSON path
 *   ("retrieval.fusion.weights[1]: expected a number >= 0, got -1"; NaN values; unknown keys; an old
 *   and a new name for one setting, naming both paths), NOT_FOUND (a retriever naming an index that
 *   is not configured), UNSUPPORTED_VERSION
 */
export function parsePipelineConfig(config) {
  const { config: cfg, deprecations } = readPipelineConfig(config);
  if (deprecations.length > 0) {
    const d = deprecations[0];
    throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: config ${d.path}.${d.old}: unknown key (write ${d.path}.${d.new})`, { path: `${d.path}.${d.old}` });
  }
  return cfg;
}

/**
 * @internal parsePipelineConfig for saved configs: the normalized config and the old names read
 * (`[{path, old, new}]`). Collection.load reads the config stored in saved bytes with it (a saved
 * collection written before the rename is not the caller's code to fix).
 * @param {string|object} config
 * @returns {{config: object, deprecations: {path: string, old: string, new: string}[]}}
 */
export function readPipelineConfig(config) {
  let text;
  if (typeof config === 'string') {
    // A one-line string that cannot start a JSON object is a name (a preset, a file), not JSON text:
    // say so instead of "malformed JSON at byte 1".
    if (/^[^\s{[]/.test(config) && config.length <= 200 && !/[\n{]/.test(config)) {
      const preset = Object.hasOwn(PRESETS, config) ? ` (a preset is an object: pass PRESETS.${config})` : '';
      throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: config: expected a config object or its JSON text, got ${JSON.stringify(config)}${preset}`);
    }
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
  const r = callWasm(() => m.pipeline_parseConfig(bytes));
  return { config: JSON.parse(r.config), deprecations: r.deprecations };
}

/**
 * The default hybrid pipeline config (what `--retriever hybrid` means), normalized.
 * @returns {object}
 */
export function defaultPipelineConfig() {
  const m = wasm();
  return JSON.parse(callWasm(() => m.pipeline_defaultConfig()));
}
