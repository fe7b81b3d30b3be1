export interface InitOptions {
  /** Which build to load: 'release' (default; RAGWASM_BUILD in Node) or 'debug' (-sASSERTIONS=2, repository checkouts only). */
  build?: 'release' | 'debug';
  /**
   * Where to fetch ragwasm.wasm (default: the package's web/dist/ragwasm.wasm, which Vite and webpack
   * copy into the build). For a CDN, a CSP, esbuild or Rollup: serve the file yourself and pass its URL.
   * A string without a scheme is a file path in Node.
   */
  wasmUrl?: string | URL;
  /** The .wasm bytes, when the caller already has them (no fetch). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /**
   * The compiled module, or a Promise of it: e.g. `WebAssembly.compileStreaming(fetch(url))` begun
   * before the library's JS has loaded (the download and compile overlap the imports), or a Module
   * posted from another thread. Not with wasmBinary.
   */
  wasmModule?: WebAssembly.Module | Promise<WebAssembly.Module>;
  /** Folder holding ragwasm.mjs and ragwasm.wasm of another build (RAGWASM_DIST in Node). */
  baseUrl?: string | URL;
}
/** Loads the WASM module once per realm; later calls return at once. */
export function init(options?: InitOptions): Promise<{ version: string; build: 'release' | 'debug' }>;
/** True once init() has finished. */
export function isInitialized(): boolean;
/** @internal The loaded Embind module (library modules only); NOT_INITIALIZED before init(). */
export function wasm(): any;
