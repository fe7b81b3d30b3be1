// Collections: the integration layer over chunk() -> Bm25Index / VectorIndex -> fuse(), driven by
// one pipeline config (parsePipelineConfig). add / remove / search, and save / load through
// web/src/core/storage.js (atomic: OPFS, IndexedDB fallback, files in Node). Saved bytes: magic
// "RAGWCOL1", format version, length-prefixed sections and a CRC-32 at the end (checksum.js
// packSections). JSONL export / import of chunks + vectors + metadata for server-side engines.
import { RagwasmError } from '../core/errors.js';
import { chunk } from '../chunk/chunk.js';
import { VectorIndex } from '../retrieve/dense.js';
import { fuse, rerank as rerankItems } from '../retrieve/fusion.js';
import { packSections, unpackSections } from '../core/checksum.js';
import { parsePipelineConfig } from './pipeline.js';
import { checkLegs, weightsAfterLegCheck } from '../retrieve/leg-check.js';
import { Bm25Index } from '../retrieve/sparse.js';
import { createStaticEmbedder } from '../embed/embed.js';
import { loadBytes, saveBytes } from '../core/storage.js';
import { describe, expectArray, expectBoolean, expectFunction, expectInteger, expectOptions, expectString, invalid, isPlainObject } from '../core/validate.js';

const MAGIC = 'RAGWCOL1';
/** The collection format version this build writes and reads. */
export const COLLECTION_FORMAT_VERSION = 1;
/** The JSONL export format version (the header line's "version") this build writes and reads. */
export const JSONL_FORMAT_VERSION = 1;
const JSONL_HEADER = 'ragwasm.collection';
const JSONL_DOCUMENT = 'ragwasm.document';
const CHUNK_FIELDS = ['id', 'docId', 'ordinal', 'text', 'start', 'end', 'metadata', 'vector'];
const HEADER_FIELDS = ['type', 'version', 'config', 'dimension', 'documents', 'chunks', 'vectors'];
const DOCUMENT_FIELDS = ['type', 'id', 'metadata'];


function abortCheck(signal) {
  if (signal?.aborted) throw new RagwasmError('ABORTED', 'ragwasm: operation aborted');
}

function bm25Options(c) {
  const scorer = { bm25: 'lucene', bm25l: 'bm25l', 'bm25+': 'bm25plus' }[c.variant];
  return { fields: ['text'], scorer, k1: c.k1, b: c.b, analyzer: { stemmer: c.stemmer, stopwords: c.stopwords ? 'lucene' : false } };
}
function denseOptions(c, dimension) {
  const o = { dimension, metric: c.metric, index: c.index, storage: c.quantization === 'int8' ? 'int8' : 'f32' };
  if (c.index === 'hnsw') o.hnsw = { M: c.hnsw.m, efConstruction: c.hnsw.efConstruction, efSearch: c.hnsw.efSearch };
  return o;
}
// The pipeline config's chunker section -> chunk() options: 'invalidUtf8' applies to bytes only (JS
// strings are always valid) and the sentence strategy has no character overlap.
function chunkOptions(c) {
  const { invalidUtf8, ...o } = c;  // eslint-disable-line no-unused-vars
  if (o.strategy === 'sentence') delete o.chunkOverlap;
  return o;
}

// The dense index's dimension for `embedder`, checked before any index is created.
function embedderDimension(embedder, dimension) {
  if (embedder === undefined) throw invalid('options.embedder', 'an embedder (the config enables the dense index)', embedder);
  if (typeof embedder !== 'function' && !(embedder && typeof embedder.embedSync === 'function')) {
    throw invalid('options.embedder', 'a StaticEmbedder-like object or an async function', embedder);
  }
  return typeof embedder === 'function' ? expectInteger(dimension, 'options.dimension', { min: 1, max: 8192 }) : embedder.dims;
}

// Checked here, before add() changes anything: a bad vector found by VectorIndex.add would come after
// the old chunks were removed and the BM25 index was updated (a half-applied batch).
async function embedTexts(embedder, texts, dimension) {
  const out = typeof embedder === 'function' ? await embedder(texts) : await embedder.embedSync(texts);
  if (!Array.isArray(out) || out.length !== texts.length) throw invalid('embedder result', `${texts.length} vectors`, out);
  out.forEach((v, i) => {
    if (!(v instanceof Float32Array || Array.isArray(v)) || v.length !== dimension) {
      throw new RagwasmError('DIMENSION_MISMATCH', `ragwasm: embedder result[${i}]: expected ${dimension} numbers, got ${v?.length ?? typeof v}`);
    }
    for (let j = 0; j < v.length; j++) {
      // VectorIndex.add's rule (docs/dense.md): finite with |x| <= 1e15
      if (typeof v[j] !== 'number' || !(Math.abs(v[j]) <= 1e15)) throw invalid(`embedder result[${i}][${j}]`, 'a finite number with |x| <= 1e15', v[j]);
    }
  });
  return out;
}

/**
 * A searchable collection of documents built from a pipeline config.
 *
 * @example
 * const col = await Collection.create({ indexes: { bm25: {} } });
 * await col.add([{ id: 'd1', text: 'Paris is the capital of France.' }]);
 * const hits = await col.search('capital of France', { k: 3 });
 * await col.save('my-collection'); const again = await Collection.load('my-collection');
 */
export class Collection {
  /**
   * @param {string|object} [config] pipeline config (see parsePipelineConfig); default the hybrid pipeline
   * @param {object} [options]
   * @param {{embedSync: (texts: string[]) => Float32Array[], dims: number}|((texts: string[]) => Promise<Float32Array[]>)} [options.embedder]
   *   for the dense index (default: createStaticEmbedder(), the default static model)
   * @param {number} [options.dimension] vector dimension when `embedder` is a function
   * @param {boolean} [options.keepVectors=false] keep a copy of every indexed vector (4 x dimension
   *   bytes per chunk) so exportJsonl({vectors: true}) writes them as indexed instead of re-embedding
   * @returns {Promise<Collection>}
   * @throws {RagwasmError} as parsePipelineConfig; INVALID_ARGUMENT when the dense index has no embedder
   */
  static async create(config = {}, options = {}) {
    const o = expectOptions(options, 'Collection.create options', ['embedder', 'dimension', 'keepVectors']);
    const keepVectors = o.keepVectors === undefined ? false : expectBoolean(o.keepVectors, 'options.keepVectors');
    const cfg = parsePipelineConfig(config);
    // A dense config without an embedder uses the default static model (package ragwasm-static-model).
    const embedder = o.embedder === undefined && cfg.indexes.dense ? await createStaticEmbedder() : o.embedder;
    return new Collection(cfg, embedder, o.dimension, null, null, new Map(), keepVectors);
  }

  /** @internal */
  constructor(cfg, embedder, dimension, bm25, dense, docs, keepVectors = false) {
    this.config = cfg;
    if (cfg.indexes.dense) this.dimension = embedderDimension(embedder, dimension);
    this.embedder = embedder;
    this.bm25 = cfg.indexes.bm25 ? (bm25 ?? Bm25Index.create(bm25Options(cfg.indexes.bm25))) : null;
    this.dense = cfg.indexes.dense ? (dense ?? VectorIndex.create(denseOptions(cfg.indexes.dense, this.dimension))) : null;
    /** @type {Map<string, {metadata: object, chunks: object[]}>} */
    this.docs = docs;
    this.chunks = new Map();
    for (const d of docs.values()) for (const c of d.chunks) this.chunks.set(c.id, c);
    /** @type {Map<string, Float32Array>|null} chunk id -> the vector indexed for it (keepVectors) */
    this._vectors = keepVectors && this.dense ? new Map() : null;
    /** Last leg check report (checkLegs()), null before the first; legCheckedAt = chunks then. */
    this.legReport = null;
    this.legCheckedAt = -1;
    // Bumped by every add/remove: a leg check is reused only for the chunks it saw, so results do not
    // depend on the order of adds (a loaded or imported copy decides the same way).
    this.revision = 0;
    this.legCheckedRevision = -1;
    this.legCheckRunning = null;
  }

  /** Number of documents. */
  get size() { return this.docs.size; }

  /**
   * Chunks and indexes documents. A document id that exists is replaced (upsert).
   * @param {{id: string, text: string, metadata?: object}[]} documents
   * @param {{onProgress?: (done: number, total: number) => void, signal?: AbortSignal, batchSize?: number}} [options]
   * @returns {Promise<{documents: number, chunks: number}>}
   * @throws {RagwasmError} INVALID_ARGUMENT, ABORTED (nothing of the current batch is indexed)
   */
  async add(documents, options = {}) {
    const o = expectOptions(options, 'add options', ['onProgress', 'signal', 'batchSize']);
    expectArray(documents, 'documents');
    if (o.onProgress !== undefined) expectFunction(o.onProgress, 'options.onProgress');
    const batchSize = o.batchSize === undefined ? 64 : expectInteger(o.batchSize, 'options.batchSize', { min: 1, max: 100000 });
    const seen = new Set();
    documents.forEach((d, i) => {
      if (!isPlainObject(d)) throw invalid(`documents[${i}]`, 'a {id, text} object', d);
      expectString(d.id, `documents[${i}].id`, { allowEmpty: false });
      expectString(d.text, `documents[${i}].text`);
      if (seen.has(d.id)) throw new RagwasmError('DUPLICATE_ID', `ragwasm: documents[${i}].id: "${d.id}" appears twice`);
      seen.add(d.id);
    });
    const copts = chunkOptions(this.config.chunker);
    let chunksAdded = 0;
    for (let i = 0; i < documents.length; i += batchSize) {
      abortCheck(o.signal);
      const batch = documents.slice(i, i + batchSize);
      const perDoc = batch.map((d) => chunk({ id: d.id, text: d.text, metadata: d.metadata ?? {} }, copts)
        .map((c) => ({ id: c.id, docId: c.docId, ordinal: c.ordinal, text: c.text, start: c.start, end: c.end })));
      const flat = perDoc.flat();
      const vectors = this.dense && flat.length > 0 ? await embedTexts(this.embedder, flat.map((c) => c.text), this.dimension) : null;
      abortCheck(o.signal);
      // Replace existing documents, then index the batch.
      const existing = batch.filter((d) => this.docs.has(d.id)).map((d) => d.id);
      if (existing.length > 0) this.remove(existing);
      if (this.bm25 && flat.length > 0) this.bm25.add(flat.map((c) => ({ id: c.id, text: c.text })));
      if (this.dense && flat.length > 0) this.dense.add(flat.map((c) => c.id), vectors);
      if (this._vectors) flat.forEach((c, k) => this._vectors.set(c.id, Float32Array.from(vectors[k])));
      batch.forEach((d, j) => {
        this.docs.set(d.id, { metadata: d.metadata ?? {}, chunks: perDoc[j] });
        for (const c of perDoc[j]) this.chunks.set(c.id, c);
        this.revision++;
      });
      chunksAdded += flat.length;
      o.onProgress?.(Math.min(i + batchSize, documents.length), documents.length);
      await new Promise((r) => setTimeout(r, 0));
    }
    return { documents: documents.length, chunks: chunksAdded };
  }

  /**
   * Removes documents (and their chunks) by id; unknown ids are ignored.
   * @param {string[]} ids
   * @returns {number} documents removed
   */
  remove(ids) {
    expectArray(ids, 'ids', { item: (v, n) => expectString(v, n, { allowEmpty: false }) });
    let removed = 0;
    for (const id of ids) {
      const d = this.docs.get(id);
      if (!d) continue;
      const chunkIds = d.chunks.map((c) => c.id);
      if (chunkIds.length > 0) {
        if (this.bm25) this.bm25.remove(chunkIds, { ignoreMissing: true });
        if (this.dense) this.dense.remove(chunkIds);
      }
      for (const c of chunkIds) {
        this.chunks.delete(c);
        this.revision++;
        this._vectors?.delete(c);
      }
      this.docs.delete(id);
      removed++;
    }
    return removed;
  }

  /**
   * Searches with the config's retrievers and fusion; returns chunks best first.
   * @param {string} query non-empty, with at least one searchable term when BM25 is configured
   * @param {{k?: number, reranker?: Function, signal?: AbortSignal}} [options] k default retrieval.k;
   *   reranker(query, items) -> scores is used when the config enables rerank
   * @returns {Promise<{id: string, docId: string, text: string, start: number, end: number, score: number,
   *   contributions: object[]}[]>}
   * @throws {RagwasmError} INVALID_ARGUMENT (empty query or only stopwords, bad k)
   */
  async search(query, options = {}) {
    const o = expectOptions(options, 'search options', ['k', 'reranker', 'signal', 'explain']);
    expectString(query, 'query');
    if (query.trim() === '') throw invalid('query', 'a non-empty query', query);
    const k = o.k === undefined ? this.config.retrieval.k : expectInteger(o.k, 'options.k', { min: 1, max: 100000 });
    const explain = o.explain === undefined ? false : expectBoolean(o.explain, 'options.explain');
    const n = Math.max(this.config.retrieval.candidates, k);
    const lists = [];
    for (const r of this.config.retrieval.retrievers) {
      if (r === 'bm25') {
        if (this.bm25.analyze(query).length === 0) {
          throw invalid('query', 'at least one searchable term (it is empty or only stopwords)', query);
        }
        lists.push({ retriever: 'bm25', hits: this.bm25.search(query, { k: n }).map((h) => ({ id: h.id, score: h.score })) });
      } else {
        const [qv] = await embedTexts(this.embedder, [query], this.dimension);
        abortCheck(o.signal);
        const hits = this.chunks.size === 0 ? [] : this.dense.search(qv, { k: Math.min(n, this.chunks.size) });
        lists.push({ retriever: 'dense', hits: hits.map((h) => ({ id: h.id, score: h.score })) });
      }
    }
    const f = this.config.retrieval.fusion;
    const legReport = f.legCheck && lists.length > 1 ? await this.#legCheckForSearch(o.signal) : null;
    const retrievers = this.config.retrieval.retrievers;
    const weights = weightsAfterLegCheck(f.weights, retrievers, legReport);
    const benched = retrievers.filter((r, i) => weights[i] === 0 && f.weights[i] !== 0);
    let fused;
    if (benched.length === 0) {
      fused = fuse(lists, { mode: f.mode, normalization: f.normalization, weights, k: f.k });
    } else {
      // Benched legs take no part in fusion (in any mode); their own hits follow, in their ranking.
      const keep = lists.map((l, i) => i).filter((i) => !benched.includes(lists[i].retriever));
      fused = fuse(keep.map((i) => lists[i]), { mode: f.mode, normalization: f.normalization, weights: keep.map((i) => weights[i]), k: f.k });
      fused.diagnostics.warnings.unshift(legReport.warning);
      const seen = new Set(fused.hits.map((h) => h.id));
      for (const l of lists.filter((x) => benched.includes(x.retriever))) {
        l.hits.forEach((h, r) => {
          if (seen.has(h.id)) return;
          seen.add(h.id);
          fused.hits.push({ id: h.id, score: 0, contributions: [{ retriever: l.retriever, present: true, rank: r + 1, raw: h.score, normalized: 0, weight: 0, contribution: 0 }] });
        });
      }
    }
    // A chunk removed while this search awaited the embedder or the leg check is not returned.
    let items = fused.hits.filter((h) => this.chunks.has(h.id)).map((h) => {
      const c = this.chunks.get(h.id);
      const item = { id: h.id, docId: c.docId, text: c.text, start: c.start, end: c.end, score: h.score };
      if (explain) item.contributions = h.contributions;
      return item;
    });
    if (this.config.rerank.enabled && o.reranker !== undefined) {
      items = await rerankItems(query, items, o.reranker, { candidates: this.config.rerank.candidates, keep: Math.min(k, this.config.rerank.keep), signal: o.signal });
    }
    const out = items.slice(0, k);
    if (explain) {
      out.diagnostics = fused.diagnostics;
      if (legReport) out.diagnostics.legCheck = structuredClone(legReport);
    }
    return out;
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
   * @throws {RagwasmError} INVALID_ARGUMENT (fewer than two retrievers configured), ABORTED
   */
  async checkLegs(options = {}) {
    const o = expectOptions(options, 'checkLegs options', ['signal']);
    const retrievers = this.config.retrieval.retrievers;
    const legs = retrievers.map((r) => ({
      retriever: r,
      search: r === 'bm25'
        ? (queries, k) => queries.map((q) => (this.bm25.analyze(q).length === 0 ? [] : this.bm25.search(q, { k }).map((h) => h.id)))
        : async (queries, k) => {
          const vecs = await embedTexts(this.embedder, queries, this.dimension);
          abortCheck(o.signal);
          return vecs.map((v) => (this.chunks.size === 0 ? [] : this.dense.search(v, { k: Math.min(k, this.chunks.size) }).map((h) => h.id)));
        },
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
   * Serializes the collection: magic, version, length-prefixed sections, CRC-32 (checksum.js
   * packSections). Kept vectors (`keepVectors`) are not saved: the dense section is the index's own.
   * @returns {Uint8Array}
   */
  toBytes() {
    const docs = [...this.docs.entries()].map(([id, d]) => ({ id, metadata: d.metadata, chunks: d.chunks }));
    const header = new TextEncoder().encode(JSON.stringify({ config: this.config, docs }));
    return packSections(MAGIC, COLLECTION_FORMAT_VERSION,
      [header, this.bm25 ? this.bm25.save() : new Uint8Array(0), this.dense ? this.dense.save() : new Uint8Array(0)]);
  }

  /**
   * Rebuilds a collection from toBytes() output.
   * @param {Uint8Array} bytes
   * @param {{embedder?: object|Function, dimension?: number, keepVectors?: boolean}} [options] embedder
   *   needed when the dense index is on; keepVectors as in create() (vectors of chunks added later)
   * @returns {Collection}
   * @throws {RagwasmError} CORRUPT_INDEX (magic, length or checksum), UNSUPPORTED_VERSION
   */
  static fromBytes(bytes, options = {}) {
    const o = expectOptions(options, 'Collection.fromBytes options', ['embedder', 'dimension', 'keepVectors']);
    const keepVectors = o.keepVectors === undefined ? false : expectBoolean(o.keepVectors, 'options.keepVectors');
    if (!(bytes instanceof Uint8Array)) throw invalid('bytes', 'a Uint8Array', bytes);
    const label = 'ragwasm: collection bytes';
    const { sections } = unpackSections(bytes, MAGIC, { count: 3, maxVersion: COLLECTION_FORMAT_VERSION, label, what: 'a ragwasm collection' });
    const corrupt = (why) => new RagwasmError('CORRUPT_INDEX', `${label}: ${why}`);
    let header;
    try {
      header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(sections[0]));
    } catch {
      throw corrupt('header is not valid JSON');
    }
    // The checksum only proves the bytes are unchanged since save(); a crafted header must still give
    // CORRUPT_INDEX instead of a TypeError here or in a later search.
    const docsOk = isPlainObject(header) && Array.isArray(header.docs) && header.docs.every((d) => isPlainObject(d)
      && typeof d.id === 'string' && Array.isArray(d.chunks) && d.chunks.every((c) => isPlainObject(c) && typeof c.id === 'string' && typeof c.text === 'string'));
    if (!docsOk) throw corrupt('header does not hold {config, docs: [{id, chunks: [{id, text, ...}]}]}');
    const cfg = parsePipelineConfig(header.config);
    const docs = new Map(header.docs.map((d) => [d.id, { metadata: d.metadata, chunks: d.chunks }]));
    let bm25 = null;
    let dense = null;
    try {
      bm25 = cfg.indexes.bm25 ? Bm25Index.load(sections[1]) : null;
      dense = cfg.indexes.dense ? VectorIndex.load(sections[2]) : null;
      return new Collection(cfg, o.embedder, o.dimension ?? dense?.dimension, bm25, dense, docs, keepVectors);
    } catch (e) {
      // e.g. a missing embedder for a dense collection: free the indexes already loaded
      bm25?.dispose();
      dense?.dispose();
      throw e;
    }
  }

  /**
   * Saves atomically under `name` (storage.js: OPFS / IndexedDB / Node file; the previous copy stays
   * intact until the new one is complete).
   * @param {string} name
   * @param {{dir?: string, backend?: 'node'|'opfs'|'indexeddb'}} [opts]
   */
  async save(name, opts) {
    await saveBytes(name, this.toBytes(), opts);
  }

  /**
   * Loads a collection saved with save().
   * @param {string} name
   * @param {{embedder?: object|Function, dimension?: number, keepVectors?: boolean, dir?: string, backend?: string}} [options]
   * @returns {Promise<Collection>}
   * @throws {RagwasmError} NOT_FOUND, CORRUPT_INDEX, UNSUPPORTED_VERSION
   */
  static async load(name, options = {}) {
    const { embedder, dimension, keepVectors, ...storage } = expectOptions(options, 'Collection.load options',
      ['embedder', 'dimension', 'keepVectors', 'dir', 'backend']);
    const bytes = await loadBytes(name, storage);
    if (bytes === null) throw new RagwasmError('NOT_FOUND', `ragwasm: no collection stored under "${name}"`);
    const o = {};
    if (embedder !== undefined) o.embedder = embedder;
    if (dimension !== undefined) o.dimension = dimension;
    if (keepVectors !== undefined) o.keepVectors = keepVectors;
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
   *   onProgress?: (done: number, total: number) => void}} [options] vectors default false (true needs
   *   the dense index), header default true, batchSize (chunks embedded at a time) default 256
   * @returns {AsyncGenerator<string>}
   * @throws {RagwasmError} INVALID_ARGUMENT (bad option; vectors without a dense index), ABORTED,
   *   embedder errors as add()
   */
  async *exportJsonlLines(options = {}) {
    const o = expectOptions(options, 'exportJsonl options', ['vectors', 'header', 'batchSize', 'signal', 'onProgress']);
    const withVectors = o.vectors === undefined ? false : expectBoolean(o.vectors, 'options.vectors');
    const header = o.header === undefined ? true : expectBoolean(o.header, 'options.header');
    const batchSize = o.batchSize === undefined ? 256 : expectInteger(o.batchSize, 'options.batchSize', { min: 1, max: 100000 });
    if (o.onProgress !== undefined) expectFunction(o.onProgress, 'options.onProgress');
    if (withVectors && !this.config.indexes.dense) throw invalid('options.vectors', 'false (the config has no dense index)', true);
    const docs = [...this.docs.entries()];
    const total = docs.reduce((s, [, d]) => s + d.chunks.length, 0);
    if (header) {
      yield JSON.stringify({ type: JSONL_HEADER, version: JSONL_FORMAT_VERSION, config: this.config,
        dimension: this.config.indexes.dense ? this.dimension : null, documents: docs.length, chunks: total, vectors: withVectors });
    }
    const embedder = this.embedder;
    const dimension = this.dimension;
    const kept = this._vectors;
    let pending = [];  // [chunk, metadata]
    let done = 0;
    const flush = async () => {
      abortCheck(o.signal);
      let vectors = null;
      if (withVectors) {
        vectors = pending.map(([c]) => kept?.get(c.id) ?? null);
        const missing = vectors.flatMap((v, i) => (v === null ? [i] : []));
        if (missing.length > 0) {
          const out = await embedTexts(embedder, missing.map((i) => pending[i][0].text), dimension);
          abortCheck(o.signal);
          missing.forEach((i, j) => {
            vectors[i] = Float32Array.from(out[j]);
            if (kept && this.chunks.get(pending[i][0].id) === pending[i][0]) kept.set(pending[i][0].id, vectors[i]);
          });
        }
      }
      const lines = pending.map(([c, metadata], i) => chunkLine(c, metadata, vectors?.[i]));
      done += pending.length;
      pending = [];
      o.onProgress?.(done, total);
      return lines;
    };
    for (const [id, d] of docs) {
      if (d.chunks.length === 0) {
        if (pending.length > 0) yield* await flush();
        yield JSON.stringify({ type: JSONL_DOCUMENT, id, metadata: d.metadata ?? {} });
        continue;
      }
      for (const c of d.chunks) {
        pending.push([c, d.metadata ?? {}]);
        if (pending.length >= batchSize) yield* await flush();
      }
    }
    if (pending.length > 0) yield* await flush();
  }

  /**
   * The whole export as one string (exportJsonlLines() joined, one line each, ending in a newline).
   * For large collections iterate exportJsonlLines() instead (no single giant string).
   * @param {Parameters<Collection['exportJsonlLines']>[0]} [options] as exportJsonlLines()
   * @returns {Promise<string>}
   */
  async exportJsonl(options = {}) {
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
   * @param {(done: number, total: number) => void} [options.onProgress] chunks indexed so far
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
    const { cfg, dimension, docs } = parsed;
    const col = new Collection(cfg, o.embedder, dimension, null, null, new Map(), keepVectors);
    try {
      const all = [];
      for (const d of docs.values()) for (const x of d.chunks) all.push(x);
      for (let i = 0; i < all.length; i += batchSize) {
        abortCheck(o.signal);
        const batch = all.slice(i, i + batchSize);
        if (col.dense) {
          const missing = batch.filter((x) => x.vector === null);
          if (missing.length > 0) {
            const out = await embedTexts(col.embedder, missing.map((x) => x.chunk.text), col.dimension);
            missing.forEach((x, j) => { x.vector = Float32Array.from(out[j]); });
            abortCheck(o.signal);
          }
          col.dense.add(batch.map((x) => x.chunk.id), batch.map((x) => x.vector));
          if (col._vectors) for (const x of batch) col._vectors.set(x.chunk.id, x.vector);
        }
        if (col.bm25) col.bm25.add(batch.map((x) => ({ id: x.chunk.id, text: x.chunk.text })));
        o.onProgress?.(Math.min(i + batchSize, all.length), all.length);
        await new Promise((r) => setTimeout(r, 0));
      }
      for (const [id, d] of docs) {
        const chunks = d.chunks.map((x) => x.chunk);
        col.docs.set(id, { metadata: d.metadata, chunks });
        for (const c of chunks) col.chunks.set(c.id, c);
      }
      return col;
    } catch (e) {
      col.dispose();
      throw e;
    }
  }

  /** Frees the WASM indexes. */
  dispose() {
    this.bm25?.dispose();
    this.dense?.dispose();
    this.bm25 = null;
    this.dense = null;
    this._vectors = null;
  }
}

// ---- JSONL export / import helpers -------------------------------------------------------------

// One chunk line; `vector` (a Float32Array) widened to doubles, so JSON holds the exact float32 values.
function chunkLine(c, metadata, vector) {
  const o = { id: c.id, docId: c.docId, ordinal: c.ordinal, text: c.text, start: c.start, end: c.end, metadata };
  if (vector) o.vector = Array.from(vector);
  return JSON.stringify(o);
}

// [line number (1-based), text] for every line of a string or of an (async) iterable of lines.
async function* numberedLines(input) {
  let n = 0;
  const split = (text) => {
    const parts = text.split('\n');
    if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
    return parts.map((p) => [++n, p.endsWith('\r') ? p.slice(0, -1) : p]);
  };
  if (typeof input === 'string') {
    yield* split(input);
    return;
  }
  if (input === null || typeof input !== 'object' || (typeof input[Symbol.iterator] !== 'function' && typeof input[Symbol.asyncIterator] !== 'function')) {
    throw invalid('input', 'a JSONL string or an (async) iterable of lines', input);
  }
  let item = 0;
  for await (const text of input) {
    if (typeof text !== 'string') throw invalid(`input item ${item}`, 'a string (one or more whole JSONL lines)', text);
    item++;
    yield* split(text);
  }
}

function lineError(code, n, field, message) {
  return new RagwasmError(code, `ragwasm: line ${n}: ${field ? `${field}: ` : ''}${message}`, { line: n, field: field ?? null });
}

function expectLineFields(obj, known, n) {
  for (const key of Object.keys(obj)) {
    if (!known.includes(key)) throw lineError('INVALID_ARGUMENT', n, key, `unknown field (known: ${known.join(', ')})`);
  }
}

function lineString(v, n, field, allowEmpty) {
  if (typeof v !== 'string' || (!allowEmpty && v === '')) {
    throw lineError('INVALID_ARGUMENT', n, field, `expected a ${allowEmpty ? '' : 'non-empty '}string, got ${describe(v)}`);
  }
  return v;
}

function lineCount(v, n, field) {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw lineError('INVALID_ARGUMENT', n, field, `expected an integer >= 0, got ${describe(v)}`);
  return v;
}

function lineMetadata(v, n) {
  if (v === undefined) return {};
  if (!isPlainObject(v)) throw lineError('INVALID_ARGUMENT', n, 'metadata', `expected an object, got ${describe(v)}`);
  for (const [k, x] of Object.entries(v)) {  // add()'s rule (createDocument): flat values
    const t = typeof x;
    if (!(x === null || t === 'string' || t === 'boolean' || (t === 'number' && Number.isFinite(x)))) {
      throw lineError('INVALID_ARGUMENT', n, `metadata.${k}`, `expected a string, finite number, boolean or null, got ${describe(x)}`);
    }
  }
  return v;
}

// A vector field -> Float32Array (same rule as VectorIndex.add: finite with |x| <= 1e15).
function lineVector(v, n, dimension) {
  if (!Array.isArray(v)) throw lineError('INVALID_ARGUMENT', n, 'vector', `expected an array of ${dimension} numbers, got ${describe(v)}`);
  if (v.length !== dimension) throw lineError('DIMENSION_MISMATCH', n, 'vector', `expected ${dimension} numbers, got ${v.length}`);
  const out = new Float32Array(dimension);
  for (let j = 0; j < dimension; j++) {
    const x = v[j];
    if (typeof x !== 'number' || !(Math.abs(x) <= 1e15)) {
      throw lineError('INVALID_ARGUMENT', n, `vector[${j}]`, `expected a finite number with |x| <= 1e15, got ${describe(x)}`);
    }
    out[j] = x;
  }
  return out;
}

// Reads and checks every line (nothing is allocated in WASM here).
// -> {cfg, dimension, docs: Map<docId, {metadata, line, chunks: {chunk, vector: Float32Array|null}[]}>}
async function parseJsonl(input, o) {
  let cfg = o.config === undefined ? undefined : parsePipelineConfig(o.config);
  let dimension;
  let header = null;
  let started = false;
  const docs = new Map();
  const chunkLines = new Map();  // chunk id -> line
  const metaJson = new Map();  // doc id -> JSON of its metadata (chunks of one document must agree)
  let chunkCount = 0;
  let lines = 0;
  // After the first line: the config and the dense index's dimension are fixed.
  const setup = (n) => {
    started = true;
    if (cfg === undefined) {
      try {
        cfg = parsePipelineConfig(header?.config ?? {});
      } catch (e) {
        if (!(e instanceof RagwasmError)) throw e;
        throw lineError(e.code, n, 'config', e.message.replace(/^ragwasm: /, ''));
      }
    }
    if (!cfg.indexes.dense) return;
    const fromHeader = typeof header?.dimension === 'number' ? header.dimension : undefined;
    dimension = embedderDimension(o.embedder, o.dimension ?? fromHeader);
    if (fromHeader !== undefined && fromHeader !== dimension) {
      throw lineError('DIMENSION_MISMATCH', n, 'dimension', `expected ${dimension} (the embedder's), got ${fromHeader}`);
    }
  };
  for await (const [n, text] of numberedLines(input)) {
    if ((++lines & 1023) === 0) abortCheck(o.signal);
    if (text.trim() === '') continue;
    let obj;
    try {
      obj = JSON.parse(text);
    } catch (e) {
      throw lineError('INVALID_ARGUMENT', n, null, `not valid JSON (${e.message})`);
    }
    if (!isPlainObject(obj)) throw lineError('INVALID_ARGUMENT', n, null, `expected a JSON object, got ${describe(obj)}`);
    if (obj.type === JSONL_HEADER) {
      if (started) throw lineError('INVALID_ARGUMENT', n, 'type', `the "${JSONL_HEADER}" header must be the first line`);
      expectLineFields(obj, HEADER_FIELDS, n);
      if (typeof obj.version !== 'number' || !Number.isInteger(obj.version) || obj.version < 1) {
        throw lineError('INVALID_ARGUMENT', n, 'version', `expected an integer >= 1, got ${describe(obj.version)}`);
      }
      if (obj.version > JSONL_FORMAT_VERSION) {
        throw lineError('UNSUPPORTED_VERSION', n, 'version', `format version ${obj.version}; this build reads version ${JSONL_FORMAT_VERSION}`);
      }
      if (obj.dimension !== undefined && obj.dimension !== null) {
        if (typeof obj.dimension !== 'number' || !Number.isInteger(obj.dimension) || obj.dimension < 1 || obj.dimension > 8192) {
          throw lineError('INVALID_ARGUMENT', n, 'dimension', `expected an integer in [1, 8192] or null, got ${describe(obj.dimension)}`);
        }
      }
      for (const f of ['documents', 'chunks']) if (obj[f] !== undefined) lineCount(obj[f], n, f);
      if (obj.vectors !== undefined && typeof obj.vectors !== 'boolean') {
        throw lineError('INVALID_ARGUMENT', n, 'vectors', `expected true or false, got ${describe(obj.vectors)}`);
      }
      header = { ...obj, line: n };
      setup(n);
      continue;
    }
    if (!started) setup(n);
    if (obj.type === JSONL_DOCUMENT) {
      expectLineFields(obj, DOCUMENT_FIELDS, n);
      const id = lineString(obj.id, n, 'id', false);
      if (docs.has(id)) throw lineError('DUPLICATE_ID', n, 'id', `document "${id}" already appeared on line ${docs.get(id).line}`);
      docs.set(id, { metadata: lineMetadata(obj.metadata, n), line: n, chunks: [], documentLine: true });
      continue;
    }
    if (obj.type !== undefined) {
      throw lineError('INVALID_ARGUMENT', n, 'type', `expected "${JSONL_HEADER}" (first line) or "${JSONL_DOCUMENT}" (chunk lines have no type), got ${describe(obj.type)}`);
    }
    expectLineFields(obj, CHUNK_FIELDS, n);
    const id = lineString(obj.id, n, 'id', false);
    const docId = lineString(obj.docId, n, 'docId', false);
    const ordinal = lineCount(obj.ordinal, n, 'ordinal');
    const chunkText = lineString(obj.text, n, 'text', true);
    const start = lineCount(obj.start, n, 'start');
    const end = lineCount(obj.end, n, 'end');
    if (end < start) throw lineError('INVALID_ARGUMENT', n, 'end', `expected an integer >= start (${start}), got ${end}`);
    const metadata = lineMetadata(obj.metadata, n);
    // Chunk ids are `docId#ordinal` everywhere else (chunk(), add(), remove()): an import must keep that.
    if (id !== `${docId}#${ordinal}`) throw lineError('INVALID_ARGUMENT', n, 'id', `expected "${docId}#${ordinal}" (docId#ordinal), got "${id}"`);
    if (chunkLines.has(id)) throw lineError('DUPLICATE_ID', n, 'id', `chunk "${id}" already appeared on line ${chunkLines.get(id)}`);
    const vector = dimension !== undefined && obj.vector !== undefined ? lineVector(obj.vector, n, dimension) : null;
    let d = docs.get(docId);
    if (d === undefined) {
      d = { metadata, line: n, chunks: [] };
      docs.set(docId, d);
      metaJson.set(docId, JSON.stringify(metadata));
    } else if (d.documentLine) {
      throw lineError('DUPLICATE_ID', n, 'docId', `document "${docId}" was declared without chunks on line ${d.line}`);
    } else if (JSON.stringify(metadata) !== metaJson.get(docId)) {
      throw lineError('INVALID_ARGUMENT', n, 'metadata', `differs from the metadata of document "${docId}" on line ${d.line} (chunks of one document share it)`);
    }
    chunkLines.set(id, n);
    d.chunks.push({ chunk: { id, docId, ordinal, text: chunkText, start, end }, vector });
    chunkCount++;
  }
  if (!started) setup(lines + 1);
  if (header) {
    if (header.chunks !== undefined && header.chunks !== chunkCount) {
      throw lineError('INVALID_ARGUMENT', header.line, 'chunks', `the header announces ${header.chunks} chunks, the input has ${chunkCount} (truncated?)`);
    }
    if (header.documents !== undefined && header.documents !== docs.size) {
      throw lineError('INVALID_ARGUMENT', header.line, 'documents', `the header announces ${header.documents} documents, the input has ${docs.size} (truncated?)`);
    }
  }
  for (const d of docs.values()) {
    delete d.line;
    delete d.documentLine;
  }
  return { cfg, dimension, docs };
}
