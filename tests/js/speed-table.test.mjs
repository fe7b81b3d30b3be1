// The README's speed table is rendered from the committed benchmark JSON (docs/bench/*.json) by
// scripts/speed-table.mjs: verdicts are computed from measured ratios, and the README must equal the
// rendering (no hand-edited numbers).
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './helpers.mjs';
import { render, replaceSection, verdict, median, BEGIN, END } from '../../scripts/speed-table.mjs';

const run = (over = {}) => ({
  suite: 'bm25', machine: { date: '2026-11-27T23:50:00.000Z', loadAverage: [1.02, 1, 1], loadAverageEnd: [1.5, 1, 1] },
  speed: [{ id: 'bm25-build', what: 'BM25 build', ragwasm: '235 ms CPU', peer: 'wink-bm25 2,031 ms CPU', ratio: 8.64, ratioText: '8.6× CPU', target: { min: 5 }, targetText: '≥ 5×', note: '' }],
  ...over,
});

test('verdicts come from the measured ratio and the target, in both directions', () => {
  assert.equal(verdict(8.6, { min: 5 }), '✔');
  assert.equal(verdict(4.9, { min: 5 }), '✘');
  assert.equal(verdict(94.7, { max: 100 }), '✔');
  assert.equal(verdict(101, { max: 100 }), '✘');
  assert.equal(verdict(3, null), '');
  assert.throws(() => verdict(1, {}), /needs min or max/);
});

test('a row shows the numbers, the computed verdict, the suite and its run (date, load start→end)', () => {
  const lines = render([run()]).split('\n');
  assert.equal(lines.length, 3);
  assert.equal(lines[2], '| BM25 build | 235 ms CPU | wink-bm25 2,031 ms CPU | 8.6× CPU | ≥ 5× ✔ | `bm25` 2026-11-27 23:50 UTC, load 1.02→1.5 |');
  const missed = render([run({ speed: [{ ...run().speed[0], ratio: 3.7, ratioText: '3.7× CPU' }] })]).split('\n')[2];
  assert.match(missed, /\| ≥ 5× ✘ \|/);
});

test('a row measured in rounds: the verdict is on the median of its rounds, shown with their min-max', () => {
  assert.equal(median([1.87, 1.45, 1.67]), 1.67);
  assert.equal(median([1.67, 1.87, 1.45, 1.56]), (1.56 + 1.67) / 2);
  // median 1.67 < 1.8 although one round passed: ✘; the cell names the rounds and their spread
  const row = { ...run().speed[0], ratio: 1.67, ratioText: '1.67×', target: { min: 1.8 }, targetText: '≥ 1.8×', rounds: [1.87, 1.45, 1.67] };
  const line = render([run({ speed: [row] })]).split('\n')[2];
  assert.match(line, /\| 1\.67× \(median of 3 rounds, min–max 1\.45–1\.87×\) \| ≥ 1\.8× ✘ \|/);
  // the verdict comes from the rounds, not from the stored ratio
  const passed = render([run({ speed: [{ ...row, ratio: 1.5, rounds: [1.81, 1.9, 1.2] }] })]).split('\n')[2];
  assert.match(passed, /≥ 1\.8× ✔/);
  // one round: rendered as before
  assert.doesNotMatch(render([run({ speed: [{ ...row, rounds: [1.67] }] })]), /rounds/);
});

test('suites render in name order and pipes inside cells are escaped', () => {
  const a = run({ suite: 'tokenizer', speed: [{ ...run().speed[0], what: 'a | b' }] });
  const lines = render([a, run()]).split('\n');
  assert.match(lines[2], /`bm25`/);
  assert.match(lines[3], /^\| a \\\| b \|/);
});

test('replaceSection rewrites only the text between the markers, and refuses a README without them', () => {
  const readme = `intro\n${BEGIN}\nold table\n${END}\noutro\n`;
  assert.equal(replaceSection(readme, 'NEW'), `intro\n${BEGIN}\nNEW\n${END}\noutro\n`);
  assert.throws(() => replaceSection('no markers', 'x'), /lacks the markers/);
});

test('README.md speed table equals the rendering of docs/bench/*.json', () => {
  const r = spawnSync(process.execPath, [join(repoRoot, 'scripts/speed-table.mjs'), '--check'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});
