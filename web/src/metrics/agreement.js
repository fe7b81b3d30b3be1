// @ts-check
// Agreement of two raters (an LLM judge against humans, two judges): confusion matrix, binary scores,
// Cohen's kappa, within-tolerance accuracy, Spearman and Kendall correlation. C++: src/metrics/agreement.h.
import { callWasm } from '../core/errors.js';
import { wasm } from '../core/module.js';
import { expectEnum, expectInteger, expectOptions } from '../core/validate.js';
import { pair, undefinedAsNull } from './paired.js';

function agree(kind, a, b, param, integers, name) {
  const [x, y] = pair(a, b, integers, name);
  const m = wasm();
  return callWasm(() => m.metrics_agreement(kind, x, y, param));
}

/**
 * Confusion matrix of two label vectors: matrix[i][j] = count(a == labels[i] && b == labels[j]).
 * @param {number[]} a integer labels (e.g. judge)
 * @param {number[]} b integer labels (e.g. human), same length
 * @returns {{labels: number[], matrix: number[][]}}
 * @throws {RagwasmError} INVALID_ARGUMENT (different lengths, empty, non-integers)
 */
export function confusionMatrix(a, b) { return agree('confusion', a, b, 0, true, 'confusionMatrix'); }

/**
 * Binary precision/recall/F1/accuracy of `predicted` against `gold` after binarizing both with
 * value >= threshold (TREC graded {2,3} -> relevant: threshold 2).
 * @param {number[]} predicted
 * @param {number[]} gold
 * @param {{threshold?: number}} [options] default 1
 * @returns {{tp: number, fp: number, fn: number, tn: number, precision: number, recall: number, f1: number, accuracy: number}}
 */
export function binaryScores(predicted, gold, options = {}) {
  const o = expectOptions(options, 'binaryScores options', ['threshold']);
  const t = o.threshold === undefined ? 1 : expectInteger(o.threshold, 'options.threshold');
  return agree('binary', predicted, gold, t, true, 'binaryScores');
}

/**
 * Cohen's kappa = 1 - sum(w O)/sum(w E) over the sorted label union (sklearn cohen_kappa_score);
 * weights 'none' (w = [i != j]), 'linear' (|i-j|/(k-1)), 'quadratic' (((i-j)/(k-1))^2). null (never
 * NaN) when both raters always give one same label: kappa is undefined then.
 * @param {number[]} a
 * @param {number[]} b
 * @param {{weights?: 'none'|'linear'|'quadratic'}} [options]
 * @returns {number|null}
 */
export function cohensKappa(a, b, options = {}) {
  const o = expectOptions(options, 'cohensKappa options', ['weights']);
  const w = o.weights === undefined ? 'none' : expectEnum(o.weights, 'options.weights', ['none', 'linear', 'quadratic']);
  return undefinedAsNull(agree('kappa', a, b, { none: 0, linear: 1, quadratic: 2 }[w], true, 'cohensKappa'));
}

/**
 * Fraction of pairs with |a - b| <= tolerance (off-by-one accuracy on 0–3 scales with tolerance 1).
 * @param {number[]} a
 * @param {number[]} b
 * @param {{tolerance?: number}} [options] default 1
 * @returns {number}
 */
export function withinAccuracy(a, b, options = {}) {
  const o = expectOptions(options, 'withinAccuracy options', ['tolerance']);
  const t = o.tolerance === undefined ? 1 : expectInteger(o.tolerance, 'options.tolerance', { min: 0 });
  return agree('within', a, b, t, true, 'withinAccuracy');
}

/**
 * Spearman's rho: Pearson correlation of average ranks (ties share the mean rank), as scipy. null (never
 * NaN) for a constant vector, where rho is undefined.
 * @param {number[]} a
 * @param {number[]} b
 * @returns {number|null}
 */
export function spearman(a, b) { return undefinedAsNull(agree('spearman', a, b, 0, false, 'spearman')); }

/**
 * Kendall's tau-b = (C - D) / sqrt((n0 - n1)(n0 - n2)), as scipy.stats.kendalltau. O(n^2), at most 100,000 values.
 * null (never NaN) for a constant vector, where tau is undefined.
 * @param {number[]} a
 * @param {number[]} b
 * @returns {number|null}
 */
export function kendallTau(a, b) { return undefinedAsNull(agree('kendall', a, b, 0, false, 'kendallTau')); }
