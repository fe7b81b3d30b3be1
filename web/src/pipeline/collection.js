// @ts-check
// The public module of Collection (ragwasm's core entry re-exports it); its parts are in collection/:
// collection.js (the class), legs.js (the leg interface: BM25 and dense, single or sharded), parts.js
// (config -> options, stored chunks), saved.js + header.js + header-check.js + save.js (the saved
// format), jsonl.js (JSONL export / import).
export { Collection } from './collection/collection.js';
export { COLLECTION_FORMAT_VERSION } from './collection/saved.js';
export { JSONL_FORMAT_VERSION } from './collection/jsonl.js';
export { chunkOptions, denseOptions, metadataMatches } from './collection/parts.js';
export { setHeaderSplitBytes } from './collection/header.js';
export { LLM_CONTEXT_STEPS, llmContextSteps, memoizeContextSteps } from './llm-steps.js';
