/** Item helpers rerankers share (internal); the LLM reranker is in llm/rerank.d.ts. */
export {};

/** @internal Most items one reranker call takes. */
export const MAX_PASSAGES: number;
/** @internal The text of a rerank item: a string, or an object's `text` string. */
export function itemText(item: unknown, i: number): string;
