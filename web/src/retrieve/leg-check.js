// @ts-check
// Label-free leg check for hybrid retrieval: is one retriever much weaker than another on THIS
// collection? Each probe is a sentence taken from a stored passage; a leg that finds the passage the
// sentence came from (reciprocal rank in its top k) far less often than the best leg is "weak". The
// default hybrid benches a weak leg (weight 0) and says so, so a much weaker leg (e.g. the offline
// static model beside BM25 on SciFact) cannot pull the fused ranking below the better leg.
// Rules and measurements: docs/fusion.md ("Leg check").
import { RagwasmError } from '../core/errors.js';
import { splitSentences } from '../document/text.js';
import {
  expectArray, expectFunction, expectInteger, expectNumber, expectOptions, expectString, hasMethod, invalid, isArray, isPlainObject,
} from '../core/validate.js';
import { asEmbedder, embedTexts } from '../embed/contract.js';

/** Defaults of checkLegs(): probes sampled, minimum probes for a decision, weak-leg MRR ratio, depth. */
/** @type {Readonly<{sample: number, minProbes: number, ratio: number, k: number, minWords: number, maxWords: number, windowWords: number, maxShare: number}>} */
export const LEG_CHECK_DEFAULTS = Object.freeze({ sample: 200, minProbes: 20, ratio: 0.8, k: 10, minWords: 6, maxWords: 60, windowWords: 12, maxShare: 0.5 });

/** Most passages a leg check samples from. */
const MAX_PASSAGES = 100_000_000;

const words = (s) => s.split(/\s+/).filter(Boolean).length;

/**
 * Picks up to `sample` probes: passages sorted by id (so the choice does not depend on insertion
 * order), evenly spaced; from each, the middle sentence of minWords..maxWords words and at most
 * maxShare (half) of the passage's words, or else the middle windowWords words within that share
 * (passages too short for a probe of minWords words are skipped).
 * @param {{id: string, text: string}[]} passages
 * @returns {{id: string, query: string}[]}
 */
export function pickProbes(passages, options = {}) {
  const opts = expectOptions(options, 'pickProbes options', Object.keys(LEG_CHECK_DEFAULTS));
  const o = { ...LEG_CHECK_DEFAULTS };
  const int = (k, min, max) => { if (opts[k] !== undefined) o[k] = expectInteger(opts[k], `options.${k}`, { min, max }); };
  int('sample', 1, 100_000);
  int('minProbes', 1, 100_000);
  int('k', 1, 1000);
  int('minWords', 1, 10_000);
  int('maxWords', 1, 10_000);
  int('windowWords', 1, 10_000);
  if (opts.ratio !== undefined) o.ratio = expectNumber(opts.ratio, 'options.ratio', { min: 0, max: 1 });
  if (opts.maxShare !== undefined) o.maxShare = expectNumber(opts.maxShare, 'options.maxShare', { min: 0, max: 1 });
  const list = expectArray(passages, 'passages', { maxLength: MAX_PASSAGES, item: (p, n) => {
    if (!isPlainObject(p)) throw invalid(n, 'a {id, text} object', p);
    expectString(p.id, `${n}.id`);
    expectString(p.text, `${n}.text`);
  } });
  const sorted = list.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const n = sorted.length;
  const m = Math.min(o.sample, n);
  const out = [];
  for (let i = 0; i < m; i++) {
    const p = sorted[Math.floor((i * n) / m)];
    // A probe that is most of its passage is found by every leg; at most maxShare of its words.
    const all = p.text.split(/\s+/).filter(Boolean);
    const cap = Math.min(o.maxWords, Math.floor(all.length * o.maxShare));
    if (cap < o.minWords) continue;
    const good = splitSentences(p.text).map((s) => s.text.trim()).filter((s) => {
      const w = words(s);
      return w >= o.minWords && w <= cap;
    });
    if (good.length > 0) {
      out.push({ id: p.id, query: good[Math.floor(good.length / 2)] });
      continue;
    }
    // No sentence of a usable length (unpunctuated or lowercase text, or one sentence): the middle window.
    const w = Math.min(cap, o.windowWords);
    const from = Math.floor((all.length - w) / 2);
    out.push({ id: p.id, query: all.slice(from, from + w).join(' ') });
  }
  return out;
}

/**
 * A dense leg for checkLegs(): probes are queries, so they are embedded with kind 'query' (the model's
 * query prefix), then searched in `index` (whose vectors were embedded as documents).
 * @example
 * const legs = [{ retriever: 'bm25', search: (qs, k) => qs.map((q) => bm25.search(q, { k }).map((h) => h.id)) },
 *   vectorLeg('dense', vectors, embedder)];
 * @param {string} retriever the leg's name
 * @param {{search: (query: Float32Array, options: {k: number}) => {id: string}[]}} index a VectorIndex
 * @param {object|Function} embedder the embedder contract (docs/api.md), a StaticEmbedder/OnnxEmbedder,
 *   or a plain async function with `options.dimension`
 * @param {{dimension?: number, signal?: AbortSignal}} [options]
 * @returns {{retriever: string, search: (queries: string[], k: number) => Promise<string[][]>}}
 * @throws {RagwasmError} INVALID_ARGUMENT (not an embedder, unknown dimension)
 */
export function vectorLeg(retriever, index, embedder, options = {}) {
  const o = expectOptions(options, 'vectorLeg options', ['dimension', 'signal']);
  expectString(retriever, 'retriever');
  if (!hasMethod(index, 'search')) throw invalid('index', 'a VectorIndex', index);
  const e = asEmbedder(embedder, o.dimension === undefined ? { name: 'embedder' } : { name: 'embedder', dimension: o.dimension });
  return {
    retriever,
    search: async (queries, k) => {
      const vectors = await embedTexts(e, queries, o.signal === undefined ? { kind: 'query' } : { kind: 'query', signal: o.signal });
      return vectors.map((v) => index.search(v, { k }).map((h) => h.id));
    },
  };
}

/**
 * Runs the leg check.
 * @param {{retriever: string, search: (queries: string[], k: number) => (string[][]|Promise<string[][]>)}[]} legs
 *   each leg's batch search: one ranked id list per query (best first)
 * @param {{id: string, text: string}[]} passages the searchable units (chunks), with their text
 * @param {{sample?: number, minProbes?: number, ratio?: number, k?: number, signal?: AbortSignal}} [options]
 * @returns {Promise<{probes: number, k: number, ratio: number, decided: boolean,
 *   legs: {retriever: string, mrr: number}[], weak: string[], warning: string|null}>}
 *   decided = at least minProbes probes; weak = retrievers whose MRR < ratio x the best leg's MRR
 * @throws {RagwasmError} INVALID_ARGUMENT (bad legs or options), ABORTED
 */
export async function checkLegs(legs, passages, options = {}) {
  const opts = expectOptions(options, 'checkLegs options', ['sample', 'minProbes', 'ratio', 'k', 'signal']);
  expectArray(legs, 'legs', { maxLength: 16 });
  if (legs.length < 2) throw invalid('legs', 'at least two retrievers to compare', legs);
  const names = new Set();
  for (const [i, l] of legs.entries()) {
    if (!isPlainObject(l)) throw invalid(`legs[${i}]`, 'a {retriever, search} object', l);
    expectString(l.retriever, `legs[${i}].retriever`);
    if (names.has(l.retriever)) throw invalid(`legs[${i}].retriever`, 'a name not used by another leg', l.retriever);
    names.add(l.retriever);
    expectFunction(l.search, `legs[${i}].search`);
  }
  const o = { ...LEG_CHECK_DEFAULTS };
  if (opts.sample !== undefined) o.sample = expectInteger(opts.sample, 'options.sample', { min: 1, max: 100_000 });
  if (opts.minProbes !== undefined) o.minProbes = expectInteger(opts.minProbes, 'options.minProbes', { min: 1, max: 100_000 });
  if (opts.ratio !== undefined) o.ratio = expectNumber(opts.ratio, 'options.ratio', { min: 0, max: 1 });
  if (opts.k !== undefined) o.k = expectInteger(opts.k, 'options.k', { min: 1, max: 1000 });
  const probes = pickProbes(passages, o);
  const report = { probes: probes.length, k: o.k, ratio: o.ratio, decided: probes.length >= o.minProbes, legs: [], weak: [], warning: null };
  if (probes.length === 0) {
    report.legs = legs.map((l) => ({ retriever: l.retriever, mrr: 0 }));
    return report;
  }
  const queries = probes.map((p) => p.query);
  for (const l of legs) {
    if (opts.signal?.aborted) throw new RagwasmError('ABORTED', 'ragwasm: leg check aborted');
    const ranked = await l.search(queries, o.k);
    if (!isArray(ranked) || ranked.length !== queries.length) {
      throw invalid(`legs (${l.retriever}).search result`, `an array of ${queries.length} ranked id lists`, ranked);
    }
    let sum = 0;
    for (let i = 0; i < probes.length; i++) {
      if (!isArray(ranked[i])) throw invalid(`legs (${l.retriever}).search result[${i}]`, 'an array of ids', ranked[i]);
      const r = ranked[i].slice(0, o.k).indexOf(probes[i].id);
      if (r >= 0) sum += 1 / (r + 1);
    }
    report.legs.push({ retriever: l.retriever, mrr: sum / probes.length });
  }
  if (!report.decided) return report;
  const best = Math.max(...report.legs.map((l) => l.mrr));
  report.weak = report.legs.filter((l) => l.mrr < o.ratio * best).map((l) => l.retriever);
  if (report.weak.length > 0) {
    const fmt = (x) => x.toFixed(3);
    const strong = report.legs.filter((l) => !report.weak.includes(l.retriever));
    report.warning = `leg check: ${report.weak.join(', ')} looks much weaker than ${strong.map((l) => l.retriever).join(', ')} `
      + `(self-retrieval MRR@${o.k} over ${probes.length} probe sentences: `
      + `${report.legs.map((l) => `${l.retriever} ${fmt(l.mrr)}`).join(', ')}; threshold ${o.ratio} x best); `
      + `benched (weight 0): fused order follows ${strong.map((l) => l.retriever).join(', ')}, its hits first`;
  }
  return report;
}

/**
 * Fusion weights after a leg check: benched (weak) legs get 0, the others keep their weights.
 * @param {number[]} weights one per retriever
 * @param {string[]} retrievers names, in list order
 * @param {{weak: string[]}|null} report
 * @returns {number[]}
 */
export function weightsAfterLegCheck(weights, retrievers, report) {
  const w = expectArray(weights, 'weights', { maxLength: 64, item: (x, n) => expectNumber(x, n, { min: 0 }) });
  const names = expectArray(retrievers, 'retrievers', { maxLength: 64, item: (x, n) => expectString(x, n) });
  if (names.length !== w.length) throw invalid('retrievers', `one name per weight (${w.length})`, retrievers);
  if (report === null || report === undefined) return w;
  if (!isPlainObject(report)) throw invalid('report', 'a leg-check report {weak: string[]} or null', report);
  const weak = expectArray(report.weak, 'report.weak', { maxLength: 64, item: (x, n) => expectString(x, n) });
  if (weak.length === 0) return w;
  const out = w.map((x, i) => (weak.includes(names[i]) ? 0 : x));
  return out.some((x) => x > 0) ? out : w;
}
