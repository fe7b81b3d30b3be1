// @ts-check
// Human labels for pooled candidates (issue #31 item 2): `ragwasm label --pool-only` writes the pool
// as JSON lines (formatPool); the metrics classroom's grading mode reads it back (parsePool), a person
// grades each (question, passage) 0-3, and the grades become TREC qrels (gradedQrels, for `tune
// --qrels`) and judge labels (gradedLabels, for `ragwasm judge --labels`). Ungraded pairs are left
// out, never written as 0. Browser-safe: no Node built-ins.
import { RagwasmError } from '../core/errors.js';
import { expectArray, expectInteger, expectOptions, expectString, invalid, isInstance, isPlainObject } from '../core/validate.js';
import { formatQrels, judgmentsToQrels } from './label-pool.js';

const MAX_POOL_LINES = 1000000;

/** The key of a (question, chunk) pair in a grades object: `questionId + '\t' + chunkId`. */
export function pairKey(questionId, chunkId) {
  expectString(questionId, 'questionId');
  expectString(chunkId, 'chunkId');
  return `${questionId}\t${chunkId}`;
}

/**
 * A pool (poolCandidates' output) and its questions -> JSON lines, one per (question, candidate):
 * {questionId, question, chunkId, docId, text, bestRank, runs}; questions in the given order.
 * @param {{questions: Array<{id: string, text: string}>, pool: Record<string, Array<{id: string, docId: string, text: string, bestRank?: number, runs?: string[]}>>}} input
 * @returns {string}
 * @throws {RagwasmError} INVALID_ARGUMENT
 */
export function formatPool(input) {
  const i = expectOptions(input, 'input', ['questions', 'pool']);
  if (!Array.isArray(i.questions)) throw invalid('input.questions', 'an array of {id, text}', i.questions);
  if (!isPlainObject(i.pool)) throw invalid('input.pool', 'an object {questionId: candidates}', i.pool);
  const lines = [];
  for (const q of i.questions) {
    if (!isPlainObject(q)) throw invalid('input.questions[]', 'a question {id, text}', q);
    const qid = expectString(q.id, 'question.id', { allowEmpty: false });
    for (const c of i.pool[qid] ?? []) {
      lines.push(JSON.stringify({ questionId: qid, question: expectString(q.text, `question ${qid}.text`), chunkId: c.id, docId: c.docId, text: c.text,
        ...(c.bestRank === undefined ? {} : { bestRank: c.bestRank }), ...(c.runs === undefined ? {} : { runs: c.runs }) }));
    }
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/**
 * Pool JSON lines (formatPool) -> [{questionId, question, chunkId, docId, text}] in file order.
 * Blank lines are skipped; a BOM is dropped.
 * @param {string} text
 * @returns {Array<{questionId: string, question: string, chunkId: string, docId: string, text: string}>}
 * @throws {RagwasmError} PARSE_ERROR naming the line (not JSON, a missing field, a pair given twice, no pairs)
 */
export function parsePool(text) {
  expectString(text, 'pool');
  const out = [];
  const seen = new Map();
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  if (lines.length > MAX_POOL_LINES) throw new RagwasmError('LIMIT_EXCEEDED', `ragwasm: pool: ${lines.length} lines, the limit is ${MAX_POOL_LINES}`);
  lines.forEach((line, n) => {
    if (!line.trim()) return;
    const where = `ragwasm: pool line ${n + 1}`;
    let o;
    try {
      o = JSON.parse(line);
    } catch (e) {
      throw new RagwasmError('PARSE_ERROR', `${where}: not JSON (${e.message}); expected one {questionId, question, chunkId, docId, text} per line (ragwasm label --pool-only)`);
    }
    if (!isPlainObject(o)) throw new RagwasmError('PARSE_ERROR', `${where}: expected a JSON object {questionId, question, chunkId, docId, text}`);
    for (const f of ['questionId', 'chunkId', 'docId']) {
      if (typeof o[f] !== 'string' || o[f] === '' || /\s/.test(o[f])) throw new RagwasmError('PARSE_ERROR', `${where}: ${f}: expected a non-empty string without white space, got ${JSON.stringify(o[f])?.slice(0, 40)}`);
    }
    for (const f of ['question', 'text']) {
      if (typeof o[f] !== 'string') throw new RagwasmError('PARSE_ERROR', `${where}: ${f}: expected a string, got ${JSON.stringify(o[f])?.slice(0, 40)}`);
    }
    const key = pairKey(o.questionId, o.chunkId);
    if (seen.has(key)) throw new RagwasmError('PARSE_ERROR', `${where}: question ${o.questionId} chunk ${o.chunkId} is also on line ${seen.get(key)}; one line per pair`);
    seen.set(key, n + 1);
    out.push({ questionId: o.questionId, question: o.question, chunkId: o.chunkId, docId: o.docId, text: o.text });
  });
  if (out.length === 0) throw new RagwasmError('PARSE_ERROR', 'ragwasm: pool: no (question, passage) pairs');
  return out;
}

// A pool as parsePool returns it: an array of {questionId, chunkId, docId, question, text} (checked before
// any property is read: a caller's value may be a revoked Proxy or an array with holes).
function checkPool(pool) {
  expectArray(pool, 'pool', { maxLength: MAX_POOL_LINES, item: (p, name) => {
    if (!isPlainObject(p) || typeof p.questionId !== 'string' || typeof p.chunkId !== 'string') throw invalid(name, 'a pool pair {questionId, chunkId, docId, question, text} (parsePool)', p);
  } });
  return pool;
}

// Grades checked against the pool: only pairs of the pool, integers 0..3.
function checkedGrades(pool, grades) {
  checkPool(pool);
  if (!isPlainObject(grades)) throw invalid('grades', 'an object {pairKey: 0-3}', grades);
  const keys = new Set(pool.map((p) => pairKey(p.questionId, p.chunkId)));
  for (const [k, g] of Object.entries(grades)) {
    if (!keys.has(k)) throw invalid(`grades[${JSON.stringify(k)}]`, 'a (question, chunk) pair of the pool', k);
    expectInteger(g, `grades[${JSON.stringify(k)}]`, { min: 0, max: 3 });
  }
  return grades;
}

/**
 * Human grades -> TREC qrels text (formatQrels): `level: 'doc'` (default) keeps each document's best
 * chunk grade (what `tune --qrels` and trec_eval evaluate), `'chunk'` one row per chunk (what
 * `ragwasm judge --pool` reads). Ungraded pairs are left out.
 * @param {ReturnType<typeof parsePool>} pool
 * @param {Record<string, number>} grades pairKey(questionId, chunkId) -> 0..3
 * @param {{level?: 'doc'|'chunk'}} [options]
 * @returns {string}
 * @throws {RagwasmError} INVALID_ARGUMENT (a grade not 0-3, a pair not in the pool)
 */
export function gradedQrels(pool, grades, options = {}) {
  const g = checkedGrades(pool, grades);
  const judgments = pool.filter((p) => g[pairKey(p.questionId, p.chunkId)] !== undefined)
    .map((p) => ({ questionId: p.questionId, chunkId: p.chunkId, docId: p.docId, grade: g[pairKey(p.questionId, p.chunkId)] }));
  return formatQrels(judgmentsToQrels(judgments, options));
}

/**
 * Human grades -> labels JSONL for the context-relevance judge (`ragwasm judge --labels`,
 * parseLabels): {id, question, passage, label} per graded pair, in pool order.
 * @param {ReturnType<typeof parsePool>} pool
 * @param {Record<string, number>} grades
 * @returns {string}
 */
export function gradedLabels(pool, grades) {
  const g = checkedGrades(pool, grades);
  const lines = pool.filter((p) => g[pairKey(p.questionId, p.chunkId)] !== undefined)
    .map((p) => JSON.stringify({ id: pairKey(p.questionId, p.chunkId).replace('\t', '/'), question: p.question, passage: p.text, label: g[pairKey(p.questionId, p.chunkId)] }));
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/**
 * A pool and chunk-level qrels (`qid 0 chunkId grade`, as gradedQrels(..., {level: 'chunk'}) writes)
 * -> labelled items for the context-relevance judge grid ({id, question, passage, label}).
 * @param {ReturnType<typeof parsePool>} pool
 * @param {Map<string, Map<string, number>>|Record<string, Record<string, number>>} qrels
 * @returns {Array<{id: string, question: string, passage: string, label: number}>}
 * @throws {RagwasmError} INVALID_ARGUMENT (no qrels row names a pooled chunk: doc-level qrels given?)
 */
export function poolLabels(pool, qrels) {
  checkPool(pool);
  const isMap = isInstance(qrels, Map);
  if (!isMap && !isPlainObject(qrels)) throw invalid('qrels', 'a Map or an object {questionId: {chunkId: grade}} (Qrels.parse)', qrels);
  const get = (q, c) => (isMap ? qrels.get(q)?.get(c) : qrels[q]?.[c]);
  const out = [];
  for (const p of pool) {
    const label = get(p.questionId, p.chunkId);
    if (label === undefined) continue;
    out.push({ id: `${p.questionId}/${p.chunkId}`, question: p.question, passage: p.text, label: expectInteger(Number(label), `qrels ${p.questionId} ${p.chunkId}`, { min: 0, max: 3 }) });
  }
  if (out.length === 0) throw invalid('qrels', 'chunk-level judgments of pooled chunks (gradedQrels with level "chunk")', 'none matching the pool');
  return out;
}
