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
