// @ts-check
// ShardedBm25Index: BM25 sharded by document across a WorkerPool, scores equal to one Bm25Index (sharded.js).
import { expectArray, expectBoolean, expectInteger, expectOptions, expectString, invalid, isArray, isInstance, isPlainObject, expectSearchK } from '../core/validate.js';
import { init, isInitialized } from '../core/module.js';
import { Bm25Index, checkFilter } from '../retrieve/sparse.js';
import { shardIdChecker } from '../pipeline/saved-check.js';
import { EXPANSION_KEYS, resolveExpansion } from '../retrieve/sparse-expand.js';
import { MAX_SEARCH_K } from '../core/limits.js';
import { MAX_DOCS, SHARDED_BM25_FORMAT_VERSION, BM25_MAGIC, packParts, unpackParts, initForLoad, loadPool, MAX_QUERIES, shardOf, compareUtf8, poolFor, pieces, writeParts, sumSummaries, removeByShard, Sharded } from './sharded-common.js';

/** @typedef {import('./pool.js').WorkerPool} WorkerPool */

/**
 * A BM25 index sharded by document across Workers; scores and rankings equal one Bm25Index over the
 * same documents bit for bit (collection-wide statistics in every shard, docs/parallel.md).
 */
export class ShardedBm25Index extends Sharded {
  /**
   * @param {object} [options] Bm25Index.create() options
   * @param {{workers?: number, pool?: WorkerPool, init?: object, shards?: number}} [parallel] a pool to
   *   share, or the size of a new one (default: the core count capped at 8; 1 = no Worker) and its init()
   *   options; `shards` (1 to the pool's size, default its size): the shards go to the pool's first
   *   `shards` Workers, leaving the others free (e.g. one index in one Worker while every Worker embeds:
   *   no second dictionary, no statistics sync; docs/parallel.md)
   * @returns {Promise<ShardedBm25Index>}
   * @throws {RagwasmError} as Bm25Index.create() and WorkerPool.create()
   */
  static async create(options = {}, parallel = {}) {
    if (isInitialized()) Bm25Index.create(options).dispose();  // bad options fail here, before any Worker starts
    const { pool, owned } = await poolFor(parallel, 'parallel options', ['shards']);
    let idx;
    try {
      const n = parallel.shards === undefined ? pool.size : expectInteger(parallel.shards, 'parallel options.shards', { min: 1, max: pool.size });
      idx = new ShardedBm25Index(pool, owned, pool._handle(), options, n);
      await idx._each('bm25.create', [idx._handle, options]);
    } catch (e) {
      if (owned) await pool.terminate();
      else if (idx) await idx._each('dispose', [idx._handle]).catch(() => {});
      throw e;
    }
    return idx;
  }

  /** @internal */
  constructor(pool, owned, handle, options = {}, shards = undefined) {
    super(pool, owned, handle, shards);
    this._statsDirty = false;
    this._size = 0;
    this._options = options;
    this._analyzer = null;
    this._syncing = null;
    this._writing = 0;      // writes in flight (a background statistics sync waits for none)
    this._prefetch = null;  // the timer of a pending background sync
  }

  async dispose() {
    if (this._prefetch !== null) clearTimeout(this._prefetch);
    this._prefetch = null;
    this._analyzer?.dispose();
    this._analyzer = null;
    return super.dispose();
  }

  /** Live documents. */
  get size() {
    return this._size;
  }

  /**
   * Adds documents across the shards; all or nothing (as Bm25Index.add).
   * @param {object|object[]} docs as Bm25Index.add
   * @returns {Promise<{added: number, updated: number, removed: number, skipped: number}>}
   * @throws {RagwasmError} as Bm25Index.add (the index named is the caller's), DISPOSED
   */
  async add(docs) {
    return this._write(docs, 'bm25.add');
  }

  /**
   * Adds or replaces documents by id (as Bm25Index.upsert), each in the shard its id routes to. A part
   * is all or nothing within its shard; when one shard refuses its part (a bad field), the documents
   * the other shards added are removed again, but the documents they replaced stay replaced (a
   * replaced document cannot be restored without its old fields).
   * @param {object|object[]} docs as Bm25Index.upsert
   * @returns {Promise<{added: number, updated: number, removed: number, skipped: number}>}
   * @throws {RagwasmError} as Bm25Index.upsert (the index named is the caller's), DISPOSED
   */
  async upsert(docs) {
    return this._write(docs, 'bm25.upsert');
  }

  /**
   * Deletes documents by id, each from the shard its id routes to (as Bm25Index.remove).
   * @param {string|string[]} ids
   * @param {{ignoreMissing?: boolean}} [options] default false: an unknown id throws NOT_FOUND and
   *   nothing is removed; true: unknown ids are skipped (counted in `skipped`)
   * @returns {Promise<{added: number, updated: number, removed: number, skipped: number}>}
   * @throws {RagwasmError} INVALID_ARGUMENT, NOT_FOUND, DISPOSED
   */
  async remove(ids, options = {}) {
    return removeByShard(this, ids, options, 'bm25', () => { this._statsDirty = true; });
  }

  /** Rewrites every shard's postings without its deleted documents (as Bm25Index.compact). */
  async compact() {
    this._check();
    this._statsDirty = true;  // a shard's write restores its own statistics: synced again before a search
    await this._each('bm25.compact', [this._handle]);
  }

  /**
   * The terms the index's analyzer makes of a text (as Bm25Index.analyze; computed in this thread by an
   * empty index of the same options, so the call is synchronous).
   * @param {string} text
   * @returns {string[]}
   */
  analyze(text) {
    this._check();
    if (this._analyzer === null) {
      // a loaded index has no options object: its smallest shard carries the same analyzer
      this._analyzer = this._options !== null ? Bm25Index.create(this._options) : Bm25Index.fromBytes(this._analyzerBytes);
      this._analyzerBytes = null;
    }
    return this._analyzer.analyze(text);
  }

  async _write(docs, op) {
    this._check();
    const single = !isArray(docs);
    const list = single ? [docs] : expectArray(docs, 'docs', { maxLength: MAX_DOCS });
    const n = this._n;
    /** @type {Array<{docs: object[], ids: string[], where: number[], args?: unknown[], rollback?: unknown}>} one per shard */
    const parts = Array.from({ length: n }, () => ({ docs: [], ids: [], where: [] }));
    for (let i = 0; i < list.length; i++) {
      const d = list[i];
      const name = single ? 'docs' : `docs[${i}]`;
      if (!isPlainObject(d)) throw invalid(name, 'a document object {id, ...fields, metadata?}', d);
      const id = expectString(d.id, `${name}.id`, { maxLength: 1024, allowEmpty: false });
      const s = shardOf(id, n);
      parts[s].docs.push(d);
      parts[s].ids.push(id);
      parts[s].where.push(i);
    }
    for (const p of parts) p.args = [p.docs];
    if (op === 'bm25.upsert') {
      // on failure only the ids that were new are removed again
      const fresh = await Promise.all(parts.map((p, s) => (p.ids.length === 0 ? [] : this._pool._call(s, 'bm25.missing', [this._handle, p.ids]))));
      parts.forEach((p, s) => { p.rollback = fresh[s]; });
    }
    this._statsDirty = true;
    this._writing++;
    let res;
    try {
      res = await writeParts(this, op === 'bm25.add' ? pieces(parts, list) : parts, op, 'bm25.remove', single);
    } finally {
      this._writing--;
      this._prefetchStats();
    }
    const summary = sumSummaries(res);
    this._size += summary.added;
    return summary;
  }

  // After a write, synchronizes the statistics in the background (on a timer, so a loop of writes
  // starts none until it pauses): the next search then finds them ready instead of waiting for the
  // round trip while the Workers idle (with a parallel embedding running, the sync overlaps it).
  // A background run that a new write overtakes stops; the next search syncs (as before).
  _prefetchStats() {
    if (this._n === 1 || this._prefetch !== null) return;
    const run = () => {
      this._prefetch = null;
      if (this._disposed || this._writing > 0 || !this._statsDirty || this._syncing !== null) return;
      this._syncStats(true).catch(() => {});  // a failure leaves the statistics dirty: the next search retries and throws it
    };
    this._prefetch = setTimeout(run, 0);
    if (typeof this._prefetch === 'object' && typeof this._prefetch.unref === 'function') this._prefetch.unref();  // Node: never keeps a process alive
  }

  // Sums the shards' statistics and gives the total to every shard (after any write). Concurrent
  // searches share one run; a write that lands between a shard's stats and its totals makes the run
  // start over.
  async _syncStats(background = false) {
    while (this._syncing !== null) await this._syncing.catch(() => {});
    if (!this._statsDirty) return;
    this._syncing = this._syncOnce(background);
    try {
      await this._syncing;
    } finally {
      this._syncing = null;
    }
  }

  async _syncOnce(background) {
    for (;;) {
      this._statsDirty = false;  // a write from here on sets it again
      if (this._n === 1) return;  // one shard's own statistics are the collection's
      try {
        // the shards' statistics arrive as typed arrays (terms as one UTF-8 blob), moved, not cloned
        // string by string; the sum is sumStats' (our own shards' statistics: not checked term by term
        // again), and each shard gets the totals of its own terms only, aligned to its dictionary (moved)
        const stats = await this._each('bm25.rawStats', [this._handle]);
        const total = Bm25Index._globalDf(stats);
        const applied = await Promise.all(stats.map((s, i) => this._pool._call(i, 'bm25.setGlobalDf',
          [this._handle, s.version, total.documents, total.fieldLengths, total.df[i]], [total.df[i].buffer])));
        if (applied.every(Boolean) && !this._statsDirty) return;
        this._statsDirty = true;
        if (background) return;
      } catch (e) {
        this._statsDirty = true;
        throw e;
      }
    }
  }

  /**
   * Serializes every shard in the one container (docs/formats.md, docs/parallel.md): magic "RWSHBM25",
   * version 2, section 1 a JSON header `{kind: 'bm25', shards, route: 'fnv1a32-utf16'}`, sections 16, 17, ...
   * the shards' Bm25Index.toBytes(), XXH64 sealed (version 1, packSections + CRC-32, is still read).
   * Each shard's bytes are those of a Bm25Index over that shard's documents.
   * @returns {Promise<Uint8Array>}
   * @throws {RagwasmError} DISPOSED
   */
  async toBytes() {
    this._check();
    const shards = await this._each('bm25.toBytes', [this._handle]);
    const header = new TextEncoder().encode(JSON.stringify({ kind: 'bm25', shards: shards.length, route: 'fnv1a32-utf16' }));
    await init(this._pool._init);  // the container is packed by the C++ writer in this thread
    return packParts(BM25_MAGIC, SHARDED_BM25_FORMAT_VERSION, header, shards);
  }

  /**
   * Loads toBytes() output into a pool with as many Workers as the index had shards (ids are routed by
   * hash modulo the shard count).
   * @param {Uint8Array} bytes
   * @param {{workers?: number, pool?: WorkerPool, init?: object}} [parallel] default: a new pool of the
   *   saved shard count
   * @returns {Promise<ShardedBm25Index>}
   * @throws {RagwasmError} CORRUPT_INDEX, UNSUPPORTED_VERSION, INVALID_ARGUMENT (a pool of another size)
   */
  static async fromBytes(bytes, parallel = {}) {
    if (isInstance(bytes, ArrayBuffer)) bytes = new Uint8Array(bytes);
    if (!isInstance(bytes, Uint8Array)) throw invalid('bytes', 'a Uint8Array or ArrayBuffer (toBytes() output)', bytes);  // before any WASM call (#33 H-1)
    await initForLoad(parallel);
    const [header, shards] = unpackParts(bytes, BM25_MAGIC,
      { version: SHARDED_BM25_FORMAT_VERSION, what: 'sharded BM25 index', label: 'sharded BM25 bytes', kind: 'bm25', partsPerShard: 1 });
    // Each id in the shard it routes to, none in two (#30 F-1): checked here, before any Worker starts.
    const ids = shardIdChecker('sharded BM25 bytes', header.shards, shardOf);
    shards.forEach((b, i) => Bm25Index._checkBytes(b, (list) => ids.ids(i, list)));
    ids.done();
    const { pool, owned } = await loadPool(parallel, header.shards);
    const handle = pool._handle();
    let sizes;
    try {
      sizes = await pool._all('bm25.load', (i) => [handle, shards[i]]);
    } catch (e) {
      if (owned) await pool.terminate();
      else await pool._all('dispose', [handle]).catch(() => {});
      throw e;
    }
    const idx = new ShardedBm25Index(pool, owned, handle, null);
    idx._analyzerBytes = shards.reduce((a, b) => (b.length < a.length ? b : a));
    idx._size = sizes.reduce((a, b) => a + b, 0);
    idx._statsDirty = true;
    return idx;
  }

  /**
   * Collection-wide statistics (the sum over shards).
   * @returns {Promise<import('../retrieve/sparse.js').CollectionStats>}
   */
  async collectionStats() {
    this._check();
    return Bm25Index.sumStats((await this._each('bm25.stats', [this._handle])).map(({ version, ...st }) => st));  // eslint-disable-line no-unused-vars
  }

  /**
   * Ranks documents for each query; equal to Bm25Index.search on one index over the same documents.
   * @param {string[]} queries
   * @param {{k?: number, filter?: object|Function, exact?: boolean}} [options] as Bm25Index.search, with prefix,
   *   fuzzy, maxFuzzy, weights, combineWith, boost, explain (each shard expands over its own dictionary: the
   *   same weighted terms, so the same hits); rm3 is not supported across shards: feedback documents would
   *   have to come from every shard
   * @returns {Promise<Array<Array<{id: string, score: number}>>>}
   * @throws {RagwasmError} INVALID_ARGUMENT, DISPOSED
   */
  async searchMany(queries, options = {}) {
    this._check();
    const list = expectArray(queries, 'queries', { maxLength: MAX_QUERIES, item: (q, name) => expectString(q, name) });
    const o = { ...expectOptions(options, 'search options', ['k', 'filter', 'exact', ...EXPANSION_KEYS]) };
    const k = o.k === undefined ? 10 : expectSearchK(o.k);
    // per-term prefix / fuzzy functions are resolved over each query's analyzed terms: one query at a time
    if ((typeof o.prefix === 'function' || typeof o.fuzzy === 'function') && list.length > 1) {
      return Promise.all(list.map((q) => this.searchMany([q], options).then((r) => r[0])));
    }
    const clean = { k };
    if (o.filter !== undefined && typeof o.filter !== 'function') {
      checkFilter(o.filter, 'options.filter');
      clean.filter = JSON.parse(JSON.stringify(o.filter));  // a plain copy for structured cloning
    }
    if (o.exact !== undefined) clean.exact = expectBoolean(o.exact, 'options.exact');
    const x = {};
    for (const key of [...EXPANSION_KEYS, 'filter']) if (o[key] !== undefined) x[key] = o[key];
    const keep = resolveExpansion(x, () => this.analyze(list[0]));
    Object.assign(clean, x);
    await this._syncStats();
    const run = async (want) => {
      const perShard = await this._each('bm25.search', [this._handle, list, { ...clean, k: want }]);
      return list.map((_, q) => {
        const all = [];
        for (const lists of perShard) for (const h of lists[q]) all.push(h);
        all.sort((a, b) => (b.score - a.score) || compareUtf8(a.id, b.id));
        if (all.length > want) all.length = want;
        return all;
      });
    };
    if (keep === null) return run(k);
    // a filter(hit) callback: as Bm25Index.search, fetch more until k hits pass or none are left
    return Promise.all(list.map(async (_, q) => {
      let want = Math.min(MAX_SEARCH_K, Math.max(2 * k, k + 20));
      for (;;) {
        const hits = (await run(want))[q];
        const kept = hits.filter((h) => keep(h)).slice(0, k);
        if (kept.length === k || hits.length < want || want === MAX_SEARCH_K) return kept;
        want = Math.min(MAX_SEARCH_K, want * 4);
      }
    }));
  }

  /**
   * Ranks documents for one query (searchMany with one query).
   * @param {string} query
   * @param {{k?: number, filter?: object, exact?: boolean}} [options]
   * @returns {Promise<Array<{id: string, score: number}>>}
   */
  async search(query, options = {}) {
    return (await this.searchMany([expectString(query, 'query')], options))[0];
  }
}
