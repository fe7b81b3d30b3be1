// @ts-check
// Promise.all for LLM calls that cost money: the first failure aborts the calls still queued or in
// flight (through one AbortSignal linked to the caller's), so nothing more is sent after an error.

import { nodeBuiltin } from '../core/node.js';

/**
 * @template T, R
 * @param {T[]} items
 * @param {AbortSignal|undefined} signal the caller's signal (aborting it aborts every call)
 * @param {(item: T, signal: AbortSignal, index: number) => Promise<R>} fn one call per item
 * @returns {Promise<R[]>} results in item order; rejects with the first failure
 */
export async function allOrAbort(items, signal, fn) {
  const inner = new AbortController();
  // Every call listens on the one inner signal: in Node, lift the 10-listener warning for a long batch.
  if (items.length > 10 && typeof globalThis.process?.getBuiltinModule === 'function') {
    nodeBuiltin('events').setMaxListeners(items.length + 10, inner.signal);
  }
  const relay = () => inner.abort();
  if (signal) {
    if (signal.aborted) inner.abort();
    else signal.addEventListener('abort', relay, { once: true });
  }
  try {
    return await Promise.all(items.map(async (item, i) => {
      try {
        return await fn(item, inner.signal, i);
      } catch (e) {
        inner.abort();
        throw e;
      }
    }));
  } finally {
    signal?.removeEventListener('abort', relay);
  }
}
