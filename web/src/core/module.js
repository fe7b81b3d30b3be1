// @ts-check
// Loads the WASM module once per realm (page, Worker or Node process). `await init()` before any
// other call; calls made before it throw NOT_INITIALIZED instead of crashing.
//
// Bundlers find the module through two static forms only: the glue is imported by a literal path,
// and the .wasm is named by a `new URL('<literal>', import.meta.url)`, which Vite, webpack 5 and
// Parcel copy into the build and rewrite (esbuild and Rollup leave it: copy the file and pass
// init({ wasmUrl }), see docs/install.md). The debug build (-sASSERTIONS=2, repository only) and
// RAGWASM_DIST builds are reached by computed URLs no bundler follows.
import createRagwasmModule from '../../dist/ragwasm.mjs';
import { RagwasmError } from './errors.js';
import { expectEnum, expectOptions, invalid } from './validate.js';
import { isNode, nodeBuiltin } from './node.js';

/** Where the release .wasm is published, next to its glue (a literal bundlers rewrite). */
const RELEASE_WASM_URL = new URL('../../dist/ragwasm.wasm', import.meta.url);
// Computed, and resolved against a copy of import.meta.url (webpack treats `new URL(<expression>,
// import.meta.url)` as a request for every file in the folder), so no bundler tries to include the
// unpublished 35 MB debug build.
const DEBUG_DIR = ['..', '..', 'dist', 'debug', ''].join('/');
const HERE = import.meta.url;
const HELP = 'see docs/install.md in the ragwasm package';

let loading = null;
let loaded = null;
let loadedVariant = null;

function defaultVariant() {
  if (isNode && process.env.RAGWASM_BUILD) return process.env.RAGWASM_BUILD;
  return 'release';
}

/**
 * Loads and instantiates the WASM module. Idempotent: later calls return the same module.
 * @param {object} [options]
 * @param {'release'|'debug'} [options.build] which build to load (default 'release'; in Node the
 *   RAGWASM_BUILD environment variable sets the default). 'debug' (-sASSERTIONS=2) exists only in a
 *   repository checkout, not in the published package.
 * @param {string|URL} [options.wasmUrl] where to fetch ragwasm.wasm (default: the file next to the
 *   glue in the package, which Vite and webpack copy into the build). For a CDN, a CSP that limits
 *   connect-src, or a bundler that does not copy it (esbuild, Rollup): serve the package's
 *   web/dist/ragwasm.wasm yourself and pass its URL. A path string is a file path in Node.
 * @param {ArrayBuffer|Uint8Array} [options.wasmBinary] the .wasm bytes, when the caller has them
 *   (no fetch at all; e.g. bytes kept in IndexedDB, or read by a host that forbids fetch)
 * @param {WebAssembly.Module|Promise<WebAssembly.Module>} [options.wasmModule] the compiled module, or
 *   a Promise of it (e.g. `WebAssembly.compileStreaming(fetch(url))` begun before the library's JS
 *   loaded, so the two overlap; or a Module posted from another thread); not with wasmBinary
 * @param {string|URL} [options.baseUrl] folder holding both ragwasm.mjs and ragwasm.wasm of another
 *   build (in Node the RAGWASM_DIST environment variable, a folder path, sets it)
 * The first call that loads the module marks `ragwasm:init:start` and, once it is ready, measures
 * `ragwasm:init` on the realm's performance timeline (DevTools Performance panel,
 * `performance.getEntriesByName('ragwasm:init')`): fetch, compile and instantiate of the .wasm (with
 * wasmModule: the wait for the module, then instantiate).
 * @returns {Promise<{version: string, build: 'debug'|'release'}>}
 * @throws {RagwasmError} INVALID_ARGUMENT for bad options or a second init() asking for another build;
 *   UNSUPPORTED_ENVIRONMENT when WebAssembly is missing; NOT_FOUND / HTTP / NETWORK when the .wasm
 *   cannot be read (the message names the URL and how to serve it); INTERNAL when it does not load
 */
export async function init(options = {}) {
  expectOptions(options, 'init options', ['build', 'wasmBinary', 'wasmModule', 'wasmUrl', 'baseUrl']);
  const variant = expectEnum(options.build === undefined ? defaultVariant() : options.build, 'init options.build', ['release', 'debug']);
  if (options.wasmBinary !== undefined && !(options.wasmBinary instanceof ArrayBuffer || options.wasmBinary instanceof Uint8Array)) {
    throw invalid('init options.wasmBinary', 'an ArrayBuffer or Uint8Array', options.wasmBinary);
  }
  if (options.wasmModule !== undefined && options.wasmBinary !== undefined) {
    throw new RagwasmError('INVALID_ARGUMENT', 'ragwasm: init options: give wasmBinary or wasmModule, not both');
  }
  if (options.wasmModule !== undefined && !(options.wasmModule instanceof WebAssembly.Module) && typeof options.wasmModule?.then !== 'function') {
    throw invalid('init options.wasmModule', 'a WebAssembly.Module or a Promise of one', options.wasmModule);
  }
  for (const key of ['wasmUrl', 'baseUrl']) {
    const v = options[key];
    if (v !== undefined && typeof v !== 'string' && !(v instanceof URL)) throw invalid(`init options.${key}`, 'a URL or string', v);
  }
  if (loadedVariant !== null && loadedVariant !== variant) {
    throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: init options.build: the '${loadedVariant}' build is already loaded in this realm, got '${variant}'`);
  }
  if (!loading) {
    loadedVariant = variant;
    timeline('mark', 'ragwasm:init:start');
    loading = load(variant, options).then((m) => {
      loaded = m;
      timeline('measure', 'ragwasm:init', 'ragwasm:init:start');
      return m;
    }, (e) => { loading = null; loadedVariant = null; throw e; });
  }
  const m = await loading;
  return { version: m.version(), build: variant };
}

// A User Timing entry, where the realm has the API (never fails: timing is only informative).
function timeline(kind, name, start) {
  try {
    if (typeof performance === 'undefined' || typeof performance[kind] !== 'function') return;
    if (kind === 'mark') performance.mark(name);
    else performance.measure(name, start);
  } catch { /* a realm without User Timing marks */ }
}

// A folder URL from a user string: a file path in Node, else a URL relative to the page.
function toUrl(value, folder) {
  const s = String(value);
  const text = folder ? s.replace(/\/?$/, '/') : s;
  if (isNode && !(value instanceof URL) && !/^[A-Za-z][A-Za-z0-9+.-]+:/.test(s)) {
    const path = nodeBuiltin('path');
    return nodeBuiltin('url').pathToFileURL(path.resolve(s) + (folder ? path.sep : ''));
  }
  return new URL(text, typeof location !== 'undefined' ? location.href : HERE);
}

async function load(variant, options) {
  if (typeof WebAssembly !== 'object') {
    throw new RagwasmError('UNSUPPORTED_ENVIRONMENT', 'ragwasm: WebAssembly is not available in this environment');
  }
  let base = null; // a folder holding another build's glue + wasm; null = the bundled release build
  if (options.baseUrl !== undefined) base = toUrl(options.baseUrl, true);
  else if (isNode && process.env.RAGWASM_DIST) base = toUrl(process.env.RAGWASM_DIST, true);
  else if (variant === 'debug') base = new URL(DEBUG_DIR, HERE);
  const wasmUrl = options.wasmUrl !== undefined ? toUrl(options.wasmUrl, false)
    : base ? new URL('ragwasm.wasm', base) : RELEASE_WASM_URL;
  const repoBuild = base !== null && options.baseUrl === undefined;

  const compiled = options.wasmModule !== undefined ? await givenModule(options.wasmModule)
    : await compileWasm(options.wasmBinary, wasmUrl, repoBuild);
  let factory = createRagwasmModule;
  if (base !== null) {
    const glue = new URL('ragwasm.mjs', base);
    try {
      if (isNode && variant === 'debug') {
        // The assertion build is compiled for web,worker,node and expects CommonJS globals (TOOLCHAIN.md pitfall 4).
        globalThis.require ??= nodeBuiltin('module').createRequire(HERE);
        globalThis.__dirname ??= nodeBuiltin('url').fileURLToPath(base);
      }
      factory = (await import(/* @vite-ignore */ /* webpackIgnore: true */ glue.href)).default;
    } catch (e) {
      throw new RagwasmError('NOT_FOUND', `ragwasm: init: could not import the WASM glue ${glue.href}: ${e && e.message ? e.message : e}` +
        (repoBuild ? ' (in a repository checkout, build it with `bash scripts/build.sh wasm`)' : ''), { cause: e });
    }
  }
  let failInstantiate;
  const failed = new Promise((resolve, reject) => { failInstantiate = reject; });
  const moduleOptions = {
    // We compiled the module ourselves (clear errors, no console noise); the glue only instantiates it.
    instantiateWasm(imports, receive) {
      WebAssembly.instantiate(compiled, imports).then((instance) => receive(instance, compiled), failInstantiate);
      return {};
    },
    locateFile: (path) => new URL(path, wasmUrl).href,
  };
  try {
    return await Promise.race([factory(moduleOptions), failed]);
  } catch (e) {
    throw new RagwasmError('INTERNAL', `ragwasm: init: the WASM module from ${wasmUrl.href} did not start (is it the same build as its glue?): ${e && e.message ? e.message : e}`, { cause: e });
  }
}

// init({ wasmModule }): a module the caller compiled (or is compiling: a Promise, e.g. compileStreaming
// begun before the library's own JS loaded, or a Module posted from another thread).
async function givenModule(given) {
  let m;
  try {
    m = await given;
  } catch (e) {
    throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: init options.wasmModule: the Promise was rejected: ${e && e.message ? e.message : e}`, { cause: e });
  }
  if (!(m instanceof WebAssembly.Module)) throw invalid('init options.wasmModule', 'a WebAssembly.Module or a Promise of one', m);
  return m;
}

// Compiles the module from given bytes, a file (Node) or a fetch (streaming when served as application/wasm).
async function compileWasm(wasmBinary, url, repoBuild) {
  const fix = repoBuild ? 'in a repository checkout, build it with `bash scripts/build.sh wasm`'
    : `serve the package's web/dist/ragwasm.wasm and pass its URL as init({ wasmUrl }), or its bytes as init({ wasmBinary }); ${HELP}`;
  const notWasm = (e, what) => new RagwasmError('INTERNAL', `ragwasm: init: ${url.href} ${what} is not a WebAssembly module (${e && e.message ? e.message : e}); ${fix}`, { cause: e });
  if (wasmBinary !== undefined) {
    try {
      return await WebAssembly.compile(wasmBinary);
    } catch (e) {
      throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: init options.wasmBinary: not a WebAssembly module: ${e && e.message ? e.message : e}`, { cause: e });
    }
  }
  if (isNode && url.protocol === 'file:') {
    let bytes;
    try {
      bytes = await nodeBuiltin('fs/promises').readFile(url);
    } catch (e) {
      throw new RagwasmError('NOT_FOUND', `ragwasm: init: cannot read the WASM file ${nodeBuiltin('url').fileURLToPath(url)} (${e.code ?? e.message}); ${fix}`, { cause: e });
    }
    try {
      return await WebAssembly.compile(bytes);
    } catch (e) {
      throw notWasm(e, '');
    }
  }
  let res;
  try {
    res = await fetch(url.href, { credentials: 'same-origin' });
  } catch (e) {
    throw new RagwasmError('NETWORK', `ragwasm: init: cannot fetch the WASM file ${url.href} (${e && e.message ? e.message : e}); ${fix}`, { cause: e });
  }
  if (!res.ok) {
    throw new RagwasmError('HTTP', `ragwasm: init: the WASM file ${url.href} answered HTTP ${res.status}; ${fix}`);
  }
  const type = res.headers.get('content-type') ?? '';
  try {
    if (type.startsWith('application/wasm') && typeof WebAssembly.compileStreaming === 'function') return await WebAssembly.compileStreaming(res);
    return await WebAssembly.compile(await res.arrayBuffer());
  } catch (e) {
    throw notWasm(e, `(served as ${type || 'no content-type'})`);
  }
}

/** The instantiated module; throws NOT_INITIALIZED before init() has finished. @internal */
export function wasm() {
  if (loaded === null) {
    throw new RagwasmError('NOT_INITIALIZED', "ragwasm: call `await init()` first (import { init } from 'ragwasm'; it loads the WASM module once)");
  }
  return loaded;
}

/** True once init() has finished. */
export function isInitialized() {
  return loaded !== null;
}
