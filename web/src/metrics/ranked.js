// @ts-check
// trec_eval's measures for one query's ranked relevance list (precisionAt, ndcgCut, bpref, ...), for callers
// that hold judgments per rank rather than a Qrels and a Run. Scoring in C++ (src/metrics/trec.h).
import { callWasm } from '../core/errors.js';
import { wasm } from '../core/module.js';
import { expectArray, expectInteger, expectOptions, invalid, isPlainObject } from '../core/validate.js';

// Single-query measures on a relevance list (relevances[i] = judgment of the document at rank i+1;
// negative = unjudged). `judged` = every judgment value of the query (needed wherever the number of
// relevant documents matters); it defaults to the non-negative values of `relevances` for nDCG only.

function expectRelevances(v, name) {
  return expectArray(v, name, { maxLength: 10000000, item: (x, n) => expectInteger(x, n, { min: -2147483647, max: 2147483647 }) });
}

function ranked(name, relevances, k, options, { needJudged, needK, known = ['judged', 'relevanceLevel'] }) {
  const o = expectOptions(options, `${name} options`, known);
  const rel = expectRelevances(relevances, 'relevances');
  let kk = 0;
  if (needK) kk = expectInteger(k, 'k', { min: 1, max: 2147483647 });
  else if (k !== undefined && k !== 0) kk = expectInteger(k, 'k', { min: 1, max: 2147483647 });
  let judged = o.judged;
  if (judged === undefined) {
    if (needJudged) throw invalid(`${name} options.judged`, 'the array of all judgment values of the query (its number of relevant documents decides the result)', judged);
    judged = rel.filter((x) => x >= 0);
  } else {
    judged = expectRelevances(judged, 'options.judged');
  }
  const level = o.relevanceLevel === undefined ? 1 : expectInteger(o.relevanceLevel, 'options.relevanceLevel', { min: -1000000, max: 1000000 });
  const m = wasm();
  const fam = { precisionAt: 'P', recallAt: 'recall', averagePrecision: 'map', reciprocalRank: 'recip_rank', rPrecision: 'Rprec',
    successAt: 'success', bpref: 'bpref', ndcg: 'ndcg', ndcgCut: 'ndcg', ndcgExpCut: 'ndcg_exp' }[name];
  return callWasm(() => m.metrics_rankedMeasure(fam, Int32Array.from(rel), Int32Array.from(judged), kk, level));
}

/**
 * P@k = (relevant documents in the top k) / k (trec_eval P_k; k counts even past the list's end).
 * @example precisionAt([1, 0, 1, 1, 0, 1, 0, 0, 1, 0], 10); // 5/10
 * @param {number[]} relevances judgment per rank (negative = unjudged)
 * @param {number} k integer >= 1
 * @param {{relevanceLevel?: number}} [options] relevant when judgment >= relevanceLevel (default 1)
 * @returns {number}
 * @throws {RagwasmError} INVALID_ARGUMENT (k <= 0, non-integer relevances)
 */
export function precisionAt(relevances, k, options = {}) { return ranked('precisionAt', relevances, k, options, { needK: true, needJudged: false }); }

/**
 * recall@k = (relevant in the top k) / (relevant judged); 0 when nothing is relevant (trec_eval recall_k).
 * @example recallAt([1, 0, 1, 1, 0, 1, 0, 0, 1, 0], 10, { judged: [1, 1, 1, 1, 1, 1, 1, 1] }); // 5/8
 * @param {number[]} relevances
 * @param {number} k integer >= 1
 * @param {{judged: number[], relevanceLevel?: number}} options judged: all judgment values of the query (required)
 * @returns {number}
 * @throws {RagwasmError} INVALID_ARGUMENT (k <= 0, judged missing)
 */
export function recallAt(relevances, k, options) { return ranked('recallAt', relevances, k, options ?? {}, { needK: true, needJudged: true }); }

/**
 * Average precision (trec_eval map; with k: map_cut_k): sum over relevant ranks r <= k of
 * (relevant in top r)/r, divided by the number of relevant judged documents (0 when none).
 * @param {number[]} relevances
 * @param {{judged: number[], k?: number, relevanceLevel?: number}} options
 * @returns {number}
 */
export function averagePrecision(relevances, options) {
  const o = options ?? {};
  const { k, ...rest } = /** @type {{judged?: number[], k?: number, relevanceLevel?: number}} */ (isPlainObject(o) ? o : {});
  if (!isPlainObject(o)) throw invalid('averagePrecision options', 'an options object', o);
  return ranked('averagePrecision', relevances, k, rest, { needK: false, needJudged: true });
}

/**
 * Reciprocal rank: 1 / rank of the first relevant document, 0 when none (trec_eval recip_rank).
 * @param {number[]} relevances
 * @param {{relevanceLevel?: number}} [options]
 * @returns {number}
 */
export function reciprocalRank(relevances, options = {}) { return ranked('reciprocalRank', relevances, undefined, options, { needK: false, needJudged: false }); }

/**
 * R-precision: relevant in the top R / R, R = relevant judged (trec_eval Rprec).
 * @param {number[]} relevances
 * @param {{judged: number[], relevanceLevel?: number}} options
 * @returns {number}
 */
export function rPrecision(relevances, options) { return ranked('rPrecision', relevances, undefined, options ?? {}, { needK: false, needJudged: true }); }

/**
 * success@k: 1 when a relevant document is in the top k, else 0 (trec_eval success_k).
 * @param {number[]} relevances
 * @param {number} k integer >= 1
 * @param {{relevanceLevel?: number}} [options]
 * @returns {number}
 */
export function successAt(relevances, k, options = {}) { return ranked('successAt', relevances, k, options, { needK: true, needJudged: false }); }

/**
 * bpref (trec_eval m_bpref.c): unjudged documents skipped; each relevant document at rank r adds
 * 1 - min(n_r, R)/min(N, R), n_r = judged non-relevant above it, N = judged non-relevant, R = relevant; / R.
 * @param {number[]} relevances
 * @param {{judged: number[], relevanceLevel?: number}} options
 * @returns {number}
 */
export function bpref(relevances, options) { return ranked('bpref', relevances, undefined, options ?? {}, { needK: false, needJudged: true }); }

/**
 * nDCG over the whole list (trec_eval ndcg): DCG = sum rel_i / log2(i + 1) over ranks i (gain = the
 * judgment value, levels <= 0 gain 0), divided by the DCG of the judged values sorted descending; 0
 * when no judged value is positive.
 * @param {number[]} relevances
 * @param {{judged?: number[]}} [options] judged defaults to the non-negative relevances (ideal from the list)
 * @returns {number}
 */
export function ndcg(relevances, options = {}) { return ranked('ndcg', relevances, undefined, options, { needK: false, needJudged: false, known: ['judged'] }); }

/**
 * nDCG@k with trec_eval's linear gain (ndcg_cut_k): DCG@k / ideal DCG@k.
 * @example
 * // ranks carry 3 0 2 1, judged {3,2,1,0}: DCG@4 = 3/1 + 0 + 2/2 + 1/log2(5); IDCG = 3/1 + 2/log2(3) + 1/2
 * ndcgCut([3, 0, 2, 1], 4, { judged: [3, 2, 1, 0] });
 * @param {number[]} relevances
 * @param {number} k integer >= 1
 * @param {{judged?: number[]}} [options]
 * @returns {number}
 * @throws {RagwasmError} INVALID_ARGUMENT (k <= 0)
 */
export function ndcgCut(relevances, k, options = {}) { return ranked('ndcgCut', relevances, k, options, { needK: true, needJudged: false, known: ['judged'] }); }

/**
 * nDCG@k with exponential gain 2^rel - 1 (Burges et al. 2005), discount log2(rank + 1).
 * @param {number[]} relevances
 * @param {number} k integer >= 1
 * @param {{judged?: number[]}} [options]
 * @returns {number}
 */
export function ndcgExpCut(relevances, k, options = {}) { return ranked('ndcgExpCut', relevances, k, options, { needK: true, needJudged: false, known: ['judged'] }); }
