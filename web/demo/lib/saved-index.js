// Byte format of doc chat's saved index: magic "RWCHAT01", format version (u32 LE), three
// length-prefixed sections (JSON header {denseKey, denseLabel, docs, chunks}, Bm25Index.toBytes() bytes,
// VectorIndex.toBytes() bytes) and a CRC-32 of everything before it — the container of
// web/src/core/checksum.js packSections / unpackSections. The BM25 and vector sections are the library's
// own saved formats (with their own checks); this wrapper adds the chunk table and which embedding
// model made the vectors.
import { packSections, unpackSections } from '../../src/core/checksum.js';
import { RagwasmError } from '../../src/core/errors.js';

const MAGIC = 'RWCHAT01';
export const SAVED_INDEX_VERSION = 1;


/** @returns {Uint8Array} */
export function packIndex(header, bm25Bytes, denseBytes) {
  return packSections(MAGIC, SAVED_INDEX_VERSION, [new TextEncoder().encode(JSON.stringify(header)), bm25Bytes, denseBytes]);
}

/**
 * @param {Uint8Array} bytes
 * @returns {{header: object, bm25Bytes: Uint8Array, denseBytes: Uint8Array}}
 * @throws {RagwasmError} CORRUPT_INDEX, UNSUPPORTED_VERSION
 */
export function unpackIndex(bytes) {
  const { sections } = unpackSections(bytes, MAGIC, {
    count: 3, maxVersion: SAVED_INDEX_VERSION, label: 'saved index', what: 'a doc chat index', reader: 'this page' });
  const corrupt = (why) => new RagwasmError('CORRUPT_INDEX', `saved index: ${why}`);
  let header;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(sections[0]));
  } catch {
    throw corrupt('header is not valid JSON');
  }
  if (!header || !Array.isArray(header.docs) || !Array.isArray(header.chunks)) throw corrupt('header has no document or chunk list');
  return { header, bm25Bytes: sections[1], denseBytes: sections[2] };
}
