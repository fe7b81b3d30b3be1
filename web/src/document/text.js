// @ts-check
// Text utilities: sentence splitting, UTF-8 validation/repair, case and accent folding.
// Offsets are UTF-16 code units of the caller's string (what String.prototype.slice uses).
import { callWasm } from '../core/errors.js';
import { encodeText } from '../core/encode.js';
import { Handle } from '../core/handle.js';
import { MAX_ABBREVIATIONS, MAX_ABBREVIATION_BYTES, MAX_TEXT_BYTES } from '../core/limits.js';
import { wasm } from '../core/module.js';
import { expectArray, expectBoolean, expectOptions, expectString, invalid, isInstance } from '../core/validate.js';
import { RagwasmError } from '../core/errors.js';

/**
 * @typedef {object} Sentence
 * @property {number} start UTF-16 offset of the first character (inclusive)
 * @property {number} end UTF-16 offset after the last character (exclusive)
 * @property {string} text `source.slice(start, end)`
 */

/**
 * A reusable sentence splitter: abbreviations (Dr., U.S., Inc.), initials, decimals, ellipses,
 * quotes, bullet and numbered lists, markdown headers/tables and blank-line paragraph breaks.
 *
 * @example
 * const s = SentenceSplitter.create({ abbreviations: ['approx'] });
 * s.split('Dr. Smith arrived. He sat.').map((x) => x.text); // ['Dr. Smith arrived.', 'He sat.']
 * s.dispose();
 */
export class SentenceSplitter extends Handle {
  /**
   * @param {object} [options]
   * @param {string[]} [options.abbreviations=[]] extra abbreviations, e.g. ['approx', 'e.g'];
   *   at most 100,000, each 1–64 bytes without white space; a trailing '.' is ignored
   * @param {boolean} [options.newlineBreaks=false] every line break ends a sentence
   * @returns {SentenceSplitter}
   * @throws {RagwasmError} INVALID_ARGUMENT (bad option), LIMIT_EXCEEDED (too many abbreviations)
   */
  static create(options = {}) {
    const o = expectOptions(options, 'SentenceSplitter options', ['abbreviations', 'newlineBreaks']);
    const abbreviations = o.abbreviations === undefined ? [] : expectArray(o.abbreviations, 'options.abbreviations', {
      maxLength: MAX_ABBREVIATIONS,
      item: (v, name) => expectString(v, name, { maxLength: MAX_ABBREVIATION_BYTES * 2, allowEmpty: false }),
    });
    const newlineBreaks = o.newlineBreaks === undefined ? false : expectBoolean(o.newlineBreaks, 'options.newlineBreaks');
    const m = wasm();
    const native = callWasm(() => m.text_createSentenceSplitter(abbreviations, newlineBreaks));
    return new SentenceSplitter(native);
  }

  /**
   * Splits text into sentences, trimmed of surrounding white space, in document order.
   * @param {string} text up to 256 MiB of UTF-8
   * @returns {Sentence[]}
   * @throws {RagwasmError} INVALID_ARGUMENT (not a string), LIMIT_EXCEEDED, DISPOSED
   */
  split(text) {
    const bytes = encodeText(text, 'text');
    const flat = callWasm(() => this.native.split(bytes));
    const out = new Array(flat.length / 2);
    for (let i = 0; i < out.length; i++) {
      const start = flat[2 * i];
      const end = flat[2 * i + 1];
      out[i] = { start, end, text: text.slice(start, end) };
    }
    return out;
  }
}

/**
 * Splits text into sentences with the default options (see SentenceSplitter).
 * @param {string} text
 * @param {{abbreviations?: string[], newlineBreaks?: boolean}} [options]
 * @returns {Sentence[]}
 */
export function splitSentences(text, options) {
  const s = SentenceSplitter.create(options);
  try {
    return s.split(text);
  } finally {
    s.dispose();
  }
}

/**
 * Case and accent folding for matching: "Ça Déjà" → "ca deja"; "Straße" → "strasse".
 * Covers Latin-1 Supplement, Latin Extended-A, Greek, Cyrillic; combining marks are removed.
 * @param {string} text
 * @param {{lowercase?: boolean, accents?: boolean}} [options] both default true
 * @returns {string}
 */
export function foldText(text, options = {}) {
  const o = expectOptions(options, 'foldText options', ['lowercase', 'accents']);
  const lowercase = o.lowercase === undefined ? true : expectBoolean(o.lowercase, 'options.lowercase');
  const accents = o.accents === undefined ? true : expectBoolean(o.accents, 'options.accents');
  const bytes = encodeText(text, 'text');
  const m = wasm();
  return callWasm(() => m.text_fold(bytes, lowercase, accents));
}

function expectBytes(bytes, name) {
  if (isInstance(bytes, ArrayBuffer)) bytes = new Uint8Array(bytes);
  if (!(isInstance(bytes, Uint8Array))) throw invalid(name, 'a Uint8Array or ArrayBuffer', bytes);
  if (bytes.length > MAX_TEXT_BYTES) {
    throw new RagwasmError('LIMIT_EXCEEDED', `ragwasm: ${name}: ${bytes.length} bytes, the limit is ${MAX_TEXT_BYTES}`);
  }
  return bytes;
}

/**
 * Byte offset of the first ill-formed UTF-8 sequence, or -1 when `bytes` is valid UTF-8.
 * @param {Uint8Array|ArrayBuffer} bytes
 * @returns {number}
 */
export function findInvalidUtf8(bytes) {
  const b = expectBytes(bytes, 'bytes');
  const m = wasm();
  return callWasm(() => m.text_findInvalidUtf8(b));
}

/**
 * Decodes bytes as UTF-8, replacing each maximal ill-formed subsequence by U+FFFD (as TextDecoder).
 * With `{fatal: true}` invalid input throws INVALID_UTF8 naming the byte offset instead.
 * @param {Uint8Array|ArrayBuffer} bytes
 * @param {{fatal?: boolean}} [options]
 * @returns {string}
 */
export function decodeUtf8(bytes, options = {}) {
  const o = expectOptions(options, 'decodeUtf8 options', ['fatal']);
  const fatal = o.fatal === undefined ? false : expectBoolean(o.fatal, 'options.fatal');
  const b = expectBytes(bytes, 'bytes');
  const m = wasm();
  if (fatal) {
    const at = callWasm(() => m.text_findInvalidUtf8(b));
    if (at >= 0) throw new RagwasmError('INVALID_UTF8', `ragwasm: bytes: invalid UTF-8 at byte offset ${at}`);
  }
  return callWasm(() => m.text_repairUtf8(b));
}
