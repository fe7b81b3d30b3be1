export const COLLECTION_FORMAT_VERSION: number;
/** Version of the JSONL export format (the header line's "version"). */
export const JSONL_FORMAT_VERSION: number;
export type CollectionEmbedder = { embedSync(texts: string[]): Float32Array[]; dims: number } | ((texts: string[]) => Promise<Float32Array[]>);
export interface CollectionHit {
  id: string; docId: string; text: string; start: number; end: number; score: number;
  contributions?: import('../retrieve/fusion.js').Contribution[];
  rerankScore?: number; retrievalRank?: number;
}
/** The first line of exportJsonl() (unless header: false); chunk lines have no `type`. */
export interface CollectionJsonlHeader {
  type: 'ragwasm.collection'; version: number; config: import('./pipeline.js').PipelineConfig;
  /** the dense index's dimension, null without one */
  dimension: number | null; documents: number; chunks: number; vectors: boolean;
}
/** One chunk line of exportJsonl(). */
export interface CollectionJsonlChunk {
  id: string; docId: string; ordinal: number; text: string; start: number; end: number;
  /** the document's metadata */
  metadata: Record<string, string | number | boolean | null>;
  /** float32 values widened to doubles (exportJsonl({vectors: true})) */
  vector?: number[];
}
/** A document without chunks (empty text), in its place among the chunk lines. */
export interface CollectionJsonlDocument { type: 'ragwasm.document'; id: string; metadata: Record<string, string | number | boolean | null> }
export interface CollectionExportOptions {
  /** write each chunk's vector (needs the dense index). Default false. */
  vectors?: boolean;
  /** write the header line first. Default true. */
  header?: boolean;
  /** chunks embedded at a time when vectors are not kept. Default 256. */
  batchSize?: number;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}
export interface CollectionImportOptions {
  /** overrides the header's config (default: the header's, else the default pipeline) */
  config?: string | object;
  embedder?: CollectionEmbedder;
  /** when embedder is a function (default: the header's dimension) */
  dimension?: number;
  keepVectors?: boolean;
  /** chunks indexed (and embedded) at a time. Default 256. */
  batchSize?: number;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}
export class Collection {
  static create(config?: string | object, options?: { embedder?: CollectionEmbedder; dimension?: number; keepVectors?: boolean }): Promise<Collection>;
  static fromBytes(bytes: Uint8Array, options?: { embedder?: CollectionEmbedder; dimension?: number; keepVectors?: boolean }): Collection;
  static load(name: string, options?: { embedder?: CollectionEmbedder; dimension?: number; keepVectors?: boolean; dir?: string; backend?: 'node' | 'opfs' | 'indexeddb' }): Promise<Collection>;
  /** Builds a collection from exportJsonl() output (a string, or its lines as an (async) iterable). */
  static importJsonl(input: string | Iterable<string> | AsyncIterable<string>, options?: CollectionImportOptions): Promise<Collection>;
  readonly config: import('./pipeline.js').PipelineConfig;
  readonly size: number;
  add(documents: { id: string; text: string; metadata?: object }[],
    options?: { onProgress?: (done: number, total: number) => void; signal?: AbortSignal; batchSize?: number }): Promise<{ documents: number; chunks: number }>;
  remove(ids: string[]): number;
  search(query: string, options?: { k?: number; explain?: boolean; signal?: AbortSignal;
    reranker?: (query: string, items: CollectionHit[]) => Promise<number[]> | number[] }): Promise<CollectionHit[]>;
  /**
   * Label-free leg check (docs/fusion.md "Leg check"): self-retrieval MRR@10 of probe sentences per
   * retriever; the default hybrid benches a weak leg. search() runs it by itself when needed.
   */
  checkLegs(options?: { signal?: AbortSignal }): Promise<import('../retrieve/leg-check.js').LegCheckReport>;
  /** The last leg check (null before the first) and the number of chunks it saw. */
  readonly legReport: import('../retrieve/leg-check.js').LegCheckReport | null;
  readonly legCheckedAt: number;
  toBytes(): Uint8Array;
  save(name: string, opts?: { dir?: string; backend?: 'node' | 'opfs' | 'indexeddb' }): Promise<void>;
  /** The JSONL export as lines without newlines (header, then one per chunk). */
  exportJsonlLines(options?: CollectionExportOptions): AsyncGenerator<string, void, undefined>;
  /** The JSONL export as one string ending in a newline. */
  exportJsonl(options?: CollectionExportOptions): Promise<string>;
  dispose(): void;
}
