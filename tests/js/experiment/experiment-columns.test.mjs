// Failure-rate columns of the seeds (issue #31 item 3): 1 − recall@k with its CI turned around and
// the relative reduction against a baseline cell, checked against arithmetic written out here and
// against summarizeExperiment's own cells.
import test from 'node:test';
import assert from 'node:assert/strict';
import { init } from '../../../web/src/index.js';
import { experimentMarkdown, failureColumns, failureMarkdown, relativeReduction, summarizeExperiment } from '../../../web/src/eval.js';

const near = (a, b, what) => assert.ok(Math.abs(a - b) < 1e-12, `${what}: ${a} vs ${b}`);

test('relativeReduction: (baseline − cell) / baseline; null without baseline failures', () => {
  near(relativeReduction(0.13, 0.2), 0.35, '0.2 -> 0.13');
  near(relativeReduction(0.3, 0.2), -0.5, 'more failures');
  assert.equal(relativeReduction(0, 0), null);
  assert.equal(relativeReduction(null, 0.2), null);
  assert.throws(() => relativeReduction(Number.NaN, 0.2), { code: 'INVALID_ARGUMENT' });
});

test('failureColumns: per-cell 1 − recall, CI turned around, reductions against the baseline', () => {
  const cells = [
    { name: 'bm25', k: 5, retrieval: { recall: { 5: 0.8, 20: 0.9 }, recallAtK: { mean: 0.8, low: 0.7, high: 0.9, n: 10 } } },
    { name: 'contextual', k: 5, retrieval: { recall: { 5: 0.87, 20: 0.95 }, recallAtK: { mean: 0.87, low: 0.8, high: 0.95, n: 10 } } },
    { name: 'closed-book', k: 0, retrieval: null },
  ];
  const f = failureColumns(cells, { baseline: 'bm25' });
  assert.deepEqual(f.cutoffs, [5, 20]);
  const c = f.cells[1];
  near(c.failureAtK.mean, 0.13, 'failure@k');
  near(c.failureAtK.low, 0.05, 'failure low = 1 − recall high');
  near(c.failureAtK.high, 0.2, 'failure high = 1 − recall low');
  near(c.reductionAtK, (0.2 - 0.13) / 0.2, 'reduction@k');
  near(c.reduction[20], (0.1 - 0.05) / 0.1, 'reduction@20');
  near(f.cells[0].reductionAtK, 0, 'the baseline against itself');
  assert.equal(f.cells[2].failureAtK, null);
  assert.deepEqual(f.cells[2].failure, {});
  const md = failureMarkdown(f);
  assert.match(md, /\| contextual \| 5 \| 0\.130 \[0\.050, 0\.200\] \| −35\.0% \| 0\.130 \(−35\.0%\) \| 0\.050 \(−50\.0%\) \|/);
  assert.match(md, /\| bm25 \| 5 \| 0\.200 \[0\.100, 0\.300\] \| baseline \| 0\.200 \| 0\.100 \|/);
  assert.match(failureMarkdown(failureColumns(cells.slice(0, 1).concat({ ...cells[0], name: 'same' }), { baseline: 'bm25' })), /\| same \| 5 \| [^|]+ \| 0\.0% \| 0\.200 \(0\.0%\) \|/);
  // Without a baseline: failures, no reductions.
  assert.equal(failureColumns(cells).cells[1].reductionAtK, null);
  assert.throws(() => failureColumns(cells, { baseline: 'nope' }), { code: 'INVALID_ARGUMENT', message: /bm25, contextual, closed-book/ });
  assert.throws(() => failureColumns([{ name: 'x', retrieval: { recall: 3 } }]), { code: 'INVALID_ARGUMENT' });
});

// Two cells over four questions: a finds the evidence for 2 of 4 (the baseline), b for 3 of 4.
function twoCellSummary() {
  const rec = (q, r5) => ({ questionId: q, answerable: true, retrieval: { recall: { 5: r5 }, precision: { 5: r5 / 5 }, rr: r5, curve: [r5], refRank: null } });
  return summarizeExperiment({
    baseline: 'a',
    cells: [
      { name: 'a', k: 5, records: [rec('q1', 1), rec('q2', 0), rec('q3', 0), rec('q4', 1)] },
      { name: 'b', k: 5, records: [rec('q1', 1), rec('q2', 1), rec('q3', 0), rec('q4', 1)] },
    ],
  });
}

test('failureColumns reads summarizeExperiment cells', async () => {
  await init();
  const s = twoCellSummary();
  const f = failureColumns(s.cells, { baseline: s.baseline });
  near(f.cells[0].failureAtK.mean, 0.5, 'a: 2 of 4 failed');
  near(f.cells[1].failureAtK.mean, 0.25, 'b: 1 of 4 failed');
  near(f.cells[1].reductionAtK, 0.5, 'b halves the failures');
});

test('#31 the experiment summary carries the failure columns and its markdown shows them', async () => {
  await init();
  const s = twoCellSummary();
  assert.equal(s.failures.baseline, 'a');
  near(s.failures.cells[1].reductionAtK, 0.5, 'b halves the failures');
  const md = experimentMarkdown(s);
  assert.match(md, /### retrieval failures \(1 − recall; relative reduction against the baseline cell\)/);
  assert.match(md, /\| b \| 5 \| 0\.250[^|]*\| −50\.0% \|/);
});
