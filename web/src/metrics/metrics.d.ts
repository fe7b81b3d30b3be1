// Types of web/src/metrics/metrics.js (exported from the package as the `metrics` namespace).

export interface QrelsParseOptions {
  /** 'auto' (default): BEIR when the first line has 3 tab-separated fields, else TREC. */
  format?: 'auto' | 'trec' | 'beir';
  /** File name used in PARSE_ERROR messages ("name:line: ..."). Default 'qrels'. */
  name?: string;
}
export interface RunParseOptions {
  /** 'auto' (default): JSONL when the text starts with '{', else TREC 6-column. */
  format?: 'auto' | 'trec' | 'jsonl';
  /** File name used in PARSE_ERROR messages. Default 'run'. */
  name?: string;
}

/** Relevance judgments owning WASM memory: call dispose(). */
export class Qrels {
  /** Not constructible: use the static factories (new throws INVALID_ARGUMENT at run time). */
  private constructor(native: object);
  static parse(text: string, options?: QrelsParseOptions): Qrels;
  static fromObject(judgments: Record<string, Record<string, number>>): Qrels;
  readonly numQueries: number;
  readonly size: number;
  dispose(): void;
  readonly disposed: boolean;
}

/** A ranked run owning WASM memory, kept in trec_eval order (score desc, ties by docno desc). */
export class Run {
  /** Not constructible: use the static factories (new throws INVALID_ARGUMENT at run time). */
  private constructor(native: object);
  static parse(text: string, options?: RunParseOptions): Run;
  static create(options?: { runId?: string }): Run;
  static fromObject(scores: Record<string, Record<string, number>>, options?: { runId?: string }): Run;
  addQuery(queryId: string, docIds: string[], scores: number[] | Float64Array | Float32Array): void;
  readonly numQueries: number;
  readonly size: number;
  readonly runId: string;
  dispose(): void;
  readonly disposed: boolean;
}

export type QrelsInput = Qrels | string | Record<string, Record<string, number>>;
export type RunInput = Run | string | Record<string, Record<string, number>>;

export interface EvaluateOptions {
  /** trec_eval -m syntax: 'all_trec' (default), 'map', 'P', 'P.5,10', 'ndcg_cut.10', or 'P_10'. */
  measures?: string[];
  /** trec_eval -l: relevant when judgment >= this. Default 1. */
  relevanceLevel?: number;
  /** trec_eval -c: judged queries missing from the run count as 0 (else NOT_FOUND). Default false. */
  completeQueries?: boolean;
}

export interface EvaluationResult {
  measures: string[];
  queryIds: string[];
  perQuery: Record<string, Record<string, number>>;
  aggregate: Record<string, number>;
  numQueries: number;
  runId: string;
}

export function evaluateRun(qrels: QrelsInput, run: RunInput, options?: EvaluateOptions): EvaluationResult;
export function formatTrecEval(qrels: QrelsInput, run: RunInput, options?: EvaluateOptions & { perQuery?: boolean }): string;

export interface RankedOptions {
  /** Every judgment value of the query. */
  judged?: number[];
  relevanceLevel?: number;
}
export function precisionAt(relevances: number[], k: number, options?: { relevanceLevel?: number }): number;
export function recallAt(relevances: number[], k: number, options: { judged: number[]; relevanceLevel?: number }): number;
export function averagePrecision(relevances: number[], options: { judged: number[]; k?: number; relevanceLevel?: number }): number;
export function reciprocalRank(relevances: number[], options?: { relevanceLevel?: number }): number;
export function rPrecision(relevances: number[], options: { judged: number[]; relevanceLevel?: number }): number;
export function successAt(relevances: number[], k: number, options?: { relevanceLevel?: number }): number;
export function bpref(relevances: number[], options: { judged: number[]; relevanceLevel?: number }): number;
export function ndcg(relevances: number[], options?: { judged?: number[] }): number;
export function ndcgCut(relevances: number[], k: number, options?: { judged?: number[] }): number;
export function ndcgExpCut(relevances: number[], k: number, options?: { judged?: number[] }): number;

export function squadNormalize(text: string, options?: { removeArticles?: boolean }): string;
export function exactMatch(prediction: string, references: string | string[], options?: { removeArticles?: boolean }): number;
export function tokenF1(prediction: string, references: string | string[], options?: { removeArticles?: boolean }): number;
export function anls(prediction: string, references: string | string[], options?: { threshold?: number }): number;
export function rougeL(prediction: string, references: string | string[]): number;
export function sentenceBleu(prediction: string, references: string | string[], options?: { maxN?: number; smoothing?: 'add-one' | 'none' }): number;

export interface CitationResult {
  markers: number[];
  cited: string[];
  unresolved: number[];
  precision: number;
  recall: number;
  f1: number;
}
export function citationMetrics(answer: string, options: { relevantIds: string[]; contextIds?: string[] }): CitationResult;

export interface EvidenceItem {
  text?: string;
  docId?: string;
  start?: number;
  end?: number;
}
export interface EvidenceQuestion {
  evidence: EvidenceItem[];
  /** Retrieved chunks in rank order. */
  chunks: EvidenceItem[];
}
export interface EvidenceResult {
  recall: Record<number, number>;
  precision: Record<number, number>;
  mrr: number;
  /** Mean recall@k for k = 1..maxK. */
  curve: number[];
  perQuestion: { recall: number[]; precision: number[]; rr: number; relevant: boolean[] }[];
}
export function evidenceContainment(excerpt: string, chunk: string): number;
export function evaluateEvidence(questions: EvidenceQuestion[], options?: { cutoffs?: number[]; maxK?: number; threshold?: number; minOverlap?: number }): EvidenceResult;
export function recommendCutoff(curve: number[], options?: { minGain?: number; window?: number }): number;

type Numbers = number[] | Float64Array | Int32Array | Float32Array;
export function confusionMatrix(a: Numbers, b: Numbers): { labels: number[]; matrix: number[][] };
export function binaryScores(predicted: Numbers, gold: Numbers, options?: { threshold?: number }): {
  tp: number; fp: number; fn: number; tn: number; precision: number; recall: number; f1: number; accuracy: number;
};
export function cohensKappa(a: Numbers, b: Numbers, options?: { weights?: 'none' | 'linear' | 'quadratic' }): number | null;
export function withinAccuracy(a: Numbers, b: Numbers, options?: { tolerance?: number }): number;
export function spearman(a: Numbers, b: Numbers): number | null;
export function kendallTau(a: Numbers, b: Numbers): number | null;
export function randomizationTest(a: Numbers, b: Numbers, options?: { trials?: number; seed?: number }): { meanDifference: number; pValue: number; trials: number };
export function bootstrapCI(a: Numbers, b: Numbers, options?: { samples?: number; alpha?: number; seed?: number }): {
  meanDifference: number; low: number; high: number; alpha: number; samples: number;
};
export function winTieLoss(a: Numbers, b: Numbers, options?: { epsilon?: number }): { wins: number; ties: number; losses: number };
export function summarize(values: number[] | Float64Array): { count: number; min: number; max: number; mean: number; p50: number; p90: number; p95: number };

export interface CompareRunsResult {
  measure: string;
  queryIds: string[];
  a: number[];
  b: number[];
  meanA: number;
  meanB: number;
  winTieLoss: { wins: number; ties: number; losses: number };
  randomization: { meanDifference: number; pValue: number; trials: number };
  bootstrap: { meanDifference: number; low: number; high: number; alpha: number; samples: number };
}
export function compareRuns(qrels: QrelsInput, runA: RunInput, runB: RunInput, options?: {
  measure?: string; relevanceLevel?: number; trials?: number; samples?: number; alpha?: number; seed?: number; epsilon?: number;
}): CompareRunsResult;
