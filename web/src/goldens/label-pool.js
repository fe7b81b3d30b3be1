// @ts-check
// Goldens without hand labels (issue #16 item 4): pool the top chunks of several retrieval
// configurations per question, grade each (question, chunk) with the context-relevance judge (0-3)
// and turn the grades into TREC qrels. A grade the judge's reply does not yield (or a failed call)
// is counted as unlabelled and left out of the qrels, never written as 0.
import { RagwasmError } from '../core/errors.js';
import { expectArray, expectEnum, expectInteger, expectOptions, expectString, invalid, isInstance, isObject, isPlainObject } from '../core/validate.js';
import { LlmClient } from '../llm/client.js';
import { judgeContextRelevance } from '../llm/judges.js';
import { kendallTau, spearman } from '../metrics/metrics.js';

/**
 * Pools the top `depth` hits of several runs per question: each chunk once, in order of its best
 * rank over the runs (ties: run order, then chunk id), with the runs that retrieved it.
 * @param {Record<string, Record<string, Array<{id: string, docId: string, text: string}>>>} runs
 *   run name -> question id -> ranked chunk hits (best first)
 * @param {{depth?: number}} [options] depth per run (default 10, 1..1000)
 * @returns {Record<string, Array<{id: string, docId: string, text: string, bestRank: number, runs: string[]}>>}
 *   question id -> pooled chunks (questions in first-seen order)
 * @throws {RagwasmError} INVALID_ARGUMENT
 */
export function poolCandidates(runs, options = {}) {
  const o = expectOptions(options, 'poolCandidates options', ['depth']);
  const depth = o.depth === undefined ? 10 : expectInteger(o.depth, 'options.depth', { min: 1, max: 1000 });
  if (!isPlainObject(runs)) throw invalid('runs', 'an object {runName: {questionId: hits}}', runs);
  const names = Object.keys(runs);
  if (names.length === 0) throw invalid('runs', 'at least one run', runs);
  const pools = new Map();
  names.forEach((name) => {
    const byQ = runs[name];
    if (!isPlainObject(byQ)) throw invalid(`runs.${name}`, 'an object {questionId: hits}', byQ);
    for (const qid of Object.keys(byQ)) {
      const hits = expectArray(byQ[qid], `runs.${name}.${qid}`, { maxLength: 1000000 });
      if (!pools.has(qid)) pools.set(qid, new Map());
      const pool = pools.get(qid);
      hits.slice(0, depth).forEach((h, rank) => {
        const n = `runs.${name}.${qid}[${rank}]`;
        if (!isObject(h)) throw invalid(n, 'a hit {id, docId, text}', h);
        const id = expectString(h.id, `${n}.id`, { allowEmpty: false });
        const docId = expectString(h.docId, `${n}.docId`, { allowEmpty: false });
        const text = expectString(h.text, `${n}.text`);
        const have = pool.get(id);
        if (have) {
          if (!have.runs.includes(name)) have.runs.push(name);
          have.bestRank = Math.min(have.bestRank, rank + 1);
        } else {
          pool.set(id, { id, docId, text, bestRank: rank + 1, runs: [name], order: pool.size });
        }
      });
    }
  });
  /** @type {Record<string, Array<{id: string, docId: string, text: string, bestRank: number, runs: string[]}>>} */
  const out = {};
  for (const [qid, pool] of pools) {
    out[qid] = [...pool.values()]
      .sort((a, b) => a.bestRank - b.bestRank || a.order - b.order)
      .map(({ order, ...c }) => c);  // eslint-disable-line no-unused-vars
  }
  return out;
}

/**
 * Grades every pooled (question, chunk) pair with judgeContextRelevance (0-3 rubric).
 * @param {LlmClient} client
 * @param {{questions: Array<{id: string, text: string}>, pool: Record<string, Array<{id: string, docId: string, text: string}>>}} input
 * @param {{examples?: Array<{question: string, passage: string, score: number}>, samples?: number, aggregate?: 'mean'|'majority',
 *   prompt?: object, signal?: AbortSignal, onProgress?: (progress: {done: number, total: number}) => void}} [options]
 *   examples: few-shot graded examples passed to the judge
 * @returns {Promise<{judgments: Array<{questionId: string, chunkId: string, docId: string, grade: number|null, error: string|null, reply: string|null}>,
 *   labelled: number, unlabelled: number, usage: {inputTokens: number, outputTokens: number}, cost: number|null}>}
 *   grade null (with error) for a failed call or a reply without a usable score
 * @throws {RagwasmError} INVALID_ARGUMENT, ABORTED
 */
export async function labelPool(client, input, options = {}) {
  if (!isInstance(client, LlmClient)) throw new RagwasmError('INVALID_ARGUMENT', 'ragwasm: client: expected an LlmClient (createLlmClient)');
  const i = expectOptions(input, 'input', ['questions', 'pool']);
  const o = expectOptions(options, 'labelPool options', ['examples', 'samples', 'aggregate', 'prompt', 'signal', 'onProgress']);
  const questions = expectArray(i.questions, 'input.questions', { maxLength: 1000000, item: (q, n) => {
    if (!isObject(q)) throw invalid(n, 'a question {id, text}', q);
    expectString(q.id, `${n}.id`, { allowEmpty: false });
    expectString(q.text, `${n}.text`, { allowEmpty: false });
  } });
  if (!isPlainObject(i.pool)) throw invalid('input.pool', 'an object {questionId: chunks} (poolCandidates)', i.pool);
  const judgeOptions = {};
  for (const k of ['examples', 'samples', 'aggregate', 'prompt', 'signal']) if (o[k] !== undefined) judgeOptions[k] = o[k];
  const tasks = [];
  for (const q of questions) {
    const chunks = i.pool[q.id] === undefined ? [] : expectArray(i.pool[q.id], `input.pool.${q.id}`, { maxLength: 100000 });
    for (const c of chunks) tasks.push({ q, c });
  }
  let done = 0;
  const judgments = await Promise.all(tasks.map(async ({ q, c }) => {
    const row = { questionId: q.id, chunkId: c.id, docId: c.docId, grade: null, error: null, reply: null };
    try {
      const r = await judgeContextRelevance(client, { question: q.text, passage: c.text }, judgeOptions);
      row.grade = r.score === null ? null : Math.floor(r.score + 0.5);
      row.reply = r.samples[0]?.reply ?? null;
      row.usage = r.usage;
      row.cost = r.cost;
      if (r.score === null) row.error = `unparsed reply: ${r.samples[0]?.error ?? 'no score'}`;
    } catch (e) {
      if (!(e instanceof RagwasmError) || e.code === 'INVALID_ARGUMENT' || e.code === 'ABORTED') throw e;
      row.error = `${e.code}: ${e.message}`;
    }
    done++;
    o.onProgress?.({ done, total: tasks.length });
    return row;
  }));
  let input_ = 0; let output = 0; let cost = 0; let costKnown = true;
  for (const j of judgments) {
    if (!j.usage) continue;
    input_ += j.usage.inputTokens ?? 0;
    output += j.usage.outputTokens ?? 0;
    if (j.cost === null) costKnown = false; else cost += j.cost;
  }
  const out = judgments.map(({ usage, cost: c, ...j }) => j);  // eslint-disable-line no-unused-vars
  const labelled = out.filter((j) => j.grade !== null).length;
  return { judgments: out, labelled, unlabelled: out.length - labelled, usage: { inputTokens: input_, outputTokens: output }, cost: costKnown ? cost : null };
}

/**
 * Judgments -> qrels: `level: 'doc'` (default) keeps each document's best chunk grade (the level
 * trec_eval and tune evaluate), `'chunk'` one row per chunk. Unlabelled judgments are left out.
 * @param {Array<{questionId: string, chunkId: string, docId: string, grade: number|null}>} judgments
 * @param {{level?: 'doc'|'chunk'}} [options]
 * @returns {Record<string, Record<string, number>>} question id -> id -> grade (0-3)
 */
export function judgmentsToQrels(judgments, options = {}) {
  const o = expectOptions(options, 'judgmentsToQrels options', ['level']);
  const level = o.level === undefined ? 'doc' : expectEnum(o.level, 'options.level', ['doc', 'chunk']);
  const list = expectArray(judgments, 'judgments', { maxLength: 10000000, item: (j, n) => {
    if (!isObject(j)) throw invalid(n, 'a judgment {questionId, chunkId, docId, grade}', j);
    expectString(j.questionId, `${n}.questionId`, { allowEmpty: false });
    expectString(level === 'doc' ? j.docId : j.chunkId, `${n}.${level === 'doc' ? 'docId' : 'chunkId'}`, { allowEmpty: false });
    if (j.grade !== null) expectInteger(j.grade, `${n}.grade`, { min: 0, max: 3 });
  } });
  /** @type {Record<string, Record<string, number>>} */
  const qrels = {};
  for (const j of list) {
    if (j.grade === null) continue;
    const key = level === 'doc' ? j.docId : j.chunkId;
    const q = (qrels[j.questionId] ??= {});
    q[key] = Math.max(q[key] ?? 0, j.grade);
  }
  return qrels;
}

/**
 * TREC qrels text: `qid 0 docid grade` per line, questions and ids sorted (bytewise) so the file is deterministic.
 * @param {Record<string, Record<string, number>>} qrels
 * @returns {string}
 */
export function formatQrels(qrels) {
  if (!isPlainObject(qrels)) throw invalid('qrels', 'an object {questionId: {id: grade}}', qrels);
  const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  const lines = [];
  for (const q of Object.keys(qrels).sort(cmp)) {
    if (/\s/.test(q) || !q) throw invalid(`qrels key ${JSON.stringify(q)}`, 'a question id without whitespace', q);
    if (!isPlainObject(qrels[q])) throw invalid(`qrels.${q}`, 'an object {id: grade}', qrels[q]);
    for (const d of Object.keys(qrels[q]).sort(cmp)) {
      if (/\s/.test(d) || !d) throw invalid(`qrels.${q} key ${JSON.stringify(d)}`, 'an id without whitespace', d);
      lines.push(`${q} 0 ${d} ${expectInteger(qrels[q][d], `qrels.${q}.${d}`)}`);
    }
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/**
 * How well tuning on LLM labels agrees with tuning on human labels: two autotune results over the
 * same grid (rows in the same order), one on LLM qrels and one on human labels.
 * @param {{table: Array<{index: number, value: number}>, best: {index: number}, metric: string}} llmTune autotune on LLM labels
 * @param {{table: Array<{index: number, value: number}>, best: {index: number}, metric: string}} humanTune autotune on human labels
 * @returns {{rows: number, picked: {index: number, llmValue: number, humanValue: number}, humanBest: {index: number, value: number},
 *   regret: number, spearman: number|null, kendall: number|null, llmMetric: string, humanMetric: string}}
 *   regret = human value of the human-best row - human value of the LLM-picked row (0 = the LLM labels picked a best setting);
 *   spearman/kendall between the two columns of row values (null when undefined, e.g. a constant column)
 * @throws {RagwasmError} INVALID_ARGUMENT when the tables differ in length
 */
export function tuneAgreement(llmTune, humanTune) {
  const rowsOf = (t, name) => {
    if (!isObject(t) || !isObject(t.best)) throw invalid(name, 'an autotune result', t);
    return expectArray(t.table, `${name}.table`, { maxLength: 1000000, item: (r, n) => { if (!isObject(r) || typeof r.value !== 'number') throw invalid(n, 'a row {index, value}', r); } });
  };
  const a = rowsOf(llmTune, 'llmTune');
  const b = rowsOf(humanTune, 'humanTune');
  if (a.length !== b.length || a.length === 0) throw invalid('humanTune.table', `${a.length} rows (the same grid as llmTune)`, b);
  const picked = expectInteger(llmTune.best.index, 'llmTune.best.index', { min: 0, max: a.length - 1 });
  const hb = expectInteger(humanTune.best.index, 'humanTune.best.index', { min: 0, max: b.length - 1 });
  const nanToNull = (v) => (v === null || v === undefined || Number.isNaN(v) ? null : v);
  const x = a.map((r) => r.value);
  const y = b.map((r) => r.value);
  return {
    rows: a.length,
    picked: { index: picked, llmValue: a[picked].value, humanValue: b[picked].value },
    humanBest: { index: hb, value: b[hb].value },
    regret: b[hb].value - b[picked].value,
    spearman: a.length >= 2 ? nanToNull(spearman(x, y)) : null,
    kendall: a.length >= 2 ? nanToNull(kendallTau(x, y)) : null,
    llmMetric: llmTune.metric,
    humanMetric: humanTune.metric,
  };
}
