// @ts-check
// RagwasmError: the one error type the JS API throws. `code` is a stable UPPER_SNAKE string for
// programs; `message` (always starting "ragwasm: ") names the parameter, expected vs got, and the fix.

/** Error thrown by every ragwasm function. */
export class RagwasmError extends Error {
  /**
   * @param {string} code stable error code, e.g. 'INVALID_ARGUMENT', 'CORRUPT_INDEX'
   * @param {string} message human-readable message naming the problem
   * @param {object} [details] optional structured details (e.g. {path: 'retrieval.k'})
   */
  constructor(code, message, details) {
    // Never throws itself (an error type that throws while being built hides the first error).
    let text;
    try {
      text = typeof message === 'string' ? message : String(message);
    } catch {
      text = 'unprintable message';
    }
    super(text.startsWith('ragwasm: ') ? text : `ragwasm: ${text}`);
    /** @type {'RagwasmError'} */
    this.name = 'RagwasmError';
    // `code` is always a string (programs switch on it); anything else is reported as INTERNAL.
    this.code = typeof code === 'string' ? code : 'INTERNAL';
    if (details !== undefined) this.details = details;
  }
}

/** All error codes the library uses (C++ core codes plus JS-only ones). */
/** @type {readonly import('./errors.js').ErrorCode[]} */
export const ErrorCodes = Object.freeze([
  'INVALID_ARGUMENT', 'INVALID_UTF8', 'LIMIT_EXCEEDED', 'CORRUPT_INDEX', 'UNSUPPORTED_VERSION',
  'DIMENSION_MISMATCH', 'NOT_FOUND', 'DUPLICATE_ID', 'PARSE_ERROR', 'OUT_OF_MEMORY', 'INTERNAL',
  // JS-only
  'NOT_INITIALIZED', 'DISPOSED', 'ABORTED', 'TIMEOUT', 'NETWORK', 'HTTP', 'UNSUPPORTED_ENVIRONMENT',
  'INTEGRITY',  // a downloaded file whose size or sha256 is not the pinned one (model hub)
]);

/**
 * Turns a binding reply ({ok, value} | {ok:false, code, message}) into a value or a thrown RagwasmError.
 * @template T
 * @param {{ok: boolean, value?: T, code?: string, message?: string} | null} reply
 * @returns {T}
 */
export function unwrap(reply) {
  if (reply === null || reply === undefined) {
    throw new RagwasmError('OUT_OF_MEMORY', 'ragwasm: out of memory (WASM heap exhausted)');
  }
  if (!reply.ok) throw new RagwasmError(reply.code, reply.message);
  return reply.value;
}

/**
 * Calls into WASM and guarantees that only RagwasmError escapes: binding replies are unwrapped;
 * anything else (an Embind TypeError in debug builds, a trap) becomes INVALID_ARGUMENT or INTERNAL.
 * @template T
 * @param {() => any} fn
 * @returns {T}
 */
export function callWasm(fn) {
  try {
    return unwrap(fn());
  } catch (e) {
    if (e instanceof RagwasmError) throw e;
    if (e instanceof TypeError) {
      throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${e.message}`, { cause: e });
    }
    if (e instanceof RangeError && /memory|allocation/i.test(String(e.message))) {
      throw new RagwasmError('OUT_OF_MEMORY', `ragwasm: ${e.message}`, { cause: e });
    }
    throw new RagwasmError('INTERNAL', `ragwasm: internal error: ${e && e.message ? e.message : String(e)}`, { cause: e });
  }
}
