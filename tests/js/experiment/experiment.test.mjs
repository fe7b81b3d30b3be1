// The experiment runner (issue 16): grid errors name the JSON path; the dry run counts LLM calls and
// sends nothing; a killed run resumes without repeating an answered LLM call; a 429/5xx storm on one
// endpoint fails its cells after the client's retries while the other cells complete; the HTML report
// is self-contained and names every cell. LLM endpoints are the ProtocolTestDouble on 127.0.0.1
// (scripted replies: the numbers it produces say nothing about any model).
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Collection, init, parsePipelineConfig, RagwasmError } from '../../../web/src/index.js';
import { experimentReportHtml, parseExperimentGrid, planExperiment, runExperiment } from '../../../web/src/eval.js';
import { main } from '../../../web/cli/ragwasm.mjs';
import { captureIo, repoRoot, requireStaticModel } from '../helpers.mjs';
import { openaiJson, ProtocolTestDouble, triadScript as scriptedTriad } from '../llm-protocol-double.mjs';

let double;
before(async () => { await init(); double = await ProtocolTestDouble.start(); });
after(async () => { await double.close(); });

// A small dataset folder in the examples/corpus layout: 3 documents, 4 answerable + 1 unanswerable.
const DOCS = [
  { id: 'leave', title: 'Leave Policy', text: '# Leave Policy\n\n## Paid time off\n\nFull-time employees receive 22 days of PTO per year.\n\n## Sick leave\n\nSick leave is 10 days per year and does not roll over. Forms are at https://intranet.example/leave.\n' },
  { id: 'travel', title: 'Travel Policy', text: '# Travel Policy\n\n## Meals\n\nThe domestic meal per diem is 72 dollars per day.\n\n## Hotels\n\nThe nightly hotel cap is 210 dollars in standard locations.\n' },
  { id: 'security', title: 'Security Handbook', text: '# Security Handbook\n\n## Passwords\n\nPasswords must have at least 14 characters.\n\n## Laptops\n\nLaptops lock after 5 minutes without input.\n' },
];
const QUESTIONS = [
  { id: 'q1', question: 'How many days of PTO do full-time employees receive?', answer: '22 days per year', doc_ids: ['leave'], evidence: ['Full-time employees receive 22 days of PTO per year.'], answerable: true },
  { id: 'q2', question: 'What is the domestic meal per diem?', answer: '72 dollars per day', doc_ids: ['travel'], evidence: ['The domestic meal per diem is 72 dollars per day.'], answerable: true },
  { id: 'q3', question: 'How long must passwords be?', answer: 'at least 14 characters', doc_ids: ['security'], evidence: ['Passwords must have at least 14 characters.'], answerable: true },
  { id: 'q4', question: 'What is the nightly hotel cap in standard locations?', answer: '210 dollars', doc_ids: ['travel'], evidence: ['The nightly hotel cap is 210 dollars in standard locations.'], answerable: true },
  { id: 'q5', question: 'What is the parental leave allowance in Japan?', answer: null, doc_ids: [], evidence: [], answerable: false },
];
function datasetDir() {
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-experiment-'));
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(DOCS.map((d) => ({ id: d.id, file: `${d.id}.md`, title: d.title }))));
  for (const d of DOCS) writeFileSync(join(dir, `${d.id}.md`), d.text);
  writeFileSync(join(dir, 'questions.jsonl'), QUESTIONS.map((q) => JSON.stringify(q)).join('\n') + '\n');
  return dir;
}
const dataset = { documents: DOCS, questions: QUESTIONS };
const ANSWERABLE = QUESTIONS.filter((q) => q.answerable).length;

const endpoint = (model, extra = {}) => ({ provider: 'openai', baseUrl: `${double.origin}/v1`, model, price: { inputPerMTok: 1, outputPerMTok: 2 },
  maxRetries: 2, retryBaseMs: 1, retryMaxMs: 5, ...extra });
const scripted = (req) => ({ json: openaiJson(/Reference answer:/.test(req.raw) ? '[scripted] Correctness: 80%' : '[scripted] 22 days per year [1].') });
const BASE = { chunker: { strategy: 'markdown-header', chunkSize: 400 }, indexes: { bm25: { fields: { text: 1 } } }, retrieval: { k: 3 } };

function llmGrid(extra = {}) {
  return {
    base: { ...BASE, answerer: { type: 'llm' } },
    vary: { 'retrieval.k': [1, 3] },
    answer: { models: [endpoint('model-a'), endpoint('model-b')], judge: endpoint('judge') },
    ...extra,
  };
}

function expectPathError(grid, message) {
  assert.throws(() => parseExperimentGrid(grid), (e) => {
    assert.ok(e instanceof RagwasmError, String(e));
    assert.equal(e.code, 'INVALID_ARGUMENT');
    assert.equal(e.message, `ragwasm: ${message}`);
    return true;
  });
}

test('#16 grid errors name the JSON path inside the grid', () => {
  expectPathError({ base: BASE, vary: { 'chunker.chunkSize': [200, 400, -5] } }, 'vary["chunker.chunkSize"][2]: expected an integer in [1, 100000000], got -5');
  expectPathError({ base: BASE, vary: { 'retrieval.k': { small: 1, huge: 'ten' } } }, 'vary["retrieval.k"]["huge"]: expected an integer in [0, 100000], got "ten"');
  expectPathError({ base: BASE, vary: { 'chunker.context': [null, { template: 7 }] } }, 'vary["chunker.context"][1]: chunker.context.template: expected a string, got 7');
  expectPathError({ base: BASE, vary: { 'retrieval.k': [] } }, 'vary["retrieval.k"]: expected at least one value, got none');
  expectPathError({ base: BASE, vray: {} }, 'vray: unknown key (known: base, vary, cells, baselines, answer, baseline, evaluation, report)');
  expectPathError({ base: { ...BASE, answerer: { type: 'llm' } }, answer: { models: [{ model: 'm' }] } }, 'answer.models[0].baseUrl: expected a non-empty string, got undefined');
  expectPathError({ base: BASE, answer: { models: [endpoint('m', { price: { inputPerMTok: -1, outputPerMTok: 0 } })] } }, 'answer.models[0].price.inputPerMTok: expected a number >= 0, got -1');
  expectPathError({ base: BASE, vary: { 'retrieval.k': [1, 2] }, baseline: 'k=1' }, 'baseline: expected the name of a cell ("retrieval.k=1", "retrieval.k=2") or {path, label}, got "k=1"');
  expectPathError({ base: BASE, vary: { 'retrieval.k': [1, 2] }, baseline: { path: 'retrieval.k', label: '3' } }, 'baseline.label: expected a label of vary["retrieval.k"] ("1", "2"), got "3"');
  expectPathError({ base: BASE, vary: { 'retrieval.k': [1, 2] }, baseline: { path: 'chunker.context', label: 'none' } }, 'baseline.path: expected a path of vary ("retrieval.k"), got "chunker.context"');
  expectPathError({ base: BASE, baselines: ['oracle', 'closed-book'] }, 'baselines[1]: expected one of "no-retrieval", "oracle", got "closed-book"');
  expectPathError({ base: BASE, cells: [{ name: 'a' }, { name: 'a' }] }, 'cells[1].name: "a" is used by an earlier cell');
  // A path the pipeline config does not know: the config's own message after the grid path.
  assert.throws(() => parseExperimentGrid({ base: BASE, vary: { 'chunking.size': [5] } }), /ragwasm: vary\["chunking.size"\]\[0\]: chunking: unknown key/);
  // The product, baselines and per-model cells.
  const g = parseExperimentGrid(llmGrid({ baselines: ['no-retrieval', 'oracle'], baseline: 'retrieval.k=3 | model-a' }));
  assert.deepEqual(g.cells.map((c) => c.name), ['retrieval.k=1 | model-a', 'retrieval.k=1 | model-b', 'retrieval.k=3 | model-a', 'retrieval.k=3 | model-b',
    'no retrieval (k 0) | model-a', 'no retrieval (k 0) | model-b', 'oracle context | model-a', 'oracle context | model-b']);
  assert.equal(g.cells[4].config.retrieval.k, 0);
  assert.equal(g.cells[6].kind, 'oracle');
  // {path, label}: each cell against its twin with that label (same model), baselines excluded.
  const byPath = parseExperimentGrid(llmGrid({ vary: { 'retrieval.k': [1, 3], 'chunker.chunkSize': [300, 400] }, baseline: { path: 'retrieval.k', label: '3' } }));
  assert.deepEqual(byPath.pairs, [
    { cell: 'retrieval.k=1, chunker.chunkSize=300 | model-a', baseline: 'retrieval.k=3, chunker.chunkSize=300 | model-a' },
    { cell: 'retrieval.k=1, chunker.chunkSize=300 | model-b', baseline: 'retrieval.k=3, chunker.chunkSize=300 | model-b' },
    { cell: 'retrieval.k=1, chunker.chunkSize=400 | model-a', baseline: 'retrieval.k=3, chunker.chunkSize=400 | model-a' },
    { cell: 'retrieval.k=1, chunker.chunkSize=400 | model-b', baseline: 'retrieval.k=3, chunker.chunkSize=400 | model-b' }]);
});

test('#16 the pipeline config takes retrieval.k 0 and an answerer; a k-0 Collection retrieves nothing', async () => {
  const c = parsePipelineConfig({ ...BASE, retrieval: { k: 0 }, answerer: { type: 'none' } });
  assert.equal(c.retrieval.k, 0);
  assert.equal(c.answerer.type, 'none');
  assert.equal(parsePipelineConfig({}).answerer.type, 'extractive');
  assert.throws(() => parsePipelineConfig({ answerer: { type: 'generative' } }), /answerer.type: expected one of "extractive", "llm", "none", got "generative"/);
  const col = await Collection.create({ ...BASE, retrieval: { k: 0 } });
  await col.add(DOCS);
  assert.deepEqual(await col.search('PTO days'), []);
  assert.equal((await col.search('PTO days', { k: 1 })).length, 1);  // an explicit k still searches
  col.dispose();
});

test('#16 a dry run counts the LLM calls and estimates the cost without sending anything', async () => {
  double.reset();
  double.always(scripted);
  const grid = llmGrid({ baselines: ['no-retrieval'] });
  const plan = await planExperiment(grid, dataset);
  // 6 LLM cells (2 k x 2 models + 2 no-retrieval) x (5 answers + 4 judged answerable questions).
  assert.equal(plan.cells.length, 6);
  assert.equal(plan.llmCalls, 6 * (QUESTIONS.length + ANSWERABLE));
  assert.ok(plan.estimatedCost > 0);
  const dir = datasetDir();
  const gridFile = join(dir, 'grid.json');
  writeFileSync(gridFile, JSON.stringify(grid));
  const cap = captureIo();
  const code = await main(['experiment', '--grid', gridFile, '--dataset', dir, '--dry-run'], cap.io);
  assert.equal(code, 0, cap.err());
  assert.match(cap.out(), new RegExp(`LLM calls to make: ${6 * (QUESTIONS.length + ANSWERABLE)}\\b`));
  assert.match(cap.out(), /estimated cost: \d+\.\d{6}/);
  assert.equal(double.requests.length, 0);
  // An extractive grid with a judge: judge calls only.
  const ext = await planExperiment({ base: BASE, vary: { 'retrieval.k': [1, 3] }, answer: { judge: endpoint('judge') } }, dataset);
  assert.equal(ext.llmCalls, 2 * ANSWERABLE);
});

test('#16 resumption skips the questions already in the results (no cache)', async () => {
  double.reset();
  double.always(scripted);
  const grid = llmGrid();
  const first = [];
  await runExperiment(grid, dataset, { limit: 2, onRecord: (r) => { first.push(r); } });
  const sentFirst = double.requests.length;
  assert.equal(first.length, 4 * 2);
  assert.equal(sentFirst, 4 * 2 + 4 * 2);  // answer + judge per record
  double.reset();
  double.always(scripted);
  const second = [];
  const r = await runExperiment(grid, dataset, { done: first, onRecord: (x) => { second.push(x); } });
  assert.equal(second.length, 4 * (QUESTIONS.length - 2));
  assert.equal(double.requests.length, 4 * (QUESTIONS.length - 2) + 4 * (ANSWERABLE - 2));
  assert.ok(second.every((x) => !['q1', 'q2'].includes(x.questionId)));
  assert.deepEqual(r.cells.map((c) => c.questions), [5, 5, 5, 5]);
});

test('#16 a killed CLI run resumes without repeating an answered LLM call', async () => {
  double.reset();
  // The first 7 requests are answered; the 8th hangs, and the process is killed while it waits.
  let n = 0;
  const answered = new Set();
  double.always((req) => {
    n++;
    if (n >= 8) return { hang: true };
    answered.add(req.raw);
    return scripted(req);
  });
  const dir = datasetDir();
  const gridFile = join(dir, 'grid.json');
  writeFileSync(gridFile, JSON.stringify(llmGrid({ answer: { models: [endpoint('model-a', { timeoutMs: 60000 })], judge: endpoint('judge', { timeoutMs: 60000 }) } })));
  const out = join(dir, 'results.jsonl');
  const child = spawn(process.execPath, [join(repoRoot, 'web/cli/ragwasm.mjs'), 'experiment', '--grid', gridFile, '--dataset', dir, '--out', out],
    { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const deadline = Date.now() + 60000;
  while (double.requests.length < 8 && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 20));
  assert.equal(double.requests.length, 8, `the child stopped early: ${stderr}`);
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
  const before = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.ok(before.length >= 1 && before.length < 2 * QUESTIONS.length, `records before the kill: ${before.length}`);

  double.reset();
  double.always(scripted);
  const cap = captureIo();
  const code = await main(['experiment', '--grid', gridFile, '--dataset', dir, '--out', out], cap.io);
  assert.equal(code, 0, cap.err());
  assert.match(cap.err(), new RegExp(`resuming: ${before.length} records`));
  const repeated = double.requests.filter((r) => answered.has(r.raw));
  assert.equal(repeated.length, 0, 'a request answered before the kill was sent again');
  const all = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(all.length, 2 * QUESTIONS.length);
  assert.equal(new Set(all.map((r) => `${r.cellId} ${r.questionId}`)).size, all.length, 'a question was recorded twice');
});

test('#16 a 429/5xx storm on one endpoint fails its cells after retries; the other cells complete', async () => {
  double.reset();
  double.always((req) => {
    if (req.body?.model === 'model-a') return { status: 429, json: { error: { message: 'rate limited' } } };
    if (req.body?.model === 'model-c') return { status: 503, json: { error: { message: 'overloaded' } } };
    return scripted(req);
  });
  const grid = llmGrid({ answer: { models: [endpoint('model-a'), endpoint('model-b'), endpoint('model-c')] } });
  const r = await runExperiment(grid, dataset);
  const byName = new Map(r.cells.map((c) => [c.name, c]));
  for (const k of [1, 3]) {
    assert.equal(byName.get(`retrieval.k=${k} | model-a`).status, 'failed');
    assert.match(byName.get(`retrieval.k=${k} | model-a`).error, /429/);
    assert.equal(byName.get(`retrieval.k=${k} | model-c`).status, 'failed');
    assert.match(byName.get(`retrieval.k=${k} | model-c`).error, /503/);
    const ok = byName.get(`retrieval.k=${k} | model-b`);
    assert.equal(ok.status, 'ok');
    assert.equal(ok.questions, QUESTIONS.length);
  }
  // Each failing cell tried its first question 1 + maxRetries (2) times, then stopped.
  assert.equal(double.requests.filter((q) => q.body?.model === 'model-a').length, 2 * 3);
  assert.equal(double.requests.filter((q) => q.body?.model === 'model-c').length, 2 * 3);
});

test('#16 the budget stops before spending more; the HTML report is self-contained and names every cell', async () => {
  double.reset();
  double.always(scripted);
  const grid = llmGrid({ baselines: ['no-retrieval', 'oracle'], baseline: 'retrieval.k=3 | model-a' });
  const stopped = await runExperiment(grid, dataset, { budget: 0.0001 });
  assert.equal(stopped.stopped?.reason, 'budget');
  assert.ok(stopped.spent <= 0.0001);
  assert.equal(double.requests.length, 0);  // the first question's estimate is above the budget already
  assert.deepEqual([...new Set(stopped.cells.map((c) => c.status))], ['stopped', 'not run']);
  double.reset();
  double.always(scripted);
  const records = [];
  const r = await runExperiment(grid, dataset, { onRecord: (x) => { records.push(x); } });
  assert.equal(r.stopped, null);
  // The oracle cell puts a reference document first for every answerable question.
  const oracle = r.cells.find((c) => c.name === 'oracle context | model-a');
  assert.equal(oracle.referenceRank.p50, 1);
  assert.equal(oracle.referenceRank.found, ANSWERABLE);
  // Judged by the script: 80 for every answerable question, so the CI collapses on 80.
  assert.equal(oracle.answers.correctness.mean, 80);
  assert.ok(r.comparisons.some((c) => c.cell === 'retrieval.k=1 | model-a' && c.measure === 'recall@k'));
  const html = experimentReportHtml(r, records, { title: 'test <grid>' });
  assert.doesNotMatch(html, /https?:\/\//);  // a URL of the data is written as text with an escaped colon
  assert.match(html, /https&#58;\/\/intranet.example\/leave/);
  assert.doesNotMatch(html, /<(link|img|iframe)\b|<script\s+src/i);
  assert.match(html, /<title>test &lt;grid&gt;<\/title>/);
  for (const c of r.cells) assert.ok(html.includes(c.name.replace(/&/g, '&amp;')), `the report misses cell ${c.name}`);
  assert.match(html, /<polyline/);  // recall-vs-cutoff curves
  for (const q of QUESTIONS) assert.ok(html.includes(`<b>${q.id}</b>`), `the drill-down misses ${q.id}`);
});

test('#16 the CLI writes results, markdown tables and the report for the extractive answerer', async () => {
  const dir = datasetDir();
  const gridFile = join(dir, 'grid.json');
  writeFileSync(gridFile, JSON.stringify({ base: BASE, vary: { 'chunker.context': { none: null, 'title+path': { template: '{title}', headerPath: true } }, 'retrieval.k': [1, 3] },
    baselines: ['oracle'], baseline: { path: 'chunker.context', label: 'none' } }));
  const cap = captureIo();
  const out = join(dir, 'r.jsonl');
  const report = join(dir, 'r.html');
  const code = await main(['experiment', '--grid', gridFile, '--dataset', dir, '--out', out, '--report', report], cap.io);
  assert.equal(code, 0, cap.err());
  assert.match(cap.out(), /### retrieval/);
  assert.match(cap.out(), /\| chunker.context=title\+path, retrieval.k=3 \| 3 \| 4 \|/);
  assert.match(cap.out(), /### paired comparison against each cell's baseline \(chunker.context=none\)/);
  assert.match(cap.out(), /\| chunker.context=title\+path, retrieval.k=3 \| chunker.context=none, retrieval.k=3 \| recall@k \| 4 \|/);
  assert.equal(readFileSync(out, 'utf8').trim().split('\n').length, 5 * QUESTIONS.length);
  assert.ok(existsSync(report));
});

test('#16 questionIds selects a subset; an unknown id is named', async () => {
  const plan = await planExperiment({ base: BASE, answer: { judge: endpoint('judge') } }, dataset, { questionIds: ['q2', 'q5'] });
  assert.equal(plan.questions, 2);
  assert.equal(plan.llmCalls, 1);  // q2 is judged, q5 is unanswerable
  await assert.rejects(planExperiment({ base: BASE }, dataset, { questionIds: ['q2', 'q9'] }), /options.questionIds\[1\]: expected the id of a dataset question, got "q9"/);
});

test('#16 the rerank section is honoured: rerank type llm goes through answer.reranker, counted per question', async () => {
  const base = { ...BASE, retrieval: { k: 2, candidates: 10 }, rerank: { type: 'llm', candidates: 4, keep: 2 } };
  expectPathError({ base }, 'answer.reranker: cell "base" enables rerank type "llm": give the reranking endpoint (same fields as a model)');
  const grid = { base, answer: { reranker: endpoint('reranker') } };
  const plan = await planExperiment(grid, dataset);
  assert.equal(plan.llmCalls, 4 * QUESTIONS.length);  // an upper bound: one call per candidate
  double.reset();
  // Scripted grades: the sick-leave section is the most relevant passage for every question.
  double.always((req) => ({ json: openaiJson(/Passage:\n[^]*Sick leave is 10 days/.test(req.raw.replace(/\\n/g, '\n')) ? 'Score: 3' : 'Score: 0') }));
  const records = [];
  await runExperiment(grid, dataset, { onRecord: (r) => { records.push(r); } });
  assert.equal(records.reduce((s, r) => s + r.llm.calls, 0), double.requests.length);
  assert.ok(records.every((r) => r.llm.calls <= 4));
  const q1 = records.find((r) => r.questionId === 'q1');
  assert.match(q1.retrieval.chunks[0].text, /Sick leave is 10 days/);  // BM25 ranks the PTO section first; the grades put this one first
  await assert.rejects(runExperiment({ base: { ...base, rerank: { type: 'cross-encoder' } } }, dataset), /options.reranker: cell "base" enables rerank type "cross-encoder"/);
});

test('#16 every chunker strategy runs from a grid, semantic and a dense leg with the default static model', async (t) => {
  requireStaticModel();
  const r = await runExperiment({ base: { ...BASE, answerer: { type: 'none' } },
    cells: [{ name: 'semantic', config: { chunker: { strategy: 'semantic', chunkSize: null, maxChunkSize: 300 } } },
      { name: 'sentence', config: { chunker: { strategy: 'sentence', chunkSize: 200 } } },
      { name: 'hybrid', config: { indexes: { bm25: { fields: { text: 1 } }, dense: {} } } }] }, dataset);
  assert.deepEqual(r.cells.map((c) => [c.name, c.status, c.questions]), [['semantic', 'ok', 5], ['sentence', 'ok', 5], ['hybrid', 'ok', 5]]);
  for (const c of r.cells) assert.ok(c.retrieval.recall[1] > 0, `${c.name}: no evidence found at rank 1`);
  assert.equal(r.cells[0].answers, null);  // answerer none: retrieval only
});

// #16 LLM context steps and the RAG triad. Judge replies are scripted by prompt: every passage grades 2 (context
// relevance 2/3), every answer 1 (answer relevance 1/3), every claim 3 (groundedness 1): the means the script implies.
const triadScript = scriptedTriad((user) => `Summary: zanzibarite ${user.includes('Leave Policy') ? 'leave' : 'other'} notes.`);

test('#16 chunker.context.llmSummary in a grid: answer.context writes it, the reply cache makes a re-run free', async () => {
  const base = { ...BASE, chunker: { ...BASE.chunker, context: { llmSummary: { maxTokens: 40 } } }, answerer: { type: 'extractive' } };
  expectPathError({ base }, 'answer.context: cell "base" sets chunker.context.llmSummary: give the endpoint that writes it (same fields as a model)');
  double.reset();
  double.always(triadScript);
  const { ResponseCache } = await import('../../../web/src/llm.js');
  const cache = new ResponseCache();
  const grid = { base, answer: { context: endpoint('ctx') } };
  const plan = await planExperiment(grid, dataset);
  assert.equal(plan.llmCalls, DOCS.length);  // one summary per document
  const first = await runExperiment(grid, dataset, { cache });
  assert.equal(double.requests.length, DOCS.length);
  assert.ok(double.requests.every((r) => r.body.max_tokens === 40));
  assert.deepEqual(first.cells[0].indexLlm, { calls: DOCS.length, cachedCalls: 0, cost: first.cells[0].indexLlm.cost });
  assert.ok(first.cells[0].indexLlm.cost > 0);
  const again = await runExperiment(grid, dataset, { cache });
  assert.equal(double.requests.length, DOCS.length);  // nothing sent again
  assert.equal(again.cells[0].indexLlm.calls, 0);
  assert.equal(again.cells[0].indexLlm.cachedCalls, DOCS.length);
  // The summary reached BM25: a word only in the scripted summaries finds chunks.
  const col = await Collection.create(base, { llm: (await import('../../../web/src/llm.js')).createLlmClient({ provider: 'openai', baseUrl: `${double.origin}/v1`, model: 'ctx', cache }) });
  await col.add(DOCS);
  assert.equal(double.requests.length, DOCS.length);
  assert.ok((await col.search('zanzibarite', { k: 3 })).length > 0);
  col.dispose();
});

test('the study cost is one number: indexing (LLM context steps) + questions (answering, judging); unknown when a call had no price', async () => {
  const base = { ...BASE, chunker: { ...BASE.chunker, context: { llmSummary: { maxTokens: 40 } } }, answerer: { type: 'llm' } };
  const unpriced = (model) => { const { price: _price, ...e } = endpoint(model); return e; };  // eslint-disable-line no-unused-vars
  const run = async (answer) => {
    double.reset();
    double.always((req) => (/document summaries/.test(req.raw) ? triadScript(req) : scripted(req)));
    const r = await runExperiment({ base, vary: { 'retrieval.k': [1, 3] }, answer }, dataset);
    return { r, md: (await import('../../../web/src/eval.js')).experimentMarkdown(r) };
  };
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  // Every endpoint priced: indexing is charged to the cell that built the shared collection, the total adds everything.
  let { r, md } = await run({ models: [endpoint('model-a')], judge: endpoint('judge'), context: endpoint('ctx') });
  assert.deepEqual(r.cells.map((c) => c.status), ['ok', 'ok']);
  const [c1, c3] = r.cells;
  assert.ok(c1.indexLlm.cost > 0 && c1.llm.cost > 0);
  assert.equal(c1.llm.indexingCost, c1.indexLlm.cost);
  assert.equal(c3.indexLlm, null, 'the second cell shares the collection');
  assert.equal(c3.llm.indexingCost, 0);
  const close = (a, b) => assert.ok(Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b)), `${a} vs ${b}`);  // float sums in another order
  close(c1.llm.totalCost, c1.indexLlm.cost + c1.llm.cost);
  close(r.cost.indexing, c1.indexLlm.cost);
  close(r.cost.questions, sum(r.cells.map((c) => c.llm.cost)));
  close(r.cost.total, r.cost.indexing + r.cost.questions);
  assert.match(md, /### LLM cost \(indexing/);
  assert.match(md, new RegExp(`\\| all cells \\(the study\\) \\| ${r.cost.indexing.toFixed(6)} \\| ${r.cost.questions.toFixed(6)} \\| ${r.cost.total.toFixed(6)} \\|`));
  // The context endpoint has no price: indexing and the total are unknown, never 0; the questions still add up.
  ({ r, md } = await run({ models: [endpoint('model-a')], judge: endpoint('judge'), context: unpriced('ctx') }));
  assert.equal(r.cells[0].indexLlm.cost, null);
  assert.equal(r.cells[0].llm.indexingCost, null);
  assert.equal(r.cells[0].llm.totalCost, null);
  assert.equal(r.cost.indexing, null);
  assert.equal(r.cost.total, null);
  assert.ok(r.cost.questions > 0);
  assert.match(md, new RegExp(`\\| all cells \\(the study\\) \\| unknown \\(no price\\) \\| ${r.cost.questions.toFixed(6)} \\| unknown \\(no price\\) \\|`));
});

test('#16 judges.triad in a grid: per-question triad scores, means with CIs in the summary and the markdown', async () => {
  double.reset();
  double.always(triadScript);
  const base = { ...BASE, answerer: { type: 'extractive' }, judges: { triad: true } };
  expectPathError({ base }, 'answer.judge: cell "base" sets judges.triad: give the judge endpoint (same fields as a model)');
  const grid = { base, answer: { judge: endpoint('judge') } };
  const records = [];
  const r = await runExperiment(grid, dataset, { onRecord: (x) => records.push(x) });
  const a = r.cells[0].answers;
  assert.ok(Math.abs(a.contextRelevance.mean - 2 / 3) < 1e-12);
  assert.ok(Math.abs(a.answerRelevance.mean - 1 / 3) < 1e-12);
  assert.equal(a.groundedness.mean, 1);
  assert.equal(a.answerRelevance.n, QUESTIONS.length);  // every answered question, unanswerable ones too
  assert.equal(records.length, QUESTIONS.length);
  assert.ok(records.every((x) => x.scores.answerRelevance === 1 / 3));
  const md = (await import('../../../web/src/eval.js')).experimentMarkdown(r);
  assert.match(md, /RAG triad/);
  assert.match(md, /\| base \| 0\.667 \[0\.667, 0\.667\] \| 0\.333 \[0\.333, 0\.333\] \| 1\.000/);
  const html = experimentReportHtml(r, records);
  assert.match(html, /RAG triad/);
  assert.match(html, /triad CR \/ AR \/ G/);
});
