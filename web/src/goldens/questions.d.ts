import type { LlmClient, PromptTemplate } from '../llm.js';
export interface SampledChunk { id: string; docId: string; text: string; title?: string; start?: number; end?: number }
export function sampleChunks<T extends { id: string; docId: string; text: string }>(chunks: T[],
  options: { n: number; seed?: number; perDocument?: number; minLength?: number }): T[];
export interface GeneratedQuestion {
  id: string;
  question: string;
  answer: string;
  doc_ids: string[];
  /** the source chunk's text */
  evidence: string[];
  answerable: true;
  type: 'generated';
  source: { chunkId: string; docId: string; start?: number; end?: number; quote: string | null };
}
export function generateQuestions(client: LlmClient, chunks: SampledChunk[],
  options?: { idPrefix?: string; prompt?: PromptTemplate; maxTokens?: number; signal?: AbortSignal }):
  Promise<{ questions: GeneratedQuestion[]; skipped: Array<{ chunkId: string; reason: string }>;
    usage: { inputTokens: number; outputTokens: number }; cost: number | null }>;
