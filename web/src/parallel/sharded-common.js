// @ts-check
// What the sharded indexes share (sharded.js): the saved sharded container (header section, then each
// shard's parts), the document -> shard route (FNV-1a), the bytewise id order of merged hits, the pool a
// sharded index runs in, all-or-nothing writes across shards, and the Sharded base class.
import { RagwasmError } from '../core/errors.js';
import { unpackSections } from '../core/checksum.js';
import { packContainer, unpackContainer } from '../core/container.js';
import { writeSummary } from '../core/write-policy.js';
import { expectArray, expectBoolean, expectInternal, expectOptions, expectString, invalid, isArray, isInstance, isPlainObject } from '../core/validate.js';
import { init } from '../core/module.js';
import { WorkerPool } from './pool.js';

export const MAX_DOCS = 10_000_000;
/** The sharded BM25 format (docs/parallel.md): magic RWSHBM25, version 1. */
export const SHARDED_BM25_FORMAT_VERSION = 2;
export const BM25_MAGIC = 'RWSHBM25';
/** The sharded vector format (docs/parallel.md): magic RWSHVEC1, version 1. */
export const SHARDED_VECTOR_FORMAT_VERSION = 2;
// Sharded bytes since version 2 are the one container (docs/formats.md): section 1 the JSON header,
// sections 16, 17, ... the shards' parts in order. Version 1 (packSections, CRC-32) is still read.
export const HEADER_TAG = 1;
export const FIRST_PART_TAG = 16;

// The format version of saved sharded bytes (u32 after the 8-byte magic in both layouts), or 0.
export function savedVersion(bytes) {
  return isInstance(bytes, Uint8Array) && bytes.length >= 12 ? new DataView(bytes.buffer, bytes.byteOffset, 12).getUint32(8, true) : 0;
}

export function packParts(magic, version, header, parts) {
  return packContainer(magic, version, [{ tag: HEADER_TAG, bytes: header }, ...parts.map((bytes, i) => ({ tag: FIRST_PART_TAG + i, bytes }))]);
}

// [header, parts] of saved sharded bytes of either layout; partsPerShard parts for each shard
export function unpackParts(bytes, magic, { version, what, label, kind, partsPerShard }) {
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
export const VECTOR_MAGIC = 'RWSHVEC1';

// Reads the JSON header of a sharded container; CORRUPT_INDEX unless it is {kind, shards 1..64, route}.
export function readHeader(head, kind, label) {
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
export async function initForLoad(parallel) {
  const p = expectOptions(parallel, 'parallel options', ['workers', 'pool', 'init']);
  await init(isInstance(p.pool, WorkerPool) ? p.pool._init : isPlainObject(p.init) ? p.init : {});
}

export async function loadPool(parallel, shards) {
  const p = expectOptions(parallel, 'parallel options', ['workers', 'pool', 'init']);
  const { pool, owned } = await poolFor(p.pool === undefined && p.workers === undefined ? { ...p, workers: shards } : p, 'parallel options');
  if (pool.size !== shards) {
    if (owned) await pool.terminate();
    throw invalid('parallel options', `a pool of ${shards} Workers (the saved shard count)`, pool.size);
  }
  return { pool, owned };
}
export const MAX_QUERIES = 100_000;

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
export const unit = (c) => (c >= 0xE000 ? c - 0x800 : c >= 0xD800 ? c + 0x2000 : c);
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

export async function poolFor(parallel, name, extraKeys = []) {
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
export function renumber(err, where, single) {
  if (!(err instanceof RagwasmError)) return err;
  const m = /(items|docs)\[(\d+)\]/.exec(err.message);
  if (!m) return err;
  const global = where[Number(m[2])];
  return Object.assign(new RagwasmError(err.code, err.message.replace(m[0], single ? m[1] : `${m[1]}[${global}]`)), { at: global });
}

// Runs one part per shard; on any failure removes what the other shards added and throws the error
// of the lowest caller index.
// A large add is posted as pieces of at most PIECE documents, alternating between shards, so each
// Worker starts indexing once its first piece is copied instead of after its whole part. Ids twice
// in the batch are refused here (as Bm25Index.add does), since two pieces of one shard would report
// the second as "already indexed".
export const PIECE = 2048;
export function pieces(parts, list) {
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
export async function writeParts(self, parts, op, removeOp, single) {
  const shard = (i) => parts[i].shard ?? i;
  const settled = await Promise.allSettled(parts.map((p, i) => (p.ids.length === 0 ? null : self._pool._call(shard(i), op, [self._handle, ...p.args], p.transfer))));
  const failed = settled.map((r, i) => (r.status === 'rejected' ? renumber(r.reason, parts[i].where, single) : null)).filter(Boolean);
  if (failed.length === 0) return settled.map((r) => (r.status === 'fulfilled' ? r.value : undefined));  // all fulfilled here
  // the rollback's own failures (e.g. a terminated pool) do not hide the error that caused it
  await Promise.allSettled(settled.map((r, i) => (r.status === 'fulfilled' && r.value !== null && (parts[i].rollback ?? parts[i].ids).length > 0
    ? self._pool._call(shard(i), removeOp, [self._handle, parts[i].rollback ?? parts[i].ids]) : null)));
  failed.sort((a, b) => (a.at ?? Infinity) - (b.at ?? Infinity));
  throw failed[0];
}

export function sumSummaries(list) {
  const s = writeSummary();
  for (const r of list) if (r) for (const k of Object.keys(s)) s[k] += r[k];
  return s;
}

// The ids of one remove() call: validated, deduplicated, grouped by shard.
export function removalParts(ids, options, n) {
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
export async function removeByShard(self, ids, options, prefix, before) {
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

export class Sharded {
  constructor(pool, owned, handle, shards) {
    // the pool is checked before it is read (a revoked Proxy or a getter never runs here: RagwasmError, #19)
    if (isInstance(pool, WorkerPool) && shards === undefined) shards = pool.size;
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
