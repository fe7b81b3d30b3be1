// The one saved container (docs/formats.md: 8-byte magic, u32 version, tagged u64-length sections,
// XXH64 seal) for the JS-side saved objects, written and checked by the C++ container
// (src/common/container.cpp through wasm/bind_common.cpp). Needs init().
import { RagwasmError, callWasm } from './errors.js';
import { wasm } from './module.js';

/**
 * Packs sections into the container. Internal: the callers build the sections themselves.
 * @param {string} magic exactly 8 ASCII characters, e.g. "RWCOLLEC"
 * @param {number} version format version (unsigned 32-bit)
 * @param {{tag: number, bytes: Uint8Array}[]} sections written in order; tags unique
 * @returns {Uint8Array}
 * @throws {RagwasmError} NOT_INITIALIZED
 */
export function packContainer(magic, version, sections) {
  const m = wasm();
  const total = sections.reduce((s, x) => s + x.bytes.length, 0);
  const payload = new Uint8Array(total);
  let at = 0;
  for (const s of sections) {
    payload.set(s.bytes, at);
    at += s.bytes.length;
  }
  return callWasm(() => m.common_packContainer(magic, version, sections.map((s) => s.tag), payload, sections.map((s) => s.bytes.length)));
}

/**
 * Checks and splits a container (size, magic, version, seal, every section length: container::unpack).
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
