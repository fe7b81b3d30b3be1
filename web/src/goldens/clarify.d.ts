import type { LlmClient, PromptTemplate } from '../llm.js';
export interface Interpretation {
  /** a standalone rewrite of the question for one reading */
  question: string;
  /** ids of the shown chunks supporting it */
  chunkIds: string[];
}
export interface Clarification {
  /** true: at least 2 grounded interpretations; null: the reply did not parse (see error) */
  ambiguous: boolean | null;
  /** what the model said before rejections */
  claimedAmbiguous: boolean | null;
  interpretations: Interpretation[];
  rejected: Array<{ question: string; cited: unknown[]; reason: string }>;
  error: string | null;
}
export function parseClarification(reply: string, shownIds: string[]): Clarification;
export function clarifyQuestion(client: LlmClient, input: { question: string; passages: Array<{ id: string; text: string }> },
  options?: { prompt?: PromptTemplate; maxTokens?: number; signal?: AbortSignal }):
  Promise<Clarification & { reply: string; usage: object; cost: number | null }>;
export interface AmbiguityCase { id: string; question: string; ambiguous: boolean; interpretations: Array<{ question: string; docIds: string[] }> }
export function parseAmbiguitySet(text: string): AmbiguityCase[];
export interface ClarificationMetrics {
  n: number; unparsed: number; tp: number; fp: number; fn: number; tn: number;
  precision: number | null; recall: number | null; f1: number | null;
  /** share of returned interpretations grounded in one expected interpretation's documents */
  grounding: number | null;
  /** share of expected interpretations some returned one is grounded in */
  coverage: number | null;
  /** share of expected interpretations (of ambiguous questions) with a document among the shown chunks: the retrieval ceiling */
  reachable: number | null;
  rejected: number;
}
export function clarificationMetrics(cases: Array<{ expected: { ambiguous: boolean; interpretations: Array<{ docIds: string[] }> };
  result: { ambiguous: boolean | null; interpretations: Interpretation[]; rejected?: unknown[] }; docOf: (chunkId: string) => string;
  /** doc ids of the chunks shown to the clarification step */
  shown?: string[] }>): ClarificationMetrics;
