// @ts-check
// Decompression limits for DOCX (a ZIP archive), checked before mammoth (JSZip) inflates anything
// (issue #33: an 853 kB zip bomb ran `ragwasm ask` out of memory and crashed the doc-chat tab).
// The central directory's declared sizes are checked against the limits (entries, total
// uncompressed bytes, per-entry ratio), then every entry is inflated with a bound equal to its
// declared size (Node: zlib's maxOutputLength; browsers: DecompressionStream, stopped early), so a
// header that lies about its size is caught too. Linear in the archive's size; nothing is kept.
import { RagwasmError } from '../core/errors.js';
import { isNode, nodeBuiltin } from '../core/node.js';
import { ZIP_RATIO_MIN_BYTES } from './limits.js';

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

function parseError(name, what) {
  return new RagwasmError('PARSE_ERROR', `ragwasm: ${name}: not a readable DOCX: ${what}`);
}
function limitError(name, what) {
  return new RagwasmError('LIMIT_EXCEEDED', `ragwasm: ${name}: ${what}`);
}

/**
 * The entries of a ZIP's central directory: [{name, method, compressed, uncompressed, start}], where
 * `start` is the first byte of the entry's data. Every offset and length is checked against the bytes.
 * @internal
 * @throws {RagwasmError} PARSE_ERROR (not a ZIP, truncated, encrypted, ZIP64, multi-disk), LIMIT_EXCEEDED (entries)
 */
export function zipEntries(bytes, name, limits) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = bytes.length;
  let eocd = -1;
  for (let i = n - 22; i >= Math.max(0, n - 22 - 65535); i--) {
    if (view.getUint32(i, true) === EOCD) { eocd = i; break; }
  }
  if (eocd < 0) throw parseError(name, 'no ZIP end-of-central-directory record');
  if (view.getUint16(eocd + 4, true) !== 0 || view.getUint16(eocd + 6, true) !== 0) throw parseError(name, 'a multi-disk ZIP');
  const count = view.getUint16(eocd + 10, true);
  const cdSize = view.getUint32(eocd + 12, true);
  const cdOffset = view.getUint32(eocd + 16, true);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) throw parseError(name, 'a ZIP64 archive (larger than any DOCX this reader takes)');
  if (count > limits.maxZipEntries) throw limitError(name, `${count} ZIP entries, the limit is ${limits.maxZipEntries}`);
  if (cdOffset + cdSize > eocd) throw parseError(name, 'the central directory runs past its end record');
  const out = [];
  let at = cdOffset;
  for (let k = 0; k < count; k++) {
    if (at + 46 > cdOffset + cdSize || view.getUint32(at, true) !== CENTRAL) throw parseError(name, `central directory entry ${k} is damaged`);
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const compressed = view.getUint32(at + 20, true);
    const uncompressed = view.getUint32(at + 24, true);
    const nameLen = view.getUint16(at + 28, true);
    const extraLen = view.getUint16(at + 30, true);
    const commentLen = view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const entryName = new TextDecoder().decode(bytes.subarray(at + 46, Math.min(at + 46 + nameLen, n)));
    at += 46 + nameLen + extraLen + commentLen;
    if (flags & 1) throw parseError(name, `entry ${entryName.slice(0, 80)} is encrypted`);
    if (method !== 0 && method !== 8) throw parseError(name, `entry ${entryName.slice(0, 80)} uses compression method ${method} (only stored and deflate)`);
    if (compressed === 0xffffffff || uncompressed === 0xffffffff) throw parseError(name, 'a ZIP64 entry');
    if (local + 30 > n || view.getUint32(local, true) !== LOCAL) throw parseError(name, `entry ${entryName.slice(0, 80)}: its local header is missing`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (start + compressed > n) throw parseError(name, `entry ${entryName.slice(0, 80)} runs past the end of the file`);
    if (method === 0 && compressed !== uncompressed) throw parseError(name, `stored entry ${entryName.slice(0, 80)}: its sizes disagree`);
    out.push({ name: entryName, method, compressed, uncompressed, start });
  }
  return out;
}

/**
 * Bytes `data` inflates to, counting no further than `bound` + 1: `format` 'deflate-raw' (ZIP entries)
 * or 'deflate' (zlib, PDF FlateDecode streams). Null where no bounded inflater exists (an old browser).
 * `lenient`: data that stops inflating counts what came out before (pdf.js reads damaged streams too);
 * otherwise the error is thrown.
 * @internal
 * @param {Uint8Array} data
 * @param {number} bound
 * @param {{format?: 'deflate-raw'|'deflate', lenient?: boolean}} [options]
 * @returns {Promise<number|null>}
 */
export async function inflatedSize(data, bound, { format = 'deflate-raw', lenient = false } = {}) {
  if (isNode) {
    const zlib = nodeBuiltin('zlib');
    // At most the largest Buffer: a larger maxOutputLength is itself a RangeError.
    const options = { maxOutputLength: Math.max(1, Math.min(bound + 1, nodeBuiltin('buffer').constants.MAX_LENGTH)), ...(lenient ? { finishFlush: zlib.constants.Z_SYNC_FLUSH } : {}) };
    try {
      return (format === 'deflate' ? zlib.inflateSync(data, options) : zlib.inflateRawSync(data, options)).length;
    } catch (e) {
      if (e?.code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError) return bound + 1;
      if (lenient) return 0;
      throw e;
    }
  }
  let ds;
  try {
    ds = new DecompressionStream(format);
  } catch {
    return null;  // no bounded inflater here (an old browser): the declared sizes were checked
  }
  // ZIP and PDF bytes are read from files: never a view of a SharedArrayBuffer, which Blob refuses.
  const reader = new Blob([/** @type {Uint8Array<ArrayBuffer>} */ (data)]).stream().pipeThrough(ds).getReader();
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return total;
      total += value.length;
      if (total > bound) {
        await reader.cancel().catch(() => {});
        return total;
      }
    }
  } catch (e) {
    if (lenient) return total;
    throw e;
  }
}

/**
 * Checks a DOCX/ZIP against the decompression limits before anything inflates it in full.
 * @internal
 * @param {Uint8Array} bytes
 * @param {string} name file name for messages
 * @param {typeof import('./limits.js').FILE_LIMITS} limits
 * @throws {RagwasmError} LIMIT_EXCEEDED (entries, total uncompressed size, ratio, an entry inflating past
 *   its declared size), PARSE_ERROR (not a ZIP, damaged, encrypted)
 */
export async function checkZip(bytes, name, limits) {
  const entries = zipEntries(bytes, name, limits);
  let total = 0;
  for (const e of entries) {
    total += e.uncompressed;
    if (total > limits.maxUnzippedBytes) {
      throw limitError(name, `its ZIP entries hold more than ${limits.maxUnzippedBytes} bytes uncompressed (limits.maxUnzippedBytes)`);
    }
    if (e.uncompressed >= ZIP_RATIO_MIN_BYTES && e.uncompressed > limits.maxZipRatio * Math.max(1, e.compressed)) {
      throw limitError(name, `ZIP entry ${e.name.slice(0, 80)} expands ${Math.round(e.uncompressed / Math.max(1, e.compressed))}x `
        + `(${e.compressed} -> ${e.uncompressed} bytes), the limit is ${limits.maxZipRatio}x (limits.maxZipRatio): a zip bomb?`);
    }
  }
  for (const e of entries) {
    if (e.method !== 8) continue;
    let got;
    try {
      got = await inflatedSize(bytes.subarray(e.start, e.start + e.compressed), e.uncompressed);
    } catch (err) {
      throw parseError(name, `entry ${e.name.slice(0, 80)} does not inflate (${String(err?.message ?? err).slice(0, 120)})`);
    }
    if (got !== null && got > e.uncompressed) {
      throw limitError(name, `ZIP entry ${e.name.slice(0, 80)} inflates past its declared ${e.uncompressed} bytes: a zip bomb?`);
    }
  }
}
