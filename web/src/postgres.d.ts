// Types of ragwasm/postgres (web/src/postgres.js).
import type { Collection } from './pipeline/collection.js';

export { RagwasmError } from './core/errors.js';

/** Anything with node-postgres' query(text, params) -> {rows}: pg.Client, pg.Pool (search only), PGlite. */
export interface PostgresClient {
  query(text: string, params?: unknown[]): Promise<{ rows: any[] }>;
}

export declare const POSTGRES_SCHEMA_VERSION: 1;

export interface PostgresExportOptions {
  /** PostgreSQL schema (lower-case identifier), default 'ragwasm'. */
  schema?: string;
  /** Chunks per INSERT statement, default 2000 (the whole export is one transaction). */
  batchSize?: number;
  /** Default: when the collection has a dense index and the server has pgvector; true requires it. */
  vectors?: boolean;
  /** Default 'vector'; 'halfvec' halves the bytes per dimension. */
  vectorType?: 'vector' | 'halfvec';
  /** HNSW index on the embeddings, default true. */
  hnsw?: boolean;
  /** Write into a schema holding tables export did not create (they are adopted and overwritten), default false. */
  force?: boolean;
  onProgress?: (p: { phase: 'delete' | 'documents' | 'impacts'; done: number; total: number }) => void;
}

export interface PostgresExportResult {
  documents: number;
  upserted: number;
  removed: number;
  chunks: number;
  /** Impact rows written; null when the impact table was current. */
  impacts: number | null;
  vectors: boolean;
  warnings: string[];
}

export declare function exportToPostgres(collection: Collection, client: PostgresClient, options?: PostgresExportOptions): Promise<PostgresExportResult>;

export interface PostgresCheckResult {
  /** True when counts, document hashes, the BM25 settings, statistics and fingerprint all match. */
  ok: boolean;
  /** One line per difference found. */
  problems: string[];
  counts: { documents: number; chunks: number; impacts: number; embeddings: number | null };
}

/** Compares an exported schema with the collection (reads only); `ragwasm export --check`. */
export declare function checkExport(collection: Collection, client: PostgresClient, options?: { schema?: string }): Promise<PostgresCheckResult>;

export interface PostgresHit {
  id: string;
  docId: string;
  score: number;
}

export declare class PostgresRetriever {
  static open(client: PostgresClient, options?: { schema?: string; embedder?: object | ((texts: string[]) => Promise<Float32Array[]>) }): Promise<PostgresRetriever>;
  readonly schema: string;
  readonly config: any;
  readonly meta: Record<string, any>;
  queryTerms(query: string): { term: string; weight: number }[];
  searchBm25(query: string, k: number): Promise<PostgresHit[]>;
  searchDense(query: string, k: number, options?: { exact?: boolean }): Promise<PostgresHit[]>;
  search(query: string, options?: { k?: number; retriever?: 'bm25' | 'dense' | 'hybrid'; exact?: boolean }): Promise<PostgresHit[]>;
  dispose(): void;
}

export declare function connectPostgres(url: string): Promise<PostgresClient & { end(): Promise<void> }>;
export declare function parsePostgresUrl(url: string): URL;
export declare function maskUrl(url: string): string;
export declare function maskSecrets(text: string, url?: string): string;
/** A client that writes the export's statements (parameters inlined) instead of running them. */
export declare function sqlFileClient(write: (sql: string) => void | Promise<void>, options?: { vectors?: boolean }): PostgresClient;
/**
 * Bulk rows as CSV files (one per table; `format` 'text': the table's .tsv in COPY text format, for rows
 * with a line `\.` that psql ≤ 17 cannot read from CSV) + a psql script with \copy lines; see docs/postgres.md.
 */
export declare function csvFilesClient(write: (sql: string) => void | Promise<void>, appendCsv: (table: string, data: string, format: 'csv' | 'text') => void | Promise<void>, options?: { vectors?: boolean }): PostgresClient;
