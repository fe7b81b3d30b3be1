// Types of the experiment runner (web/src/experiment/*.js), exported by the ragwasm/eval entry.

/** An LLM endpoint of a grid (answer.models[i] or answer.judge). */
export interface ExperimentEndpoint {
  /** Display name and cell-name suffix; default the model. Distinct per grid. */
  name?: string;
  provider?: 'openai' | 'anthropic';
  baseUrl: string;
  model: string;
  /** Price per million tokens; needed for cost and for a budget. */
  price?: { inputPerMTok: number; outputPerMTok: number };
  /** Environment variable holding the API key (read by the CLI, never by the library). */
  apiKeyEnv?: string;
  maxRetries?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  timeoutMs?: number;
  concurrency?: number;
}

/** A prompt template object (definePrompt's input) or 'built-in' (answer_grounded). */
export type ExperimentPrompt = 'built-in' | { id: string; version: number; variables: string[]; messages: Array<{ role: string; content: string }> };

/** An experiment grid (docs/experiments.md "Grid file"). */
export interface ExperimentGrid {
  /** The pipeline config every cell starts from (parsePipelineConfig). */
  base?: object;
  /** "json.path" -> values (an array) or {label: value}; the cells are the cartesian product. null deletes the key. */
  vary?: Record<string, unknown[] | Record<string, unknown>>;
  /** A listed set of cells instead of the product; each config is merged over base. */
  cells?: Array<{ name: string; config?: object }>;
  /** Extra cells: 'no-retrieval' (base with retrieval.k 0) and 'oracle' (the reference documents' chunks first). */
  baselines?: Array<'no-retrieval' | 'oracle'>;
  /** reranker: the endpoint of cells whose config enables rerank type "llm" (createLlmReranker); context: the endpoint
   *  of cells whose chunker.context sets llmSummary / llmChunkContext (Collection.create's llm; cached like every call). */
  answer?: { models?: ExperimentEndpoint[]; prompts?: ExperimentPrompt[]; judge?: ExperimentEndpoint; reranker?: ExperimentEndpoint; context?: ExperimentEndpoint; outputTokens?: number };
  /** The cell the others are tested against, or {path, label}: each cell against the cell that differs
   * from it only in that varied path, set to that label (same model and prompt). */
  baseline?: string | { path: string; label: string };
  evaluation?: { cutoffs?: number[]; maxK?: number; threshold?: number; samples?: number; trials?: number; seed?: number; minGain?: number };
  /** The factors of the report's line charts: a varied path, its last segment ("k"), "model" or "prompt". */
  report?: ExperimentPivot;
}

/** x: the factor on the x axis; series: one line per combination; panels: one small chart per combination. */
export interface ExperimentPivot { x?: string; series?: string[]; panels?: string[] }

export interface ExperimentCell {
  name: string;
  kind: 'pipeline' | 'no-retrieval' | 'oracle';
  settings: Record<string, string>;
  config: Record<string, any>;
  answerer: 'extractive' | 'llm' | 'none';
  model: (ExperimentEndpoint & { name: string }) | null;
  prompt: { name: string; template: object | null } | null;
}

export interface ParsedExperimentGrid {
  cells: ExperimentCell[];
  baseline: string | null;
  /** The paired comparisons to make: each cell and its baseline cell. */
  pairs: Array<{ cell: string; baseline: string }>;
  answer: { models: ExperimentEndpoint[]; prompts: Array<{ name: string; template: object | null }>; judge: ExperimentEndpoint | null; reranker: ExperimentEndpoint | null; context: ExperimentEndpoint | null; outputTokens: number };
  evaluation: { cutoffs: number[]; maxK: number; threshold: number; samples: number; trials: number; seed: number; minGain: number };
  report: ExperimentPivot | null;
}

export function parseExperimentGrid(grid: ExperimentGrid | string): ParsedExperimentGrid;

export interface ExperimentQuestion {
  id: string;
  question: string;
  answer?: string | null;
  doc_ids?: string[];
  evidence?: string[];
  answerable?: boolean;
}
export interface ExperimentDataset {
  documents: Array<{ id: string; title?: string; text: string }>;
  questions: ExperimentQuestion[];
}

/** One question of one cell (a line of the --out JSONL). */
export interface ExperimentRecord {
  cellId: string;
  cell: string;
  /** The cell's retrieval.k. */
  k: number;
  questionId: string;
  question: string;
  answerable: boolean;
  reference: string | null;
  retrieval: { refRank: number | null; chunks: Array<{ id: string; docId: string; score: number; text: string }>;
    recall?: Record<number, number>; precision?: Record<number, number>; rr?: number; curve?: number[]; relevant?: boolean[]; error?: string };
  answer?: { text: string; abstained: boolean };
  scores?: { f1: number | null; em: number | null; anls: number | null; rougeL: number | null; abstainedCorrectly: number | null;
    citationPrecision?: number; citationRecall?: number; correctness?: number | null; correct?: number | null;
    contextRelevance?: number | null; answerRelevance?: number | null; groundedness?: number | null };
  judge?: { score: number | null; rule: string | null; unparsed: number };
  latencyMs: { retrieve: number; answer: number; judge: number; total?: number };
  /** calls/cachedCalls/cost: what this run sent and spent; fromCalls: every call of this question (answer, judge, its
   *  search's LLM rerank), sent or served from the cache, at the cost and latency it had when sent. */
  llm: { calls: number; cachedCalls: number; retries: number; cost: number | null; fromCalls?: ExperimentCalls };
}
export interface ExperimentCalls { calls: number; cachedCalls: number; cost: number | null; latencyMs: number }

export interface ExperimentPlan {
  cells: Array<{ name: string; id: string; kind: string; answerer: string; model: string | null; prompt: string | null;
    questions: number; done: number; llmCalls: number; estimatedCost: number }>;
  questions: number;
  llmCalls: number;
  estimatedCost: number | null;
  unpricedCalls: number;
  doneRecords: number;
}
export function planExperiment(grid: ExperimentGrid | string, dataset: ExperimentDataset,
  options?: { done?: ExperimentRecord[]; limit?: number; questionIds?: string[] }): Promise<ExperimentPlan>;

export interface MeanCI { mean: number; low: number | null; high: number | null; n: number }
export interface ExperimentCellSummary {
  name: string; id: string; kind: string; answerer: string; model: string | null; prompt: string | null; k: number;
  settings: Record<string, string>; status: 'ok' | 'failed' | 'stopped' | 'not run'; error: string | null; questions: number;
  retrieval: { questions: number; recall: Record<number, number>; precision: Record<number, number>; mrr: number;
    recallAtK: MeanCI | null; curve: number[]; recommendedCutoff: number | null } | null;
  referenceRank: { found: number; questions: number; p50: number | null; mean: number | null };
  answers: { answerable: number; unanswerable: number; f1: MeanCI | null; em: MeanCI | null; anls: MeanCI | null; rougeL: MeanCI | null;
    correctness: MeanCI | null; accuracy: MeanCI | null; citationPrecision: MeanCI | null; citationRecall: MeanCI | null;
    abstainedUnanswerable: MeanCI | null; wrongAbstentions: number;
    /** the RAG triad (config judges.triad), each in [0, 1]; null when not judged */
    contextRelevance: MeanCI | null; answerRelevance: MeanCI | null; groundedness: MeanCI | null } | null;
  latencyMs: Record<'retrieve' | 'answer' | 'judge' | 'total', { p50: number; p90: number; p95: number; mean: number } | null>;
  /** cost: the cell's questions (answering, judging, LLM rerank); indexingCost: its collection's LLM context steps (0 without
   *  them or when an earlier cell built the shared collection); totalCost: both. null = unknown (a call had no price). */
  llm: { callsPerQuestion: number; cachedCalls: number; retries: number; costPerQuestion: number | null; cost: number | null;
    indexingCost: number | null; totalCost: number | null;
    /** From the cell's own calls (independent of cell order); cachedCalls: how many of them the cache answered. */
    fromCalls: { questions: number; calls: number; cachedCalls: number; cost: number | null; costPerQuestion: number | null;
      latencyMs: { p50: number; p90: number; p95: number; mean: number } | null } | null;
    /** The LLM calls of building the cell's collection (context steps), whichever cell built it. */
    indexFromCalls: ExperimentCalls | null };
  /** LLM calls of the chunker's context steps made while this cell built its collection (null: none). */
  indexLlm: { calls: number; cachedCalls: number; cost: number | null } | null;
}
export interface ExperimentComparison {
  cell: string; baseline: string; measure: 'f1' | 'anls' | 'correctness' | 'accuracy' | 'recall@k'; questions: number;
  meanA: number; meanB: number; difference: number; low: number; high: number;
  /** raw p of the randomization test; pHolm: Holm-corrected over the `tests` comparisons of the summary */
  pValue: number; pHolm: number; tests: number;
}
export interface ExperimentSummary {
  cells: ExperimentCellSummary[];
  baseline: string | null;
  comparisons: ExperimentComparison[];
  /** The study's LLM cost as one number: total = indexing (every collection built) + questions (every cell); null = unknown (a call had no price). */
  cost: { indexing: number | null; questions: number | null; total: number | null };
  /** 1 − recall@k per cell and the relative reduction against the baseline (failureColumns); null without retrieval. */
  failures?: ReturnType<typeof import('./columns.js').failureColumns> | null;
}
export interface ExperimentResult extends ExperimentSummary {
  stopped: { reason: 'budget'; cell: string; question: string; spent: number; budget: number } | null;
  spent: number;
}

export function runExperiment(grid: ExperimentGrid | string, dataset: ExperimentDataset, options?: {
  done?: ExperimentRecord[];
  onRecord?: (record: ExperimentRecord) => void | Promise<void>;
  onProgress?: (event: { cell: string; cellIndex: number; cells: number; question: number; questions: number }) => void;
  budget?: number;
  cache?: { get(key: string): any; set(key: string, value: any): void };
  apiKey?: (endpoint: ExperimentEndpoint) => string | undefined;
  fetch?: typeof fetch;
  embedder?: object;
  limit?: number;
  /** Only these questions (e.g. one half of a split), in dataset order. */
  questionIds?: string[];
  /** For cells whose config enables rerank of type cross-encoder or custom. */
  reranker?: (query: string, items: Array<{ text: string }>) => Promise<number[]> | number[];
}): Promise<ExperimentResult>;

export function summarizeExperiment(run: { cells: Array<{ name: string; id: string; kind: string; answerer: string; k: number;
  status: string; error?: string | null; model?: string | null; prompt?: string | null; settings?: Record<string, string>; records: ExperimentRecord[] }>;
  baseline?: string | null; pairs?: Array<{ cell: string; baseline: string }>; evaluation?: object }): ExperimentSummary;
export function experimentMarkdown(summary: ExperimentSummary & { stopped?: ExperimentResult['stopped']; spent?: number }): string;
export function scoreAnswer(text: string, abstained: boolean, reference: string | null, answerable: boolean):
  { f1: number | null; em: number | null; anls: number | null; rougeL: number | null; abstainedCorrectly: number | null };
export function experimentReportHtml(summary: ExperimentSummary & { stopped?: ExperimentResult['stopped'] }, records: ExperimentRecord[],
  options?: { title?: string; pivot?: ExperimentPivot }): string;

export class FileReplyCache {
  constructor(path: string);
  readonly path: string;
  skipped: number;
  hits: number;
  misses: number;
  get(key: string): object | undefined;
  set(key: string, value: object): void;
  readonly size: number;
}
