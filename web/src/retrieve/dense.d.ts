import type { WriteSummary } from './sparse.js';
import type { StorageOptions } from '../core/storage.js';
export type Metric = 'cosine' | 'dot' | 'l2';
export type VectorStorage = 'f32' | 'int8' | 'binary';
export interface HnswOptions {
  /** Links per node on levels >= 1 (level 0 keeps 2M); 2..128. Default 16. */
  M?: number;
  /** Candidate list size while inserting; 1..100000. Default 200. */
  efConstruction?: number;
  /** Default candidate list size while searching; 1..100000. Default 64. */
  efSearch?: number;
  /** Level generator seed, integer in [0, 2^53). Default 42. */
  seed?: number;
}
export interface VectorIndexOptions {
  /** Vector length, 1..8192 (required). */
  dimension: number;
  /** Default 'cosine' (vectors are normalized when added). */
  metric?: Metric;
  /** Default 'f32'. 'binary' needs index 'flat'. */
  storage?: VectorStorage;
  /** Copy kept to rescore binary candidates. Default 'int8'. */
  binaryRescore?: 'int8' | 'f32';
  /** Default 'flat' (exact). */
  index?: 'flat' | 'hnsw';
  hnsw?: HnswOptions;
}
export interface ResolvedVectorIndexOptions {
  dimension: number;
  metric: Metric;
  storage: VectorStorage;
  binaryRescore: 'int8' | 'f32';
  index: 'flat' | 'hnsw';
  hnsw: Required<HnswOptions>;
}
export interface VectorSearchOptions {
  /** 1..100000. Default 10. */
  k?: number;
  /** Keep only ids for which the function returns true, or the listed ids. */
  filter?: ((id: string) => boolean) | string[] | Set<string>;
  /** HNSW candidate list size (default: the index's efSearch). */
  efSearch?: number;
  /** Binary storage: rescore the best k*rescore Hamming candidates; 0 = Hamming scores. Default 8. */
  rescore?: number;
  /** HNSW: scan every vector instead. Default false. */
  exact?: boolean;
}
export interface VectorHit {
  id: string;
  /** Higher is better: cosine, dot, or -(squared L2 distance). */
  score: number;
}
export interface VectorItem {
  id: string;
  vector: Float32Array | number[];
}
/** A vector index owning WASM memory: call dispose() when done. */
export class VectorIndex {
  /** Not constructible: use the static factories (new throws INVALID_ARGUMENT at run time). */
  private constructor(native: object);
  static create(options: VectorIndexOptions): VectorIndex;
  static fromBytes(bytes: Uint8Array | ArrayBuffer): VectorIndex;
  /** @internal Collection.save()'s check of a saved section without building the index. */
  static _checkBytes(bytes: Uint8Array | object, onIds: (ids: string[]) => void): { dimension: number; size: number };
  static load(name: string, opts?: StorageOptions): Promise<VectorIndex>;
  readonly options: ResolvedVectorIndexOptions;
  readonly dimension: number;
  readonly size: number;
  add(items: VectorItem | VectorItem[]): WriteSummary;
  upsert(items: VectorItem | VectorItem[]): WriteSummary;
  remove(ids: string | string[], options?: { ignoreMissing?: boolean }): WriteSummary;
  /** HNSW: rebuilds the graph without the tombstones of remove()/upsert() (equal to a fresh build of the live vectors in insertion order). Returns the tombstones dropped (0 for a flat index). */
  compact(): number;
  has(id: string): boolean;
  search(query: Float32Array | number[], options?: VectorSearchOptions): VectorHit[];
  /** search() of each query; a flat f32/int8 index scores the whole batch in one pass over the vectors. */
  searchMany(queries: Array<Float32Array | number[]>, options?: VectorSearchOptions): VectorHit[][];
  toBytes(): Uint8Array;
  save(name: string, opts?: StorageOptions): Promise<void>;
  dispose(): void;
  readonly disposed: boolean;
}
export function denseSimdEnabled(): boolean;
export const VECTOR_MAX_DIMENSION: number;
export const VECTOR_MAX_K: number;
