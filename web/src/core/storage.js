// @ts-check
// Durable byte storage for saved indexes and collections: OPFS in browsers (IndexedDB when OPFS is
// missing), files in Node. Every write is atomic: readers see the old bytes or the new bytes, never
// a mix — OPFS createWritable() commits a swap file on close(), IndexedDB puts in one transaction,
// Node writes NAME.tmp-<random>, fsyncs, then renames over NAME.
import { RagwasmError } from './errors.js';
import { joinBytes } from './container.js';
import { expectOptions, expectString, invalid, isInstance } from './validate.js';
import { isNode, nodeBuiltin } from './node.js';

const NAME_RE = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,199}$/;
const IDB_NAME = 'ragwasm-storage';
const IDB_STORE = 'bytes';

function checkName(name) {
  expectString(name, 'name');
  if (!NAME_RE.test(name) || name.includes('.tmp-')) {
    throw invalid('name', "1–200 characters of A-Z a-z 0-9 . _ - not starting with '.' or '-'", name);
  }
  return name;
}

function checkBytes(bytes) {
  if (isInstance(bytes, ArrayBuffer)) return new Uint8Array(bytes);
  if (!(isInstance(bytes, Uint8Array))) throw invalid('bytes', 'a Uint8Array or ArrayBuffer', bytes);
  return bytes;
}

function options(o) {
  const v = expectOptions(o, 'storage options', ['dir', 'backend']);
  if (v.dir !== undefined) expectString(v.dir, 'options.dir', { allowEmpty: false });
  if (v.backend !== undefined && !['node', 'opfs', 'indexeddb'].includes(v.backend)) {
    throw invalid('options.backend', "'node', 'opfs' or 'indexeddb'", v.backend);
  }
  return v;
}

async function hasOpfs() {
  try {
    return typeof navigator !== 'undefined' && !!navigator.storage && typeof navigator.storage.getDirectory === 'function' &&
      !!(await navigator.storage.getDirectory());
  } catch {
    return false;
  }
}

// A backend asked for by name must exist in this runtime: say which one is missing (not a ReferenceError).
async function available(backend) {
  const here = isNode ? 'Node' : 'this runtime';
  if (backend === 'node' && !isNode) {
    throw new RagwasmError('UNSUPPORTED_ENVIRONMENT', "ragwasm: storage backend 'node' needs Node (this is a browser or Worker); use 'opfs' or 'indexeddb'");
  }
  if (backend === 'indexeddb' && typeof indexedDB === 'undefined') {
    throw new RagwasmError('UNSUPPORTED_ENVIRONMENT', `ragwasm: storage backend 'indexeddb' is not available in ${here} (no indexedDB)${isNode ? "; use 'node'" : ''}`);
  }
  if (backend === 'opfs' && !(await hasOpfs())) {
    throw new RagwasmError('UNSUPPORTED_ENVIRONMENT', `ragwasm: storage backend 'opfs' is not available in ${here} (no navigator.storage.getDirectory)${isNode ? "; use 'node'" : ''}`);
  }
  return backend;
}

/**
 * Which backend saveBytes/loadBytes use here: 'node', 'opfs' or 'indexeddb'.
 * @param {{backend?: 'node'|'opfs'|'indexeddb'}} [opts]
 * @returns {Promise<'node'|'opfs'|'indexeddb'>}
 * @throws {RagwasmError} UNSUPPORTED_ENVIRONMENT when none is available, or the backend asked for is
 *   missing here (its name in the message)
 */
export async function storageBackend(opts = {}) {
  const o = options(opts);
  if (o.backend) return available(o.backend);
  if (isNode) return 'node';
  if (await hasOpfs()) return 'opfs';
  if (typeof indexedDB !== 'undefined') return 'indexeddb';
  throw new RagwasmError('UNSUPPORTED_ENVIRONMENT', 'ragwasm: no storage here (needs Node, OPFS or IndexedDB)');
}

async function nodeDir(o) {
  const path = nodeBuiltin('path');
  return path.resolve(o.dir ?? '.ragwasm-store');
}

function idbOpen() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(IDB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(IDB_STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(new RagwasmError('UNSUPPORTED_ENVIRONMENT', `ragwasm: IndexedDB open failed: ${req.error}`));
  });
}

function idbRun(mode, fn) {
  return idbOpen().then((db) => new Promise((resolve, reject) => {
    const tx = db.transaction(IDB_STORE, mode);
    const store = tx.objectStore(IDB_STORE);
    let result;
    const req = fn(store);
    if (req) req.onsuccess = () => { result = req.result; };
    tx.oncomplete = () => { db.close(); resolve(result); };
    tx.onerror = tx.onabort = () => { db.close(); reject(new RagwasmError('INTERNAL', `ragwasm: IndexedDB: ${tx.error}`)); };
  }));
}

/**
 * Stores bytes under a name, atomically replacing what was there.
 * @param {string} name 1–200 of [A-Za-z0-9._-], not starting with '.' or '-'
 * @param {Uint8Array|ArrayBuffer} bytes
 * @param {{dir?: string, backend?: 'node'|'opfs'|'indexeddb'}} [opts] dir: Node folder (default ./.ragwasm-store)
 * @returns {Promise<void>}
 */
export async function saveBytes(name, bytes, opts = {}) {
  checkName(name);
  return writePieces(name, [checkBytes(bytes)], opts);
}

// One write at most this long: a browser copies what one write() is given before it stores it (OPFS:
// measured in Chromium, a single 520 MB write raised the tab's RSS by ~1.3 GB; issue #18, docs/scale.md).
const WRITE_PIECE = 8 << 20;

/**
 * @internal saveBytes of the concatenation of `pieces` (written in turn, never joined except for
 * IndexedDB): Collection.save() writes its sections without packing them into one buffer first.
 * An array is emptied as it is written (each entry set to null once written: Node, OPFS), so pieces
 * referenced only by it can be collected during the write. An iterator is taken one piece at a time
 * as the write goes (pieces made on demand); when it throws, the write is abandoned and the stored
 * copy is left as it was.
 * @param {string} name
 * @param {Uint8Array[]|Iterator<Uint8Array>} pieces an array, or an iterator (e.g. a generator) of pieces
 * @param {{dir?: string, backend?: 'node'|'opfs'|'indexeddb'}} [opts]
 */
export async function savePieces(name, pieces, opts = {}) {
  checkName(name);
  if (Array.isArray(pieces) ? !pieces.every((p) => isInstance(p, Uint8Array)) : typeof pieces?.next !== 'function') {
    throw invalid('pieces', 'an array or an iterator of Uint8Array', pieces);
  }
  return writePieces(name, pieces, opts);
}

// The pieces as writes of at most WRITE_PIECE bytes: a large piece cut into views, small ones gathered
// into one reused staging buffer (a 1M-chunk header comes as ~10,000 small pieces: one write each
// would be slow). A yielded view is valid until the next one is taken: the caller writes it (and
// awaits the write) first. Each entry of an array is set to null once taken (a caller that keeps no
// other reference lets the piece be collected).
function* windows(pieces) {
  const list = Array.isArray(pieces);
  const it = list ? null : pieces;
  let staging = null;
  let staged = 0;
  try {
    for (let i = 0; ; i++) {
      let p;
      if (list) {
        if (i >= pieces.length) break;
        p = pieces[i];
        pieces[i] = null;
      } else {
        const r = it.next();
        if (r.done) break;
        p = r.value;
        if (!isInstance(p, Uint8Array)) throw invalid(`pieces[${i}]`, 'a Uint8Array', p);
      }
      if (p.length < WRITE_PIECE >> 4) {
        staging ??= new Uint8Array(WRITE_PIECE);
        if (staged + p.length > WRITE_PIECE) {
          yield staging.subarray(0, staged);
          staged = 0;
        }
        staging.set(p, staged);
        staged += p.length;
        continue;
      }
      if (staged > 0) {
        yield staging.subarray(0, staged);
        staged = 0;
      }
      for (let at = 0; at < p.length; at += WRITE_PIECE) yield p.subarray(at, Math.min(p.length, at + WRITE_PIECE));
    }
    if (staged > 0) yield staging.subarray(0, staged);
  } finally {
    it?.return?.();  // a write that failed lets the iterator free what it holds
  }
}

async function writePieces(name, pieces, opts) {
  const backend = await storageBackend(opts);
  if (backend === 'node') {
    const fs = nodeBuiltin('fs/promises');
    const path = nodeBuiltin('path');
    const dir = await nodeDir(opts);
    await fs.mkdir(dir, { recursive: true });
    const tmp = path.join(dir, `${name}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`);
    const fh = await fs.open(tmp, 'w');
    try {
      for (const w of windows(pieces)) {
        for (let at = 0; at < w.length;) at += (await fh.write(w, at, w.length - at)).bytesWritten;
      }
      await fh.sync();
    } catch (e) {
      await fh.close();
      await fs.rm(tmp, { force: true });
      throw e;
    }
    await fh.close();
    try {
      await fs.rename(tmp, path.join(dir, name));
    } catch (e) {
      await fs.rm(tmp, { force: true });
      throw e;
    }
    // Make the rename itself durable, then drop temp files left by writers that were killed mid-save
    // (their process is gone; a live writer's temp file is left alone).
    try {
      const d = await fs.open(dir, 'r');
      try { await d.sync(); } finally { await d.close(); }
    } catch {
      // some file systems refuse fsync on a directory; the rename is still atomic
    }
    for (const entry of await fs.readdir(dir)) {
      const m = entry.startsWith(`${name}.tmp-`) && /^(\d+)-/.exec(entry.slice(name.length + 5));
      if (!m || Number(m[1]) === process.pid) continue;
      let alive = true;
      try { process.kill(Number(m[1]), 0); } catch (e) { alive = e.code === 'EPERM'; }
      if (!alive) await fs.rm(path.join(dir, entry), { force: true });
    }
    return;
  }
  if (backend === 'opfs') {
    const root = await navigator.storage.getDirectory();
    const fh = await root.getFileHandle(name, { create: true });
    const w = await fh.createWritable({ keepExistingData: false });
    try {
      for (const piece of windows(pieces)) await w.write(piece);
      await w.close();  // commits the swap file atomically
    } catch (e) {
      try { await w.abort(); } catch { /* already closed */ }
      throw e;
    }
    return;
  }
  const parts = [];
  for (const w of windows(pieces)) parts.push(w.slice());  // a view into the staging buffer is reused
  const copy = joinBytes(parts);
  await idbRun('readwrite', (s) => s.put(copy, name));
}

/**
 * Reads bytes stored under a name.
 * @param {string} name
 * @param {{dir?: string, backend?: 'node'|'opfs'|'indexeddb'}} [opts]
 * @returns {Promise<Uint8Array|null>} null when nothing is stored under that name
 */
export async function loadBytes(name, opts = {}) {
  checkName(name);
  const backend = await storageBackend(opts);
  if (backend === 'node') {
    const fs = nodeBuiltin('fs/promises');
    const path = nodeBuiltin('path');
    try {
      const b = await fs.readFile(path.join(await nodeDir(opts), name));
      return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    } catch (e) {
      if (e && e.code === 'ENOENT') return null;
      throw e;
    }
  }
  if (backend === 'opfs') {
    const root = await navigator.storage.getDirectory();
    try {
      const fh = await root.getFileHandle(name);
      return new Uint8Array(await (await fh.getFile()).arrayBuffer());
    } catch (e) {
      if (e && e.name === 'NotFoundError') return null;
      throw e;
    }
  }
  const v = await idbRun('readonly', (s) => s.get(name));
  return v === undefined ? null : new Uint8Array(v);
}

/**
 * Deletes a stored name (no error when it does not exist).
 * @param {string} name
 * @param {{dir?: string, backend?: 'node'|'opfs'|'indexeddb'}} [opts]
 * @returns {Promise<boolean>} true when something was deleted
 */
export async function removeBytes(name, opts = {}) {
  checkName(name);
  const backend = await storageBackend(opts);
  if (backend === 'node') {
    const fs = nodeBuiltin('fs/promises');
    const path = nodeBuiltin('path');
    try {
      await fs.unlink(path.join(await nodeDir(opts), name));
      return true;
    } catch (e) {
      if (e && e.code === 'ENOENT') return false;
      throw e;
    }
  }
  if (backend === 'opfs') {
    const root = await navigator.storage.getDirectory();
    try {
      await root.removeEntry(name);
      return true;
    } catch (e) {
      if (e && e.name === 'NotFoundError') return false;
      throw e;
    }
  }
  const existed = (await idbRun('readonly', (s) => s.getKey(name))) !== undefined;
  await idbRun('readwrite', (s) => s.delete(name));
  return existed;
}

/**
 * Names currently stored (sorted).
 * @param {{dir?: string, backend?: 'node'|'opfs'|'indexeddb'}} [opts]
 * @returns {Promise<string[]>}
 */
export async function listStored(opts = {}) {
  const backend = await storageBackend(opts);
  let names = [];
  if (backend === 'node') {
    const fs = nodeBuiltin('fs/promises');
    try {
      names = await fs.readdir(await nodeDir(opts));
    } catch (e) {
      if (e && e.code === 'ENOENT') return [];
      throw e;
    }
  } else if (backend === 'opfs') {
    const root = await navigator.storage.getDirectory();
    for await (const [n, h] of root.entries()) if (h.kind === 'file') names.push(n);
  } else {
    names = (await idbRun('readonly', (s) => s.getAllKeys())).map(String);
  }
  return names.filter((n) => NAME_RE.test(n) && !n.includes('.tmp-')).sort();
}

/**
 * @internal The named-storage half of every saved object: `save(name, opts)` writes `obj.toBytes()`
 * atomically under `name`; `static load(name, opts)` reads it back (docs/api.md).
 * @param {{toBytes: () => Uint8Array}} obj
 * @param {string} name
 * @param {{dir?: string, backend?: 'node'|'opfs'|'indexeddb'}} [opts]
 * @returns {Promise<void>}
 */
export async function saveNamed(obj, name, opts = {}) {
  checkName(name);
  options(opts);
  await saveBytes(name, obj.toBytes(), opts);
}

/**
 * @internal Reads the bytes stored under `name` for `static load(name, opts)`.
 * @param {string} name
 * @param {{dir?: string, backend?: 'node'|'opfs'|'indexeddb'}|undefined} opts
 * @param {string} what the object kind for the NOT_FOUND message, e.g. 'Bm25Index'
 * @returns {Promise<Uint8Array>}
 * @throws {RagwasmError} NOT_FOUND when nothing is stored under `name`
 */
export async function loadNamed(name, opts, what) {
  const bytes = await loadBytes(name, opts ?? {});
  if (bytes === null) throw new RagwasmError('NOT_FOUND', `ragwasm: no ${what} stored under "${name}"`);
  return bytes;
}
