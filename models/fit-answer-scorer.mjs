// Fits the unit scorer of issue 15 round 4 (tests/bench/lib/answer-scorer.mjs) on SQuAD v1.1 dev, read
// by path (never copied): 4 of every 5 articles fit, every 5th is held out. Prints one JSON object:
// {features, coefficients, l2, fitRows, heldOut: {selection, selectionByCover, unitAccuracy, answerabilityAuc, ...}}.
// Deterministic: the same file gives the same coefficients (Newton steps from 0 in a fixed order).
//   node models/fit-answer-scorer.mjs [path/to/dev-v1.1.json [other-article|same-article]] > /tmp/scorer.json
// Needs web/dist/ragwasm.wasm (bash scripts/build.sh wasm-release).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { evaluateRows, FEATURE_NAMES, fitLogistic, isHeldOutArticle, squadRows } from '../tests/bench/lib/answer-scorer.mjs';
import { init } from '../web/src/index.js';

export const SQUAD_PATH = join(dirname(fileURLToPath(import.meta.url)), '../../shared/data/squad-v1.1/dev-v1.1.json');
export const L2 = 1;
// Where a question's negative paragraph comes from (answer-scorer.mjs squadRows).
export const NEGATIVES = 'other-article';

/** Fit and held-out evaluation from a parsed SQuAD v1.1 file. */
export function fitScorer(squad, negatives = NEGATIVES) {
  const fitRows = squadRows(squad, (a) => !isHeldOutArticle(a), {}, negatives);
  const X = [];
  const y = [];
  for (const r of fitRows) r.X.forEach((x, i) => { X.push(x); y.push(r.y[i]); });
  const w = fitLogistic(X, y, { l2: L2 });
  const held = squadRows(squad, isHeldOutArticle, {}, negatives);
  return {
    features: FEATURE_NAMES, negatives, coefficients: w.map((v) => Number(v.toFixed(6))), l2: L2, fitRows: X.length,
    fitQuestions: fitRows.filter((r) => !r.foreign).length, heldOut: evaluateRows(w, held), fit: evaluateRows(w, fitRows),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await init();
  const squad = JSON.parse(readFileSync(process.argv[2] ?? SQUAD_PATH, 'utf8'));
  process.stdout.write(`${JSON.stringify(fitScorer(squad, process.argv[3] ?? NEGATIVES), null, 1)}\n`);
}
