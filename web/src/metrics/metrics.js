// Evaluation: trec_eval-exact retrieval metrics (Qrels, Run, evaluateRun, formatTrecEval), per-query
// measures, answer metrics (SQuAD EM/F1, ANLS, ROUGE-L, BLEU), citation precision/recall,
// chunk-agnostic evidence evaluation, judge agreement and system comparison. All scoring is in
// C++ (src/metrics); this file validates, converts and throws RagwasmError. Formulas: docs/metrics.md.
import { callWasm, RagwasmError } from '../core/errors.js';
import { encodeText } from '../core/encode.js';
import { Handle } from '../core/handle.js';
import { wasm } from '../core/module.js';
import {
  expectArray, expectBoolean, expectEnum, expectInteger, expectNumber, expectOptions, expectString, invalid, isArray, isInstance, isPlainObject,
} from '../core/validate.js';

const MEASURE_FAMILIES = ['num_ret', 'num_rel', 'num_rel_ret', 'map', 'Rprec', 'bpref', 'recip_rank', 'P', 'recall', 'ndcg',
  'ndcg_cut', 'map_cut', 'success', 'ndcg_exp', 'ndcg_exp_cut'];

// A byte-order mark at the start of a qrels or run file is not part of the first query id: left in,
// it made "\uFEFF1" a query of its own and silently changed the numbers (issue #33). Not a string:
// left for encodeText to refuse.
function withoutBom(text) {
  return typeof text === 'string' && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function expectId(value, name) {
  if (typeof value !== 'string' || value.length === 0 || /\s/.test(value)) throw invalid(name, 'a non-empty id without white space', value);
  return value;
}

/**
 * Relevance judgments (TREC qrels or BEIR qrels/*.tsv), owning WASM memory: call dispose().
 * A judgment value < 0 marks a pooled but unjudged document (trec_eval's convention).
 *
 * @example
 * const q = Qrels.parse('1 0 doc7 1\n1 0 doc9 0\n');
 * q.numQueries; // 1
 * q.dispose();
 */
export class Qrels extends Handle {
  /**
   * Parses qrels text. TREC: "qid iter docno rel" per line; BEIR: "query-id<TAB>corpus-id<TAB>score"
   * with an optional header row; LF or CRLF; blank lines allowed; a BOM at the start is dropped;
   * anything else is an error.
   * @param {string} text
   * @param {object} [options]
   * @param {'auto'|'trec'|'beir'} [options.format='auto'] 'auto': BEIR when the first line has 3 tab-separated fields
   * @param {string} [options.name='qrels'] file name used in error messages ("name:line: ...")
   * @returns {Qrels}
   * @throws {RagwasmError} PARSE_ERROR (malformed line, with file:line), DUPLICATE_ID (a document judged
   *   twice for one query, as trec_eval), INVALID_ARGUMENT, LIMIT_EXCEEDED
   */
  static parse(text, options = {}) {
    const o = expectOptions(options, 'Qrels.parse options', ['format', 'name']);
    const format = o.format === undefined ? 'auto' : expectEnum(o.format, 'options.format', ['auto', 'trec', 'beir']);
    const name = o.name === undefined ? 'qrels' : expectString(o.name, 'options.name', { maxLength: 1000 });
    const bytes = encodeText(withoutBom(text), 'text');
    const m = wasm();
    return new Qrels(callWasm(() => m.metrics_parseQrels(bytes, format, name)));
  }

  /**
   * Builds qrels from `{queryId: {docId: relevance}}` (pytrec_eval's shape).
   * @param {Record<string, Record<string, number>>} judgments relevance values are integers
   * @returns {Qrels}
   * @throws {RagwasmError} INVALID_ARGUMENT (not an object, ids with white space, non-integer values)
   */
  static fromObject(judgments) {
    if (!isPlainObject(judgments)) throw invalid('qrels', 'an object {queryId: {docId: relevance}}', judgments);
    const lines = [];
    for (const [qid, docs] of Object.entries(judgments)) {
      expectId(qid, 'qrels query id');
      if (!isPlainObject(docs)) throw invalid(`qrels['${qid}']`, 'an object {docId: relevance}', docs);
      for (const [doc, rel] of Object.entries(docs)) {
        expectId(doc, `qrels['${qid}'] document id`);
        expectInteger(rel, `qrels['${qid}']['${doc}']`, { min: -2147483647, max: 2147483647 });
        lines.push(`${qid} 0 ${doc} ${rel}`);
      }
    }
    return Qrels.parse(lines.join('\n'), { format: 'trec', name: 'qrels object' });
  }

  /** Number of judged queries. */
  get numQueries() { return this.native.numQueries(); }
  /** Number of judgments. */
  get size() { return this.native.size(); }
}

/**
 * A ranked run, owning WASM memory: call dispose(). Each query's documents are kept in trec_eval's
 * order: score descending, ties by document id in DESCENDING strcmp (byte) order; ranks given in a
 * file are ignored.
 *
 * @example
 * const run = Run.fromObject({ q1: { d1: 2.5, d2: 1.0 } });
 * run.size; // 2
 * run.dispose();
 */
export class Run extends Handle {
  /**
   * Parses a run. TREC: "qid Q0 docno rank score runid" (6 fields); JSONL: {"qid","docid","score"}
   * per line or {"qid", "hits": [{"docid","score"}]}. A BOM at the start is dropped.
   * @param {string} text
   * @param {object} [options]
   * @param {'auto'|'trec'|'jsonl'} [options.format='auto'] 'auto': JSONL when the text starts with '{'
   * @param {string} [options.name='run'] file name used in error messages
   * @returns {Run}
   * @throws {RagwasmError} PARSE_ERROR (file:line), DUPLICATE_ID (a document twice in one query: trec_eval
   *   stops too), INVALID_ARGUMENT (NaN/infinite score)
   */
  static parse(text, options = {}) {
    const o = expectOptions(options, 'Run.parse options', ['format', 'name']);
    const format = o.format === undefined ? 'auto' : expectEnum(o.format, 'options.format', ['auto', 'trec', 'jsonl']);
    const name = o.name === undefined ? 'run' : expectString(o.name, 'options.name', { maxLength: 1000 });
    const bytes = encodeText(withoutBom(text), 'text');
    const m = wasm();
    return new Run(callWasm(() => m.metrics_parseRun(bytes, format, name)));
  }

  /**
   * An empty run to fill with addQuery().
   * @param {{runId?: string}} [options] runId printed by formatTrecEval (default 'ragwasm')
   * @returns {Run}
   */
  static create(options = {}) {
    const o = expectOptions(options, 'Run.create options', ['runId']);
    const runId = o.runId === undefined ? 'ragwasm' : expectId(o.runId, 'options.runId');
    const m = wasm();
    return new Run(callWasm(() => m.metrics_createRun(runId)));
  }

  /**
   * Builds a run from `{queryId: {docId: score}}` (pytrec_eval's shape).
   * @param {Record<string, Record<string, number>>} scores
   * @param {{runId?: string}} [options]
   * @returns {Run}
   * @throws {RagwasmError} INVALID_ARGUMENT (bad ids, non-finite scores)
   */
  static fromObject(scores, options = {}) {
    if (!isPlainObject(scores)) throw invalid('run', 'an object {queryId: {docId: score}}', scores);
    const run = Run.create(options);
    try {
      for (const [qid, docs] of Object.entries(scores)) {
        if (!isPlainObject(docs)) throw invalid(`run['${qid}']`, 'an object {docId: score}', docs);
        run.addQuery(qid, Object.keys(docs), Object.values(docs));
      }
    } catch (e) {
      run.dispose();
      throw e;
    }
    return run;
  }

  /**
   * Adds all retrieved documents of one query (all or nothing).
   * @param {string} queryId
   * @param {string[]} docIds document ids without white space
   * @param {number[]|Float64Array} scores one finite score per document (higher = better)
   * @throws {RagwasmError} INVALID_ARGUMENT (lengths differ, NaN score, bad id), DUPLICATE_ID (query
   *   already added or a document repeated), DISPOSED
   */
  addQuery(queryId, docIds, scores) {
    expectId(queryId, 'queryId');
    if (!isArray(docIds)) throw invalid('docIds', 'an array of strings', docIds);
    if (!isArray(scores) && !(isInstance(scores, Float64Array)) && !(isInstance(scores, Float32Array))) throw invalid('scores', 'an array or Float64Array of numbers', scores);
    if (docIds.length !== scores.length) throw invalid('scores', `${docIds.length} scores (one per document id)`, scores);
    for (let i = 0; i < docIds.length; i++) {
      const d = docIds[i];
      if (typeof d !== 'string' || d.length === 0 || d.includes('\n')) throw invalid(`docIds[${i}]`, 'a non-empty id without white space', d);
      if (typeof scores[i] !== 'number' || !Number.isFinite(scores[i])) throw invalid(`scores[${i}]`, 'a finite number', scores[i]);
    }
    const native = this.native;
    const qid = encodeText(queryId, 'queryId');
    const docs = encodeText(docIds.join('\n'), 'docIds');
    callWasm(() => native.addQuery(qid, docs, scores));
  }

  /** Number of queries. */
  get numQueries() { return this.native.numQueries(); }
  /** Number of (query, document) lines. */
  get size() { return this.native.size(); }
  /** Run tag (6th column of the first TREC line, or the runId given). */
  get runId() { return this.native.runId(); }
}

function withHandles(qrels, run, fn) {
  const own = [];
  try {
    let q = qrels;
    if (typeof q === 'string') own.push(q = Qrels.parse(q));
    else if (isPlainObject(q)) own.push(q = Qrels.fromObject(q));
    else if (!(isInstance(q, Qrels))) throw invalid('qrels', 'a Qrels, qrels text or an object {qid: {docId: rel}}', q);
    let r = run;
    if (typeof r === 'string') own.push(r = Run.parse(r));
    else if (isPlainObject(r)) own.push(r = Run.fromObject(r));
    else if (!(isInstance(r, Run))) throw invalid('run', 'a Run, run text or an object {qid: {docId: score}}', r);
    return fn(q, r);
  } finally {
    for (const h of own) h.dispose();
  }
}

function evalOptions(options, name, extra = []) {
  const o = expectOptions(options, name, ['measures', 'relevanceLevel', 'completeQueries', ...extra]);
  const measures = o.measures === undefined ? [] : expectArray(o.measures, 'options.measures', {
    maxLength: 1000,
    item: (v, n) => {
      expectString(v, n, { maxLength: 200, allowEmpty: false });
      const fam = v.split('.')[0];
      if (v !== 'all_trec' && !MEASURE_FAMILIES.includes(fam) && !MEASURE_FAMILIES.includes(v.replace(/_\d+$/, ''))) {
        throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${n}: unknown measure '${v}' (known: all_trec, ${MEASURE_FAMILIES.join(', ')}; cutoffs as 'P.5,10' or 'P_10')`);
      }
    },
  });
  const relevanceLevel = o.relevanceLevel === undefined ? 1 : expectInteger(o.relevanceLevel, 'options.relevanceLevel', { min: -1000000, max: 1000000 });
  const completeQueries = o.completeQueries === undefined ? false : expectBoolean(o.completeQueries, 'options.completeQueries');
  return { o, measures, relevanceLevel, completeQueries };
}

/**
 * @typedef {object} EvaluationResult
 * @property {string[]} measures printed trec_eval names in trec_eval's order ('map', 'P_10', 'ndcg_cut_10', ...)
 * @property {string[]} queryIds evaluated queries in strcmp order (as trec_eval prints them)
 * @property {Record<string, Record<string, number>>} perQuery perQuery[qid][measure]
 * @property {Record<string, number>} aggregate the 'all' line: counts (num_ret, num_rel, num_rel_ret) are
 *   summed, every other measure is the mean over numQueries
 * @property {number} numQueries trec_eval's num_q
 * @property {string} runId
 */

/**
 * Evaluates a run exactly as trec_eval 10.0 (`trec_eval -q -m all_trec [-c] [-l N]`).
 * Measures (trec_eval names): num_ret, num_rel, num_rel_ret, map, Rprec, bpref, recip_rank, P_k,
 * recall_k, ndcg, ndcg_cut_k (linear gain = relevance value, discount log2(rank+1)), map_cut_k,
 * success_k, plus ndcg_exp / ndcg_exp_cut_k (Burges: gain 2^rel - 1; not a trec_eval measure).
 * Default cutoffs 5,10,15,20,30,100,200,500,1000 (success: 1,5,10).
 * Queries: those in the qrels. A query with no relevant document scores 0 on every ratio measure.
 * Run queries without judgments are ignored.
 *
 * @example
 * const r = evaluateRun({ q: { a: 1, b: 0 } }, { q: { a: 0.9, b: 0.8 } }, { measures: ['P.1', 'map'] });
 * r.aggregate.P_1; // 1
 *
 * @param {Qrels|string|Record<string, Record<string, number>>} qrels
 * @param {Run|string|Record<string, Record<string, number>>} run
 * @param {object} [options]
 * @param {string[]} [options.measures] trec_eval -m syntax: 'all_trec' (default), 'map', 'P' (default
 *   cutoffs), 'P.5,10', 'ndcg_cut.10', or the printed form 'P_10'
 * @param {number} [options.relevanceLevel=1] trec_eval -l: relevant when judgment >= this (nDCG uses the
 *   raw judgment values as gains, as trec_eval does)
 * @param {boolean} [options.completeQueries=false] trec_eval -c: judged queries missing from the run
 *   count as 0. Without it such a query is an error (NOT_FOUND), as in trec_eval 10.0.
 * @returns {EvaluationResult}
 * @throws {RagwasmError} NOT_FOUND (judged query missing from the run without completeQueries),
 *   INVALID_ARGUMENT (unknown measure, k <= 0), PARSE_ERROR, DUPLICATE_ID (when text is given)
 */
export function evaluateRun(qrels, run, options = {}) {
  const { measures, relevanceLevel, completeQueries } = evalOptions(options, 'evaluateRun options');
  return withHandles(qrels, run, (q, r) => {
    const qn = q.native;
    const rn = r.native;
    const m = wasm();
    const res = callWasm(() => m.metrics_evaluate(qn, rn, measures, relevanceLevel, completeQueries));
    const nm = res.measures.length;
    const perQuery = {};
    res.queryIds.forEach((qid, i) => {
      const row = {};
      for (let k = 0; k < nm; k++) row[res.measures[k]] = res.perQuery[i * nm + k];
      perQuery[qid] = row;
    });
    const aggregate = {};
    for (let k = 0; k < nm; k++) aggregate[res.measures[k]] = res.aggregate[k];
    return { measures: res.measures, queryIds: res.queryIds, perQuery, aggregate, numQueries: res.numQ, runId: res.runId };
  });
}

/**
 * trec_eval's text output for the same evaluation: per-query lines (when perQuery) then the 'all'
 * block starting with runid and num_q; each line `%-22s\t%s\t%6.4f` (counts as integers).
 * @param {Qrels|string|object} qrels
 * @param {Run|string|object} run
 * @param {{measures?: string[], relevanceLevel?: number, completeQueries?: boolean, perQuery?: boolean}} [options]
 * @returns {string}
 * @throws {RagwasmError} as evaluateRun
 */
export function formatTrecEval(qrels, run, options = {}) {
  const { o, measures, relevanceLevel, completeQueries } = evalOptions(options, 'formatTrecEval options', ['perQuery']);
  const perQuery = o.perQuery === undefined ? false : expectBoolean(o.perQuery, 'options.perQuery');
  return withHandles(qrels, run, (q, r) => {
    const qn = q.native;
    const rn = r.native;
    const m = wasm();
    return callWasm(() => m.metrics_formatTrecEval(qn, rn, measures, relevanceLevel, completeQueries, perQuery));
  });
}

// ---------------------------------------------------------------------------------------------
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
  const { k, ...rest } = isPlainObject(o) ? o : {};
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

// ---------------------------------------------------------------------------------------------
// Answer metrics

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

// ---------------------------------------------------------------------------------------------
// Chunk-agnostic evidence evaluation

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
  const recall = {};
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

// ---------------------------------------------------------------------------------------------
// Judge agreement and system comparison

function pair(a, b, integers, name) {
  const check = integers ? (v, n) => expectInteger(v, n, { min: -2147483647, max: 2147483647 }) : (v, n) => expectNumber(v, n);
  const isArr = (x) => isArray(x) || isInstance(x, Float64Array) || isInstance(x, Int32Array) || isInstance(x, Float32Array);
  if (!isArr(a)) throw invalid(`${name} a`, 'an array of numbers', a);
  if (!isArr(b)) throw invalid(`${name} b`, 'an array of numbers', b);
  if (a.length !== b.length) throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${name}: expected two vectors of the same length, got ${a.length} and ${b.length}`);
  if (a.length === 0) throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${name}: expected at least 1 value, got 0`);
  for (let i = 0; i < a.length; i++) { check(a[i], `${name} a[${i}]`); check(b[i], `${name} b[${i}]`); }
  return integers ? [Int32Array.from(a), Int32Array.from(b)] : [Float64Array.from(a), Float64Array.from(b)];
}

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

// A statistic that is undefined for the input (0/0) is null in results, never NaN.
function undefinedAsNull(v) { return Number.isNaN(v) ? null : v; }

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
 * @param {Qrels|string|object} qrels
 * @param {Run|string|object} runA
 * @param {Run|string|object} runB
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
