// The metrics classroom's grading mode in headless Chromium: load a pool file (as `ragwasm label
// --pool-only` writes it), grade with the keys 0-3, navigate, reload (grades kept in localStorage),
// export TREC qrels and judge labels, and compare them with the library's gradedQrels in Node and
// with qrels written by hand.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withPage } from './harness.mjs';
import { formatPool, gradedQrels, pairKey, parsePool } from '../../web/src/eval.js';

const POOL = formatPool({
  questions: [{ id: 'q1', text: 'How many days of paid time off?' }, { id: 'q2', text: 'Who approves travel?' }],
  pool: {
    q1: [{ id: 'leave#0', docId: 'leave', text: 'Full-time employees get 22 days.' }, { id: 'faq#3', docId: 'faq', text: 'Payday is the 15th.' },
      { id: 'leave#1', docId: 'leave', text: 'Unused days carry over.' }],
    q2: [{ id: 'travel#0', docId: 'travel', text: 'Managers approve travel.' }],
  },
});

async function load(page, file) {
  await page.setInputFiles('#pool-file', file);
  await page.waitForFunction(() => !document.getElementById('grade-card').hidden || document.getElementById('grade-error').textContent);
  assert.equal(await page.textContent('#grade-error'), '');
}

test('grading mode: keys 0-3 grade pooled pairs, progress survives a reload, exports equal gradedQrels', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-grade-'));
  const file = join(dir, 'pool.jsonl');
  writeFileSync(file, POOL);
  await withPage(async ({ page, url, consoleErrors }) => {
    await page.goto(`${url}web/demo/metrics.html`);
    await load(page, file);
    assert.equal(await page.getAttribute('#grade-card', 'data-pair'), pairKey('q1', 'leave#0'));
    // q1/leave#0 -> 3, q1/faq#3 -> 0, q1/leave#1 -> 1, then back (k) and change it to 2 (u then 2).
    await page.focus('#grade-card');
    for (const key of ['3', '0', '1', 'ArrowLeft', 'u', '2']) await page.keyboard.press(key);
    assert.equal(await page.getAttribute('#grade-progress', 'data-graded'), '3');
    // The last pair's grade: u removed leave#1's 1 and 2 set it; 2 moved on to q2/travel#0 (ungraded).
    assert.equal(await page.getAttribute('#grade-card', 'data-pair'), pairKey('q2', 'travel#0'));

    await page.reload();
    await load(page, file);
    assert.equal(await page.getAttribute('#grade-progress', 'data-graded'), '3', 'grades kept across a reload');
    assert.equal(await page.getAttribute('#grade-card', 'data-pair'), pairKey('q2', 'travel#0'), 'position kept');
    await page.focus('#grade-card');
    await page.keyboard.press('1');

    await page.click('#export-qrels');
    const qrels = await page.textContent('#grade-export');
    const grades = { [pairKey('q1', 'leave#0')]: 3, [pairKey('q1', 'faq#3')]: 0, [pairKey('q1', 'leave#1')]: 2, [pairKey('q2', 'travel#0')]: 1 };
    // By hand: document level keeps each document's best chunk grade (leave: max(3, 2)).
    assert.equal(qrels, 'q1 0 faq 0\nq1 0 leave 3\nq2 0 travel 1\n');
    assert.equal(qrels, gradedQrels(parsePool(POOL), grades));
    await page.click('#export-chunk-qrels');
    assert.equal(await page.textContent('#grade-export'), 'q1 0 faq#3 0\nq1 0 leave#0 3\nq1 0 leave#1 2\nq2 0 travel#0 1\n');
    await page.click('#export-labels');
    const labels = (await page.textContent('#grade-export')).trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(labels.map((l) => l.label), [3, 0, 2, 1]);
    assert.equal(labels[0].passage, 'Full-time employees get 22 days.');

    // A malformed pool is a message on the page, not an exception.
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"questionId": "q1"}\n');
    await page.setInputFiles('#pool-file', bad);
    await page.waitForFunction(() => document.getElementById('grade-error').textContent !== '');
    assert.match(await page.textContent('#grade-error'), /pool line 1: chunkId/);
    assert.deepEqual(consoleErrors, []);
  });
});
