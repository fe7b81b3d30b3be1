// parsePipelineConfig through the WASM build: defaults, path-named errors, missing indexes.
import test from 'node:test';
import assert from 'node:assert/strict';
import { init, parsePipelineConfig, defaultPipelineConfig, RagwasmError } from '../../../web/src/index.js';

await init();

const fails = (config, code, message) => assert.throws(() => parsePipelineConfig(config),
  (e) => e instanceof RagwasmError && e.code === code && (typeof message === 'string' ? e.message === message : message.test(e.message)));

test('an empty config is the default hybrid pipeline', () => {
  const c = parsePipelineConfig({});
  assert.deepEqual(c, defaultPipelineConfig());
  assert.deepEqual(c.retrieval.retrievers, ['bm25', 'dense']);
  assert.equal(c.retrieval.fusion.mode, 'convex');
  assert.deepEqual(c.retrieval.fusion.weights, [0.7, 0.3]);
  assert.equal(c.assembly.tokenBudget, 2000);
  assert.equal(c.rerank.enabled, false);
});

test('text and objects give the same normalized config', () => {
  const src = { indexes: { bm25: { k1: 1.2 } }, retrieval: { k: 5, fusion: { mode: 'rrf' } }, assembly: { order: 'ends' } };
  const a = parsePipelineConfig(src);
  assert.deepEqual(parsePipelineConfig(JSON.stringify(src)), a);
  assert.deepEqual(a.retrieval.retrievers, ['bm25']);
  assert.equal(a.indexes.dense, undefined);
  assert.equal(a.indexes.bm25.k1, 1.2);
  assert.deepEqual(parsePipelineConfig(a), a);  // normalized output parses to itself
});

test('errors name the JSON path', () => {
  fails({ retrieval: { fusion: { weights: [1, -1] } } }, 'INVALID_ARGUMENT', 'ragwasm: retrieval.fusion.weights[1]: expected a number >= 0, got -1');
  fails({ retrieval: { fusion: { weights: [1, NaN] } } }, 'INVALID_ARGUMENT', /retrieval\.fusion\.weights\[1\]: expected a finite number, got NaN/);
  fails({ retrieval: { k: '10' } }, 'INVALID_ARGUMENT', /retrieval\.k: expected an integer/);
  fails({ retreival: {} }, 'INVALID_ARGUMENT', /retreival: unknown key/);
  fails('{"retrieval": ', 'PARSE_ERROR', /malformed JSON at byte/);
  // a name instead of a config: not "malformed JSON at byte 1"
  fails('docChat', 'INVALID_ARGUMENT', 'ragwasm: config: expected a config object or its JSON text, got "docChat" (a preset is an object: pass PRESETS.docChat)');
  fails('pipeline.json', 'INVALID_ARGUMENT', 'ragwasm: config: expected a config object or its JSON text, got "pipeline.json"');
  fails('constructor', 'INVALID_ARGUMENT', 'ragwasm: config: expected a config object or its JSON text, got "constructor"');
  fails(' {"retrieval": ', 'PARSE_ERROR', /malformed JSON at byte/);
  fails({ version: 2 }, 'UNSUPPORTED_VERSION', /version 1/);
  fails([], 'INVALID_ARGUMENT', /config/);
});

test('a retriever for a missing index is NOT_FOUND', () => {
  fails({ indexes: { bm25: {} }, retrieval: { retrievers: ['dense'] } }, 'NOT_FOUND',
    'ragwasm: retrieval.retrievers[0]: index "dense" is not configured in indexes (configured: bm25)');
  assert.equal(parsePipelineConfig({ indexes: { dense: {} } }).retrieval.retrievers[0], 'dense');
});
