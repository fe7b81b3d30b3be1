import type { LlmClient, PromptTemplate } from '../llm.js';
export interface PoolHit { id: string; docId: string; text: string }
export interface PooledChunk extends PoolHit {
  /** best 1-based rank over the runs */
  bestRank: number;
  /** names of the runs that retrieved it */
  runs: string[];
}
/** Pools the top `depth` (default 10) hits of several runs per question. */
export function poolCandidates(runs: Record<string, Record<string, PoolHit[]>>, options?: { depth?: number }): Record<string, PooledChunk[]>;
export interface ChunkJudgment {
  questionId: string; chunkId: string; docId: string;
  /** 0-3; null when the call failed or the reply held no usable score (see error) */
  grade: number | null;
  error: string | null;
  reply: string | null;
}
export interface LabelPoolResult {
  judgments: ChunkJudgment[];
  labelled: number;
  unlabelled: number;
  usage: { inputTokens: number; outputTokens: number };
  /** null when a model has no price */
  cost: number | null;
}
export function labelPool(client: LlmClient, input: { questions: Array<{ id: string; text: string }>; pool: Record<string, PoolHit[]> },
  options?: { examples?: Array<{ question: string; passage: string; score: number }>; samples?: number; aggregate?: 'mean' | 'majority';
    prompt?: PromptTemplate; signal?: AbortSignal; onProgress?: (progress: {done: number, total: number}) => void }): Promise<LabelPoolResult>;
/** level 'doc' (default): a document's best chunk grade; 'chunk': one row per chunk. */
export function judgmentsToQrels(judgments: Array<Pick<ChunkJudgment, 'questionId' | 'chunkId' | 'docId' | 'grade'>>,
  options?: { level?: 'doc' | 'chunk' }): Record<string, Record<string, number>>;
/** TREC qrels lines `qid 0 id grade`, sorted. */
export function formatQrels(qrels: Record<string, Record<string, number>>): string;
export interface TuneAgreement {
  rows: number;
  picked: { index: number; llmValue: number; humanValue: number };
  humanBest: { index: number; value: number };
  /** human value of the human-best row minus that of the LLM-picked row */
  regret: number;
  spearman: number | null;
  kendall: number | null;
  llmMetric: string;
  humanMetric: string;
}
/** Two autotune results over the same grid: one on LLM qrels, one on human labels. */
export function tuneAgreement(llmTune: { table: Array<{ index: number; value: number }>; best: { index: number }; metric: string },
  humanTune: { table: Array<{ index: number; value: number }>; best: { index: number }; metric: string }): TuneAgreement;
