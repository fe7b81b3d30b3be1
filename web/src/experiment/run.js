// @ts-check
// The experiment runner (issue 16): every cell of a parsed grid over one QA dataset — retrieval
// through a Collection built from the cell's pipeline config, the answerer it names (extractive, LLM,
// none), the correctness judge when one is configured — one record per question per cell, handed to
// onRecord as soon as it is done (the CLI appends it to a JSONL file), so a killed run resumes from
// the records it wrote (`done`). LLM replies go through the client's cache (the CLI keeps it in a
// file), retries and backoff are the client's; a cell whose LLM call still fails is reported as
// failed and the other cells go on. Nothing here reads files or the environment.
import { RagwasmError } from '../core/errors.js';
import { expectArray, expectFunction, expectInteger, expectNumber, expectOptions, expectString, invalid, isPlainObject } from '../core/validate.js';
import { Collection, llmContextSteps } from '../pipeline/collection.js';
import { createStaticEmbedder } from '../embed/embed.js';
import { extractiveAnswer } from '../answer/extractive.js';
import { citationMetrics, evaluateEvidence } from '../metrics/metrics.js';
import { createLlmClient } from '../llm/client.js';
import { PriceTable } from '../llm/cost.js';
import { generateAnswer } from '../llm/answer.js';
import { judgeAnswerCorrectness, judgeRagTriad } from '../llm/judges.js';
import { createLlmReranker } from '../llm/rerank.js';
import { rerank as rerankItems } from '../retrieve/fusion.js';
import { canonicalJson, sha256Hex } from '../llm/cache.js';
import { definePrompt, loadPrompt } from '../llm/prompts.js';
import { answerContext } from '../context/prompt.js';
import { parseExperimentGrid } from './grid.js';
import { scoreAnswer, summarizeExperiment } from './summary.js';

const UNANSWERABLE_REFERENCE = 'The documents do not answer this question.';
const SNIPPET = 300;  // characters of each retrieved chunk kept in a record (the report's drill-down)
const KEPT_CHUNKS = 5;
const REF_RANK_DEPTH = 100;
const now = () => (globalThis.performance ? globalThis.performance.now() : Date.now());

function checkDataset(dataset) {
  const d = expectOptions(dataset, 'dataset', ['documents', 'questions']);
  const documents = expectArray(d.documents, 'dataset.documents', { maxLength: 10000000 });
  if (documents.length === 0) throw invalid('dataset.documents', 'at least one document', documents);
  const questions = expectArray(d.questions, 'dataset.questions', { maxLength: 1000000 }).map((q, i) => {
    const n = `dataset.questions[${i}]`;
    if (!isPlainObject(q)) throw invalid(n, 'a question {id, question, answer, doc_ids, evidence, answerable}', q);
    const id = typeof q.id === 'number' ? String(q.id) : expectString(q.id, `${n}.id`, { allowEmpty: false, maxLength: 1000 });
    const question = expectString(q.question, `${n}.question`, { allowEmpty: false });
    const answer = q.answer === undefined || q.answer === null ? null : expectString(q.answer, `${n}.answer`);
    const docIds = q.doc_ids === undefined ? [] : expectArray(q.doc_ids, `${n}.doc_ids`, { item: (v, nn) => expectString(v, nn) });
    const evidence = q.evidence === undefined ? [] : expectArray(q.evidence, `${n}.evidence`, { item: (v, nn) => expectString(v, nn, { allowEmpty: false }) });
    const answerable = q.answerable === undefined ? answer !== null : q.answerable === true;
    return { id, question, answer, docIds, evidence, answerable };
  });
  if (questions.length === 0) throw invalid('dataset.questions', 'at least one question', questions);
  const ids = new Set();
  questions.forEach((q, i) => {
    if (ids.has(q.id)) throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: dataset.questions[${i}].id: ${JSON.stringify(q.id)} appears twice`);
    ids.add(q.id);
  });
  return { documents, questions };
}

// The questions a run covers: options.questionIds (in dataset order), then options.limit.
function selectQuestions(all, o) {
  let qs = all;
  if (o.questionIds !== undefined) {
    const ids = expectArray(o.questionIds, 'options.questionIds', { maxLength: 1000000, item: (v, n) => expectString(v, n) });
    const known = new Set(all.map((q) => q.id));
    ids.forEach((id, i) => { if (!known.has(id)) throw invalid(`options.questionIds[${i}]`, 'the id of a dataset question', id); });
    const keep = new Set(ids);
    qs = all.filter((q) => keep.has(q.id));
  }
  return o.limit === undefined ? qs : qs.slice(0, expectInteger(o.limit, 'options.limit', { min: 1, max: 100000000 }));
}

const estimateTokens = (chars) => Math.ceil(chars / 4);
function messageChars(messages) {
  let n = 0;
  for (const m of messages) n += typeof m.content === 'string' ? m.content.length : m.content.reduce((s, p) => s + p.text.length, 0);
  return n;
}

// The stable identity of a cell: what decides its records (config, answerer endpoint and prompt,
// judge, evaluation settings). A re-run of a grown grid reuses records of unchanged cells only.
async function cellId(cell, grid) {
  const m = cell.model ? { provider: cell.model.provider, baseUrl: cell.model.baseUrl, model: cell.model.model } : null;
  const j = grid.answer.judge ? { provider: grid.answer.judge.provider, baseUrl: grid.answer.judge.baseUrl, model: grid.answer.judge.model } : null;
  const cx = grid.answer.context && llmContextSteps(cell.config).length > 0
    ? { provider: grid.answer.context.provider, baseUrl: grid.answer.context.baseUrl, model: grid.answer.context.model } : null;
  const key = canonicalJson({ config: cell.config, kind: cell.kind, model: m, prompt: cell.prompt?.template ?? null, judge: cell.answerer === 'none' ? null : j, evaluation: grid.evaluation,
    ...(cx ? { context: cx } : {}) });
  return (await sha256Hex(key)).slice(0, 16);
}

function answerChunkCount(cell) {
  return Math.min(cell.config.retrieval.k, cell.config.answerer.chunks);
}

/**
 * What a grid would run, without running it: its cells, the LLM calls still to make (records in
 * `done` are skipped) and their estimated cost from the endpoints' prices and token estimates
 * (ceil(characters / 4) of the rendered prompt with answerer.chunks passages of min(chunkSize, mean
 * document length) characters, plus answer.outputTokens out). Spends nothing.
 * @param {object|string} grid an experiment grid (parseExperimentGrid)
 * @param {{documents: object[], questions: object[]}} dataset
 * @param {{done?: object[], limit?: number, questionIds?: string[]}} [options] done: records of an earlier run (the --out JSONL);
 *   questionIds: only these questions (e.g. one half of a split); limit: only the first N
 * @returns {Promise<{cells: object[], questions: number, llmCalls: number, estimatedCost: number|null,
 *   unpricedCalls: number, doneRecords: number}>}
 * @throws {RagwasmError} as parseExperimentGrid; INVALID_ARGUMENT (malformed dataset or options)
 */
export async function planExperiment(grid, dataset, options = {}) {
  const o = expectOptions(options, 'planExperiment options', ['done', 'limit', 'questionIds']);
  const g = parseExperimentGrid(grid);
  const data = checkDataset(dataset);
  const questions = selectQuestions(data.questions, o);
  const done = doneKeys(o.done);
  const meanDoc = data.documents.reduce((s, d) => s + String(d.text ?? '').length, 0) / data.documents.length;
  const answerTemplate = await loadPrompt('answer_grounded');
  const judgeTemplate = await loadPrompt('judge_answer_correctness');
  const relevanceTemplate = await loadPrompt('judge_context_relevance');
  const searched = new Set();
  const built = new Set();  // collections whose LLM context steps are counted
  const cells = [];
  let llmCalls = 0;
  let cost = 0;
  let unpriced = 0;
  for (const cell of g.cells) {
    const id = await cellId(cell, g);
    const todo = questions.filter((q) => !done.has(`${id}\t${q.id}`));
    const passageChars = answerChunkCount(cell) * Math.min(cell.config.chunker.chunkSize, meanDoc);
    let calls = 0;
    let cellCost = 0;
    // LLM reranking: one context-relevance call per candidate, once per distinct search (cells that
    // share the collection, retrieval and rerank settings share the reranked lists).
    const rr = cell.config.rerank;
    const searchKey = canonicalJson({ chunker: cell.config.chunker, indexes: cell.config.indexes, retrieval: cell.config.retrieval, rerank: rr });
    const reranks = rr.enabled && rr.type === 'llm' && cell.config.retrieval.k > 0 && !searched.has(searchKey) ? rr.candidates : 0;
    searched.add(searchKey);
    // LLM context steps: once per distinct collection with work left (summaries: one per document;
    // chunk contexts: one per chunk, estimated as ceil(length / (chunkSize - overlap)) per document).
    const colKey = canonicalJson({ chunker: cell.config.chunker, indexes: cell.config.indexes });
    if (todo.length > 0 && !built.has(colKey)) {
      built.add(colKey);
      for (const st of llmContextSteps(cell.config)) {
        const ch = cell.config.chunker;
        const t = await loadPrompt(st.key === 'llmSummary' ? 'document_summary' : 'chunk_context');
        const outTokens = st.options.maxTokens ?? (st.key === 'llmSummary' ? 200 : 160);
        for (const d of data.documents) {
          const len = String(d.text ?? '').length;
          const n = st.key === 'llmSummary' ? 1 : Math.max(1, Math.ceil(len / Math.max(1, ch.chunkSize - (ch.chunkOverlap ?? 0))));
          calls += n;
          const c = priceOf(g.answer.context, estimateTokens(messageChars(t.messages) + len + (st.key === 'llmSummary' ? 0 : ch.chunkSize)), outTokens);
          if (c === null) unpriced += n; else cellCost += n * c;
        }
      }
    }
    for (const q of todo) {
      const out = g.answer.outputTokens;
      if (reranks) {
        const chars = messageChars(relevanceTemplate.messages) + q.question.length + Math.min(cell.config.chunker.chunkSize, meanDoc);
        calls += reranks;
        const c = priceOf(g.answer.reranker, estimateTokens(chars), 100);
        if (c === null) unpriced += reranks; else cellCost += reranks * c;
      }
      if (cell.answerer === 'llm') {
        const t = cell.prompt.template ? definePrompt(cell.prompt.template) : answerTemplate;
        const chars = messageChars(t.messages) + q.question.length + passageChars;
        calls++;
        const c = priceOf(cell.model, estimateTokens(chars), out);
        if (c === null) unpriced++; else cellCost += c;
      }
      if (g.answer.judge && cell.answerer !== 'none' && q.answerable) {
        const chars = messageChars(judgeTemplate.messages) + q.question.length + (q.answer ?? '').length + out * 4;
        calls++;
        const c = priceOf(g.answer.judge, estimateTokens(chars), 100);
        if (c === null) unpriced++; else cellCost += c;
      }
      if (g.answer.judge && cell.answerer !== 'none' && cell.config.judges?.triad) {
        // The RAG triad: one context-relevance call per passage read, answer relevance, groundedness.
        const n = Math.min(answerChunkCount(cell), cell.config.retrieval.k);
        const chars = (n + 2) * (messageChars(relevanceTemplate.messages) + q.question.length + out * 4) + 2 * passageChars;
        calls += n + 2;
        const c = priceOf(g.answer.judge, estimateTokens(chars), 100 * (n + 2));
        if (c === null) unpriced += n + 2; else cellCost += c;
      }
    }
    llmCalls += calls;
    cost += cellCost;
    cells.push({ name: cell.name, id, kind: cell.kind, answerer: cell.answerer, model: cell.model?.name ?? null, prompt: cell.prompt?.name ?? null,
      questions: questions.length, done: questions.length - todo.length, llmCalls: calls, estimatedCost: cellCost });
  }
  return { cells, questions: questions.length, llmCalls, estimatedCost: unpriced > 0 && cost === 0 ? null : cost, unpricedCalls: unpriced, doneRecords: o.done?.length ?? 0 };
}

function priceOf(model, inTokens, outTokens) {
  if (!model?.price) return null;
  return (inTokens * model.price.inputPerMTok + outTokens * model.price.outputPerMTok) / 1e6;
}

function doneKeys(done) {
  const out = new Set();
  if (done === undefined) return out;
  expectArray(done, 'options.done', { maxLength: 100000000 }).forEach((r, i) => {
    if (!isPlainObject(r) || typeof r.cellId !== 'string' || typeof r.questionId !== 'string') {
      throw invalid(`options.done[${i}]`, 'a record of an earlier run {cellId, questionId, ...}', r);
    }
    out.add(`${r.cellId}\t${r.questionId}`);
  });
  return out;
}

// The oracle context: the reference documents' chunks first (in retrieval order, then any the
// search did not return, in document order), then the other hits as distractors.
function oracleOrder(hits, q, col) {
  const refs = new Set(q.docIds);
  if (refs.size === 0) return hits;
  const first = hits.filter((h) => refs.has(h.docId));
  const seen = new Set(first.map((h) => h.id));
  for (const docId of q.docIds) {
    for (const c of col.docs.get(docId)?.chunkList() ?? []) {
      if (!seen.has(c.id)) { seen.add(c.id); first.push({ id: c.id, docId, text: c.text, start: c.start, end: c.end, score: 0, title: col.docs.get(docId).title }); }
    }
  }
  return [...first, ...hits.filter((h) => !refs.has(h.docId))];
}

/**
 * Runs an experiment grid over a dataset. Records (one per question per cell) go to onRecord as
 * each is done; records given in `done` are not run again (resumption) but count in the summary.
 * @example
 * const r = await runExperiment(grid, { documents, questions }, { onRecord: (rec) => lines.push(rec) });
 * experimentMarkdown(r);
 * @param {object|string} grid an experiment grid (docs/experiments.md)
 * @param {{documents: {id: string, title?: string, text: string}[], questions: {id: string, question: string,
 *   answer?: string, doc_ids?: string[], evidence?: string[], answerable?: boolean}[]}} dataset
 * @param {object} [options]
 * @param {object[]} [options.done] records of an earlier run of this grid (skipped, then summarized)
 * @param {(record: object) => (void|Promise<void>)} [options.onRecord] called with each new record
 * @param {(event: {cell: string, cellIndex: number, cells: number, question: number, questions: number}) => void} [options.onProgress]
 * @param {number} [options.budget] stop before an LLM call whose estimated cost would take this run's
 *   spending above it (currency of the prices); every LLM endpoint then needs a price
 * @param {{get: Function, set: Function}} [options.cache] LLM reply cache shared by every client (ResponseCache or a persistent store)
 * @param {(model: object) => (string|undefined)} [options.apiKey] the API key of an endpoint (the CLI reads model.apiKeyEnv)
 * @param {Function} [options.fetch] fetch for the LLM clients (tests)
 * @param {object} [options.embedder] embedder for configs with a dense index or the semantic chunker
 *   (default: the static model of ragwasm-static-model, loaded once for the whole run)
 * @param {Function} [options.reranker] reranker(query, items) -> scores for cells whose config enables rerank of type
 *   cross-encoder or custom (type llm uses answer.reranker, an endpoint of the grid)
 * @param {string[]} [options.questionIds] only these questions (e.g. one half of a split), in dataset order
 * @param {number} [options.limit] only the first N questions (after questionIds)
 * @returns {Promise<object>} the summary (summarizeExperiment) plus `stopped` ({reason: 'budget', cell, question} or null) and `spent`
 * @throws {RagwasmError} as parseExperimentGrid and planExperiment; INVALID_ARGUMENT (a budget with an unpriced endpoint)
 */
export async function runExperiment(grid, dataset, options = {}) {
  const o = expectOptions(options, 'runExperiment options', ['done', 'onRecord', 'onProgress', 'budget', 'cache', 'apiKey', 'fetch', 'embedder', 'limit', 'questionIds', 'reranker']);
  const g = parseExperimentGrid(grid);
  const data = checkDataset(dataset);
  const questions = selectQuestions(data.questions, o);
  if (o.onRecord !== undefined) expectFunction(o.onRecord, 'options.onRecord');
  if (o.onProgress !== undefined) expectFunction(o.onProgress, 'options.onProgress');
  if (o.apiKey !== undefined) expectFunction(o.apiKey, 'options.apiKey');
  const budget = o.budget === undefined ? null : expectNumber(o.budget, 'options.budget', { min: 0 });
  /** @type {import('./experiment.js').ExperimentEndpoint[]} */
  const endpoints = [...new Set(g.cells.filter((c) => c.answerer === 'llm').map((c) => c.model))];
  if (g.answer.judge && g.cells.some((c) => c.answerer !== 'none')) endpoints.push(g.answer.judge);
  if (g.answer.reranker && g.cells.some((c) => c.config.rerank.enabled && c.config.rerank.type === 'llm')) endpoints.push(g.answer.reranker);
  if (g.answer.context && g.cells.some((c) => llmContextSteps(c.config).length > 0)) endpoints.push(g.answer.context);
  if (budget !== null) {
    for (const m of endpoints) {
      if (!m.price) throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: options.budget: endpoint ${JSON.stringify(m.name)} has no price (answer.models[].price or answer.judge.price); a budget needs every price`);
    }
  }
  const doneRecords = o.done === undefined ? [] : expectArray(o.done, 'options.done', { maxLength: 100000000 });
  const done = doneKeys(doneRecords);

  const clients = new Map();
  const recorder = new CallRecorder();
  const clientFor = (m) => {
    if (!clients.has(m)) {
      const prices = new PriceTable();
      if (m.price) prices.set(m.model, m.price);
      const co = { provider: m.provider, baseUrl: m.baseUrl, model: m.model, prices };
      for (const k of ['maxRetries', 'retryBaseMs', 'retryMaxMs', 'timeoutMs', 'concurrency']) if (m[k] !== undefined) co[k] = m[k];
      const key = o.apiKey ? o.apiKey(m) : undefined;
      if (key !== undefined) co.apiKey = key;
      // Every call passes through the recorder (the client's cache interface): what it cost and how long it took when sent.
      if (o.cache !== undefined || globalThis.crypto?.subtle) co.cache = recorder.cacheFor(o.cache ?? null);
      if (o.fetch !== undefined) co.fetch = o.fetch;
      clients.set(m, createLlmClient(co));
    }
    return clients.get(m);
  };
  const rerankers = new Map();
  const rerankerFor = (m) => {
    if (!rerankers.has(m)) rerankers.set(m, createLlmReranker(clientFor(m)).reranker);
    return rerankers.get(m);
  };
  const needsReranker = g.cells.find((c) => c.config.rerank.enabled && c.config.rerank.type !== 'llm' && c.config.retrieval.k > 0);
  if (needsReranker && o.reranker === undefined) {
    throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: options.reranker: cell ${JSON.stringify(needsReranker.name)} enables rerank type "${needsReranker.config.rerank.type}": pass the reranker function (e.g. createCrossEncoderReranker(...).reranker from ragwasm/onnx)`);
  }
  if (o.reranker !== undefined) expectFunction(o.reranker, 'options.reranker');
  const answerTemplate = g.cells.some((c) => c.answerer === 'llm') ? await loadPrompt('answer_grounded') : null;
  const judgeTemplate = g.answer.judge ? await loadPrompt('judge_answer_correctness') : null;

  let embedder = null;
  const collections = new Map();  // chunker + indexes -> Collection
  const builds = new Map();       // chunker + indexes -> the LLM calls of its build
  const searches = new Map();     // collection key + retrieval -> question id -> {hits, ms}
  const results = [];
  let spent = 0;
  let stopped = null;
  try {
    for (let ci = 0; ci < g.cells.length && !stopped; ci++) {
      const cell = g.cells[ci];
      const id = await cellId(cell, g);
      const records = doneRecords.filter((r) => r.cellId === id);
      const result = { name: cell.name, id, kind: cell.kind, answerer: cell.answerer, settings: cell.settings, model: cell.model?.name ?? null,
        prompt: cell.prompt?.name ?? null, k: cell.config.retrieval.k, status: 'ok', error: null, records };
      results.push(result);
      const todo = questions.filter((q) => !done.has(`${id}\t${q.id}`));
      if (todo.length === 0) continue;
      const colKey = canonicalJson({ chunker: cell.config.chunker, indexes: cell.config.indexes });
      if (!collections.has(colKey)) {
        // One embedder for every collection that needs one (dense index or semantic chunker): the
        // caller's, else the default static model, loaded once.
        const needs = cell.config.indexes.dense || cell.config.chunker.strategy === 'semantic';
        if (needs && embedder === null) embedder = o.embedder ?? await createStaticEmbedder();
        // The chunker's LLM context steps (chunker.context.llmSummary / llmChunkContext) go through the
        // answer.context endpoint's client: its replies are in the reply cache like every other call.
        const copts = needs ? { embedder } : {};
        if (llmContextSteps(cell.config).length > 0) copts.llm = clientFor(g.answer.context);
        const before = snapshot(clients);
        const built = recorder.start();
        let col = null;
        try {
          col = await Collection.create(cell.config, copts);
          await col.add(data.documents.map((d) => ({ id: d.id, title: d.title ?? '', text: d.text, ...(d.metadata ? { metadata: d.metadata } : {}) })));
        } catch (e) {
          col?.dispose();
          if (!(e instanceof RagwasmError)) throw e;
          result.status = 'failed';
          result.error = `indexing: ${e.code}: ${e.message.replace(/^ragwasm: /, '')}`;
          continue;
        } finally {
          const after = snapshot(clients);
          const cost = after.unpriced === before.unpriced ? after.cost - before.cost : null;
          if (cost !== null) spent += cost;
          if (after.calls > before.calls) {
            result.indexLlm = { calls: after.calls - before.calls - (after.cacheHits - before.cacheHits), cachedCalls: after.cacheHits - before.cacheHits, cost };
          }
          recorder.stop();
        }
        collections.set(colKey, col);
        builds.set(colKey, built);
      }
      const col = collections.get(colKey);
      // The collection build's calls, attributed to every cell that uses the collection (whichever cell built it).
      if (builds.get(colKey).length > 0) result.indexFromCalls = fromCalls(builds.get(colKey));
      const searchKey = canonicalJson({ colKey, retrieval: cell.config.retrieval, rerank: cell.config.rerank });
      if (!searches.has(searchKey)) searches.set(searchKey, new Map());
      const cache = searches.get(searchKey);
      const client = cell.answerer === 'llm' ? clientFor(cell.model) : null;
      const judge = g.answer.judge && cell.answerer !== 'none' ? clientFor(g.answer.judge) : null;
      const reranker = !cell.config.rerank.enabled || cell.config.retrieval.k === 0 ? null
        : cell.config.rerank.type === 'llm' ? rerankerFor(g.answer.reranker) : o.reranker;
      const depth = Math.max(REF_RANK_DEPTH, g.evaluation.maxK, ...g.evaluation.cutoffs, cell.config.retrieval.k);

      for (let qi = 0; qi < todo.length; qi++) {
        const q = todo[qi];
        o.onProgress?.({ cell: cell.name, cellIndex: ci, cells: g.cells.length, question: qi, questions: todo.length });
        // Budget: this question's LLM calls, estimated before any is sent.
        if (budget !== null && (client || (judge && q.answerable))) {
          let est = 0;
          if (client) {
            const t = cell.prompt.template ? definePrompt(cell.prompt.template) : answerTemplate;
            est += priceOf(cell.model, estimateTokens(messageChars(t.messages) + q.question.length + answerChunkCount(cell) * cell.config.chunker.chunkSize), g.answer.outputTokens);
          }
          if (judge && q.answerable) est += priceOf(g.answer.judge, estimateTokens(messageChars(judgeTemplate.messages) + q.question.length + (q.answer ?? '').length + g.answer.outputTokens * 4), 100);
          if (spent + est > budget) {
            stopped = { reason: 'budget', cell: cell.name, question: q.id, spent, budget };
            result.status = 'stopped';
            result.error = `stopped by the budget before question ${q.id}`;
            break;
          }
        }
        // LLM calls, retries and cost of this question: the clients' counters around it (questions run one at a time).
        const before = snapshot(clients);
        const own = recorder.start();
        /** @type {Partial<import('./experiment.js').ExperimentRecord>} filled in below, complete when handed on */
        let rec = null;
        try {
          // Retrieval (shared by cells with the same collection, retrieval and rerank settings).
          let s = cache.get(q.id);
          if (!s) {
            const t0 = now();
            let hits = [];
            let error = null;
            const searchCalls = recorder.start();
            try {
              const k = Math.min(depth, Math.max(1, col.chunks.size));
              // The cell's retrieval.filter (not the shared collection's: cells differing only in the filter share it).
              if (cell.config.retrieval.k > 0) hits = await col.search(q.question, { k, filter: cell.config.retrieval.filter ?? null });
              // The cell's rerank section (not the shared collection's: cells differing only in rerank share it).
              if (reranker && hits.length > 0) {
                const rr = cell.config.rerank;
                hits = await rerankItems(q.question, hits, reranker, { candidates: rr.candidates, keep: Math.min(k, rr.keep) });
              }
            } catch (e) {
              // A question BM25 cannot search (only stopwords): nothing retrieved, said in the record.
              if (!(e instanceof RagwasmError) || e.code !== 'INVALID_ARGUMENT' || !/query/.test(e.message)) throw e;
              error = e.message.replace(/^ragwasm: /, '');
            }
            recorder.start(own);
            s = { hits, ms: now() - t0, error, calls: searchCalls };
            cache.set(q.id, s);
          }
          const hits = cell.kind === 'oracle' ? oracleOrder(s.hits, q, col) : s.hits;
          rec = { cellId: id, cell: cell.name, k: cell.config.retrieval.k, questionId: q.id, question: q.question, answerable: q.answerable, reference: q.answer };
          rec.retrieval = retrievalScores(q, hits, cell, g.evaluation);
          if (s.error) rec.retrieval.error = s.error;
          rec.latencyMs = { retrieve: s.ms, answer: 0, judge: 0 };
          rec.llm = { calls: 0, cachedCalls: 0, retries: 0, cost: 0 };
          await answerAndJudge(rec, q, cell, hits.slice(0, answerChunkCount(cell)), client, judge, col);
          // The question's own calls: its answer and judge calls and its search's LLM rerank calls (made by whichever
          // cell searched first), each sent or served from the cache, at the cost and latency it had when sent.
          rec.llm.fromCalls = fromCalls([...s.calls, ...own]);
        } catch (e) {
          if (!(e instanceof RagwasmError)) throw e;
          result.status = 'failed';
          result.error = `question ${q.id}: ${e.code}: ${e.message.replace(/^ragwasm: /, '')}`;
        } finally {
          recorder.stop();
          const after = snapshot(clients);
          const cost = after.unpriced === before.unpriced ? after.cost - before.cost : null;
          if (cost !== null) spent += cost;
          if (rec) {
            rec.llm.calls = after.calls - before.calls - (after.cacheHits - before.cacheHits);
            rec.llm.cachedCalls = after.cacheHits - before.cacheHits;
            rec.llm.retries = after.retries - before.retries;
            rec.llm.cost = cost;
          }
        }
        if (result.status === 'failed') break;
        rec.latencyMs.total = rec.latencyMs.retrieve + rec.latencyMs.answer + rec.latencyMs.judge;
        records.push(rec);
        if (o.onRecord) await o.onRecord(rec);
      }
    }
    // Cells a budget stop left unstarted are listed (with the records an earlier run left).
    for (let ci = results.length; ci < g.cells.length; ci++) {
      const cell = g.cells[ci];
      const id = await cellId(cell, g);
      results.push({ name: cell.name, id, kind: cell.kind, answerer: cell.answerer, settings: cell.settings, model: cell.model?.name ?? null,
        prompt: cell.prompt?.name ?? null, k: cell.config.retrieval.k, status: 'not run', error: 'stopped by the budget', records: doneRecords.filter((r) => r.cellId === id) });
    }
  } finally {
    for (const c of collections.values()) c.dispose();
  }
  const summary = summarizeExperiment({ cells: results, baseline: g.baseline, pairs: g.pairs, evaluation: g.evaluation });
  return { ...summary, stopped, spent };
}

// Records the LLM calls of the phase running now (questions run one at a time): each client's cache is
// wrapped, so a sent call is seen at set() (its fresh result) and a cache hit at get() (the stored result,
// with what it cost and how long it took when it was sent). Without a caller cache nothing is stored.
class CallRecorder {
  constructor() { this.sink = null; }
  start(list = []) { this.sink = list; return list; }
  stop() { this.sink = null; }
  cacheFor(inner) {
    const rec = (v, cached) => {
      if (this.sink && v && typeof v === 'object') {
        this.sink.push({ cached, cost: typeof v.cost === 'number' ? v.cost : null, latencyMs: typeof v.latencyMs === 'number' ? v.latencyMs : 0 });
      }
    };
    return {
      get: async (key) => {
        const v = inner ? await inner.get(key) : undefined;
        if (v !== undefined) rec(v, true);
        return v;
      },
      set: async (key, value) => {
        rec(value, false);
        if (inner) await inner.set(key, value);
      },
    };
  }
}

// A list of recorded calls -> {calls, cachedCalls, cost (null: a call had no price), latencyMs (their sum)}.
function fromCalls(list) {
  return { calls: list.length, cachedCalls: list.filter((c) => c.cached).length,
    cost: list.some((c) => c.cost === null) ? null : list.reduce((a, c) => a + c.cost, 0), latencyMs: list.reduce((a, c) => a + c.latencyMs, 0) };
}

function snapshot(clients) {
  const s = { calls: 0, cacheHits: 0, retries: 0, cost: 0, unpriced: 0 };
  for (const c of clients.values()) {
    s.calls += c.stats.calls;
    s.cacheHits += c.stats.cacheHits;
    s.retries += c.stats.retries;
    s.cost += c.stats.pricedCost;
    s.unpriced += c.stats.unpricedCalls;
  }
  return s;
}

// Evidence recall / precision / reciprocal rank at the cutoffs and the cell's k, the recall curve,
// the rank of the first chunk of a reference document, and the top chunks for the drill-down.
function retrievalScores(q, hits, cell, ev) {
  const out = { refRank: null, chunks: hits.slice(0, KEPT_CHUNKS).map((h) => ({ id: h.id, docId: h.docId, score: h.score, text: h.text.slice(0, SNIPPET) })) };
  const at = hits.findIndex((h) => q.docIds.includes(h.docId));
  if (q.docIds.length && at >= 0) out.refRank = at + 1;
  if (cell.config.retrieval.k === 0 || q.evidence.length === 0) return out;
  const k = cell.config.retrieval.k;
  const cutoffs = [...new Set([...ev.cutoffs, k])].sort((a, b) => a - b);
  const depth = Math.max(ev.maxK, ...cutoffs);
  const r = evaluateEvidence([{ evidence: q.evidence.map((text) => ({ text })), chunks: hits.slice(0, depth).map((h) => ({ text: h.text })) }],
    { cutoffs, maxK: depth, threshold: ev.threshold });
  out.recall = r.recall;
  out.precision = r.precision;
  out.rr = r.mrr;
  out.curve = r.curve.slice(0, ev.maxK);
  out.relevant = r.perQuestion[0].relevant.slice(0, depth);
  return out;
}

async function answerAndJudge(rec, q, cell, top, client, judge, col) {
  if (cell.answerer === 'none') return;
  // The LLM reads the passages the config's assembly section gives (web/src/context/prompt.js): chosen, ordered and
  // with their document context; passages[n - 1] is what citation [n] names.
  const ctx = cell.answerer === 'llm' ? answerContext(col, top, { assembly: cell.config.assembly }) : null;
  const passages = ctx ? ctx.hits : top;
  const texts = ctx ? ctx.passages : top.map((h) => ({ id: h.id, text: h.text }));
  const t0 = now();
  let text;
  let abstained;
  if (cell.answerer === 'extractive') {
    const a = cell.config.answerer;
    const r = extractiveAnswer(q.question, passages.map((h) => ({ id: h.id, text: h.text, score: h.score, context: h.title ?? '' })),
      { maxChunks: Math.max(1, passages.length), threshold: a.threshold, maxSentences: a.maxSentences });
    text = r.text;
    abstained = !r.answered;
    rec.latencyMs.answer = now() - t0;
  } else {
    const r = await generateAnswer(client, { question: q.question, passages: texts },
      cell.prompt.template ? { prompt: definePrompt(cell.prompt.template), maxTokens: 512 } : { maxTokens: 512 });
    text = r.text;
    abstained = r.abstained;
    rec.latencyMs.answer = now() - t0;
  }
  rec.answer = { text, abstained };
  const relevantIds = (rec.retrieval.relevant ?? []).slice(0, top.length).map((rel, i) => (rel ? top[i].id : null)).filter((x) => x !== null && passages.some((h) => h.id === x));
  rec.scores = scoreAnswer(text, abstained, q.answerable ? q.answer : UNANSWERABLE_REFERENCE, q.answerable);
  if (relevantIds.length && !abstained) {
    const c = citationMetrics(text, { relevantIds, contextIds: passages.map((h) => h.id) });
    rec.scores.citationPrecision = c.precision;
    rec.scores.citationRecall = c.recall;
  }
  if (judge && q.answerable && q.answer !== null) {
    const t1 = now();
    const j = await judgeAnswerCorrectness(judge, { question: q.question, answer: text, reference: q.answer, referenceAnswerable: true });
    rec.latencyMs.judge = now() - t1;
    rec.scores.correctness = j.score;
    rec.scores.correct = j.score === null ? null : (j.score >= 50 ? 1 : 0);
    rec.judge = { score: j.score, rule: j.rule, unparsed: j.unparsed };
  }
  // The RAG triad (config judges.triad), on every answered question: each score in [0, 1] or null.
  if (judge && cell.config.judges?.triad) {
    const t1 = now();
    const t = await judgeRagTriad(judge, { question: q.question, answer: text, passages: texts });
    rec.latencyMs.judge += now() - t1;
    rec.scores.contextRelevance = t.contextRelevance;
    rec.scores.answerRelevance = t.answerRelevance;
    rec.scores.groundedness = t.groundedness;
  }
}
