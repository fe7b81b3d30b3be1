// @ts-check
// Chunk-agnostic retrieval evaluation: evidence excerpts or spans matched against retrieved chunks
// (evidenceContainment, evaluateEvidence) and the recall curve's cutoff (recommendCutoff). C++: src/metrics/evidence.h.
import { callWasm } from '../core/errors.js';
import { encodeText } from '../core/encode.js';
import { wasm } from '../core/module.js';
import { expectArray, expectInteger, expectNumber, expectOptions, expectString, invalid, isPlainObject } from '../core/validate.js';

/**
 * Fraction of the normalized excerpt found in the normalized chunk: 1 - (min Levenshtein distance
 * between the excerpt and any substring of the chunk) / excerpt length. Normalization: lowercase,
 * accents folded, punctuation to spaces, white space collapsed.
 * @param {string} excerpt
 * @param {string} chunk
 * @returns {number} in [0, 1]
 */
export function evidenceContainment(excerpt, chunk) {
  const e = encodeText(excerpt, 'excerpt');
  const c = encodeText(chunk, 'chunk');
  const m = wasm();
  return callWasm(() => m.metrics_containment(e, c));
}

const wellFormed = (s) => (typeof s.toWellFormed === 'function' ? s.toWellFormed() : s);

function expectSpanItem(x, name) {
  if (!isPlainObject(x)) throw invalid(name, 'an object {text, docId?, start?, end?}', x);
  expectOptions(x, name, ['text', 'docId', 'start', 'end']);
  const out = {};
  if (x.text !== undefined) out.text = wellFormed(expectString(x.text, `${name}.text`));
  if (x.docId !== undefined) out.docId = wellFormed(expectString(x.docId, `${name}.docId`));
  if ((x.start === undefined) !== (x.end === undefined)) throw invalid(`${name}.end`, 'start and end given together', x.end);
  if (x.start !== undefined) {
    out.start = expectInteger(x.start, `${name}.start`, { min: 0, max: 2 ** 31 });
    out.end = expectInteger(x.end, `${name}.end`, { min: out.start, max: 2 ** 31 });
  }
  if (out.text === undefined && out.start === undefined) throw invalid(name, 'text or start/end', x);
  return out;
}

/**
 * Chunk-agnostic retrieval evaluation. A retrieved chunk is relevant to an evidence when both carry
 * spans (same docId, or docId omitted) overlapping by >= minOverlap characters, else when
 * evidenceContainment(evidence.text, chunk.text) >= threshold.
 * evidence recall@k = evidences matched in the top k / evidences; precision@k = relevant chunks in
 * the top k / k; MRR = mean of 1/rank of the first relevant chunk; curve[k-1] = mean recall@k, k = 1..maxK.
 * @param {{evidence: {text?: string, docId?: string, start?: number, end?: number}[],
 *          chunks: {text?: string, docId?: string, start?: number, end?: number}[]}[]} questions chunks in rank order
 * @param {{cutoffs?: number[], k?: number[], maxK?: number, threshold?: number, minOverlap?: number}} [options]
 *   cutoffs default [1, 5, 10]; maxK
 *   default 20; threshold default 0.8; minOverlap default 1
 * @returns {{recall: Record<number, number>, precision: Record<number, number>, mrr: number, curve: number[],
 *   perQuestion: {recall: number[], precision: number[], rr: number, relevant: boolean[]}[]}}
 * @throws {RagwasmError} INVALID_ARGUMENT (k <= 0, threshold outside (0, 1], malformed questions)
 */
export function evaluateEvidence(questions, options = {}) {
  const o = expectOptions(options, 'evaluateEvidence options', ['cutoffs', 'maxK', 'threshold', 'minOverlap']);
  const ks = o.cutoffs === undefined ? [1, 5, 10] : expectArray(o.cutoffs, 'options.cutoffs', { maxLength: 1000, item: (v, n) => expectInteger(v, n, { min: 1, max: 1000000 }) });
  const maxK = o.maxK === undefined ? 20 : expectInteger(o.maxK, 'options.maxK', { min: 1, max: 100000 });
  const threshold = o.threshold === undefined ? 0.8 : expectNumber(o.threshold, 'options.threshold', { min: Number.MIN_VALUE, max: 1 });
  const minOverlap = o.minOverlap === undefined ? 1 : expectInteger(o.minOverlap, 'options.minOverlap', { min: 1, max: 2 ** 31 });
  const clean = expectArray(questions, 'questions', { maxLength: 10000000 }).map((q, i) => {
    if (!isPlainObject(q)) throw invalid(`questions[${i}]`, 'an object {evidence, chunks}', q);
    expectOptions(q, `questions[${i}]`, ['evidence', 'chunks']);
    return {
      evidence: expectArray(q.evidence, `questions[${i}].evidence`).map((e, j) => expectSpanItem(e, `questions[${i}].evidence[${j}]`)),
      chunks: expectArray(q.chunks, `questions[${i}].chunks`).map((c, j) => expectSpanItem(c, `questions[${i}].chunks[${j}]`)),
    };
  });
  const bytes = encodeText(JSON.stringify(clean), 'questions');
  const m = wasm();
  const r = callWasm(() => m.metrics_evidenceEvaluate(bytes, threshold, minOverlap, ks, maxK));
  /** @type {Record<number, number>} */
  const recall = {};
  /** @type {Record<number, number>} */
  const precision = {};
  ks.forEach((k, i) => { recall[k] = r.recall[i]; precision[k] = r.precision[i]; });
  return { recall, precision, mrr: r.mrr, curve: Array.from(r.curve), perQuestion: r.perQuestion };
}

/**
 * The cutoff k where the marginal recall gain drops: the smallest k with
 * (curve[k-1+window] - curve[k-1]) / window < minGain; curve.length when it never does.
 * @param {number[]} curve mean recall@k for k = 1..K (evaluateEvidence().curve)
 * @param {{minGain?: number, window?: number}} [options] minGain default 0.01, window default 1
 * @returns {number}
 */
export function recommendCutoff(curve, options = {}) {
  const o = expectOptions(options, 'recommendCutoff options', ['minGain', 'window']);
  expectArray(curve, 'curve', { maxLength: 1000000, item: (v, n) => expectNumber(v, n) });
  const minGain = o.minGain === undefined ? 0.01 : expectNumber(o.minGain, 'options.minGain', { min: 0, max: 1 });
  const window = o.window === undefined ? 1 : expectInteger(o.window, 'options.window', { min: 1, max: 1000000 });
  const m = wasm();
  return callWasm(() => m.metrics_recommendCutoff(curve, minGain, window));
}
