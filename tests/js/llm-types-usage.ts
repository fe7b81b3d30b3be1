// Typed usage of the LLM layer's .d.ts (checked with tsc --noEmit; see tests/js/tsconfig.json).
import { createLlmClient, RequestLedger, ResponseCache, PriceTable, loadPrompt, renderPrompt, formatPassages, parseJudgeScore, parseClaimScores, aggregateScores, isAbstention, judgeContextRelevance, judgeAnswerCorrectness, judgeGroundedness, generateAnswer, extractiveAnswer, extractMetadata, contextualizeChunks, rewriteQuery } from '../../web/src/llm.js';
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
  const q = await rewriteQuery(client, 'q', { history: [{ role: 'user', content: 'x' }] });
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

// The experiment runner (web/src/experiment/experiment.d.ts).
import { parseExperimentGrid, planExperiment, runExperiment, experimentMarkdown, experimentReportHtml, FileReplyCache } from '../../web/src/llm.js';
import type { ExperimentGrid, ExperimentRecord, ExperimentResult } from '../../web/src/llm.js';

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
