// @ts-check
// The one saved container (docs/formats.md: 8-byte magic, u32 version, tagged u64-length sections,
// XXH64 seal) for the JS-side saved objects, written and checked by the C++ container
// (src/common/container.cpp through wasm/bind_common.cpp). Needs init().
import { RagwasmError, callWasm } from './errors.js';
import { wasm } from './module.js';
import { isInstance } from './validate.js';

/**
 * The container as pieces to write in turn, made as they are taken: its framing (start, each
 * section's head, the seal: the C++ container::Writer, which hashes each piece as it passes) around
 * the sections' own pieces, which are not copied. A section's pieces may be an iterator that makes
 * them on demand (Collection.save(): the header is never held whole); its `length` must then be given
 * and the pieces must add up to it. Internal.
 * @param {string} magic exactly 8 ASCII characters, e.g. "RWCOLLEC"
 * @param {number} version format version (unsigned 32-bit)
 * @param {{tag: number, bytes: Uint8Array|Iterable<Uint8Array>, length?: number}[]} sections written in
 *   order; tags unique; a section's bytes may be pieces written back to back (a large JSON header
 *   encoded in parts); `length`: their total (counted here when they are a Uint8Array or an array)
 * @returns {Generator<Uint8Array>} the pieces; their concatenation is packContainer()'s result
 * @throws {RagwasmError} NOT_INITIALIZED; INTERNAL when a section's pieces do not add up to its length
 */
export function* containerStream(magic, version, sections) {
  const m = wasm();
  const tags = sections.map((s) => s.tag);
  const parts = sections.map((s) => (isInstance(s.bytes, Uint8Array) ? [s.bytes] : s.bytes));
  // Without `length`, bytes are a Uint8Array or an array of pieces (documented above): counted here.
  const lengths = sections.map((s, i) => s.length ?? /** @type {Uint8Array[]} */ (parts[i]).reduce((n, b) => n + b.length, 0));
  sections = null;  // each section's bytes are dropped here once written (parts[i] = null)
  if (magic.length !== 8) throw new RagwasmError('INTERNAL', 'ragwasm: container: the magic must be 8 bytes');
  const w = new m.common_ContainerWriter(magic, version, tags.length);
  try {
    yield callWasm(() => w.start());
    for (let i = 0; i < tags.length; i++) {
      yield callWasm(() => w.section(tags[i], lengths[i]));
      let n = 0;
      for (const b of parts[i]) {
        if (!isInstance(b, Uint8Array) || n + b.length > lengths[i]) break;
        n += b.length;
        callWasm(() => w.payload(b));
        yield b;
      }
      parts[i] = null;
      if (n !== lengths[i]) throw new RagwasmError('INTERNAL', `ragwasm: container: section ${tags[i]}'s pieces do not add up to its length ${lengths[i]}`);
    }
    yield callWasm(() => w.seal());
  } finally {
    w.delete();
  }
}

/**
 * containerStream() taken whole: the pieces to write in turn (the sections' own bytes are not copied). Internal.
 * @param {string} magic
 * @param {number} version
 * @param {{tag: number, bytes: Uint8Array|Uint8Array[]}[]} sections as containerStream
 * @returns {Uint8Array[]} their concatenation is packContainer()'s result
 * @throws {RagwasmError} NOT_INITIALIZED
 */
export function containerPieces(magic, version, sections) {
  return [...containerStream(magic, version, sections)];
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
