// Query clarification (issue #16 item 5): before answering, ask the LLM whether the question is
// ambiguous given the top retrieved chunks and, if so, for grounded interpretations (each citing the
// shown chunks that support it). Interpretations citing a chunk that was not shown are rejected.
// A reply that does not parse is reported as a parse failure (error set, ambiguous null), never thrown.
// clarificationMetrics() scores detection and grounding against a labelled set (examples/corpus/ambiguous.jsonl).
import { RagwasmError } from '../core/errors.js';
import { expectArray, expectInteger, expectOptions, expectString, invalid, isArray, isInstance, isObject, isPlainObject } from '../core/validate.js';
import { LlmClient } from '../llm/client.js';
import { formatPassages, loadPrompt, renderPrompt } from '../llm/prompts.js';

const MAX_INTERPRETATIONS = 8;

function expectClient(client) {
  if (!isInstance(client, LlmClient)) throw new RagwasmError('INVALID_ARGUMENT', 'ragwasm: client: expected an LlmClient (createLlmClient)');
}

// The first balanced {...} of a reply (models wrap JSON in prose or code fences).
function firstJsonObject(text) {
  const start = text.indexOf('{');
  if (start < 0) return null;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  return null;
}

/**
 * Parses a query_clarify reply against the passages that were shown.
 * Citations may be passage numbers (1-based, as numbered in the prompt) or chunk ids; an
 * interpretation citing a number or id that was not shown, or citing nothing, is rejected (kept in
 * `rejected` with the reason). A question counts as ambiguous only when at least 2 grounded
 * interpretations remain.
 * @param {string} reply the model's reply
 * @param {string[]} shownIds ids of the passages shown, in prompt order
 * @returns {{ambiguous: boolean|null, claimedAmbiguous: boolean|null, interpretations: Array<{question: string, chunkIds: string[]}>,
 *   rejected: Array<{question: string, cited: Array<string|number>, reason: string}>, error: string|null}}
 *   ambiguous null and error set when the reply is not the expected JSON
 * @throws {RagwasmError} INVALID_ARGUMENT (reply not a string, shownIds not strings)
 */
export function parseClarification(reply, shownIds) {
  expectString(reply, 'reply');
  const ids = expectArray(shownIds, 'shownIds', { maxLength: 1000, item: (v, n) => expectString(v, n) });
  const fail = (error) => ({ ambiguous: null, claimedAmbiguous: null, interpretations: [], rejected: [], error });
  const raw = firstJsonObject(reply);
  if (raw === null) return fail('unparsed reply: no JSON object');
  let j;
  try {
    j = JSON.parse(raw);
  } catch (e) {
    return fail(`unparsed reply: ${e.message}`);
  }
  if (!isPlainObject(j) || typeof j.ambiguous !== 'boolean') return fail('unparsed reply: expected {"ambiguous": true|false, "interpretations": [...]}');
  const list = j.interpretations === undefined ? [] : j.interpretations;
  if (!isArray(list)) return fail('unparsed reply: interpretations: expected an array');
  const interpretations = [];
  const rejected = [];
  for (const it of list.slice(0, MAX_INTERPRETATIONS)) {
    const question = isPlainObject(it) && typeof it.question === 'string' ? it.question.trim() : '';
    const cited = isPlainObject(it) && isArray(it.passages) ? it.passages : [];
    if (!question) {
      rejected.push({ question, cited, reason: 'no question' });
      continue;
    }
    if (cited.length === 0) {
      rejected.push({ question, cited, reason: 'cites no passage' });
      continue;
    }
    const chunkIds = [];
    let bad = null;
    for (const c of cited) {
      const n = typeof c === 'number' ? c : (typeof c === 'string' && /^\[?\d+\]?$/.test(c.trim()) ? Number(c.trim().replace(/[[\]]/g, '')) : null);
      let id = null;
      if (n !== null) id = Number.isInteger(n) && n >= 1 && n <= ids.length ? ids[n - 1] : null;
      else if (typeof c === 'string' && ids.includes(c)) id = c;
      if (id === null) {
        bad = `cites ${JSON.stringify(c)}, which was not shown`;
        break;
      }
      if (!chunkIds.includes(id)) chunkIds.push(id);
    }
    if (bad) rejected.push({ question, cited, reason: bad });
    else interpretations.push({ question, chunkIds });
  }
  const ambiguous = j.ambiguous && interpretations.length >= 2;
  return { ambiguous, claimedAmbiguous: j.ambiguous, interpretations: ambiguous ? interpretations : [], rejected, error: null };
}

/**
 * Asks the LLM (query_clarify prompt) whether `question` is ambiguous given `passages`.
 * @param {LlmClient} client
 * @param {{question: string, passages: Array<{id: string, text: string}>}} input the top retrieved chunks
 * @param {{prompt?: object, maxTokens?: number, signal?: AbortSignal}} [options]
 * @returns {Promise<{ambiguous: boolean|null, claimedAmbiguous: boolean|null, interpretations: Array<{question: string, chunkIds: string[]}>,
 *   rejected: object[], error: string|null, reply: string, usage: object, cost: number|null}>}
 * @throws {RagwasmError} INVALID_ARGUMENT, and the client's HTTP/NETWORK/TIMEOUT/ABORTED errors
 */
export async function clarifyQuestion(client, input, options = {}) {
  expectClient(client);
  const i = expectOptions(input, 'input', ['question', 'passages']);
  const o = expectOptions(options, 'clarifyQuestion options', ['prompt', 'maxTokens', 'signal']);
  const question = expectString(i.question, 'input.question', { allowEmpty: false });
  const passages = expectArray(i.passages, 'input.passages', { maxLength: 100, item: (p, n) => {
    if (!isObject(p)) throw invalid(n, 'a passage {id, text}', p);
    expectString(p.id, `${n}.id`, { allowEmpty: false });
    expectString(p.text, `${n}.text`);
  } });
  if (passages.length === 0) throw invalid('input.passages', 'at least one passage', passages);
  const maxTokens = o.maxTokens === undefined ? 600 : expectInteger(o.maxTokens, 'options.maxTokens', { min: 1, max: 100000 });
  const t = o.prompt ?? await loadPrompt('query_clarify');
  const messages = renderPrompt(t, { question, passages: formatPassages(passages.map((p) => ({ id: p.id, text: p.text }))) });
  const r = await client.complete({ messages, temperature: 0, maxTokens, purpose: 'clarify' }, { signal: o.signal });
  return { ...parseClarification(r.text, passages.map((p) => p.id)), reply: r.text, usage: r.usage, cost: r.cost };
}

/**
 * Parses a labelled ambiguous-question set (JSONL): {id, question, ambiguous: boolean,
 * interpretations: [{question, doc_ids: [..]}]} per line (interpretations may be empty for a clear question).
 * @param {string} text
 * @returns {Array<{id: string, question: string, ambiguous: boolean, interpretations: Array<{question: string, docIds: string[]}>}>}
 * @throws {RagwasmError} PARSE_ERROR naming the line
 */
export function parseAmbiguitySet(text) {
  expectString(text, 'text');
  const out = [];
  text.split('\n').forEach((line, k) => {
    if (!line.trim()) return;
    const bad = (what) => new RagwasmError('PARSE_ERROR', `ragwasm: ambiguity set line ${k + 1}: ${what}`);
    let o;
    try { o = JSON.parse(line); } catch (e) { throw bad(`not JSON (${e.message})`); }
    if (!isPlainObject(o)) throw bad('expected an object');
    if (typeof o.id !== 'string' || !o.id) throw bad('id: expected a non-empty string');
    if (typeof o.question !== 'string' || !o.question.trim()) throw bad('question: expected a non-empty string');
    if (typeof o.ambiguous !== 'boolean') throw bad('ambiguous: expected true or false');
    if (!isArray(o.interpretations)) throw bad('interpretations: expected an array');
    const interpretations = o.interpretations.map((it, n) => {
      if (!isPlainObject(it) || typeof it.question !== 'string' || !isArray(it.doc_ids) || it.doc_ids.length === 0
        || it.doc_ids.some((d) => typeof d !== 'string')) throw bad(`interpretations[${n}]: expected {question, doc_ids: [non-empty list of ids]}`);
      return { question: it.question, docIds: it.doc_ids };
    });
    if (o.ambiguous && interpretations.length < 2) throw bad('an ambiguous question needs at least 2 interpretations');
    out.push({ id: o.id, question: o.question, ambiguous: o.ambiguous, interpretations });
  });
  if (out.length === 0) throw new RagwasmError('PARSE_ERROR', 'ragwasm: ambiguity set: no questions');
  return out;
}

/**
 * Scores clarification results against a labelled set.
 * - detection: precision/recall/F1 of `ambiguous` (a parse failure counts as "not detected" and is counted in `unparsed`)
 * - grounding: share of returned interpretations (of questions labelled ambiguous and detected) whose cited
 *   chunks all come from documents of one expected interpretation
 * - coverage: share of expected interpretations (of detected ambiguous questions) that some returned
 *   interpretation is grounded in (its chunks' documents overlap the expected doc_ids)
 * - reachable: share of expected interpretations (of all questions labelled ambiguous) with a document among
 *   the shown chunks (`shown`: their doc ids), the retrieval ceiling for coverage; null when no case gives `shown`
 * @param {Array<{expected: {ambiguous: boolean, interpretations: Array<{docIds: string[]}>},
 *   result: {ambiguous: boolean|null, interpretations: Array<{chunkIds: string[]}>}, docOf: (chunkId: string) => string, shown?: string[]}>} cases
 * @returns {{n: number, unparsed: number, tp: number, fp: number, fn: number, tn: number, precision: number|null,
 *   recall: number|null, f1: number|null, grounding: number|null, coverage: number|null, reachable: number|null, rejected: number}}
 *   null where the denominator is 0
 */
export function clarificationMetrics(cases) {
  const ids = (v, n) => expectArray(v, n, { maxLength: 100000, item: (x, m) => expectString(x, m) });
  const list = expectArray(cases, 'cases', { maxLength: 1000000, item: (c, n) => {
    if (!isPlainObject(c) || !isPlainObject(c.expected) || !isPlainObject(c.result) || typeof c.docOf !== 'function') {
      throw invalid(n, 'a {expected, result, docOf} object', c);
    }
    if (typeof c.expected.ambiguous !== 'boolean') throw invalid(`${n}.expected.ambiguous`, 'true or false', c.expected.ambiguous);
    expectArray(c.expected.interpretations, `${n}.expected.interpretations`, { maxLength: 1000, item: (it, m) => {
      if (!isPlainObject(it)) throw invalid(m, 'an interpretation {docIds}', it);
      ids(it.docIds, `${m}.docIds`);
    } });
    if (c.result.ambiguous !== null && typeof c.result.ambiguous !== 'boolean') throw invalid(`${n}.result.ambiguous`, 'true, false or null', c.result.ambiguous);
    expectArray(c.result.interpretations, `${n}.result.interpretations`, { maxLength: 1000, item: (it, m) => {
      if (!isPlainObject(it)) throw invalid(m, 'an interpretation {chunkIds}', it);
      ids(it.chunkIds, `${m}.chunkIds`);
    } });
    if (c.result.rejected !== undefined) expectArray(c.result.rejected, `${n}.result.rejected`, { maxLength: 1000 });
    if (c.shown !== undefined) ids(c.shown, `${n}.shown`);
  } });
  let tp = 0; let fp = 0; let fn = 0; let tn = 0; let unparsed = 0; let rejected = 0;
  let groundedN = 0; let groundedD = 0; let coveredN = 0; let coveredD = 0; let reachN = 0; let reachD = 0;
  for (const { expected, result, docOf, shown } of list) {
    if (expected.ambiguous && shown !== undefined) {
      const docs = new Set(shown);
      for (const e of expected.interpretations) {
        reachD++;
        if (e.docIds.some((d) => docs.has(d))) reachN++;
      }
    }
    if (result.ambiguous === null) unparsed++;
    rejected += result.rejected === undefined ? 0 : result.rejected.length;
    const said = result.ambiguous === true;
    if (said && expected.ambiguous) tp++;
    else if (said) fp++;
    else if (expected.ambiguous) fn++;
    else tn++;
    if (!(said && expected.ambiguous)) continue;
    const got = result.interpretations.map((it) => new Set(it.chunkIds.map((c) => String(docOf(c)))));
    for (const docs of got) {
      groundedD++;
      if (expected.interpretations.some((e) => [...docs].every((d) => e.docIds.includes(d)))) groundedN++;
    }
    for (const e of expected.interpretations) {
      coveredD++;
      if (got.some((docs) => e.docIds.some((d) => docs.has(d)))) coveredN++;
    }
  }
  const ratio = (a, b) => (b === 0 ? null : a / b);
  const precision = ratio(tp, tp + fp);
  const recall = ratio(tp, tp + fn);
  const f1 = precision === null || recall === null || precision + recall === 0 ? null : 2 * precision * recall / (precision + recall);
  return { n: list.length, unparsed, tp, fp, fn, tn, precision, recall, f1, grounding: ratio(groundedN, groundedD), coverage: ratio(coveredN, coveredD),
    reachable: ratio(reachN, reachD), rejected };
}
