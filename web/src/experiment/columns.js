// @ts-check
// The seeds' own columns (issue #31 item 3): the contextual-retrieval study reports retrieval failure
// as 1 − recall@k and each cell's relative reduction of it against a baseline cell ("failures down
// 35%"). Computed here from summarizeExperiment's cells so the report prints the arithmetic instead of
// leaving it to the reader.
import { expectArray, expectOptions, invalid, isPlainObject } from '../core/validate.js';

/**
 * Relative reduction of a failure rate: (baseline − cell) / baseline. Positive = fewer failures than
 * the baseline; null when the baseline has no failures (nothing to reduce) or either value is missing.
 * @param {number|null} cell
 * @param {number|null} baseline
 * @returns {number|null}
 */
export function relativeReduction(cell, baseline) {
  if (cell === null || cell === undefined || baseline === null || baseline === undefined) return null;
  if (!Number.isFinite(cell) || !Number.isFinite(baseline)) throw invalid('failure rate', 'a finite number', Number.isFinite(cell) ? baseline : cell);
  if (baseline <= 0) return null;
  return (baseline - cell) / baseline;
}

// 1 − recall, with the recall's CI turned around (its low end is the failure's high end).
function failureOf(recallAtK) {
  if (!recallAtK) return null;
  return {
    mean: 1 - recallAtK.mean,
    low: recallAtK.high === null || recallAtK.high === undefined ? null : 1 - recallAtK.high,
    high: recallAtK.low === null || recallAtK.low === undefined ? null : 1 - recallAtK.low,
    n: recallAtK.n,
  };
}

/**
 * Failure-rate columns of an experiment summary: per cell, 1 − recall@k (with the recall@k CI turned
 * into a failure CI), 1 − recall@c at every evidence cutoff c, and the relative reduction of each
 * against the baseline cell (the cell's own k against the baseline's own k; cutoffs against the same
 * cutoff).
 *
 * @example
 * const s = summarizeExperiment(run);
 * const f = failureColumns(s.cells, { baseline: s.baseline });
 * f.cells[1].reductionAtK; // 0.35: 35% fewer retrieval failures than the baseline
 *
 * @param {Array<{name: string, k: number, retrieval: {recall: Record<string, number>, recallAtK: {mean: number, low: number|null, high: number|null, n: number}|null}|null}>} cells
 *   summarizeExperiment(...).cells
 * @param {{baseline?: string|null}} [options] the baseline cell's name (default: none; reductions are null)
 * @returns {{baseline: string|null, cutoffs: number[], cells: Array<{name: string, k: number,
 *   failureAtK: {mean: number, low: number|null, high: number|null, n: number}|null, reductionAtK: number|null,
 *   failure: Record<string, number>, reduction: Record<string, number|null>}>}}
 * @throws {RagwasmError} INVALID_ARGUMENT (not summary cells; a baseline naming no cell)
 */
export function failureColumns(cells, options = {}) {
  const list = expectArray(cells, 'cells', { maxLength: 100000, item: (c, n) => {
    if (!isPlainObject(c) || typeof c.name !== 'string') throw invalid(n, 'a summary cell {name, k, retrieval}', c);
    if (c.retrieval !== null && c.retrieval !== undefined && !isPlainObject(c.retrieval?.recall)) throw invalid(`${n}.retrieval.recall`, 'an object cutoff -> recall', c.retrieval?.recall);
  } });
  const o = expectOptions(options, 'failureColumns options', ['baseline']);
  const baselineName = o.baseline ?? null;
  if (baselineName !== null && typeof baselineName !== 'string') throw invalid('options.baseline', 'a cell name or null', baselineName);
  const base = baselineName === null ? null : list.find((c) => c.name === baselineName);
  if (baselineName !== null && !base) throw invalid('options.baseline', `one of the cells (${list.map((c) => c.name).join(', ')})`, baselineName);
  const cutoffs = [...new Set(list.flatMap((c) => (c.retrieval ? Object.keys(c.retrieval.recall).map(Number) : [])))].sort((a, b) => a - b);
  const failuresOf = (c) => {
    /** @type {Record<string, number>} */
    const f = {};
    if (c.retrieval) for (const k of cutoffs) if (c.retrieval.recall[k] !== undefined) f[k] = 1 - c.retrieval.recall[k];
    return f;
  };
  const baseFailure = base ? failuresOf(base) : {};
  const baseAtK = base ? failureOf(base.retrieval?.recallAtK) : null;
  const out = list.map((c) => {
    const failure = failuresOf(c);
    /** @type {Record<string, number|null>} */
    const reduction = {};
    for (const k of Object.keys(failure)) reduction[k] = base ? relativeReduction(failure[k], baseFailure[k] ?? null) : null;
    const failureAtK = failureOf(c.retrieval?.recallAtK);
    return { name: c.name, k: c.k, failureAtK, reductionAtK: base && failureAtK && baseAtK ? relativeReduction(failureAtK.mean, baseAtK.mean) : null, failure, reduction };
  });
  return { baseline: base ? base.name : null, cutoffs, cells: out };
}

/**
 * The failure columns as a markdown table: cell, k, 1 − recall@k [95% CI], reduction vs the baseline,
 * then 1 − recall@c for each cutoff with its reduction in parentheses. Reductions print as signed
 * percentages of the baseline's failures ("−35.0%" = 35% fewer failures).
 * @param {ReturnType<typeof failureColumns>} columns
 * @returns {string}
 */
export function failureMarkdown(columns) {
  const { columns: head, rows } = failureTable(columns);
  const line = (r) => `| ${r.map((x) => String(x).replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

/**
 * The failure columns as a table ({columns, rows: string[][]}): what failureMarkdown prints and the
 * experiment summary and report show ("retrieval failures").
 * @param {ReturnType<typeof failureColumns>} columns
 * @returns {{columns: string[], rows: string[][]}}
 * @throws {RagwasmError} INVALID_ARGUMENT
 */
export function failureTable(columns) {
  if (!isPlainObject(columns) || !Array.isArray(columns.cells) || !Array.isArray(columns.cutoffs)) throw invalid('columns', 'failureColumns(...)', columns);
  const f3 = (v) => (v === null || v === undefined ? 'n/a' : v.toFixed(3));
  const pct = (v) => (v === null || v === undefined ? 'n/a' : v === 0 ? '0.0%' : `${v > 0 ? '−' : '+'}${Math.abs(v * 100).toFixed(1)}%`);
  const ci = (f) => (f === null ? 'n/a' : f.low === null ? f3(f.mean) : `${f3(f.mean)} [${f3(f.low)}, ${f3(f.high)}]`);
  const head = ['cell', 'k', '1 − recall@k [95% CI]', `failures vs ${columns.baseline ?? 'baseline'}`, ...columns.cutoffs.map((c) => `1 − recall@${c}`)];
  const rows = columns.cells.map((c) => [c.name, String(c.k), ci(c.failureAtK), c.name === columns.baseline ? 'baseline' : pct(c.reductionAtK),
    ...columns.cutoffs.map((k) => (c.reduction[k] === null || c.reduction[k] === undefined || c.name === columns.baseline ? f3(c.failure[k]) : `${f3(c.failure[k])} (${pct(c.reduction[k])})`))]);
  return { columns: head, rows };
}
