// @ts-check
// ShardedVectorIndex: a flat f32 / int8 vector index sharded by document across a WorkerPool (sharded.js).
import { RagwasmError } from '../core/errors.js';
import { expectArray, expectFloatVector, expectInteger, expectOptions, expectString, invalid, isArray, isInstance, isPlainObject, expectSearchK } from '../core/validate.js';
import { init, isInitialized } from '../core/module.js';
import { VectorIndex, VECTOR_MAX_DIMENSION } from '../retrieve/dense.js';
import { shardIdChecker } from '../pipeline/saved-check.js';
import { MAX_DOCS, SHARDED_VECTOR_FORMAT_VERSION, packParts, unpackParts, VECTOR_MAGIC, initForLoad, loadPool, MAX_QUERIES, shardOf, poolFor, writeParts, sumSummaries, removeByShard, Sharded } from './sharded-common.js';

/** @typedef {import('./pool.js').WorkerPool} WorkerPool */

/**
 * A flat vector index (f32 or int8 storage) sharded across Workers; results equal one VectorIndex
 * over the same vectors (scores bit for bit, ties in insertion order).
 */
export class ShardedVectorIndex extends Sharded {
  /**
   * @param {object} options VectorIndex.create() options with index 'flat' (the default) and storage
   *   'f32' or 'int8' (HNSW graphs and binary candidate lists depend on the other vectors, so their
   *   shards would not return the unsharded results)
   * @param {{workers?: number, pool?: WorkerPool, init?: object}} [parallel]
   * @returns {Promise<ShardedVectorIndex>}
   * @throws {RagwasmError} INVALID_ARGUMENT, and as VectorIndex.create() and WorkerPool.create()
   */
  static async create(options, parallel = {}) {
    if (!isPlainObject(options)) throw invalid('VectorIndex options', 'an options object with a dimension', options);
    const dimension = expectInteger(options.dimension, 'options.dimension', { min: 1, max: VECTOR_MAX_DIMENSION });
    if (options.index !== undefined && options.index !== 'flat') throw invalid('options.index', "'flat' (a sharded HNSW graph would not return the unsharded results)", options.index);
    if (options.storage === 'binary') throw invalid('options.storage', "'f32' or 'int8' (binary candidate lists depend on the shard)", options.storage);
    if (isInitialized()) VectorIndex.create(options).dispose();
    const { pool, owned } = await poolFor(parallel, 'parallel options');
    const handle = pool._handle();
    try {
      await pool._all('vector.create', [handle, options]);
    } catch (e) {
      if (owned) await pool.terminate();
      else await pool._all('dispose', [handle]).catch(() => {});
      throw e;
    }
    return new ShardedVectorIndex(pool, owned, handle, dimension);
  }

  /** @internal */
  constructor(pool, owned, handle, dimension) {
    super(pool, owned, handle);
    this.dimension = dimension;
    this._next = 0;  // global insertion ordinal of the next vector
    this._size = 0;
    this._shardMs = null;  // per Worker: its scan time (ms) in the last searchMany (bench diagnostics)
  }

  /** Vectors indexed. */
  get size() {
    return this._size;
  }

  /**
   * Adds vectors across the shards; all or nothing.
   * @param {{id: string, vector: Float32Array|number[]}|Array<{id: string, vector: Float32Array|number[]}>} items
   * @returns {Promise<{added: number, updated: number, removed: number, skipped: number}>}
   * @throws {RagwasmError} as VectorIndex.add, DISPOSED
   */
  async add(items) {
    return this._write(items, 'vector.add');
  }

  /**
   * Adds or replaces vectors by id (as VectorIndex.upsert: a replaced id becomes the newest for ties).
   * Every vector is checked here before any shard writes, so a shard refuses its part only on a limit
   * (LIMIT_EXCEEDED); then the vectors the other shards added are removed again and those they
   * replaced stay replaced.
   * @param {{id: string, vector: Float32Array|number[]}|Array<{id: string, vector: Float32Array|number[]}>} items
   * @returns {Promise<{added: number, updated: number, removed: number, skipped: number}>}
   * @throws {RagwasmError} as VectorIndex.upsert, DISPOSED
   */
  async upsert(items) {
    return this._write(items, 'vector.upsert');
  }

  /**
   * Removes vectors by id, each from the shard its id routes to (as VectorIndex.remove).
   * @param {string|string[]} ids
   * @param {{ignoreMissing?: boolean}} [options] default false: an unknown id throws NOT_FOUND and
   *   nothing is removed; true: unknown ids are skipped (counted in `skipped`)
   * @returns {Promise<{added: number, updated: number, removed: number, skipped: number}>}
   * @throws {RagwasmError} INVALID_ARGUMENT, NOT_FOUND, DISPOSED
   */
  async remove(ids, options = {}) {
    return removeByShard(this, ids, options, 'vector');
  }

  /**
   * As VectorIndex.compact on every shard (sharded indexes are flat, whose removals are physical).
   * @returns {Promise<number>} the tombstones dropped
   */
  async compact() {
    this._check();
    const dropped = await Promise.all(Array.from({ length: this._pool.size }, (_, s) => this._pool._call(s, 'vector.compact', [this._handle])));
    return dropped.reduce((a, b) => a + b, 0);
  }

  async _write(items, op) {
    this._check();
    const single = !isArray(items);
    const list = single ? [items] : expectArray(items, 'items', { maxLength: MAX_DOCS });
    const n = this._pool.size;
    const dim = this.dimension;
    const counts = new Array(n).fill(0);
    const shard = new Uint32Array(list.length);
    const ids = new Array(list.length);
    for (let i = 0; i < list.length; i++) {
      const it = list[i];
      const name = single ? 'items' : `items[${i}]`;
      if (!isPlainObject(it)) throw invalid(name, 'an item {id, vector}', it);
      ids[i] = expectString(it.id, `${name}.id`, { maxLength: 1024, allowEmpty: false });
      shard[i] = shardOf(ids[i], n);
      counts[shard[i]]++;
    }
    /** @type {Array<{ids: string[], where: number[], flat: Float32Array<ArrayBuffer>, ordinals: Float64Array<ArrayBuffer>, args?: unknown[], transfer?: ArrayBuffer[], rollback?: unknown}>} one per shard */
    const parts = counts.map((c) => ({ ids: [], where: [], flat: new Float32Array(c * dim), ordinals: new Float64Array(c) }));
    for (let i = 0; i < list.length; i++) {
      const p = parts[shard[i]];
      const j = p.ids.length;
      p.flat.set(expectFloatVector(list[i].vector, single ? 'items.vector' : `items[${i}].vector`, { dimension: dim }), j * dim);
      p.ordinals[j] = this._next + i;
      p.ids.push(ids[i]);
      p.where.push(i);
    }
    this._next += list.length;  // before any await: concurrent writes take distinct ordinals
    for (const p of parts) {
      p.args = [p.ids, p.flat, p.ordinals];
      p.transfer = [p.flat.buffer, p.ordinals.buffer];  // moved to the Worker, not copied
    }
    if (op === 'vector.upsert') {
      for (const p of parts) {
        for (let j = 0; j < p.flat.length; j++) {
          if (!(Math.abs(p.flat[j]) <= 1e15)) {
            const i = p.where[Math.floor(j / dim)];
            throw invalid(single ? `items.vector[${j % dim}]` : `items[${i}].vector[${j % dim}]`, 'a finite number with |x| <= 1e15', p.flat[j]);
          }
        }
      }
      const fresh = await Promise.all(parts.map((p, s) => (p.ids.length === 0 ? [] : this._pool._call(s, 'vector.missing', [this._handle, p.ids]))));
      parts.forEach((p, s) => { p.rollback = fresh[s]; });
    }
    const res = await writeParts(this, parts, op, 'vector.remove', single);
    const summary = sumSummaries(res);
    this._size += summary.added;
    return summary;
  }

  /**
   * Serializes every shard in the one container (docs/formats.md, docs/parallel.md): magic "RWSHVEC1",
   * version 2, section 1 a JSON header `{kind: 'vector', shards, next, route}`, then per shard three
   * sections (16 + 3i ...): its VectorIndex.toBytes(), its ids (JSON) and their global insertion ordinals
   * (f64), XXH64 sealed (version 1, packSections + CRC-32, is still read).
   * @returns {Promise<Uint8Array>}
   * @throws {RagwasmError} DISPOSED
   */
  async toBytes() {
    this._check();
    const shards = await this._pool._all('vector.toBytes', [this._handle]);
    const enc = new TextEncoder();
    const header = enc.encode(JSON.stringify({ kind: 'vector', shards: shards.length, next: this._next, route: 'fnv1a32-utf16' }));
    const parts = [];
    for (const sh of shards) parts.push(sh.bytes, enc.encode(JSON.stringify(sh.ids)), new Uint8Array(sh.ordinals.buffer, sh.ordinals.byteOffset, sh.ordinals.byteLength));
    await init(this._pool._init);  // the container is packed by the C++ writer in this thread
    return packParts(VECTOR_MAGIC, SHARDED_VECTOR_FORMAT_VERSION, header, parts);
  }

  /**
   * Loads toBytes() output into a pool with as many Workers as the index had shards.
   * @param {Uint8Array} bytes
   * @param {{workers?: number, pool?: WorkerPool, init?: object}} [parallel]
   * @returns {Promise<ShardedVectorIndex>}
   * @throws {RagwasmError} CORRUPT_INDEX, UNSUPPORTED_VERSION, INVALID_ARGUMENT (a pool of another size)
   */
  static async fromBytes(bytes, parallel = {}) {
    if (isInstance(bytes, ArrayBuffer)) bytes = new Uint8Array(bytes);
    if (!isInstance(bytes, Uint8Array)) throw invalid('bytes', 'a Uint8Array or ArrayBuffer (toBytes() output)', bytes);  // before any WASM call (#33 H-1)
    const label = 'sharded vector bytes';
    await initForLoad(parallel);
    const [header, parts] = unpackParts(bytes, VECTOR_MAGIC,
      { version: SHARDED_VECTOR_FORMAT_VERSION, what: 'sharded vector index', label, kind: 'vector', partsPerShard: 3 });
    if (!Number.isSafeInteger(header.next) || header.next < 0) throw new RagwasmError('CORRUPT_INDEX', `ragwasm: ${label}: the header's next ordinal is not a count`);
    const shards = [];
    for (let i = 0; i < header.shards; i++) {
      let ids;
      try {
        ids = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(parts[3 * i + 1]));
      } catch {
        ids = null;
      }
      const ob = parts[3 * i + 2];
      if (!Array.isArray(ids) || ids.some((x) => typeof x !== 'string') || ob.length !== ids.length * 8) {
        throw new RagwasmError('CORRUPT_INDEX', `ragwasm: ${label}: shard ${i}'s ids or ordinals are damaged`);
      }
      shards.push([parts[3 * i], ids, new Float64Array(ob.slice().buffer)]);
    }
    const routed = shardIdChecker(label, header.shards, shardOf);  // #30 F-1
    shards.forEach(([, ids], i) => routed.ids(i, ids));
    routed.done();
    const { pool, owned } = await loadPool(parallel, header.shards);
    const handle = pool._handle();
    let sizes;
    try {
      sizes = await pool._all('vector.load', (i) => [handle, ...shards[i]]);
    } catch (e) {
      if (owned) await pool.terminate();
      else await pool._all('dispose', [handle]).catch(() => {});
      throw e;
    }
    const dimension = await pool._call(0, 'vector.dimension', [handle]);
    const idx = new ShardedVectorIndex(pool, owned, handle, dimension);
    idx._size = sizes.reduce((a, b) => a + b, 0);
    idx._next = header.next;
    return idx;
  }

  /**
   * The k best vectors for each query: score descending, equal scores in insertion order (as VectorIndex.search).
   * @param {Array<Float32Array|number[]>} queries each `dimension` finite values
   * @param {{k?: number, filter?: string[]|Set<string>}} [options] k in [1, 100000], default 10;
   *   filter: only these ids (as VectorIndex.search's id list; each shard gets the ids it holds)
   * @returns {Promise<Array<Array<{id: string, score: number}>>>}
   * @throws {RagwasmError} INVALID_ARGUMENT, DIMENSION_MISMATCH, DISPOSED
   */
  async searchMany(queries, options = {}) {
    this._check();
    const list = expectArray(queries, 'queries', { maxLength: MAX_QUERIES });
    const o = expectOptions(options, 'search options', ['k', 'filter']);
    const k = o.k === undefined ? 10 : expectSearchK(o.k);
    let allowed = null;  // per shard: the filter's ids that route there
    if (o.filter !== undefined) {
      const ids = isInstance(o.filter, Set) ? [...o.filter] : isArray(o.filter) ? o.filter : null;
      if (ids === null) throw invalid('options.filter', 'an array of ids or a Set of ids (a function cannot be sent to a Worker)', o.filter);
      const listed = expectArray(ids, 'options.filter', { maxLength: MAX_DOCS, item: (v, name) => expectString(v, name) });
      allowed = Array.from({ length: this._pool.size }, () => []);
      for (const id of listed) allowed[shardOf(id, this._pool.size)].push(id);
    }
    const dim = this.dimension;
    const flat = new Float32Array(list.length * dim);
    list.forEach((q, i) => flat.set(expectFloatVector(q, `queries[${i}]`, { dimension: dim }), i * dim));
    for (let i = 0; i < flat.length; i++) {
      if (!Number.isFinite(flat[i])) throw invalid(`queries[${Math.floor(i / dim)}][${i % dim}]`, 'a finite number', flat[i]);
    }
    const none = { counts: new Uint32Array(list.length), ids: [], scores: [], ordinals: [], ms: 0 };
    const perShard = await Promise.all(Array.from({ length: this._pool.size }, (_, s) => {
      if (allowed === null) return this._pool._call(s, 'vector.search', [this._handle, flat, list.length, { k }]);
      return allowed[s].length === 0 ? none : this._pool._call(s, 'vector.search', [this._handle, flat, list.length, { k, filter: allowed[s] }]);
    }));
    this._shardMs = perShard.map((r) => r.ms);  // each Worker's scan time of this call (bench diagnostics)
    // merge: each shard's hits are best first; candidates of a query are (shard, position) pairs sorted
    // by score descending, then global insertion ordinal (VectorIndex's tie rule)
    const at = perShard.map(() => 0);
    return list.map((_, q) => {
      const cand = [];
      for (let s = 0; s < perShard.length; s++) {
        const r = perShard[s];
        const c = r.counts[q];
        for (let i = at[s]; i < at[s] + c; i++) cand.push(s, i);
        at[s] += c;
      }
      const order = Array.from({ length: cand.length / 2 }, (_, i) => i);
      const score = (i) => perShard[cand[2 * i]].scores[cand[2 * i + 1]];
      const ord = (i) => perShard[cand[2 * i]].ordinals[cand[2 * i + 1]];
      order.sort((a, b) => (score(b) - score(a)) || (ord(a) - ord(b)));
      if (order.length > k) order.length = k;
      return order.map((i) => ({ id: perShard[cand[2 * i]].ids[cand[2 * i + 1]], score: score(i) }));
    });
  }

  /**
   * The k best vectors for one query.
   * @param {Float32Array|number[]} query
   * @param {{k?: number, filter?: string[]|Set<string>}} [options]
   * @returns {Promise<Array<{id: string, score: number}>>}
   */
  async search(query, options = {}) {
    return (await this.searchMany([query], options))[0];
  }
}
