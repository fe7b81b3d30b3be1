// ragwasm: retrieval-augmented generation in the browser. One module per public area; each file
// has a hand-written .d.ts beside it.
export { init, isInitialized } from './core/module.js';
export { RagwasmError, ErrorCodes } from './core/errors.js';
export { info } from './core/info.js';
export { createDocument } from './document/document.js';
export { SentenceSplitter, splitSentences, foldText, findInvalidUtf8, decodeUtf8 } from './document/text.js';
export { chunk, chunkAsync, chunkTexts, compareChunkings, chunkStats, markdownHeaders, normalizeChunkOptions, renderContext, estimateTokens, CHUNK_STRATEGIES, CHUNK_UNITS, BREAKPOINT_METHODS, DEFAULT_SEPARATORS, MARKDOWN_SEPARATORS } from './chunk/chunk.js';
export { extractText, htmlToTextFallback, SUPPORTED_FORMATS } from './document/parse.js';
export {
  createLlmClient, LlmClient, loadApiKey, saveApiKey, forgetApiKey, retryAfterMs, RequestLedger,
  ResponseCache, PriceTable, parseSse, PROMPT_IDS, loadPrompt, definePrompt, renderPrompt, formatPassages,
  formatClaims, parseJudgeScore, parseClaimScores, parseKeyValues, isAbstention, aggregateScores,
  judgeContextRelevance, judgeAnswerRelevance, judgeAnswerCorrectness, judgeGroundedness, stripCitations, splitClaims, parseListReply,
  JUDGES, generateAnswer, extractiveAnswer, extractCitations, extractMetadata, contextualizeChunks,
  rewriteQuery, DEFAULT_METADATA_KEYS, parseLabels, agreementStats, calibrateJudge, comparePrompts,
} from './llm.js';
export { Tokenizer, StaticEmbedder, createStaticEmbedder, poolEmbeddings } from './embed/embed.js';
export { OnnxEmbedder, createOnnxEmbedder } from './embed/onnx-embedder.js';
export * as metrics from './metrics/metrics.js';
export { VectorIndex, denseSimdEnabled, VECTOR_MAX_DIMENSION, VECTOR_MAX_K } from './retrieve/dense.js';
export { Bm25Index } from './retrieve/sparse.js';
export { saveBytes, loadBytes, removeBytes, listStored, storageBackend } from './core/storage.js';
export { createLlmReranker } from './retrieve/rerank.js';
export { CrossEncoderReranker, createCrossEncoderReranker } from './retrieve/cross-encoder.js';
export { fuse, tuneFusion, defaultFusionGrid, mmr, expandNeighbours, aggregateToDocuments, rerank, retrieveAndRerank, FUSION_MODES, NORMALIZATIONS, AGGREGATIONS } from './retrieve/fusion.js';
export { checkLegs, pickProbes, weightsAfterLegCheck, LEG_CHECK_DEFAULTS } from './retrieve/leg-check.js';
export { assembleContext, estimateContextTokens } from './context/context.js';
export { parsePipelineConfig, defaultPipelineConfig } from './pipeline/pipeline.js';
export { Collection, COLLECTION_FORMAT_VERSION, JSONL_FORMAT_VERSION } from './pipeline/collection.js';
export { autotune, DEFAULT_AUTOTUNE_GRID } from './pipeline/autotune.js';
export { PRESETS } from './pipeline/presets.js';
export { ask, isFollowUp, rewriteFollowUp, fileToDocument, documentTitle } from './answer/ask.js';
export { NO_ANSWER_TEXT } from './answer/extractive.js';
