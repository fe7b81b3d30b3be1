// @ts-check
// ragwasm: retrieval-augmented generation in the browser. The core entry: what an app needs to index,
// search and answer (text, chunking, BM25, vector index, fusion, context, Collection, ask, static
// embedder, storage). The other tiers have their own entries: ragwasm/parallel (parallel.js, Workers and
// sharded indexes), ragwasm/eval (eval.js, metrics, tuning, experiments), ragwasm/llm, ragwasm/parse,
// ragwasm/onnx, ragwasm/postgres, ragwasm/worker. Each area's hand-written .d.ts sits beside its .js file.
export { init, isInitialized } from './core/module.js';
export { RagwasmError, ErrorCodes } from './core/errors.js';
export { info } from './core/info.js';
export { createDocument } from './document/document.js';
export { SentenceSplitter, splitSentences, foldText, findInvalidUtf8, decodeUtf8 } from './document/text.js';
export { chunk, chunkAsync, chunkTexts, markdownHeaders, renderContext, estimateTokens, CHUNK_STRATEGIES, CHUNK_UNITS, BREAKPOINT_METHODS, DEFAULT_SEPARATORS, MARKDOWN_SEPARATORS } from './chunk/chunk.js';
export { Tokenizer, StaticEmbedder, createStaticEmbedder, poolEmbeddings } from './embed/embed.js';
export { asEmbedder, embedTexts, MAX_EMBEDDER_DIMENSION } from './embed/contract.js';
export { VectorIndex, denseSimdEnabled, VECTOR_MAX_DIMENSION, VECTOR_MAX_K } from './retrieve/dense.js';
export { Bm25Index } from './retrieve/sparse.js';
export { createWordNeighbours, EXPANSION_DEFAULTS, WordNeighbours } from './retrieve/expansion.js';
export { saveBytes, loadBytes, removeBytes, listStored, storageBackend } from './core/storage.js';
export { fuse, mmr, expandNeighbours, aggregateToDocuments, rerank, retrieveAndRerank, FUSION_MODES, NORMALIZATIONS, AGGREGATIONS } from './retrieve/fusion.js';
export { assembleContext, estimateContextTokens } from './context/context.js';
export { answerContext, checkAssemblyRead, DEFAULT_ASSEMBLY } from './context/prompt.js';
export { parsePipelineConfig, defaultPipelineConfig } from './pipeline/pipeline.js';
export { markdownToText } from './document/markdown-text.js';
export { applyConfigOverrides } from './pipeline/overrides.js';
export { Collection, COLLECTION_FORMAT_VERSION, JSONL_FORMAT_VERSION, llmContextSteps } from './pipeline/collection.js';
export { PRESETS } from './pipeline/presets.js';
export { ask, isFollowUp, rewriteFollowUp, questionQuery, unmatchedWords, suggestWords, documentTitle, MIN_EVIDENCE } from './answer/ask-question.js';
export { NO_ANSWER_TEXT, PASSAGES_TEXT } from './answer/extractive.js';
