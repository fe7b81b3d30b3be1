export const COLLECTION_FORMAT_VERSION: number;
/** Version of the JSONL export format (the header line's "version"). */
export const JSONL_FORMAT_VERSION: number;
export type EmbedKind = 'query' | 'document';
/**
 * The embedder contract (web/src/embed/contract.js) or what asEmbedder() adapts: an object with
 * embed(texts, {kind}) and dimension (or dims), a StaticEmbedder ({embedSync, dims}), or an async
 * function (pass options.dimension). `id` names the model; saved collections store it.
 */
export type CollectionEmbedder =
  | { id?: string; dimension?: number; dims?: number; embed(texts: string[], options?: { kind?: EmbedKind; signal?: AbortSignal }): Promise<Float32Array[] | number[][]> }
  | { id?: string; dims: number; embedSync(texts: string[]): Float32Array[] }
  | ((texts: string[], options?: { kind?: EmbedKind; signal?: AbortSignal }) => Promise<Float32Array[] | number[][]>);
/** Bm25Index's filter language, applied to document metadata on both legs (docs/collection.md). */
export type CollectionFilter = Record<string, string | number | Array<string | number> | { in: Array<string | number> } | { gte?: number; gt?: number; lte?: number; lt?: number }>;
/** add()/upsert() progress: done/total in characters of document text chunked and embedded (a call per document and
 *  per 256 chunks of a large one, done monotone; the last call, done === total, once everything is written). */
export interface CollectionAddProgress { done: number; total: number; unit: 'characters'; documents: number; totalDocuments: number }
export interface CollectionDocument {
  id: string; text: string;
  /** indexed as the BM25 field "title" (default boost 1) and visible to the context template as {title}; add() derives
   *  it when absent: documentTitle(text, id) (the first "# " heading, else the id without path and extension), which
   *  the BM25 title field and ask()'s extractive answerer use; null: no title */
  title?: string | null;
  /** strings and finite numbers are filterable; booleans and null are kept but not filterable */
  metadata?: Record<string, string | number | boolean | null>;
  /** other BM25 fields named in indexes.bm25.fields */
  [field: string]: unknown;
}
/** What add() and upsert() resolve to: the write summary of every index plus the collection's counts. */
export interface CollectionWriteSummary {
  added: number; updated: number; removed: number; skipped: number;
  documents: number; chunks: number; zeroVectors: string[];
}
export interface CollectionHit {
  id: string; docId: string; text: string; start: number; end: number; score: number;
  title?: string;
  contributions?: import('../retrieve/fusion.js').Contribution[];
  rerankScore?: number; retrievalRank?: number;
}
/** search(q, {level: 'document'}): one item per document, from its best chunk (aggregation 'max'). */
export interface CollectionDocumentHit {
  id: string; docId: string; score: number; chunks: number; bestChunk: string; text: string; start: number; end: number; title?: string;
}
export interface CollectionSearchOptions {
  k?: number; explain?: boolean; signal?: AbortSignal; filter?: CollectionFilter | ((item: CollectionHit) => unknown);
  reranker?: (query: string, items: CollectionHit[]) => Promise<number[]> | number[];
  /** The BM25 leg's typo-tolerant and type-ahead options (Bm25Index.search). */
  prefix?: import('../retrieve/sparse.js').Bm25SearchOptions['prefix'];
  fuzzy?: import('../retrieve/sparse.js').Bm25SearchOptions['fuzzy'];
  maxFuzzy?: number; weights?: { prefix?: number; fuzzy?: number };
  combineWith?: 'AND' | 'OR' | 'and' | 'or'; boost?: Record<string, number>;
}
/** The first line of exportJsonl() (unless header: false); chunk lines have no `type`. */
export interface CollectionJsonlHeader {
  type: 'ragwasm.collection'; version: number; config: import('./pipeline.js').PipelineConfig;
  /** the dense index's dimension, null without one */
  dimension: number | null; documents: number; chunks: number; vectors: boolean;
  /** the embedder that made the vectors */
  embedder?: { id: string; dimension: number };
}
/** One chunk line of exportJsonl(). */
export interface CollectionJsonlChunk {
  id: string; docId: string; ordinal: number; text: string; start: number; end: number;
  /** the document's metadata */
  metadata: Record<string, string | number | boolean | null>;
  /** what was indexed, when the chunker added context */
  indexText?: string;
  /** the document's BM25 fields other than the chunk text, e.g. {title} */
  fields?: Record<string, string>;
  /** float32 values widened to doubles (exportJsonl({vectors: true})) */
  vector?: number[];
}
/** A document without chunks (empty text), in its place among the chunk lines. */
export interface CollectionJsonlDocument { type: 'ragwasm.document'; id: string; metadata: Record<string, string | number | boolean | null>; fields?: Record<string, string> }
export interface CollectionExportOptions {
  /** write each chunk's vector (needs the dense index). Default false. */
  vectors?: boolean;
  /** write the header line first. Default true. */
  header?: boolean;
  /** chunks embedded at a time when vectors are not kept. Default 256. */
  batchSize?: number;
  signal?: AbortSignal;
  onProgress?: (progress: {done: number, total: number}) => void;
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
  onProgress?: (progress: {done: number, total: number}) => void;
  signal?: AbortSignal;
}
/**
 * A Collection created or loaded with a `workers` count that may be > 1: its BM25 and dense legs are
 * sharded across Workers (docs/parallel.md), and toBytes() then returns a Promise of the bytes.
 */
/**
 * The LLM of a config's context steps (Collection.create option `llm`): an LlmClient of ragwasm/llm
 * (createLlmClient) has both methods. chunker.context.llmSummary calls documentSummary once per document,
 * chunker.context.llmChunkContext calls chunkContexts once per document (one request per chunk).
 */
export interface CollectionLlm {
  documentSummary(document: { id: string; title?: string; text: string }, options: { prompt?: object; maxTokens?: number; signal?: AbortSignal }): Promise<string>;
  chunkContexts(document: { id: string; title?: string; text: string }, chunks: { id: string; text: string }[],
    options: { prompt?: object; maxTokens?: number; signal?: AbortSignal }): Promise<string[]>;
}
/** The LLM context steps a pipeline config asks for (chunker.context.llmSummary, llmChunkContext): what Collection.create needs `llm` for. */
export function llmContextSteps(config: string | object): Array<{ key: 'llmSummary' | 'llmChunkContext'; path: string; options: { prompt?: object; maxTokens?: number } }>;
/**
 * An LLM for the context steps that asks each question once (memoized by document, chunks and step
 * options; failures are forgotten): two autotune runs or collections over the same documents share one set of calls.
 * stats: documents summarized and chunks given a context through the memo, and answers reused.
 * @throws RagwasmError INVALID_ARGUMENT when llm has neither method
 */
export function memoizeContextSteps(llm: CollectionLlm): CollectionLlm & { stats: { summaries: number; chunkContexts: number; reused: number } };
export type ParallelCollection = Omit<Collection, 'toBytes'> & { toBytes(): Uint8Array | Promise<Uint8Array> };
export class Collection {
  /** Not constructible: use Collection.create / load / fromBytes / importJsonl (new throws INVALID_ARGUMENT at run time). */
  private constructor(cfg: object, embedder: unknown, dimension: number | undefined, legs: unknown, docs: Map<string, object>, keepVectors?: boolean, zeroVectors?: string[]);
  static create(config?: string | object, options?: { embedder?: CollectionEmbedder; dimension?: number; keepVectors?: boolean; workers?: 1; llm?: CollectionLlm }): Promise<Collection>;
  /** workers 1–64: both legs sharded across that many Workers (flat dense index, default static model; docs/parallel.md) */
  static create(config: string | object | undefined, options: { embedder?: CollectionEmbedder; dimension?: number; keepVectors?: boolean; workers: number; llm?: CollectionLlm }): Promise<ParallelCollection>;
  static fromBytes(bytes: Uint8Array, options: { embedder: CollectionEmbedder; dimension?: number; keepVectors?: boolean; workers?: 1; llm?: CollectionLlm }): Collection;
  /** No embedder: a dense collection saved with the default static model loads it (createStaticEmbedder()) and the
   *  result is a Promise; another saved embedder id is refused (INVALID_ARGUMENT naming it). */
  static fromBytes(bytes: Uint8Array, options?: { embedder?: undefined; dimension?: number; keepVectors?: boolean; workers?: 1; llm?: CollectionLlm }): Collection | Promise<Collection>;
  /** workers > 1: the checked chunks are indexed again into sharded legs across a new pool. */
  static fromBytes(bytes: Uint8Array, options: { embedder?: CollectionEmbedder; dimension?: number; keepVectors?: boolean; workers: number; llm?: CollectionLlm }): Collection | Promise<ParallelCollection>;
  static load(name: string, options?: { embedder?: CollectionEmbedder; dimension?: number; keepVectors?: boolean; workers?: 1; llm?: CollectionLlm; dir?: string; backend?: 'node' | 'opfs' | 'indexeddb' }): Promise<Collection>;
  static load(name: string, options: { embedder?: CollectionEmbedder; dimension?: number; keepVectors?: boolean; workers: number; llm?: CollectionLlm; dir?: string; backend?: 'node' | 'opfs' | 'indexeddb' }): Promise<ParallelCollection>;
  /** Workers the indexes are sharded across (1 = none, the calling thread). */
  readonly workers: number;
  /** Builds a collection from exportJsonl() output (a string, or its lines as an (async) iterable). */
  static importJsonl(input: string | Iterable<string> | AsyncIterable<string>, options?: CollectionImportOptions): Promise<Collection>;
  /** What saved bytes hold (config, embedder identity, counts) without loading the indexes. */
  /** True when bytes start like saved collection bytes (any format version; the magic only). */
  static isCollectionBytes(bytes: Uint8Array): boolean;
  static inspect(bytes: Uint8Array): { version: number; config: import('./pipeline.js').PipelineConfig; embedder: { id: string; dimension: number } | null; documents: number; chunks: number };
  readonly config: import('./pipeline.js').PipelineConfig;
  /** @internal Documents by id (chunk-store.js DocRecord: metadata, chunks made on demand); exportToPostgres reads them. */
  readonly docs: Map<string, { metadata?: object; chunkList(): Array<{ id: string; ordinal: number; start: number; end: number; text: string }> }>;
  /** @internal Chunk id -> chunk, Map-like and read-only (chunk-store.js ChunkMap). */
  readonly chunks: { readonly size: number; has(id: string): boolean; get(id: string): object | undefined };
  /** @internal The embedder's dimension when the config has a dense index. */
  readonly dimension?: number;
  /** @internal The BM25 index: a Bm25Index, or a ShardedBm25Index with workers > 1; null without one. */
  readonly bm25: import('../retrieve/sparse.js').Bm25Index | import('../parallel/sharded.js').ShardedBm25Index | null;
  /** @throws DISPOSED */
  readonly size: number;
  readonly disposed: boolean;
  /** The embedder's identity as saved, null without one. */
  readonly embedderInfo: { id: string; dimension: number } | null;
  /** Chunk ids whose embedding is all zeros (kept out of the dense leg). */
  readonly zeroVectors: ReadonlySet<string>;
  /** Chunks and indexes documents (an array, or one document); an id already in the collection is replaced (counted in
   *  `updated`). Resolves to every index's write summary with the documents in the call, the chunks indexed and the
   *  chunk ids kept out of the dense leg (all-zero embeddings); upsert() resolves to the same shape. */
  add(documents: CollectionDocument | CollectionDocument[],
    options?: { onProgress?: (progress: CollectionAddProgress) => void; signal?: AbortSignal; batchSize?: number;
      /** one context per chunk (e.g. llmChunkContexts(client) of ragwasm/llm), put before the chunk text in its indexText */
      chunkContexts?: (document: { id: string; title?: string; text: string }, chunks: { id: string; text: string }[]) => string[] | Promise<string[]> }): Promise<CollectionWriteSummary>;
  /** Adds or replaces documents (ids in the collection are replaced): the collection remove(existing ids) then add(documents)
   *  gives (hits and toBytes() bytes), with the write summary; nothing is removed before every document is chunked and embedded. */
  upsert(documents: CollectionDocument | CollectionDocument[],
    options?: Parameters<Collection['add']>[1]): Promise<CollectionWriteSummary>;
  remove(ids: string[]): number;
  /**
   * Reclaims what remove() and replacing add() leave in the indexes: BM25 postings of deleted chunks, and an HNSW
   * dense index's tombstones (its graph rebuilt from the live vectors in insertion order). Runs in turn with
   * add()/save(); search results of a flat index are unchanged. Resolves to the dense tombstones dropped.
   */
  compact(): Promise<{ vectorsDropped: number }>;
  search(query: string, options: CollectionSearchOptions & { level: 'document' }): Promise<CollectionDocumentHit[]>;
  search(query: string, options?: CollectionSearchOptions & { level?: 'chunk' }): Promise<CollectionHit[]>;
  /** Re-embeds every chunk with another embedder into a new dense index; swaps only when complete. */
  setEmbedder(embedder: CollectionEmbedder, options?: { dimension?: number; signal?: AbortSignal; batchSize?: number;
    onProgress?: (progress: {done: number, total: number}) => void }): Promise<{ chunks: number; zeroVectors: string[] }>;
  /**
   * Label-free leg check (docs/fusion.md "Leg check"): self-retrieval MRR@10 of probe sentences per
   * retriever; the default hybrid benches a weak leg. search() runs it by itself when needed.
   */
  checkLegs(options?: { signal?: AbortSignal }): Promise<import('../retrieve/leg-check.js').LegCheckReport>;
  /** The last leg check (null before the first) and the number of chunks it saw. */
  readonly legReport: import('../retrieve/leg-check.js').LegCheckReport | null;
  readonly legCheckedAt: number;
  toBytes(): Uint8Array;
  /** Checks the bytes as fromBytes() would (no second index built), then replaces the stored copy atomically;
   * runs after an add()/setEmbedder() in progress, and one called during the save waits for it; ABORTED
   * (stored copy kept) when a remove() changed the collection during the write. */
  save(name: string, opts?: { dir?: string; backend?: 'node' | 'opfs' | 'indexeddb' }): Promise<void>;
  /** The JSONL export as lines without newlines (header, then one per chunk). */
  exportJsonlLines(options?: CollectionExportOptions): AsyncGenerator<string, void, undefined>;
  /** The JSONL export as one string ending in a newline. */
  exportJsonl(options?: CollectionExportOptions): Promise<string>;
  dispose(): void;
}

/** @internal A config's dense index section -> VectorIndex options. */
export function denseOptions(c: object, dimension: number): import('../retrieve/dense.js').VectorIndexOptions;
/** @internal The chunk() options of a config's chunker section. */
export function chunkOptions(c: object, embedder?: unknown): import('../chunk/chunk.js').ChunkOptions;
/** @internal Whether a document's metadata matches a filter checked with checkFilter. */
export function metadataMatches(metadata: object, filter: object): boolean;
