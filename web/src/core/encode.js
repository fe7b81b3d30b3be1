// @ts-check
// UTF-16 (JS strings) -> UTF-8 bytes for the core. TextEncoder replaces a lone surrogate by U+FFFD,
// which is also one UTF-16 unit, so UTF-16 offsets computed by the core match the caller's string.
// (Embind's own std::string conversion pairs a lone surrogate with the next unit: never used for text.)
import { RagwasmError } from './errors.js';
import { MAX_TEXT_BYTES } from './limits.js';
import { expectString } from './validate.js';

const encoder = new TextEncoder();

/**
 * Validates `value` as a string and encodes it to UTF-8.
 * @param {string} value
 * @param {string} name parameter name for error messages
 * @returns {Uint8Array}
 */
export function encodeText(value, name) {
  expectString(value, name);
  // Fast reject: every UTF-16 unit is at most 3 UTF-8 bytes, at least 1.
  if (value.length > MAX_TEXT_BYTES) {
    throw new RagwasmError('LIMIT_EXCEEDED', `ragwasm: ${name}: text is ${value.length} characters, the limit is ${MAX_TEXT_BYTES} UTF-8 bytes`);
  }
  const bytes = encoder.encode(value);
  if (bytes.length > MAX_TEXT_BYTES) {
    throw new RagwasmError('LIMIT_EXCEEDED', `ragwasm: ${name}: text is ${bytes.length} UTF-8 bytes, the limit is ${MAX_TEXT_BYTES}`);
  }
  return bytes;
}

// A scratch buffer for encodeTransient: one per module, grown when a string needs more.
let scratch = new Uint8Array(4096);

/**
 * @internal The UTF-8 of `value` (as TextEncoder.encode) as a view into a shared scratch buffer, valid
 * only until the next call: for a string handed straight to one WASM call (an id looked up). A new
 * Uint8Array per call is a new ArrayBuffer whose memory outside the JS heap waits for a GC: a million
 * lookups held ~1 GB of a Chromium tab's RSS (issue #18, docs/scale.md).
 * @param {string} value
 * @returns {Uint8Array}
 */
export function encodeTransient(value) {
  if (value.length * 3 > scratch.length) scratch = new Uint8Array(Math.max(value.length * 3, scratch.length * 2));
  return scratch.subarray(0, encoder.encodeInto(value, scratch).written);
}

const idDecoder = new TextDecoder();

/** @internal ids the bindings send as UTF-8 bytes back to back with their byte lengths -> strings */
export function decodeIds(bytes, lens) {
  const out = new Array(lens.length);
  let at = 0;
  for (let i = 0; i < lens.length; i++) {
    out[i] = idDecoder.decode(bytes.subarray(at, at + lens[i]));
    at += lens[i];
  }
  return out;
}
