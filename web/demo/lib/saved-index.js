// Byte format of doc chat's saved index: magic "RWCHAT01", format version (u32 LE), three
// length-prefixed sections (JSON header {denseKey, denseLabel, docs, chunks}, Bm25Index.save() bytes,
// VectorIndex.save() bytes) and a CRC-32 of everything before it. The BM25 and vector sections are
// the library's own saved formats (with their own checks); this wrapper adds the chunk table and
// which embedding model made the vectors.
import { crc32 } from '../../src/checksum.js';
import { RagwasmError } from '../../src/errors.js';

const MAGIC = 'RWCHAT01';
export const SAVED_INDEX_VERSION = 1;


/** @returns {Uint8Array} */
export function packIndex(header, bm25Bytes, denseBytes) {
  const sections = [new TextEncoder().encode(JSON.stringify(header)), bm25Bytes, denseBytes];
  const out = new Uint8Array(12 + sections.reduce((s, b) => s + 4 + b.length, 0) + 4);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode(MAGIC), 0);
  view.setUint32(8, SAVED_INDEX_VERSION, true);
  let at = 12;
  for (const s of sections) {
    view.setUint32(at, s.length, true);
    out.set(s, at + 4);
    at += 4 + s.length;
  }
  view.setUint32(at, crc32(out.subarray(0, at)), true);
  return out;
}

/**
 * @param {Uint8Array} bytes
 * @returns {{header: object, bm25Bytes: Uint8Array, denseBytes: Uint8Array}}
 * @throws {RagwasmError} CORRUPT_INDEX, UNSUPPORTED_VERSION
 */
export function unpackIndex(bytes) {
  const corrupt = (why) => new RagwasmError('CORRUPT_INDEX', `saved index: ${why}`);
  if (!(bytes instanceof Uint8Array) || bytes.length < 28 || new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC) {
    throw corrupt('not a doc chat index (bad magic)');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(8, true);
  if (version !== SAVED_INDEX_VERSION) throw new RagwasmError('UNSUPPORTED_VERSION', `saved index: format version ${version}; this page reads version ${SAVED_INDEX_VERSION}`);
  const sections = [];
  let at = 12;
  for (let s = 0; s < 3; s++) {
    if (at + 4 > bytes.length - 4) throw corrupt(`section ${s} length is past the end`);
    const len = view.getUint32(at, true);
    if (len > bytes.length - 4 - (at + 4)) throw corrupt(`section ${s} claims ${len} bytes, only ${bytes.length - 4 - (at + 4)} left`);
    sections.push(bytes.subarray(at + 4, at + 4 + len));
    at += 4 + len;
  }
  if (at !== bytes.length - 4) throw corrupt(`${bytes.length - 4 - at} unexpected bytes after the sections`);
  if (view.getUint32(at, true) !== crc32(bytes.subarray(0, at))) throw corrupt('checksum mismatch');
  let header;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(sections[0]));
  } catch {
    throw corrupt('header is not valid JSON');
  }
  if (!header || !Array.isArray(header.docs) || !Array.isArray(header.chunks)) throw corrupt('header has no document or chunk list');
  return { header, bm25Bytes: sections[1], denseBytes: sections[2] };
}
