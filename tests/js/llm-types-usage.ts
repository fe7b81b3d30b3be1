// Typed usage of the LLM layer's .d.ts (checked with tsc --noEmit; see tests/js/tsconfig.json).
import { createLlmClient, RequestLedger, ResponseCache, PriceTable, loadPrompt, renderPrompt, formatPassages, parseJudgeScore, parseClaimScores, aggregateScores, isAbstention, judgeContextRelevance, judgeAnswerCorrectness, judgeGroundedness, generateAnswer, extractiveAnswer, extractMetadata, contextualizeChunks, llmChunkContexts, rewriteQuery, expandQuery } from '../../web/src/llm.js';
import type { CompletionResult, JudgeResult, LedgerEntry, ParsedScore, PromptTemplate } from '../../web/src/llm.js';

export async function llmUsage(): Promise<number | null> {
  const ledger = new RequestLedger({ maxEntries: 100 });
  const client = createLlmClient({ provider: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', model: 'm', ledger,
    cache: new ResponseCache(), prices: new PriceTable({ m: { inputPerMTok: 1, outputPerMTok: 2 } }), timeoutMs: 1000,
    maxReplyBytes: 1 << 20 });
  const refused: string | undefined = ledger.entries[0]?.redirect;
  void refused;
  const r: CompletionResult = await client.complete({ messages: [{ role: 'user', content: 'hi' }] }, { onText: (t: string) => void t });
  for await (const ev of client.stream({ messages: [{ role: 'user', content: [{ text: 'doc', cache: true }] }] })) {
    if (ev.type === 'done') void ev.result.cost;
  }
  const entries: LedgerEntry[] = ledger.entries;
  const t: PromptTemplate = await loadPrompt('judge_context_relevance');
  renderPrompt(t, { question: 'q', passage: 'p', examples: '' });
  const p: ParsedScore = parseJudgeScore('Score: 2', { kind: 'rating', min: 0, max: 3 });
  const claims = parseClaimScores('[1] Score: 3', 1);
  const agg = aggregateScores([1, null, 2], 'mean');
  const j: JudgeResult = await judgeContextRelevance(client, { question: 'q', passage: 'p' }, { samples: 3 });
  const c = await judgeAnswerCorrectness(client, { question: 'q', answer: 'a', reference: 'r' });
  const g = await judgeGroundedness(client, { answer: 'a', contexts: [{ text: 'x' }] });
  const a = await generateAnswer(client, { question: 'q', passages: [{ id: 'd', text: formatPassages([{ text: 'x' }]) }] });
  const e = extractiveAnswer('q', [{ id: 'c', text: 'x', score: 1 }], { maxSentences: 2, threshold: 0.35 });
  const m = await extractMetadata(client, 'doc', { keys: ['company'] });
  const cc = await contextualizeChunks(client, 'doc', ['a', 'b']);
  const ctxFn = llmChunkContexts(client, { maxTokens: 100 });
  const ctxs: string[] = await ctxFn({ id: 'd', text: 'doc' }, [{ id: 'd#0', text: 'a' }]);
  const ctxCalls: number = ctxFn.stats.chunks + ctxs.length;
  void ctxCalls;
  const q = await rewriteQuery(client, 'q', { history: [{ role: 'user', content: 'x' }] });
  const x = await expandQuery(client, 'q', { mode: 'hyde', maxTokens: 64 });
  const x2 = await client.expandQuery('q', { mode: 'query2doc' });
  const ans = await client.answer({ question: 'q', passages: [{ text: 'p' }] });
  const rq = await client.rewriteQuery('and 2024?', { history: [] });
  const cl = await client.clarify({ question: 'q', passages: [{ id: 'a', text: 'p' }] });
  void [x.passage, x.query, x2.mode, ans.citations, rq.query, cl.ambiguous];
  void [r.text, entries.length, p.method, claims[0].score, agg.value, c.rule, g.abstained, a.citations, e.answered,
    m.metadata, cc[0].text, q.query, isAbstention('x')];
  return j.score;
}

import { parseLabels, calibrateJudge, comparePrompts } from '../../web/src/llm.js';
import type { CalibrationReport } from '../../web/src/llm.js';

export async function calibrationUsage(): Promise<number | null> {
  const client = createLlmClient({ provider: 'anthropic', baseUrl: 'https://api.anthropic.com', model: 'm' });
  const items = parseLabels('{"question": "q", "passage": "p", "label": 2}', 'context_relevance');
  const r: CalibrationReport = await calibrateJudge(client, items, { judge: 'context_relevance', sliceField: 'type' });
  const cmp = await comparePrompts(client, items, { judge: 'context_relevance' });
  return r.overall.kappa ?? cmp.a.overall.exact;
}

import {
  poolCandidates, labelPool, judgmentsToQrels, formatQrels, tuneAgreement, sampleChunks, generateQuestions, judgeGrid,
  percentError, clarifyQuestion, parseClarification, parseAmbiguitySet, clarificationMetrics
} from '../../web/src/llm.js';
import { splitTrainTest } from '../../web/src/eval.js';
import type { LabelPoolResult, JudgeGridCell, Clarification, ClarificationMetrics } from '../../web/src/llm.js';
import { ask } from '../../web/src/index.js';
import type { AskResult, Collection } from '../../web/src/index.js';

export async function goldensUsage(col: Collection): Promise<number | null> {
  const client = createLlmClient({ provider: 'openai', baseUrl: 'http://127.0.0.1:1/v1', model: 'm' });
  const pool = poolCandidates({ bm25: { q1: [{ id: 'c', docId: 'd', text: 't' }] } }, { depth: 5 });
  const l: LabelPoolResult = await labelPool(client, { questions: [{ id: 'q1', text: 'q?' }], pool }, { examples: [{ question: 'q', passage: 'p', score: 2 }] });
  const qrels = judgmentsToQrels(l.judgments, { level: 'doc' });
  const text: string = formatQrels(qrels);
  const chunks = sampleChunks([{ id: 'c', docId: 'd', text: 't' }], { n: 1, seed: 2, perDocument: 1 });
  const gen = await generateQuestions(client, chunks, { idPrefix: 'g' });
  const s = splitTrainTest([1, 2, 3], { seed: 1, trainFraction: 0.5 });
  const items = parseLabels('{"question": "q", "passage": "p", "label": 2}', 'context_relevance');
  const g = await judgeGrid({ models: [{ name: 'm', client }], prompts: [{ name: 'builtin' }], items }, { judge: 'context_relevance', fewShot: 2 });
  const cell: JudgeGridCell = g.cells[0];
  const pe = percentError([{ label: 50, prediction: 40 }]);
  const c: Clarification = parseClarification('{}', ['c']);
  const cq = await clarifyQuestion(client, { question: 'q', passages: [{ id: 'c', text: 't' }] });
  const set = parseAmbiguitySet('');
  const m: ClarificationMetrics = clarificationMetrics([{ expected: set[0], result: cq, docOf: (id) => id, shown: ['d'] }]);
  const r: AskResult = await ask(col, 'q', { llm: client, clarify: 'ask' });
  const own: AskResult = await ask(col, 'q', { llm: { answer: (input) => client.answer(input), expandQuery: (q, o) => client.expandQuery(q, o) } });
  void [own.expansion?.passage, own.expansion?.searched];
  const t = tuneAgreement({ table: [], best: { index: 0 }, metric: 'm' }, { table: [], best: { index: 0 }, metric: 'm' });
  void [text, gen.questions[0].source.quote, s.train, cell.percent?.setError, pe.meanAbsoluteError, c.ambiguous, m.grounding,
    r.clarification?.interpretations[0].chunkIds, t.regret];
  return m.precision;
}

// The experiment runner (web/src/experiment/experiment.d.ts).
import { parseExperimentGrid, planExperiment, runExperiment, experimentMarkdown, experimentReportHtml, FileReplyCache } from '../../web/src/eval.js';
import type { ExperimentGrid, ExperimentRecord, ExperimentResult } from '../../web/src/eval.js';

export async function experimentUsage(): Promise<string> {
  const grid: ExperimentGrid = { base: { indexes: { bm25: {} } }, vary: { 'retrieval.k': [1, 5], 'chunker.context': { none: null, title: { template: '{title}' } } },
    baselines: ['no-retrieval', 'oracle'], baseline: 'retrieval.k=5, chunker.context=none',
    answer: { models: [{ provider: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', model: 'm', price: { inputPerMTok: 1, outputPerMTok: 2 } }] } };
  const names: string[] = parseExperimentGrid(grid).cells.map((c) => c.name);
  const dataset = { documents: [{ id: 'd', title: 'D', text: 'text' }], questions: [{ id: 'q', question: 'what?', answer: 'text', doc_ids: ['d'], evidence: ['text'] }] };
  const plan = await planExperiment(grid, dataset, { limit: 1 });
  const records: ExperimentRecord[] = [];
  const r: ExperimentResult = await runExperiment(grid, dataset, { cache: new FileReplyCache('cache.jsonl'), budget: 1, onRecord: (x) => { records.push(x); },
    onProgress: (e) => void e.cellIndex, apiKey: (m) => m.apiKeyEnv });
  const f1: number | undefined = r.cells[0].answers?.f1?.mean;
  void f1; void names; void plan.llmCalls;
  return experimentMarkdown(r) + experimentReportHtml(r, records, { title: 't' });
}

// #16: the pipeline config's LLM context steps and the RAG triad.
import { judgeRagTriad, summarizeDocument } from '../../web/src/llm.js';
import { Collection as CollectionClass, llmContextSteps } from '../../web/src/index.js';
export async function contextStepsUsage(): Promise<number | null> {
  const client = createLlmClient({ provider: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', model: 'm' });
  const config = { chunker: { context: { llmSummary: { maxTokens: 80 }, llmChunkContext: {} } }, indexes: { bm25: {} }, judges: { triad: true } };
  const steps: Array<{ key: 'llmSummary' | 'llmChunkContext'; path: string }> = llmContextSteps(config);
  void steps;
  const col = await CollectionClass.create(config, { llm: client });
  col.dispose();
  const s: string = (await summarizeDocument(client, 'text', { title: 't', maxTokens: 100 })).summary;
  void s;
  const t = await judgeRagTriad(client, { question: 'q', answer: 'a', passages: [{ id: 'c1', text: 'p' }] });
  return t.groundedness ?? t.contextRelevance ?? t.answerRelevance;
}
