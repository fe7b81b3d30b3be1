// The unit scorer study of issue 15 round 4 (tests/bench/lib/answer-scorer.mjs): the logistic fit is
// deterministic and recovers known coefficients; SQuAD rows label the unit holding the answer start
// and read each question against a paragraph of another article.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import { init } from '../../../web/src/index.js';
import { features, fitLogistic, predict, squadRows } from '../../bench/lib/answer-scorer.mjs';

before(async () => { await init(); });

test('fitLogistic recovers the coefficients of a known logistic model, the same on every run', () => {
  // x in a fixed grid, P(y = 1 | x) = sigmoid(-1 + 2x): expected counts as fractional labels
  const X = [];
  const y = [];
  for (let i = 0; i <= 40; i++) {
    const x = -2 + i * 0.1;
    X.push([1, x]);
    y.push(predict([-1, 2], [1, x]));
  }
  const w = fitLogistic(X, y, { l2: 0 });
  assert.ok(Math.abs(w[0] + 1) < 1e-6 && Math.abs(w[1] - 2) < 1e-6, `got ${w}`);
  assert.deepEqual(fitLogistic(X, y, { l2: 0 }), w);
  const shrunk = fitLogistic(X, y, { l2: 10 });
  assert.ok(Math.abs(shrunk[1]) < 2, 'the L2 penalty shrinks the weight');
});

test('squadRows labels the unit holding the answer start and adds a foreign paragraph with no positive', () => {
  const squad = { data: [
    { title: 'Acme', paragraphs: [{ context: 'Acme makes pumps. Acme was founded in 1998 in Oslo.', qas: [{ id: 'a1', question: 'When was Acme founded?', answers: [{ answer_start: 40, text: '1998' }] }] }] },
    { title: 'Tomatoes', paragraphs: [{ context: 'Tomatoes need sun. They grow in summer.', qas: [] }] },
  ] };
  const rows = squadRows(squad, () => true);
  assert.equal(rows.length, 2);
  assert.deepEqual([rows[0].foreign, rows[0].y], [false, [0, 1]]);
  assert.deepEqual([rows[1].foreign, rows[1].y], [true, [0, 0]]);
  assert.equal(rows[0].X[0].length, 14);
  assert.equal(features([{ cover: 0, unitCover: 0, termShare: 0, bigramShare: 0, keyShare: 1, entityShare: 1, typeOk: false, entitiesOk: true, keysOk: true, position: 0, unitTerms: 0, missingShare: 1 }])[0][3], 0);
  assert.equal(squadRows(squad, () => true, {}, 'same-article').length, 1);  // a one-paragraph article has no near miss
});
