// @ts-check
// Model files by name from a model hub laid out like Hugging Face's (<hub>/<repo>/resolve/<revision>/<path>),
// as createOnnxEmbedder('bge-small-en-v1.5') needs them: looked up in models/manifest.json, read from the
// cache when there (no request), else downloaded with progress, checked against the manifest's size and
// sha256 when it pins them, and only then cached (Cache Storage in browsers, a folder in Node), so a
// file that fails its check is never kept and a cached model works offline.
import { RagwasmError } from '../core/errors.js';
import { expectBoolean, expectFunction, expectOptions, expectString, invalid, isPlainObject } from '../core/validate.js';
import { isNode, nodeBuiltin } from '../core/node.js';
import { MODEL_MANIFEST } from './model-manifest.js';

/** The default hub: Hugging Face. */
export const DEFAULT_HUB_URL = 'https://huggingface.co';
/** Cache Storage name of downloaded model files in browsers (keyed by URL). */
export const MODEL_CACHE_NAME = 'ragwasm-models-v1';
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

/**
 * The manifest entry of a model name.
 * @param {string} name e.g. 'bge-small-en-v1.5'
 * @param {object} [manifest] models/manifest.json (parsed) or its `models` map (default: the built-in copy)
 * @returns {object} the entry
 * @throws {RagwasmError} INVALID_ARGUMENT (a name not in the manifest, listing the names)
 */
export function modelEntry(name, manifest = MODEL_MANIFEST, what = 'model name') {
  const models = isPlainObject(manifest) && isPlainObject(manifest.models) ? manifest.models : manifest;
  if (!isPlainObject(models)) throw invalid('options.manifest', 'models/manifest.json (parsed) or its models map', manifest);
  const entry = Object.hasOwn(models, name) ? models[name] : undefined;
  if (!isPlainObject(entry)) throw invalid(what, `a model of the manifest (${Object.keys(models).join(', ')})`, name);
  return entry;
}

/** Total bytes the manifest pins for a model's files, or null when any file's size is not pinned. */
export function modelDownloadBytes(entry) {
  // the entry is checked before any property of it is read (a caller's value may be a revoked Proxy)
  const files = Object.values(isPlainObject(entry) && isPlainObject(entry.files) ? entry.files : {});
  if (files.length === 0) return null;
  let total = 0;
  for (const f of files) {
    if (!Number.isInteger(f?.bytes)) return null;
    total += f.bytes;
  }
  return total;
}

function pathSegments(value, what) {
  expectString(value, what, { allowEmpty: false, maxLength: 500 });
  const parts = value.split('/');
  // No '..', no absolute paths, no URL syntax: each part is a plain name (the Node cache is a folder tree of them).
  if (!parts.every((p) => SEGMENT.test(p))) throw invalid(what, "names of A-Z a-z 0-9 . _ - joined by '/'", value);
  return parts;
}

/**
 * Where each file of a manifest entry is on the hub.
 * @param {object} entry a manifest entry with `repo`, `revision` and `files: {name: {path, bytes, sha256}}`
 * @param {{hubUrl?: string, revision?: string}} [options] hubUrl: the hub's base URL (default
 *   https://huggingface.co) or a template with {repo}, {revision} and {path}; revision overrides the entry's
 * @returns {Array<{file: string, path: string, url: string, bytes: number|null, sha256: string|null, cacheKey: string[]}>}
 * @throws {RagwasmError} INVALID_ARGUMENT (an entry without repo or files, a bad hubUrl)
 */
export function modelFileUrls(entry, options = {}) {
  const hubUrl = options.hubUrl ?? DEFAULT_HUB_URL;
  expectString(hubUrl, 'options.hubUrl', { allowEmpty: false, maxLength: 2000 });
  const repo = pathSegments(entry.repo, 'manifest entry repo');
  const revision = pathSegments(options.revision ?? entry.revision ?? 'main', 'revision');
  if (!isPlainObject(entry.files) || Object.keys(entry.files).length === 0) {
    throw invalid('manifest entry files', 'files to download ({name: {path, bytes, sha256}})', entry.files);
  }
  return Object.entries(entry.files).map(([file, spec]) => {
    const path = pathSegments(spec?.path ?? file, `manifest file ${file} path`);
    const vars = { repo: repo.join('/'), revision: revision.join('/'), path: path.join('/') };
    const raw = hubUrl.includes('{') ? hubUrl.replace(/\{(repo|revision|path)\}/g, (_, k) => vars[k])
      : `${hubUrl.replace(/\/+$/, '')}/${vars.repo}/resolve/${vars.revision}/${vars.path}`;
    let url;
    try {
      url = new URL(raw);
    } catch {
      throw invalid('options.hubUrl', 'an absolute http(s) URL or a template with {repo}, {revision} and {path}', hubUrl);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('options.hubUrl', 'an http(s) URL', hubUrl);
    const bytes = spec?.bytes ?? null;
    const sha256 = spec?.sha256 ?? null;
    if (bytes !== null && (!Number.isInteger(bytes) || bytes < 0)) throw invalid(`manifest file ${file} bytes`, 'a byte count or null', bytes);
    if (sha256 !== null && !/^[0-9a-f]{64}$/.test(sha256)) throw invalid(`manifest file ${file} sha256`, '64 lowercase hex digits or null', sha256);
    const host = url.host.replace(/[^A-Za-z0-9._-]/g, '_');
    return { file, path: vars.path, url: url.href, bytes, sha256, cacheKey: [host, ...repo, ...revision, ...path] };
  });
}

async function sha256Hex(bytes) {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new RagwasmError('UNSUPPORTED_ENVIRONMENT', 'ragwasm: checking a model file\'s sha256 needs crypto.subtle (a secure context: https or localhost)');
  const d = new Uint8Array(await subtle.digest('SHA-256', bytes));
  return Array.from(d, (b) => b.toString(16).padStart(2, '0')).join('');
}

// The size and sha256 check: null when the bytes are what the manifest pins, else the mismatch.
async function mismatch(f, bytes) {
  if (f.bytes !== null && bytes.length !== f.bytes) return `expected ${f.bytes} bytes, got ${bytes.length}`;
  if (f.sha256 !== null) {
    const got = await sha256Hex(bytes);
    if (got !== f.sha256) return `expected sha256 ${f.sha256}, got ${got}`;
  }
  return null;
}

/** The Node cache folder: options.cacheDir, else $RAGWASM_CACHE, else ~/.cache/ragwasm. @internal */
export function nodeCacheDir(cacheDir) {
  if (cacheDir !== undefined) return expectString(cacheDir, 'options.cacheDir', { allowEmpty: false });
  if (process.env.RAGWASM_CACHE) return process.env.RAGWASM_CACHE;
  return nodeBuiltin('path').join(nodeBuiltin('os').homedir(), '.cache', 'ragwasm');
}

// The cache: get(f) -> bytes | null, put(f, bytes), drop(f). Best effort: a cache that cannot be opened
// or written (private mode, quota, a read-only folder) only means downloading again.
async function openCache(enabled, cacheDir) {
  const none = { get: async () => null, put: async () => {}, drop: async () => {} };
  if (!enabled) return none;
  if (isNode) {
    const path = nodeBuiltin('path');
    const fs = nodeBuiltin('fs/promises');
    const dir = nodeCacheDir(cacheDir);
    const where = (f) => path.join(dir, ...f.cacheKey);
    return {
      async get(f) {
        try {
          return new Uint8Array(await fs.readFile(where(f)));
        } catch {
          return null;
        }
      },
      async put(f, bytes) {
        const dest = where(f);
        const tmp = `${dest}.tmp-${Math.random().toString(36).slice(2)}`;
        try {
          await fs.mkdir(path.dirname(dest), { recursive: true });
          await fs.writeFile(tmp, bytes);
          await fs.rename(tmp, dest);  // atomic: a reader sees the whole file or none
        } catch {
          await fs.rm(tmp, { force: true }).catch(() => {});
        }
      },
      async drop(f) {
        await fs.rm(where(f), { force: true }).catch(() => {});
      },
    };
  }
  if (typeof caches === 'undefined') return none;
  let store;
  try {
    store = await caches.open(MODEL_CACHE_NAME);
  } catch {
    return none;
  }
  return {
    async get(f) {
      try {
        const hit = await store.match(f.url);
        return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
      } catch {
        return null;
      }
    },
    async put(f, bytes) {
      try {
        await store.put(f.url, new Response(bytes, { headers: { 'content-type': 'application/octet-stream' } }));
      } catch {
        // Quota full or storage refused: the model still loads, it is just downloaded again next time.
      }
    },
    async drop(f) {
      try { await store.delete(f.url); } catch { /* nothing to drop */ }
    },
  };
}

async function download(f, { fetchFn, signal, onProgress }) {
  let res;
  try {
    res = await fetchFn(f.url, signal ? { signal } : {});
  } catch (e) {
    if (signal?.aborted) throw new RagwasmError('ABORTED', `ragwasm: downloading ${f.path} aborted`, { cause: e });
    throw new RagwasmError('NETWORK', `ragwasm: model file ${f.path}: cannot fetch ${f.url}: ${e?.message ?? e}`, { cause: e });
  }
  if (!res.ok) throw new RagwasmError('HTTP', `ragwasm: model file ${f.path}: ${f.url} answered HTTP ${res.status}`, { status: res.status });
  const header = Number(res.headers.get('content-length'));
  const total = f.bytes ?? (Number.isInteger(header) && header > 0 ? header : null);
  const parts = [];
  let loaded = 0;
  try {
    if (!res.body || typeof res.body.getReader !== 'function') {
      const all = new Uint8Array(await res.arrayBuffer());
      parts.push(all);
      loaded = all.length;
      if (onProgress) onProgress({ file: f.path, loaded, total, cached: false });
    } else {
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parts.push(value);
        loaded += value.length;
        if (f.bytes !== null && loaded > f.bytes) {
          await reader.cancel().catch(() => {});
          throw new RagwasmError('INTEGRITY', `ragwasm: model file ${f.path} (${f.url}): expected ${f.bytes} bytes, got more; not cached`);
        }
        if (onProgress) onProgress({ file: f.path, loaded, total, cached: false });
      }
    }
  } catch (e) {
    if (e instanceof RagwasmError) throw e;
    if (signal?.aborted) throw new RagwasmError('ABORTED', `ragwasm: downloading ${f.path} aborted`, { cause: e });
    throw new RagwasmError('NETWORK', `ragwasm: model file ${f.path}: the download from ${f.url} broke off after ${loaded} bytes: ${e?.message ?? e}`, { cause: e });
  }
  const bytes = new Uint8Array(loaded);
  let at = 0;
  for (const p of parts) { bytes.set(p, at); at += p.length; }
  if (onProgress && parts.length === 0) onProgress({ file: f.path, loaded, total, cached: false });  // an empty file: one event
  return bytes;
}

/**
 * The files of a manifest model, from the cache or the hub (in manifest order, one at a time).
 * @example
 * const { files } = await fetchModelFiles('bge-small-en-v1.5', { onProgress: (p) => console.log(p.file, p.loaded, p.total) });
 * @param {string} name a model of the manifest
 * @param {object} [options]
 * @param {object} [options.manifest] models/manifest.json (parsed) or its `models` map (default: the built-in copy)
 * @param {string} [options.hubUrl='https://huggingface.co'] the hub's base URL, or a template with {repo}, {revision}, {path}
 * @param {string} [options.remoteHost] the same as hubUrl (transformers.js's name)
 * @param {string} [options.revision] overrides the entry's revision (default 'main')
 * @param {boolean} [options.cache=true] read and keep files in the cache (Cache Storage in browsers; in Node a folder)
 * @param {string} [options.cacheDir] Node: the cache folder (default $RAGWASM_CACHE, else ~/.cache/ragwasm)
 * @param {(p: {file: string, loaded: number, total: number|null, cached: boolean}) => void} [options.onProgress]
 *   per received chunk of a download (total: the pinned size, else Content-Length, else null); once per cached file
 * @param {AbortSignal} [options.signal]
 * @param {typeof fetch} [options.fetch] fetch implementation (default globalThis.fetch)
 * @returns {Promise<{entry: object, files: Record<string, Uint8Array>, downloaded: string[], cached: string[]}>} files by
 *   manifest name (e.g. 'model.onnx'); downloaded / cached: the paths that came from the hub / the cache
 * @throws {RagwasmError} INVALID_ARGUMENT (unknown name, bad options), NETWORK, HTTP, ABORTED, INTEGRITY (a size or
 *   sha256 that is not the manifest's; the message names the file and both values; nothing is cached)
 */
export async function fetchModelFiles(name, options = {}) {
  const o = expectOptions(options, 'fetchModelFiles options', ['manifest', 'hubUrl', 'remoteHost', 'revision', 'cache', 'cacheDir', 'onProgress', 'signal', 'fetch']);
  expectString(name, 'name', { allowEmpty: false, maxLength: 200 });
  if (o.hubUrl !== undefined && o.remoteHost !== undefined && o.hubUrl !== o.remoteHost) {
    throw invalid('options.remoteHost', 'left out (it is another name of options.hubUrl)', o.remoteHost);
  }
  const entry = modelEntry(name, o.manifest ?? MODEL_MANIFEST, 'name');
  if (!isPlainObject(entry.files) || Object.keys(entry.files).length === 0) {
    throw invalid('name', `a model with files to download (${name} is ${entry.build ? `built locally: ${entry.build}` : 'not downloadable'})`, name);
  }
  const list = modelFileUrls(entry, { hubUrl: o.hubUrl ?? o.remoteHost, revision: o.revision });
  const cacheOn = o.cache === undefined ? true : expectBoolean(o.cache, 'options.cache');
  const onProgress = o.onProgress === undefined ? null : expectFunction(o.onProgress, 'options.onProgress');
  const fetchFn = o.fetch === undefined ? globalThis.fetch?.bind(globalThis) : expectFunction(o.fetch, 'options.fetch');
  if (!fetchFn) throw new RagwasmError('UNSUPPORTED_ENVIRONMENT', 'ragwasm: no fetch() in this environment; pass options.fetch');
  const cache = await openCache(cacheOn, o.cacheDir);
  /** @type {Record<string, Uint8Array>} */
  const files = {};
  const downloaded = [];
  const cached = [];
  for (const f of list) {
    if (o.signal?.aborted) throw new RagwasmError('ABORTED', `ragwasm: downloading ${name} aborted`);
    const hit = await cache.get(f);
    if (hit !== null) {
      if ((await mismatch(f, hit)) === null) {
        files[f.file] = hit;
        cached.push(f.path);
        if (onProgress) onProgress({ file: f.path, loaded: hit.length, total: hit.length, cached: true });
        continue;
      }
      await cache.drop(f);  // a cached file that no longer passes (e.g. the manifest pinned it since): download again
    }
    const bytes = await download(f, { fetchFn, signal: o.signal, onProgress });
    const bad = await mismatch(f, bytes);
    if (bad !== null) throw new RagwasmError('INTEGRITY', `ragwasm: model file ${f.path} of ${name} (${f.url}): ${bad}; not cached`, { file: f.path });
    await cache.put(f, bytes);
    files[f.file] = bytes;
    downloaded.push(f.path);
  }
  return { entry, files, downloaded, cached };
}
