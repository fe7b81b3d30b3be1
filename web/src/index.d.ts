// Type declarations of the core entry (ragwasm), one .d.ts per area beside its .js file; the other tiers
// are ragwasm/parallel (parallel.d.ts), ragwasm/eval (eval.d.ts), ragwasm/llm, ragwasm/parse, ragwasm/onnx,
// ragwasm/postgres and ragwasm/worker.
// explicit: ./core/module.d.ts also declares @internal names for the library's own modules
export { init, InitOptions, isInitialized } from './core/module.js';
// explicit: ./core/errors.d.ts also declares @internal names for the library's own modules
export { ErrorCode, ErrorCodes, RagwasmError } from './core/errors.js';
export * from './core/info.js';
export * from './document/document.js';
export * from './document/text.js';
export { chunk, chunkAsync, chunkTexts, markdownHeaders, renderContext, estimateTokens, CHUNK_STRATEGIES, CHUNK_UNITS, BREAKPOINT_METHODS,
  DEFAULT_SEPARATORS, MARKDOWN_SEPARATORS, BreakpointMethod, ChunkContextOptions, ChunkDocumentInput, ChunkOptions, ChunkStrategy, ChunkUnit,
  DocumentChunk } from './chunk/chunk.js';
export * from './retrieve/dense.js';
// explicit: ./retrieve/sparse.d.ts also declares @internal names for the library's own modules
export { Bm25AnalyzerOptions, Bm25Document, Bm25ExpansionOption, Bm25ExpansionTerm, Bm25FilterValue, Bm25Hit,
  Bm25ImpactBatch, Bm25Index, Bm25IndexOptions, Bm25MetadataValue, Bm25Scorer, Bm25SearchOptions, Bm25Stats,
  Bm25TermMatch, CollectionStats, WriteSummary } from './retrieve/sparse.js';
// explicit: ./retrieve/expansion.d.ts also declares @internal names for the library's own modules
export { createWordNeighbours, EXPANSION_DEFAULTS, WordNeighbours } from './retrieve/expansion.js';
// explicit: ./core/storage.d.ts also declares @internal names for the library's own modules
export { listStored, loadBytes, removeBytes, saveBytes, storageBackend, StorageBackend, StorageOptions } from './core/storage.js';
export { fuse, mmr, expandNeighbours, aggregateToDocuments, rerank, retrieveAndRerank, FUSION_MODES, NORMALIZATIONS, AGGREGATIONS,
  ChunkRef, Contribution, DocHit, FuseOptions, FuseResult, FusedHit, FusionConfig, FusionDiagnostics, FusionMode, MmrHit, MmrOptions,
  Normalization, Passage, RankedList, RerankOptions, Reranker, ScoredHit } from './retrieve/fusion.js';
export * from './context/context.js';
export * from './context/prompt.js';
// explicit: ./pipeline/pipeline.d.ts also declares @internal names for the library's own modules
export { defaultPipelineConfig, parsePipelineConfig, PipelineConfig } from './pipeline/pipeline.js';
export * from './document/markdown-text.js';
// explicit: ./pipeline/overrides.d.ts also declares @internal names for the library's own modules
export { applyConfigOverrides, ConfigOverride, ConfigOverrideChange } from './pipeline/overrides.js';
// explicit: ./embed/embed.d.ts also declares @internal names for the library's own modules
export { BatchEncoding, createStaticEmbedder, EmbedRunOptions, EncodeOptions, ModelSource, poolEmbeddings,
  StaticEmbedder, Tokenizer } from './embed/embed.js';
export * from './embed/contract.js';
export { Collection, COLLECTION_FORMAT_VERSION, JSONL_FORMAT_VERSION, llmContextSteps, CollectionAddProgress, CollectionDocument,
  CollectionDocumentHit, CollectionEmbedder, CollectionExportOptions, CollectionFilter, CollectionHit, CollectionImportOptions, CollectionJsonlChunk,
  CollectionJsonlDocument, CollectionJsonlHeader, CollectionLlm, CollectionSearchOptions, CollectionWriteSummary, EmbedKind,
  ParallelCollection } from './pipeline/collection.js';
/** The report of Collection.checkLegs() (the leg check itself, checkLegs, is ragwasm/eval's). */
export type { LegCheckReport } from './retrieve/leg-check.js';
export * from './pipeline/presets.js';
export * from './answer/ask-question.js';
export { NO_ANSWER_TEXT, PASSAGES_TEXT } from './answer/extractive.js';
