// @ts-check
// trec_eval-exact evaluation of a whole run: Qrels and Run (handles on parsed judgments and rankings),
// evaluateRun and formatTrecEval. Scoring in C++ (src/metrics/trec.h); this file validates and converts.
import { callWasm, RagwasmError } from '../core/errors.js';
import { encodeText } from '../core/encode.js';
import { Handle } from '../core/handle.js';
import { wasm } from '../core/module.js';
import {
  expectArray, expectBoolean, expectEnum, expectInteger, expectOptions, expectString, invalid, isArray, isInstance, isPlainObject,
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
