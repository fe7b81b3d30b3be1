// @ts-check
// Query clarification (issue #16 item 5): before answering, ask the LLM whether the question is
// ambiguous given the top retrieved chunks and, if so, for grounded interpretations (each citing the
// shown chunks that support it). Interpretations citing a chunk that was not shown are rejected.
// A reply that does not parse is reported as a parse failure (error set, ambiguous null), never thrown.
// clarificationMetrics() scores detection and grounding against a labelled set (examples/corpus/ambiguous.jsonl).
// The LLM call itself (clarifyQuestion, parseClarification) lives in llm/clarify.js, re-exported here.
import { RagwasmError } from '../core/errors.js';
import { expectArray, expectString, invalid, isArray, isPlainObject } from '../core/validate.js';

export { clarifyQuestion, parseClarification } from '../llm/clarify.js';

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
