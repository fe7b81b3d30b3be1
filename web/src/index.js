// ragwasm: retrieval-augmented generation in the browser. One module per public area; each file
// has a hand-written .d.ts beside it.
export { init, isInitialized } from './module.js';
export { RagwasmError, ErrorCodes } from './errors.js';
export { info } from './info.js';
export { createDocument } from './document.js';
export { SentenceSplitter, splitSentences, foldText, findInvalidUtf8, decodeUtf8 } from './text.js';
export { chunk, chunkAsync, chunkTexts, compareChunkings, chunkStats, markdownHeaders, normalizeChunkOptions, renderContext, estimateTokens, CHUNK_STRATEGIES, CHUNK_UNITS, BREAKPOINT_METHODS, DEFAULT_SEPARATORS, MARKDOWN_SEPARATORS } from './chunk.js';
export { extractText, htmlToTextFallback, SUPPORTED_FORMATS } from './parse.js';
export {
  createLlmClient, LlmClient, loadApiKey, saveApiKey, forgetApiKey, retryAfterMs, RequestLedger,
  ResponseCache, PriceTable, parseSse, PROMPT_IDS, loadPrompt, definePrompt, renderPrompt, formatPassages,
  formatClaims, parseJudgeScore, parseClaimScores, parseKeyValues, isAbstention, aggregateScores,
  judgeContextRelevance, judgeAnswerRelevance, judgeAnswerCorrectness, judgeGroundedness, stripCitations, splitClaims, parseListReply,
  JUDGES, generateAnswer, extractiveAnswer, extractCitations, extractMetadata, contextualizeChunks,
  rewriteQuery, DEFAULT_METADATA_KEYS, parseLabels, agreementStats, calibrateJudge, comparePrompts,
} from './llm.js';
export { Tokenizer, StaticEmbedder, OnnxEmbedder, createStaticEmbedder, createOnnxEmbedder, poolEmbeddings } from './embed.js';
export * as metrics from './metrics.js';
export { VectorIndex, denseSimdEnabled, VECTOR_MAX_DIMENSION, VECTOR_MAX_K } from './dense.js';
export { Bm25Index } from './sparse.js';
export { saveBytes, loadBytes, removeBytes, listStored, storageBackend } from './storage.js';
export { CrossEncoderReranker, createCrossEncoderReranker, createLlmReranker } from './rerank.js';
export { fuse, tuneFusion, defaultFusionGrid, mmr, expandNeighbours, aggregateToDocuments, rerank, retrieveAndRerank, FUSION_MODES, NORMALIZATIONS, AGGREGATIONS } from './fusion.js';
export { checkLegs, pickProbes, weightsAfterLegCheck, LEG_CHECK_DEFAULTS } from './leg-check.js';
export { assembleContext, estimateContextTokens } from './context.js';
export { parsePipelineConfig, defaultPipelineConfig } from './pipeline.js';
export { Collection, COLLECTION_FORMAT_VERSION, JSONL_FORMAT_VERSION } from './collection.js';
export { autotune, DEFAULT_AUTOTUNE_GRID } from './autotune.js';
