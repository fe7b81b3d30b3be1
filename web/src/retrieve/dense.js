// Dense vector search: VectorIndex, an exact flat index (f32, int8 or binary + rescoring) or HNSW
// over string ids, with cosine / dot / L2 scores, filters and save/load. Scoring runs in WASM SIMD.
import { callWasm, RagwasmError } from '../core/errors.js';
import { Handle } from '../core/handle.js';
import { wasm } from '../core/module.js';
import {
  expectArray, expectBoolean, expectEnum, expectInteger, expectOptions, expectString, invalid, isArray, isInstance,
} from '../core/validate.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Largest vector dimension. */
export const VECTOR_MAX_DIMENSION = 8192;
/** Largest k of one search. */
export const VECTOR_MAX_K = 100000;

function encodeIds(ids, name) {
  expectArray(ids, name, { maxLength: 0xFFFFFFFF });
  const parts = new Array(ids.length);
  const lens = new Uint32Array(ids.length);
  let total = 0;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    expectString(id, `${name}[${i}]`, { allowEmpty: false });  // the 1024-byte limit is checked in C++ (bytes, not UTF-16 units)
    if (typeof id.isWellFormed === 'function' ? !id.isWellFormed() : /[\uD800-\uDFFF]/.test(id.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, ''))) {
      throw invalid(`${name}[${i}]`, 'a string without lone surrogates', id);
    }
    parts[i] = encoder.encode(id);
    lens[i] = parts[i].length;
    total += parts[i].length;
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return { bytes, lens };
}

function decodeIds(bytes, lens) {
  const out = new Array(lens.length);
  let at = 0;
  for (let i = 0; i < lens.length; i++) {
    out[i] = decoder.decode(bytes.subarray(at, at + lens[i]));
    at += lens[i];
  }
  return out;
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
 * ix.add(['a', 'b'], [new Float32Array([1, 0, 0]), new Float32Array([0, 1, 0])]);
 * ix.search(new Float32Array([1, 0.1, 0]), { k: 1 }); // [{ id: 'a', score: 0.995 }]
 */
export class VectorIndex extends Handle {
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
   * Loads an index saved by save().
   * @param {Uint8Array|ArrayBuffer} bytes
   * @returns {VectorIndex}
   * @throws {RagwasmError} CORRUPT_INDEX (truncated, modified or not an index), UNSUPPORTED_VERSION
   *   (saved by a format version this build does not read), INVALID_ARGUMENT (not bytes)
   */
  static load(bytes) {
    if (isInstance(bytes, ArrayBuffer)) bytes = new Uint8Array(bytes);
    if (!(isInstance(bytes, Uint8Array))) throw invalid('bytes', 'a Uint8Array or ArrayBuffer', bytes);
    const m = wasm();
    const native = callWasm(() => m.dense_loadIndex(bytes));
    return new VectorIndex(native);
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

  /**
   * Adds vectors by id; all or nothing.
   * @param {string[]} ids unique, non-empty, at most 1024 UTF-8 bytes each
   * @param {Float32Array|Array<Float32Array|number[]>} vectors ids.length × dimension values
   *   (row-major), or one vector per id; every value finite with |x| ≤ 1e15
   * @returns {number} the index size after adding
   * @throws {RagwasmError} INVALID_ARGUMENT (empty batch, NaN/Infinity with its row and column, bad
   *   id), DIMENSION_MISMATCH, DUPLICATE_ID (already indexed or twice in the batch), LIMIT_EXCEEDED
   *   (over 3 GiB of vectors), DISPOSED
   */
  add(ids, vectors) {
    const { bytes, lens } = encodeIds(ids, 'ids');
    if (ids.length === 0) throw new RagwasmError('INVALID_ARGUMENT', 'ragwasm: ids: expected at least one id, got an empty batch');
    const flat = toBatch(vectors, 'vectors', ids.length, this.dimension);
    const native = this.native;
    const size = callWasm(() => native.add(bytes, lens, flat));
    this._ids = null;
    return size;
  }

  /**
   * Removes vectors by id; all or nothing (one unknown id removes none).
   * @param {string[]} ids
   * @returns {number} the index size after removing
   * @throws {RagwasmError} INVALID_ARGUMENT (empty batch), NOT_FOUND (an id not in the index), DISPOSED
   */
  remove(ids) {
    const { bytes, lens } = encodeIds(ids, 'ids');
    if (ids.length === 0) throw new RagwasmError('INVALID_ARGUMENT', 'ragwasm: ids: expected at least one id, got an empty batch');
    const native = this.native;
    const size = callWasm(() => native.remove(bytes, lens));
    this._ids = null;
    return size;
  }

  /** True when `id` is in the index. @param {string} id */
  has(id) {
    expectString(id, 'id');
    const native = this.native;
    return callWasm(() => native.has(encoder.encode(id)));
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
   * @param {boolean} [options.exact=false] HNSW: scan every vector instead (the oracle)
   * @returns {VectorHit[]}
   * @throws {RagwasmError} INVALID_ARGUMENT (k, NaN/Infinity in the query, bad option), DIMENSION_MISMATCH, DISPOSED
   */
  search(query, options = {}) {
    const o = expectOptions(options, 'search options', ['k', 'filter', 'efSearch', 'rescore', 'exact']);
    const q = toQuery(query, 'query', this.dimension);
    const k = o.k === undefined ? 10 : expectInteger(o.k, 'options.k', { min: 1, max: VECTOR_MAX_K });
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

  /**
   * Serializes the index: magic "RWDV", format version, sections, CRC-32 (docs/dense.md).
   * @returns {Uint8Array}
   */
  save() {
    const native = this.native;
    return callWasm(() => native.save());
  }
}

/** True when the loaded WASM build scores with SIMD128 kernels. */
export function denseSimdEnabled() {
  const m = wasm();
  return callWasm(() => m.dense_simdEnabled());
}
