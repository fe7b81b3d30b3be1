// @ts-check
// ragwasm/llm: the LLM layer: provider clients (OpenAI-compatible, Anthropic), prompts as versioned data, judges,
// grounded and extractive answers, context enrichment, judge calibration, the LLM reranker and goldens an LLM
// writes (labelled pools, generated questions, the judge grid, clarification). Public re-exports; the
// implementation lives in web/src/llm/ and web/src/goldens/. Experiments, splits and human grades are ragwasm/eval.
export { createLlmClient, LlmClient, loadApiKey, saveApiKey, forgetApiKey, retryAfterMs } from './llm/client.js';
export { RequestLedger } from './llm/ledger.js';
export { ResponseCache } from './llm/cache.js';
export { PriceTable } from './llm/cost.js';
export { parseSse } from './llm/sse.js';
export { PROMPT_IDS, loadPrompt, definePrompt, renderPrompt, formatPassages, formatClaims } from './llm/prompts.js';
export { parseJudgeScore, parseClaimScores, parseKeyValues, isAbstention, aggregateScores } from './llm/parse.js';
export { judgeContextRelevance, judgeAnswerRelevance, judgeAnswerCorrectness, judgeGroundedness, judgeRagTriad, stripCitations, splitClaims, parseListReply, JUDGES } from './llm/judges.js';
export { generateAnswer, extractiveAnswer, extractCitations } from './llm/answer.js';
export { extractMetadata, contextualizeChunks, llmChunkContexts, summarizeDocument, rewriteQuery, DEFAULT_METADATA_KEYS } from './llm/enrich.js';
export { expandQuery, LLM_EXPANSION_MODES } from './llm/expand.js';
export { parseLabels, agreementStats, calibrateJudge, comparePrompts } from './llm/calibration.js';
export { createLlmReranker } from './llm/rerank.js';
// Goldens without hand labels, the judge grid and query clarification (web/src/goldens/).
export { poolCandidates, labelPool, judgmentsToQrels, formatQrels, tuneAgreement } from './goldens/label-pool.js';
export { sampleChunks, generateQuestions } from './goldens/questions.js';
export { judgeGrid, percentError } from './goldens/judge-grid.js';
export { clarifyQuestion, parseClarification, parseAmbiguitySet, clarificationMetrics } from './goldens/clarify.js';
