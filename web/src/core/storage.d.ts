export type StorageBackend = 'node' | 'opfs' | 'indexeddb';
export interface StorageOptions {
  /** Node only: the folder (default ./.ragwasm-store). */
  dir?: string;
  /** Force a backend (default: node in Node, else OPFS, else IndexedDB). */
  backend?: StorageBackend;
}
export function storageBackend(options?: StorageOptions): Promise<StorageBackend>;
/** Atomically stores bytes under a name (1–200 of [A-Za-z0-9._-]). */
export function saveBytes(name: string, bytes: Uint8Array | ArrayBuffer, options?: StorageOptions): Promise<void>;
/** The stored bytes, or null. */
export function loadBytes(name: string, options?: StorageOptions): Promise<Uint8Array | null>;
export function removeBytes(name: string, options?: StorageOptions): Promise<boolean>;
export function listStored(options?: StorageOptions): Promise<string[]>;
/** @internal save(name) of the saved indexes: obj.toBytes() stored under name. */
export function saveNamed(obj: { toBytes(): Uint8Array }, name: string, opts?: StorageOptions): Promise<void>;
/** @internal load(name) of the saved indexes: the stored bytes, NOT_FOUND naming `what`. */
export function loadNamed(name: string, opts: StorageOptions | undefined, what: string): Promise<Uint8Array>;
/** @internal Collection.save(): stores an array or an iterator of byte pieces atomically, each written before the next is taken. */
export function savePieces(name: string, pieces: Uint8Array[] | Iterator<Uint8Array>, options?: StorageOptions): Promise<void>;
