export type FusionMode = 'hybrid' | 'rrf' | 'convex' | 'combsum' | 'combmnz';
export type Normalization = 'minmax' | 'zscore' | 'rank';
export const FUSION_MODES: readonly FusionMode[];
export const NORMALIZATIONS: readonly Normalization[];
export const AGGREGATIONS: readonly ('max' | 'sum' | 'topm')[];

export interface ScoredHit { id: string; score: number; }
export interface RankedList { retriever: string; hits: ScoredHit[]; }

export interface FusionConfig {
  /** Default 'hybrid': convex min-max, primary list 0.7, others share 0.3. */
  mode?: FusionMode;
  /** Default 'minmax'; ignored by RRF. */
  normalization?: Normalization;
  /** One finite weight >= 0 per list; default all 1 (convex rescales to sum 1). */
  weights?: number[];
  /** RRF constant, >= 0. Default 60. */
  rrfK?: number;
  /** Primary list index for mode 'hybrid'. Default 0. */
  primary?: number;
}
export interface FuseOptions extends FusionConfig {
  /** Keep the best k fused hits; 0 = all (default). The RRF constant is rrfK. */
  k?: number;
  /** Depth of the agreement diagnostics. Default 10. */
  diagnosticsK?: number;
  /** Warn when two legs share less than this fraction of their top-k. Default 0.2. */
  minOverlap?: number;
}
export interface Contribution {
  retriever: string;
  present: boolean;
  rank: number;
  raw: number;
  normalized: number;
  weight: number;
  contribution: number;
}
export interface FusedHit { id: string; score: number; rank: number; presentIn: number; contributions: Contribution[]; }
export interface FusionDiagnostics {
  k: number;
  legs: { retriever: string; size: number; maxZ: number }[];
  pairs: { a: string; b: string; overlap: number; shared: number; spearman: number }[];
  warnings: string[];
}
export interface FuseResult {
  hits: FusedHit[];
  options: { mode: string; normalization: string; weights: number[]; rrfK: number; k?: number };
  diagnostics: FusionDiagnostics;
}
export function fuse(lists: RankedList[], options?: FuseOptions): FuseResult;

export interface LabelledQuery { queryId: string; lists: RankedList[]; }
export type Qrels = Record<string, Record<string, number>>;
export interface TuneOptions {
  grid?: FusionConfig[];
  /** nDCG cutoff of the default metric. Default 10. */
  cutoff?: number;
  metric?: (queryIds: string[], fused: FusedHit[][], qrels: Qrels) => number;
  /** With a caller metric: gain over the best single leg needed to recommend a fused setting. Default 0.01. */
  minGain?: number;
}
export interface TuneResult {
  best: { mode: string; normalization: string; weights: number[]; k: number };
  bestIndex: number;
  bestObjective: number;
  queries: number;
  singleLeg: number[];
  table: ({ mode: string; normalization: string; weights: number[]; k: number; objective: number })[];
  metric: string;
  /** Use this: best, unless its gain over the best single leg is not significant (then that leg). */
  recommended: { mode: string; normalization: string; weights: number[]; k: number };
  recommendedObjective: number;
  recommendation: string;
  pairedT: number;
}
export function tuneFusion(labelledRuns: LabelledQuery[], qrels: Qrels, options?: TuneOptions): TuneResult;
export function defaultFusionGrid(numLists: number): { mode: FusionMode; normalization: Normalization; weights: number[]; rrfK: number }[];

export interface MmrOptions {
  /** In [0, 1]; default 0.5. */
  lambda?: number;
  /** Default 10. */
  k?: number;
  vectors?: (number[] | Float32Array)[];
  flatVectors?: Float32Array;
  dim?: number;
  similarity?: number[][] | Float64Array;
  similarityFn?: (a: ScoredHit, b: ScoredHit) => number;
}
export interface MmrHit { id: string; score: number; mmr: number; maxSimilarity: number; inputIndex: number; }
export function mmr(candidates: ScoredHit[], options: MmrOptions): MmrHit[];

export interface ChunkRef { id: string; docId: string; ordinal: number; start?: number; end?: number; }
export interface Passage {
  docId: string; chunkIds: string[]; firstOrdinal: number; lastOrdinal: number; score: number; hitIds: string[];
  start?: number; end?: number;
}
export function expandNeighbours(hits: ScoredHit[], chunks: ChunkRef[], options?: { before?: number; after?: number }): Passage[];

export interface DocHit { docId: string; score: number; chunks: number; bestChunk: string; }
export function aggregateToDocuments(hits: { id: string; docId: string; score: number }[],
  options?: { method?: 'max' | 'sum' | 'topm'; m?: number; k?: number }): DocHit[];

export interface RerankOptions { candidates?: number; keep?: number; signal?: AbortSignal; }
/** The third argument carries rerank()'s AbortSignal (rerankers may ignore it). */
export type Reranker<T> = (query: string, items: T[], options?: { signal?: AbortSignal }) => Promise<number[]> | number[];
export function rerank<T extends object>(query: string, items: T[], reranker: Reranker<T>, options?: RerankOptions):
  Promise<(T & { rerankScore: number; retrievalRank: number })[]>;
export function retrieveAndRerank<T extends object>(query: string, retrieve: (query: string, n: number) => Promise<T[]> | T[],
  reranker: Reranker<T>, options?: RerankOptions): Promise<(T & { rerankScore: number; retrievalRank: number })[]>;

/** @internal A non-empty, well-formed (no lone surrogate) string id; INVALID_ARGUMENT / INVALID_UTF8 otherwise. */
export function expectId(value: unknown, name: string): string;
/** @internal Sends a JSON request to a binding function and parses its JSON reply. */
export function callJson(fnName: string, request: unknown, ...extra: unknown[]): any;
