// @ts-check
// A decompression bound for PDF text extraction (issue #33): pdf.js inflates a page's FlateDecode
// content stream in full when it reads the page's text, so a 300 kB stream of zeros becomes 300 MB in
// memory. Before pdf.js opens the file, every zlib stream that is not an image (pdf.js does not decode
// images for text) is inflated here with a bound: together they may hold limits.maxUnzippedBytes.
// One forward scan ("stream" ... "endstream"), each stream inflated once and nothing kept.
import { RagwasmError } from '../core/errors.js';
import { inflatedSize } from './zip.js';

const enc = (s) => Array.from(s, (c) => c.charCodeAt(0));
const STREAM = enc('stream');
const ENDSTREAM = enc('endstream');
const IMAGE = enc('/Image');
const OBJ = enc('obj');

// First index >= from of the ASCII word `w` in `bytes`, or -1 (Uint8Array#indexOf finds each first byte).
function indexOf(bytes, w, from) {
  for (let i = bytes.indexOf(w[0], from); i >= 0 && i + w.length <= bytes.length; i = bytes.indexOf(w[0], i + 1)) {
    let k = 1;
    while (k < w.length && bytes[i + k] === w[k]) k++;
    if (k === w.length) return i;
  }
  return -1;
}

// Last index of `w` in bytes[from, to), or -1.
function lastIndexOf(bytes, w, from, to) {
  for (let i = to - w.length; i >= from; i--) {
    let k = 0;
    while (k < w.length && bytes[i + k] === w[k]) k++;
    if (k === w.length) return i;
  }
  return -1;
}

/**
 * @internal
 * @param {Uint8Array} bytes the PDF
 * @param {string} name file name for messages
 * @param {{maxUnzippedBytes: number}} limits
 * @throws {RagwasmError} LIMIT_EXCEEDED when the PDF's non-image zlib streams inflate past limits.maxUnzippedBytes
 */
export async function checkPdfStreams(bytes, name, limits) {
  const budget = limits.maxUnzippedBytes;
  let total = 0;
  let at = 0;
  while (at < bytes.length) {
    const s = indexOf(bytes, STREAM, at);
    if (s < 0) return;
    at = s + STREAM.length;
    if (s >= 3 && bytes[s - 3] === 0x65 && bytes[s - 2] === 0x6e && bytes[s - 1] === 0x64) continue;  // "endstream"
    let start = at;
    if (bytes[start] === 0x0d) start++;
    if (bytes[start] !== 0x0a) continue;
    start++;
    const end = indexOf(bytes, ENDSTREAM, start);
    if (end < 0) return;
    at = end + ENDSTREAM.length;
    // A zlib header (CM 8, header check) starts a FlateDecode stream; images are left to pdf.js.
    const b0 = bytes[start];
    const b1 = bytes[start + 1];
    if ((b0 & 0x0f) !== 8 || ((b0 << 8) | b1) % 31 !== 0) continue;
    const dictFrom = Math.max(0, s - 4096);
    const objAt = lastIndexOf(bytes, OBJ, dictFrom, s);
    if (lastIndexOf(bytes, IMAGE, objAt < 0 ? dictFrom : objAt, s) >= 0) continue;
    const got = await inflatedSize(bytes.subarray(start, end), budget - total, { format: 'deflate', lenient: true });
    if (got === null) return;  // no bounded inflater here: the page and size limits still hold
    total += got;
    if (total > budget) {
      throw new RagwasmError('LIMIT_EXCEEDED', `ragwasm: ${name}: the PDF's compressed streams inflate past ${budget} bytes (limits.maxUnzippedBytes): a decompression bomb?`);
    }
  }
}
