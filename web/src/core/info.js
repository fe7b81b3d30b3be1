// Facts about the loaded module: version, build, limits.
import { callWasm } from './errors.js';
import { wasm } from './module.js';

/**
 * @returns {{version: string, maxTextBytes: number, simd: boolean, exceptions: string}}
 * @throws {RagwasmError} NOT_INITIALIZED before init()
 */
export function info() {
  const m = wasm();
  return callWasm(() => m.info());
}
