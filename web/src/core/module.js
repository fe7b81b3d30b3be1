// Loads the WASM module once per realm (page, Worker or Node process). `await init()` before any
// other call; calls made before it throw NOT_INITIALIZED instead of crashing.
import { RagwasmError } from './errors.js';
import { expectEnum, expectOptions } from './validate.js';

let loading = null;
let loaded = null;
let loadedVariant = null;

const isNode = typeof process !== 'undefined' && !!(process.versions && process.versions.node) &&
  typeof window === 'undefined' && typeof importScripts === 'undefined';

function defaultVariant() {
  if (isNode && process.env.RAGWASM_BUILD) return process.env.RAGWASM_BUILD;
  return 'release';
}

/**
 * Loads and instantiates the WASM module. Idempotent: later calls return the same module.
 * @param {object} [options]
 * @param {'release'|'debug'} [options.build] which build to load (default 'release'; in Node the
 *   RAGWASM_BUILD environment variable sets the default). 'debug' has -sASSERTIONS=2 checks.
 * @param {ArrayBuffer|Uint8Array} [options.wasmBinary] the .wasm bytes, when the caller has them
 * @param {string|URL} [options.baseUrl] folder holding ragwasm.mjs/.wasm (default: web/dist/ next to
 *   this package, or web/dist/debug/)
 * @returns {Promise<{version: string, build: string}>}
 * @throws {RagwasmError} INVALID_ARGUMENT for bad options or a second init() asking for another build;
 *   UNSUPPORTED_ENVIRONMENT when WebAssembly is missing; INTERNAL when the module fails to load
 */
export async function init(options = {}) {
  expectOptions(options, 'init options', ['build', 'wasmBinary', 'baseUrl']);
  const variant = options.build === undefined ? defaultVariant() : options.build;
  expectEnum(variant, 'init options.build', ['release', 'debug']);
  if (loadedVariant !== null && loadedVariant !== variant) {
    throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: init options.build: the '${loadedVariant}' build is already loaded in this realm, got '${variant}'`);
  }
  if (!loading) {
    loadedVariant = variant;
    loading = load(variant, options).then((m) => { loaded = m; return m; }, (e) => { loading = null; loadedVariant = null; throw e; });
  }
  const m = await loading;
  return { version: m.version(), build: variant };
}

async function load(variant, options) {
  if (typeof WebAssembly !== 'object') {
    throw new RagwasmError('UNSUPPORTED_ENVIRONMENT', 'ragwasm: WebAssembly is not available in this environment');
  }
  let baseUrl = options.baseUrl;
  // In Node, RAGWASM_DIST (a folder path) points tests at another build's output.
  if (baseUrl === undefined && isNode && process.env.RAGWASM_DIST) {
    const { pathToFileURL } = await import('node:url');
    baseUrl = pathToFileURL(process.env.RAGWASM_DIST.replace(/\/?$/, '/')).href;
  }
  const base = baseUrl !== undefined
    ? new URL(String(baseUrl).replace(/\/?$/, '/'), import.meta.url)
    : new URL(variant === 'debug' ? '../../dist/debug/' : '../../dist/', import.meta.url);
  let wasmBinary = options.wasmBinary;
  try {
    if (isNode && wasmBinary === undefined) {
      const fs = await import('node:fs');
      wasmBinary = fs.readFileSync(new URL('ragwasm.wasm', base));
      if (variant === 'debug') {
        // The assertion build is compiled for web,worker,node and expects CommonJS globals (TOOLCHAIN.md pitfall 4).
        const { createRequire } = await import('node:module');
        const { fileURLToPath } = await import('node:url');
        globalThis.require ??= createRequire(import.meta.url);
        globalThis.__dirname ??= fileURLToPath(base);
      }
    }
    const factory = (await import(new URL('ragwasm.mjs', base).href)).default;
    const moduleOptions = { locateFile: (path) => new URL(path, base).href };
    if (wasmBinary !== undefined) moduleOptions.wasmBinary = wasmBinary;
    return await factory(moduleOptions);
  } catch (e) {
    throw new RagwasmError('INTERNAL', `ragwasm: could not load the WASM module from ${base.href}: ${e && e.message ? e.message : e}` +
      ' (build it with `npm run build`)', { cause: e });
  }
}

/** The instantiated module; throws NOT_INITIALIZED before init() has finished. @internal */
export function wasm() {
  if (loaded === null) {
    throw new RagwasmError('NOT_INITIALIZED', 'ragwasm: call `await init()` first');
  }
  return loaded;
}

/** True once init() has finished. */
export function isInitialized() {
  return loaded !== null;
}
