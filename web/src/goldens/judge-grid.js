// @ts-check
// The judge grid (issue #16 item 4): judge models x judge prompts on one labelled set, with a
// seeded train/test split. Few-shot examples (context_relevance) and the bias calibration of
// percentage judges are drawn only from the train half; agreement is reported on the test half. With a
// validation part (options.validationFraction, issue #31: the finance study's 40/20/20) every cell also runs on
// it, each model's prompt is chosen on validation and its agreement reported on test.
// For percentage judges (answer_correctness) each cell also reports |predicted% - gold%|: per item
// (mean absolute error) and for the set (the judged accuracy the judge would report vs the humans').
import { RagwasmError } from '../core/errors.js';
import { expectArray, expectBoolean, expectInteger, expectNumber, expectOptions, expectString, invalid, isInstance, isObject } from '../core/validate.js';
import { LlmClient } from '../llm/client.js';
import { calibrateJudge } from '../llm/calibration.js';
import { seededShuffle, splitTrainTest, splitTrainValidationTest } from './split.js';

const JUDGE_NAMES = ['context_relevance', 'answer_relevance', 'answer_correctness', 'groundedness'];

/**
 * |predicted% - gold%| of a percentage judge over scored rows.
 * @param {Array<{label: number, prediction: number|null}>} rows labels and predictions in 0..100
 * @param {number} [bias=0] subtracted from every prediction (a train-half calibration)
 * @returns {{n: number, meanAbsoluteError: number|null, predictedMean: number|null, goldMean: number|null, setError: number|null}}
 *   setError = |mean prediction - mean label|; null without scored rows
 */
export function percentError(rows, bias = 0) {
  const list = expectArray(rows, 'rows', { maxLength: 10000000, item: (r, n) => {
    if (!isObject(r)) throw invalid(n, 'a {label, prediction} row', r);
    expectNumber(r.label, `${n}.label`, { min: 0, max: 100 });
    if (r.prediction !== null) expectNumber(r.prediction, `${n}.prediction`, { min: 0, max: 100 });
  } });
  expectNumber(bias, 'bias', { min: -100, max: 100 });
  const scored = list.filter((r) => r.prediction !== null);
  if (scored.length === 0) return { n: 0, meanAbsoluteError: null, predictedMean: null, goldMean: null, setError: null };
  const clamp = (v) => Math.min(100, Math.max(0, v));
  let abs = 0; let p = 0; let g = 0;
  for (const r of scored) {
    const pred = clamp(r.prediction - bias);
    abs += Math.abs(pred - r.label);
    p += pred;
    g += r.label;
  }
  const n = scored.length;
  return { n, meanAbsoluteError: abs / n, predictedMean: p / n, goldMean: g / n, setError: Math.abs(p / n - g / n) };
}

// Each model's prompt chosen on validation: rating judges by quadratic kappa (higher), percentage judges
// by mean absolute error (lower, after the train-half bias when calibrated); a cell without a value loses; ties: prompt order.
function selectOnValidation(cells, percent) {
  const metric = percent ? 'meanAbsoluteError' : 'kappaQuadratic';
  const value = (c) => (percent ? percentError(c.validation.predictions, c.bias ?? 0).meanAbsoluteError : c.validation.overall.kappaQuadratic);
  const better = (a, b) => (b === null ? a !== null : a !== null && (percent ? a < b : a > b));
  const out = [];
  for (const model of [...new Set(cells.map((c) => c.model))]) {
    let best = null;
    let bestValue = null;
    for (const c of cells.filter((x) => x.model === model)) {
      const v = value(c);
      if (best === null || better(v, bestValue)) {
        best = c;
        bestValue = v;
      }
    }
    out.push({ model, prompt: best.prompt, metric, validationValue: bestValue, test: best.test });
  }
  return out;
}

/**
 * Runs every (judge model, judge prompt) cell on the test half of `items`.
 * @param {{models: Array<{name: string, client: LlmClient}>, prompts: Array<{name: string, prompt?: object}>, items: object[]}} input
 *   items as parseLabels returns them; a prompt without `prompt` is the built-in one
 * @param {{judge: string, seed?: number, trainFraction?: number, fewShot?: number, calibrate?: boolean, samples?: number,
 *   aggregate?: 'mean'|'majority', signal?: AbortSignal, onProgress?: (progress: {cell: string, done: number, total: number}) => void}} options
 *   seed (default 16) and trainFraction (default 0.5) make the split; fewShot (context_relevance only, default 0) graded
 *   examples drawn from train; calibrate (percentage judges) also runs each cell on train and subtracts its mean bias on test;
 *   validationFraction (default none) makes a train/validation/test split (splitTrainValidationTest): every cell also runs on
 *   validation and `selection` names each model's prompt chosen there (rating judges: highest quadratic kappa; percentage
 *   judges: lowest mean absolute error; ties: the earlier prompt) with its test agreement
 * @returns {Promise<{judge: string, split: {seed: number, train: number, validation?: number, test: number}, examples: object[],
 *   cells: Array<{model: string, prompt: string, test: object, validation?: object, percent: object|null, calibrated: object|null, bias: number|null}>,
 *   selection?: Array<{model: string, prompt: string, metric: string, validationValue: number|null, test: object}>}>}
 *   test is calibrateJudge's report on the test half; percent / calibrated are percentError on test (null for rating judges)
 * @throws {RagwasmError} INVALID_ARGUMENT, ABORTED
 */
export async function judgeGrid(input, options) {
  const i = expectOptions(input, 'input', ['models', 'prompts', 'items']);
  const o = expectOptions(options, 'judgeGrid options', ['judge', 'seed', 'trainFraction', 'validationFraction', 'fewShot', 'calibrate', 'samples', 'aggregate', 'signal', 'onProgress']);
  if (options === undefined) throw invalid('options', '{judge}', options);
  const judge = expectString(o.judge, 'options.judge');
  if (!JUDGE_NAMES.includes(judge)) throw invalid('options.judge', `one of ${JUDGE_NAMES.join(', ')}`, o.judge);
  const models = expectArray(i.models, 'input.models', { maxLength: 100, item: (m, n) => {
    if (!isObject(m)) throw invalid(n, '{name, client}', m);
    expectString(m.name, `${n}.name`, { allowEmpty: false });
    if (!isInstance(m.client, LlmClient)) throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${n}.client: expected an LlmClient (createLlmClient)`);
  } });
  const prompts = expectArray(i.prompts, 'input.prompts', { maxLength: 100, item: (p, n) => {
    if (!isObject(p)) throw invalid(n, '{name, prompt?}', p);
    expectString(p.name, `${n}.name`, { allowEmpty: false });
  } });
  if (models.length === 0) throw invalid('input.models', 'at least one model', models);
  if (prompts.length === 0) throw invalid('input.prompts', 'at least one prompt', prompts);
  const items = expectArray(i.items, 'input.items', { maxLength: 1000000 });
  if (items.length < 2) throw invalid('input.items', 'at least 2 labelled items (a train and a test half)', items);
  const fewShot = o.fewShot === undefined ? 0 : expectInteger(o.fewShot, 'options.fewShot', { min: 0, max: 20 });
  if (fewShot > 0 && judge !== 'context_relevance') throw invalid('options.fewShot', '0 (few-shot examples exist for the context_relevance judge only)', o.fewShot);
  const calibrate = o.calibrate === undefined ? false : expectBoolean(o.calibrate, 'options.calibrate');
  const percent = judge === 'answer_correctness';
  if (calibrate && !percent) throw invalid('options.calibrate', 'false (bias calibration applies to percentage judges: answer_correctness)', o.calibrate);
  const withValidation = o.validationFraction !== undefined;
  if (withValidation && items.length < 3) throw invalid('input.items', 'at least 3 labelled items (train, validation and test parts)', items);
  /** @type {{train: typeof items, validation?: typeof items, test: typeof items, seed: number}} */
  const split = withValidation
    ? splitTrainValidationTest(items, { seed: o.seed, trainFraction: o.trainFraction, validationFraction: o.validationFraction })
    : splitTrainTest(items, { seed: o.seed, trainFraction: o.trainFraction });
  // Few-shot examples: one per label value first (3, 2, 1, 0 as available), then the rest, seeded, train only.
  let examples = [];
  if (fewShot > 0) {
    const shuffled = seededShuffle(split.train, split.seed + 1);
    const picked = [];
    for (const label of [3, 2, 1, 0]) {
      const e = shuffled.find((x) => x.label === label && !picked.includes(x));
      if (e && picked.length < fewShot) picked.push(e);
    }
    for (const e of shuffled) if (picked.length < fewShot && !picked.includes(e)) picked.push(e);
    examples = picked.map((e) => ({ question: e.question, passage: e.passage, score: e.label }));
  }
  /** @type {Parameters<typeof calibrateJudge>[2]} */
  const base = { judge };
  if (o.samples !== undefined) base.samples = o.samples;
  if (o.aggregate !== undefined) base.aggregate = o.aggregate;
  if (o.signal !== undefined) base.signal = o.signal;
  if (examples.length) base.examples = examples;
  const cells = [];
  for (const m of models) {
    for (const p of prompts) {
      const name = `${m.name} × ${p.name}`;
      const opts = { ...base, ...(p.prompt ? { prompt: p.prompt } : {}) };
      if (o.onProgress) opts.onProgress = ({ done, total }) => o.onProgress({ cell: name, done, total });
      let bias = null;
      if (calibrate) {
        const train = await calibrateJudge(m.client, split.train, opts);
        const pe = percentError(train.predictions);
        bias = pe.n ? pe.predictedMean - pe.goldMean : null;
      }
      const validation = withValidation ? await calibrateJudge(m.client, split.validation, opts) : null;
      const test = await calibrateJudge(m.client, split.test, opts);
      cells.push({ model: m.name, prompt: p.name, test, ...(validation ? { validation } : {}), percent: percent ? percentError(test.predictions) : null,
        calibrated: calibrate && bias !== null ? percentError(test.predictions, bias) : null, bias });
    }
  }
  const sizes = { seed: split.seed, train: split.train.length, ...(withValidation ? { validation: split.validation.length } : {}), test: split.test.length };
  if (!withValidation) return { judge, split: sizes, examples, cells };
  return { judge, split: sizes, examples, cells, selection: selectOnValidation(cells, percent) };
}
