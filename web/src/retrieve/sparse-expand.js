// @ts-check
// Search-box options of Bm25Index.search (issue 29): prefix / fuzzy (values, per-term arrays (one per analyzed
// query term) or per-term functions, resolved
// here over the analyzed query so only plain values reach WASM), maxFuzzy, weights, combineWith, per-query
// field boosts, explain, and a filter(hit) callback applied to ranked hits (fetching more until k pass).
// The expansion itself runs in C++ (src/sparse/index_fuzzy.cpp); docs/sparse.md has the definitions.
import { MAX_SEARCH_K } from '../core/limits.js';
import { expectArray, expectBoolean, expectInteger, expectNumber, expectOptions, invalid, isArray, isPlainObject } from '../core/validate.js';

/** Search options this file checks (beside k, filter, rm3, exact). */
export const EXPANSION_KEYS = ['prefix', 'fuzzy', 'maxFuzzy', 'weights', 'combineWith', 'boost', 'explain'];
/** The ones Collection.search hands to its BM25 leg (it has its own explain). */
export const LEXICAL_KEYS = EXPANSION_KEYS.filter((key) => key !== 'explain');

/** The LEXICAL_KEYS options of `o` that are set (for a BM25 leg). */
export function lexicalOptions(o) {
  const out = {};
  for (const key of LEXICAL_KEYS) if (o[key] !== undefined) out[key] = o[key];
  return out;
}

function fuzzyValue(v, name) {
  if (v === null || v === undefined || v === false) return 0;
  if (v === true) return 0.2;  // MiniSearch's fuzzy: true
  if (typeof v === 'number' && v >= 0 && v < 1) return v;
  if (Number.isInteger(v) && v >= 1 && v <= 16) return v;
  throw invalid(name, 'a fraction of the term length in [0, 1), an edit distance (an integer in [1, 16]), true (0.2) or false', v);
}

/**
 * Checks the expansion options of `o` (a copy the caller owns) and rewrites them to what WASM reads:
 * functions become one value per analyzed query term. Returns the filter callback (or null), removed from o.
 * @param {object} o search options (copy)
 * @param {() => string[]} analyze the analyzed query terms (called only when a function needs them)
 * @returns {((hit: object) => unknown) | null}
 */
export function resolveExpansion(o, analyze) {
  let terms = null;
  const perTerm = (fn, name, check) => {
    terms ??= analyze();
    return terms.map((t, i) => check(fn(t, i, terms), `${name}(${JSON.stringify(t)})`));
  };
  if (o.prefix !== undefined) {
    if (typeof o.prefix === 'function') o.prefix = perTerm(o.prefix, 'options.prefix', (v) => Boolean(v));
    else if (isArray(o.prefix)) o.prefix = expectArray(o.prefix, 'options.prefix', { maxLength: 100000, item: (v, n) => expectBoolean(v, n) });
    else expectBoolean(o.prefix, 'options.prefix');
  }
  if (o.fuzzy !== undefined) {
    if (typeof o.fuzzy === 'function') o.fuzzy = perTerm(o.fuzzy, 'options.fuzzy', fuzzyValue);
    else if (isArray(o.fuzzy)) o.fuzzy = expectArray(o.fuzzy, 'options.fuzzy', { maxLength: 100000, item: fuzzyValue });
    else o.fuzzy = fuzzyValue(o.fuzzy, 'options.fuzzy');
  }
  if (o.maxFuzzy !== undefined) expectInteger(o.maxFuzzy, 'options.maxFuzzy', { min: 0, max: 16 });
  if (o.weights !== undefined) {
    const w = expectOptions(o.weights, 'options.weights', ['prefix', 'fuzzy']);
    if (w.prefix !== undefined) expectNumber(w.prefix, 'options.weights.prefix', { min: 0, max: 1 });
    if (w.fuzzy !== undefined) expectNumber(w.fuzzy, 'options.weights.fuzzy', { min: 0, max: 1 });
    o.weights = { ...w };
  }
  if (o.combineWith !== undefined) {
    if (typeof o.combineWith !== 'string' || !['and', 'or'].includes(o.combineWith.toLowerCase())) throw invalid('options.combineWith', "'AND' or 'OR'", o.combineWith);
    o.combineWith = o.combineWith.toUpperCase();
  }
  if (o.boost !== undefined) {
    if (!isPlainObject(o.boost)) throw invalid('options.boost', 'an object {field: number}', o.boost);
    const b = {};
    for (const [k, v] of Object.entries(o.boost)) b[k] = expectNumber(v, `options.boost.${k}`, { min: 0 });
    o.boost = b;
  }
  if (o.explain !== undefined) expectBoolean(o.explain, 'options.explain');
  let filter = null;
  if (typeof o.filter === 'function') {
    filter = o.filter;
    delete o.filter;
  }
  return filter;
}

/**
 * The first k hits that pass `keep`, asking `run(k')` for more ranked hits while fewer than k passed and
 * more exist (k' grows 4x, up to MAX_SEARCH_K).
 * @param {number} k
 * @param {(k: number) => object[]} run
 * @param {(hit: object) => unknown} keep
 */
export function filterHits(k, run, keep) {
  let want = Math.min(MAX_SEARCH_K, Math.max(2 * k, k + 20));
  for (;;) {
    const hits = run(want);
    const kept = [];
    for (const h of hits) {
      if (keep(h)) kept.push(h);
      if (kept.length === k) return kept;
    }
    if (hits.length < want || want === MAX_SEARCH_K) return kept;
    want = Math.min(MAX_SEARCH_K, want * 4);
  }
}
