// Issue 32 items 2-4: the report pivots by the grid's factors (small multiples with CI bands and
// labelled axes, readable at 50+ cells, no script from the data runs in Chromium); CIs for every mean,
// accuracy and ANLS among the paired measures, Holm correction beside the raw p; LLM cost and latency
// per cell from that cell's own calls, independent of cell order, cache hits counted apart.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { init, RagwasmError } from '../../../web/src/index.js';
import { ResponseCache } from '../../../web/src/llm.js';
import { experimentMarkdown, experimentReportHtml, parseExperimentGrid, runExperiment, summarizeExperiment } from '../../../web/src/eval.js';
import { holmAdjust } from '../../../web/src/experiment/stats.js';
import { main } from '../../../web/cli/ragwasm.mjs';
import { captureIo } from '../helpers.mjs';
import { openaiJson, ProtocolTestDouble } from '../llm-protocol-double.mjs';

let double;
before(async () => { await init(); double = await ProtocolTestDouble.start(); });
after(async () => { await double.close(); });

test('#32 Holm adjusted p-values equal the hand-computed step-down values', () => {
  // sorted 0.01, 0.03, 0.04 (m = 3): 3 x 0.01 = 0.03; 2 x 0.03 = 0.06; max(0.06, 1 x 0.04) = 0.06
  const a = holmAdjust([0.01, 0.04, 0.03]);
  [0.03, 0.06, 0.06].forEach((v, i) => assert.ok(Math.abs(a[i] - v) < 1e-12, `${a[i]} vs ${v}`));
  // sorted 0.001, 0.02, 0.02, 0.5 (m = 4): 4 x 0.001 = 0.004; 3 x 0.02 = 0.06; max(0.06, 2 x 0.02) = 0.06; max(0.06, 0.5) = 0.5
  const b = holmAdjust([0.02, 0.5, 0.001, 0.02]);
  [0.06, 0.5, 0.004, 0.06].forEach((v, i) => assert.ok(Math.abs(b[i] - v) < 1e-12, `${b[i]} vs ${v}`));
  // capped at 1: 2 x 0.6 = 1.2 -> 1; max(1, 0.7) = 1
  assert.deepEqual(holmAdjust([0.6, 0.7]), [1, 1]);
  // a p that is not a number stays null and is not counted in m (m = 1: 0.01 unchanged)
  assert.deepEqual(holmAdjust([null, 0.01]), [null, 0.01]);
  assert.deepEqual(holmAdjust([]), []);
});

// A synthetic run (records as runExperiment writes them) over the study's grid: 3 chunkers x 2 contexts x
// 5 k x 2 generators = 60 cells, 12 questions each; hostile text in labels, model names, questions and answers.
const HOSTILE_LABEL = '<script>window.__pwned=1</script>';
const HOSTILE_MODEL = '<img src=x onerror="window.__pwned=2">';
function studyRun() {
  const cells = [];
  const chunkers = ['recursive', 'markdown-header', 'sentence'];
  const contexts = ['none', HOSTILE_LABEL];
  const ks = [0, 1, 3, 5, 10];
  let n = 0;
  for (const ch of chunkers) for (const cx of contexts) for (const k of ks) for (const model of ['gen-a', HOSTILE_MODEL]) {
    const name = `chunker.strategy=${ch}, chunker.context=${cx}, retrieval.k=${k} | ${model}`;
    const records = [];
    for (let q = 0; q < 12; q++) {
      // deterministic scores that rise with k and with context
      const base = Math.min(1, 0.2 + 0.05 * Math.min(k, 5) + (cx === 'none' ? 0 : 0.1) + ((q * 7 + n) % 5) / 20);
      const correct = (q + n) % 3 === 0 ? 0 : 1;
      records.push({ cellId: `id${n}`, cell: name, k, questionId: `q${q}`, question: q === 0 ? '</script><script>window.__pwned=3</script>' : `question ${q}`,
        answerable: true, reference: 'ref', answer: { text: q === 1 ? '<svg onload="window.__pwned=4">' : 'answer', abstained: false },
        retrieval: k === 0 ? { refRank: null, chunks: [] } : { refRank: 1, chunks: [], recall: { [k]: base }, precision: { [k]: base / 2 }, rr: base, curve: [base] },
        scores: { f1: base, em: correct, anls: base * 0.9, rougeL: base, abstainedCorrectly: null, correctness: base * 100, correct },
        latencyMs: { retrieve: 1, answer: 2, judge: 1, total: 4 }, llm: { calls: 2, cachedCalls: 0, retries: 0, cost: 0.001, fromCalls: { calls: 2, cachedCalls: 0, cost: 0.001, latencyMs: 30 } } });
    }
    cells.push({ name, id: `id${n}`, kind: 'pipeline', answerer: 'llm', model, prompt: null, k, status: 'ok', error: null,
      settings: { 'chunker.strategy': ch, 'chunker.context': cx, 'retrieval.k': String(k) }, records });
    n++;
  }
  const pairs = cells.filter((c) => c.settings['chunker.context'] !== 'none').map((c) => ({ cell: c.name, baseline: c.name.replace(`chunker.context=${HOSTILE_LABEL}`, 'chunker.context=none') }));
  return { cells, pairs, evaluation: { samples: 200, trials: 200, seed: 7 } };
}

test('#32 every mean has a CI (ANLS included); accuracy and ANLS are paired measures; p raw and Holm-corrected', () => {
  const run = studyRun();
  const s = summarizeExperiment(run);
  const a = s.cells[3].answers;
  for (const key of ['f1', 'em', 'anls', 'rougeL', 'correctness', 'accuracy']) {
    assert.ok(a[key] && typeof a[key].low === 'number' && a[key].low <= a[key].mean && a[key].mean <= a[key].high, `${key} has a CI`);
  }
  const measures = new Set(s.comparisons.map((c) => c.measure));
  for (const m of ['f1', 'anls', 'correctness', 'accuracy', 'recall@k']) assert.ok(measures.has(m), `paired measure ${m}`);
  const holm = holmAdjust(s.comparisons.map((c) => c.pValue));
  s.comparisons.forEach((c, i) => {
    assert.equal(c.pHolm, holm[i]);
    assert.equal(c.tests, s.comparisons.length);
    assert.ok(c.pHolm >= c.pValue);
  });
  const md = experimentMarkdown(s);
  assert.match(md, new RegExp(`\\| p \\(raw\\) \\| p \\(Holm, ${s.comparisons.length} tests\\) \\|`));
  assert.match(md, /\| ANLS \[95% CI\] \|/);
});

test('#32 the report pivots 60 cells into small multiples with CI bands and labelled axes; Chromium renders it and runs no script from the data', async (t) => {
  const run = studyRun();
  const s = summarizeExperiment(run);
  const records = run.cells.flatMap((c) => c.records);
  assert.throws(() => experimentReportHtml(s, records, { pivot: { x: 'temperature' } }), (e) => e instanceof RagwasmError && /report\.x: "temperature" is not a factor of this grid/.test(e.message));
  const html = experimentReportHtml(s, records, { title: '<svg onload="window.__pwned=5">', pivot: { x: 'k', series: ['strategy', 'context'], panels: ['model'] } });
  // 5 measures x 2 panels (one per generator), 6 series (3 chunkers x 2 contexts) per panel
  const sections = html.match(/<section class="pivot" data-measure="[^"]+"/g);
  assert.deepEqual(sections.map((x) => x.match(/data-measure="([^"]+)"/)[1]), ['accuracy', 'correctness', 'f1', 'anls', 'recall@k']);
  assert.equal((html.match(/<svg class="panel"/g) ?? []).length, 10);
  assert.ok((html.match(/<polygon class="band"/g) ?? []).length >= 5 * 2 * 6 - 12);  // recall@k: k 0 has none
  assert.match(html, /class="axis">k<\/text>/);
  assert.match(html, /class="axis">accuracy<\/text>/);
  assert.ok(html.indexOf('Results by factor') < html.indexOf('<h2>Tables</h2>'), 'charts first, the long tables below');
  assert.equal((html.match(/<script/gi) ?? []).length, 1, 'only the report\'s own script');
  assert.ok(!html.includes(HOSTILE_LABEL) && !html.includes(HOSTILE_MODEL) && !html.includes('<svg onload'));
  assert.match(html, /&lt;script&gt;window.__pwned=1&lt;\/script&gt;/);
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-report-'));
  writeFileSync(join(dir, 'report.html'), html);
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch {
    t.skip('playwright-core is not installed');
    return;
  }
  if (!existsSync('/usr/bin/chromium')) { t.skip('no /usr/bin/chromium'); return; }
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests = [];
    const errors = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`file://${join(dir, 'report.html')}`);
    const r = await page.evaluate(() => ({
      pwned: window.__pwned ?? null,
      panels: document.querySelectorAll('section.pivot svg.panel').length,
      lines: document.querySelectorAll('section[data-measure="accuracy"] polyline.series').length,
      // the first panel is laid out at its size and its lines have a length
      box: (() => { const b = document.querySelector('svg.panel').getBoundingClientRect(); return [b.width, b.height]; })(),
      length: document.querySelector('polyline.series').getTotalLength(),
      title: document.title,
    }));
    assert.equal(r.pwned, null, 'no script from the data ran');
    assert.equal(r.panels, 10);
    assert.equal(r.lines, 2 * 6);
    assert.deepEqual(r.box, [302, 222]);  // 300 x 220 and its 1px border
    assert.ok(r.length > 100);
    assert.equal(r.title, '<svg onload="window.__pwned=5">');
    assert.deepEqual(requests.filter((u) => !u.startsWith('file://')), []);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test('#32 a grid names the pivot in its report section; an unknown factor is refused with its path', () => {
  const base = { chunker: { strategy: 'recursive', chunkSize: 400 }, indexes: { bm25: {} }, retrieval: { k: 1 }, answerer: { type: 'extractive' } };
  const g = parseExperimentGrid({ base, vary: { 'chunker.chunkSize': [200, 400], 'retrieval.k': [1, 3] }, report: { x: 'k', series: ['chunkSize'] } });
  assert.deepEqual(g.report, { x: 'k', series: ['chunkSize'] });
  assert.throws(() => parseExperimentGrid({ base, vary: { 'retrieval.k': [1, 3] }, report: { x: 'k', panels: ['model'] } }),
    (e) => e.code === 'INVALID_ARGUMENT' && /report\.panels\[0\]: "model" is not a factor of this grid/.test(e.message));
  assert.throws(() => parseExperimentGrid({ base, vary: { 'retrieval.k': [1, 3] }, report: { x: 'k', series: ['k'] } }), /factor "retrieval.k" has two roles/);
  assert.throws(() => parseExperimentGrid({ base, report: { y: 'k' } }), /report\.y: unknown key/);
});

// Cost and latency from each cell's own calls, in two cell orders.
const DOCS = [
  { id: 'leave', title: 'Leave', text: '# Leave\n\n## PTO\n\nFull-time employees receive 22 days of PTO per year.\n\n## Sick\n\nSick leave is 10 days per year.\n' },
  { id: 'travel', title: 'Travel', text: '# Travel\n\n## Meals\n\nThe domestic meal per diem is 72 dollars per day.\n' },
];
const QUESTIONS = [
  { id: 'q1', question: 'How many days of PTO do full-time employees receive?', answer: '22 days per year', doc_ids: ['leave'], evidence: ['Full-time employees receive 22 days of PTO per year.'] },
  { id: 'q2', question: 'What is the domestic meal per diem?', answer: '72 dollars per day', doc_ids: ['travel'], evidence: ['The domestic meal per diem is 72 dollars per day.'] },
  { id: 'q3', question: 'How long is sick leave?', answer: '10 days per year', doc_ids: ['leave'], evidence: ['Sick leave is 10 days per year.'] },
];
const endpoint = (model) => ({ provider: 'openai', baseUrl: `${double.origin}/v1`, model, price: { inputPerMTok: 1, outputPerMTok: 2 }, maxRetries: 0 });
// The same answer text in every cell, so the two cells' judge requests are identical (the second cell's are cache hits).
const script = (req) => ({ delayMs: 3, json: openaiJson(/Reference answer:/.test(req.raw) ? 'Correctness: 80%' : 'Scripted answer [1].', { prompt_tokens: req.raw.length, completion_tokens: 5 }) });

test('#32 LLM cost and latency per cell come from its own calls: the same in either cell order; cache hits counted apart', async () => {
  const cell = (k) => ({ name: `k${k}`, config: { retrieval: { k }, answerer: { type: 'llm', chunks: k } } });
  const grid = (order) => ({ base: { chunker: { strategy: 'markdown-header', chunkSize: 400 }, indexes: { bm25: {} } }, cells: order.map(cell),
    answer: { models: [endpoint('gen')], judge: endpoint('judge') } });
  const dataset = { documents: DOCS, questions: QUESTIONS };
  double.reset();
  double.always(script);
  const cacheAB = new ResponseCache();
  const ab = await runExperiment(grid([1, 3]), dataset, { cache: cacheAB });
  double.reset();
  double.always(script);
  const ba = await runExperiment(grid([3, 1]), dataset, { cache: new ResponseCache() });
  const by = (r) => Object.fromEntries(r.cells.map((c) => [c.name, c.llm.fromCalls]));
  const [x, y] = [by(ab), by(ba)];
  for (const name of ['k1', 'k3']) {
    assert.equal(x[name].calls, 2 * QUESTIONS.length, `${name}: one answer and one judge call per question`);
    assert.equal(x[name].calls, y[name].calls);
    assert.ok(x[name].cost > 0);
    assert.ok(Math.abs(x[name].cost - y[name].cost) < 1e-15, `${name} cost ${x[name].cost} vs ${y[name].cost}`);
  }
  // The cell that runs second finds the first one's judge replies in the cache: counted apart, not in its cost.
  assert.equal(x.k1.cachedCalls, 0);
  assert.equal(x.k3.cachedCalls, QUESTIONS.length);
  assert.equal(y.k3.cachedCalls, 0);
  assert.equal(y.k1.cachedCalls, QUESTIONS.length);
  // What was spent does depend on the order (the old figure); the calls' cost does not.
  assert.ok(ab.cells[1].llm.cost < x.k3.cost);
  // Latency from calls: a cache hit carries the latency of the call that was sent. The order B, A over the first
  // run's cache (every call a hit) gives every cell the same latency and cost figures as the first run.
  double.reset();
  const again = by(await runExperiment(grid([3, 1]), dataset, { cache: cacheAB }));
  assert.equal(double.requests.length, 0);
  for (const name of ['k1', 'k3']) {
    assert.deepEqual(again[name].latencyMs, x[name].latencyMs);
    assert.ok(x[name].latencyMs.p50 >= 3, 'each question waited for its calls (the double delays 3 ms)');
    assert.equal(again[name].cost, x[name].cost);
    assert.equal(again[name].cachedCalls, 2 * QUESTIONS.length);
  }
  const md = experimentMarkdown(ab);
  assert.match(md, /### LLM calls of each cell \(its own calls/);
  assert.match(md, new RegExp(`\\| k3 \\| ${2 * QUESTIONS.length} \\| ${QUESTIONS.length} \\|`));
});

test('#32 the CLI takes --x/--series/--panels for the report and refuses a factor the grid does not have', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-pivot-'));
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(DOCS.map((d) => ({ id: d.id, file: `${d.id}.md`, title: d.title }))));
  for (const d of DOCS) writeFileSync(join(dir, `${d.id}.md`), d.text);
  writeFileSync(join(dir, 'questions.jsonl'), QUESTIONS.map((q) => JSON.stringify(q)).join('\n') + '\n');
  const gridFile = join(dir, 'grid.json');
  writeFileSync(gridFile, JSON.stringify({ base: { chunker: { strategy: 'recursive', chunkSize: 400 }, indexes: { bm25: {} }, answerer: { type: 'extractive' } },
    vary: { 'chunker.strategy': ['recursive', 'markdown-header'], 'retrieval.k': [1, 3] } }));
  const bad = captureIo();
  assert.equal(await main(['experiment', '--grid', gridFile, '--dataset', dir, '--x', 'temperature'], bad.io), 2);
  assert.match(bad.err(), /--x: "temperature" is not a factor of this grid/);
  const cap = captureIo();
  const report = join(dir, 'r.html');
  assert.equal(await main(['experiment', '--grid', gridFile, '--dataset', dir, '--report', report, '--x', 'k', '--series', 'strategy'], cap.io), 0, cap.err());
  const html = readFileSync(report, 'utf8');
  assert.match(html, /x: <b>retrieval\.k<\/b>; one line per <b>chunker\.strategy<\/b>/);
  assert.equal((html.match(/<section class="pivot" data-measure="f1"/g) ?? []).length, 1);
});

test('#32 an LLM rerank shared by two cells counts for both; indexing calls count for every cell built on the collection', async () => {
  // Two extractive cells that differ only in answerer.threshold share one collection and one reranked search.
  const base = { chunker: { strategy: 'markdown-header', chunkSize: 400, context: { llmSummary: {} } }, indexes: { bm25: {} },
    retrieval: { k: 2, candidates: 10 }, rerank: { type: 'llm', candidates: 3, keep: 2 } };
  const grid = { base, vary: { 'answerer.threshold': [0.3, 0.5] }, answer: { reranker: endpoint('reranker'), context: endpoint('ctx') } };
  double.reset();
  double.always((req) => ({ json: openaiJson(req.body.model === 'ctx' ? 'A summary.' : 'Score: 2') }));
  const r = await runExperiment(grid, { documents: DOCS, questions: QUESTIONS }, {});
  const sent = double.requests.filter((q) => q.body.model === 'reranker').length;
  assert.ok(sent > 0);
  const [a, b] = r.cells.map((c) => c.llm);
  // Every rerank call was sent once (by the first cell) and counts for both cells.
  assert.equal(a.fromCalls.calls, sent);
  assert.equal(b.fromCalls.calls, sent);
  assert.equal(a.fromCalls.cost, b.fromCalls.cost);
  assert.equal(r.cells[1].llm.callsPerQuestion, 0);  // what the second cell itself sent
  // One summary per document, sent while the first cell built the collection; both cells are built on it.
  assert.deepEqual([a.indexFromCalls.calls, b.indexFromCalls.calls], [DOCS.length, DOCS.length]);
  assert.equal(r.cost.indexing, a.indexFromCalls.cost);  // the study total counts the build once
});
