// @ts-check
// SavedIndex: what Bm25Index and VectorIndex share about saved bytes. toBytes() (the native writer),
// _heapBytes() (the same bytes kept in the WASM heap for Collection.save(), docs/scale.md), save(name)
// and load(name) through named storage (storage.js), and the argument rules of fromBytes / _checkBytes.
import { callWasm } from './errors.js';
import { Handle } from './handle.js';
import { HeapBytes } from './heap-bytes.js';
import { wasm } from './module.js';
import { decodeIds } from './encode.js';
import { loadNamed, saveNamed } from './storage.js';
import { invalid, isInstance } from './validate.js';

/**
 * @internal fromBytes() of a saved index class: `bytes` (Uint8Array or ArrayBuffer) read by the module's
 * loader `loader` (e.g. 'sparse_loadIndex') into a new `Cls`.
 * @throws {RagwasmError} INVALID_ARGUMENT (not bytes), the loader's CORRUPT_INDEX / UNSUPPORTED_VERSION
 */
export function loadSaved(Cls, bytes, loader) {
  if (isInstance(bytes, ArrayBuffer)) bytes = new Uint8Array(bytes);
  if (!(isInstance(bytes, Uint8Array))) throw invalid('bytes', 'a Uint8Array or ArrayBuffer', bytes);
  const m = wasm();
  return new Cls(callWasm(() => m[loader](bytes)));
}

/**
 * @internal _checkBytes() of a saved index class: toBytes() output checked by the module's `saved`
 * checker, or a HeapBytes (_heapBytes()) checked in place by its `section` checker; each batch of saved
 * ids is handed to `onIds` (string[]). Returns the checker's summary.
 */
export function checkSaved(bytes, onIds, section, saved) {
  const m = wasm();
  const batch = (b) => onIds(decodeIds(b.bytes, b.lens));
  if (isInstance(bytes, HeapBytes)) return callWasm(() => m[section](bytes.native, batch));
  if (!(isInstance(bytes, Uint8Array))) throw invalid('bytes', 'a Uint8Array', bytes);
  return callWasm(() => m[saved](bytes, batch));
}

/**
 * @internal load(name) of a saved index class: the bytes stored under `name`, then Cls.fromBytes.
 * @throws {RagwasmError} NOT_FOUND (nothing stored under name, naming `what`), as fromBytes(), storage errors
 */
export function loadStored(Cls, what, name, opts) {
  return loadNamed(name, opts, what).then((bytes) => Cls.fromBytes(bytes));
}

export class SavedIndex extends Handle {
  /**
   * Serializes the index in its versioned saved format (docs/formats.md).
   * @returns {Uint8Array}
   * @throws {RagwasmError} DISPOSED
   */
  toBytes() {
    const native = this.native;
    return callWasm(() => native.save());
  }

  /**
   * @internal toBytes()' bytes kept in the WASM heap (Collection.save(): checked in place by
   * _checkBytes, then written in pieces; the caller disposes it).
   * @returns {HeapBytes}
   * @throws {RagwasmError} DISPOSED
   */
  _heapBytes() {
    const native = this.native;
    return new HeapBytes(callWasm(() => native.saveSection()));
  }

  /**
   * Stores toBytes() under `name`, atomically (storage.js); the class's static load(name) reads it back.
   * @param {string} name 1–200 of [A-Za-z0-9._-]
   * @param {{dir?: string, backend?: 'node'|'opfs'|'indexeddb'}} [opts]
   * @returns {Promise<void>}
   * @throws {RagwasmError} INVALID_ARGUMENT (bad name), DISPOSED, storage errors
   */
  save(name, opts) {
    return saveNamed(this, name, opts);
  }
}
