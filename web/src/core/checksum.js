// @ts-check
// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320): content ids (embedder ids, export
// fingerprints) and the legacy JS framing (packSections / unpackSections) still written by the sharded
// indexes of the Worker pool and read for collection formats 1 and 2 ("RAGWCOL1"). Every other saved
// object uses the one C++ container (core/container.js, docs/formats.md).
import { RagwasmError } from './errors.js';
import { isInstance } from './validate.js';

const TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/**
 * CRC-32 of bytes, as an unsigned 32-bit number. crc32(new TextEncoder().encode('123456789')) === 0xcbf43926.
 * @param {Uint8Array} bytes
 * @returns {number}
 */
export function crc32(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const MAGIC_BYTES = 8;

/**
 * The legacy JS framing (sharded indexes; collection formats 1 and 2 are read with unpackSections):
 * `magic` (8 ASCII bytes) | u32 LE version | per section: u32 LE byte length + bytes | u32 LE CRC-32
 * of everything before it.
 * @param {string} magic exactly 8 ASCII characters, e.g. "RWSHBM25"
 * @param {number} version format version, an unsigned 32-bit integer
 * @param {(Uint8Array|Uint8Array[])[]} sections written in order (each < 4 GiB); a section may be given
 *   as a list of pieces written back to back (a large JSON header encoded in parts)
 * @returns {Uint8Array}
 * @throws {RagwasmError} LIMIT_EXCEEDED (a section of 4 GiB or more: its length field is 32 bits)
 */
export function packSections(magic, version, sections) {
  const m = new TextEncoder().encode(magic);
  if (m.length !== MAGIC_BYTES) throw new RangeError(`packSections: magic must be ${MAGIC_BYTES} ASCII bytes, got ${JSON.stringify(magic)}`);
  const parts = sections.map((s) => (isInstance(s, Uint8Array) ? [s] : /** @type {Uint8Array[]} */ (s)));
  const lengths = parts.map((p) => p.reduce((n, b) => n + b.length, 0));
  lengths.forEach((n, i) => {
    if (n > 0xffffffff) throw new RagwasmError('LIMIT_EXCEEDED', `ragwasm: saved section ${i} is ${n} bytes; the format's section length is 32 bits (at most 4294967295 bytes)`);
  });
  const out = new Uint8Array(MAGIC_BYTES + 4 + lengths.reduce((s, n) => s + 4 + n, 0) + 4);
  const view = new DataView(out.buffer);
  out.set(m, 0);
  view.setUint32(MAGIC_BYTES, version, true);
  let at = MAGIC_BYTES + 4;
  parts.forEach((p, i) => {
    view.setUint32(at, lengths[i], true);
    at += 4;
    for (const b of p) {
      out.set(b, at);
      at += b.length;
    }
  });
  view.setUint32(at, crc32(out.subarray(0, at)), true);
  return out;
}

/**
 * Checks and splits packSections() output. Every length is checked against the bytes left before it
 * is used; the sections are views into `bytes` (no copy).
 * @param {Uint8Array} bytes
 * @param {string} magic the expected 8-character magic
 * @param {object} options
 * @param {number} options.count number of sections
 * @param {number} options.maxVersion newest version the caller reads (versions 1..maxVersion are accepted)
 * @param {string} [options.label='saved bytes'] message prefix, e.g. "ragwasm: collection bytes"
 * @param {string} [options.what='a ragwasm file'] named in the bad-magic message
 * @param {string} [options.reader='this build'] named in the version message
 * @returns {{version: number, sections: Uint8Array[]}}
 * @throws {RagwasmError} CORRUPT_INDEX (not bytes, bad magic, a length past the end, trailing bytes,
 *   checksum mismatch), UNSUPPORTED_VERSION (version 0 or above maxVersion)
 */
export function unpackSections(bytes, magic, options) {
  const { count, maxVersion, label = 'saved bytes', what = 'a ragwasm file', reader = 'this build' } = options;
  const corrupt = (why) => new RagwasmError('CORRUPT_INDEX', `${label}: ${why}`);
  if (!(isInstance(bytes, Uint8Array)) || bytes.length < MAGIC_BYTES + 8 || new TextDecoder().decode(bytes.subarray(0, MAGIC_BYTES)) !== magic) {
    throw corrupt(`not ${what} (bad magic)`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(MAGIC_BYTES, true);
  if (version < 1 || version > maxVersion) {
    const reads = maxVersion === 1 ? 'version 1' : `versions 1 to ${maxVersion}`;
    throw new RagwasmError('UNSUPPORTED_VERSION', `${label}: format version ${version}; ${reader} reads ${reads}`);
  }
  const end = bytes.length - 4;  // where the CRC starts
  const sections = [];
  let at = MAGIC_BYTES + 4;
  for (let s = 0; s < count; s++) {
    if (at + 4 > end) throw corrupt(`section ${s} length is past the end`);
    const len = view.getUint32(at, true);
    if (len > end - (at + 4)) throw corrupt(`section ${s} has ${len} bytes, only ${end - (at + 4)} left`);
    sections.push(bytes.subarray(at + 4, at + 4 + len));
    at += 4 + len;
  }
  if (at !== end) throw corrupt(`${end - at} unexpected bytes after the sections`);
  if (view.getUint32(at, true) !== crc32(bytes.subarray(0, at))) throw corrupt('checksum mismatch');
  return { version, sections };
}
