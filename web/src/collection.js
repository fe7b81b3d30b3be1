// Collections: the integration layer over chunk() -> Bm25Index / VectorIndex -> fuse(), driven by
// one pipeline config (parsePipelineConfig). add / remove / search, and save / load through
// web/src/storage.js (atomic: OPFS, IndexedDB fallback, files in Node). Saved bytes: magic
// "RAGWCOL1", format version, length-prefixed sections and a CRC-32 at the end.
import { RagwasmError } from './errors.js';
import { chunk } from './chunk.js';
import { VectorIndex } from './dense.js';
import { fuse, rerank as rerankItems } from './fusion.js';
import { crc32 } from './checksum.js';
import { parsePipelineConfig } from './pipeline.js';
import { Bm25Index } from './sparse.js';
import { loadBytes, saveBytes } from './storage.js';
import { expectArray, expectBoolean, expectFunction, expectInteger, expectOptions, expectString, invalid, isPlainObject } from './validate.js';

const MAGIC = 'RAGWCOL1';
/** The collection format version this build writes and reads. */
export const COLLECTION_FORMAT_VERSION = 1;


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
   *   required when the config enables the dense index (e.g. a StaticEmbedder)
   * @param {number} [options.dimension] vector dimension when `embedder` is a function
   * @returns {Promise<Collection>}
   * @throws {RagwasmError} as parsePipelineConfig; INVALID_ARGUMENT when the dense index has no embedder
   */
  static async create(config = {}, options = {}) {
    const o = expectOptions(options, 'Collection.create options', ['embedder', 'dimension']);
    const cfg = parsePipelineConfig(config);
    return new Collection(cfg, o.embedder, o.dimension, null, null, new Map());
  }

  /** @internal */
  constructor(cfg, embedder, dimension, bm25, dense, docs) {
    this.config = cfg;
    if (cfg.indexes.dense) {
      if (embedder === undefined) throw invalid('options.embedder', 'an embedder (the config enables the dense index)', embedder);
      if (typeof embedder !== 'function' && !(embedder && typeof embedder.embedSync === 'function')) {
        throw invalid('options.embedder', 'a StaticEmbedder-like object or an async function', embedder);
      }
      this.dimension = typeof embedder === 'function' ? expectInteger(dimension, 'options.dimension', { min: 1, max: 8192 }) : embedder.dims;
    }
    this.embedder = embedder;
    this.bm25 = cfg.indexes.bm25 ? (bm25 ?? Bm25Index.create(bm25Options(cfg.indexes.bm25))) : null;
    this.dense = cfg.indexes.dense ? (dense ?? VectorIndex.create(denseOptions(cfg.indexes.dense, this.dimension))) : null;
    /** @type {Map<string, {metadata: object, chunks: object[]}>} */
    this.docs = docs;
    this.chunks = new Map();
    for (const d of docs.values()) for (const c of d.chunks) this.chunks.set(c.id, c);
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
      batch.forEach((d, j) => {
        this.docs.set(d.id, { metadata: d.metadata ?? {}, chunks: perDoc[j] });
        for (const c of perDoc[j]) this.chunks.set(c.id, c);
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
      for (const c of chunkIds) this.chunks.delete(c);
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
    const fused = fuse(lists, { mode: f.mode, normalization: f.normalization, weights: f.weights, k: f.k });
    let items = fused.hits.map((h) => {
      const c = this.chunks.get(h.id);
      const item = { id: h.id, docId: c.docId, text: c.text, start: c.start, end: c.end, score: h.score };
      if (explain) item.contributions = h.contributions;
      return item;
    });
    if (this.config.rerank.enabled && o.reranker !== undefined) {
      items = await rerankItems(query, items, o.reranker, { candidates: this.config.rerank.candidates, keep: Math.min(k, this.config.rerank.keep), signal: o.signal });
    }
    const out = items.slice(0, k);
    if (explain) out.diagnostics = fused.diagnostics;
    return out;
  }

  /**
   * Serializes the collection: magic, version, length-prefixed sections, CRC-32.
   * @returns {Uint8Array}
   */
  toBytes() {
    const enc = new TextEncoder();
    const docs = [...this.docs.entries()].map(([id, d]) => ({ id, metadata: d.metadata, chunks: d.chunks }));
    const header = enc.encode(JSON.stringify({ config: this.config, docs }));
    const sections = [header, this.bm25 ? this.bm25.save() : new Uint8Array(0), this.dense ? this.dense.save() : new Uint8Array(0)];
    const total = 8 + 4 + sections.reduce((s, b) => s + 4 + b.length, 0) + 4;
    const out = new Uint8Array(total);
    const view = new DataView(out.buffer);
    out.set(enc.encode(MAGIC), 0);
    view.setUint32(8, COLLECTION_FORMAT_VERSION, true);
    let at = 12;
    for (const s of sections) {
      view.setUint32(at, s.length, true);
      out.set(s, at + 4);
      at += 4 + s.length;
    }
    view.setUint32(at, crc32(out.subarray(0, at)), true);
    return out;
  }

  /**
   * Rebuilds a collection from toBytes() output.
   * @param {Uint8Array} bytes
   * @param {{embedder?: object|Function, dimension?: number}} [options] needed when the dense index is on
   * @returns {Collection}
   * @throws {RagwasmError} CORRUPT_INDEX (magic, length or checksum), UNSUPPORTED_VERSION
   */
  static fromBytes(bytes, options = {}) {
    const o = expectOptions(options, 'Collection.fromBytes options', ['embedder', 'dimension']);
    if (!(bytes instanceof Uint8Array)) throw invalid('bytes', 'a Uint8Array', bytes);
    const corrupt = (why) => new RagwasmError('CORRUPT_INDEX', `ragwasm: collection bytes: ${why}`);
    if (bytes.length < 16 || new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC) throw corrupt('not a ragwasm collection (bad magic)');
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const version = view.getUint32(8, true);
    if (version !== COLLECTION_FORMAT_VERSION) {
      throw new RagwasmError('UNSUPPORTED_VERSION', `ragwasm: collection bytes: format version ${version}; this build reads version ${COLLECTION_FORMAT_VERSION}`);
    }
    const sections = [];
    let at = 12;
    for (let s = 0; s < 3; s++) {
      if (at + 4 > bytes.length - 4) throw corrupt(`section ${s} length is past the end`);
      const len = view.getUint32(at, true);
      if (len > bytes.length - 4 - (at + 4)) throw corrupt(`section ${s} has ${len} bytes, only ${bytes.length - 4 - (at + 4)} left`);
      sections.push(bytes.subarray(at + 4, at + 4 + len));
      at += 4 + len;
    }
    if (at !== bytes.length - 4) throw corrupt(`${bytes.length - 4 - at} unexpected bytes after the sections`);
    if (view.getUint32(at, true) !== crc32(bytes.subarray(0, at))) throw corrupt('checksum mismatch');
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
      return new Collection(cfg, o.embedder, o.dimension ?? dense?.dimension, bm25, dense, docs);
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
   * @param {{embedder?: object|Function, dimension?: number, dir?: string, backend?: string}} [options]
   * @returns {Promise<Collection>}
   * @throws {RagwasmError} NOT_FOUND, CORRUPT_INDEX, UNSUPPORTED_VERSION
   */
  static async load(name, options = {}) {
    const { embedder, dimension, ...storage } = expectOptions(options, 'Collection.load options', ['embedder', 'dimension', 'dir', 'backend']);
    const bytes = await loadBytes(name, storage);
    if (bytes === null) throw new RagwasmError('NOT_FOUND', `ragwasm: no collection stored under "${name}"`);
    const o = {};
    if (embedder !== undefined) o.embedder = embedder;
    if (dimension !== undefined) o.dimension = dimension;
    return Collection.fromBytes(bytes, o);
  }

  /**
   * Chunks (+ vectors when the dense index is on and `vectors` is given) as JSONL for a server-side engine:
   * one {id, docId, ordinal, text, start, end, metadata} object per line.
   * @returns {string}
   */
  exportJsonl() {
    const lines = [];
    for (const [, d] of this.docs) for (const c of d.chunks) lines.push(JSON.stringify({ ...c, metadata: d.metadata }));
    return lines.join('\n') + (lines.length ? '\n' : '');
  }

  /** Frees the WASM indexes. */
  dispose() {
    this.bm25?.dispose();
    this.dense?.dispose();
    this.bm25 = null;
    this.dense = null;
  }
}
