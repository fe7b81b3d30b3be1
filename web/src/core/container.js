// The one saved container (docs/formats.md: 8-byte magic, u32 version, tagged u64-length sections,
// XXH64 seal) for the JS-side saved objects, written and checked by the C++ container
// (src/common/container.cpp through wasm/bind_common.cpp). Needs init().
import { RagwasmError, callWasm } from './errors.js';
import { wasm } from './module.js';

/**
 * The container as pieces to write in turn: its framing (start, each section's head, the seal: computed
 * by the C++ container::Writer) around the sections' own bytes, which are not copied. Internal.
 * @param {string} magic exactly 8 ASCII characters, e.g. "RWCOLLEC"
 * @param {number} version format version (unsigned 32-bit)
 * @param {{tag: number, bytes: Uint8Array|Uint8Array[]}[]} sections written in order; tags unique; a section's
 *   bytes may be a list of pieces written back to back (a large JSON header encoded in parts)
 * @returns {Uint8Array[]} their concatenation is packContainer()'s result
 * @throws {RagwasmError} NOT_INITIALIZED
 */
export function containerPieces(magic, version, sections) {
  const m = wasm();
  const pieces = sections.map((s) => (Array.isArray(s.bytes) ? s.bytes : [s.bytes]));
  const lengths = pieces.map((p) => p.reduce((n, b) => n + b.length, 0));
  // The sections cross into the WASM heap only in 1 MiB windows (to be hashed): a whole payload
  // copied there would stay as heap (a WASM heap never shrinks).
  const framing = callWasm(() => m.common_containerFraming(magic, version, sections.map((s) => s.tag), pieces, lengths));
  const out = [framing[0]];
  pieces.forEach((p, i) => {
    out.push(framing[i + 1]);
    for (const b of p) out.push(b);
  });
  out.push(framing[pieces.length + 1]);
  return out;
}

/**
 * Packs sections into the container (containerPieces joined). Internal: the callers build the sections themselves.
 * @param {string} magic
 * @param {number} version
 * @param {{tag: number, bytes: Uint8Array|Uint8Array[]}[]} sections as containerPieces
 * @returns {Uint8Array}
 * @throws {RagwasmError} NOT_INITIALIZED
 */
export function packContainer(magic, version, sections) {
  return joinBytes(containerPieces(magic, version, sections));
}

/** @internal the concatenation of byte arrays, in one new Uint8Array */
export function joinBytes(pieces) {
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Checks and splits a container (size, magic, version, seal, every section length:
 * container::unpack_layout; the bytes are read in 1 MiB windows, never copied whole into the WASM heap).
 * @param {Uint8Array} bytes
 * @param {string} magic the expected 8-character magic
 * @param {{minVersion: number, maxVersion: number, what: string, label: string}} options `what` is named
 *   in messages ("collection"); `label` prefixes them ("ragwasm: collection bytes")
 * @returns {{version: number, sections: Map<number, Uint8Array>}} sections are views into `bytes`
 * @throws {RagwasmError} CORRUPT_INDEX, UNSUPPORTED_VERSION (naming the versions read)
 */
export function unpackContainer(bytes, magic, { minVersion, maxVersion, what, label }) {
  const m = wasm();
  let r;
  try {
    r = callWasm(() => m.common_unpackContainer(bytes, magic, what, minVersion, maxVersion));
  } catch (e) {
    if (!(e instanceof RagwasmError)) throw e;
    throw new RagwasmError(e.code, `${label}: ${e.message.replace(/^ragwasm: (bytes: )?/, '')}`);
  }
  const sections = new Map();
  r.tags.forEach((tag, i) => sections.set(tag, bytes.subarray(r.starts[i], r.starts[i] + r.lengths[i])));
  return { version: r.version, sections };
}
