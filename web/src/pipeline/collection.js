// Collections: the integration layer over chunk() -> Bm25Index / VectorIndex -> fuse(), driven by
// one pipeline config (parsePipelineConfig). add / remove / search (filters, document level),
// setEmbedder, and save / load through web/src/core/storage.js (verified, then atomic: OPFS,
// IndexedDB fallback, files in Node). Saved bytes: the one container (docs/formats.md; magic
// "RWCOLLEC", version 3, sections 1 JSON header, 2 BM25 index, 3 vector index), written and checked
// by the C++ container (core/container.js); versions 1 and 2 (magic "RAGWCOL1", checksum.js
// unpackSections, CRC-32) are still read. The JSON header is cross-checked against the index
// sections on load (docs/collection.md). JSONL export / import of
// chunks + vectors + metadata for server-side engines.
import { MAX_SEARCH_K } from '../core/limits.js';
import { RagwasmError } from '../core/errors.js';
import { VectorIndex } from '../retrieve/dense.js';
import { aggregateToDocuments, fuse, rerank as rerankItems } from '../retrieve/fusion.js';
import { crc32, unpackSections } from '../core/checksum.js';
import { containerStream, packContainer, unpackContainer } from '../core/container.js';
import { ChunkMap, DocRecord } from './chunk-store.js';
import { checkLlm, chunkWithContexts, llmContextSteps } from './llm-steps.js';

export { LLM_CONTEXT_STEPS, llmContextSteps, memoizeContextSteps } from './llm-steps.js';
import { parsePipelineConfig, readPipelineConfig } from './pipeline.js';
import { checkLegs, weightsAfterLegCheck } from '../retrieve/leg-check.js';
import { Bm25Index, checkFilter } from '../retrieve/sparse.js';
import { LEXICAL_KEYS, lexicalOptions } from '../retrieve/sparse-expand.js';
import { asEmbedder, embedTexts } from '../embed/contract.js';
import { createStaticEmbedder } from '../embed/embed.js';
import { createParallelEmbedder, ShardedBm25Index, ShardedVectorIndex } from '../parallel/sharded.js';
import { WorkerPool } from '../parallel/pool.js';
import { loadBytes, saveBytes, savePieces } from '../core/storage.js';
import {
  describe, expectArray, expectBoolean, expectEnum, expectFunction, expectInteger, expectInternal, expectOptions, expectString, hasMethod, invalid, isArray, isInstance, isObject, isPlainObject,
  expectSearchK,
} from '../core/validate.js';

const MAGIC = 'RWCOLLEC';
/** Magic of collection format versions 1 and 2 (their own framing, CRC-32): read only. */
const LEGACY_MAGIC = 'RAGWCOL1';
/** The collection format version this build writes, in the one container (it reads 1, 2 and 3). */
export const COLLECTION_FORMAT_VERSION = 3;
const HEADER_TAG = 1;
const BM25_TAG = 2;
const DENSE_TAG = 3;
/** The JSONL export format version (the header line's "version") this build writes; it reads 1 and 2
 * (2 added the optional `embedder`, `fields` and `indexText`). */
export const JSONL_FORMAT_VERSION = 2;
const JSONL_HEADER = 'ragwasm.collection';
const JSONL_DOCUMENT = 'ragwasm.document';
const CHUNK_FIELDS = ['id', 'docId', 'ordinal', 'text', 'start', 'end', 'metadata', 'vector', 'indexText', 'fields'];
const HEADER_FIELDS = ['type', 'version', 'config', 'dimension', 'documents', 'chunks', 'vectors', 'embedder'];
const DOCUMENT_FIELDS = ['type', 'id', 'metadata', 'fields'];
const SEARCH_LEVELS = ['chunk', 'document'];

function abortCheck(signal) {
  if (signal?.aborted) throw new RagwasmError('ABORTED', 'ragwasm: operation aborted');
}
function disposedError() {
  return new RagwasmError('DISPOSED', 'ragwasm: this Collection was disposed; load or create a new one');
}

// The config's BM25 fields (normalized to [{name, boost}]): "text" is the chunk's indexText, every
// other name a document field.
function bm25Fields(c) {
  return c.fields;
}
// The config's index sections are the indexes' own options (parsePipelineConfig normalizes them):
// bm25 as it is, dense without the embedder's model name and with the embedder's dimension.
/** @internal A config's dense index section -> VectorIndex options (also autotune's, with a base config). */
export function denseOptions(c, dimension) {
  const { model, dimension: wanted, ...o } = c;  // eslint-disable-line no-unused-vars
  if (wanted !== undefined && wanted !== dimension) {
    throw new RagwasmError('DIMENSION_MISMATCH', `ragwasm: config indexes.dense.dimension is ${wanted}, but the embedder gives vectors of dimension ${dimension}`);
  }
  return { ...o, dimension };
}
// The pipeline config's chunker section -> chunk() options: 'invalidUtf8' applies to bytes only (JS
// strings are always valid), the sentence and semantic strategies have no character overlap, and
// context.headerPath (a Collection option) becomes a per-chunk context: the chunk's header path.
/** @internal The chunk() options of a config's chunker section (also autotune's, with a base config). */
export function chunkOptions(c, embedder) {
  const { invalidUtf8, ...o } = c;  // eslint-disable-line no-unused-vars
  if (o.strategy === 'sentence' || o.strategy === 'semantic') delete o.chunkOverlap;
  if (o.strategy === 'semantic') {
    delete o.unit;
    if (o.maxChunkSize !== undefined) delete o.chunkSize;
    o.embedder = (texts) => embedTexts(embedder, texts, { kind: 'document' });
  }
  if (o.context) {
    const { headerPath, llmSummary, llmChunkContext, ...ctx } = o.context;  // eslint-disable-line no-unused-vars
    if (headerPath) ctx.chunkContexts = (ch) => ch.headerPath.join(' > ');
    o.context = ctx;
  }
  return o;
}

// Document metadata -> the part Bm25Index can filter on (strings and finite numbers; booleans and
// null are kept with the document but are not filterable).
function filterableMetadata(metadata) {
  let out = null;
  for (const [k, v] of Object.entries(metadata)) {
    if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) (out ??= {})[k] = v;
  }
  return out;
}

/**
 * Whether a document's metadata passes a filter, with Bm25Index's rule (docs/sparse.md "Filters"):
 * every clause must hold; `{key: v}` / `{key: [v1, v2]}` / `{key: {in: [...]}}` = the value equals
 * one of them (strings with strings, numbers with numbers); `{key: {gte, gt, lte, lt}}` = a numeric
 * value in range; a document without the key does not match.
 * @param {object} metadata
 * @param {object} filter validated with checkFilter
 * @returns {boolean}
 */
export function metadataMatches(metadata, filter) {
  for (const [key, clause] of Object.entries(filter)) {
    const v = metadata[key];
    const isNum = typeof v === 'number' && Number.isFinite(v);
    if (!isNum && typeof v !== 'string') return false;
    let ok;
    if (isArray(clause)) ok = clause.includes(v);
    else if (isPlainObject(clause) && clause.in !== undefined) ok = clause.in.includes(v);
    else if (isPlainObject(clause)) {
      ok = isNum && (clause.gte === undefined || v >= clause.gte) && (clause.gt === undefined || v > clause.gt)
        && (clause.lte === undefined || v <= clause.lte) && (clause.lt === undefined || v < clause.lt);
    } else ok = clause === v;
    if (!ok) return false;
  }
  return true;
}

function isZeroVector(v) {
  for (let j = 0; j < v.length; j++) if (v[j] !== 0) return false;
  return true;
}

// A stored chunk: what search returns and toBytes() saves. indexText only when it differs from text.
function storedChunk(c) {
  const s = { id: c.id, docId: c.docId, ordinal: c.ordinal, text: c.text, start: c.start, end: c.end };
  if (c.indexText !== undefined && c.indexText !== c.text) s.indexText = c.indexText;
  return s;
}
const indexTextOf = (c) => c.indexText ?? c.text;

// The embedder for a dense collection (the contract of embed/contract.js), checked before any index is made.
function denseEmbedder(embedder, dimension, name = 'options.embedder') {
  if (embedder === undefined) throw invalid(name, 'an embedder (the config enables the dense index)', embedder);
  const o = { name };
  if (dimension !== undefined) o.dimension = dimension;
  return asEmbedder(embedder, o);
}

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
    const c = new Collection(cfg, embedder, o.dimension, null, null, new Map(), keepVectors);
    c._llm = llm;
    return c;
  }

  // A collection whose legs are sharded across a new pool of `workers` (docs/parallel.md): the dense
  // leg embeds with the default static model in every Worker; `docs` (loaded ones) are indexed again.
  static async _sharded(cfg, workers, embedder, dimension, docs, keepVectors, zeroVectors) {
    const pool = await WorkerPool.create({ workers });
    let c = null;
    try {
      const e = cfg.indexes.dense ? await createParallelEmbedder({ pool }) : embedder;
      const bm25 = cfg.indexes.bm25 ? await ShardedBm25Index.create(cfg.indexes.bm25, { pool }) : null;
      const dense = cfg.indexes.dense ? await ShardedVectorIndex.create(denseOptions(cfg.indexes.dense, e.dimension), { pool }) : null;
      c = new Collection(cfg, e, dimension, bm25, dense, docs, keepVectors, zeroVectors);
      c._pool = pool;
      if (docs.size > 0) await c._reindex();
      return c;
    } catch (err) {
      if (c) c.dispose();
      else await pool.terminate();
      throw err;
    }
  }

  // Sharded: indexes every stored chunk again (after fromBytes), in document order, re-embedding the
  // dense leg's chunks (the static model gives the saved vectors again: same model id, checked).
  async _reindex() {
    const { chunks, records } = this._chunksInOrder();
    const extra = this.bm25 ? bm25Fields(this.config.indexes.bm25).map((f) => f.name).filter((n) => n !== 'text') : [];
    const step = 8192;
    for (let i = 0; i < chunks.length; i += step) {
      const part = chunks.slice(i, i + step);
      const writes = [];
      if (this.bm25) writes.push(this.bm25.add(part.map((c, j) => this._bm25Doc(c, records[i + j], extra))));
      if (this.dense) {
        const keep = part.filter((c) => !this.zeroVectors.has(c.id));
        if (keep.length > 0) {
          const vectors = await embedTexts(this.embedder, keep.map(indexTextOf), { kind: 'document' });
          writes.push(this.dense.add(keep.map((c, j) => ({ id: c.id, vector: vectors[j] }))));
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
    return this._pool ? this._pool.size : 1;
  }

  // Sharded: removals are posted to the Workers at once (so later calls see them) and awaited here.
  _track(promise) {
    const t = promise.then(() => null, (e) => e);
    this._pending.add(t);
    t.then(() => this._pending.delete(t));
  }

  async _settled() {
    if (this._pending.size === 0) return;
    const errors = await Promise.all([...this._pending]);
    const e = errors.find((x) => x !== null);
    if (e) throw e;
  }

  /** @internal */
  constructor(cfg, embedder, dimension, bm25, dense, docs, keepVectors = false, zeroVectors = []) {
    expectInternal(isPlainObject(cfg) && isPlainObject(cfg.indexes) && isPlainObject(cfg.chunker) && isInstance(docs, Map), 'Collection', 'Collection.create(config, options), Collection.load or Collection.fromBytes');
    this.config = cfg;
    this._llm = null;  // the create option llm (the config's LLM context steps)
    const needsEmbedder = cfg.indexes.dense || cfg.chunker.strategy === 'semantic';
    /** The embedder (embed/contract.js shape) or null. */
    this.embedder = needsEmbedder ? denseEmbedder(embedder, dimension) : null;
    if (cfg.indexes.dense) this.dimension = this.embedder.dimension;
    this.bm25 = cfg.indexes.bm25 ? (bm25 ?? Bm25Index.create(cfg.indexes.bm25)) : null;
    this.dense = cfg.indexes.dense ? (dense ?? VectorIndex.create(denseOptions(cfg.indexes.dense, this.dimension))) : null;
    /** @type {Map<string, DocRecord>} documents: `{title?, fields?, metadata, length, chunks}` (chunk-store.js) */
    this.docs = docs;
    /** chunk id -> chunk, Map-like and read-only; chunk objects made on demand (chunk-store.js) */
    this.chunks = new ChunkMap(docs);
    /** Chunk ids whose document embedding is all zeros: kept out of the dense leg (docs/collection.md). */
    this.zeroVectors = new Set(zeroVectors);
    /** @type {Map<string, Float32Array>|null} chunk id -> the vector indexed for it (keepVectors) */
    this._vectors = keepVectors && this.dense ? new Map() : null;
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
    /** @type {WorkerPool|null} the pool of the sharded legs (workers > 1) */
    this._pool = null;
    this._pending = new Set();
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

  // Checks the documents of one add() call before anything is chunked.
  _checkDocuments(documents) {
    expectArray(documents, 'documents', { maxLength: 10_000_000 });
    const extra = this.bm25 ? bm25Fields(this.config.indexes.bm25).map((f) => f.name).filter((n) => n !== 'text') : [];
    const seen = new Set();
    for (let i = 0; i < documents.length; i++) {
      const d = documents[i];
      if (!isPlainObject(d)) throw invalid(`documents[${i}]`, 'a {id, text, title?, metadata?} object', d);
      expectString(d.id, `documents[${i}].id`, { allowEmpty: false, maxLength: 1000 });
      expectString(d.text, `documents[${i}].text`);
      for (const f of new Set(['title', ...extra])) {
        if (d[f] !== undefined && d[f] !== null) expectString(d[f], `documents[${i}].${f}`, { maxLength: 1 << 20 });
      }
      if (d.metadata !== undefined && !isPlainObject(d.metadata)) throw invalid(`documents[${i}].metadata`, 'a plain object', d.metadata);
      if (seen.has(d.id)) throw new RagwasmError('DUPLICATE_ID', `ragwasm: documents[${i}].id: "${d.id}" appears twice`);
      seen.add(d.id);
    }
    return extra;
  }

  /**
   * Chunks and indexes documents. A document id that exists is replaced (upsert). BM25 indexes each
   * chunk's `indexText` (the chunker's context + the text) as the field "text" and the document's
   * other configured fields (default `title`); the dense leg embeds `indexText` with
   * `kind: 'document'`. Chunks whose embedding is all zeros (e.g. the static model on text without
   * one known word) are reported in `zeroVectors` and kept out of the dense leg.
   * @param {{id: string, text: string, title?: string, metadata?: object}[]} documents (or one document) metadata values:
   *   string, finite number, boolean or null (strings and numbers are filterable)
   * @param {{onProgress?: (done: number, total: number) => void, signal?: AbortSignal, batchSize?: number,
   *   chunkContexts?: (document: {id: string, title?: string, text: string}, chunks: {id: string, text: string}[]) => (string[]|Promise<string[]>)}} [options]
   *   chunkContexts: a context per chunk written by the caller (e.g. an LLM: `llmChunkContexts(client)` of ragwasm/llm,
   *   contextual retrieval), put before the chunk text in its indexText (after the config's chunker.context, joined by
   *   its separator, default two newlines); '' adds nothing. Indexed by BM25 and the dense leg like any context.
   * @returns {Promise<{documents: number, chunks: number, zeroVectors: string[]}>}
   * @throws {RagwasmError} INVALID_ARGUMENT (also a chunkContexts result that is not one string per chunk), DUPLICATE_ID,
   *   ABORTED (nothing of the current batch is indexed), DISPOSED (also when dispose() lands while the embedder runs:
   *   no partial success); what chunkContexts throws
   */
  async add(documents, options = {}) {
    const p = this._prepareAdd(documents, options, 'add options');
    return this._exclusive(() => this._add(p.documents, p.extra, p.o, p.batchSize));
  }

  /**
   * Adds or replaces documents: a document whose id is in the collection replaces it (its old chunks
   * leave both legs), the others are added. The collection after it (hits, `chunks`, `toBytes()` bytes)
   * is the one `remove(the ids that exist)` then `add(documents)` gives (the same index writes); unlike
   * that pair, nothing is removed before every document is chunked (with its LLM context steps) and
   * embedded, so a failed step or embedder, or an abort, leaves the collection as it was.
   * @param {{id: string, text: string, title?: string, metadata?: object}[]} documents (or one document), as add()
   * @param {object} [options] as add()
   * @returns {Promise<{added: number, updated: number, removed: number, skipped: number, documents: number, chunks: number, zeroVectors: string[]}>}
   *   the write summary of every index (removed and skipped are 0) with add()'s counts
   * @throws {RagwasmError} as add()
   */
  async upsert(documents, options = {}) {
    const p = this._prepareAdd(documents, options, 'upsert options');
    return this._exclusive(async () => {
      const updated = p.documents.filter((d) => this.docs.has(d.id)).length;
      const r = await this._add(p.documents, p.extra, p.o, p.batchSize, { replaceFirst: true });
      return { added: p.documents.length - updated, updated, removed: 0, skipped: 0, ...r };
    });
  }

  // add() and upsert()'s argument checks: the documents (a copy), their extra fields, the options.
  _prepareAdd(documents, options, name) {
    this._alive();
    const o = expectOptions(options, name, ['onProgress', 'signal', 'batchSize', 'chunkContexts']);
    if (isPlainObject(documents)) documents = [documents];  // one document, as the indexes' add takes one item
    const extra = this._checkDocuments(documents);
    if (o.onProgress !== undefined) expectFunction(o.onProgress, 'options.onProgress');
    if (o.chunkContexts !== undefined) expectFunction(o.chunkContexts, 'options.chunkContexts');
    const steps = llmContextSteps(this.config);
    if (steps.length > 0 && !this._llm) {
      throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${steps[0].path}: this collection has no LLM for its context step (a loaded collection: give it to Collection.load / fromBytes as {llm: client})`, { path: steps[0].path });
    }
    if (o.chunkContexts !== undefined && steps.some((st) => st.key === 'llmChunkContext')) {
      throw invalid('options.chunkContexts', 'no chunk contexts (the config\'s chunker.context.llmChunkContext writes them)', o.chunkContexts);
    }
    const batchSize = o.batchSize === undefined ? 64 : expectInteger(o.batchSize, 'options.batchSize', { min: 1, max: 100000 });
    return { documents: documents.slice(), extra, o, batchSize };
  }

  // add(): each batch chunked and embedded, then written (an id in the collection is replaced as its
  // batch is written). upsert() (replaceFirst): every batch chunked and embedded first, then the ids in
  // the collection removed at once and the batches written: the index writes of remove() then add().
  async _add(documents, extra, o, batchSize, { replaceFirst = false } = {}) {
    const ctx = {
      extra, o,
      copts: chunkOptions(this.config.chunker, this.embedder),
      semantic: this.config.chunker.strategy === 'semantic',
      steps: llmContextSteps(this.config),
      separator: this.config.chunker.context?.separator ?? '\n\n',
    };
    const out = { documents: documents.length, chunks: 0, zeroVectors: [] };
    const batches = [];
    for (let i = 0; i < documents.length; i += batchSize) batches.push(documents.slice(i, i + batchSize));
    const write = async (p, done) => {
      await this._writeBatch(p, ctx);
      out.chunks += p.flat.length;
      out.zeroVectors.push(...p.zeroIds);
      o.onProgress?.(done, documents.length);
      await new Promise((r) => setTimeout(r, 0));
      if (this._disposed) throw disposedError();
    };
    if (replaceFirst) {
      const prepared = [];
      for (const batch of batches) prepared.push(await this._prepareBatch(batch, ctx));
      this._remove(documents.filter((d) => this.docs.has(d.id)).map((d) => d.id));
      let done = 0;
      for (const p of prepared) await write(p, (done += p.batch.length));
      return out;
    }
    let done = 0;
    for (const batch of batches) {
      const p = await this._prepareBatch(batch, ctx);
      await write(p, (done += batch.length));
    }
    return out;
  }

  // A batch's chunks (with their context steps) and vectors; nothing is written yet.
  async _prepareBatch(batch, { o, copts, semantic, steps, separator }) {
    abortCheck(o.signal);
    const perDoc = [];
    for (const d of batch) {
      const cs = await chunkWithContexts(d, { copts, semantic, steps, llm: this._llm, chunkContexts: o.chunkContexts, separator, signal: o.signal, alive: () => this._alive() });
      perDoc.push(cs.map(storedChunk));
    }
    if (this._disposed) throw disposedError();
    const flat = perDoc.flat();
    const vectors = this.dense && flat.length > 0
      ? await embedTexts(this.embedder, flat.map(indexTextOf), { kind: 'document', signal: o.signal }) : null;
    if (this._disposed) throw disposedError();
    abortCheck(o.signal);
    const zeroIds = vectors ? flat.filter((c, k) => isZeroVector(vectors[k])).map((c) => c.id) : [];
    return { batch, perDoc, flat, vectors, zeroIds };
  }

  // Writes a prepared batch: replaces the batch's ids already in the collection, then indexes it.
  async _writeBatch({ batch, perDoc, flat, vectors, zeroIds }, { extra }) {
    const existing = batch.filter((d) => this.docs.has(d.id)).map((d) => d.id);
    if (existing.length > 0) this._remove(existing);
    const records = batch.map((d) => {
      const r = { metadata: d.metadata ?? {}, length: d.text.length };
      if (d.title !== undefined && d.title !== null) r.title = d.title;
      const fields = {};
      for (const f of extra) if (f !== 'title' && typeof d[f] === 'string') fields[f] = d[f];
      if (Object.keys(fields).length > 0) r.fields = fields;
      return r;
    });
    const writes = [];  // sharded: both legs' writes run in the Workers at once
    if (this.bm25 && flat.length > 0) {
      const byDoc = new Map(batch.map((d, j) => [d.id, records[j]]));
      writes.push(this.bm25.add(flat.map((c) => this._bm25Doc(c, byDoc.get(c.docId), extra))));
    }
    if (this.dense && flat.length > 0) {
      const zs = new Set(zeroIds);
      const keep = flat.flatMap((c, k) => (zs.has(c.id) ? [] : [k]));
      if (keep.length > 0) writes.push(this.dense.add(keep.map((k) => ({ id: flat[k].id, vector: vectors[k] }))));
      for (const id of zeroIds) this.zeroVectors.add(id);
    }
    if (this._pool) {
      await Promise.all(writes);
      if (this._disposed) throw disposedError();
    }
    if (this._vectors) flat.forEach((c, k) => this._vectors.set(c.id, Float32Array.from(vectors[k])));
    batch.forEach((d, j) => {
      const rec = new DocRecord(d.id, records[j], perDoc[j], { text: d.text });
      this.docs.set(d.id, rec);
      this.chunks.added(rec);
      this.revision++;
    });
  }

  // One LLM context step for document d (chunks null: the summary), with the step's prompt and maxTokens.
  // The Bm25Index document of a chunk: indexText as "text", the document's other fields, its metadata.
  _bm25Doc(c, record, extra) {
    const doc = { id: c.id, text: indexTextOf(c) };
    for (const f of extra) {
      const v = f === 'title' ? record.title : record.fields?.[f];
      if (typeof v === 'string') doc[f] = v;
    }
    const meta = filterableMetadata(record.metadata ?? {});
    if (meta) doc.metadata = meta;
    return doc;
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
      if (this._pool) {
        await this._settled();
        this._alive();
        if (this.bm25) await this.bm25.compact();
        return { vectorsDropped: this.dense ? await this.dense.compact() : 0 };
      }
      if (this.bm25) this.bm25.compact();
      return { vectorsDropped: this.dense ? this.dense.compact() : 0 };
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
        if (this._pool) {
          // posted now, in order before any later search or write; awaited by the next async call
          if (this.bm25) this._track(this.bm25.remove(chunkIds, { ignoreMissing: true }));
          if (this.dense && inDense.length > 0) this._track(this.dense.remove(inDense, { ignoreMissing: true }));
        } else {
          if (this.bm25) this.bm25.remove(chunkIds, { ignoreMissing: true });
          if (this.dense && inDense.length > 0) this.dense.remove(inDense);
        }
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
    if (this._pool) {
      await this._settled();
      const n = Math.min(k, allowed ? allowed.size : this.dense.size);
      const ask = n === 0 ? [] : vecs.flatMap((v, i) => (isZeroVector(v) ? [] : [i]));
      const found = ask.length === 0 ? [] : await this.dense.searchMany(ask.map((i) => vecs[i]), allowed ? { k: n, filter: allowed } : { k: n });
      if (this._disposed) throw disposedError();
      const out = vecs.map(() => []);
      ask.forEach((i, j) => { out[i] = found[j]; });
      return out;
    }
    const live = this.dense.size;
    return vecs.map((v) => {
      const n = Math.min(k, allowed ? allowed.size : live);
      if (n === 0 || isZeroVector(v)) return [];
      return this.dense.search(v, allowed ? { k: n, filter: allowed } : { k: n });
    });
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
   *   `{lang: 'en', tag: ['a', 'b'], year: {gte: 2020}}` (docs/collection.md "Filters")
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
    const filter = keep !== null || o.filter === undefined || o.filter === null || Object.keys(o.filter).length === 0 ? null : o.filter;
    const lexical = lexicalOptions(o);  // prefix, fuzzy, combineWith, boost ...: the BM25 leg's (Bm25Index.search)
    // candidates above the search k limit fetch MAX_SEARCH_K hits per leg
    const n = Math.min(MAX_SEARCH_K, Math.max(this.config.retrieval.candidates, k));
    const lists = [];
    for (const r of this.config.retrieval.retrievers) {
      if (r === 'bm25') {
        if (this.bm25.analyze(query).length === 0) {
          throw invalid('query', 'at least one searchable term (it is empty or only stopwords)', query);
        }
        const bo = filter ? { k: n, filter, ...lexical } : { k: n, ...lexical };
        const hits = this._pool ? await this._bm25Sharded([query], bo).then((r) => r[0]) : this.bm25.search(query, bo);
        lists.push({ retriever: 'bm25', hits: hits.map((h) => ({ id: h.id, score: h.score })) });
      } else {
        const [hits] = await this._denseHits([query], n, filter ? this._allowedChunks(filter) : null, o.signal);
        lists.push({ retriever: 'dense', hits: hits.map((h) => ({ id: h.id, score: h.score })) });
      }
    }
    const fused = lists.length === 1 ? single(lists[0]) : await this._fuse(lists, o.signal);
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
    }
    return out;
  }

  // Sharded BM25 hits of several queries, after the removals in flight.
  async _bm25Sharded(queries, options) {
    await this._settled();
    const hits = await this.bm25.searchMany(queries, options);
    if (this._disposed) throw disposedError();
    return hits;
  }

  // Fuses two or more lists with the config's fusion (and the leg check of the default hybrid).
  async _fuse(lists, signal) {
    const f = this.config.retrieval.fusion;
    const legReport = f.legCheck ? await this.#legCheckForSearch(signal) : null;
    const retrievers = this.config.retrieval.retrievers;
    const weights = weightsAfterLegCheck(f.weights, retrievers, legReport);
    const benched = retrievers.filter((r, i) => weights[i] === 0 && f.weights[i] !== 0);
    let fused;
    if (benched.length === 0) {
      fused = fuse(lists, { mode: f.mode, normalization: f.normalization, weights, rrfK: f.rrfK });
    } else {
      // Benched legs take no part in fusion (in any mode); their own hits follow, in their ranking.
      const keep = lists.map((l, i) => i).filter((i) => !benched.includes(lists[i].retriever));
      fused = fuse(keep.map((i) => lists[i]), { mode: f.mode, normalization: f.normalization, weights: keep.map((i) => weights[i]), rrfK: f.rrfK });
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
    fused.legReport = legReport;
    return fused;
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
      search: r === 'bm25' && this._pool ? async (queries, k) => {
        const ask = queries.flatMap((q, i) => (this.bm25.analyze(q).length === 0 ? [] : [i]));
        const found = await this._bm25Sharded(ask.map((i) => queries[i]), { k });
        const out = queries.map(() => []);
        ask.forEach((i, j) => { out[i] = found[j].map((h) => h.id); });
        return out;
      } : r === 'bm25'
        ? (queries, k) => queries.map((q) => (this.bm25.analyze(q).length === 0 ? [] : this.bm25.search(q, { k }).map((h) => h.id)))
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
   * @param {{dimension?: number, signal?: AbortSignal, onProgress?: (done: number, total: number) => void,
   *   batchSize?: number}} [options] batchSize (chunks embedded at a time) default 256
   * @returns {Promise<{chunks: number, zeroVectors: string[]}>}
   * @throws {RagwasmError} INVALID_ARGUMENT (no dense index, bad embedder), DIMENSION_MISMATCH (bad
   *   vectors), ABORTED, DISPOSED
   */
  async setEmbedder(embedder, options = {}) {
    this._alive();
    const o = expectOptions(options, 'setEmbedder options', ['dimension', 'signal', 'onProgress', 'batchSize']);
    if (!this.config.indexes.dense) throw invalid('setEmbedder', 'a collection with a dense index (the config has none)', embedder);
    if (this._pool) throw invalid('setEmbedder', 'a collection with workers: 1 (a sharded collection embeds with the default static model)', embedder);
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
          o.onProgress?.(Math.min(i + batchSize, all.length), all.length);
          await new Promise((r) => setTimeout(r, 0));
          if (this._disposed) throw disposedError();
        }
      } catch (err) {
        fresh.dispose();
        throw err;
      }
      const stale = [...this.chunks.keys()].filter((id) => !fresh.has(id) && !zero.includes(id));
      const old = this.dense;
      this.dense = fresh;
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
    if (this._pool) return this._toBytesSharded();
    return this._pack(this._headerBytes(), this.bm25 ? this.bm25.toBytes() : null, this.dense ? this.dense.toBytes() : null);
  }

  // the JSON header as UTF-8 pieces (headerPieces: no single string past V8's limit at ~1.7M chunks)
  _headerBytes() {
    return [...this._headerStream()];
  }

  // _headerBytes() made one piece at a time as they are taken (scratch, onText: see headerStream)
  _headerStream(scratch = false, onText = null) {
    const header = { config: this.config, embedder: this.embedder ? { id: this.embedder.id, dimension: this.embedder.dimension } : null };
    return headerStream(header, this.docs, this.zeroVectors.size > 0 ? [...this.zeroVectors] : undefined, scratch, onText);
  }

  // the header's pieces; each index's bytes, or null when that leg is off (its section is then absent)
  _pack(header, bm25, dense) {
    return packContainer(MAGIC, COLLECTION_FORMAT_VERSION, this._sections(header, bm25, dense));
  }

  // header: its pieces, or [an iterator of them, their total length]; bm25 / dense: bytes, or
  // {pieces, length} (save(): an iterator that makes the section when its turn comes, copied out of the
  // WASM heap in pieces as they are written)
  _sections(header, bm25, dense) {
    const sections = [isArray(header) && !isInstance(header[0], Uint8Array)
      ? { tag: HEADER_TAG, bytes: header[0], length: header[1] } : { tag: HEADER_TAG, bytes: header }];
    const index = (tag, b) => (isInstance(b, Uint8Array) ? { tag, bytes: b } : { tag, bytes: b.pieces, length: b.length });
    if (bm25) sections.push(index(BM25_TAG, bm25));
    if (dense) sections.push(index(DENSE_TAG, dense));
    return sections;
  }

  async _toBytesSharded() {
    await this._settled();
    // a snapshot: writes that land while the dense chunks are embedded are not in these bytes
    const header = this._headerBytes();
    const { chunks, records } = this._chunksInOrder();
    const zero = new Set(this.zeroVectors);
    const kept = this._vectors;
    let bm25 = null;
    let dense = null;
    try {
      bm25 = this.bm25 ? Bm25Index.create(this.config.indexes.bm25) : null;
      dense = this.dense ? VectorIndex.create(denseOptions(this.config.indexes.dense, this.dimension)) : null;
      if (bm25 && chunks.length > 0) {
        const extra = bm25Fields(this.config.indexes.bm25).map((f) => f.name).filter((n) => n !== 'text');
        bm25.add(chunks.map((c, i) => this._bm25Doc(c, records[i], extra)));
      }
      const keep = dense ? chunks.filter((c) => !zero.has(c.id)) : [];
      const step = 8192;
      for (let i = 0; i < keep.length; i += step) {
        const part = keep.slice(i, i + step);
        const missing = part.filter((c) => !kept?.has(c.id));
        const fresh = missing.length === 0 ? [] : await embedTexts(this.embedder, missing.map(indexTextOf), { kind: 'document' });
        this._alive();
        const byId = new Map(missing.map((c, j) => [c.id, fresh[j]]));
        dense.add(part.map((c) => ({ id: c.id, vector: byId.get(c.id) ?? kept.get(c.id) })));
      }
      return this._pack(header, bm25 ? bm25.toBytes() : null, dense ? dense.toBytes() : null);
    } finally {
      bm25?.dispose();
      dense?.dispose();
    }
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
   * @returns {Collection|Promise<Collection>} a Promise when `workers` > 1
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
    const llm = checkLlm(h.cfg, o.llm, { required: false });
    if (h.cfg.indexes.bm25 && sections[1].length === 0) throw corrupt('the config has a BM25 index, but its section is missing or empty');
    if (h.cfg.indexes.dense && sections[2].length === 0) throw corrupt('the config has a vector index, but its section is missing or empty');
    let bm25 = null;
    let dense = null;
    try {
      bm25 = h.cfg.indexes.bm25 ? Bm25Index.fromBytes(sections[1]) : null;
      dense = h.cfg.indexes.dense ? VectorIndex.fromBytes(sections[2]) : null;
      checkSections(h, bm25, dense, corrupt);
      const needs = h.cfg.indexes.dense || h.cfg.chunker.strategy === 'semantic';
      const embedder = needs ? checkEmbedder(o, h.embedder, dense?.dimension) : o.embedder;
      const c = new Collection(h.cfg, embedder, needs ? undefined : o.dimension, bm25, dense, h.docs, keepVectors, h.zeroVectors);
      c._llm = llm;
      return c;
    } catch (e) {
      // e.g. a header that disagrees with an index: free the indexes already loaded
      bm25?.dispose();
      dense?.dispose();
      throw e;
    }
  }

  // save()'s load-back check: the checks of fromBytes (header, both sections checked and compared with
  // it, the embedder), without building a second index: the live collection's indexes are in the same
  // WASM heap, which never shrinks (issue #18, docs/scale.md).
  static _checkBytes(bytes, o) {
    const { version, sections } = unpackCollection(bytes);
    Collection._checkSections(version, sections, o);
  }

  // the checks of _checkBytes on the sections [header, bm25, dense] (an empty array for an absent one).
  // An index section may be given as a function `(use) => ...` that makes it, hands it to use() (its
  // check) and frees it, called once the header is checked: then the vector section (the larger) is
  // checked first and the BM25 section after it, so save() holds one of them at a time (docs/scale.md).
  static _checkSections(version, sections, o, trace = null) {
    const { h, corrupt } = headerOf(version, sections, { checkOnly: true });
    trace?.step('header checked');
    const made = sections.some((s) => typeof s === 'function');
    const withSection = (i, use) => (typeof sections[i] === 'function' ? sections[i](use) : use(sections[i]));
    // Each index section is checked without building an index (Bm25Index/VectorIndex._checkBytes): its
    // ids are marked against each header chunk's position, then compared as checkSections compares
    // a loaded index. An id twice in a section is refused as fromBytes refuses it.
    const at = h.chunkIds;  // checkOnly: a Map chunk id -> its position in the header (the one id structure)
    const marked = (check, bytes, what) => {
      const held = new Uint8Array(at.size);
      let twice = false;
      const r = check(bytes, (ids) => {
        for (const id of ids) {
          const i = at.get(id);
          if (i === undefined) continue;  // then a header chunk is missing (the counts are compared)
          if (held[i] === 1) twice = true;
          held[i] = 1;
        }
      });
      if (twice) throw new RagwasmError('CORRUPT_INDEX', `ragwasm: ${what}`);
      return { ...r, has: (id) => held[at.get(id)] === 1 };
    };
    const bm25 = () => withSection(1, (bytes) => {
      if (h.cfg.indexes.bm25 && bytes.length === 0) throw corrupt('the config has a BM25 index, but its section is missing or empty');
      if (h.cfg.indexes.bm25) checkSections(h, marked(Bm25Index._checkBytes, bytes, 'bytes: not a valid saved Bm25Index (documents: id)'), null, corrupt);
    });
    let dimension;
    const dense = () => withSection(2, (bytes) => {
      if (h.cfg.indexes.dense && bytes.length === 0) throw corrupt('the config has a vector index, but its section is missing or empty');
      if (!h.cfg.indexes.dense) return;
      const d = marked(VectorIndex._checkBytes, bytes, 'vector index bytes are corrupt: duplicate id (the file was truncated or modified; save it again)');
      checkSections(h, null, d, corrupt);
      dimension = d.dimension;
    });
    if (made) {
      dense();
      bm25();
    } else {
      // (both "missing" checks first, as fromBytes)
      if (h.cfg.indexes.bm25 && sections[1].length === 0) throw corrupt('the config has a BM25 index, but its section is missing or empty');
      if (h.cfg.indexes.dense && sections[2].length === 0) throw corrupt('the config has a vector index, but its section is missing or empty');
      bm25();
      dense();
    }
    if (h.cfg.indexes.dense || h.cfg.chunker.strategy === 'semantic') checkEmbedder(o, h.embedder, dimension);
  }

  static async _fromBytesSharded(bytes, o, workers, keepVectors) {
    const { h } = readHeader(bytes);  // corrupt headers fail before any Worker starts
    const llm = checkLlm(h.cfg, o.llm, { required: false });
    const withLlm = (c) => { c._llm = llm; return c; };
    const defaultModel = o.embedder === undefined && o.dimension === undefined && h.cfg.indexes.dense;
    checkShardable(h.cfg, defaultModel, 'options.workers', workers);
    if (!h.cfg.indexes.dense) {
      // every section checked as workers: 1 does, then the chunks indexed into the shards
      const plain = Collection.fromBytes(bytes, { ...o, workers: 1 });
      plain.dispose();
      return withLlm(await Collection._sharded(h.cfg, workers, o.embedder, o.dimension, plain.docs, keepVectors, []));
    }
    const embedder = await createStaticEmbedder();
    let plain;
    try {
      plain = Collection.fromBytes(bytes, { embedder, keepVectors: false });
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
    if (!isInstance(bytes, Uint8Array) || bytes.length < 8) return false;
    const magic = String.fromCharCode(...bytes.subarray(0, 8));
    return magic === MAGIC || magic === LEGACY_MAGIC;
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
    return this._exclusive(() => this._save(name, opts), { now: true });
  }

  async _save(name, opts) {
    const o = { keepVectors: false };
    if (this.embedder) o.embedder = this.embedder;
    if (this._pool) {
      const bytes = await this.toBytes();
      Collection._checkBytes(bytes, o);
      this._alive();
      await saveBytes(name, bytes, opts);
      return;
    }
    // The bytes of toBytes(), never joined into one buffer: the sections are checked, then written in
    // turn between the container's framing (a 1M-chunk collection is ~0.5 GB: one more copy of it, and
    // the browser's copy of one big write, were most of the tab's RSS during a save; docs/scale.md).
    // The header (~318 MB at 1M chunks) is never held whole: it is made twice, piece by piece, each
    // piece dropped once used: for the check (parseHeaderPieces), which records each piece's length
    // and CRC-32, then for the write, where every piece must match its record (and no add/remove may
    // have happened since: this.revision), or the write is abandoned and the stored copy kept.
    // The index sections (~227 MB at 1M chunks) are made by the index's writer into the WASM heap
    // (HeapBytes), one at a time: for the check (the vector section first, then the BM25 section in the
    // space it freed), each checked in place, its length and XXH64 recorded, then freed; and again when
    // its turn to be written comes, where its length and XXH64 must equal the checked ones (else ABORTED,
    // as for the header), copied out one piece at a time, freed. The WASM heap never shrinks: holding
    // both at once grew it by their sum (issue #18 item 6, docs/scale.md). All of it up to the write
    // runs without an await: same state.
    const trace = Collection._saveTrace;
    const bothHeld = trace?.bothHeld === true;  // test hook: hold each section from its check to its write
    const decodeHeader = trace?.decodeHeader === true;  // test hook: the check decodes the header's bytes
    const none = new Uint8Array(0);
    const revision = this.revision;
    const aborted = () => new RagwasmError('ABORTED', 'ragwasm: save: the collection changed while it was being written (a remove() ran '
      + 'during save(), or its documents were changed directly); the stored copy was not replaced: save again');
    // The check parses each header piece's text, the string its bytes were encoded from, instead of
    // decoding the bytes again: the text is JSON.stringify output (well-formed UTF-16: lone surrogates
    // come out escaped), which TextEncoder encodes exactly, so decoding the bytes gives that same
    // string. Blink's TextDecoder strings of a 1M-chunk header (~318 MB) stayed in the tab's RSS until a
    // full GC, ~+470 MB before the index sections were made (issue #18 item 6, docs/scale.md).
    const made = [];  // [length, CRC-32] of each header piece, as checked
    let text = null;
    const recorded = (function* record(pieces) {
      for (const p of pieces) {
        made.push([p.length, crc32(p)]);
        yield decodeHeader ? p : text;
      }
    })(this._headerStream(true, (t) => { text = t; }));
    const held = [null, null, null];  // the HeapBytes of section 1 (BM25), 2 (vector) while made
    const sums = [null, null, null];  // [length, XXH64] of each index section, as checked
    const names = [null, 'bm25', 'dense'];
    const indexOf = (i) => (i === 1 ? this.bm25 : this.dense);
    const checked = (i) => (indexOf(i) ? (use) => {
      const hb = (held[i] = indexOf(i)._heapBytes());
      trace?.step(`${names[i]} made (${hb.length} B)`);
      try {
        use(hb);
        sums[i] = [hb.length, hb.hash()];
        trace?.step(`${names[i]} checked`);
      } finally {
        if (!bothHeld) {
          held[i] = null;
          hb.dispose();
        }
      }
    } : none);
    const self = this;
    const write = (i) => (indexOf(i) ? { length: sums[i][0], pieces: (function* remade() {
      self._alive();
      const hb = held[i] ?? (held[i] = indexOf(i)._heapBytes());
      try {
        trace?.step(`${names[i]} made again`);
        if (self.revision !== revision || hb.length !== sums[i][0] || hb.hash() !== sums[i][1]) throw aborted();
        yield* hb.pieces();
        trace?.step(`${names[i]} written`);
      } finally {
        held[i] = null;
        hb.dispose();  // already done when its pieces were all taken
      }
    })() } : null);
    try {
      trace?.step('start');
      Collection._checkSections(COLLECTION_FORMAT_VERSION, [recorded, checked(1), checked(2)], o, trace);
      trace?.step('checked');
      this._alive();
      const again = (function* replay(pieces) {
        let k = 0;
        for (const p of pieces) {
          self._alive();
          if (self.revision !== revision || k >= made.length || p.length !== made[k][0] || crc32(p) !== made[k][1]) break;
          k++;
          yield p;
        }
        if (k !== made.length) throw aborted();
        trace?.step('header written');
      })(this._headerStream(true));  // into two reused buffers: storage.js copies or writes each piece before taking the next
      const length = made.reduce((n, [len]) => n + len, 0);
      const stream = containerStream(MAGIC, COLLECTION_FORMAT_VERSION, this._sections([again, length], write(1), write(2)));
      await savePieces(name, stream, opts);
      trace?.step('stored');
    } finally {
      for (const hb of held) hb?.dispose();  // a failed check (bothHeld), or a write abandoned
    }
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
   *   onProgress?: (done: number, total: number) => void}} [options] vectors default false (true needs
   *   the dense index), header default true, batchSize (chunks embedded at a time) default 256
   * @returns {AsyncGenerator<string>}
   * @throws {RagwasmError} INVALID_ARGUMENT (bad option; vectors without a dense index), ABORTED,
   *   embedder errors as add()
   */
  async *exportJsonlLines(options = {}) {
    this._alive();
    const o = expectOptions(options, 'exportJsonl options', ['vectors', 'header', 'batchSize', 'signal', 'onProgress']);
    const withVectors = o.vectors === undefined ? false : expectBoolean(o.vectors, 'options.vectors');
    const header = o.header === undefined ? true : expectBoolean(o.header, 'options.header');
    const batchSize = o.batchSize === undefined ? 256 : expectInteger(o.batchSize, 'options.batchSize', { min: 1, max: 100000 });
    if (o.onProgress !== undefined) expectFunction(o.onProgress, 'options.onProgress');
    if (withVectors && !this.config.indexes.dense) throw invalid('options.vectors', 'false (the config has no dense index)', true);
    const docs = [...this.docs.entries()];
    const total = docs.reduce((s, [, d]) => s + d.chunkCount, 0);
    if (header) {
      const line = { type: JSONL_HEADER, version: JSONL_FORMAT_VERSION, config: this.config,
        dimension: this.config.indexes.dense ? this.dimension : null, documents: docs.length, chunks: total, vectors: withVectors };
      if (this.embedder) line.embedder = { id: this.embedder.id, dimension: this.embedder.dimension };
      yield JSON.stringify(line);
    }
    const embedder = this.embedder;
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
          const out = await embedTexts(embedder, missing.map((i) => indexTextOf(pending[i][0])), { kind: 'document', signal: o.signal });
          abortCheck(o.signal);
          missing.forEach((i, j) => {
            vectors[i] = Float32Array.from(out[j]);
            if (kept && this.docs.get(pending[i][0].docId) === pending[i][1]) kept.set(pending[i][0].id, vectors[i]);
          });
        }
      }
      const lines = pending.map(([c, d], i) => chunkLine(c, d, vectors?.[i]));
      done += pending.length;
      pending = [];
      o.onProgress?.(done, total);
      return lines;
    };
    for (const [id, d] of docs) {
      if (d.chunkCount === 0) {
        if (pending.length > 0) yield* await flush();
        const line = { type: JSONL_DOCUMENT, id, metadata: d.metadata ?? {} };
        const fields = docFields(d);
        if (fields) line.fields = fields;
        yield JSON.stringify(line);
        continue;
      }
      for (const c of d.chunkList()) {
        pending.push([c, d]);
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
    const { cfg, embedder, docs } = parsed;
    const col = new Collection(cfg, embedder ?? o.embedder, undefined, null, null, new Map(), keepVectors);
    try {
      const all = [];
      const records = new Map();
      for (const [id, d] of docs) {
        const r = { metadata: d.metadata, length: 0 };
        if (d.fields) {
          const { title, ...rest } = d.fields;
          if (title !== undefined) r.title = title;
          if (Object.keys(rest).length > 0) r.fields = rest;
        }
        for (const x of d.chunks) {
          all.push(x);
          r.length = Math.max(r.length, x.chunk.end);
        }
        records.set(id, r);
      }
      const extra = col.bm25 ? bm25Fields(cfg.indexes.bm25).map((f) => f.name).filter((n) => n !== 'text') : [];
      for (let i = 0; i < all.length; i += batchSize) {
        abortCheck(o.signal);
        const batch = all.slice(i, i + batchSize);
        if (col.dense) {
          const missing = batch.filter((x) => x.vector === null);
          if (missing.length > 0) {
            const out = await embedTexts(col.embedder, missing.map((x) => indexTextOf(x.chunk)), { kind: 'document', signal: o.signal });
            missing.forEach((x, j) => { x.vector = out[j]; });
            abortCheck(o.signal);
          }
          const keep = batch.filter((x) => !isZeroVector(x.vector));
          if (keep.length > 0) col.dense.add(keep.map((x) => ({ id: x.chunk.id, vector: x.vector })));
          for (const x of batch) if (isZeroVector(x.vector)) col.zeroVectors.add(x.chunk.id);
          if (col._vectors) for (const x of batch) col._vectors.set(x.chunk.id, x.vector);
        }
        if (col.bm25) col.bm25.add(batch.map((x) => col._bm25Doc(x.chunk, records.get(x.chunk.docId), extra)));
        o.onProgress?.(Math.min(i + batchSize, all.length), all.length);
        await new Promise((r) => setTimeout(r, 0));
      }
      for (const [id, d] of docs) {
        const rec = new DocRecord(id, records.get(id), d.chunks.map((x) => x.chunk));
        col.docs.set(id, rec);
        col.chunks.added(rec);
      }
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
    if (this._pool) {
      // the sharded legs live in the pool's Workers (and the BM25 analyzer in this thread)
      this.bm25?.dispose().catch(() => {});
      this.dense?.dispose().catch(() => {});
      this._pool.terminate().catch(() => {});
    } else {
      this.bm25?.dispose();
      this.dense?.dispose();
    }
    this.bm25 = null;
    this.dense = null;
    this._vectors = null;
  }
}

/**
 * @internal test-only hook of save(): null (no trace, no cost), or `{step(label), bothHeld?}`: step() is
 * called at each of save()'s sub-steps ("header checked", "dense made (<n> B)", "dense checked", ...,
 * "stored"; the million bench times them against the tab's RSS, docs/scale.md); `bothHeld: true` holds
 * each index section from its check to its write instead of making it again, `decodeHeader: true` has
 * the check decode each header piece's bytes instead of parsing its text (save() before issue #18 item
 * 6's last changes, for a same-session comparison; the same bytes are written either way).
 */
Collection._saveTrace = null;

// ---- JSONL export / import helpers -------------------------------------------------------------

// One chunk line; `vector` (a Float32Array) widened to doubles, so JSON holds the exact float32 values.
function chunkLine(c, d, vector) {
  const o = { id: c.id, docId: c.docId, ordinal: c.ordinal, text: c.text, start: c.start, end: c.end, metadata: d.metadata ?? {} };
  if (c.indexText !== undefined) o.indexText = c.indexText;
  const fields = docFields(d);
  if (fields) o.fields = fields;
  if (vector) o.vector = Array.from(vector);
  return JSON.stringify(o);
}

// A document's BM25 fields other than the chunk text ({title, ...fields}), or null.
function docFields(d) {
  if (d.title === undefined && d.fields === undefined) return null;
  return d.title === undefined ? { ...d.fields } : { title: d.title, ...d.fields };
}

function lineFields(v, n) {
  if (v === undefined) return null;
  if (!isPlainObject(v)) throw lineError('INVALID_ARGUMENT', n, 'fields', `expected an object of strings, got ${describe(v)}`);
  for (const [k, x] of Object.entries(v)) {
    if (typeof x !== 'string') throw lineError('INVALID_ARGUMENT', n, `fields.${k}`, `expected a string, got ${describe(x)}`);
  }
  return v;
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
  if (!isObject(input) || (!hasMethod(input, Symbol.iterator) && !hasMethod(input, Symbol.asyncIterator))) {
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
  if (!isArray(v)) throw lineError('INVALID_ARGUMENT', n, 'vector', `expected an array of ${dimension} numbers, got ${describe(v)}`);
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
// -> {cfg, dimension, embedder, docs: Map<docId, {metadata, fields, line, chunks: {chunk, vector: Float32Array|null}[]}>}
async function parseJsonl(input, o) {
  let cfg = o.config === undefined ? undefined : parsePipelineConfig(o.config);
  let dimension;
  let embedder;
  let header = null;
  let started = false;
  const docs = new Map();
  const chunkLines = new Map();  // chunk id -> line
  let chunkCount = 0;
  let lines = 0;
  // After the first line: the config and the dense index's dimension are fixed.
  const setup = (n) => {
    started = true;
    if (cfg === undefined) {
      try {
        cfg = readPipelineConfig(header?.config ?? {}).config;  // exported data: old names load quietly
      } catch (e) {
        if (!(e instanceof RagwasmError)) throw e;
        throw lineError(e.code, n, 'config', e.message.replace(/^ragwasm: /, ''));
      }
    }
    if (!cfg.indexes.dense && cfg.chunker.strategy !== 'semantic') return;
    const fromHeader = typeof header?.dimension === 'number' ? header.dimension : undefined;
    embedder = denseEmbedder(o.embedder, o.dimension ?? (declaredDimension(o.embedder) === undefined ? fromHeader : undefined));
    if (!cfg.indexes.dense) return;
    dimension = embedder.dimension;
    if (fromHeader !== undefined && fromHeader !== dimension) {
      throw lineError('DIMENSION_MISMATCH', n, 'dimension', `expected ${dimension} (the embedder's), got ${fromHeader}`);
    }
    // Vectors made by one model are not searched with another (as fromBytes).
    const saved = header?.embedder;
    if (isPlainObject(saved) && typeof saved.id === 'string' && header.vectors === true && saved.id !== embedder.id) {
      throw lineError('INVALID_ARGUMENT', n, 'embedder', `the vectors were made by the embedder '${saved.id}', got '${embedder.id}'`);
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
      docs.set(id, { metadata: lineMetadata(obj.metadata, n), fields: lineFields(obj.fields, n), line: n, chunks: [], documentLine: true });
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
    const fields = lineFields(obj.fields, n);
    if (obj.indexText !== undefined && (typeof obj.indexText !== 'string' || !obj.indexText.endsWith(chunkText))) {
      throw lineError('INVALID_ARGUMENT', n, 'indexText', `expected a string ending with the chunk text, got ${describe(obj.indexText)}`);
    }
    if (end - start !== chunkText.length) {
      throw lineError('INVALID_ARGUMENT', n, 'text', `has ${chunkText.length} UTF-16 units, but start..end (${start}..${end}) spans ${end - start}`);
    }
    // Chunk ids are `docId#ordinal` everywhere else (chunk(), add(), remove()): an import must keep that.
    if (id !== `${docId}#${ordinal}`) throw lineError('INVALID_ARGUMENT', n, 'id', `expected "${docId}#${ordinal}" (docId#ordinal), got "${id}"`);
    if (chunkLines.has(id)) throw lineError('DUPLICATE_ID', n, 'id', `chunk "${id}" already appeared on line ${chunkLines.get(id)}`);
    const vector = dimension !== undefined && obj.vector !== undefined ? lineVector(obj.vector, n, dimension) : null;
    let d = docs.get(docId);
    if (d === undefined) {
      d = { metadata, fields, line: n, chunks: [] };
      docs.set(docId, d);
    } else if (d.documentLine) {
      throw lineError('DUPLICATE_ID', n, 'docId', `document "${docId}" was declared without chunks on line ${d.line}`);
    } else if (JSON.stringify(metadata) !== JSON.stringify(d.metadata)) {
      throw lineError('INVALID_ARGUMENT', n, 'metadata', `differs from the metadata of document "${docId}" on line ${d.line} (chunks of one document share it)`);
    } else if (JSON.stringify(fields) !== JSON.stringify(d.fields)) {
      throw lineError('INVALID_ARGUMENT', n, 'fields', `differs from the fields of document "${docId}" on line ${d.line} (chunks of one document share them)`);
    }
    chunkLines.set(id, n);
    const c = { id, docId, ordinal, text: chunkText, start, end };
    if (obj.indexText !== undefined && obj.indexText !== chunkText) c.indexText = obj.indexText;
    d.chunks.push({ chunk: c, vector });
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
  return { cfg, dimension, embedder, docs };
}

// One retriever: its own ranking and raw scores, no fusion (docs/collection.md).
// workers > 1 needs legs that shard exactly: the dense leg flat (f32 / int8) with the default static
// model (a given embedder runs where it was made, in this thread).
function checkShardable(cfg, defaultModel, name, workers) {
  if (!cfg.indexes.dense) return;
  if (!defaultModel) throw invalid(name, 'workers with the default static model (a given embedder runs where it was made)', workers);
  const d = cfg.indexes.dense;
  if ((d.index ?? 'flat') !== 'flat' || d.storage === 'binary') {
    throw invalid(name, `workers with a flat f32 or int8 dense index (a sharded HNSW graph or binary candidate list would not return one index's hits; the config has index '${d.index}', storage '${d.storage}')`, workers);
  }
}

function single(list) {
  const hits = list.hits.map((h, r) => ({ id: h.id, score: h.score,
    contributions: [{ retriever: list.retriever, present: true, rank: r + 1, raw: h.score, normalized: h.score, weight: 1, contribution: h.score }] }));
  return { hits, diagnostics: { mode: 'single', retriever: list.retriever, warnings: [] }, legReport: null };
}

// The vector dimension an embedder value declares itself, if any.
function declaredDimension(value) {
  if (value === null || typeof value !== 'object') return undefined;
  return value.dimension ?? value.dims ?? undefined;
}

// The embedder for a loaded collection: present, and the model the collection was built with.
function checkEmbedder(o, saved, denseDimension) {
  if (o.embedder === undefined) {
    const need = saved ? ` (this collection was built with the embedder '${saved.id}', ${saved.dimension} dimensions)` : '';
    throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: options.embedder: expected an embedder${need}, got undefined`);
  }
  const fallback = saved?.dimension ?? denseDimension;
  const e = denseEmbedder(o.embedder, o.dimension ?? (declaredDimension(o.embedder) === undefined ? fallback : undefined));
  // 'custom' is the id of an unnamed embedder: before StaticEmbedder and OnnxEmbedder had ids (docs/api.md),
  // collections built with them saved 'custom', and they still load with the model that has an id now.
  if (saved && e.id !== saved.id && saved.id !== 'custom') {
    throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: options.embedder: this collection was built with the embedder '${saved.id}' `
      + `(${saved.dimension} dimensions), got '${e.id}'; load it with '${saved.id}', then setEmbedder() can switch models`,
    { expected: saved.id, got: e.id });
  }
  const need = saved?.dimension ?? denseDimension;
  if (need !== undefined && e.dimension !== need) {
    throw new RagwasmError('DIMENSION_MISMATCH', `ragwasm: options.embedder: has ${e.dimension} dimensions, the collection's vectors have ${need}`);
  }
  return e;
}

const STORED_CHUNK_KEYS = ['id', 'docId', 'ordinal', 'text', 'start', 'end', 'indexText'];
const STORED_DOC_KEYS = ['id', 'title', 'fields', 'metadata', 'length', 'chunks'];

// Unpacks saved bytes and checks their header (not yet the index sections).
// ---- The saved JSON header, written and read in pieces ------------------------------------------
// A million chunks make a header of ~300 M characters, and a JS engine's longest string is bounded
// (V8: 2^29 - 24 = 536,870,888 UTF-16 units), so neither toBytes() nor fromBytes() builds the whole
// header as one string: the writer encodes it in pieces of about PIECE_CHARS characters (the bytes are
// exactly those of JSON.stringify({config, embedder, docs, zeroVectors?})), and a header of more than
// HEADER_SPLIT_BYTES bytes is read by parseLargeHeader, which decodes each value of the top-level
// object, and each element of `docs`, on its own.
// 32 Ki characters (<= 64 KB as a two-byte string): each piece's strings (the piece being joined, its
// decoded text, the text parsed) stay below V8's large-object size (128 KB), so they die young; 1 Mi-
// character pieces put ~3 large strings per piece in the large-object space, collected only by a full
// GC: save() at 1M chunks left ~1 GB of them in the tab's RSS (issue #18, docs/scale.md).
const PIECE_CHARS = 1 << 15;
let HEADER_SPLIT_BYTES = 1 << 28;  // 256 MiB: below every engine's string limit (bytes >= UTF-16 units)

/** @internal white-box tests: lower the size from which headers are read in pieces; returns the old one. */
export function setHeaderSplitBytes(n) {
  const old = HEADER_SPLIT_BYTES;
  HEADER_SPLIT_BYTES = n;
  return old;
}

// -> Uint8Array[] whose concatenation is the UTF-8 of JSON.stringify({...header, docs, zeroVectors}).
// The pieces are always [the object up to `"docs":[`, pieces of whole documents (each after the first
// led by the separating comma), `]` and the rest of the object]: parseHeaderPieces reads them so.
function headerPieces(header, docs, zeroVectors) {
  return [...headerStream(header, docs, zeroVectors)];
}

// headerPieces() made one piece at a time, as they are taken (Collection.save(): never all held).
// scratch: each piece is a view into one of two reused buffers, valid until the piece after the next is
// taken (save()'s check, which holds one piece while it takes the next, and save()'s write: storage.js
// copies or writes a piece before it takes the next): a 1M-chunk header is ~318 MB of pieces, as one new
// ArrayBuffer each (backing stores outside the JS heap, freed only at a GC) (issue #18 item 6, docs/scale.md).
// onText(text): called with each piece's text right before its bytes are yielded (save()'s check parses it).
function* headerStream(header, docs, zeroVectors, scratch = false, onText = null) {
  const enc = new TextEncoder();
  const bufs = [new Uint8Array(0), new Uint8Array(0)];
  let k = 0;
  const encode = (text) => {
    onText?.(text);
    if (!scratch) return enc.encode(text);
    const slot = k++ & 1;
    if (bufs[slot].length < text.length * 3) bufs[slot] = new Uint8Array(Math.max(text.length * 3, 3 * PIECE_CHARS + 4096));
    const { written } = enc.encodeInto(text, bufs[slot]);  // room for 3 bytes per UTF-16 unit: all of it
    return bufs[slot].subarray(0, written);
  };
  yield encode(`${JSON.stringify(header).slice(0, -1)},"docs":[`);
  let cur = '';
  let first = true;
  for (const d of docs.values()) {
    cur += (first ? '' : ',') + JSON.stringify(d.toStored());
    first = false;
    if (cur.length >= PIECE_CHARS) {
      yield encode(cur);
      cur = '';
    }
  }
  if (cur !== '') yield encode(cur);
  cur = ']';
  if (zeroVectors !== undefined) cur += `,"zeroVectors":${JSON.stringify(zeroVectors)}`;
  yield encode(`${cur}}`);
}

// save()'s check of headerPieces() output without joining it (a 1M-chunk header is ~318 MB): the
// object without its documents parsed from the first and last pieces, each document piece parsed on
// its own and its documents handed to onDoc(doc, i) in order (not kept: the result's docs is []).
// Every byte is decoded (fatal UTF-8; a piece given as text is taken as is) and parsed, so pieces that would not parse joined are refused.
// `pieces`: an array, or an iterator taken one piece at a time (the last one is known when it ends); a
// piece may be given as its text instead of its bytes (save()'s check: see Collection._save).
function parseHeaderPieces(pieces, onDoc) {
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  const dec = { decode: (p) => (typeof p === 'string' ? p : utf8.decode(p)) };
  let start = null;
  let held = null;  // the piece before the one being taken: a document piece unless it is the last
  let k = 0;
  let n = 0;
  for (const piece of pieces) {
    if (k === 0) start = dec.decode(piece);
    else if (k > 1) {
      let text = dec.decode(held);
      if (k > 2) {
        if (text[0] !== ',') throw new SyntaxError(`header piece ${k - 1} does not start with a comma`);
        text = text.slice(1);
      }
      for (const d of JSON.parse(`[${text}]`)) onDoc(d, n++);
    }
    held = piece;
    k++;
  }
  if (k < 2) throw new SyntaxError('a header in pieces has at least its start and end');
  return JSON.parse(start + dec.decode(held));
}

function parseHeaderBytes(bytes) {
  if (bytes.length <= HEADER_SPLIT_BYTES) return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  return parseLargeHeader(bytes);
}

const isSpace = (b) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

// The index just past the JSON value starting at bytes[i] (strings, containers nested to any depth,
// literals and numbers); only the structure is checked here, JSON.parse checks each slice.
function skipValue(bytes, i) {
  const n = bytes.length;
  let depth = 0;
  let inString = false;
  for (let j = i; j < n; j++) {
    const b = bytes[j];
    if (inString) {
      if (b === 0x5c) j++;
      else if (b === 0x22) {
        inString = false;
        if (depth === 0) return j + 1;
      }
    } else if (b === 0x22) inString = true;
    else if (b === 0x7b || b === 0x5b) depth++;
    else if (b === 0x7d || b === 0x5d) {
      depth--;
      if (depth === 0) return j + 1;
      if (depth < 0) return j;  // a literal or number ended by its container
    } else if (depth === 0 && (b === 0x2c || isSpace(b))) return j;
  }
  if (depth === 0 && !inString && n > i) return n;
  throw new SyntaxError('unterminated JSON value');
}

// The header object read value by value (and `docs` element by element): no string longer than one value.
// onDoc(doc, i): when given, each element of `docs` is handed to it as parsed and not kept (docs: []).
function parseLargeHeader(bytes, onDoc) {
  const dec = new TextDecoder('utf-8', { fatal: true });
  const parse = (a, b) => JSON.parse(dec.decode(bytes.subarray(a, b)));
  const ws = (i) => { while (i < bytes.length && isSpace(bytes[i])) i++; return i; };
  const expect = (i, b) => { if (bytes[i] !== b) throw new SyntaxError(`expected '${String.fromCharCode(b)}' at byte ${i}`); return i + 1; };
  const out = {};
  let i = expect(ws(0), 0x7b);
  i = ws(i);
  if (bytes[i] === 0x7d) i++;
  else {
    for (;;) {
      i = ws(i);
      if (bytes[i] !== 0x22) throw new SyntaxError(`expected a key at byte ${i}`);
      const keyEnd = skipValue(bytes, i);
      const key = parse(i, keyEnd);
      i = ws(expect(ws(keyEnd), 0x3a));
      let value;
      if (key === 'docs' && bytes[i] === 0x5b) {
        value = [];
        i = ws(i + 1);
        if (bytes[i] === 0x5d) i++;
        else {
          for (let n = 0; ; n++) {
            const end = skipValue(bytes, i);
            if (onDoc) onDoc(parse(i, end), n);
            else value.push(parse(i, end));
            i = ws(end);
            if (bytes[i] === 0x5d) { i++; break; }
            i = ws(expect(i, 0x2c));
          }
        }
      } else {
        const end = skipValue(bytes, i);
        value = parse(i, end);
        i = end;
      }
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      i = ws(i);
      if (bytes[i] === 0x7d) { i++; break; }
      i = expect(i, 0x2c);
    }
  }
  if (ws(i) !== bytes.length) throw new SyntaxError('bytes after the header object');
  return out;
}

function readHeader(bytes) {
  const { version, sections } = unpackCollection(bytes);
  return headerOf(version, sections);
}

const COLLECTION_LABEL = 'ragwasm: collection bytes';

// The container checked and split: {version, sections: [header, bm25, dense]} (empty when absent).
function unpackCollection(bytes) {
  if (!(isInstance(bytes, Uint8Array))) throw invalid('bytes', 'a Uint8Array', bytes);
  const label = COLLECTION_LABEL;
  let version;
  let sections;
  if (bytes.length >= 8 && new TextDecoder().decode(bytes.subarray(0, 8)) === LEGACY_MAGIC) {
    ({ version, sections } = unpackSections(bytes, LEGACY_MAGIC, { count: 3, maxVersion: 2, label, what: 'a ragwasm collection' }));
  } else {
    const c = unpackContainer(bytes, MAGIC, { minVersion: 1, maxVersion: COLLECTION_FORMAT_VERSION, what: 'collection', label });
    if (c.version < 3) throw new RagwasmError('CORRUPT_INDEX', `${label}: version ${c.version} in the "${MAGIC}" container (versions 1 and 2 were written as "${LEGACY_MAGIC}")`);
    if (!c.sections.has(HEADER_TAG)) throw new RagwasmError('CORRUPT_INDEX', `${label}: the header section (1) is missing`);
    version = c.version;
    sections = [c.sections.get(HEADER_TAG), c.sections.get(BM25_TAG) ?? new Uint8Array(0), c.sections.get(DENSE_TAG) ?? new Uint8Array(0)];
  }
  return { version, sections };
}

// The header section parsed and checked against the format version. checkOnly (save()'s load-back
// check): every document is checked as it is parsed and then dropped (h.docs is empty; h.chunkIds,
// h.zeroVectors, h.cfg, h.embedder as always): a 1M-chunk header parsed whole into objects took the
// tab's RSS past 4 GB (issue #18, docs/scale.md).
function headerOf(version, sections, { checkOnly = false } = {}) {
  const label = COLLECTION_LABEL;
  const corrupt = (why) => new RagwasmError('CORRUPT_INDEX', `${label}: ${why}`);
  const check = headerChecker(version, corrupt, !checkOnly);
  let header;
  try {
    const onDoc = (d, i) => check.doc(d, i, true);
    if (!isInstance(sections[0], Uint8Array)) header = parseHeaderPieces(sections[0], onDoc);
    else header = checkOnly ? parseLargeHeader(sections[0], onDoc) : parseHeaderBytes(sections[0]);
  } catch (e) {
    if (e instanceof RagwasmError) throw e;
    throw corrupt('header is not valid JSON');
  }
  // The checksum only proves the bytes are unchanged since save(); a crafted header must still give
  // CORRUPT_INDEX instead of a TypeError here or in a later search.
  return { h: check.all(header), version, sections, corrupt };
}

// Checks a saved header field by field; every failure is CORRUPT_INDEX naming the field.
// doc(d, i, streamed): checks one element of header.docs (and keeps its record when `keep`); all(header):
// checks the rest (docs already given to doc() one by one are not checked again)
// -> {cfg, embedder: {id, dimension}|null, docs: Map, chunkIds: Set, zeroVectors: string[]}; without
// `keep`, chunkIds is a Map chunk id -> its position (save()'s check marks the sections' ids against it)
// and the documents' ids are not kept: a document's chunk ids are "id#0", "id#1", ... (checked), so an id
// seen before is its chunk "id#0" seen before, or for a document without chunks one in `empty`.
function headerChecker(version, corrupt, keep) {
  const docs = new Map();
  const empty = new Set();
  const chunkIds = keep ? new Set() : new Map();
  const addChunk = keep ? (id) => chunkIds.add(id) : (id) => chunkIds.set(id, chunkIds.size);
  let streamed = false;
  const doc = (d, i, fromStream = false) => {
    streamed ||= fromStream;
    const p = `header docs[${i}]`;
    if (!isPlainObject(d)) throw corrupt(`${p}: expected an object, got ${describe(d)}`);
    for (const key of Object.keys(d)) if (!STORED_DOC_KEYS.includes(key)) throw corrupt(`${p}.${key}: unknown field`);
    if (typeof d.id !== 'string' || d.id === '') throw corrupt(`${p}.id: expected a non-empty string, got ${describe(d.id)}`);
    if (keep ? docs.has(d.id) : chunkIds.has(`${d.id}#0`) || empty.has(d.id)) throw corrupt(`${p}.id: document "${d.id}" appears twice`);
    if (!isArray(d.chunks)) throw corrupt(`${p}.chunks: expected an array, got ${describe(d.chunks)}`);
    const metadata = d.metadata === undefined ? {} : d.metadata;
    if (!isPlainObject(metadata)) throw corrupt(`${p}.metadata: expected an object, got ${describe(metadata)}`);
    for (const [k, v] of Object.entries(metadata)) {
      if (!(v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)))) {
        throw corrupt(`${p}.metadata.${k}: expected a string, finite number, boolean or null, got ${describe(v)}`);
      }
    }
    if (d.title !== undefined && typeof d.title !== 'string') throw corrupt(`${p}.title: expected a string, got ${describe(d.title)}`);
    if (d.fields !== undefined && !(isPlainObject(d.fields) && Object.values(d.fields).every((v) => typeof v === 'string'))) {
      throw corrupt(`${p}.fields: expected an object of strings, got ${describe(d.fields)}`);
    }
    let length;
    if (version >= 2 || d.length !== undefined) {
      if (!Number.isInteger(d.length) || d.length < 0) throw corrupt(`${p}.length: expected an integer >= 0, got ${describe(d.length)}`);
      length = d.length;
    }
    const chunks = d.chunks.map((c, j) => {
      const cp = `${p}.chunks[${j}]`;
      if (!isPlainObject(c)) throw corrupt(`${cp}: expected an object, got ${describe(c)}`);
      for (const key of Object.keys(c)) if (!STORED_CHUNK_KEYS.includes(key)) throw corrupt(`${cp}.${key}: unknown field`);
      if (typeof c.text !== 'string') throw corrupt(`${cp}.text: expected a string, got ${describe(c.text)}`);
      if (c.docId !== d.id) throw corrupt(`${cp}.docId: expected "${d.id}" (its document), got ${describe(c.docId)}`);
      if (c.ordinal !== j) throw corrupt(`${cp}.ordinal: expected ${j} (its place), got ${describe(c.ordinal)}`);
      if (c.id !== `${d.id}#${j}`) throw corrupt(`${cp}.id: expected "${d.id}#${j}" (docId#ordinal), got ${describe(c.id)}`);
      if (chunkIds.has(c.id)) throw corrupt(`${cp}.id: chunk "${c.id}" appears twice`);
      addChunk(c.id);
      if (!Number.isInteger(c.start) || c.start < 0) throw corrupt(`${cp}.start: expected an integer >= 0, got ${describe(c.start)}`);
      if (!Number.isInteger(c.end) || c.end < c.start) throw corrupt(`${cp}.end: expected an integer >= start (${c.start}), got ${describe(c.end)}`);
      if (length !== undefined && c.end > length) throw corrupt(`${cp}.end: ${c.end} lies past the end of the document (length ${length})`);
      if (c.end - c.start !== c.text.length) {
        throw corrupt(`${cp}.text: has ${c.text.length} UTF-16 units, but start..end (${c.start}..${c.end}) spans ${c.end - c.start}`);
      }
      if (c.indexText !== undefined && (typeof c.indexText !== 'string' || !c.indexText.endsWith(c.text))) {
        throw corrupt(`${cp}.indexText: expected a string ending with the chunk text, got ${describe(c.indexText)}`);
      }
      if (j > 0) {
        // Overlapping neighbours are two slices of one document: the shared span must read the same.
        const prev = d.chunks[j - 1];
        const from = Math.max(prev.start, c.start);
        const to = Math.min(prev.end, c.end);
        if (to > from && prev.text.slice(from - prev.start, to - prev.start) !== c.text.slice(from - c.start, to - c.start)) {
          throw corrupt(`${cp}.text: differs from chunk ${j - 1} on the document span ${from}..${to} they share`);
        }
      }
      return keep ? storedChunk(c) : null;
    });
    if (!keep) {
      if (d.chunks.length === 0) empty.add(d.id);
      return;
    }
    // Format 1 did not save the document length: its last chunk end is the best lower bound.
    const record = { metadata, length: length ?? chunks.reduce((m, c) => Math.max(m, c.end), 0) };
    if (d.title !== undefined) record.title = d.title;
    if (d.fields !== undefined) record.fields = d.fields;
    docs.set(d.id, new DocRecord(d.id, record, chunks, { loaded: true }));
  };
  const all = (header) => {
    const out = checkTop(header, version, corrupt);
    if (!streamed) header.docs.forEach((d, i) => doc(d, i));
    out.docs = docs;
    out.chunkIds = chunkIds;
    out.zeroVectors = checkZeroVectors(header, chunkIds, corrupt);
    return out;
  };
  return { doc, all };
}

// the header's config and embedder -> {cfg, embedder}
function checkTop(header, version, corrupt) {
  if (!isPlainObject(header) || !isArray(header.docs)) throw corrupt('header does not hold {config, docs: [{id, chunks: [{id, text, ...}]}]}');
  const config = isPlainObject(header.config) ? structuredClone(header.config) : header.config;
  // Version 1 indexed the chunk text only: its BM25 section has the one field "text".
  if (version === 1 && isPlainObject(config?.indexes?.bm25) && config.indexes.bm25.fields === undefined) config.indexes.bm25.fields = { text: 1 };
  let cfg;
  try {
    cfg = readPipelineConfig(config).config;  // old names in saved bytes load without a warning
  } catch (e) {
    if (!(e instanceof RagwasmError)) throw e;
    throw corrupt(`header config: ${e.message.replace(/^ragwasm: /, '')}`);
  }
  let embedder = null;
  if (version >= 2) {
    const em = header.embedder;
    if (em !== null && !(isPlainObject(em) && typeof em.id === 'string' && Number.isInteger(em.dimension) && em.dimension >= 1 && em.dimension <= 8192)) {
      throw corrupt(`header embedder: expected null or {id: string, dimension: 1..8192}, got ${describe(em)}`);
    }
    if (em === null && cfg.indexes.dense) throw corrupt('header embedder: null, but the config has a dense index');
    embedder = em;
  }
  return { cfg, embedder };
}

// header.zeroVectors checked against the chunk ids -> the list
function checkZeroVectors(header, chunkIds, corrupt) {
  const zeroVectors = header.zeroVectors === undefined ? [] : header.zeroVectors;
  if (!isArray(zeroVectors)) throw corrupt(`header zeroVectors: expected an array of chunk ids, got ${describe(zeroVectors)}`);
  const zs = new Set();
  zeroVectors.forEach((id, i) => {
    if (!chunkIds.has(id)) throw corrupt(`header zeroVectors[${i}]: ${describe(id)} is not a chunk of this collection`);
    if (zs.has(id)) throw corrupt(`header zeroVectors[${i}]: "${id}" appears twice`);
    zs.add(id);
  });
  return zeroVectors;
}

// Checks the loaded index sections against the header: fields, sizes, every chunk id, dimension.
// bm25 / dense: the loaded indexes, or what the check read of a section ({fields, size, has(id)})
function checkSections(h, bm25, dense, corrupt) {
  const count = h.chunkIds.size;
  if (bm25) {
    const want = bm25Fields(h.cfg.indexes.bm25).map((f) => f.name).sort().join(', ');
    const got = bm25.fields.slice().sort().join(', ');
    if (want !== got) throw corrupt(`header config indexes.bm25.fields (${want}) differ from the BM25 section's fields (${got})`);
    if (bm25.size !== count) throw corrupt(`header docs: ${count} chunks, but the BM25 section holds ${bm25.size} documents`);
    for (const id of h.chunkIds.keys()) if (!bm25.has(id)) throw corrupt(`header docs: chunk "${id}" is missing from the BM25 section`);
  }
  if (dense) {
    if (h.embedder && h.embedder.dimension !== dense.dimension) {
      throw corrupt(`header embedder.dimension: ${h.embedder.dimension}, but the vector section has dimension ${dense.dimension}`);
    }
    const zs = new Set(h.zeroVectors);
    if (dense.size !== count - zs.size) {
      throw corrupt(`header docs: ${count} chunks (${zs.size} zero vectors), but the vector section holds ${dense.size} vectors`);
    }
    for (const id of h.chunkIds.keys()) {
      if (dense.has(id) === zs.has(id)) throw corrupt(`header ${zs.has(id) ? 'zeroVectors' : 'docs'}: chunk "${id}" is ${zs.has(id) ? 'in' : 'missing from'} the vector section`);
    }
  }
}
