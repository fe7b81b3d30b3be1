export interface InitOptions {
  /** Which build to load: 'release' (default; RAGWASM_BUILD in Node) or 'debug' (-sASSERTIONS=2). */
  build?: 'release' | 'debug';
  /** The .wasm bytes, when the caller already has them. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** Folder holding ragwasm.mjs and ragwasm.wasm (default: web/dist/ beside this package). */
  baseUrl?: string | URL;
}
/** Loads the WASM module once per realm; later calls return at once. */
export function init(options?: InitOptions): Promise<{ version: string; build: 'release' | 'debug' }>;
/** True once init() has finished. */
export function isInitialized(): boolean;
