// Indexes sharded by document across a WorkerPool, with results identical to one index:
//   ShardedBm25Index: every shard scores with the collection-wide statistics (Bm25Index.sumStats of
//     each shard's collectionStats(), injected by setGlobalStats), so each document's score is the
//     unsharded score bit for bit; the shards' top-k lists merge by score descending, then id
//     ascending (bytewise UTF-8), the ranking rule of src/common/ranking.h.
//   ShardedVectorIndex (flat f32 / int8): per-vector scores do not depend on the other vectors; the
//     top-k lists merge by score descending, then global insertion order, VectorIndex's tie rule.
//   createParallelEmbedder: the static model in every Worker, texts embedded in batches across them.
// Documents go to shard fnv1a(id) mod N, so an id always lands in the same shard (duplicate ids are
// caught there). A write is all or nothing: when one shard refuses its part, the parts other shards
// took are removed again before the error is thrown.
import { RagwasmError } from '../core/errors.js';
import { sourceBytes } from '../core/source-bytes.js';
import { unpackSections } from '../core/checksum.js';
import { packContainer, unpackContainer } from '../core/container.js';
import { writeSummary } from '../core/write-policy.js';
import {
  expectArray, expectBoolean, expectFloatVector, expectInteger, expectInternal, expectOptions, expectString, invalid, isArray, isInstance, isPlainObject,
  expectSearchK,
} from '../core/validate.js';
import { init, isInitialized } from '../core/module.js';
import { Bm25Index, checkFilter } from '../retrieve/sparse.js';
import { EXPANSION_KEYS, resolveExpansion } from '../retrieve/sparse-expand.js';
import { MAX_SEARCH_K } from '../core/limits.js';
import { VectorIndex, VECTOR_MAX_DIMENSION } from '../retrieve/dense.js';
import { defaultStaticModelUrl, MAX_BATCH_TEXTS, checkAbort, embedRunOptions, splitRows } from '../embed/embed.js';
import { WorkerPool } from './pool.js';

const MAX_DOCS = 10_000_000;
/** The sharded BM25 format (docs/parallel.md): magic RWSHBM25, version 1. */
export const SHARDED_BM25_FORMAT_VERSION = 2;
const BM25_MAGIC = 'RWSHBM25';
/** The sharded vector format (docs/parallel.md): magic RWSHVEC1, version 1. */
export const SHARDED_VECTOR_FORMAT_VERSION = 2;
// Sharded bytes since version 2 are the one container (docs/formats.md): section 1 the JSON header,
// sections 16, 17, ... the shards' parts in order. Version 1 (packSections, CRC-32) is still read.
const HEADER_TAG = 1;
const FIRST_PART_TAG = 16;

// The format version of saved sharded bytes (u32 after the 8-byte magic in both layouts), or 0.
function savedVersion(bytes) {
  return bytes instanceof Uint8Array && bytes.length >= 12 ? new DataView(bytes.buffer, bytes.byteOffset, 12).getUint32(8, true) : 0;
}

function packParts(magic, version, header, parts) {
  return packContainer(magic, version, [{ tag: HEADER_TAG, bytes: header }, ...parts.map((bytes, i) => ({ tag: FIRST_PART_TAG + i, bytes }))]);
}

// [header, parts] of saved sharded bytes of either layout; partsPerShard parts for each shard
function unpackParts(bytes, magic, { version, what, label, kind, partsPerShard }) {
  if (savedVersion(bytes) === 1) {
    const opts = { maxVersion: 1, label: `ragwasm: ${label}`, what: `a ${what}` };
    const [head, inner] = unpackSections(bytes, magic, { ...opts, count: 2 }).sections;
    const header = readHeader(head, kind, label);
    return [header, unpackSections(inner, magic, { ...opts, count: partsPerShard * header.shards }).sections];
  }
  const c = unpackContainer(bytes, magic, { minVersion: 2, maxVersion: version, what, label: `ragwasm: ${label}` });
  if (!c.sections.has(HEADER_TAG)) throw new RagwasmError('CORRUPT_INDEX', `ragwasm: ${label}: the header section (${HEADER_TAG}) is missing`);
  const header = readHeader(c.sections.get(HEADER_TAG), kind, label);
  const count = partsPerShard * header.shards;
  if (c.sections.size !== 1 + count) throw new RagwasmError('CORRUPT_INDEX', `ragwasm: ${label}: the header names ${header.shards} shards (${count} parts), the bytes hold ${c.sections.size - 1} parts`);
  const parts = [];
  for (let i = 0; i < count; i++) {
    const part = c.sections.get(FIRST_PART_TAG + i);
    if (part === undefined) throw new RagwasmError('CORRUPT_INDEX', `ragwasm: ${label}: part ${i} (section ${FIRST_PART_TAG + i}) is missing`);
    parts.push(part);
  }
  return [header, parts];
}
const VECTOR_MAGIC = 'RWSHVEC1';

// Reads the JSON header of a sharded container; CORRUPT_INDEX unless it is {kind, shards 1..64, route}.
function readHeader(head, kind, label) {
  let header;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(head));
  } catch {
    throw new RagwasmError('CORRUPT_INDEX', `ragwasm: ${label}: the header is not JSON`);
  }
  if (!isPlainObject(header) || header.kind !== kind || header.route !== 'fnv1a32-utf16' || !Number.isInteger(header.shards) || header.shards < 1 || header.shards > 64) {
    throw new RagwasmError('CORRUPT_INDEX', `ragwasm: ${label}: the header is not {kind: "${kind}", shards: 1..64, route: "fnv1a32-utf16"}`);
  }
  return header;
}

// The pool a saved index loads into: a given pool of the saved size, or a new one of that size.
// init() in this thread before saved sharded bytes are checked (the container is read by the C++ code),
// with the init options of the given pool or of the pool about to be created
async function initForLoad(parallel) {
  const p = expectOptions(parallel, 'parallel options', ['workers', 'pool', 'init']);
  await init(isInstance(p.pool, WorkerPool) ? p.pool._init : isPlainObject(p.init) ? p.init : {});
}

async function loadPool(parallel, shards) {
  const p = expectOptions(parallel, 'parallel options', ['workers', 'pool', 'init']);
  const { pool, owned } = await poolFor(p.pool === undefined && p.workers === undefined ? { ...p, workers: shards } : p, 'parallel options');
  if (pool.size !== shards) {
    if (owned) await pool.terminate();
    throw invalid('parallel options', `a pool of ${shards} Workers (the saved shard count)`, pool.size);
  }
  return { pool, owned };
}
const MAX_QUERIES = 100_000;

/** FNV-1a (32-bit) over the id's UTF-16 code units: the shard of an id. @internal */
export function shardOf(id, n) {
  let h = 0x811C9DC5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % n;
}

// UTF-16 code unit order equals code point (= UTF-8 byte) order except that surrogates (D800–DFFF,
// code points >= 0x10000) must sort after E000–FFFF.
const unit = (c) => (c >= 0xE000 ? c - 0x800 : c >= 0xD800 ? c + 0x2000 : c);
/** Bytewise UTF-8 comparison of two strings, without encoding them. @internal */
export function compareUtf8(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return unit(x) - unit(y);
  }
  return a.length - b.length;
}

async function poolFor(parallel, name, extraKeys = []) {
  const p = expectOptions(parallel, name, ['workers', 'pool', 'init', ...extraKeys]);
  if (p.pool !== undefined) {
    if (!isInstance(p.pool, WorkerPool)) throw invalid(`${name}.pool`, 'a WorkerPool', p.pool);
    if (p.workers !== undefined || p.init !== undefined) throw invalid(name, 'either pool or workers/init, not both', parallel);
    return { pool: p.pool, owned: false };
  }
  const pool = await WorkerPool.create({ workers: p.workers, init: p.init });
  return { pool, owned: true };
}

// A shard's error names docs[j] of its part; name the caller's index instead.
function renumber(err, where, single) {
  if (!(err instanceof RagwasmError)) return err;
  const m = /(items|docs)\[(\d+)\]/.exec(err.message);
  if (!m) return err;
  const global = where[Number(m[2])];
  const e = new RagwasmError(err.code, err.message.replace(m[0], single ? m[1] : `${m[1]}[${global}]`));
  e.at = global;
  return e;
}

// Runs one part per shard; on any failure removes what the other shards added and throws the error
// of the lowest caller index.
// A large add is posted as pieces of at most PIECE documents, alternating between shards, so each
// Worker starts indexing once its first piece is copied instead of after its whole part. Ids twice
// in the batch are refused here (as Bm25Index.add does), since two pieces of one shard would report
// the second as "already indexed".
const PIECE = 2048;
function pieces(parts, list) {
  if (parts.every((p) => p.docs.length <= PIECE)) return parts;
  const seen = new Set();
  for (let i = 0; i < list.length; i++) {
    if (seen.has(list[i].id)) throw new RagwasmError('DUPLICATE_ID', `ragwasm: docs[${i}].id: '${list[i].id}' appears twice in this batch`);
    seen.add(list[i].id);
  }
  const out = [];
  const most = Math.max(...parts.map((p) => p.docs.length));
  for (let start = 0; start < most; start += PIECE) {
    parts.forEach((p, s) => {
      if (start >= p.docs.length) return;
      const docs = p.docs.slice(start, start + PIECE);
      out.push({ shard: s, docs, args: [docs], ids: p.ids.slice(start, start + PIECE), where: p.where.slice(start, start + PIECE) });
    });
  }
  return out;
}

// Part i goes to shard parts[i].shard (default i); several parts of one shard are handled in order.
async function writeParts(self, parts, op, removeOp, single) {
  const shard = (i) => parts[i].shard ?? i;
  const settled = await Promise.allSettled(parts.map((p, i) => (p.ids.length === 0 ? null : self._pool._call(shard(i), op, [self._handle, ...p.args], p.transfer))));
  const failed = settled.map((r, i) => (r.status === 'rejected' ? renumber(r.reason, parts[i].where, single) : null)).filter(Boolean);
  if (failed.length === 0) return settled.map((r) => r.value);
  // the rollback's own failures (e.g. a terminated pool) do not hide the error that caused it
  await Promise.allSettled(settled.map((r, i) => (r.status === 'fulfilled' && r.value !== null && (parts[i].rollback ?? parts[i].ids).length > 0
    ? self._pool._call(shard(i), removeOp, [self._handle, parts[i].rollback ?? parts[i].ids]) : null)));
  failed.sort((a, b) => (a.at ?? Infinity) - (b.at ?? Infinity));
  throw failed[0];
}

function sumSummaries(list) {
  const s = writeSummary();
  for (const r of list) if (r) for (const k of Object.keys(s)) s[k] += r[k];
  return s;
}

// The ids of one remove() call: validated, deduplicated, grouped by shard.
function removalParts(ids, options, n) {
  const item = (v, name) => expectString(v, name, { maxLength: 1024, allowEmpty: false });
  const list = isArray(ids) ? expectArray(ids, 'ids', { maxLength: MAX_DOCS, item }) : [item(ids, 'id')];
  const o = expectOptions(options, 'remove options', ['ignoreMissing']);
  const ignoreMissing = o.ignoreMissing === undefined ? false : expectBoolean(o.ignoreMissing, 'options.ignoreMissing');
  const parts = Array.from({ length: n }, () => []);
  for (const id of new Set(list)) parts[shardOf(id, n)].push(id);
  return { list, parts, ignoreMissing };
}

// Removes ids by shard (Bm25Index/VectorIndex.remove semantics): unless ignoreMissing, an unknown id
// throws NOT_FOUND (the first in the caller's order) and nothing is removed. With ignoreMissing the
// messages are posted before this function first awaits, so a call made after it (a search) is
// handled after the removal by every Worker.
async function removeByShard(self, ids, options, prefix, before) {
  self._check();
  const { list, parts, ignoreMissing } = removalParts(ids, options, self.shards);
  if (!ignoreMissing) {
    const missing = new Set((await Promise.all(parts.map((p, s) => (p.length === 0 ? [] : self._pool._call(s, `${prefix}.missing`, [self._handle, p]))))).flat());
    const first = list.find((id) => missing.has(id));
    if (first !== undefined) {
      throw new RagwasmError('NOT_FOUND', `ragwasm: ids: '${first}' is not in the index (pass { ignoreMissing: true } to skip unknown ids); nothing was removed`);
    }
  }
  before?.();
  const res = await Promise.all(parts.map((p, s) => (p.length === 0 ? null : self._pool._call(s, `${prefix}.remove`, [self._handle, p, { ignoreMissing: true }]))));
  const removed = res.reduce((a, r) => a + (r ? r.removed : 0), 0);
  self._size -= removed;
  return writeSummary({ removed, skipped: list.length - removed });
}

class Sharded {
  constructor(pool, owned, handle, shards = pool?.size) {
    expectInternal(isInstance(pool, WorkerPool) && typeof owned === 'boolean' && Number.isInteger(handle)
      && Number.isInteger(shards) && shards >= 1 && shards <= pool.size, new.target.name, `${new.target.name}.create(options, parallel)`);
    this._pool = pool;
    this._owned = owned;
    this._handle = handle;
    this._n = shards;  // shard s lives in the pool's Worker s
    this._disposed = false;
  }

  // op on every shard's Worker (args, or a function of the shard number giving them)
  _each(op, args) {
    return Promise.all(Array.from({ length: this._n }, (_, s) => this._pool._call(s, op, typeof args === 'function' ? args(s) : args)));
  }

  _check() {
    if (this._disposed) throw new RagwasmError('DISPOSED', `ragwasm: this ${this.constructor.name} was disposed; create a new one`);
  }

  /** Number of shards (the pool's Workers, or ShardedBm25Index.create's `shards`: its first Workers). */
  get shards() {
    return this._n;
  }

  /**
   * Frees every shard, and terminates the pool when this index created it. Idempotent.
   * @returns {Promise<void>}
   */
  async dispose() {
    if (this._disposed) return;
    this._disposed = true;
    if (this._owned) await this._pool.terminate();
    else await this._each('dispose', [this._handle]).catch(() => {});
  }
}

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
  constructor(pool, owned, handle, options = {}, shards = pool?.size) {
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
    await initForLoad(parallel);
    const [header, shards] = unpackParts(bytes, BM25_MAGIC,
      { version: SHARDED_BM25_FORMAT_VERSION, what: 'sharded BM25 index', label: 'sharded BM25 bytes', kind: 'bm25', partsPerShard: 1 });
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

// the smallest batch the shrinking tail of a parallel embed() sends (createParallelEmbedder)
const TAIL_BATCH = 64;

/**
 * The static embedder in every Worker of a pool, under the embedder contract (docs/api.md): texts are
 * embedded in batches of `batch` across the Workers, vectors equal StaticEmbedder's bit for bit.
 * The embedder also has `embedDocuments(documents, {fields, kind, signal, onProgress})`: the vectors of
 * documents' fields joined by one space (default fields `['title', 'text']`; a field that is null or
 * undefined is left out), equal bit for bit to `embed()` of the joined strings, without making them in
 * the calling thread: the fields' own strings are posted and the Workers write the joined UTF-8
 * (joining `title + ' ' + text` for a corpus, then posting it, costs the calling thread ~50 CPU-ms per
 * 31,098 SciFact abstracts, docs/parallel.md).
 * @param {object} [options]
 * @param {ArrayBuffer|Uint8Array|Blob|Response|URL|string} [options.model] as createStaticEmbedder
 *   (default: the ragwasm-static-model package's model)
 * @param {number} [options.workers] pool size (as WorkerPool.create), when no pool is given
 * @param {WorkerPool} [options.pool] a pool to share
 * @param {object} [options.init] init() options of a new pool's Workers
 * @param {number} [options.batch=2048] most texts per message, 1–65536 (with several Workers the last
 *   batches shrink, down to 64 texts, so the Workers finish together)
 * @returns {Promise<{dimension: number, id: string, embed: (texts: string[], options?: object) => Promise<Float32Array[]>,
 *   embedDocuments: (documents: object[], options?: {fields?: string[], kind?: string, signal?: AbortSignal, onProgress?: Function}) => Promise<Float32Array[]>,
 *   dispose: () => Promise<void>}>}
 * @throws {RagwasmError} as createStaticEmbedder and WorkerPool.create; embedDocuments: INVALID_ARGUMENT
 *   (no documents, a document that is not an object, a field value that is not a string, null or
 *   undefined, naming `documents[i].field`; empty or non-string field names), LIMIT_EXCEEDED, ABORTED, DISPOSED
 */
export async function createParallelEmbedder(options = {}) {
  const o = expectOptions(options, 'createParallelEmbedder options', ['model', 'workers', 'pool', 'init', 'batch']);
  const batch = o.batch === undefined ? 2048 : expectInteger(o.batch, 'options.batch', { min: 1, max: 65536 });
  const model = o.model === undefined ? await defaultStaticModelUrl() : o.model;
  const bytes = await sourceBytes(model, o.model === undefined ? 'the default static model' : 'options.model');
  const parallel = {};
  for (const key of ['workers', 'pool', 'init']) if (o[key] !== undefined) parallel[key] = o[key];
  const { pool, owned } = await poolFor(parallel, 'createParallelEmbedder options');
  const handle = pool._handle();
  let info;
  try {
    [info] = await pool._all('embed.create', [handle, bytes]);
  } catch (e) {
    if (owned) await pool.terminate();
    throw e;
  }
  let disposed = false;
  // each Worker takes the next batch as soon as it is free; near the end batches shrink (to a quarter
  // of what is left per Worker, at least TAIL_BATCH texts), so the Workers finish together instead of
  // one running the last full batch alone (each text's vector does not depend on its batch).
  // send(start, end) posts texts [start, end) to Worker w
  const run = async (total, r, send) => {
    const out = new Array(total);
    let next = 0;
    let done = 0;
    const lanes = pool.size;
    const lane = async (w) => {
      while (next < total) {
        checkAbort(r.signal);
        const start = next;
        const size = lanes === 1 ? batch : Math.min(batch, Math.max(TAIL_BATCH, Math.ceil((total - start) / (2 * lanes))));
        next = Math.min(total, next + size);
        const flat = await send(w, start, next);
        const rows = splitRows(flat, flat.length / info.dimension, info.dimension);
        for (let i = 0; i < rows.length; i++) out[start + i] = rows[i];
        done += rows.length;
        if (r.onProgress) r.onProgress({ done, total });
      }
    };
    await Promise.all(Array.from({ length: pool.size }, (_, w) => lane(w)));
    return out;
  };
  const embedder = {
    dimension: info.dimension,
    id: info.id,
    async embed(texts, runOptions = {}) {
      if (disposed) throw new RagwasmError('DISPOSED', 'ragwasm: this parallel embedder was disposed');
      const r = embedRunOptions(runOptions, 'embed options');
      const list = expectArray(texts, 'texts', { maxLength: MAX_BATCH_TEXTS, item: (t, n) => expectString(t, n) });
      if (list.length === 0) throw new RagwasmError('INVALID_ARGUMENT', 'ragwasm: texts: expected at least one text, got an empty array');
      return run(list.length, r, (w, start, end) => pool._call(w, 'embed.run', [handle, list.slice(start, end)]));
    },
    async embedDocuments(docs, runOptions = {}) {
      if (disposed) throw new RagwasmError('DISPOSED', 'ragwasm: this parallel embedder was disposed');
      const o = expectOptions(runOptions, 'embedDocuments options', ['fields', 'kind', 'signal', 'onProgress']);
      const given = o.fields;
      const r = embedRunOptions({ kind: o.kind, signal: o.signal, onProgress: o.onProgress }, 'embedDocuments options');
      const fields = given === undefined ? ['title', 'text']
        : expectArray(given, 'options.fields', { maxLength: 64, item: (f, n) => expectString(f, n, { allowEmpty: false }) });
      if (fields.length === 0) throw invalid('options.fields', 'at least one field name', given);
      const list = expectArray(docs, 'documents', { maxLength: MAX_BATCH_TEXTS });
      if (list.length === 0) throw new RagwasmError('INVALID_ARGUMENT', 'ragwasm: documents: expected at least one document, got an empty array');
      // the fields' values read once, in one flat array (parts of k), checked here
      const k = fields.length;
      const parts = [];
      for (let i = 0; i < list.length; i++) {
        const d = list[i];
        if (!isPlainObject(d)) throw invalid(`documents[${i}]`, 'a document object', d);
        for (let j = 0; j < k; j++) {
          let v;
          try {
            v = d[fields[j]];
          } catch (e) {
            throw invalid(`documents[${i}].${fields[j]}`, 'a readable field', e && e.message);
          }
          if (v !== undefined && v !== null && typeof v !== 'string') throw invalid(`documents[${i}].${fields[j]}`, 'a string, null or undefined', v);
          parts.push(v ?? null);
        }
      }
      return run(list.length, r, (w, start, end) => pool._call(w, 'embed.runParts', [handle, parts.slice(start * k, end * k), k]));
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      if (owned) await pool.terminate();
      else await pool._all('dispose', [handle]).catch(() => {});
    },
  };
  return embedder;
}
