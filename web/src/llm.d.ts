// Types of the LLM layer (web/src/llm.js and web/src/llm/*.js).
import type { Clarification } from './goldens/clarify.js';

export type Provider = 'openai' | 'anthropic';
export type Role = 'system' | 'user' | 'assistant';
export interface ContentPart {
  text: string;
  /** Anthropic prompt caching: cache everything up to and including this part. */
  cache?: boolean;
}
export interface Message {
  role: Role;
  content: string | ContentPart[];
}
export interface CompletionRequest {
  messages: Message[];
  maxTokens?: number;
  temperature?: number;
  stop?: string[];
  seed?: number;
  /** Label recorded in the ledger, e.g. 'answer', 'judge:groundedness'. */
  purpose?: string;
}
export interface Usage {
  /** Total input tokens (including cache reads/writes); null when the server did not report it. */
  inputTokens: number | null;
  outputTokens: number | null;
  cachedInputTokens: number;
  cacheWriteTokens: number;
}
export interface CompletionResult {
  text: string;
  finishReason: string | null;
  usage: Usage;
  /** From the price table; null when the model has no price (never a silent 0). */
  cost: number | null;
  model: string;
  provider: Provider;
  host: string;
  latencyMs: number;
  /** HTTP attempts made (0 for a cache hit). */
  attempts: number;
  /** True when answered from the ResponseCache: then cost is 0 (null if unpriced) and savedCost is the original call's. */
  cached: boolean;
  savedCost?: number | null;
}
export interface Price {
  inputPerMTok: number;
  outputPerMTok: number;
  cachedInputPerMTok?: number;
  cacheWritePerMTok?: number;
}
export class PriceTable {
  constructor(prices?: Record<string, Price>);
  set(model: string, price: Price): this;
  get(model: string): Price | undefined;
  cost(model: string, usage: Partial<Usage> & { inputTokens: number | null; outputTokens: number | null }): number | null;
}
export interface LedgerEntry {
  seq: number;
  time: string;
  host: string;
  url: string;
  method: string;
  provider: Provider;
  model: string;
  purpose: string;
  /** The exact request body sent (JSON text). */
  body: string;
  bytes: number;
  attempt: number;
  status: number | null;
  error: string | null;
  /** Location of a refused 3xx ('opaque' when the browser hides it); nothing was sent there. */
  redirect?: string;
}
export class RequestLedger {
  /** maxEntries: an integer in 1..10,000,000 (default 10,000); anything else is INVALID_ARGUMENT. */
  constructor(options?: { maxEntries?: number });
  readonly entries: LedgerEntry[];
  readonly dropped: number;
  bytesByHost(): Record<string, number>;
  toJsonl(): string;
  clear(): void;
}
export interface CacheStore {
  get(key: string): unknown | Promise<unknown>;
  set(key: string, value: unknown): unknown;
}
export class ResponseCache implements CacheStore {
  constructor(options?: { maxEntries?: number });
  readonly hits: number;
  readonly misses: number;
  readonly size: number;
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  clear(): void;
}
export interface LlmClientOptions {
  provider: Provider;
  baseUrl: string;
  model: string;
  apiKey?: string;
  headers?: Record<string, string>;
  /** Per attempt; default 60,000. */
  timeoutMs?: number;
  /** Default 3. */
  maxRetries?: number;
  /** Default 500. */
  retryBaseMs?: number;
  /** Default 30,000. */
  retryMaxMs?: number;
  /** Default 60,000. */
  maxRetryAfterMs?: number;
  /** Default 4. */
  concurrency?: number;
  prices?: PriceTable | Record<string, Price>;
  cache?: CacheStore;
  ledger?: RequestLedger;
  fetch?: typeof fetch;
  random?: () => number;
  anthropicVersion?: string;
  streamUsage?: boolean;
  /** Largest reply body read, streamed or not (bytes, 1..2^31-1); default 16 MiB; more is LIMIT_EXCEEDED. */
  maxReplyBytes?: number;
}
export interface CallOptions {
  signal?: AbortSignal;
  onText?: (delta: string) => void;
  stream?: boolean;
  /** Index of one of several samples of the same request: part of the cache key only (never sent). */
  sample?: number;
}
export type StreamEvent = { type: 'text'; text: string } | { type: 'done'; result: CompletionResult };
export class LlmClient {
  constructor(options: LlmClientOptions);
  readonly provider: Provider;
  readonly baseUrl: string;
  readonly model: string;
  readonly host: string;
  readonly ledger: RequestLedger;
  readonly prices: PriceTable;
  readonly hasApiKey: boolean;
  /** cost: null (unknown) once a sent call had no price; pricedCost sums the priced calls; cache hits cost nothing. */
  readonly stats: { calls: number; httpAttempts: number; retries: number; cacheHits: number; failures: number;
    inputTokens: number; outputTokens: number; readonly cost: number | null; pricedCost: number; unpricedCalls: number };
  setApiKey(key: string | null): void;
  complete(request: CompletionRequest, options?: CallOptions): Promise<CompletionResult>;
  /** chunker.context.llmSummary for Collection.create(config, {llm: client}): the document's summary (summarizeDocument). */
  documentSummary(document: { id: string; title?: string; text: string }, options?: { prompt?: object; maxTokens?: number; signal?: AbortSignal }): Promise<string>;
  /** chunker.context.llmChunkContext for Collection.create(config, {llm: client}): one context note per chunk (contextualizeChunks). */
  chunkContexts(document: { id: string; title?: string; text: string }, chunks: { id: string; text: string }[],
    options?: { prompt?: object; maxTokens?: number; signal?: AbortSignal }): Promise<string[]>;
  /** ask()'s grounded answer with [n] citations (generateAnswer). */
  answer(input: { question: string; passages: Array<{ id?: string; text: string }> },
    options?: { onText?: (delta: string) => void; signal?: AbortSignal; temperature?: number; maxTokens?: number; prompt?: PromptTemplate }): Promise<GeneratedAnswer>;
  /** ask()'s follow-up rewrite (rewriteQuery). */
  rewriteQuery(question: string, options?: { history?: Array<{ role: 'user' | 'assistant'; content: string }>; signal?: AbortSignal; prompt?: PromptTemplate }):
    Promise<{ query: string; usage: Usage; cost: number | null }>;
  /** ask({clarify})'s query clarification (clarifyQuestion). */
  clarify(input: { question: string; passages: Array<{ id: string; text: string }> },
    options?: { prompt?: PromptTemplate; maxTokens?: number; signal?: AbortSignal }): Promise<Clarification & { reply: string; usage: object; cost: number | null }>;
  /** ask()'s LLM query expansion, pipeline config retrieval.llmExpansion (expandQuery). */
  expandQuery(question: string, options?: ExpandQueryOptions): Promise<ExpandedQuery>;
  stream(request: CompletionRequest, options?: { signal?: AbortSignal }): AsyncGenerator<StreamEvent>;
  toJSON(): { provider: Provider; baseUrl: string; model: string; hasApiKey: boolean };
}
export function createLlmClient(options: LlmClientOptions): LlmClient;
export interface KeyStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}
export function loadApiKey(storage: KeyStorage, name: string): string | null;
export function saveApiKey(storage: KeyStorage, name: string, key: string): void;
export function forgetApiKey(storage: KeyStorage, name: string): void;
export function retryAfterMs(headers: { get(name: string): string | null }, now?: number): number | undefined;
export function parseSse(body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>, state?: { incomplete?: boolean }):
  AsyncGenerator<{ event: string; data: string; id: string | undefined }>;

// ---- prompts --------------------------------------------------------------------------------
export type PromptId = 'answer_grounded' | 'metadata_extract' | 'chunk_context' | 'document_summary' | 'query_rewrite' |
  'judge_context_relevance' | 'judge_groundedness' | 'judge_answer_relevance' | 'judge_answer_correctness' | 'claim_split'
  | 'question_generate' | 'query_clarify' | 'query_expand';
export const PROMPT_IDS: readonly PromptId[];
export interface ReplyScale {
  kind: 'rating' | 'percent' | 'claims' | 'key_values' | 'lines';
  min?: number;
  max?: number;
  integer_only?: boolean;
}
export interface PromptTemplate {
  readonly id: string;
  readonly version: number;
  readonly description?: string;
  readonly variables: string[];
  readonly messages: Message[];
  readonly reply?: ReplyScale;
  readonly [extra: string]: unknown;
}
export function loadPrompt(id: PromptId, options?: { baseUrl?: string | URL }): Promise<PromptTemplate>;
export function definePrompt(json: object): PromptTemplate;
export function renderPrompt(template: PromptTemplate, vars: Record<string, string>): Message[];
export function formatPassages(passages: Array<{ id?: string; text: string }>): string;
export function formatClaims(claims: string[]): string;

// ---- reply parsing ----------------------------------------------------------------------------
export interface ScoreScale {
  kind?: 'rating' | 'percent';
  min?: number;
  max?: number;
  labels?: string[];
  integerOnly?: boolean;
}
export interface ParsedScore {
  value: number;
  method: 'json' | 'labelled' | 'percent' | 'fraction' | 'bare';
  /** UTF-16 offset of the number in the reply. */
  offset: number;
  ambiguous: boolean;
}
export function parseJudgeScore(reply: string, scale?: ScoreScale): ParsedScore;
export interface ParsedClaim {
  claim: number;
  score: number | null;
  evidence: string;
  error: string | null;
}
export function parseClaimScores(reply: string, nClaims: number, scale?: ScoreScale): ParsedClaim[];
export function parseKeyValues(reply: string): Array<[string, string]>;
export function isAbstention(answer: string): boolean;
export interface AggregateResult {
  value: number | null;
  samples: number;
  parsed: number;
  unparsed: number;
  spread: number;
  stddev: number;
  agreement: number;
}
export function aggregateScores(scores: Array<number | null>, method?: 'mean' | 'majority'): AggregateResult;

// ---- judges -----------------------------------------------------------------------------------
export interface JudgeOptions {
  samples?: number;
  aggregate?: 'mean' | 'majority';
  temperature?: number;
  maxTokens?: number;
  prompt?: PromptTemplate;
  signal?: AbortSignal;
}
export interface JudgeSample {
  score: number | null;
  method: ParsedScore['method'] | null;
  ambiguous: boolean;
  error: string | null;
  /** The model's reply text. */
  reply: string;
}
export interface JudgeResult {
  /** null when no sample parsed: see unparsed and samples[].error. */
  score: number | null;
  scale: { kind: 'rating' | 'percent'; min: number; max: number };
  samples: JudgeSample[];
  unparsed: number;
  spread: number;
  stddev: number;
  agreement: number;
  prompt: { id: string; version: number };
  usage: { inputTokens: number; outputTokens: number };
  cost: number | null;
}
export function judgeContextRelevance(client: LlmClient, input: { question: string; passage: string },
  options?: JudgeOptions & { examples?: Array<{ question: string; passage: string; score: number }> }): Promise<JudgeResult>;
export function judgeAnswerRelevance(client: LlmClient, input: { question: string; answer: string }, options?: JudgeOptions): Promise<JudgeResult>;
export function judgeAnswerCorrectness(client: LlmClient,
  input: { question: string; answer: string; reference: string; referenceAnswerable?: boolean },
  options?: JudgeOptions): Promise<JudgeResult & { rule: 'both-unanswerable' | 'answer-abstained' | null }>;
export interface GroundednessResult {
  score: number | null;
  abstained: boolean;
  claims: Array<{ text: string; score: number | null; evidence: string; error: string | null }>;
  unparsed: number;
  usage: { inputTokens: number; outputTokens: number };
  cost: number | null;
  reply: string | null;
  prompt: { id: string; version: number };
  scale: { kind: 'rating'; min: number; max: number };
}
export function judgeGroundedness(client: LlmClient, input: { answer: string; contexts: Array<{ id?: string; text: string }> },
  options?: { claims?: string[] | 'sentences' | 'llm'; question?: string; temperature?: number; maxTokens?: number; prompt?: PromptTemplate;
    signal?: AbortSignal }): Promise<GroundednessResult>;
/** The RAG triad of one answer, each in [0, 1] (null: not scored): mean context relevance of the passages / 3,
 *  answer relevance / 3, groundedness. One judge call per passage + 2. */
export function judgeRagTriad(client: LlmClient, input: { question: string; answer: string; passages: Array<{ id?: string; text: string }> },
  options?: { signal?: AbortSignal }): Promise<{ contextRelevance: number | null; answerRelevance: number | null; groundedness: number | null;
    passageScores: Array<number | null>; cost: number | null }>;
/** Numbered or bulleted lines of a reply ("1. x", "- y"); [] for NONE. */
export function parseListReply(reply: string): string[];
export function stripCitations(text: string): string;
export function splitClaims(client: LlmClient, input: { question?: string; answer: string }, options?: { signal?: AbortSignal }):
  Promise<{ claims: string[]; usage: Usage; cost: number | null }>;
export const JUDGES: Readonly<{
  context_relevance: typeof judgeContextRelevance;
  answer_relevance: typeof judgeAnswerRelevance;
  answer_correctness: typeof judgeAnswerCorrectness;
  groundedness: typeof judgeGroundedness;
}>;

// ---- answers ----------------------------------------------------------------------------------
export function extractCitations(text: string, passages: Array<{ id?: string }>):
  { cited: Array<{ n: number; id: string | null }>; invalid: number[] };
export interface GeneratedAnswer {
  text: string;
  abstained: boolean;
  citations: Array<{ n: number; id: string | null }>;
  invalidCitations: number[];
  usage: Usage;
  cost: number | null;
  latencyMs: number;
  prompt: { id: string; version: number };
}
export function generateAnswer(client: LlmClient, input: { question: string; passages: Array<{ id?: string; text: string }> },
  options?: { onText?: (delta: string) => void; signal?: AbortSignal; temperature?: number; maxTokens?: number; prompt?: PromptTemplate }): Promise<GeneratedAnswer>;
export { ExtractiveAnswer, extractiveAnswer } from './answer/extractive.js';

// ---- enrichment -------------------------------------------------------------------------------
export const DEFAULT_METADATA_KEYS: readonly string[];
export function extractMetadata(client: LlmClient, document: string,
  options?: { keys?: string[]; signal?: AbortSignal; maxTokens?: number; prompt?: PromptTemplate }):
  Promise<{ metadata: Record<string, string>; reply: string; usage: Usage; cost: number | null }>;
export function contextualizeChunks(client: LlmClient, document: string, chunks: string[],
  options?: { signal?: AbortSignal; maxTokens?: number; prompt?: PromptTemplate }):
  Promise<Array<{ chunk: string; context: string; text: string; usage: Usage; cost: number | null }>>;
/** A 2-4 sentence summary of a whole document (prompt 'document_summary'), the document context of chunker.context.llmSummary. */
export function summarizeDocument(client: LlmClient, document: string, options?: { title?: string; maxTokens?: number; prompt?: PromptTemplate; signal?: AbortSignal }):
  Promise<{ summary: string; usage: object; cost: number | null }>;
/** Collection.add's chunkContexts from an LLM (contextualizeChunks per document); stats counts calls and cost. */
export function llmChunkContexts(client: LlmClient, options?: { maxTokens?: number; prompt?: PromptTemplate; signal?: AbortSignal }):
  ((document: { id: string; title?: string; text: string }, chunks: { id: string; text: string }[]) => Promise<string[]>) & { stats: { documents: number; chunks: number; cost: number | null } };
export function rewriteQuery(client: LlmClient, question: string,
  options?: { history?: Array<{ role: 'user' | 'assistant'; content: string }>; signal?: AbortSignal; prompt?: PromptTemplate }):
  Promise<{ query: string; usage: Usage; cost: number | null }>;

// ---- LLM query expansion (retrieval.llmExpansion) ----------------------------------------------
export type LlmExpansionMode = 'hyde' | 'query2doc';
export const LLM_EXPANSION_MODES: readonly LlmExpansionMode[];
export interface ExpandQueryOptions {
  /** 'query2doc' (default): search the question then the passage; 'hyde': the passage alone */
  mode?: LlmExpansionMode;
  /** the passage's token budget, 16..2048 (default 128) */
  maxTokens?: number; prompt?: PromptTemplate; signal?: AbortSignal;
}
export interface ExpandedQuery {
  /** what to search (the question itself when the reply was empty) */
  query: string;
  /** the LLM's hypothetical answer passage: a search query, never an answer */
  passage: string; mode: LlmExpansionMode; usage: Usage; cost: number | null;
}
/** LLM query expansion (prompt 'query_expand'): a hypothetical answer passage searched with (query2doc) or instead of (HyDE) the question. */
export function expandQuery(client: LlmClient, question: string, options?: ExpandQueryOptions): Promise<ExpandedQuery>;

// ---- calibration ------------------------------------------------------------------------------
export type JudgeName = 'context_relevance' | 'answer_relevance' | 'answer_correctness' | 'groundedness';
export interface LabelledItem {
  id: string;
  label: number;
  [field: string]: unknown;
}
export function parseLabels(text: string, judge: JudgeName): LabelledItem[];
export interface AgreementStats {
  n: number;
  scored: number;
  unscored: number;
  kappa: number | null;
  kappaQuadratic: number | null;
  binary: { tp: number; fp: number; fn: number; tn: number; precision: number; recall: number; f1: number; accuracy: number } | null;
  exact: number | null;
  offByOne: number | null;
  spearman: number | null;
  confusion: { labels: number[]; matrix: number[][] } | null;
}
export function agreementStats(rows: Array<{ label: number; prediction: number | null }>,
  scale: { kind: 'rating' | 'percent'; binaryThreshold: number }): AgreementStats;
export interface CalibrationPrediction {
  id: string;
  label: number;
  slice: string | null;
  score: number | null;
  prediction: number | null;
  error: string | null;
  rule?: string | null;
}
export interface CalibrationReport {
  judge: JudgeName;
  prompt: { id: string; version: number } | null;
  scale: { kind: 'rating' | 'percent'; min: number; max: number; binaryThreshold: number };
  predictions: CalibrationPrediction[];
  overall: AgreementStats;
  slices: Record<string, AgreementStats>;
  failures: number;
  usage: { inputTokens: number; outputTokens: number };
  cost: number | null;
}
export function calibrateJudge(client: LlmClient, items: LabelledItem[], options: { judge: JudgeName; prompt?: PromptTemplate;
  samples?: number; aggregate?: 'mean' | 'majority'; sliceField?: string; signal?: AbortSignal;
  onProgress?: (progress: {done: number, total: number}) => void;
  /** few-shot graded examples (context_relevance only); draw them from items you do not score */
  examples?: Array<{ question: string; passage: string; score: number }> }): Promise<CalibrationReport>;
export function comparePrompts(client: LlmClient, items: LabelledItem[], options: { judge: JudgeName; promptA?: PromptTemplate;
  promptB?: PromptTemplate; samples?: number; aggregate?: 'mean' | 'majority'; sliceField?: string; signal?: AbortSignal }):
  Promise<{ a: CalibrationReport; b: CalibrationReport; onlyA: number; onlyB: number; both: number; neither: number }>;
export * from './llm/rerank.js';
export * from './goldens/label-pool.js';
export * from './goldens/questions.js';
export * from './goldens/judge-grid.js';
export * from './goldens/clarify.js';
