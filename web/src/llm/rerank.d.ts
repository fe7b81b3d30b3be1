/** LLM reranking through an LlmClient; see docs/fusion.md. */

/** Counters of an LLM reranker. */
export interface LlmRerankerStats { calls: number; pairs: number; unparsed: number; /** null (unknown) once a judged pair had no price */ cost: number | null }

/**
 * LLM reranker through an LlmClient: the context-relevance judge grades each (query, passage) 0-3
 * (mean of `samples`); unparsed replies score `unparsedScore` (default -1).
 */
export declare function createLlmReranker(client: import('../llm.js').LlmClient, options?: {
  samples?: number; temperature?: number; maxTokens?: number; unparsedScore?: number; signal?: AbortSignal;
}): { reranker: (query: string, items: (string | { text: string })[], options?: { signal?: AbortSignal }) => Promise<number[]>; stats: LlmRerankerStats };
