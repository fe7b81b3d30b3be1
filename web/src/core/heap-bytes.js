// @ts-check
// HeapBytes: an index's saved bytes kept in the WASM heap (the C++ writer's output, held by the binding
// common_SavedSection, wasm/bind_saved.h), for Collection.save(): the section is checked in place
// (Bm25Index._checkBytes / VectorIndex._checkBytes take it), then copied out one piece at a time as
// it is written, then disposed. At 1M chunks the two index sections are ~216 MB that save() held as JS
// ArrayBuffers before (issue #18 item 6, docs/scale.md). Internal.
import { callWasm } from './errors.js';
import { Handle } from './handle.js';
import { wasm } from './module.js';

/** Most bytes one piece of pieces() holds (storage.js writes at most this much at once too). */
export const HEAP_PIECE_BYTES = 8 << 20;

let live = 0;

/** @internal white-box tests: how many HeapBytes are not disposed (a save that throws must leave 0). */
export function liveHeapBytes() {
  return live;
}

export class HeapBytes extends Handle {
  /** @param {object} native a common_SavedSection (from an index binding's saveSection()) */
  constructor(native) {
    super(native);
    live++;
    let w;
    try {
      w = callWasm(() => native.where());
    } catch (e) {
      this.dispose();
      throw e;
    }
    this._address = w.address;
    /** The byte count. */
    this.length = w.length;
  }

  /**
   * The bytes in turn, each piece copied out of the heap into one reused buffer of at most `size`
   * bytes: a piece is valid until the next one is taken (savePieces writes each before taking the
   * next). Disposes this object when the last piece was taken, or when the iteration is abandoned.
   * @param {number} [size]
   * @returns {Generator<Uint8Array>}
   */
  * pieces(size = HEAP_PIECE_BYTES) {
    try {
      const buf = new Uint8Array(Math.min(size, this.length));
      for (let at = 0; at < this.length; at += size) {
        this.native;  // DISPOSED once disposed
        const n = Math.min(size, this.length - at);
        const heap = wasm().HEAPU8;  // read each time: a memory growth (between pieces) replaces the buffer
        buf.set(heap.subarray(this._address + at, this._address + at + n));
        yield n === buf.length ? buf : buf.subarray(0, n);
      }
    } finally {
      this.dispose();
    }
  }

  /** XXH64 of the bytes (16 hex digits), computed in place in the heap (save() compares a section made again with the one it checked). */
  hash() {
    const native = this.native;
    return callWasm(() => native.hash());
  }

  dispose() {
    if (!this.disposed) live--;
    super.dispose();
  }
}
