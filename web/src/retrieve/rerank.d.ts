/** Item helpers rerankers share (internal); the LLM reranker is in llm/rerank.d.ts. */
export {};
