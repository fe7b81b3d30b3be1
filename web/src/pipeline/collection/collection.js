// @ts-check
// Collection: a searchable set of documents built from one pipeline config (parsePipelineConfig):
// chunk() -> the BM25 leg and the dense leg (legs.js: single or sharded behind one interface) ->
// fuse(). add / upsert / remove / search (filters, document level) / checkLegs / setEmbedder here;
// the saved format in saved.js (+ header.js, header-check.js, save.js), JSONL in jsonl.js.
import { MAX_SEARCH_K } from '../../core/limits.js';
import { RagwasmError } from '../../core/errors.js';
import { VectorIndex } from '../../retrieve/dense.js';
import { aggregateToDocuments, rerank as rerankItems } from '../../retrieve/fusion.js';
import { checkFilter } from '../../retrieve/sparse.js';
import { LEXICAL_KEYS, lexicalOptions } from '../../retrieve/sparse-expand.js';
import { checkLegs } from '../../retrieve/leg-check.js';
import { configExpansion } from '../../retrieve/expansion.js';
import { embedTexts } from '../../embed/contract.js';
import { createStaticEmbedder } from '../../embed/embed.js';
import { loadBytes } from '../../core/storage.js';
import {
  expectArray, expectBoolean, expectEnum, expectFunction, expectInteger, expectInternal, expectOptions, expectString,
  expectSearchK, invalid, isInstance, isPlainObject,
} from '../../core/validate.js';
import { ChunkMap, DocRecord } from '../chunk-store.js';
import { checkLlm } from '../llm-steps.js';
import { parsePipelineConfig } from '../pipeline.js';
import {
  abortCheck, bm25Doc, denseEmbedder, denseOptions, disposedError, extraFields, indexTextOf, isZeroVector, metadataMatches, positive,
} from './parts.js';
import { checkShardable, createLegs, shardedLegs } from './legs.js';
import { headerStream } from './header.js';
import { isCollectionBytes, loadSections, needsDefaultModel, readHeader, withDefaultModel } from './saved.js';
import { exportLines, indexJsonl, parseJsonl } from './jsonl.js';
import { addPrepared, prepareAdd } from './add.js';
import { fuseLegs, single } from './fuse-legs.js';

const SEARCH_LEVELS = ['chunk', 'document'];

/**
 * A searchable collection of documents built from a pipeline config.
 *
 * @example
 * const col = await Collection.create({ indexes: { bm25: {} } });
 * await col.add([{ id: 'd1', title: 'France', text: 'Paris is the capital.', metadata: { lang: 'en' } }]);
 * const hits = await col.search('capital of France', { k: 3, filter: { lang: 'en' } });
 * await col.save('my-collection'); const again = await Collection.load('my-collection');
 */
export class Collection {
  /**
   * @param {string|object} [config] pipeline config (see parsePipelineConfig); default the hybrid pipeline
   * @param {object} [options]
   * @param {object|Function} [options.embedder] for the dense index (default: createStaticEmbedder(), the
   *   static model of ragwasm-static-model) or the semantic chunker (required there): an embedder of the
   *   contract `{dimension, id, embed(texts, {kind})}` (web/src/embed/contract.js), a StaticEmbedder or
   *   OnnxEmbedder, or an async function
   *   `(texts, {kind}) => vectors` with `options.dimension`
   * @param {number} [options.dimension] vector dimension when the embedder does not declare it
   * @param {number} [options.workers=1] 1–64: build and search across this many Workers (docs/parallel.md):
   *   the BM25 leg is a ShardedBm25Index, the dense leg a ShardedVectorIndex (flat f32 or int8 only) fed
   *   by the default static model in every Worker (createParallelEmbedder; a given embedder is refused);
   *   the same hits and scores as workers: 1, and toBytes() (then async) the same bytes; dispose() stops them
   * @param {object} [options.llm] the LLM of the config's context steps (docs/experiments.md "LLM context steps"):
   *   an LlmClient of ragwasm/llm (createLlmClient). chunker.context.llmSummary: add() asks it for one summary per
   *   document (client.documentSummary), the context's {summary} (the whole context without a template);
   *   chunker.context.llmChunkContext: one context note per chunk (client.chunkContexts), as add's chunkContexts.
   *   Required when the config has either key; not saved (give it again to fromBytes/load to add to a loaded collection)
   * @param {boolean} [options.keepVectors=false] keep a copy of every indexed vector (4 x dimension
   *   bytes per chunk) so exportJsonl({vectors: true}) writes them as indexed instead of re-embedding
   * @returns {Promise<Collection>}
   * @throws {RagwasmError} as parsePipelineConfig; INVALID_ARGUMENT when the dense index or the semantic
   *   chunker has no embedder, or the config asks for an LLM step (naming its key) without options.llm
   */
  static async create(config = {}, options = {}) {
    const o = expectOptions(options, 'Collection.create options', ['embedder', 'dimension', 'keepVectors', 'workers', 'llm']);
    const keepVectors = o.keepVectors === undefined ? false : expectBoolean(o.keepVectors, 'options.keepVectors');
    const workers = o.workers === undefined ? 1 : expectInteger(o.workers, 'options.workers', { min: 1, max: 64 });
    const cfg = parsePipelineConfig(config);
    const llm = checkLlm(cfg, o.llm);
    // A dense index without an embedder uses the default static model (package ragwasm-static-model);
    // the semantic chunker alone still needs one given (collection-api.test.mjs).
    const defaultModel = o.embedder === undefined && o.dimension === undefined && cfg.indexes.dense;
    if (workers > 1) {
      checkShardable(cfg, defaultModel, 'options.workers', workers);
      const c = await Collection._sharded(cfg, workers, o.embedder, o.dimension, new Map(), keepVectors, []);
      c._llm = llm;
      return c;
    }
    const embedder = !defaultModel ? o.embedder : await createStaticEmbedder();
    const c = new Collection(cfg, embedder, o.dimension, null, new Map(), keepVectors);
    c._llm = llm;
    return c;
  }

  // A collection whose legs are sharded across a new pool of `workers` (legs.js shardedLegs); `docs`
  // (loaded ones) are indexed again.
  static async _sharded(cfg, workers, embedder, dimension, docs, keepVectors, zeroVectors) {
    const { legs, embedder: e } = await shardedLegs(cfg, workers, embedder);
    let c = null;
    try {
      c = new Collection(cfg, e, dimension, legs, docs, keepVectors, zeroVectors);
      if (docs.size > 0) await c._reindex();
      return c;
    } catch (err) {
      if (c) c.dispose();
      else legs.dispose();
      throw err;
    }
  }

  // Sharded: indexes every stored chunk again (after fromBytes), in document order, re-embedding the
  // dense leg's chunks (the static model gives the saved vectors again: same model id, checked).
  async _reindex() {
    const { chunks, records } = this._chunksInOrder();
    const extra = extraFields(this.config);
    const { bm25, dense } = this._legs;
    const step = 8192;
    for (let i = 0; i < chunks.length; i += step) {
      const part = chunks.slice(i, i + step);
      const writes = [];
      if (bm25) writes.push(bm25.add(part.map((c, j) => bm25Doc(c, records[i + j], extra))));
      if (dense) {
        const keep = part.filter((c) => !this.zeroVectors.has(c.id));
        if (keep.length > 0) {
          const vectors = await embedTexts(this.embedder, keep.map(indexTextOf), { kind: 'document' });
          writes.push(dense.add(keep.map((c, j) => ({ id: c.id, vector: vectors[j] }))));
          if (this._vectors) keep.forEach((c, j) => this._vectors.set(c.id, vectors[j]));
        }
      }
      await Promise.all(writes);
    }
  }

  // Every chunk in document order (the order the indexes received them), with its document record.
  _chunksInOrder() {
    const chunks = [];
    const records = [];
    for (const d of this.docs.values()) {
      for (const c of d.chunkList()) {
        chunks.push(c);
        records.push(d);
      }
    }
    return { chunks, records };
  }

  /** Workers the collection's indexes are sharded across (1: no Worker, the calling thread). */
  get workers() {
    return this._legs.workers;
  }

  /** The BM25 index (Bm25Index, or ShardedBm25Index with workers > 1), null when the config has none. */
  get bm25() { return this._legs?.bm25?.index ?? null; }

  /** The vector index (VectorIndex, or ShardedVectorIndex with workers > 1), null when the config has none. */
  get dense() { return this._legs?.dense?.index ?? null; }

  /** @internal legs: createLegs / shardedLegs (legs.js), null for new indexes in this thread */
  constructor(cfg, embedder, dimension, legs, docs, keepVectors = false, zeroVectors = []) {
    expectInternal(isPlainObject(cfg) && isPlainObject(cfg.indexes) && isPlainObject(cfg.chunker) && isInstance(docs, Map), 'Collection', 'Collection.create(config, options), Collection.load or Collection.fromBytes');
    this.config = cfg;
    this._llm = null;  // the create option llm (the config's LLM context steps)
    const needsEmbedder = cfg.indexes.dense || cfg.chunker.strategy === 'semantic';
    /** The embedder (embed/contract.js shape) or null. */
    this.embedder = needsEmbedder ? denseEmbedder(embedder, dimension) : null;
    if (cfg.indexes.dense) this.dimension = this.embedder.dimension;
    /** The retrieval legs (legs.js): single or sharded behind one interface. */
    this._legs = legs ?? createLegs(cfg, this.dimension);
    /** @type {Map<string, DocRecord>} documents: `{title?, fields?, metadata, length, chunks}` (chunk-store.js) */
    this.docs = docs;
    /** chunk id -> chunk, Map-like and read-only; chunk objects made on demand (chunk-store.js) */
    this.chunks = new ChunkMap(docs);
    /** Chunk ids whose document embedding is all zeros: kept out of the dense leg (docs/collection.md). */
    this.zeroVectors = new Set(zeroVectors);
    /** @type {Map<string, Float32Array>|null} chunk id -> the vector indexed for it (keepVectors) */
    this._vectors = keepVectors && cfg.indexes.dense ? new Map() : null;
    this._keepVectors = keepVectors;
    /** Last leg check report (checkLegs()), null before the first; legCheckedAt = chunks then. */
    this.legReport = null;
    this.legCheckedAt = -1;
    // Bumped by every add/remove: a leg check is reused only for the chunks it saw, so results do not
    // depend on the order of adds (a loaded or imported copy decides the same way).
    this.revision = 0;
    this.legCheckedRevision = -1;
    this.legCheckRunning = null;
    this._disposed = false;
    // add(), setEmbedder() and save() run one at a time (each awaits the embedder or storage between
    // its checks and its writes); _queued counts those not yet settled.
    this._queue = Promise.resolve();
    this._queued = 0;
  }

  /** True after dispose(): every other method then throws DISPOSED. */
  get disposed() { return this._disposed; }

  _alive() {
    if (this._disposed) throw disposedError();
  }

  /** Runs `fn` after the add/setEmbedder/save calls before it have finished; with `now`, at once (in this
   * call, up to fn's first await) when none is running. */
  _exclusive(fn, { now = false } = {}) {
    const go = () => { this._alive(); return fn(); };
    const run = now && this._queued === 0 ? (async () => go())() : this._queue.then(go);
    this._queued++;
    // settled before any caller's await on `run` resumes (this reaction is registered first)
    const settle = () => { this._queued--; };
    this._queue = run.then(settle, settle);
    return run;
  }

  /** Number of documents. @throws {RagwasmError} DISPOSED */
  get size() {
    this._alive();
    return this.docs.size;
  }

  /** The embedder's identity, as saved: `{id, dimension}`, or null without an embedder. @throws {RagwasmError} DISPOSED */
  get embedderInfo() {
    this._alive();
    return this.embedder ? { id: this.embedder.id, dimension: this.embedder.dimension } : null;
  }

  /**
   * Chunks and indexes documents. A document id that exists is replaced (upsert). BM25 indexes each
   * chunk's `indexText` (the chunker's context + the text) as the field "text" and the document's
   * other configured fields (default `title`); the dense leg embeds `indexText` with
   * `kind: 'document'`. Chunks whose embedding is all zeros (e.g. the static model on text without
   * one known word) are reported in `zeroVectors` and kept out of the dense leg. A document without a
   * title gets `documentTitle(text, id)` (its first "# " heading, else the id without path and
   * extension; `title: null`: none): the BM25 title field and ask()'s extractive answerer use it. Every document is chunked and embedded
   * before anything is written: an abort (or a failed step) leaves the collection exactly as it was.
   * @param {{id: string, text: string, title?: string|null, metadata?: object}[]} documents (or one document) metadata values:
   *   string, finite number, boolean or null (strings and numbers are filterable)
   * @param {{onProgress?: (progress: {done: number, total: number, unit: 'characters', documents: number, totalDocuments: number}) => void, signal?: AbortSignal, batchSize?: number,
   *   chunkContexts?: (document: {id: string, title?: string, text: string}, chunks: {id: string, text: string}[]) => (string[]|Promise<string[]>)}} [options]
   *   onProgress: done/total in characters of text chunked and embedded, a call per document and per 64 chunks
   *   (monotone; the last, done === total, after the writes). chunkContexts: a context per chunk written by the caller (e.g. an LLM: `llmChunkContexts(client)` of ragwasm/llm,
   *   contextual retrieval), put before the chunk text in its indexText (after the config's chunker.context, joined by
   *   its separator, default two newlines); '' adds nothing. Indexed by BM25 and the dense leg like any context.
   * @returns {Promise<{added: number, updated: number, removed: number, skipped: number, documents: number, chunks: number, zeroVectors: string[]}>}
   *   every index's write summary (updated: documents replaced) with the documents in the call, the chunks
   *   indexed and the chunk ids kept out of the dense leg; upsert() returns the same
   * @throws {RagwasmError} INVALID_ARGUMENT (also a chunkContexts result that is not one string per chunk), DUPLICATE_ID,
   *   ABORTED (nothing of the call is indexed), DISPOSED (also when dispose() lands while the embedder runs:
   *   no partial success); what chunkContexts throws
   */
  async add(documents, options = {}) {
    const p = prepareAdd(this, documents, options, 'add options');
    return this._exclusive(() => addPrepared(this, p));
  }

  /**
   * Adds or replaces documents: a document whose id is in the collection replaces it (its old chunks
   * leave both legs), the others are added. The collection after it (hits, `chunks`, `toBytes()` bytes)
   * is the one `remove(the ids that exist)` then `add(documents)` gives (the same index writes); unlike
   * that pair, nothing is removed before every document is chunked (with its LLM context steps) and
   * embedded, so a failed step or embedder, or an abort, leaves the collection as it was.
   * @param {{id: string, text: string, title?: string|null, metadata?: object}[]} documents (or one document), as add()
   * @param {object} [options] as add()
   * @returns {Promise<{added: number, updated: number, removed: number, skipped: number, documents: number, chunks: number, zeroVectors: string[]}>}
   *   the write summary of every index (removed and skipped are 0) with add()'s counts
   * @throws {RagwasmError} as add()
   */
  async upsert(documents, options = {}) {
    const p = prepareAdd(this, documents, options, 'upsert options');
    return this._exclusive(() => addPrepared(this, p, { replaceFirst: true }));
  }

  /**
   * Removes documents (and their chunks) by id; unknown ids are ignored.
   * @param {string[]} ids
   * @returns {number} documents removed
   * @throws {RagwasmError} INVALID_ARGUMENT, DISPOSED
   */
  remove(ids) {
    this._alive();
    expectArray(ids, 'ids', { item: (v, n) => expectString(v, n, { allowEmpty: false }) });
    for (let i = 0; i < ids.length; i++) if (!(i in ids)) throw invalid(`ids[${i}]`, 'a string', undefined);
    return this._remove(ids);
  }

  /**
   * Reclaims what remove() and replacing add() leave in the indexes: BM25 postings of deleted chunks
   * (Bm25Index.compact), and an HNSW dense index's tombstones (VectorIndex.compact: the graph rebuilt
   * from the live vectors in insertion order). Runs in turn with add(), setEmbedder() and save().
   * @returns {Promise<{vectorsDropped: number}>} the dense tombstones dropped
   * @throws {RagwasmError} DISPOSED, OUT_OF_MEMORY (the indexes are kept as they were)
   */
  compact() {
    return this._exclusive(async () => {
      const { bm25, dense } = this._legs;
      await this._legs.settled();
      this._alive();
      if (bm25) await bm25.compact();
      return { vectorsDropped: dense ? await dense.compact() : 0 };
    });
  }

  _remove(ids) {
    let removed = 0;
    for (const id of ids) {
      const d = this.docs.get(id);
      if (!d) continue;
      const chunkIds = d.chunkList().map((c) => c.id);
      if (chunkIds.length > 0) {
        const inDense = chunkIds.filter((c) => !this.zeroVectors.has(c));
        // sharded legs post the removal now, in order before any later search or write
        this._legs.bm25?.remove(chunkIds);
        if (inDense.length > 0) this._legs.dense?.remove(inDense);
      }
      for (const c of chunkIds) {
        this.zeroVectors.delete(c);
        this.revision++;
        this._vectors?.delete(c);
      }
      this.docs.delete(id);
      this.chunks.removed(d);
      removed++;
    }
    return removed;
  }

  // The dense leg's hits: the query embedded with kind 'query'; an all-zero query vector matches nothing.
  async _denseHits(queries, k, allowed, signal) {
    const vecs = await embedTexts(this.embedder, queries, { kind: 'query', signal });
    if (this._disposed) throw disposedError();
    abortCheck(signal);
    const hits = await this._legs.dense.searchMany(vecs, k, allowed);
    if (this._disposed) throw disposedError();
    return hits;
  }

  // Chunk ids of the documents passing `filter` (the vector leg's id predicate).
  _allowedChunks(filter) {
    const out = new Set();
    for (const d of this.docs.values()) {
      if (!metadataMatches(d.metadata ?? {}, filter)) continue;
      for (const c of d.chunkList()) if (!this.zeroVectors.has(c.id)) out.add(c.id);
    }
    return out;
  }

  /**
   * Searches with the config's retrievers and fusion; returns chunks (or documents) best first.
   * @param {string} query non-empty, with at least one searchable term when BM25 is configured
   * @param {object} [options]
   * @param {number} [options.k] results (chunks, or documents at level 'document'); default retrieval.k
   *   (a config with retrieval.k 0, "no retrieval", returns [] when options.k is not given)
   * @param {object} [options.filter] metadata filter applied to both legs, Bm25Index's language:
   *   `{lang: 'en', tag: ['a', 'b'], year: {gte: 2020}}` (docs/collection.md "Filters"); default the config's retrieval.filter, null = no filter
   * @param {'chunk'|'document'} [options.level='chunk'] 'document': chunk hits aggregated per document
   *   (aggregateToDocuments, method 'max'): `{id: docId, docId, score, chunks, bestChunk, text, start, end}`
   * @param {Function} [options.reranker] reranker(query, items) -> scores, used when the config enables rerank
   * @param {boolean} [options.explain=false] add each item's contributions and the fusion diagnostics
   * @param {boolean|number|Function|object|string} [options.prefix] [options.fuzzy] [options.maxFuzzy] [options.weights]
   *   [options.combineWith] [options.boost] the BM25 leg's typo-tolerant / type-ahead options (Bm25Index.search);
   *   a filter function keeps the fused items it returns truthy for (before k and the reranker)
   * @param {AbortSignal} [options.signal]
   * @returns {Promise<object[]>}
   * @throws {RagwasmError} INVALID_ARGUMENT (empty query or only stopwords, bad k, bad filter), ABORTED, DISPOSED
   */
  async search(query, options = {}) {
    this._alive();
    const o = expectOptions(options, 'search options', ['k', 'reranker', 'signal', 'explain', 'filter', 'level', ...LEXICAL_KEYS]);
    expectString(query, 'query');
    if (query.trim() === '') throw invalid('query', 'a non-empty query', query);
    const k = o.k === undefined ? this.config.retrieval.k : expectSearchK(o.k);
    if (k === 0) return [];  // retrieval.k 0: the no-retrieval baseline (the answerer gets no context)
    const explain = o.explain === undefined ? false : expectBoolean(o.explain, 'options.explain');
    const level = o.level === undefined ? 'chunk' : expectEnum(o.level, 'options.level', SEARCH_LEVELS);
    const keep = typeof o.filter === 'function' ? o.filter : null;  // a filter(item) callback over the fused items (#29)
    if (o.filter !== undefined && o.filter !== null && keep === null) checkFilter(o.filter, 'options.filter');
    // Without options.filter, the config's retrieval.filter (checked by parsePipelineConfig) applies.
    const given = o.filter === undefined || keep !== null ? this.config.retrieval.filter ?? null : o.filter;
    const filter = given === null || Object.keys(given).length === 0 ? null : given;
    const lexical = lexicalOptions(o);  // prefix, fuzzy, combineWith, boost ...: the BM25 leg's (Bm25Index.search)
    // candidates above the search k limit fetch MAX_SEARCH_K hits per leg
    const n = Math.min(MAX_SEARCH_K, Math.max(this.config.retrieval.candidates, k));
    const lists = [];
    let expansionTerms = null;
    for (const r of this.config.retrieval.retrievers) {
      if (r === 'bm25') {
        const bm25 = this._legs.bm25;
        if (bm25.analyze(query).length === 0) {
          throw invalid('query', 'at least one searchable term (it is empty or only stopwords)', query);
        }
        // retrieval.expansion: query expansion from word neighbours (retrieve/expansion.js; single BM25 leg only)
        const expansion = await configExpansion(this.config.retrieval, this.workers > 1);
        if (this._disposed) throw disposedError();
        const bo = { k: n, ...(filter ? { filter } : {}), ...(expansion ? { expansion } : {}), ...lexical };
        const hits = await bm25.search(query, bo);
        if (this._disposed) throw disposedError();
        if (explain && expansion) expansionTerms = bm25.index.expansionTerms(query, { expansion });
        lists.push({ retriever: 'bm25', hits: hits.map((h) => ({ id: h.id, score: h.score })) });
      } else {
        const [hits] = await this._denseHits([query], n, filter ? this._allowedChunks(filter) : null, o.signal);
        lists.push({ retriever: 'dense', hits: hits.map((h) => ({ id: h.id, score: h.score })) });
      }
    }
    const fused = positive(lists.length === 1 ? single(lists[0]) : await this._fuse(lists, o.signal), lists);
    this._alive();
    // A chunk removed while this search awaited the embedder or the leg check is not returned.
    let items = fused.hits.map((h) => [h, this.chunks.get(h.id)]).filter(([, c]) => c !== undefined).map(([h, c]) => {
      const item = { id: h.id, docId: c.docId, text: c.text, start: c.start, end: c.end, score: h.score };
      const title = this.docs.get(c.docId)?.title;
      if (title !== undefined) item.title = title;
      if (explain) item.contributions = h.contributions;
      return item;
    });
    if (keep !== null) items = items.filter((it) => keep(it));
    if (this.config.rerank.enabled && o.reranker !== undefined) {
      const keep = level === 'document' ? this.config.rerank.keep : Math.min(k, this.config.rerank.keep);
      items = await rerankItems(query, items, o.reranker, { candidates: this.config.rerank.candidates, keep, signal: o.signal });
      this._alive();
    }
    let out;
    if (level === 'document') {
      const scoreOf = (it) => it.rerankScore ?? it.score;
      const byId = new Map(items.map((it) => [it.id, it]));
      out = aggregateToDocuments(items.map((it) => ({ id: it.id, docId: it.docId, score: scoreOf(it) })), { method: 'max', k })
        .map((d) => {
          const best = byId.get(d.bestChunk);
          const item = { id: d.docId, docId: d.docId, score: d.score, chunks: d.chunks, bestChunk: d.bestChunk, text: best.text, start: best.start, end: best.end };
          if (best.title !== undefined) item.title = best.title;
          return item;
        });
    } else {
      out = items.slice(0, k);
    }
    if (explain) {
      out.diagnostics = fused.diagnostics;
      if (fused.legReport) out.diagnostics.legCheck = structuredClone(fused.legReport);
      if (expansionTerms) out.diagnostics.expansion = expansionTerms;
    }
    return out;
  }

  // Fuses two or more lists with the config's fusion (and the leg check of the default hybrid).
  async _fuse(lists, signal) {
    const f = this.config.retrieval.fusion;
    const legReport = f.legCheck ? await this.#legCheckForSearch(signal) : null;
    return fuseLegs(lists, f, this.config.retrieval.retrievers, legReport);
  }

  /**
   * Runs the label-free leg check now (docs/fusion.md "Leg check"): probe sentences from up to 200
   * stored chunks are searched with each retriever; a retriever whose self-retrieval MRR@10 is below
   * 0.8 x the best one's is reported weak, and the default hybrid (`retrieval.fusion.legCheck`) benches
   * it (weight 0). search() runs it by itself on the first search after any add/remove (about 200
   * probe embeddings and 2 x 200 searches; 483 ms at 101k chunks with the static model).
   * @param {{signal?: AbortSignal}} [options]
   * @returns {Promise<{probes: number, k: number, ratio: number, decided: boolean,
   *   legs: {retriever: string, mrr: number}[], weak: string[], warning: string|null}>}
   * @throws {RagwasmError} INVALID_ARGUMENT (fewer than two retrievers configured), ABORTED, DISPOSED
   */
  async checkLegs(options = {}) {
    this._alive();
    const o = expectOptions(options, 'checkLegs options', ['signal']);
    const retrievers = this.config.retrieval.retrievers;
    const legs = retrievers.map((r) => ({
      retriever: r,
      search: r === 'bm25'
        ? async (queries, k) => {
          const found = await this._legs.bm25.searchMany(queries, { k });
          if (this._disposed) throw disposedError();
          return found.map((hits) => hits.map((h) => h.id));
        }
        : async (queries, k) => (await this._denseHits(queries, k, null, o.signal)).map((hits) => hits.map((h) => h.id)),
    }));
    const revision = this.revision;
    const report = await checkLegs(legs, [...this.chunks.values()], { signal: o.signal });
    Object.freeze(report.legs);
    Object.freeze(report.weak);
    this.legReport = Object.freeze(report);
    this.legCheckedAt = this.chunks.size;
    this.legCheckedRevision = revision;
    return report;
  }

  /** The leg check of the current chunks: cached until the next add/remove; concurrent searches share one run. */
  async #legCheckForSearch(signal) {
    if (this.legReport && this.legCheckedRevision === this.revision) return this.legReport;
    if (this.legCheckRunning === null) {
      const run = this.checkLegs(signal ? { signal } : {});
      this.legCheckRunning = run;
      run.then(() => { if (this.legCheckRunning === run) this.legCheckRunning = null; },
        () => { if (this.legCheckRunning === run) this.legCheckRunning = null; });
    }
    return this.legCheckRunning;
  }

  /**
   * Switches to another embedder: every chunk is re-embedded (`kind: 'document'`) into a new dense
   * index, which replaces the old one only when all of it is built; on failure or abort the old
   * index and embedder stay. Waits for add() calls in flight. Zero vectors are re-decided.
   * @param {object|Function} embedder as create()
   * @param {{dimension?: number, signal?: AbortSignal, onProgress?: (progress: {done: number, total: number}) => void,
   *   batchSize?: number}} [options] batchSize (chunks embedded at a time) default 256
   * @returns {Promise<{chunks: number, zeroVectors: string[]}>}
   * @throws {RagwasmError} INVALID_ARGUMENT (no dense index, bad embedder), DIMENSION_MISMATCH (bad
   *   vectors), ABORTED, DISPOSED
   */
  async setEmbedder(embedder, options = {}) {
    this._alive();
    const o = expectOptions(options, 'setEmbedder options', ['dimension', 'signal', 'onProgress', 'batchSize']);
    if (!this.config.indexes.dense) throw invalid('setEmbedder', 'a collection with a dense index (the config has none)', embedder);
    if (this.workers > 1) throw invalid('setEmbedder', 'a collection with workers: 1 (a sharded collection embeds with the default static model)', embedder);
    const e = denseEmbedder(embedder, o.dimension, 'embedder');
    if (o.onProgress !== undefined) expectFunction(o.onProgress, 'options.onProgress');
    const batchSize = o.batchSize === undefined ? 256 : expectInteger(o.batchSize, 'options.batchSize', { min: 1, max: 100000 });
    return this._exclusive(async () => {
      const fresh = VectorIndex.create(denseOptions(this.config.indexes.dense, e.dimension));
      const kept = this._keepVectors ? new Map() : null;
      const zero = [];
      try {
        const all = [];
        const recordOf = new Map();  // chunk -> its document record then (a replaced document has a new one)
        for (const d of this.docs.values()) for (const c of d.chunkList()) { all.push(c); recordOf.set(c, d); }
        for (let i = 0; i < all.length; i += batchSize) {
          abortCheck(o.signal);
          const batch = all.slice(i, i + batchSize);
          const vectors = await embedTexts(e, batch.map(indexTextOf), { kind: 'document', signal: o.signal });
          if (this._disposed) throw disposedError();
          abortCheck(o.signal);
          // A document removed meanwhile (remove() does not wait) is left out.
          const keep = batch.flatMap((c, k) => (this.docs.get(c.docId) === recordOf.get(c) ? [k] : []));
          const nonZero = keep.filter((k) => !isZeroVector(vectors[k]));
          for (const k of keep) if (isZeroVector(vectors[k])) zero.push(batch[k].id);
          if (nonZero.length > 0) fresh.add(nonZero.map((k) => ({ id: batch[k].id, vector: vectors[k] })));
          if (kept) for (const k of keep) kept.set(batch[k].id, vectors[k]);
          o.onProgress?.({ done: Math.min(i + batchSize, all.length), total: all.length });
          await new Promise((r) => setTimeout(r, 0));
          if (this._disposed) throw disposedError();
        }
      } catch (err) {
        fresh.dispose();
        throw err;
      }
      const stale = [...this.chunks.keys()].filter((id) => !fresh.has(id) && !zero.includes(id));
      const old = this._legs.dense;
      this._legs.dense = this._legs.newDense(fresh);
      this.embedder = e;
      this.dimension = e.dimension;
      this.zeroVectors = new Set(zero.filter((id) => this.chunks.has(id)));
      if (this._vectors) this._vectors = kept;
      this.revision++;
      old.dispose();
      if (stale.length > 0) {
        // chunks added by nobody (add waits) cannot be here; only removals happen meanwhile
        throw new RagwasmError('INTERNAL', `ragwasm: setEmbedder: ${stale.length} chunks were not re-embedded`);
      }
      return { chunks: this.chunks.size, zeroVectors: [...this.zeroVectors] };
    });
  }

  /**
   * Serializes the collection in the one container (docs/formats.md): magic "RWCOLLEC", version 3,
   * sections 1 JSON header, 2 BM25 index, 3 vector index (each index section only when it is on), XXH64.
   * The header holds the config, the embedder's
   * `{id, dimension}`, the documents (id, title, fields, metadata, length, chunks) and the zero-vector
   * chunk ids (docs/collection.md "Saved format"). Kept vectors (`keepVectors`) are not saved.
   * A collection with `workers` > 1 returns a Promise of the same bytes workers: 1 writes: its chunks
   * are indexed once more into one Bm25Index and one VectorIndex in this thread (the dense leg's
   * chunks embedded again across the Workers), in the order one index received them
   * (docs/parallel.md "Collection across Workers").
   * @returns {Uint8Array|Promise<Uint8Array>} a Promise when `workers` > 1
   * @throws {RagwasmError} DISPOSED
   */
  toBytes() {
    this._alive();
    return this._legs.toBytes(this);
  }

  // the JSON header as UTF-8 pieces (header.js: no single string past V8's limit at ~1.7M chunks)
  _headerBytes() {
    return [...this._headerStream()];
  }

  // _headerBytes() made one piece at a time as they are taken (scratch, onText: see headerStream)
  _headerStream(scratch = false, onText = null) {
    const header = { config: this.config, embedder: this.embedder ? { id: this.embedder.id, dimension: this.embedder.dimension } : null };
    return headerStream(header, this.docs, this.zeroVectors.size > 0 ? [...this.zeroVectors] : undefined, scratch, onText);
  }

  /**
   * Rebuilds a collection from toBytes() output (format versions 1, 2 and 3). Every header field is
   * checked against the sections it describes before the collection is returned (docs/collection.md).
   * @param {Uint8Array} bytes
   * @param {{embedder?: object|Function, dimension?: number, keepVectors?: boolean, workers?: number, llm?: object}} [options] embedder
   *   needed when the dense index is on; it must be the model the collection was built with.
   *   `workers` > 1 (as create()): the bytes are checked as here, then the chunks are indexed into
   *   sharded legs across a new pool (the dense leg re-embedded with the default static model, which
   *   must be the saved embedder); the result is then a Promise. `llm` (as create()): the LLM of the
   *   saved config's context steps, needed only to add() to the loaded collection
   *   No embedder (nor dimension) for a collection saved with the default static model: that model is
   *   loaded (createStaticEmbedder()) and the result is a Promise; another saved id is refused, named.
   * @returns {Collection|Promise<Collection>} a Promise when `workers` > 1 or the default model is loaded
   * @throws {RagwasmError} CORRUPT_INDEX (magic, length, checksum, or a header field that disagrees with
   *   the data: the message names the field), UNSUPPORTED_VERSION, INVALID_ARGUMENT (no embedder, or an
   *   embedder with another id: the message names the model needed; details {expected, got}),
   *   DIMENSION_MISMATCH (same id, other dimension)
   */
  static fromBytes(bytes, options = {}) {
    const o = expectOptions(options, 'Collection.fromBytes options', ['embedder', 'dimension', 'keepVectors', 'workers', 'llm']);
    const keepVectors = o.keepVectors === undefined ? false : expectBoolean(o.keepVectors, 'options.keepVectors');
    const workers = o.workers === undefined ? 1 : expectInteger(o.workers, 'options.workers', { min: 1, max: 64 });
    if (workers > 1) return Collection._fromBytesSharded(bytes, o, workers, keepVectors);
    const { h, sections, corrupt } = readHeader(bytes);
    if (needsDefaultModel(h, o)) return withDefaultModel(h, (embedder) => Collection.fromBytes(bytes, { ...o, embedder }));
    const llm = checkLlm(h.cfg, o.llm, { required: false });
    const { bm25, dense, embedder, needs } = loadSections(h, sections, corrupt, o);
    try {
      const c = new Collection(h.cfg, embedder, needs ? undefined : o.dimension, createLegs(h.cfg, undefined, bm25, dense), h.docs, keepVectors, h.zeroVectors);
      c._llm = llm;
      return c;
    } catch (e) {
      // e.g. a header that disagrees with an index: free the indexes already loaded
      bm25?.dispose();
      dense?.dispose();
      throw e;
    }
  }

  static async _fromBytesSharded(bytes, o, workers, keepVectors) {
    const { h } = readHeader(bytes);  // corrupt headers fail before any Worker starts
    const llm = checkLlm(h.cfg, o.llm, { required: false });
    const withLlm = (c) => { c._llm = llm; return c; };
    const defaultModel = o.embedder === undefined && o.dimension === undefined && h.cfg.indexes.dense;
    checkShardable(h.cfg, defaultModel, 'options.workers', workers);
    if (!h.cfg.indexes.dense) {
      // every section checked as workers: 1 does, then the chunks indexed into the shards
      const plain = /** @type {Collection} */ (Collection.fromBytes(bytes, { ...o, workers: 1 }));
      plain.dispose();
      return withLlm(await Collection._sharded(h.cfg, workers, o.embedder, o.dimension, plain.docs, keepVectors, []));
    }
    const embedder = await createStaticEmbedder();
    let plain;
    try {
      plain = /** @type {Collection} */ (Collection.fromBytes(bytes, { embedder, keepVectors: false }));
    } finally {
      embedder.dispose();
    }
    plain.dispose();
    return withLlm(await Collection._sharded(h.cfg, workers, undefined, undefined, plain.docs, keepVectors, [...plain.zeroVectors]));
  }

  /**
   * True when `bytes` start like saved collection bytes (any format version: the magic only, nothing
   * is checked or loaded; needs no init()). E.g. to tell a saved Collection from a saved index.
   * @param {Uint8Array} bytes
   * @returns {boolean}
   */
  static isCollectionBytes(bytes) {
    return isCollectionBytes(bytes);
  }

  /**
   * What saved bytes hold, without loading the indexes or needing the embedder (e.g. to pick the
   * embedder a collection needs). The header is checked as by fromBytes(), the index sections are not.
   * @param {Uint8Array} bytes toBytes() output
   * @returns {{version: number, config: object, embedder: {id: string, dimension: number}|null, documents: number, chunks: number}}
   * @throws {RagwasmError} CORRUPT_INDEX, UNSUPPORTED_VERSION, INVALID_ARGUMENT (not a Uint8Array)
   */
  static inspect(bytes) {
    const { h, version } = readHeader(bytes);
    return { version, config: h.cfg, embedder: h.embedder, documents: h.docs.size, chunks: h.chunkIds.size };
  }

  /**
   * Saves under `name` (storage.js: OPFS / IndexedDB / Node file). The bytes are first checked as
   * fromBytes checks them (the index sections without building a second index) and only then written
   * atomically: a good copy is never replaced by one that does not load.
   * @param {string} name
   * @param {{dir?: string, backend?: 'node'|'opfs'|'indexeddb'}} [opts]
   * @throws {RagwasmError} DISPOSED, CORRUPT_INDEX (the new bytes do not load back: nothing written),
   *   ABORTED (a remove() changed the collection while it was written: the stored copy is kept), storage errors
   */
  save(name, opts) {
    // after an add() or setEmbedder() in progress, and before any called later (they wait for the write);
    // when none runs, the bytes are those of the collection at this call
    return this._exclusive(() => this._legs.save(this, name, opts), { now: true });
  }

  /**
   * Loads a collection saved with save().
   * @param {string} name
   * @param {{embedder?: object|Function, dimension?: number, keepVectors?: boolean, workers?: number, llm?: object, dir?: string, backend?: string}} [options]
   *   as fromBytes()
   * @returns {Promise<Collection>}
   * @throws {RagwasmError} NOT_FOUND, as fromBytes()
   */
  static async load(name, options = {}) {
    const { embedder, dimension, keepVectors, workers, llm, ...storage } = expectOptions(options, 'Collection.load options',
      ['embedder', 'dimension', 'keepVectors', 'workers', 'llm', 'dir', 'backend']);
    const bytes = await loadBytes(name, storage);
    if (bytes === null) throw new RagwasmError('NOT_FOUND', `ragwasm: no collection stored under "${name}"`);
    const o = {};
    if (embedder !== undefined) o.embedder = embedder;
    if (dimension !== undefined) o.dimension = dimension;
    if (keepVectors !== undefined) o.keepVectors = keepVectors;
    if (workers !== undefined) o.workers = workers;
    if (llm !== undefined) o.llm = llm;
    return Collection.fromBytes(bytes, o);
  }

  /**
   * The collection as JSONL lines (without the newline), for a server-side engine or importJsonl():
   * first a header line `{"type": "ragwasm.collection", "version": 1, "config", "dimension",
   * "documents", "chunks", "vectors"}` (unless `header: false`), then one line per chunk, documents in
   * insertion order: `{"id", "docId", "ordinal", "text", "start", "end", "metadata", "vector"?}`
   * (`metadata` is the document's). A document without chunks (empty text) is one
   * `{"type": "ragwasm.document", "id", "metadata"}` line. Chunk lines never have a `type` field.
   * `vector` is the chunk's embedding as JSON numbers, each the float32 value widened to a double
   * (Math.fround(parsed) === the float32; any float32 parser reads it exactly): the kept copy
   * (`keepVectors`) or, when none is kept, the embedder's output for the chunk text, computed in
   * batches while iterating. The documents are a snapshot taken when iteration starts.
   * @param {{vectors?: boolean, header?: boolean, batchSize?: number, signal?: AbortSignal,
   *   onProgress?: (progress: {done: number, total: number}) => void}} [options] vectors default false (true needs
   *   the dense index), header default true, batchSize (chunks embedded at a time) default 256
   * @returns {AsyncGenerator<string>}
   * @throws {RagwasmError} INVALID_ARGUMENT (bad option; vectors without a dense index), ABORTED,
   *   embedder errors as add()
   */
  exportJsonlLines(options = {}) {
    return exportLines(this, options);
  }

  /**
   * The whole export as one string (exportJsonlLines() joined, one line each, ending in a newline).
   * For large collections iterate exportJsonlLines() instead (no single giant string).
   * @param {Parameters<Collection['exportJsonlLines']>[0]} [options] as exportJsonlLines()
   * @returns {Promise<string>}
   */
  async exportJsonl(options = {}) {
    this._alive();
    const lines = [];
    for await (const line of this.exportJsonlLines(options)) lines.push(line);
    return lines.length > 0 ? lines.join('\n') + '\n' : '';
  }

  /**
   * Builds a collection from JSONL written by exportJsonlLines() (or by hand / a server: chunk lines
   * only, with or without vectors). The config is `options.config`, else the header line's, else the
   * default. Chunk lines with a `vector` go straight into the dense index (no re-embedding); the
   * others are embedded with `options.embedder` when the dense index is on (vectors are ignored when
   * it is off). Every line is checked before any index is built; a failure while building (embedder,
   * abort) disposes what was built. Chunks are indexed grouped by document in first-seen order, so
   * an exported collection imports to identical search results (ids and scores; HNSW: when the
   * original had no removals) and exports byte-identically again.
   * @param {string|Iterable<string>|AsyncIterable<string>} input the JSONL text, or its lines (e.g.
   *   from node:readline or exportJsonlLines(); an item may hold several whole lines)
   * @param {object} [options]
   * @param {string|object} [options.config] pipeline config (overrides the header's)
   * @param {object|Function} [options.embedder] as create(); needed when the dense index is on (queries)
   * @param {number} [options.dimension] when `embedder` is a function (default: the header's dimension)
   * @param {boolean} [options.keepVectors=false] as create()
   * @param {number} [options.batchSize=256] chunks indexed (and embedded) at a time
   * @param {(progress: {done: number, total: number}) => void} [options.onProgress] chunks indexed so far
   * @param {AbortSignal} [options.signal]
   * @returns {Promise<Collection>}
   * @throws {RagwasmError} naming the line and field (`line 17: vector: expected 384 numbers, got
   *   383`; details {line, field}): INVALID_ARGUMENT (bad JSON, a missing or wrong field, a vector
   *   value that is not a finite number with |x| <= 1e15, chunk counts unlike the header's),
   *   DIMENSION_MISMATCH (vector length, header dimension vs the embedder's), DUPLICATE_ID (a chunk
   *   id or document line twice), UNSUPPORTED_VERSION (a newer header version), ABORTED; config errors
   *   as parsePipelineConfig
   */
  static async importJsonl(input, options = {}) {
    const o = expectOptions(options, 'Collection.importJsonl options',
      ['config', 'embedder', 'dimension', 'keepVectors', 'batchSize', 'onProgress', 'signal']);
    const keepVectors = o.keepVectors === undefined ? false : expectBoolean(o.keepVectors, 'options.keepVectors');
    const batchSize = o.batchSize === undefined ? 256 : expectInteger(o.batchSize, 'options.batchSize', { min: 1, max: 100000 });
    if (o.onProgress !== undefined) expectFunction(o.onProgress, 'options.onProgress');
    const parsed = await parseJsonl(input, o);
    abortCheck(o.signal);
    const { cfg, embedder } = parsed;
    const col = new Collection(cfg, embedder ?? o.embedder, undefined, null, new Map(), keepVectors);
    try {
      await indexJsonl(col, parsed, o, batchSize);
      return col;
    } catch (e) {
      col.dispose();
      throw e;
    }
  }

  /**
   * Frees the WASM indexes. Afterwards every method throws DISPOSED (an add() awaiting its embedder
   * fails with DISPOSED instead of succeeding partly); a second dispose() does nothing.
   */
  dispose() {
    if (this._disposed) return;
    this._disposed = true;
    this._legs.dispose();
    this._legs = { workers: this._legs.workers, bm25: null, dense: null };
    this._vectors = null;
  }
}
