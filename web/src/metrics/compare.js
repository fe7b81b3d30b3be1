// @ts-check
// System comparison on per-query scores: randomization test, bootstrap CI, win/tie/loss, summary statistics,
// and compareRuns (two runs on one trec_eval measure). C++: src/metrics/agreement.h.
import { callWasm } from '../core/errors.js';
import { wasm } from '../core/module.js';
import { expectInteger, expectNumber, expectOptions, expectString, invalid, isArray, isInstance } from '../core/validate.js';
import { pair } from './paired.js';
import { evaluateRun } from './trec.js';

function compare(kind, a, b, n, alpha, seed, name) {
  const [x, y] = pair(a, b, false, name);
  const m = wasm();
  return callWasm(() => m.metrics_compare(kind, x, y, n, alpha, seed));
}

/**
 * Paired two-sided randomization test of mean(a - b) (per-query scores of two systems): each trial
 * flips the sign of each difference with probability 1/2 (seeded SplitMix64, deterministic);
 * p = (1 + #trials with |mean| >= |observed|) / (1 + trials).
 * @param {number[]} a
 * @param {number[]} b
 * @param {{trials?: number, seed?: number}} [options] trials default 10000; seed default 42
 * @returns {{meanDifference: number, pValue: number, trials: number}}
 */
export function randomizationTest(a, b, options = {}) {
  const o = expectOptions(options, 'randomizationTest options', ['trials', 'seed']);
  const trials = o.trials === undefined ? 10000 : expectInteger(o.trials, 'options.trials', { min: 1, max: 10000000 });
  const seed = o.seed === undefined ? 42 : expectInteger(o.seed, 'options.seed', { min: 0, max: Number.MAX_SAFE_INTEGER });
  return compare('randomization', a, b, trials, 0, seed, 'randomizationTest');
}

/**
 * Percentile bootstrap confidence interval of mean(a - b), resampling queries with replacement.
 * @param {number[]} a
 * @param {number[]} b
 * @param {{samples?: number, alpha?: number, seed?: number}} [options] samples 10000, alpha 0.05 (95% CI), seed 42
 * @returns {{meanDifference: number, low: number, high: number, alpha: number, samples: number}}
 */
export function bootstrapCI(a, b, options = {}) {
  const o = expectOptions(options, 'bootstrapCI options', ['samples', 'alpha', 'seed']);
  const samples = o.samples === undefined ? 10000 : expectInteger(o.samples, 'options.samples', { min: 1, max: 1000000 });
  const alpha = o.alpha === undefined ? 0.05 : expectNumber(o.alpha, 'options.alpha', { min: Number.MIN_VALUE, max: 0.999999 });
  const seed = o.seed === undefined ? 42 : expectInteger(o.seed, 'options.seed', { min: 0, max: Number.MAX_SAFE_INTEGER });
  return compare('bootstrap', a, b, samples, alpha, seed, 'bootstrapCI');
}

/**
 * Per-query wins (a > b + epsilon), ties and losses.
 * @param {number[]} a
 * @param {number[]} b
 * @param {{epsilon?: number}} [options] default 0
 * @returns {{wins: number, ties: number, losses: number}}
 */
export function winTieLoss(a, b, options = {}) {
  const o = expectOptions(options, 'winTieLoss options', ['epsilon']);
  const eps = o.epsilon === undefined ? 0 : expectNumber(o.epsilon, 'options.epsilon', { min: 0 });
  return compare('wtl', a, b, 0, eps, 0, 'winTieLoss');
}

/**
 * count, min, max, mean, p50, p90, p95 (linear interpolation between closest ranks, numpy's default).
 * @param {number[]|Float64Array} values finite numbers, at least one
 * @returns {{count: number, min: number, max: number, mean: number, p50: number, p90: number, p95: number}}
 */
export function summarize(values) {
  if (!isArray(values) && !(isInstance(values, Float64Array))) throw invalid('values', 'an array of numbers', values);
  if (values.length === 0) throw invalid('values', 'at least one number', values);
  for (let i = 0; i < values.length; i++) expectNumber(values[i], `values[${i}]`);
  const m = wasm();
  return callWasm(() => m.metrics_summary(Float64Array.from(values)));
}

/**
 * Compares two runs on one measure over the same judged queries: per-query scores of both runs
 * (evaluateRun with completeQueries), then winTieLoss, randomizationTest and bootstrapCI of a - b.
 * @example
 * const c = compareRuns(qrels, runA, runB, { measure: 'ndcg_cut_10' });
 * c.randomization.pValue; c.bootstrap.low; c.winTieLoss.wins;
 * @param {import('./trec.js').Qrels|string|object} qrels
 * @param {import('./trec.js').Run|string|object} runA
 * @param {import('./trec.js').Run|string|object} runB
 * @param {{measure?: string, relevanceLevel?: number, trials?: number, samples?: number, alpha?: number, seed?: number, epsilon?: number}} [options]
 *   measure default 'ndcg_cut_10' (printed trec_eval name); other defaults as the functions called
 * @returns {{measure: string, queryIds: string[], a: number[], b: number[], meanA: number, meanB: number,
 *   winTieLoss: {wins: number, ties: number, losses: number}, randomization: {meanDifference: number, pValue: number, trials: number},
 *   bootstrap: {meanDifference: number, low: number, high: number, alpha: number, samples: number}}}
 * @throws {RagwasmError} INVALID_ARGUMENT (unknown measure), as evaluateRun
 */
export function compareRuns(qrels, runA, runB, options = {}) {
  const o = expectOptions(options, 'compareRuns options', ['measure', 'relevanceLevel', 'trials', 'samples', 'alpha', 'seed', 'epsilon']);
  const measure = o.measure === undefined ? 'ndcg_cut_10' : expectString(o.measure, 'options.measure', { maxLength: 200, allowEmpty: false });
  const ev = { measures: [measure], completeQueries: true };
  if (o.relevanceLevel !== undefined) ev.relevanceLevel = o.relevanceLevel;
  const ra = evaluateRun(qrels, runA, ev);
  const rb = evaluateRun(qrels, runB, ev);
  const name = ra.measures[0];
  if (ra.measures.length !== 1) throw invalid('options.measure', 'one measure with at most one cutoff (e.g. ndcg_cut_10)', measure);
  const a = ra.queryIds.map((q) => ra.perQuery[q][name]);
  const b = rb.queryIds.map((q) => rb.perQuery[q][name]);
  const rnd = {};
  if (o.trials !== undefined) rnd.trials = o.trials;
  if (o.seed !== undefined) rnd.seed = o.seed;
  /** @type {{seed?: number, samples?: number, alpha?: number}} */
  const boot = { ...(o.seed !== undefined ? { seed: o.seed } : {}) };
  if (o.samples !== undefined) boot.samples = o.samples;
  if (o.alpha !== undefined) boot.alpha = o.alpha;
  return {
    measure: name,
    queryIds: ra.queryIds,
    a,
    b,
    meanA: ra.aggregate[name],
    meanB: rb.aggregate[name],
    winTieLoss: winTieLoss(a, b, o.epsilon === undefined ? {} : { epsilon: o.epsilon }),
    randomization: randomizationTest(a, b, rnd),
    bootstrap: bootstrapCI(a, b, boot),
  };
}
