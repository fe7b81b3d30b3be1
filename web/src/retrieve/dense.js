// @ts-check
// Dense vector search: VectorIndex, an exact flat index (f32, int8 or binary + rescoring) or HNSW
// over string ids, with cosine / dot / L2 scores, filters and save/load. Scoring runs in WASM SIMD.
import { MAX_SEARCH_K } from '../core/limits.js';
import { callWasm, RagwasmError } from '../core/errors.js';
import { SavedIndex, checkSaved, loadSaved, loadStored } from '../core/saved-index.js';
import { wasm } from '../core/module.js';
import { decodeIds, encodeTransient } from '../core/encode.js';
import {
  MAX_ARRAY_ITEMS, expectArray, expectBoolean, expectEnum, expectInteger, expectOptions, expectString, invalid, isArray, isInstance, isPlainObject,
  expectSearchK,
} from '../core/validate.js';
import { removalPlan, writeSummary } from '../core/write-policy.js';

const encoder = new TextEncoder();

/** Largest vector dimension. */
export const VECTOR_MAX_DIMENSION = 8192;
/** Largest k of one search. */
export const VECTOR_MAX_K = MAX_SEARCH_K;  // the rule of every search (core/limits.js)

function encodeIds(ids, name) {
  expectArray(ids, name, { maxLength: 0xFFFFFFFF });
  const lens = new Uint32Array(ids.length);
  let cap = 0;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    expectString(id, `${name}[${i}]`, { allowEmpty: false });  // the 1024-byte limit is checked in C++ (bytes, not UTF-16 units)
    if (typeof id.isWellFormed === 'function' ? !id.isWellFormed() : /[\uD800-\uDFFF]/.test(id.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, ''))) {
      throw invalid(`${name}[${i}]`, 'a string without lone surrogates', id);
    }
    cap += id.length * 3;
  }
  // encoded back to back into one buffer (not one ArrayBuffer per id: see encodeTransient)
  const buf = new Uint8Array(cap);
  let at = 0;
  for (let i = 0; i < ids.length; i++) {
    lens[i] = encoder.encodeInto(ids[i], buf.subarray(at)).written;
    at += lens[i];
  }
  return { bytes: buf.subarray(0, at), lens };
}

function dimensionError(name, got, dimension) {
  return new RagwasmError('DIMENSION_MISMATCH', `ragwasm: ${name}: has ${got} values, the index expects dimension ${dimension}`);
}

// One vector: a Float32Array or an array of numbers of length `dimension`.
// The length is compared with `dimension` before anything is copied (a sparse array of length
// 2**32-1 is refused at once). NaN/Infinity values are left to the core, which names them.
function toQuery(value, name, dimension) {
  if (isInstance(value, Float32Array)) {
    if (value.length !== dimension) throw dimensionError(name, value.length, dimension);
    return value;
  }
  if (!isArray(value)) throw invalid(name, 'a Float32Array or an array of numbers', value);
  const length = value.length;
  if (length !== dimension) throw dimensionError(name, length, dimension);
  const q = new Float32Array(length);
  for (let i = 0; i < length; i++) {
    const x = value[i];
    if (typeof x !== 'number') throw invalid(`${name}[${i}]`, 'a number', x);
    q[i] = x;
  }
  return q;
}

// A batch: one flat Float32Array of count*dimension, or an array of count vectors.
function toBatch(value, name, count, dimension) {
  if (isInstance(value, Float32Array)) {
    if (value.length !== count * dimension) {
      const rows = value.length / dimension;
      throw new RagwasmError('DIMENSION_MISMATCH', `ragwasm: ${name}: expected ${count} x ${dimension} = ${count * dimension} values for ${count} ids, got ${value.length}` +
        (Number.isInteger(rows) ? ` (${rows} vectors)` : ''));
    }
    return value;
  }
  if (!isArray(value)) throw invalid(name, 'a Float32Array (n x dimension) or an array of Float32Array', value);
  if (value.length !== count) {
    throw new RagwasmError('DIMENSION_MISMATCH', `ragwasm: ${name}: expected ${count} vectors (one per id), got ${value.length}`);
  }
  const flat = new Float32Array(count * dimension);
  for (let i = 0; i < count; i++) flat.set(toQuery(value[i], `${name}[${i}]`, dimension), i * dimension);
  return flat;
}

/**
 * @typedef {object} VectorHit
 * @property {string} id
 * @property {number} score higher is better: cosine similarity, dot product, or −(squared L2 distance)
 */

/**
 * A vector index over string ids, owning WASM memory (call dispose() when done).
 *
 * @example
 * const ix = VectorIndex.create({ dimension: 3, metric: 'cosine' });
 * ix.add([{ id: 'a', vector: [1, 0, 0] }, { id: 'b', vector: [0, 1, 0] }]); // {added: 2, updated: 0, removed: 0, skipped: 0}
 * ix.search(new Float32Array([1, 0.1, 0]), { k: 1 }); // [{ id: 'a', score: 0.995 }]
 */
export class VectorIndex extends SavedIndex {
  /**
   * @param {object} options
   * @param {number} options.dimension vector length, an integer in [1, 8192] (required)
   * @param {'cosine'|'dot'|'l2'} [options.metric='cosine'] cosine normalizes vectors when added
   * @param {'f32'|'int8'|'binary'} [options.storage='f32'] int8: per-vector symmetric scale
   *   (x ≈ scale·q, scale = max|x|/127); binary: sign bits scanned by Hamming distance, then the best
   *   k·rescore rescored with a kept int8 or f32 copy (`binaryRescore`); binary needs index 'flat'
   * @param {'int8'|'f32'} [options.binaryRescore='int8'] copy kept for rescoring binary candidates
   * @param {'flat'|'hnsw'} [options.index='flat'] flat = exact scan; hnsw = approximate graph search
   * @param {object} [options.hnsw] {M=16 (2..128), efConstruction=200, efSearch=64 (1..100000),
   *   seed=42 (integer in [0, 2^53))}
   * @returns {VectorIndex}
   * @throws {RagwasmError} INVALID_ARGUMENT for a missing/out-of-range option or unknown key
   */
  static create(options) {
    const o = expectOptions(options, 'VectorIndex options', ['dimension', 'metric', 'storage', 'binaryRescore', 'index', 'hnsw']);
    if (options === undefined) throw invalid('VectorIndex options', 'an options object with a dimension', options);
    const dimension = expectInteger(o.dimension, 'options.dimension', { min: 1, max: VECTOR_MAX_DIMENSION });
    const metric = o.metric === undefined ? 'cosine' : expectEnum(o.metric, 'options.metric', ['cosine', 'dot', 'l2']);
    const storage = o.storage === undefined ? 'f32' : expectEnum(o.storage, 'options.storage', ['f32', 'int8', 'binary']);
    const binaryRescore = o.binaryRescore === undefined ? 'int8' : expectEnum(o.binaryRescore, 'options.binaryRescore', ['int8', 'f32']);
    const index = o.index === undefined ? 'flat' : expectEnum(o.index, 'options.index', ['flat', 'hnsw']);
    const h = expectOptions(o.hnsw, 'options.hnsw', ['M', 'efConstruction', 'efSearch', 'seed']);
    const M = h.M === undefined ? 16 : expectInteger(h.M, 'options.hnsw.M', { min: 2, max: 128 });
    const efConstruction = h.efConstruction === undefined ? 200 : expectInteger(h.efConstruction, 'options.hnsw.efConstruction', { min: 1, max: 100000 });
    const efSearch = h.efSearch === undefined ? 64 : expectInteger(h.efSearch, 'options.hnsw.efSearch', { min: 1, max: 100000 });
    const seed = h.seed === undefined ? 42 : expectInteger(h.seed, 'options.hnsw.seed', { min: 0, max: Number.MAX_SAFE_INTEGER });
    if (storage === 'binary' && index === 'hnsw') {
      throw new RagwasmError('INVALID_ARGUMENT', "ragwasm: options.storage: 'binary' works with index 'flat' only (HNSW needs f32 or int8 vectors), got index 'hnsw'");
    }
    const m = wasm();
    const native = callWasm(() => m.dense_createIndex(dimension, metric, storage, binaryRescore, index, M, efConstruction, efSearch, seed));
    return new VectorIndex(native);
  }

  /**
   * Rebuilds an index from toBytes() output.
   * @param {Uint8Array|ArrayBuffer} bytes
   * @returns {VectorIndex}
   * @throws {RagwasmError} CORRUPT_INDEX (truncated, modified or not an index), UNSUPPORTED_VERSION
   *   (saved by a format version this build does not read), INVALID_ARGUMENT (not bytes)
   */
  static fromBytes(bytes) {
    return loadSaved(VectorIndex, bytes, 'dense_loadIndex');
  }

  /**
   * @internal Every check of fromBytes() without building the index (Collection.save()'s check: a
   * second index in the WASM heap would stay as heap, docs/scale.md), except duplicate ids: each live
   * saved id is handed to `onIds` (arrays of ids in slot order, in batches) for the caller to compare.
   * @param {Uint8Array|import('../core/heap-bytes.js').HeapBytes} bytes toBytes() output, or _heapBytes() output (checked in place in the heap)
   * @param {(ids: string[]) => void} onIds must not throw
   * @returns {{dimension: number, size: number}} the dimension and the live vector count
   * @throws {RagwasmError} as fromBytes()
   */
  static _checkBytes(bytes, onIds) {
    return checkSaved(bytes, onIds, 'dense_checkSection', 'dense_checkSaved');
  }

  /**
   * Loads an index stored with save(name) (storage.js: OPFS / IndexedDB / Node file).
   * @param {string} name
   * @param {{dir?: string, backend?: 'node'|'opfs'|'indexeddb'}} [opts]
   * @returns {Promise<VectorIndex>}
   * @throws {RagwasmError} NOT_FOUND (nothing stored under name), as fromBytes(), storage errors
   */
  static load(name, opts) {
    return loadStored(VectorIndex, 'VectorIndex', name, opts);
  }

  /** @param {object} native @private */
  constructor(native) {
    super(native);
    this._options = callWasm(() => native.options());
    this._ids = null;  // cached [slots, ids] for filter functions; reset by add/remove
  }

  /** The options the index was created with (after defaults), e.g. {dimension, metric, storage, index, hnsw}. */
  get options() {
    return structuredClone(this._options);
  }

  /** Vector dimension. */
  get dimension() {
    return this._options.dimension;
  }

  /** Number of vectors in the index. */
  get size() {
    const native = this.native;
    return callWasm(() => native.size());
  }

  // [{id, vector}] -> ids + one flat batch, checked before anything is written.
  _items(items) {
    const list = isArray(items) ? expectArray(items, 'items', { maxLength: MAX_ARRAY_ITEMS }) : [items];
    const ids = new Array(list.length);
    const seen = new Set();
    list.forEach((it, i) => {
      const n = isArray(items) ? `items[${i}]` : 'items';
      if (!isPlainObject(it)) throw invalid(n, 'an object {id, vector}', it);
      expectOptions(it, n, ['id', 'vector']);
      ids[i] = it.id;
      if (typeof it.id === 'string' && seen.has(it.id)) throw new RagwasmError('DUPLICATE_ID', `ragwasm: ${n}.id: '${it.id}' appears twice in this batch`);
      seen.add(it.id);
    });
    const ref = encodeIds(ids, 'items.id');
    const flat = toBatch(list.map((it) => it.vector), 'items.vector', list.length, this.dimension);
    return { ids, ref, flat };
  }

  _addRaw(ref, flat) {
    const native = this.native;
    const size = callWasm(() => native.add(ref.bytes, ref.lens, flat));
    this._ids = null;
    return size;
  }

  /**
   * Adds vectors by id; all or nothing. Deprecated form: `add(ids, vectors)` (returns the size, warns once).
   * @example ix.add([{ id: 'a', vector: new Float32Array([1, 0, 0]) }]); // {added: 1, updated: 0, removed: 0, skipped: 0}
   * @param {{id: string, vector: Float32Array|number[]}|Array<{id: string, vector: Float32Array|number[]}>} items
   *   ids unique, non-empty, at most 1024 UTF-8 bytes; each vector `dimension` finite values with |x| ≤ 1e15
   * @returns {{added: number, updated: number, removed: number, skipped: number}} the write summary
   *   every index returns (docs/api.md)
   * @throws {RagwasmError} INVALID_ARGUMENT (NaN/Infinity with its row and column, bad id),
   *   DIMENSION_MISMATCH, DUPLICATE_ID (already indexed: use upsert; or twice in the batch),
   *   LIMIT_EXCEEDED (over 3 GiB of vectors), DISPOSED
   */
  add(items) {
    const { ids, ref, flat } = this._items(items);
    if (ids.length > 0) this._addRaw(ref, flat);
    return writeSummary({ added: ids.length });
  }

  /**
   * Adds or replaces vectors by id; all or nothing (the batch is checked before an old vector is dropped).
   * @param {{id: string, vector: Float32Array|number[]}|Array<{id: string, vector: Float32Array|number[]}>} items
   * @returns {{added: number, updated: number, removed: number, skipped: number}} updated = ids that were indexed
   * @throws {RagwasmError} as add(), except that an indexed id is replaced
   */
  upsert(items) {
    const { ids, ref, flat } = this._items(items);
    if (ids.length === 0) return writeSummary();
    for (let i = 0; i < flat.length; i++) {
      if (!(Math.abs(flat[i]) <= 1e15)) {
        const row = Math.floor(i / this.dimension);
        throw invalid(`items[${row}].vector[${i - row * this.dimension}]`, 'a finite number with |x| <= 1e15', flat[i]);
      }
    }
    const existing = ids.filter((id) => this.has(id));
    if (existing.length > 0) {
      const old = encodeIds(existing, 'items.id');
      const native = this.native;
      callWasm(() => native.remove(old.bytes, old.lens));
    }
    this._addRaw(ref, flat);
    return writeSummary({ added: ids.length - existing.length, updated: existing.length });
  }

  /**
   * Removes vectors by id; all or nothing (one unknown id removes none) unless `ignoreMissing`.
   * @param {string|string[]} ids
   * @param {{ignoreMissing?: boolean}} [options] default false: an unknown id throws NOT_FOUND and
   *   nothing is removed; true: unknown ids are skipped (counted in `skipped`)
   * @returns {{added: number, updated: number, removed: number, skipped: number}}
   * @throws {RagwasmError} INVALID_ARGUMENT, NOT_FOUND, DISPOSED
   */
  remove(ids, options = {}) {
    const list = typeof ids === 'string' ? [ids] : ids;
    encodeIds(list, typeof ids === 'string' ? 'id' : 'ids');
    const { present, skipped } = removalPlan(list, (id) => this.has(id), options);
    if (present.length > 0) {
      const ref = encodeIds(present, 'ids');
      const native = this.native;
      callWasm(() => native.remove(ref.bytes, ref.lens));
      this._ids = null;
    }
    return writeSummary({ removed: present.length, skipped });
  }

  /**
   * HNSW: drops the tombstones remove() and upsert() leave (a removed node keeps routing graph walks
   * and its memory) by rebuilding the graph from the live vectors in insertion order: the index then
   * equals, byte for byte in toBytes(), one built by adding those vectors in that order. Holds the old
   * and the new index for a moment; on failure the old one is kept. Flat indexes remove rows
   * physically: nothing to do.
   * @returns {number} the tombstones dropped (0 for a flat index, or an HNSW index without removals)
   * @throws {RagwasmError} DISPOSED, OUT_OF_MEMORY
   */
  compact() {
    const native = this.native;
    const dropped = callWasm(() => native.compact());
    if (dropped > 0) this._ids = null;
    return dropped;
  }

  /** True when `id` is in the index. @param {string} id */
  has(id) {
    expectString(id, 'id');
    const native = this.native;
    return callWasm(() => native.has(encodeTransient(id)));
  }

  /**
   * The k best vectors for a query: score descending, equal scores in insertion order.
   * @param {Float32Array|number[]} query `dimension` finite values
   * @param {object} [options]
   * @param {number} [options.k=10] integer in [1, 100000]; fewer hits when fewer vectors pass
   * @param {((id: string) => boolean)|string[]|Set<string>} [options.filter] keeps only ids for which
   *   the function returns true, or the listed ids. HNSW applies it during the graph walk and falls
   *   back to an exact scan of the passing vectors when they are few (< 5 %) or the walk found fewer
   *   than k, so k hits come back whenever at least k vectors pass.
   * @param {number} [options.efSearch] HNSW candidate list size (default: the index's efSearch; max(ef, k) is used)
   * @param {number} [options.rescore=8] binary storage: rescore the best k·rescore Hamming candidates
   *   (0 = return Hamming scores 1 − 2·differingBits/dimension); integer in [0, 1000]
   * @param {boolean} [options.exact=false] HNSW: scan every vector instead (the oracle; the same
   *   name as Bm25Index's)
   * @returns {VectorHit[]}
   * @throws {RagwasmError} INVALID_ARGUMENT (k, NaN/Infinity in the query, bad option), DIMENSION_MISMATCH, DISPOSED
   */
  search(query, options = {}) {
    const o = expectOptions(options, 'search options', ['k', 'filter', 'efSearch', 'rescore', 'exact']);
    const q = toQuery(query, 'query', this.dimension);
    const k = o.k === undefined ? 10 : expectSearchK(o.k);
    const ef = o.efSearch === undefined ? 0 : expectInteger(o.efSearch, 'options.efSearch', { min: 1, max: 100000 });
    const rescore = o.rescore === undefined ? 8 : expectInteger(o.rescore, 'options.rescore', { min: 0, max: 1000 });
    const exact = o.exact === undefined ? false : expectBoolean(o.exact, 'options.exact');
    const native = this.native;
    const mask = o.filter === undefined ? null : this._mask(o.filter);
    const r = callWasm(() => native.search(q, k, ef, rescore, mask, exact));
    const ids = decodeIds(r.bytes, r.lens);
    const out = new Array(ids.length);
    for (let i = 0; i < ids.length; i++) out[i] = { id: ids[i], score: r.scores[i] };
    return out;
  }

  /**
   * The k best vectors for each of several queries, equal to search() of each. A flat index with f32
   * or int8 storage scores them in one pass over the vectors (each block of rows is scored for every
   * query while it is in cache), so a batch reads the vectors from memory once, not once per query;
   * HNSW and binary storage search query by query.
   * @param {Array<Float32Array|number[]>} queries up to 100,000, each `dimension` finite values
   * @param {object} [options] as search(): k, filter (function, id array or Set), efSearch, rescore, exact
   * @returns {VectorHit[][]} one list per query
   * @throws {RagwasmError} as search() (the query named `queries[i]`), DISPOSED
   */
  searchMany(queries, options = {}) {
    const o = expectOptions(options, 'search options', ['k', 'filter', 'efSearch', 'rescore', 'exact']);
    const list = expectArray(queries, 'queries', { maxLength: VECTOR_MAX_K });
    const dim = this.dimension;
    if (this._options.index !== 'flat' || this._options.storage === 'binary') {
      return list.map((q, i) => this.search(toQuery(q, `queries[${i}]`, dim), options));
    }
    const k = o.k === undefined ? 10 : expectSearchK(o.k);
    if (o.efSearch !== undefined) expectInteger(o.efSearch, 'options.efSearch', { min: 1, max: 100000 });
    if (o.rescore !== undefined) expectInteger(o.rescore, 'options.rescore', { min: 0, max: 1000 });
    if (o.exact !== undefined) expectBoolean(o.exact, 'options.exact');
    const flat = new Float32Array(list.length * dim);
    for (let i = 0; i < list.length; i++) flat.set(toQuery(list[i], `queries[${i}]`, dim), i * dim);
    const native = this.native;
    const mask = o.filter === undefined ? null : this._mask(o.filter);
    const r = callWasm(() => native.searchMany(flat, list.length, k, mask));
    const ids = decodeIds(r.bytes, r.lens);
    const out = new Array(list.length);
    let at = 0;
    for (let q = 0; q < list.length; q++) {
      const hits = new Array(r.counts[q]);
      for (let i = 0; i < hits.length; i++, at++) hits[i] = { id: ids[at], score: r.scores[at] };
      out[q] = hits;
    }
    return out;
  }

  _mask(filter) {
    const native = this.native;
    if (typeof filter === 'function') {
      if (this._ids === null) {
        const r = callWasm(() => native.liveIds());
        this._ids = { slots: r.slots, ids: decodeIds(r.bytes, r.lens) };
      }
      const mask = new Uint8Array(callWasm(() => native.slotCount()));
      const { slots, ids } = this._ids;
      for (let i = 0; i < ids.length; i++) if (filter(ids[i])) mask[slots[i]] = 1;
      return mask;
    }
    let list = filter;
    if (isInstance(filter, Set)) list = [...filter];
    if (!isArray(list)) throw invalid('options.filter', 'a function (id) => boolean, an array of ids or a Set of ids', filter);
    const { bytes, lens } = encodeIds(list, 'options.filter');
    return callWasm(() => native.maskForIds(bytes, lens));
  }

}

/** True when the loaded WASM build scores with SIMD128 kernels. */
export function denseSimdEnabled() {
  const m = wasm();
  return callWasm(() => m.dense_simdEnabled());
}
