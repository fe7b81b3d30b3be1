// @ts-check
// Answer metrics on generated text: SQuAD exact match and token F1, ANLS, ROUGE-L, sentence BLEU, and
// citation precision/recall. Scoring in C++ (src/metrics/answer.h); this file validates and encodes.
import { callWasm } from '../core/errors.js';
import { encodeText } from '../core/encode.js';
import { wasm } from '../core/module.js';
import { expectArray, expectBoolean, expectEnum, expectInteger, expectNumber, expectOptions, expectString, invalid } from '../core/validate.js';

function refs(references) {
  const list = typeof references === 'string' ? [references] : expectArray(references, 'references', { maxLength: 10000, item: (v, n) => expectString(v, n) });
  if (list.length === 0) throw invalid('references', 'at least one reference string', references);
  return list.map((r, i) => encodeText(r, `references[${i}]`));
}

function answerCall(kind, prediction, references, param, flag) {
  const p = encodeText(prediction, 'prediction');
  const r = refs(references);
  const m = wasm();
  return callWasm(() => m.metrics_answer(kind, p, r, param, flag));
}

/**
 * SQuAD answer normalization: lowercase, ASCII punctuation removed, articles a/an/the removed, white space collapsed.
 * @param {string} text
 * @param {{removeArticles?: boolean}} [options] default true
 * @returns {string}
 */
export function squadNormalize(text, options = {}) {
  const o = expectOptions(options, 'squadNormalize options', ['removeArticles']);
  const ra = o.removeArticles === undefined ? true : expectBoolean(o.removeArticles, 'options.removeArticles');
  const b = encodeText(text, 'text');
  const m = wasm();
  return callWasm(() => m.metrics_squadNormalize(b, ra));
}

/**
 * SQuAD exact match: 1 when the normalized prediction equals a normalized reference, else 0.
 * @param {string} prediction
 * @param {string|string[]} references maximum over references
 * @param {{removeArticles?: boolean}} [options] default true (SQuAD)
 * @returns {number}
 */
export function exactMatch(prediction, references, options = {}) {
  const o = expectOptions(options, 'exactMatch options', ['removeArticles']);
  return answerCall('em', prediction, references, 0, o.removeArticles === undefined ? true : expectBoolean(o.removeArticles, 'options.removeArticles'));
}

/**
 * SQuAD token F1: multiset overlap of normalized tokens, F1 = 2PR/(P+R); 0 without overlap; 1 when
 * both normalize to nothing. "He ate an apple" vs "He eats an apple" = 2/3 with SQuAD normalization
 * ("an" removed), 0.75 with {removeArticles: false}.
 * @param {string} prediction
 * @param {string|string[]} references maximum over references
 * @param {{removeArticles?: boolean}} [options]
 * @returns {number}
 */
export function tokenF1(prediction, references, options = {}) {
  const o = expectOptions(options, 'tokenF1 options', ['removeArticles']);
  return answerCall('f1', prediction, references, 0, o.removeArticles === undefined ? true : expectBoolean(o.removeArticles, 'options.removeArticles'));
}

/**
 * ANLS (Biten et al. 2019): 1 - Levenshtein / max length on lowercased trimmed code points; 0 when below the threshold.
 * @param {string} prediction
 * @param {string|string[]} references maximum over references
 * @param {{threshold?: number}} [options] default 0.5 (the paper's tau)
 * @returns {number}
 */
export function anls(prediction, references, options = {}) {
  const o = expectOptions(options, 'anls options', ['threshold']);
  const t = o.threshold === undefined ? 0.5 : expectNumber(o.threshold, 'options.threshold', { min: 0, max: 1 });
  return answerCall('anls', prediction, references, t, false);
}

/**
 * ROUGE-L F1 (Lin 2004): longest common subsequence of lowercased word tokens; F = 2PR/(P+R).
 * @param {string} prediction
 * @param {string|string[]} references maximum over references
 * @returns {number}
 */
export function rougeL(prediction, references) { return answerCall('rougeL', prediction, references, 0, false); }

/**
 * Sentence BLEU (Papineni et al. 2002): geometric mean of clipped n-gram precisions (n = 1..maxN) times
 * the brevity penalty exp(1 - r/c) (r = closest reference length). Smoothing 'add-one' (default):
 * (hits+1)/(total+1) for n >= 2 (Lin & Och 2004); 'none': 0 when any order has no match.
 * @param {string} prediction
 * @param {string|string[]} references
 * @param {{maxN?: number, smoothing?: 'add-one'|'none'}} [options]
 * @returns {number}
 */
export function sentenceBleu(prediction, references, options = {}) {
  const o = expectOptions(options, 'sentenceBleu options', ['maxN', 'smoothing']);
  const n = o.maxN === undefined ? 4 : expectInteger(o.maxN, 'options.maxN', { min: 1, max: 10 });
  const s = o.smoothing === undefined ? 'add-one' : expectEnum(o.smoothing, 'options.smoothing', ['add-one', 'none']);
  return answerCall('bleu', prediction, references, n, s === 'add-one');
}

/**
 * Citation precision/recall of a generated answer. Inline markers [1], [1, 2], [2-4]; a "Sources"
 * (or References/Citations) heading starts lines "[n] chunk-id ..." that map markers to chunk ids;
 * other markers map to contextIds[n-1]. precision = relevant cited / (cited + unresolved markers),
 * recall = relevant cited / relevant; 0 when the denominator is 0.
 * @param {string} answer
 * @param {{relevantIds: string[], contextIds?: string[]}} options
 * @returns {{markers: number[], cited: string[], unresolved: number[], precision: number, recall: number, f1: number}}
 */
export function citationMetrics(answer, options) {
  const o = expectOptions(options, 'citationMetrics options', ['relevantIds', 'contextIds']);
  const a = encodeText(answer, 'answer');
  const strs = (v, n) => expectArray(v, n, { maxLength: 100000, item: (x, nn) => expectString(x, nn, { maxLength: 10000 }) });
  if (o.relevantIds === undefined) throw invalid('citationMetrics options.relevantIds', 'an array of chunk ids', undefined);
  const rel = strs(o.relevantIds, 'options.relevantIds').map((x, i) => encodeText(x, `options.relevantIds[${i}]`));
  const ctx = (o.contextIds === undefined ? [] : strs(o.contextIds, 'options.contextIds')).map((x, i) => encodeText(x, `options.contextIds[${i}]`));
  const m = wasm();
  return callWasm(() => m.metrics_citations(a, ctx, rel));
}
