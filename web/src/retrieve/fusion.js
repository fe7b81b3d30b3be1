// @ts-check
// Hybrid fusion and result shaping: fuse ranked lists from several retrievers (RRF, convex
// combination, CombSUM/CombMNZ) with per-hit explanations and leg diagnostics, tune the fusion on
// labelled queries, MMR diversification, neighbour expansion, chunk -> document aggregation, and the
// "retrieve N, rerank, keep K" hook. Scoring runs in WASM (src/fusion); formulas in docs/fusion.md.
import { RagwasmError, callWasm } from '../core/errors.js';
import { encodeText } from '../core/encode.js';
import { wasm } from '../core/module.js';
import {
  expectArray, expectEnum, expectFunction, expectInteger, expectNumber, expectOptions, expectString, invalid, isArray, isInstance, isObject, isPlainObject,
} from '../core/validate.js';

/** Fusion modes: 'hybrid' = the safe default (convex min-max, primary list 0.7, others share 0.3). */
/** @type {readonly import('./fusion.js').FusionMode[]} */
export const FUSION_MODES = Object.freeze(['hybrid', 'rrf', 'convex', 'combsum', 'combmnz']);
/** Score normalizations for convex / CombSUM / CombMNZ. */
/** @type {readonly import('./fusion.js').Normalization[]} */
export const NORMALIZATIONS = Object.freeze(['minmax', 'zscore', 'rank']);
/** Chunk -> document aggregation methods. */
/** @type {readonly ('max'|'sum'|'topm')[]} */
export const AGGREGATIONS = Object.freeze(['max', 'sum', 'topm']);

const MAX_HITS = 10_000_000;

/** A non-empty, well-formed (no lone surrogate) string id. @internal */
export function expectId(value, name) {
  expectString(value, name, { allowEmpty: false });
  if (typeof value.isWellFormed === 'function' ? !value.isWellFormed() : /[\uD800-\uDFFF]/u.test(value.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, ''))) {
    throw new RagwasmError('INVALID_UTF8', `ragwasm: ${name}: contains a lone surrogate (not representable as UTF-8)`);
  }
  return value;
}

/** Sends a JSON request to a binding function and parses the JSON reply. @internal */
export function callJson(fnName, request, ...extra) {
  const m = wasm();
  const bytes = encodeText(JSON.stringify(request), 'request');
  return JSON.parse(callWasm(() => m[fnName](bytes, ...extra)));
}

function expectHits(value, name, { docId = false } = {}) {
  expectArray(value, name, { maxLength: MAX_HITS });
  const ids = new Array(value.length);
  const scores = new Array(value.length);
  const docIds = docId ? new Array(value.length) : undefined;
  for (let i = 0; i < value.length; i++) {
    const h = value[i];
    if (!isPlainObject(h) && !(h !== null && typeof h === 'object')) throw invalid(`${name}[${i}]`, docId ? '{id, docId, score}' : '{id, score}', h);
    ids[i] = expectId(h.id, `${name}[${i}].id`);
    scores[i] = expectNumber(h.score, `${name}[${i}].score`);
    if (docId) docIds[i] = expectId(h.docId, `${name}[${i}].docId`);
  }
  return { ids, scores, docIds };
}

function expectLists(lists, name) {
  expectArray(lists, name, { maxLength: 1000 });
  return lists.map((l, i) => {
    if (!isPlainObject(l)) throw invalid(`${name}[${i}]`, 'a {retriever, hits} object', l);
    expectOptions(l, `${name}[${i}]`, ['retriever', 'hits']);
    const retriever = expectId(expectString(l.retriever, `${name}[${i}].retriever`, { allowEmpty: false, maxLength: 200 }), `${name}[${i}].retriever`);
    const { ids, scores } = expectHits(l.hits, `${name}[${i}].hits`);
    return { retriever, ids, scores };
  });
}

// Fusion options in the one vocabulary (docs/api.md): `k` = hits kept (fuse only; a fusion
// configuration of a grid has none), `rrfK` = the RRF constant. The C++ request keeps its names:
// k = RRF constant, topK = hits kept.
function fusionOptions(o, name, numLists, { allowTopK = true } = {}) {
  /** @type {Record<string, unknown>} the JSON request's fusion fields */
  const req = {};
  if (o.mode !== undefined) req.mode = expectEnum(o.mode, `${name}.mode`, FUSION_MODES);
  if (o.normalization !== undefined) req.normalization = expectEnum(o.normalization, `${name}.normalization`, NORMALIZATIONS);
  if (o.weights !== undefined) {
    expectArray(o.weights, `${name}.weights`, { item: (w, n) => expectNumber(w, n, { min: 0 }) });
    if (o.weights.length !== numLists) throw invalid(`${name}.weights`, `${numLists} weights (one per list)`, o.weights);
    if (req.mode === 'convex' && !o.weights.some((w) => w > 0)) throw invalid(`${name}.weights`, 'at least one weight > 0 for a convex combination', o.weights);
    req.weights = o.weights;
  }
  if (o.rrfK !== undefined) req.k = expectNumber(o.rrfK, `${name}.rrfK`, { min: 0 });
  if (o.k !== undefined) {
    if (!allowTopK) throw invalid(`${name}.k`, 'nothing: a fusion configuration takes the RRF constant as rrfK', o.k);
    req.topK = expectInteger(o.k, `${name}.k`, { min: 0, max: MAX_HITS });
  }
  if (o.primary !== undefined) req.primary = expectInteger(o.primary, `${name}.primary`, { min: 0, max: Math.max(0, numLists - 1) });
  return req;
}

// A fusion configuration as the API names it: the C++ `k` (RRF constant) becomes `rrfK`, its
// `topK` (hits kept) becomes `k`.
function publicConfig(c) {
  if (c === null || typeof c !== 'object') return c;
  const { k, topK, ...rest } = c;
  const out = { ...rest };
  if (k !== undefined) out.rrfK = k;
  if (topK !== undefined) out.k = topK;
  return out;
}

/**
 * @typedef {object} Contribution
 * @property {string} retriever
 * @property {boolean} present the retriever returned this id
 * @property {number} rank 1-based rank in that retriever's list (0 when absent)
 * @property {number} raw the retriever's raw score (0 when absent)
 * @property {number} normalized normalized score (RRF: 1/(k+rank)); the list's floor when absent
 * @property {number} weight effective weight (convex: rescaled to sum to 1)
 * @property {number} contribution weight * normalized (before the CombMNZ multiplier)
 */

/**
 * Fuses ranked lists from several retrievers into one deduplicated list with explanations.
 * Ranks come from sorting each list by score desc, then id asc; fused ties: score desc, then id asc.
 *
 * @example
 * const { hits, diagnostics } = fuse([
 *   { retriever: 'bm25', hits: [{ id: 'a', score: 12.1 }, { id: 'b', score: 9 }] },
 *   { retriever: 'dense', hits: [{ id: 'b', score: 0.81 }, { id: 'c', score: 0.8 }] },
 * ], { mode: 'rrf' });
 *
 * @param {{retriever: string, hits: {id: string, score: number}[]}[]} lists at least one list;
 *   retriever names unique; ids unique within a list; scores finite
 * @param {object} [options]
 * @param {'hybrid'|'rrf'|'convex'|'combsum'|'combmnz'} [options.mode='hybrid'] 'hybrid' = convex
 *   min-max with the primary list weighted 0.7 and the others sharing 0.3 (the safe default without labels)
 * @param {'minmax'|'zscore'|'rank'} [options.normalization='minmax'] ignored by RRF
 * @param {number[]} [options.weights] one finite weight >= 0 per list (default all 1; convex rescales to sum 1)
 * @param {number} [options.rrfK=60] RRF constant, >= 0
 * @param {number} [options.k=0] keep the best k fused hits (0 = all)
 * @param {number} [options.primary=0] index of the primary list for mode 'hybrid'
 * @param {number} [options.diagnosticsK=10] depth of the leg-agreement diagnostics
 * @param {number} [options.minOverlap=0.2] warn when two legs share less than this fraction of their top-k
 * @returns {{hits: {id: string, score: number, rank: number, presentIn: number, contributions: Contribution[]}[],
 *   options: {mode: string, normalization: string, weights: number[], rrfK: number},
 *   diagnostics: {k: number, legs: {retriever: string, size: number, maxZ: number}[],
 *     pairs: {a: string, b: string, overlap: number, shared: number, spearman: number}[], warnings: string[]}}}
 * @throws {RagwasmError} INVALID_ARGUMENT (bad list, weight negative/NaN, wrong weight count, unknown
 *   option), DUPLICATE_ID (an id twice in one list), INVALID_UTF8 (id with a lone surrogate), NOT_INITIALIZED
 */
export function fuse(lists, options = {}) {
  const o = expectOptions(options, 'fuse options', ['mode', 'normalization', 'weights', 'rrfK', 'k', 'primary', 'diagnosticsK', 'minOverlap']);
  /** @type {{lists: ReturnType<typeof expectLists>} & Record<string, unknown>} */
  const req = { lists: expectLists(lists, 'lists'), ...fusionOptions(o, 'options', lists.length) };
  if (req.lists.length === 0) throw invalid('lists', 'at least one ranked list', lists);
  if (o.diagnosticsK !== undefined) req.diagnosticsK = expectInteger(o.diagnosticsK, 'options.diagnosticsK', { min: 1, max: 1_000_000 });
  if (o.minOverlap !== undefined) req.minOverlap = expectNumber(o.minOverlap, 'options.minOverlap', { min: 0, max: 1 });
  const r = callJson('fusion_fuse', req);
  r.options = publicConfig(r.options);
  return r;
}

function expectQrels(qrels) {
  if (!isPlainObject(qrels)) throw invalid('qrels', 'an object {queryId: {docId: relevance}}', qrels);
  for (const [q, rels] of Object.entries(qrels)) {
    expectId(q, 'qrels query id');
    if (!isPlainObject(rels)) throw invalid(`qrels.${q}`, 'an object {docId: relevance}', rels);
    for (const [d, r] of Object.entries(rels)) {
      expectId(d, `qrels.${q} document id`);
      expectInteger(r, `qrels.${q}.${d}`, { min: -1_000_000, max: 1_000_000 });
    }
  }
  return qrels;
}

function expectRuns(labelledRuns) {
  expectArray(labelledRuns, 'labelledRuns', { maxLength: 1_000_000 });
  if (labelledRuns.length === 0) throw invalid('labelledRuns', 'at least one query', labelledRuns);
  return labelledRuns.map((q, i) => {
    if (!isPlainObject(q)) throw invalid(`labelledRuns[${i}]`, 'a {queryId, lists} object', q);
    expectOptions(q, `labelledRuns[${i}]`, ['queryId', 'lists']);
    return { queryId: expectId(q.queryId, `labelledRuns[${i}].queryId`), lists: expectLists(q.lists, `labelledRuns[${i}].lists`) };
  });
}

/**
 * The default tuning grid for `numLists` retrievers (each leg alone first, then RRF, the safe hybrid,
 * weight sweeps in RRF / convex min-max / z-score / rank, CombSUM, CombMNZ). See docs/fusion.md.
 * @param {number} numLists 1..1000
 * @returns {{mode: import('./fusion.js').FusionMode, normalization: import('./fusion.js').Normalization, weights: number[], rrfK: number}[]}
 */
export function defaultFusionGrid(numLists) {
  expectInteger(numLists, 'numLists', { min: 1, max: 1000 });
  const lists = Array.from({ length: numLists }, (_, i) => ({ retriever: `r${i}`, ids: ['x'], scores: [1] }));
  const r = callJson('fusion_tune', { queries: [{ queryId: 'q', lists }], qrels: { q: { x: 1 } } });
  return r.table.map(({ objective, ...config }) => publicConfig(config));  // eslint-disable-line no-unused-vars
}

/**
 * Chooses fusion settings on labelled queries: every grid entry is scored (default metric: mean
 * nDCG@10, trec_eval ndcg_cut linear gain, over queries with >= 1 relevant document) and the best is
 * returned with the full table; ties keep the first in grid order. The default grid starts with each
 * leg alone, so the chosen setting never scores below the better single retriever on these queries.
 *
 * @example
 * const t = tuneFusion(runs, qrels);   // runs: [{queryId, lists: [{retriever, hits}]}]
 * fuse(listsForNewQuery, t.best);
 *
 * @param {{queryId: string, lists: {retriever: string, hits: {id: string, score: number}[]}[]}[]} labelledRuns
 *   the same retrievers in the same order for every query
 * @param {Record<string, Record<string, number>>} qrels queryId -> docId -> integer relevance (<= 0 = not relevant)
 * @param {object} [options]
 * @param {object[]} [options.grid] fusion option objects ({mode, normalization, weights, rrfK, primary});
 *   default: defaultFusionGrid(number of lists)
 * @param {number} [options.cutoff=10] nDCG cutoff for the default metric
 * @param {(queryIds: string[], fused: object[][], qrels: object) => number} [options.metric] a caller
 *   metric to maximize, given the fused hits of every query (all queries are passed); must return a finite number
 * @param {number} [options.minGain=0.01] with a caller metric: the gain over the best single leg the
 *   best grid entry needs to be recommended (the default metric uses a paired t-test instead)
 * @returns {{best: object, bestIndex: number, bestObjective: number, queries: number, singleLeg: number[],
 *   table: object[], metric: string, recommended: object, recommendedObjective: number,
 *   recommendation: string, pairedT: number}} table rows are the grid entries with an `objective`;
 *   `recommended` (use this one) is `best` when it is a single leg or beats the best single leg
 *   significantly (paired one-sided t-test over per-query nDCG, t >= 1.645), else that single leg
 * @throws {RagwasmError} INVALID_ARGUMENT (inconsistent lists, no query with a relevant document, bad
 *   grid entry named "grid[i]", metric returned a non-finite value), DUPLICATE_ID, NOT_INITIALIZED
 */
export function tuneFusion(labelledRuns, qrels, options = {}) {
  const o = expectOptions(options, 'tuneFusion options', ['grid', 'cutoff', 'metric', 'minGain']);
  const minGain = o.minGain === undefined ? 0.01 : expectNumber(o.minGain, 'options.minGain', { min: 0 });
  const queries = expectRuns(labelledRuns);
  expectQrels(qrels);
  const numLists = queries[0].lists.length;
  let grid;
  if (o.grid !== undefined) {
    expectArray(o.grid, 'options.grid', { maxLength: 100_000 });
    if (o.grid.length === 0) throw invalid('options.grid', 'at least one configuration', o.grid);
    grid = o.grid.map((g, i) => {
      expectOptions(g, `options.grid[${i}]`, ['mode', 'normalization', 'weights', 'rrfK', 'k', 'primary']);
      return fusionOptions(g, `options.grid[${i}]`, numLists, { allowTopK: false });
    });
  }
  const cutoff = o.cutoff === undefined ? 10 : expectInteger(o.cutoff, 'options.cutoff', { min: 1, max: 1_000_000 });
  if (o.metric === undefined) {
    const req = { queries, qrels, cutoff };
    if (grid) req.grid = grid;
    const r = callJson('fusion_tune', req);
    r.best = publicConfig(r.best);
    if (r.recommended !== undefined) r.recommended = publicConfig(r.recommended);
    r.table = r.table.map(publicConfig);
    return r;
  }
  expectFunction(o.metric, 'options.metric');
  const configs = grid ?? defaultFusionGrid(numLists).map((c, i) => fusionOptions(c, `grid[${i}]`, numLists, { allowTopK: false }));
  const queryIds = queries.map((q) => q.queryId);
  const table = [];
  let bestIndex = 0;
  const evaluate = (config) => {
    const fused = queries.map((q) => callJson('fusion_fuse', { lists: q.lists, ...config }).hits);
    const v = o.metric(queryIds, fused, qrels);
    if (typeof v !== 'number' || !Number.isFinite(v)) throw invalid('options.metric', 'a function returning a finite number', v);
    return v;
  };
  configs.forEach((config, g) => {
    const objective = evaluate(config);
    table.push({ ...publicConfig(config), objective });
    if (objective > table[bestIndex].objective) bestIndex = g;
  });
  const singleLeg = Array.from({ length: numLists }, (_, i) => evaluate({ mode: 'rrf', weights: Array.from({ length: numLists }, (_, j) => (i === j ? 1 : 0)) }));
  const { objective: bestObjective, ...best } = table[bestIndex];
  const bestLeg = singleLeg.indexOf(Math.max(...singleLeg));
  const isLeg = best.mode === 'rrf' && best.weights?.filter((w) => w === 0).length === numLists - 1;
  const keep = isLeg || numLists === 1 || bestObjective - singleLeg[bestLeg] >= minGain;
  const legConfig = { mode: 'rrf', normalization: 'minmax', weights: Array.from({ length: numLists }, (_, j) => (j === bestLeg ? 1 : 0)), rrfK: 60 };
  return {
    best, bestIndex, bestObjective, queries: queries.length, singleLeg, table, metric: 'custom',
    recommended: keep ? best : legConfig,
    recommendedObjective: keep ? bestObjective : singleLeg[bestLeg],
    recommendation: keep ? 'best grid entry' : `single leg ${bestLeg}: gain ${bestObjective - singleLeg[bestLeg]} over it is below minGain`,
    pairedT: 0,
  };
}

function toVectors(vectors, n) {
  // A flat Float32Array is options.flatVectors (with dim): returned here as is, it reached the binding
  // without a dim and aborted the WASM module (found by tsc --checkJs, #28).
  if (isInstance(vectors, Float32Array)) throw invalid('options.vectors', 'an array of vectors (a flat Float32Array goes in options.flatVectors with options.dim)', vectors);
  expectArray(vectors, 'options.vectors');
  if (vectors.length !== n) throw new RagwasmError('DIMENSION_MISMATCH', `ragwasm: options.vectors: expected ${n} vectors (one per candidate), got ${vectors.length}`);
  if (n === 0) return { flat: new Float32Array(0), dim: 1 };
  const dim = vectors[0]?.length;
  if (!Number.isInteger(dim) || dim < 1) throw invalid('options.vectors[0]', 'a non-empty array or Float32Array', vectors[0]);
  const flat = new Float32Array(n * dim);
  vectors.forEach((v, i) => {
    if (!(isArray(v) || ArrayBuffer.isView(v))) throw invalid(`options.vectors[${i}]`, 'an array or typed array', v);
    const row = /** @type {ArrayLike<number>} */ (v);  // checked above (a DataView has no length: DIMENSION_MISMATCH)
    if (row.length !== dim) throw new RagwasmError('DIMENSION_MISMATCH', `ragwasm: options.vectors[${i}]: has ${row.length} values, vectors[0] has ${dim}`);
    flat.set(row, i * dim);
  });
  return { flat, dim };
}

/**
 * Maximal Marginal Relevance (Carbonell & Goldstein 1998): picks k candidates, each maximizing
 * lambda * rel - (1 - lambda) * max similarity to those already picked; rel = score min-max
 * normalized over the candidates. Give exactly one of `vectors` (cosine), `similarity` (matrix) or
 * `similarityFn`.
 * @param {{id: string, score: number}[]} candidates
 * @param {object} options
 * @param {number} [options.lambda=0.5] in [0, 1]; 1 = pure relevance
 * @param {number} [options.k=10] how many to pick (>= 1)
 * @param {Array<number[]|Float32Array>} [options.vectors] one vector per candidate (same length)
 * @param {Float32Array} [options.flatVectors] n*dim floats row-major, with options.dim
 * @param {number} [options.dim] dimension of flatVectors
 * @param {number[][]|Float64Array} [options.similarity] n x n similarities (nested or flat row-major)
 * @param {(a: object, b: object) => number} [options.similarityFn] called for each pair (n^2 calls)
 * @returns {{id: string, score: number, mmr: number, maxSimilarity: number, inputIndex: number}[]}
 * @throws {RagwasmError} INVALID_ARGUMENT, DIMENSION_MISMATCH, DUPLICATE_ID
 */
export function mmr(candidates, options = {}) {
  const o = expectOptions(options, 'mmr options', ['lambda', 'k', 'vectors', 'flatVectors', 'dim', 'similarity', 'similarityFn']);
  const { ids, scores } = expectHits(candidates, 'candidates');
  const n = ids.length;
  const req = { ids, scores };
  if (o.lambda !== undefined) req.lambda = expectNumber(o.lambda, 'options.lambda', { min: 0, max: 1 });
  if (o.k !== undefined) req.k = expectInteger(o.k, 'options.k', { min: 1, max: MAX_HITS });
  const given = ['vectors', 'flatVectors', 'similarity', 'similarityFn'].filter((key) => o[key] !== undefined);
  if (given.length !== 1) throw invalid('mmr options', 'exactly one of vectors, flatVectors, similarity, similarityFn', given.length === 0 ? undefined : given.join('+'));
  const m = wasm();
  const call = (vec, dim, sim) => JSON.parse(callWasm(() => m.fusion_mmr(encodeText(JSON.stringify(req), 'request'), vec, dim, sim)));
  if (o.vectors !== undefined) {
    const { flat, dim } = toVectors(o.vectors, n);
    return call(flat, dim, null);
  }
  if (o.flatVectors !== undefined) {
    if (!(isInstance(o.flatVectors, Float32Array))) throw invalid('options.flatVectors', 'a Float32Array', o.flatVectors);
    const dim = expectInteger(o.dim, 'options.dim', { min: 1, max: 65536 });
    if (o.flatVectors.length !== n * dim) {
      throw new RagwasmError('DIMENSION_MISMATCH', `ragwasm: options.flatVectors: expected ${n} x ${dim} = ${n * dim} values, got ${o.flatVectors.length}`);
    }
    return call(o.flatVectors, dim, null);
  }
  let sim;
  if (o.similarityFn !== undefined) {
    expectFunction(o.similarityFn, 'options.similarityFn');
    sim = new Float64Array(n * n);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const v = o.similarityFn(candidates[i], candidates[j]);
        if (typeof v !== 'number' || !Number.isFinite(v)) throw invalid(`options.similarityFn(candidates[${i}], candidates[${j}])`, 'a finite number', v);
        sim[i * n + j] = v;
      }
    }
  } else if (isInstance(o.similarity, Float64Array)) {
    sim = o.similarity;
  } else {
    expectArray(o.similarity, 'options.similarity');
    if (o.similarity.length !== n) throw new RagwasmError('DIMENSION_MISMATCH', `ragwasm: options.similarity: expected ${n} rows, got ${o.similarity.length}`);
    sim = new Float64Array(n * n);
    o.similarity.forEach((/** @type {ArrayLike<number>} */ row, i) => {
      if (!(isArray(row) || ArrayBuffer.isView(row)) || row.length !== n) {
        throw new RagwasmError('DIMENSION_MISMATCH', `ragwasm: options.similarity[${i}]: expected ${n} values, got ${row?.length}`);
      }
      for (let j = 0; j < n; j++) sim[i * n + j] = expectNumber(Number(row[j]), `options.similarity[${i}][${j}]`);
    });
  }
  for (let i = 0; i < sim.length; i++) if (!Number.isFinite(sim[i])) throw invalid(`options.similarity[${i}]`, 'a finite number', sim[i]);
  return call(null, 0, sim);
}

/**
 * Neighbour expansion: widens each hit to the chunks [ordinal - before, ordinal + after] of its
 * document and merges overlapping or touching windows of one document into a passage.
 * Passage score = max hit score inside; sorted by score desc, then docId, then first ordinal.
 * @param {{id: string, score: number}[]} hits
 * @param {{id: string, docId: string, ordinal: number, start?: number, end?: number}[]} chunks the
 *   known chunks (must include every hit id; ordinals unique per document)
 * @param {{before?: number, after?: number}} [options] both default 1
 * @returns {{docId: string, chunkIds: string[], firstOrdinal: number, lastOrdinal: number, score: number,
 *   hitIds: string[], start?: number, end?: number}[]} start/end present when every chunk has offsets
 * @throws {RagwasmError} NOT_FOUND (hit id not in chunks), DUPLICATE_ID, INVALID_ARGUMENT
 */
export function expandNeighbours(hits, chunks, options = {}) {
  const o = expectOptions(options, 'expandNeighbours options', ['before', 'after']);
  const { ids, scores } = expectHits(hits, 'hits');
  expectArray(chunks, 'chunks', { maxLength: MAX_HITS });
  const table = chunks.map((c, i) => {
    if (!isObject(c)) throw invalid(`chunks[${i}]`, 'a {id, docId, ordinal} object', c);
    const x = { id: expectId(c.id, `chunks[${i}].id`), docId: expectId(c.docId, `chunks[${i}].docId`), ordinal: expectInteger(c.ordinal, `chunks[${i}].ordinal`, { min: 0, max: 1e9 }) };
    if (c.start !== undefined) x.start = expectNumber(c.start, `chunks[${i}].start`, { min: 0 });
    if (c.end !== undefined) x.end = expectNumber(c.end, `chunks[${i}].end`, { min: 0 });
    return x;
  });
  const req = { hits: { ids, scores }, chunks: table };
  if (o.before !== undefined) req.before = expectInteger(o.before, 'options.before', { min: 0, max: 1_000_000 });
  if (o.after !== undefined) req.after = expectInteger(o.after, 'options.after', { min: 0, max: 1_000_000 });
  return callJson('fusion_expand', req);
}

/**
 * Chunk -> document aggregation for document-level qrels: 'max' (best chunk), 'sum' (all chunks),
 * 'topm' (mean of the m best chunks, of all when fewer). Ties: score desc, then docId asc.
 * @param {{id: string, docId: string, score: number}[]} hits chunk hits (ids unique)
 * @param {{method?: 'max'|'sum'|'topm', m?: number, k?: number}} [options] method 'max',
 *   m 3, k (documents kept) 0 = all
 * @returns {{docId: string, score: number, chunks: number, bestChunk: string}[]}
 * @throws {RagwasmError} INVALID_ARGUMENT, DUPLICATE_ID
 */
export function aggregateToDocuments(hits, options = {}) {
  const o = expectOptions(options, 'aggregateToDocuments options', ['method', 'm', 'k']);
  const { ids, scores, docIds } = expectHits(hits, 'hits', { docId: true });
  const req = { ids, scores, docIds };
  if (o.method !== undefined) req.method = expectEnum(o.method, 'options.method', AGGREGATIONS);
  if (o.m !== undefined) req.m = expectInteger(o.m, 'options.m', { min: 1, max: 1_000_000 });
  if (o.k !== undefined) req.topK = expectInteger(o.k, 'options.k', { min: 0, max: MAX_HITS });
  return callJson('fusion_aggregate', req);
}

function checkSignal(signal) {
  if (signal?.aborted) throw new RagwasmError('ABORTED', 'ragwasm: rerank aborted');
}

/**
 * Reranks candidates with a caller-supplied async scorer: takes the first `candidates` (N) items,
 * awaits `reranker(query, items, {signal})` -> one finite score per item, sorts by that score desc (ties: the
 * original order), keeps `keep` (K). A cross-encoder (ONNX Runtime Web, an MS MARCO MiniLM model) or an
 * LLM judge plugs in as `reranker`; see docs/fusion.md ("Reranking hook").
 * @template {object} T
 * @param {string} query
 * @param {T[]} items ranked candidates (best first), any objects (e.g. {id, text, score})
 * @param {(query: string, items: T[], options?: {signal?: AbortSignal}) => Promise<number[]>|number[]} reranker
 * @param {{candidates?: number, keep?: number, signal?: AbortSignal}} [options] candidates default
 *   all, keep default 10
 * @returns {Promise<(T & {rerankScore: number, retrievalRank: number})[]>} retrievalRank is 1-based
 * @throws {RagwasmError} INVALID_ARGUMENT (bad reranker reply), ABORTED
 */
export async function rerank(query, items, reranker, options = {}) {
  const o = expectOptions(options, 'rerank options', ['candidates', 'keep', 'signal']);
  expectString(query, 'query');
  expectArray(items, 'items', { maxLength: MAX_HITS });
  expectFunction(reranker, 'reranker');
  const n = o.candidates === undefined ? items.length : expectInteger(o.candidates, 'options.candidates', { min: 1, max: MAX_HITS });
  const keep = o.keep === undefined ? 10 : expectInteger(o.keep, 'options.keep', { min: 1, max: MAX_HITS });
  checkSignal(o.signal);
  const top = items.slice(0, n);
  if (top.length === 0) return [];
  // The signal goes to the reranker too, so a cross-encoder batch loop or queued LLM calls stop early.
  const scores = await reranker(query, top, o.signal === undefined ? {} : { signal: o.signal });
  checkSignal(o.signal);
  if (!(isArray(scores) || ArrayBuffer.isView(scores)) || scores.length !== top.length) {
    throw invalid('reranker result', `an array of ${top.length} scores (one per item)`, scores);
  }
  const out = top.map((item, i) => {
    const s = scores[i];
    if (typeof s !== 'number' || !Number.isFinite(s)) throw invalid(`reranker result[${i}]`, 'a finite number', s);
    return { .../** @type {T & object} */ (item), rerankScore: s, retrievalRank: i + 1 };
  });
  out.sort((a, b) => (b.rerankScore - a.rerankScore) || (a.retrievalRank - b.retrievalRank));
  return out.slice(0, keep);
}

/**
 * "Retrieve N, rerank, keep K" in one call: awaits `retrieve(query, N)`, then rerank().
 * @param {string} query non-empty (after trimming)
 * @param {(query: string, n: number) => Promise<object[]>|object[]} retrieve returns ranked items
 * @param {(query: string, items: object[]) => Promise<number[]>|number[]} reranker
 * @param {{candidates?: number, keep?: number, signal?: AbortSignal}} [options] candidates (N) default
 *   50, keep (K) default 10, keep <= candidates
 * @returns {Promise<object[]>}
 * @throws {RagwasmError} INVALID_ARGUMENT (empty query, keep > candidates, bad replies), ABORTED
 */
export async function retrieveAndRerank(query, retrieve, reranker, options = {}) {
  const o = expectOptions(options, 'retrieveAndRerank options', ['candidates', 'keep', 'signal']);
  expectString(query, 'query');
  if (query.trim() === '') throw invalid('query', 'a non-empty query', query);
  expectFunction(retrieve, 'retrieve');
  expectFunction(reranker, 'reranker');
  const n = o.candidates === undefined ? 50 : expectInteger(o.candidates, 'options.candidates', { min: 1, max: MAX_HITS });
  const keep = o.keep === undefined ? 10 : expectInteger(o.keep, 'options.keep', { min: 1, max: MAX_HITS });
  if (keep > n) throw invalid('options.keep', `at most options.candidates (${n})`, keep);
  checkSignal(o.signal);
  const items = await retrieve(query, n);
  if (!isArray(items)) throw invalid('retrieve result', 'an array of items', items);
  return rerank(query, items, reranker, { candidates: n, keep, signal: o.signal });
}
