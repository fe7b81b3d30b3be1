// @ts-check
// Opt-in response cache keyed by a SHA-256 hash of the canonical request (provider, endpoint, body).
// A hit sends nothing over the network (and so adds nothing to the ledger).
import { expectInteger, expectOptions, expectString, isArray } from '../core/validate.js';

/** Canonical JSON: object keys sorted, so equal requests hash equally. */
export function canonicalJson(value) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).filter((k) => value[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
}

/** Hex SHA-256 of a string (WebCrypto: browsers, Workers and Node >= 20). */
export async function sha256Hex(text) {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * In-memory LRU cache of completed LLM responses. Pass one to createLlmClient({cache}) to opt in.
 * `store` may be any object with get/set/delete (e.g. a wrapper around IndexedDB) for persistence.
 */
export class ResponseCache {
  /** @param {{maxEntries?: number}} [options] default 1000 */
  constructor(options = {}) {
    const o = expectOptions(options, 'ResponseCache options', ['maxEntries']);
    this.maxEntries = o.maxEntries === undefined ? 1000 : expectInteger(o.maxEntries, 'options.maxEntries', { min: 1, max: 10_000_000 });
    this.map = new Map();
    this.hits = 0;
    this.misses = 0;
  }

  get(key) {
    expectString(key, 'key');
    const v = this.map.get(key);
    if (v === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.map.delete(key);
    this.map.set(key, v);
    return v;
  }

  set(key, value) {
    expectString(key, 'key');
    this.map.set(key, value);
    while (this.map.size > this.maxEntries) this.map.delete(this.map.keys().next().value);
  }

  get size() { return this.map.size; }
  clear() { this.map.clear(); }
}
