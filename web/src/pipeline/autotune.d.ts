import type { PipelineConfig } from './pipeline.js';
import type { EmbedderLike } from '../embed/contract.js';

/** strategy: recursive, fixed or token; with options.base every pipeline-config strategy (default: the base's). */
export interface AutotuneChunker { strategy?: 'recursive' | 'fixed' | 'token' | 'markdown' | 'markdown-header' | 'sentence' | 'semantic'; chunkSize: number; chunkOverlap?: number }
export interface AutotuneBm25 { k1?: number; b?: number }
/** One leg alone, or fuse() options over the lists [bm25, dense]. */
export type AutotuneFusion =
  | { retriever: 'bm25' | 'dense' }
  | { mode?: 'rrf' | 'convex' | 'combsum' | 'combmnz'; normalization?: 'minmax' | 'zscore' | 'rank'; weights?: [number, number]; rrfK?: number };
export interface AutotuneGrid {
  chunker?: AutotuneChunker[];
  bm25?: AutotuneBm25[];
  fusion?: AutotuneFusion[];
  k?: number[];
}
export const DEFAULT_AUTOTUNE_GRID: Readonly<Required<AutotuneGrid>>;

export type EvidenceLabel = string | { text?: string; docId?: string; start?: number; end?: number };
export interface AutotuneProgress { done: number; total: number; phase: 'chunk' | 'context' | 'embed' | 'index' | 'evaluate'; row?: AutotuneRow }
export interface AutotuneRow {
  index: number;
  chunker: Required<AutotuneChunker>;
  bm25: Required<AutotuneBm25>;
  fusion: AutotuneFusion;
  fusionLabel: string;
  k: number;
  /** mean of the metric over the labelled queries */
  value: number;
}
export interface BootstrapInterval { meanDifference: number; low: number; high: number; alpha: number; samples: number }
export interface AutotuneResult {
  best: AutotuneRow & { config: PipelineConfig; perQuery: Record<string, number> };
  table: AutotuneRow[];
  metric: string;
  labels: 'qrels' | 'evidence';
  queries: number;
  ci: { mean: number; low: number; high: number; alpha: number; samples: number } | null;
  vsBaseline: BootstrapInterval | null;
  /** With options.llm: what the base's LLM context steps asked for: documents summarized (once each, whatever the chunkers), chunks given a context (once per distinct chunk list of a document: chunkers cutting it the same way share them); what was asked of options.llm. */
  llmCalls?: { summaries: number; chunkContexts: number };
}
export interface AutotuneOptions {
  documents: { id: string; text: string; title?: string }[];
  queries: { id: string; text: string }[];
  qrels?: Record<string, Record<string, number>>;
  evidence?: Record<string, EvidenceLabel[]>;
  grid?: AutotuneGrid;
  metric?: string;
  /** Queries are embedded with kind 'query', chunks with kind 'document'. */
  embedder?: EmbedderLike;
  candidates?: number;
  signal?: AbortSignal;
  onProgress?: (p: AutotuneProgress) => void;
  bootstrap?: boolean | { samples?: number; alpha?: number; seed?: number };
  /** A pipeline config the grid varies (the file of `--config`): every setting the grid does not vary is the base's; best.config = the base with the best row. */
  base?: string | object;
  /** With a base whose chunker.context has llmSummary / llmChunkContext: the client that writes them (createLlmClient of ragwasm/llm, or any object with its documentSummary / chunkContexts methods). */
  llm?: { documentSummary?(doc: { id: string; text: string; title?: string }, options?: object): Promise<string> | string; chunkContexts?(doc: { id: string; text: string; title?: string }, chunks: { id: string; text: string }[], options?: object): Promise<string[]> | string[] };
}
export function autotune(options: AutotuneOptions): Promise<AutotuneResult>;
