export const COLLECTION_FORMAT_VERSION: number;
export type CollectionEmbedder = { embedSync(texts: string[]): Float32Array[]; dims: number } | ((texts: string[]) => Promise<Float32Array[]>);
export interface CollectionHit {
  id: string; docId: string; text: string; start: number; end: number; score: number;
  contributions?: import('./fusion.js').Contribution[];
  rerankScore?: number; retrievalRank?: number;
}
export class Collection {
  static create(config?: string | object, options?: { embedder?: CollectionEmbedder; dimension?: number }): Promise<Collection>;
  static fromBytes(bytes: Uint8Array, options?: { embedder?: CollectionEmbedder; dimension?: number }): Collection;
  static load(name: string, options?: { embedder?: CollectionEmbedder; dimension?: number; dir?: string; backend?: 'node' | 'opfs' | 'indexeddb' }): Promise<Collection>;
  readonly config: import('./pipeline.js').PipelineConfig;
  readonly size: number;
  add(documents: { id: string; text: string; metadata?: object }[],
    options?: { onProgress?: (done: number, total: number) => void; signal?: AbortSignal; batchSize?: number }): Promise<{ documents: number; chunks: number }>;
  remove(ids: string[]): number;
  search(query: string, options?: { k?: number; explain?: boolean; signal?: AbortSignal;
    reranker?: (query: string, items: CollectionHit[]) => Promise<number[]> | number[] }): Promise<CollectionHit[]>;
  toBytes(): Uint8Array;
  save(name: string, opts?: { dir?: string; backend?: 'node' | 'opfs' | 'indexeddb' }): Promise<void>;
  exportJsonl(): string;
  dispose(): void;
}
