// @ts-check
// RequestLedger: an append-only record of exactly what text left the device, to which host, when,
// and with what result. Doc chat shows it. API keys are never recorded (headers are not kept; the
// body is scrubbed of any secret the client knows as a last line of defence). The client never
// follows redirects, so the host recorded is the only one the bytes went to; a refused redirect is
// noted in the entry's `redirect`.
import { expectInteger, expectOptions, invalid, isPlainObject } from '../core/validate.js';

/** Most entries a ledger can be asked to keep (10 million). */
export const MAX_LEDGER_ENTRIES = 10000000;

/**
 * @typedef {object} LedgerEntry
 * @property {number} seq 1-based order of the HTTP attempt
 * @property {string} time ISO 8601 time the request was sent
 * @property {string} host host (and port) the bytes went to, e.g. 'api.openai.com'
 * @property {string} url full URL without query secrets
 * @property {string} method 'POST'
 * @property {'openai'|'anthropic'} provider
 * @property {string} model
 * @property {string} purpose caller's label, e.g. 'answer', 'judge:context_relevance'
 * @property {string} body the exact request body sent (JSON text)
 * @property {number} bytes UTF-8 size of the body
 * @property {number} attempt 1 for the first try, 2.. for retries
 * @property {number|null} status HTTP status, null when no response arrived
 * @property {string|null} error error code when the attempt failed
 * @property {string} [redirect] the Location of a refused 3xx ('opaque' when the browser hides it);
 *   nothing was sent there
 */

/** Records every HTTP attempt an LlmClient makes. */
export class RequestLedger {
  /**
   * @param {{maxEntries?: number}} [options] keep at most this many entries (oldest dropped; default
   *   10,000; an integer in 1..10,000,000)
   * @throws {RagwasmError} INVALID_ARGUMENT for 0, negative, fractional, NaN or non-number limits
   *   (a ledger that silently records nothing would hide what left the device)
   */
  constructor(options = {}) {
    const o = expectOptions(options, 'RequestLedger options', ['maxEntries']);
    this.maxEntries = o.maxEntries === undefined ? 10000
      : expectInteger(o.maxEntries, 'options.maxEntries', { min: 1, max: MAX_LEDGER_ENTRIES });
    /** @type {LedgerEntry[]} */
    this.entries = [];
    this.dropped = 0;
    this._seq = 0;
  }

  /** @internal Adds an entry, returns it so the client can fill in status/error later. */
  record(entry) {
    if (!isPlainObject(entry)) throw invalid('entry', 'a ledger entry object', entry);
    const e = { seq: ++this._seq, ...entry };
    this.entries.push(e);
    if (this.entries.length > this.maxEntries) {
      this.entries.shift();
      this.dropped++;
    }
    return e;
  }

  /** Total bytes of request bodies sent, per host: {host: bytes}. */
  bytesByHost() {
    /** @type {Record<string, number>} */
    const out = {};
    for (const e of this.entries) if (Number.isFinite(e.bytes)) out[e.host] = (out[e.host] ?? 0) + e.bytes;
    return out;
  }

  /** JSON lines of all entries (for export / display). */
  toJsonl() {
    return this.entries.map((e) => JSON.stringify(e)).join('\n') + (this.entries.length ? '\n' : '');
  }

  clear() {
    this.entries = [];
    this.dropped = 0;
  }
}
