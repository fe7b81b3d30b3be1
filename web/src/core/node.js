// @ts-check
// Node built-ins without an `import` statement: `process.getBuiltinModule` (Node >= 20.16) is a
// run-time call, so no bundler sees a `node:` specifier in the browser graph (no stubs, no
// "Could not resolve node:fs" errors) while Node code paths still reach fs, path and url.
import { RagwasmError } from './errors.js';

/** True in Node (not in a page, a Worker, or a bundled browser app). @internal */
export const isNode = typeof process !== 'undefined' && !!(process.versions && process.versions.node) &&
  typeof window === 'undefined' && typeof importScripts === 'undefined';

/**
 * A Node built-in module by name ('fs', 'fs/promises', 'path', 'url', 'module').
 * @internal
 * @throws {RagwasmError} UNSUPPORTED_ENVIRONMENT outside Node or on a Node without getBuiltinModule
 */
export function nodeBuiltin(name) {
  const get = isNode ? process.getBuiltinModule : undefined;
  if (typeof get !== 'function') {
    throw new RagwasmError('UNSUPPORTED_ENVIRONMENT', `ragwasm: node:${name} is needed here: run in Node >= 20.16` +
      (isNode ? ` (this is Node ${process.versions.node}, which lacks process.getBuiltinModule)` : ''));
  }
  return get.call(process, `node:${name}`);
}
