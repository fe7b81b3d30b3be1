// @ts-check
// Facts about the loaded module: version, build, limits.
import { callWasm } from './errors.js';
import { wasm } from './module.js';

/**
 * @returns {{version: string, maxTextBytes: number, maxJsonDepth: number, maxAlignmentCells: number,
 *   maxJudgeReplyBytes: number, simd: boolean, exceptions: string}}
 *   maxJsonDepth: deepest JSON nesting accepted (LIMIT_EXCEEDED beyond); maxAlignmentCells: most
 *   dynamic-programming cells of one anls / rougeL / evidence alignment (LIMIT_EXCEEDED beyond)
 * @throws {RagwasmError} NOT_INITIALIZED before init()
 */
export function info() {
  const m = wasm();
  return callWasm(() => m.info());
}
