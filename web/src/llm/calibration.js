// @ts-check
// Judge calibration: run a judge over human-labelled items and report agreement with the humans
// (Cohen's kappa, binary precision/recall/F1, off-by-one accuracy, confusion matrix), overall and per
// slice; compare two prompts on the same items. The agreement math is the metrics module's
// (web/src/metrics/metrics.js -> src/metrics/agreement.h); this file only runs judges and tabulates.
import { RagwasmError } from '../core/errors.js';
import { binaryScores, cohensKappa, confusionMatrix, spearman, withinAccuracy } from '../metrics/metrics.js';
import { expectArray, expectEnum, expectInteger, expectNumber, expectOptions, expectString, invalid, isPlainObject } from '../core/validate.js';
import { JUDGES } from './judges.js';

const INPUT_FIELDS = {
  context_relevance: ['question', 'passage'],
  answer_relevance: ['question', 'answer'],
  answer_correctness: ['question', 'answer', 'reference'],
  groundedness: ['answer', 'contexts'],
};

/**
 * Scale of the labels and predictions compared for each judge.
 * @param {string} judge
 * @returns {{kind: 'rating'|'percent', min: number, max: number, binaryThreshold: number}}
 */
function scaleOf(judge) {
  if (judge === 'answer_correctness') return { kind: 'percent', min: 0, max: 100, binaryThreshold: 50 };
  return { kind: 'rating', min: 0, max: 3, binaryThreshold: 2 };
}

/**
 * Parses a labels JSONL text: one object per line with the judge's input fields, `label` (0-3, or
 * 0-100 for answer_correctness), optional `id` and any slice fields. Blank lines are skipped.
 * @param {string} text
 * @param {string} judge one of context_relevance, answer_relevance, answer_correctness, groundedness
 * @returns {Array<object>}
 * @throws {RagwasmError} PARSE_ERROR naming the line and the problem
 */
export function parseLabels(text, judge) {
  expectString(text, 'labels');
  expectEnum(judge, 'judge', Object.keys(INPUT_FIELDS));
  const scale = scaleOf(judge);
  const out = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let o;
    try {
      o = JSON.parse(line);
    } catch (e) {
      throw new RagwasmError('PARSE_ERROR', `ragwasm: labels line ${i + 1}: not JSON (${e.message})`);
    }
    if (!isPlainObject(o)) throw new RagwasmError('PARSE_ERROR', `ragwasm: labels line ${i + 1}: expected a JSON object`);
    for (const f of INPUT_FIELDS[judge]) {
      if (o[f] === undefined) throw new RagwasmError('PARSE_ERROR', `ragwasm: labels line ${i + 1}: missing '${f}' (the ${judge} judge needs ${INPUT_FIELDS[judge].join(', ')}, label)`);
    }
    if (!Number.isInteger(o.label) || o.label < scale.min || o.label > scale.max) {
      throw new RagwasmError('PARSE_ERROR', `ragwasm: labels line ${i + 1}: label: expected an integer in ${scale.min}-${scale.max}, got ${JSON.stringify(o.label)}`);
    }
    out.push({ id: o.id ?? `line${i + 1}`, ...o });
  });
  if (out.length === 0) throw new RagwasmError('PARSE_ERROR', 'ragwasm: labels: no labelled items');
  return out;
}

/** Integer prediction on the label scale (means are rounded half up; groundedness [0,1] -> 0..3). */
function toLabelScale(judge, score) {
  if (score === null) return null;
  if (judge === 'groundedness') return Math.floor(score * 3 + 0.5);
  return Math.floor(score + 0.5);
}

/**
 * Agreement of predictions with labels (items without a prediction are left out and counted).
 * @param {Array<{label: number, prediction: number|null}>} rows
 * @param {{kind: string, binaryThreshold: number}} scale
 */
export function agreementStats(rows, scale) {
  const list = expectArray(rows, 'rows', { maxLength: 10_000_000, item: (r, n) => {
    if (!isPlainObject(r)) throw invalid(n, 'a {label, prediction} object', r);
    expectNumber(r.label, `${n}.label`);
    if (r.prediction !== null) expectNumber(r.prediction, `${n}.prediction`);
  } });
  if (!isPlainObject(scale)) throw invalid('scale', "a {kind, binaryThreshold} object", scale);
  expectEnum(scale.kind, 'scale.kind', ['rating', 'percent', 'claims']);
  expectNumber(scale.binaryThreshold, 'scale.binaryThreshold');
  rows = list;
  const scored = rows.filter((r) => r.prediction !== null);
  const stats = { n: rows.length, scored: scored.length, unscored: rows.length - scored.length };
  if (scored.length === 0) return { ...stats, kappa: null, kappaQuadratic: null, binary: null, offByOne: null, exact: null, spearman: null, confusion: null };
  const pred = scored.map((r) => r.prediction);
  const gold = scored.map((r) => r.label);
  const binary = binaryScores(pred, gold, { threshold: scale.binaryThreshold });
  const binPred = pred.map((v) => (v >= scale.binaryThreshold ? 1 : 0));
  const binGold = gold.map((v) => (v >= scale.binaryThreshold ? 1 : 0));
  const ordinal = scale.kind === 'rating';
  const kappa = ordinal ? cohensKappa(pred, gold) : cohensKappa(binPred, binGold);
  return {
    ...stats,
    // NaN from the metrics module (one constant label on both sides) is reported as null.
    kappa: nanToNull(kappa),
    kappaQuadratic: ordinal ? nanToNull(cohensKappa(pred, gold, { weights: 'quadratic' })) : null,
    binary,
    exact: pred.filter((v, i) => v === gold[i]).length / pred.length,
    offByOne: ordinal ? withinAccuracy(pred, gold, { tolerance: 1 }) : null,
    spearman: scored.length >= 2 ? nanToNull(spearman(pred, gold)) : null,
    confusion: ordinal ? confusionMatrix(pred, gold) : confusionMatrix(binPred, binGold),
  };
}

function nanToNull(v) { return v === null || Number.isNaN(v) ? null : v; }

/**
 * Runs a judge over labelled items and reports agreement with the labels, overall and per slice.
 * @param {import('./client.js').LlmClient} client
 * @param {object[]} items from parseLabels (or the same shape)
 * @param {{judge: string, prompt?: object, samples?: number, aggregate?: 'mean'|'majority', sliceField?: string,
 *   signal?: AbortSignal, onProgress?: (progress: {done: number, total: number}) => void,
 *   examples?: Array<{question: string, passage: string, score: number}>}} options examples: few-shot graded
 *   examples for the context_relevance judge (draw them from items you do not score)
 * @returns {Promise<import('../llm.js').CalibrationReport>} (fields in llm.d.ts)
 *   an item whose call failed (HTTP, TIMEOUT...) or whose reply did not parse has prediction null and is
 *   counted in `unscored`, never scored as 0
 */
export async function calibrateJudge(client, items, options) {
  const o = expectOptions(options, 'calibrateJudge options', ['judge', 'prompt', 'samples', 'aggregate', 'sliceField', 'signal', 'onProgress', 'examples']);
  const judge = expectEnum(o.judge, 'options.judge', /** @type {import('../llm.js').JudgeName[]} */ (Object.keys(INPUT_FIELDS)));
  expectArray(items, 'items', { maxLength: 1000000 });
  const scale = scaleOf(judge);
  /** @type {(client: import('./client.js').LlmClient, input: object, options: object) => Promise<{score: number|null, prompt: {id: string, version: number}, usage: object, cost: number|null, abstained?: boolean, samples?: Array<{error?: string|null}>, claims?: Array<{error?: string|null}>, rule?: string|null}>} one judge, called with its own input fields */
  const fn = JUDGES[judge];
  const judgeOptions = {};
  if (o.prompt !== undefined) judgeOptions.prompt = o.prompt;
  if (o.signal !== undefined) judgeOptions.signal = o.signal;
  if (o.examples !== undefined) {
    if (judge !== 'context_relevance') throw invalid('options.examples', 'no examples (few-shot examples exist for the context_relevance judge only)', o.examples);
    judgeOptions.examples = o.examples;
  }
  if (judge !== 'groundedness') {
    if (o.samples !== undefined) judgeOptions.samples = expectInteger(o.samples, 'options.samples', { min: 1, max: 20 });
    if (o.aggregate !== undefined) judgeOptions.aggregate = o.aggregate;
  }
  let done = 0;
  let promptInfo = null;
  const predictions = await Promise.all(items.map(async (item) => {
    const input = {};
    for (const f of INPUT_FIELDS[judge]) input[f] = item[f];
    if (judge === 'answer_correctness' && item.referenceAnswerable !== undefined) input.referenceAnswerable = item.referenceAnswerable;
    const row = { id: item.id, label: item.label, slice: o.sliceField ? String(item[o.sliceField] ?? '(none)') : null, score: null, prediction: null, error: null, usage: null, cost: null };
    try {
      const r = await fn(client, input, judgeOptions);
      promptInfo = r.prompt;
      row.score = r.score;
      row.prediction = toLabelScale(judge, r.score);
      row.usage = r.usage;
      row.cost = r.cost;
      if (r.score === null) row.error = r.abstained ? 'answer abstained' : `unparsed reply: ${(r.samples?.[0]?.error ?? r.claims?.find((c) => c.error)?.error ?? 'no score')}`;
      if (r.rule) row.rule = r.rule;
    } catch (e) {
      if (!(e instanceof RagwasmError) || e.code === 'INVALID_ARGUMENT' || e.code === 'ABORTED') throw e;
      row.error = `${e.code}: ${e.message}`;
    }
    done++;
    o.onProgress?.({ done, total: items.length });
    return row;
  }));
  /** @type {Record<string, import('../llm.js').AgreementStats>} */
  const slices = {};
  if (o.sliceField) {
    const names = [...new Set(predictions.map((p) => p.slice))].sort();
    for (const name of names) slices[name] = agreementStats(predictions.filter((p) => p.slice === name), scale);
  }
  let input = 0;
  let output = 0;
  let cost = 0;
  let costKnown = true;
  for (const p of predictions) {
    input += p.usage?.inputTokens ?? 0;
    output += p.usage?.outputTokens ?? 0;
    if (p.usage) {
      if (p.cost === null) costKnown = false;
      else cost += p.cost;
    }
  }
  return {
    judge,
    prompt: promptInfo,
    scale,
    predictions,
    overall: agreementStats(predictions, scale),
    slices,
    failures: predictions.filter((p) => p.error !== null && p.prediction === null).length,
    usage: { inputTokens: input, outputTokens: output },
    cost: costKnown ? cost : null,
  };
}

/**
 * Runs two prompt variants of one judge on the same labelled items and reports both, plus how many
 * items each variant got exactly right where the other did not.
 * @returns {Promise<{a: object, b: object, onlyA: number, onlyB: number, both: number, neither: number}>}
 */
export async function comparePrompts(client, items, options) {
  const o = expectOptions(options, 'comparePrompts options', ['judge', 'promptA', 'promptB', 'samples', 'aggregate', 'sliceField', 'signal']);
  const common = { judge: o.judge, samples: o.samples, aggregate: o.aggregate, sliceField: o.sliceField, signal: o.signal };
  for (const k of Object.keys(common)) if (common[k] === undefined) delete common[k];
  const a = await calibrateJudge(client, items, { ...common, ...(o.promptA ? { prompt: o.promptA } : {}) });
  const b = await calibrateJudge(client, items, { ...common, ...(o.promptB ? { prompt: o.promptB } : {}) });
  let onlyA = 0;
  let onlyB = 0;
  let both = 0;
  let neither = 0;
  a.predictions.forEach((pa, i) => {
    const ra = pa.prediction === pa.label;
    const rb = b.predictions[i].prediction === b.predictions[i].label;
    if (ra && rb) both++;
    else if (ra) onlyA++;
    else if (rb) onlyB++;
    else neither++;
  });
  return { a, b, onlyA, onlyB, both, neither };
}
