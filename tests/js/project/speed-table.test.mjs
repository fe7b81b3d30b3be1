// The README's summary of measured numbers and docs/performance.md are rendered from the committed
// benchmark JSON (docs/bench/*.json) by scripts/speed-table.mjs: verdicts are computed from measured
// ratios, and both files must equal the rendering (no hand-edited numbers).
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../helpers.mjs';
import { render, renderSummary, renderPerformance, renderDemoBytes, readResults, replaceSection, verdict, median, BEGIN, END, SUMMARY } from '../../../scripts/speed-table.mjs';

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

test('the README summary: a caption naming the machine, then the chosen rows, without date or load', () => {
  const quality = { suite: 'bm25', machine: { ...run().machine, cores: 2, cpu: 'AMD EPYC', node: 'v20.20.2' }, results: { scifact: { ragwasm: { ndcg10: 0.68034 }, native: { ndcg10: 0.68034 }, MiniSearch: { ndcg10: 0.6236 } } }, speed: run().speed };
  const text = renderSummary([quality], [['BM25 nDCG@10', 'bm25', 'quality:scifact'], ['BM25 build', 'bm25', 'bm25-build']]);
  const lines = text.split('\n');
  assert.match(lines[0], /^Measured by `npm run bench` on a 2-core AMD EPYC VM, Node v20\.20\.2;/);
  // the native build is not a peer; the ragwasm value is rounded to 4 decimals
  assert.equal(lines[4], '| BM25 nDCG@10 | 0.6803 | MiniSearch 0.6236 |  |  |');
  assert.equal(lines[5], '| BM25 build | 235 ms CPU | wink-bm25 2,031 ms CPU | 8.6× CPU | ≥ 5× ✔ |');
  assert.doesNotMatch(text, /2026|UTC|load/);
  // a chosen row that the JSON lacks is an error, not a silently shorter table
  assert.throws(() => renderSummary([quality], [['x', 'bm25', 'gone']]), /has no speed row gone/);
  assert.throws(() => renderSummary([quality], [['x', 'dense', 'flat-f32']]), /needs docs\/bench\/dense\.json/);
});

test('the doc chat row: the reporting half of the preset and the own-words paraphrased hit@5, verdicts against the goals', () => {
  const half = (hit1, hit5, tokenF1) => ({ halves: { reporting: { hit1, hit5, tokenF1, abstainedUnanswerable: 5, unanswerable: 8, wrongAbstentions: 4, answerable: 26 } } });
  const rows = [['own-words set', 'tuning', 'paraphrased', 18, 0.3889, 0.5556, 0.4625], ['own-words set', 'reporting', 'paraphrased', 17, 0.1765, 0.6471, 0.377]];
  const r = { suite: 'docchat', machine: { cores: 2, cpu: 'x', node: 'v20' }, results: {
    'BM25 (default chunker)': half(0.7692, 1, 0.2812), 'preset, BM25 only (docChat)': half(0.8077, 0.9615, 0.5012), expansion: { rows } } };
  const row = renderSummary([r], [['doc chat', 'docchat', 'quality:docchat']]).split('\n')[4];
  assert.equal(row, '| doc chat | hit@1 0.808, hit@5 0.962, token F1 0.501 (passages and not-found score 0); no answer on 5/8 unanswerable, on 4/26 answerable | own-words set, paraphrased (17): hit@5 0.647 |  | hit@1 ≥ 0.80 ✔, hit@5 ≥ 0.97 ✘, F1 ≥ 0.50 ✔ |');
  assert.throws(() => renderSummary([{ ...r, results: {} }], [['doc chat', 'docchat', 'quality:docchat']]), /lacks the reporting half/);
  // the neural tier's own-words reporting half, when the run had a real encoder
  const withNeural = { ...r, results: { ...r.results, 'outcomes: USE lite': { 'own-words reporting': { hit5: 0.871, paraphrasedHit5: 0.7647 } } } };
  assert.match(renderSummary([withNeural], [['doc chat', 'docchat', 'quality:docchat']]).split('\n')[4],
    /\| own-words set, paraphrased \(17\): hit@5 0\.647; neural tier \(USE lite\): hit@5 0\.871, paraphrased 0\.765 \|/);
});

test('the committed summary has at most 20 lines and every row of SUMMARY', () => {
  const text = renderSummary(readResults(join(repoRoot, 'docs', 'bench')));
  const lines = text.split('\n');
  assert.ok(lines.length <= 20, `${lines.length} lines`);
  assert.equal(lines.filter((l) => l.startsWith('| ') && !l.startsWith('| what') && !l.startsWith('| ---')).length, SUMMARY.length);
});

test('docs/performance.md: every headline row, then each suite\'s tables with its run', () => {
  const t = { title: 'T', columns: ['a', 'b'], rows: [['x', 1.23456], ['y', 1234.5678]] };
  const text = renderPerformance([run({ tables: [t] })]);
  assert.match(text, /^## Every headline row\n\n\| what /);
  assert.match(text, /## `bm25`\n\n`npm run bench -- bm25`: 2026-11-27 23:50 UTC, load 1\.02→1\.5; /);
  assert.match(text, /### T\n\n\| a \| b \|\n\| --- \| --- \|\n\| x \| 1\.23 \|\n\| y \| 1234\.6 \|/);
});

test('the README sentence on doc chat\'s first visit: bytes and requests of the first run, the median first answer', () => {
  const runs = [1200.4, 900, 1000.6].map((ms) => ({ loadToFirstAnswerMs: ms, bytesAtSample: 2041229, requestsAtSample: 21,
    bytesByType: { wasm: 1486579, js: 367973, json: 164716, css: 12243 } }));
  const text = renderDemoBytes([{ suite: 'coldstart', machine: { ...run().machine, cores: 2 }, results: { coldstart: { runs } } }]);
  assert.equal(text, 'On a first visit doc chat fetches 2.04 MB in 21 requests until the sample corpus is answerable ' +
    '(WASM 1,487 kB, JS 368 kB, sample corpus 165 kB; uncompressed); page load → first answer 1,001 ms, clicks and typing ' +
    'not counted (median of 3, `npm run bench -- coldstart`, 2 cores at 1-min load 1.02).');
  assert.doesNotMatch(text, /2026|UTC/);  // the README has no times of day
  assert.throws(() => renderDemoBytes([]), /coldstart\.json/);
});

test('README.md summary and docs/performance.md equal the rendering of docs/bench/*.json', () => {
  const r = spawnSync(process.execPath, [join(repoRoot, 'scripts/speed-table.mjs'), '--check'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});
