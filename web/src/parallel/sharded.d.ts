import type { WorkerPool, WorkerPoolOptions } from './pool.js';
import type { Bm25Hit, Bm25SearchOptions, CollectionStats, WriteSummary } from '../retrieve/sparse.js';
import type { VectorHit } from '../retrieve/dense.js';

/** A pool to share, or the size (and init options) of a new one the index owns. */
export interface ParallelOptions extends WorkerPoolOptions {
  pool?: WorkerPool;
}

/** Version of the sharded BM25 format toBytes() writes. */
export declare const SHARDED_BM25_FORMAT_VERSION: number;

/** Version of the sharded vector format toBytes() writes. */
export declare const SHARDED_VECTOR_FORMAT_VERSION: number;

/** BM25 sharded by document across Workers; scores equal one Bm25Index's bit for bit (docs/parallel.md). */
export declare class ShardedBm25Index {
  /** Number of shards (the pool's Workers, or create()'s `shards`: the pool's first Workers). */
  readonly shards: number;
  /** Frees every shard; terminates the pool when the index created it. */
  dispose(): Promise<void>;
  /**
   * `parallel.shards` (1 to the pool's size, default the pool's size): fewer shards than Workers leave
   * the other Workers free for other work in the same pool, e.g. `shards: 1` builds one index in the
   * first Worker while every Worker embeds (no second dictionary, no statistics sync; docs/parallel.md).
   */
  static create(options?: object, parallel?: ParallelOptions & { shards?: number }): Promise<ShardedBm25Index>;
  readonly size: number;
  add(docs: object | object[]): Promise<WriteSummary>;
  /** Adds or replaces by id; a shard that refuses its part undoes the other shards' additions (not their replacements). */
  upsert(docs: object | object[]): Promise<WriteSummary>;
  remove(ids: string | string[], options?: { ignoreMissing?: boolean }): Promise<WriteSummary>;
  /** As Bm25Index.compact on every shard (statistics are synced again before the next search). */
  compact(): Promise<void>;
  /** The analyzer's terms for a text (synchronous: an empty index of the same options in this thread). */
  analyze(text: string): string[];
  collectionStats(): Promise<CollectionStats>;
  /** The sharded format in the one container: magic RWSHBM25 (version 2), a JSON header and each shard's Bm25Index bytes (docs/parallel.md). */
  toBytes(): Promise<Uint8Array>;
  /** Loads toBytes() output into a pool of the saved shard count. */
  static fromBytes(bytes: Uint8Array | ArrayBuffer, parallel?: ParallelOptions): Promise<ShardedBm25Index>;
  search(query: string, options?: Omit<Bm25SearchOptions, 'rm3'>): Promise<Bm25Hit[]>;
  searchMany(queries: string[], options?: Omit<Bm25SearchOptions, 'rm3'>): Promise<Bm25Hit[][]>;
}

/** A flat (f32 / int8) vector index sharded across Workers; results equal one VectorIndex's. */
export declare class ShardedVectorIndex {
  /** Number of shards (= the pool's Workers). */
  readonly shards: number;
  /** Frees every shard; terminates the pool when the index created it. */
  dispose(): Promise<void>;
  static create(
    options: { dimension: number; metric?: 'cosine' | 'dot' | 'l2'; storage?: 'f32' | 'int8'; index?: 'flat' },
    parallel?: ParallelOptions,
  ): Promise<ShardedVectorIndex>;
  readonly dimension: number;
  readonly size: number;
  add(items: { id: string; vector: Float32Array | number[] } | Array<{ id: string; vector: Float32Array | number[] }>): Promise<WriteSummary>;
  upsert(items: { id: string; vector: Float32Array | number[] } | Array<{ id: string; vector: Float32Array | number[] }>): Promise<WriteSummary>;
  remove(ids: string | string[], options?: { ignoreMissing?: boolean }): Promise<WriteSummary>;
  /** As VectorIndex.compact on every shard (flat: removals are physical, so 0). */
  compact(): Promise<number>;
  search(query: Float32Array | number[], options?: { k?: number; filter?: string[] | Set<string> }): Promise<VectorHit[]>;
  /** The sharded format in the one container: magic RWSHVEC1 (version 2), a JSON header and per shard its VectorIndex bytes, ids and ordinals. */
  toBytes(): Promise<Uint8Array>;
  /** Loads toBytes() output into a pool of the saved shard count. */
  static fromBytes(bytes: Uint8Array | ArrayBuffer, parallel?: ParallelOptions): Promise<ShardedVectorIndex>;
  searchMany(queries: Array<Float32Array | number[]>, options?: { k?: number; filter?: string[] | Set<string> }): Promise<VectorHit[][]>;
}

/** The static embedder in every Worker of a pool, under the embedder contract. */
export interface ParallelEmbedder {
  readonly dimension: number;
  readonly id: string;
  embed(texts: string[], options?: { kind?: 'query' | 'document'; signal?: AbortSignal; onProgress?: (p: { done: number; total: number }) => void }): Promise<Float32Array[]>;
  /**
   * The vectors of documents' fields joined by one space (default fields ['title', 'text']; a null or
   * undefined field is left out): embed() of the joined strings bit for bit, without making them in the
   * calling thread (the fields' own strings are posted; the Workers write the joined UTF-8).
   */
  embedDocuments(documents: Array<Record<string, unknown>>, options?: { fields?: string[]; kind?: 'query' | 'document'; signal?: AbortSignal; onProgress?: (p: { done: number; total: number }) => void }): Promise<Float32Array[]>;
  dispose(): Promise<void>;
}

export declare function createParallelEmbedder(options?: ParallelOptions & {
  model?: ArrayBuffer | Uint8Array | Blob | Response | URL | string;
  /** most texts per message, 1–65536 (default 2048); with several Workers the last batches shrink, down to 64 texts */
  batch?: number;
}): Promise<ParallelEmbedder>;
