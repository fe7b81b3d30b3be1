// @ts-check
// Autotune (Snowflake Cortex Search's idea, in the browser): given labelled queries (document qrels
// or evidence excerpts), search a small grid of chunk size / overlap, BM25 k1 / b, fusion setting and
// k; report the best configuration with its metric, a bootstrap confidence interval and the full
// table. Plain module code (no DOM, no Node API): runs in a page, a Worker or Node. Scoring is done
// by the existing modules only: chunk() -> Bm25Index / VectorIndex -> fuse() -> aggregateToDocuments()
// -> metrics.evaluateRun / metrics.evaluateEvidence / metrics.bootstrapCI.
import { MAX_SEARCH_K } from '../core/limits.js';
import { asEmbedder, embedTexts } from '../embed/contract.js';
import { RagwasmError } from '../core/errors.js';
import { chunk } from '../chunk/chunk.js';
import { chunkOptions, denseOptions } from './collection.js';
import { markdownToText } from '../document/markdown-text.js';
import { checkLlm, chunkWithContexts, llmContextSteps, memoizeContextSteps } from './llm-steps.js';
import { VectorIndex } from '../retrieve/dense.js';
import { aggregateToDocuments, fuse } from '../retrieve/fusion.js';
import { Qrels, Run, bootstrapCI, evaluateEvidence, evaluateRun } from '../metrics/metrics.js';
import { parsePipelineConfig } from './pipeline.js';
import { Bm25Index } from '../retrieve/sparse.js';
import {
  expectArray, expectBoolean, expectEnum, expectFunction, expectInteger, expectNumber, expectOptions, expectString, invalid, isArray, isPlainObject,
} from '../core/validate.js';

/**
 * The default grid: 2 chunkers x 2 BM25 settings x 4 fusion settings x 2 cutoffs = 32 rows (a few
 * seconds on the 26-document sample corpus). Fusion entries are `{retriever: 'bm25'|'dense'}` (one leg
 * alone) or fuse() options over the lists [bm25, dense].
 */
export const DEFAULT_AUTOTUNE_GRID = Object.freeze({
  chunker: [{ chunkSize: 500, chunkOverlap: 100 }, { chunkSize: 1000, chunkOverlap: 200 }],
  bm25: [{ k1: 0.9, b: 0.4 }, { k1: 1.2, b: 0.75 }],
  fusion: [
    { retriever: 'bm25' },
    { retriever: 'dense' },
    { mode: 'convex', normalization: 'minmax', weights: [0.7, 0.3] },
    { mode: 'rrf', weights: [1, 1], rrfK: 60 },
  ],
  k: [5, 10],
});

const EVIDENCE_METRICS = ['recall', 'precision', 'mrr'];

function abortCheck(signal) {
  if (signal?.aborted) throw new RagwasmError('ABORTED', 'ragwasm: autotune aborted');
}
const tick = () => new Promise((r) => setTimeout(r, 0));

const CONFIG_STRATEGIES = ['fixed', 'recursive', 'markdown', 'markdown-header', 'sentence', 'semantic'];

function checkGrid(grid, hasEmbedder, withBase = false) {
  const g = expectOptions(grid, 'options.grid', ['chunker', 'bm25', 'fusion', 'k']);
  const out = {};
  for (const key of ['chunker', 'bm25', 'fusion', 'k']) {
    const v = g[key] === undefined ? DEFAULT_AUTOTUNE_GRID[key] : g[key];
    expectArray(v, `options.grid.${key}`, { maxLength: 1000 });
    if (v.length === 0) throw invalid(`options.grid.${key}`, 'a non-empty array', v);
    out[key] = v;
  }
  out.chunker = out.chunker.map((c, i) => {
    const n = `options.grid.chunker[${i}]`;
    const o = expectOptions(c, n, ['strategy', 'chunkSize', 'chunkOverlap']);
    const r = { strategy: o.strategy === undefined ? 'recursive' : expectEnum(o.strategy, `${n}.strategy`, withBase ? CONFIG_STRATEGIES : ['recursive', 'fixed', 'token']) };
    r.chunkSize = expectInteger(o.chunkSize, `${n}.chunkSize`, { min: 1, max: 100000000 });
    r.chunkOverlap = o.chunkOverlap === undefined ? Math.min(200, Math.floor(r.chunkSize / 5)) : expectInteger(o.chunkOverlap, `${n}.chunkOverlap`, { min: 0, max: r.chunkSize - 1 });
    return r;
  });
  out.bm25 = out.bm25.map((c, i) => {
    const n = `options.grid.bm25[${i}]`;
    const o = expectOptions(c, n, ['k1', 'b']);
    return {
      k1: o.k1 === undefined ? 0.9 : expectNumber(o.k1, `${n}.k1`, { min: 0, max: 1000 }),
      b: o.b === undefined ? 0.4 : expectNumber(o.b, `${n}.b`, { min: 0, max: 1 }),
    };
  });
  out.fusion = out.fusion.map((f, i) => {
    const n = `options.grid.fusion[${i}]`;
    if (!isPlainObject(f)) throw invalid(n, "{retriever: 'bm25'|'dense'} or fuse() options", f);
    if (f.retriever !== undefined) {
      expectOptions(f, n, ['retriever']);
      const retriever = expectEnum(f.retriever, `${n}.retriever`, ['bm25', 'dense']);
      if (retriever === 'dense' && !hasEmbedder) throw invalid(`${n}.retriever`, "'bm25' (no options.embedder was given for 'dense')", f.retriever);
      return { retriever };
    }
    if (!hasEmbedder) throw invalid(n, "{retriever: 'bm25'} (fusion needs the dense leg: give options.embedder)", f);
    const o = expectOptions(f, n, ['mode', 'normalization', 'weights', 'rrfK']);
    const r = { mode: o.mode === undefined ? 'convex' : expectEnum(o.mode, `${n}.mode`, ['rrf', 'convex', 'combsum', 'combmnz']) };
    r.normalization = o.normalization === undefined ? 'minmax' : expectEnum(o.normalization, `${n}.normalization`, ['minmax', 'zscore', 'rank']);
    r.weights = o.weights === undefined ? [0.7, 0.3]
      : expectArray(o.weights, `${n}.weights`, { maxLength: 2, item: (w, wn) => expectNumber(w, wn, { min: 0 }) });
    if (r.weights.length !== 2) throw invalid(`${n}.weights`, 'two weights [bm25, dense]', o.weights);
    r.rrfK = o.rrfK === undefined ? 60 : expectNumber(o.rrfK, `${n}.rrfK`, { min: 0 });
    return r;
  });
  out.k = out.k.map((k, i) => expectInteger(k, `options.grid.k[${i}]`, { min: 1, max: 10000 }));
  return out;
}

function fusionLabel(f) {
  if (f.retriever) return `${f.retriever} alone`;
  return f.mode === 'rrf' ? `rrf k=${f.rrfK} ${f.weights.join('/')}` : `${f.mode} ${f.normalization} ${f.weights.join('/')}`;
}

// The embedder contract (embed/contract.js). Old shapes without a declared dimension (a plain
// function, or {embedSync}) still work: their dimension is whatever their first vectors have.
function tuneEmbedder(value) {
  const declared = value !== null && (typeof value === 'object' || typeof value === 'function') ? (value.dimension ?? value.dims) : undefined;
  if (declared !== undefined || (value && value.__ragwasmEmbedder)) return asEmbedder(value);
  if (typeof value === 'function') return { id: 'custom', dimension: undefined, embed: (t, opt) => value(t, opt) };
  if (value && typeof value.embedSync === 'function') return { id: 'custom', dimension: undefined, embed: async (t, opt) => value.embedSync(t, opt) };
  return asEmbedder(value);  // throws INVALID_ARGUMENT naming the shapes
}

async function embedAll(embedder, texts, kind, signal, batch = 256) {
  const out = [];
  for (let i = 0; i < texts.length; i += batch) {
    const part = texts.slice(i, i + batch);
    let v;
    if (embedder.dimension !== undefined) {
      v = await embedTexts(embedder, part, { kind, signal, sync: true });
    } else {
      const call = { kind };
      if (signal !== undefined) call.signal = signal;
      v = await embedder.embed(part, call);
      if (!isArray(v) || v.length !== part.length) throw invalid('options.embedder result', `${part.length} vectors`, v);
    }
    out.push(...v);
  }
  return out;
}

/** The pipeline config (parsePipelineConfig) of one table row: usable with Collection.create or `--config`. */
function rowConfig(row, candidates, base) {
  if (base) return baseRowConfig(row, candidates, base);
  const legs = row.fusion.retriever ? [row.fusion.retriever] : ['bm25', 'dense'];
  const indexes = {};
  if (legs.includes('bm25')) indexes.bm25 = { k1: row.bm25.k1, b: row.bm25.b };
  if (legs.includes('dense')) indexes.dense = {};
  const retrieval = { retrievers: legs, k: row.k, candidates: Math.max(candidates, row.k) };
  // The pipeline config still names the RRF constant `k` (parsed in C++, src/pipeline).
  if (!row.fusion.retriever) retrieval.fusion = { mode: row.fusion.mode, normalization: row.fusion.normalization, weights: row.fusion.weights, rrfK: row.fusion.rrfK };
  return parsePipelineConfig({ chunker: { ...row.chunker }, indexes, retrieval });
}

// With a base config: the base with the row's settings (every other setting of the base kept).
function baseRowConfig(row, candidates, base) {
  const legs = row.fusion.retriever ? [row.fusion.retriever] : ['bm25', 'dense'];
  const c = JSON.parse(JSON.stringify(base));
  c.chunker = { ...c.chunker, strategy: row.chunker.strategy, chunkSize: row.chunker.chunkSize, chunkOverlap: row.chunker.chunkOverlap };
  if (c.chunker.strategy === 'sentence' || c.chunker.strategy === 'semantic') delete c.chunker.chunkOverlap;
  const indexes = {};
  if (legs.includes('bm25')) indexes.bm25 = { ...(c.indexes.bm25 ?? {}), k1: row.bm25.k1, b: row.bm25.b };
  if (legs.includes('dense')) indexes.dense = c.indexes.dense ?? {};
  c.indexes = indexes;
  c.retrieval = { ...c.retrieval, retrievers: legs, k: row.k, candidates: Math.max(candidates, row.k) };
  if (!row.fusion.retriever) c.retrieval.fusion = { ...c.retrieval.fusion, mode: row.fusion.mode, normalization: row.fusion.normalization, weights: row.fusion.weights, rrfK: row.fusion.rrfK };
  return parsePipelineConfig(c);
}

// The grid's chunker entries with a base config: strategy default = the base's (any strategy then).
function baseChunkers(grid, base) {
  return grid.chunker.map((c, i) => {
    const raw = grid.raw.chunker?.[i];
    const strategy = raw?.strategy === undefined ? base.chunker.strategy : c.strategy;
    return { ...c, strategy };
  });
}

/**
 * Grid search over chunking, BM25 and fusion settings against labelled queries.
 *
 * @example
 * const r = await autotune({ documents, queries, evidence, embedder, onProgress: (p) => console.log(p.done, p.total) });
 * const col = await Collection.create(r.best.config, { embedder });
 *
 * @param {object} options
 * @param {{id: string, text: string, title?: string}[]} options.documents indexed text = title + ' ' + text
 * @param {{id: string, text: string}[]} options.queries
 * @param {Record<string, Record<string, number>>} [options.qrels] document-level judgments (rel > 0 relevant)
 * @param {Record<string, (string|{text?: string, docId?: string, start?: number, end?: number})[]>} [options.evidence]
 *   evidence excerpts per query id (exactly one of qrels / evidence); evaluated with metrics.evaluateEvidence
 * @param {{chunker?: object[], bm25?: object[], fusion?: object[], k?: number[]}} [options.grid] default DEFAULT_AUTOTUNE_GRID
 *   (each key replaces that dimension; the table has the product of the dimension sizes as rows)
 * @param {string} [options.metric] qrels: one trec_eval measure (default 'ndcg_cut.10'); evidence:
 *   'recall' (default, evidence recall@k), 'precision' (@k) or 'mrr' (within the top k)
 * @param {object|Function} [options.embedder] an embedder (docs/api.md: {dimension, id, embed(texts, {kind})},
 *   a StaticEmbedder or OnnxEmbedder) or an async function (texts, {kind}) -> Float32Array[]; queries are
 *   embedded with kind 'query', chunks with kind 'document'. Without it only BM25 entries are allowed
 * @param {number} [options.candidates=100] hits fetched per leg before fusion
 * @param {AbortSignal} [options.signal] abort -> RagwasmError ABORTED
 * @param {(p: {done: number, total: number, phase: string, row?: object}) => void} [options.onProgress]
 * @param {boolean|{samples?: number, alpha?: number, seed?: number}} [options.bootstrap] default 2000 samples, alpha 0.05, seed 42; false = no CI
 * @param {string|object} [options.base] a pipeline config (parsePipelineConfig; the file of `--config`) the grid
 *   varies: every setting the grid does not vary is the base's, so a row means what its config means in
 *   Collection.create. Documents are then chunked by the base's chunker options (strategy when a grid entry
 *   names none, chunk context: each chunk is indexed as its indexText), BM25 takes the base's index options
 *   (fields: "text" = indexText, "title" = the document title; scorer, analyzer), the dense leg the base's
 *   index options and candidates the base's retrieval.candidates; best.config is the base with the best
 *   row's settings. A base whose rerank is enabled is refused (autotune does not rerank). A base with LLM
 *   context steps (chunker.context.llmSummary / llmChunkContext) runs them through `options.llm`, as
 *   Collection.add does: the summary once per document, the chunk contexts once per distinct chunk list of a document
 *   (grid chunkers cutting a document the same way share them)
 * @param {object} [options.llm] with such a base: the LlmClient (createLlmClient of ragwasm/llm) that writes them
 * @returns {Promise<import('./autotune.js').AutotuneResult>} (autotune.d.ts)
 *   rows: {index, chunker, bm25, fusion, fusionLabel, k, value}; best = row + {config (pipeline config), perQuery};
 *   with options.llm also llmCalls: {summaries, chunkContexts} (documents summarized, chunks given a context: what was asked of options.llm);
 *   ties keep the first row in grid order; vsBaseline = bootstrap CI of best - table[0] per query
 * @throws {RagwasmError} INVALID_ARGUMENT naming the option, ABORTED
 */
export async function autotune(options) {
  const o = expectOptions(options, 'autotune options', ['documents', 'queries', 'qrels', 'evidence', 'grid', 'metric', 'embedder', 'candidates', 'signal', 'onProgress', 'bootstrap', 'base', 'llm']);
  const base = o.base === undefined ? null : parsePipelineConfig(o.base);
  const steps = base ? llmContextSteps(base) : [];
  if (o.llm !== undefined && steps.length === 0) throw invalid('options.llm', 'no LLM (only a base config with chunker.context.llmSummary or llmChunkContext uses one)', o.llm);
  // A document's summary does not depend on the chunker, and grid chunkers often cut a short document the
  // same way: each summary and each distinct chunk list of a document is asked once (memoizeContextSteps).
  const llm = steps.length > 0 ? memoizeContextSteps(checkLlm(base, o.llm, { how: 'autotune({base, llm: client})' })) : null;
  if (base?.rerank.enabled) throw invalid('options.base.rerank.enabled', 'false (autotune does not rerank; tune the retrieval, then rerank its best config)', true);
  if (base && base.retrieval.k === 0) throw invalid('options.base.retrieval.k', 'an integer >= 1 (k 0 retrieves nothing to tune)', 0);
  if (options === undefined) throw invalid('autotune options', 'an options object', options);
  expectArray(o.documents, 'options.documents');
  if (o.documents.length === 0) throw invalid('options.documents', 'at least one document', o.documents);
  const docIds = new Set();
  const documents = o.documents.map((d, i) => {
    if (!isPlainObject(d)) throw invalid(`options.documents[${i}]`, 'a {id, text} object', d);
    const id = expectString(d.id, `options.documents[${i}].id`, { allowEmpty: false });
    if (docIds.has(id)) throw new RagwasmError('DUPLICATE_ID', `ragwasm: options.documents[${i}].id: "${id}" appears twice`);
    docIds.add(id);
    const text = expectString(d.text, `options.documents[${i}].text`);
    const title = d.title === undefined ? '' : expectString(d.title, `options.documents[${i}].title`);
    // Without a base config the title is part of the indexed text; with one, the config's fields and chunk context decide.
    return base ? { id, text, title } : { id, text: title ? `${title} ${text}` : text };
  });
  expectArray(o.queries, 'options.queries');
  if ((o.qrels === undefined) === (o.evidence === undefined)) throw invalid('options.qrels', 'exactly one of options.qrels / options.evidence', o.qrels);
  const labels = o.qrels !== undefined ? 'qrels' : 'evidence';
  const labelMap = labels === 'qrels' ? o.qrels : o.evidence;
  if (!isPlainObject(labelMap)) throw invalid(`options.${labels}`, 'an object keyed by query id', labelMap);
  const queries = o.queries.map((q, i) => {
    if (!isPlainObject(q)) throw invalid(`options.queries[${i}]`, 'a {id, text} object', q);
    return { id: expectString(q.id, `options.queries[${i}].id`, { allowEmpty: false }), text: expectString(q.text, `options.queries[${i}].text`) };
  }).filter((q) => labelMap[q.id] !== undefined && q.text.trim() !== '');
  if (queries.length === 0) throw invalid('options.queries', `at least one non-empty query with ${labels}`, o.queries);
  let evidence = null;
  if (labels === 'evidence') {
    evidence = new Map(queries.map((q) => {
      const ev = expectArray(labelMap[q.id], `options.evidence.${q.id}`);
      if (ev.length === 0) throw invalid(`options.evidence.${q.id}`, 'at least one evidence excerpt', ev);
      return [q.id, ev.map((e) => (typeof e === 'string' ? { text: e } : e))];
    }));
  }
  const metric = o.metric === undefined ? (labels === 'qrels' ? 'ndcg_cut.10' : 'recall')
    : labels === 'evidence' ? expectEnum(o.metric, 'options.metric', EVIDENCE_METRICS) : expectString(o.metric, 'options.metric', { allowEmpty: false });
  const hasEmbedder = o.embedder !== undefined;
  const embedder = hasEmbedder ? tuneEmbedder(o.embedder) : null;
  const grid = checkGrid(o.grid ?? {}, hasEmbedder, base !== null);
  // With a base: its BM25 options (or the config defaults when it has no BM25 index); "title" is the document title.
  const baseBm25 = base ? (base.indexes.bm25 ?? parsePipelineConfig({ indexes: { bm25: {} } }).indexes.bm25) : null;
  const titleField = base ? baseBm25.fields.some((f) => f.name === 'title') : false;
  if (base) grid.chunker = baseChunkers({ ...grid, raw: isPlainObject(o.grid) ? o.grid : {} }, base);
  const candidates = o.candidates === undefined ? (base ? base.retrieval.candidates : 100) : expectInteger(o.candidates, 'options.candidates', { min: 1, max: 100000 });
  if (o.onProgress !== undefined) expectFunction(o.onProgress, 'options.onProgress');
  let boot = { samples: 2000, alpha: 0.05, seed: 42 };
  if (typeof o.bootstrap === 'boolean') {
    if (!expectBoolean(o.bootstrap, 'options.bootstrap')) boot = null;
  } else if (o.bootstrap !== undefined) {
    const b = expectOptions(o.bootstrap, 'options.bootstrap', ['samples', 'alpha', 'seed']);
    if (b.samples !== undefined) boot.samples = expectInteger(b.samples, 'options.bootstrap.samples', { min: 1, max: 1000000 });
    if (b.alpha !== undefined) boot.alpha = expectNumber(b.alpha, 'options.bootstrap.alpha', { min: Number.MIN_VALUE, max: 0.999999 });
    if (b.seed !== undefined) boot.seed = expectInteger(b.seed, 'options.bootstrap.seed', { min: 0, max: Number.MAX_SAFE_INTEGER });
  }
  const signal = o.signal;
  const total = grid.chunker.length * grid.bm25.length * grid.fusion.length * grid.k.length;
  const maxK = Math.max(...grid.k);
  const depth = Math.min(MAX_SEARCH_K, Math.max(candidates, maxK));  // the search k limit (core/limits.js)
  const needDense = grid.fusion.some((f) => f.retriever !== 'bm25');
  const progress = (p) => o.onProgress?.({ total, ...p });

  let qrelsHandle = null;
  if (labels === 'qrels') {
    /** @type {Record<string, Record<string, number>>} */
    const judged = {};
    for (const q of queries) judged[q.id] = labelMap[q.id];
    qrelsHandle = Qrels.fromObject(judged);
  }
  const table = [];
  const perQueryOf = [];
  let done = 0;
  try {
    abortCheck(signal);
    const queryVectors = needDense ? await embedAll(embedder, queries.map((q) => q.text), 'query', signal) : null;
    for (const chunker of grid.chunker) {
      abortCheck(signal);
      progress({ done, phase: 'chunk' });
      const chunks = [];
      if (base) {
        // as Collection.add chunks (chunk context, the LLM steps through options.llm)
        const copts = chunkOptions({ ...base.chunker, strategy: chunker.strategy, chunkSize: chunker.chunkSize, chunkOverlap: chunker.chunkOverlap }, embedder);
        const separator = base.chunker.context?.separator ?? '\n\n';
        if (llm) progress({ done, phase: 'context' });
        const plain = base.chunker.preprocess === 'markdown-to-text';  // chunker.preprocess, as Collection.add runs it
        for (const d of documents) {
          const text = plain ? markdownToText(d.text) : d.text;
          const doc = d.title ? { id: d.id, text, title: d.title } : { id: d.id, text };
          const cs = await chunkWithContexts(doc, { copts, semantic: chunker.strategy === 'semantic', steps, llm, separator, signal, alive: () => abortCheck(signal) });
          for (const c of cs) chunks.push({ id: c.id, docId: c.docId, text: c.text, indexText: c.indexText ?? c.text, title: d.title });
        }
      } else {
        for (const d of documents) {
          for (const c of chunk({ id: d.id, text: d.text }, chunker)) chunks.push({ id: c.id, docId: c.docId, text: c.text, indexText: c.text });
        }
      }
      const byId = new Map(chunks.map((c) => [c.id, c]));
      let denseLists = null;
      if (needDense) {
        progress({ done, phase: 'embed' });
        const vectors = await embedAll(embedder, chunks.map((c) => c.indexText), 'document', signal);
        abortCheck(signal);
        const dimension = vectors[0]?.length ?? queryVectors[0].length;
        const dense = VectorIndex.create(base?.indexes.dense ? denseOptions(base.indexes.dense, dimension) : { dimension, metric: 'cosine' });
        try {
          dense.add(chunks.map((c, i) => ({ id: c.id, vector: vectors[i] })));
          denseLists = queryVectors.map((v) => dense.search(v, { k: Math.min(depth, chunks.length) }).map((h) => ({ id: h.id, score: h.score })));
        } finally {
          dense.dispose();
        }
      }
      for (const bm of grid.bm25) {
        abortCheck(signal);
        progress({ done, phase: 'index' });
        const index = Bm25Index.create(base ? { ...baseBm25, k1: bm.k1, b: bm.b } : { fields: ['text'], scorer: 'lucene', k1: bm.k1, b: bm.b });
        let bm25Lists;
        try {
          index.add(chunks.map((c) => (titleField && c.title ? { id: c.id, text: c.indexText, title: c.title } : { id: c.id, text: c.indexText })));
          bm25Lists = queries.map((q) => index.search(q.text, { k: depth }).map((h) => ({ id: h.id, score: h.score })));
        } finally {
          index.dispose();
        }
        for (const fusion of grid.fusion) {
          abortCheck(signal);
          const ranked = queries.map((q, i) => {
            if (fusion.retriever === 'bm25') return bm25Lists[i];
            if (fusion.retriever === 'dense') return denseLists[i];
            return fuse([{ retriever: 'bm25', hits: bm25Lists[i] }, { retriever: 'dense', hits: denseLists[i] }],
              { mode: fusion.mode, normalization: fusion.normalization, weights: fusion.weights, rrfK: fusion.rrfK, k: depth }).hits;
          });
          for (const k of grid.k) {
            const values = labels === 'qrels'
              ? evalQrels(queries, ranked, byId, k, metric, qrelsHandle)
              : evalEvidence(queries, ranked, byId, k, metric, evidence);
            const value = values.reduce((s, v) => s + v, 0) / values.length;
            const row = { index: table.length, chunker, bm25: bm, fusion, fusionLabel: fusionLabel(fusion), k, value };
            table.push(row);
            perQueryOf.push(values);
            done++;
            progress({ done, phase: 'evaluate', row });
          }
          await tick();
        }
      }
    }
  } finally {
    qrelsHandle?.dispose();
  }
  let bestIndex = 0;
  for (let i = 1; i < table.length; i++) if (table[i].value > table[bestIndex].value) bestIndex = i;
  const perQuery = perQueryOf[bestIndex];
  const best = { ...table[bestIndex], config: rowConfig(table[bestIndex], candidates, base), perQuery: Object.fromEntries(queries.map((q, i) => [q.id, perQuery[i]])) };
  let ci = null;
  let vsBaseline = null;
  if (boot) {
    const zeros = new Array(perQuery.length).fill(0);
    const c = bootstrapCI(perQuery, zeros, boot);
    ci = { mean: c.meanDifference, low: c.low, high: c.high, alpha: c.alpha, samples: c.samples };
    vsBaseline = bootstrapCI(perQuery, perQueryOf[0], boot);
  }
  /** @type {import('./autotune.js').AutotuneResult} */
  const out = { best, table, metric, labels, queries: queries.length, ci, vsBaseline };
  if (llm) out.llmCalls = { summaries: llm.stats.summaries, chunkContexts: llm.stats.chunkContexts };
  return out;
}

function evalQrels(queries, ranked, byId, k, metric, qrels) {
  const run = Run.create({ runId: 'autotune' });
  try {
    queries.forEach((q, i) => {
      const hits = ranked[i];
      if (hits.length === 0) return;
      const docs = aggregateToDocuments(hits.map((h) => ({ id: h.id, docId: byId.get(h.id).docId, score: h.score })), { method: 'max', k });
      run.addQuery(q.id, docs.map((d) => d.docId), docs.map((d) => d.score));
    });
    const r = evaluateRun(qrels, run, { measures: [metric], completeQueries: true });
    if (r.measures.length !== 1) throw invalid('options.metric', 'exactly one trec_eval measure (e.g. ndcg_cut.10)', metric);
    const key = r.measures[0];
    return queries.map((q) => r.perQuery[q.id]?.[key] ?? 0);
  } finally {
    run.dispose();
  }
}

function evalEvidence(queries, ranked, byId, k, metric, evidence) {
  const questions = queries.map((q, i) => ({
    evidence: evidence.get(q.id),
    chunks: ranked[i].slice(0, k).map((h) => ({ text: byId.get(h.id).text })),
  }));
  const r = evaluateEvidence(questions, { cutoffs: [k], maxK: k });
  return r.perQuestion.map((p) => (metric === 'mrr' ? p.rr : metric === 'precision' ? p.precision[0] : p.recall[0]));
}
