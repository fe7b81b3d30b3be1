// Metrics classroom in headless Chromium: reorder (keyboard, buttons, drag and drop), grade by
// clicking, edit the qrels, and check every number in the DOM against the same WASM metrics run in
// Node on the page's own TREC qrels/run text (and against the trec_eval CLI when it exists).
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { withPage, repoRoot } from './harness.mjs';
import { init } from '../../web/src/index.js';
import { evaluateRun, cohensKappa, withinAccuracy, confusionMatrix } from '../../web/src/metrics/metrics.js';

const CLI = join(repoRoot, 'web/cli/ragwasm.mjs');
const hasTrecEvalCli = existsSync(join(repoRoot, 'web/cli/commands/trec_eval.mjs'));

async function readPage(page) {
  return page.evaluate(() => ({
    k: Number(document.getElementById('k').value),
    level: Number(document.getElementById('level').value),
    order: [...document.querySelectorAll('#ranking li')].map((li) => li.dataset.doc),
    qrels: document.getElementById('qrels-trec').textContent,
    run: document.getElementById('run-trec').textContent,
    measures: Object.fromEntries([...document.querySelectorAll('#measures .metric-card')].map((c) => [c.dataset.measure, Number(c.querySelector('.value').dataset.value)])),
    shown: Object.fromEntries([...document.querySelectorAll('#measures .metric-card')].map((c) => [c.dataset.measure, c.querySelector('.value').textContent])),
    mismatches: [...document.querySelectorAll('#measures .metric-card .status.err')].map((e) => e.textContent),
    curveP: [...document.querySelectorAll('#curve-table tr[data-series=P] td')].map((td) => td.textContent),
    curveR: [...document.querySelectorAll('#curve-table tr[data-series=R] td')].map((td) => td.textContent),
  }));
}

function checkAgainstNode(state, label) {
  const { k, level } = state;
  const n = state.order.length;
  const ks = Array.from({ length: n }, (_, i) => i + 1).join(',');
  const res = evaluateRun(state.qrels, state.run, { measures: [`P.${ks}`, `recall.${ks}`, 'recip_rank', 'map', `ndcg_cut.${k}`], relevanceLevel: level, completeQueries: true });
  const row = res.perQuery.q01;
  const expected = { [`P_${k}`]: row[`P_${k}`], [`recall_${k}`]: row[`recall_${k}`], recip_rank: row.recip_rank, map: row.map, [`ndcg_cut_${k}`]: row[`ndcg_cut_${k}`] };
  assert.deepEqual(state.measures, expected, `${label}: DOM measures differ from Node`);
  assert.deepEqual(state.curveP, Array.from({ length: n }, (_, i) => row[`P_${i + 1}`].toFixed(4)), `${label}: P@k curve`);
  assert.deepEqual(state.curveR, Array.from({ length: n }, (_, i) => row[`recall_${i + 1}`].toFixed(4)), `${label}: R@k curve`);
  assert.deepEqual(state.mismatches, [], `${label}: the worked arithmetic disagrees with WASM`);
  if (hasTrecEvalCli) {
    // `ragwasm trec_eval -c -l N -m ... QRELS RUN` on the page's own TREC text: every value the page
    // shows (4 decimals) equals the CLI's.
    const dir = mkdtempSync(join(tmpdir(), 'ragwasm-classroom-'));
    writeFileSync(join(dir, 'qrels'), state.qrels);
    writeFileSync(join(dir, 'run'), state.run);
    const out = execFileSync(process.execPath, [CLI, 'trec_eval', '-c', '-l', String(level), '-m', `P.${k}`, '-m', `recall.${k}`, '-m', 'recip_rank', '-m', 'map',
      '-m', `ndcg_cut.${k}`, join(dir, 'qrels'), join(dir, 'run')], { encoding: 'utf8' });
    const cli = Object.fromEntries(out.trim().split('\n').map((l) => l.trim().split(/\s+/)).filter((f) => f[1] === 'all').map((f) => [f[0], f[2]]));
    assert.deepEqual(state.shown, Object.fromEntries(Object.keys(state.shown).map((m) => [m, cli[m]])), `${label}: DOM vs CLI\n${out}`);
  }
  return expected;
}

test('metrics classroom: DOM numbers equal the WASM metrics in Node after reordering and grading', async () => {
  await init();
  await withPage(async ({ page, url, consoleErrors, screenshot, requests }) => {
    await page.goto(`${url}web/demo/metrics.html`);
    await page.waitForFunction(() => ['done', 'err'].includes(document.getElementById('status').dataset.state), null, { timeout: 30000 });
    assert.match(await page.textContent('#status'), /^ready/);
    let st = await readPage(page);
    const initial = checkAgainstNode(st, 'initial');
    assert.equal(st.order[2], 'leave-policy');
    // By hand, independent of the WASM metrics: k = 5, relevance level 1; relevant (grade >= 1) at
    // ranks 1 (2), 3 (3), 4 (2), 6 (1), plus quarterly-report-2024-q4 (1) never retrieved: R = 5.
    const near = (got, want, what) => assert.ok(Math.abs(got - want) < 1e-9, `${what}: ${got}, by hand ${want}`);
    near(initial.P_5, 3 / 5, 'P@5');
    near(initial.recall_5, 3 / 5, 'R@5');
    near(initial.recip_rank, 1, 'RR');
    near(initial.map, (1 / 1 + 2 / 3 + 3 / 4 + 4 / 6) / 5, 'AP');
    near(initial.ndcg_cut_5, (2 / Math.log2(2) + 3 / Math.log2(4) + 2 / Math.log2(5)) /
      (3 / Math.log2(2) + 2 / Math.log2(3) + 2 / Math.log2(4) + 1 / Math.log2(5) + 1 / Math.log2(6)), 'nDCG@5');

    // Keyboard: focus rank 3 and move it up twice with Alt+ArrowUp.
    await page.focus('#ranking li[data-doc="leave-policy"]');
    await page.keyboard.press('Alt+ArrowUp');
    await page.keyboard.press('Alt+ArrowUp');
    st = await readPage(page);
    assert.equal(st.order[0], 'leave-policy');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.doc), 'leave-policy', 'focus follows the moved item');
    const moved = checkAgainstNode(st, 'after keyboard move');
    assert.equal(moved.recip_rank, 1);
    // leave-policy (3) first, handbook (2) second: relevant at ranks 1, 2, 4, 6.
    near(moved.map, (1 / 1 + 2 / 2 + 3 / 4 + 4 / 6) / 5, 'AP after the move');

    // Click grades: grade travel-expense-policy 3 and unjudge remote-work-policy (click its pressed 0).
    await page.click('#ranking li[data-doc="travel-expense-policy"] button[data-g="3"]');
    await page.click('#ranking li[data-doc="remote-work-policy"] button[data-g="0"]');
    st = await readPage(page);
    assert.match(st.qrels, /q01 0 travel-expense-policy 3/);
    assert.doesNotMatch(st.qrels, /remote-work-policy/);
    checkAgainstNode(st, 'after grading');

    // Drag and drop: security-policy (last) onto the top half of employee-faq.
    await page.$eval('#ranking', (el) => el.scrollIntoView({ block: 'center' }));
    await page.locator('#ranking li[data-doc="security-policy"] .handle').dragTo(page.locator('#ranking li[data-doc="employee-faq"]'), { targetPosition: { x: 50, y: 3 } });
    st = await readPage(page);
    assert.equal(st.order.indexOf('security-policy') + 1, st.order.indexOf('employee-faq'), `drag result: ${st.order}`);
    checkAgainstNode(st, 'after drag');

    // Move-down button, the qrels editor (an unretrieved relevant document), k and relevance level.
    await page.click('#ranking li[data-doc="leave-policy"] button[data-role="down"]');
    await page.fill('#new-doc', 'perch-user-guide');
    await page.selectOption('#new-grade', '3');
    await page.click('#add-qrel button[type=submit]');
    await page.fill('#k', '3');
    await page.selectOption('#level', '2');
    st = await readPage(page);
    assert.equal(st.order[1], 'leave-policy');
    assert.match(st.qrels, /q01 0 perch-user-guide 3/);
    assert.equal(st.k, 3);
    checkAgainstNode(st, 'after qrels edit, k=3, level 2');

    // Judge agreement: change one of rater B's labels.
    await page.selectOption('select[data-rater="B"][data-item="0"]', '0');
    const ag = await page.evaluate(() => ({
      A: [...document.querySelectorAll('select[data-rater="A"]')].map((s) => Number(s.value)),
      B: [...document.querySelectorAll('select[data-rater="B"]')].map((s) => Number(s.value)),
      values: Object.fromEntries([...document.querySelectorAll('#agree-measures .metric-card')].map((c) => [c.dataset.key, c.querySelector('.value').dataset.value])),
      matrix: [...document.querySelectorAll('#confusion-table tbody tr')].slice(0, -1).map((tr) => [...tr.querySelectorAll('td')].slice(0, -1).map((td) => Number(td.textContent))),
    }));
    assert.equal(ag.B[0], 0);
    assert.equal(Number(ag.values.kappa), cohensKappa(ag.A, ag.B));
    assert.equal(Number(ag.values.kappaQ), cohensKappa(ag.A, ag.B, { weights: 'quadratic' }));
    assert.equal(Number(ag.values.within1), withinAccuracy(ag.A, ag.B, { tolerance: 1 }));
    assert.equal(Number(ag.values.exact), withinAccuracy(ag.A, ag.B, { tolerance: 0 }));
    assert.deepEqual(ag.matrix, confusionMatrix(ag.A, ag.B).matrix);

    await screenshot('metrics-1280x800');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot('metrics-390x844');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px at 390 px`);
    assert.ok(requests.every((r) => r.startsWith(url)), 'every request stays on 127.0.0.1');
    assert.deepEqual(consoleErrors, []);
  });
});
