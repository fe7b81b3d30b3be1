// One pipeline config for every command (issue 16): applyConfigOverrides (flags = overrides of named
// config paths, errors naming the flag and the path), one config file giving the same retrieved chunks
// through `eval`, `rag` and `experiment`, rag's k 0 and any chunker, tune --config (autotune base),
// eval's rerank section, and caller-written chunk contexts (Collection.add chunkContexts,
// llmChunkContexts through the OpenAI-protocol test double: scripted replies, not a model).
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyConfigOverrides, Collection, init, RagwasmError } from '../../../web/src/index.js';
import { autotune } from '../../../web/src/eval.js';
import { createLlmClient, llmChunkContexts } from '../../../web/src/llm.js';
import { main } from '../../../web/cli/ragwasm.mjs';
import { captureIo } from '../helpers.mjs';
import { crossEncoderFixture } from '../ce-fixture.mjs';
import { openaiJson, ProtocolTestDouble } from '../llm-protocol-double.mjs';

let double;
before(async () => { await init(); double = await ProtocolTestDouble.start(); });
after(async () => { await double.close(); });

const DOCS = [
  { id: 'leave', title: 'Leave Policy', text: '# Leave Policy\n\n## Paid time off\n\nFull-time employees receive 22 days of PTO per year.\n\n## Sick leave\n\nSick leave is 10 days per year and does not roll over.\n' },
  { id: 'travel', title: 'Travel Policy', text: '# Travel Policy\n\n## Meals\n\nThe domestic meal per diem is 72 dollars per day.\n\n## Hotels\n\nThe nightly hotel cap is 210 dollars in standard locations.\n' },
  { id: 'security', title: 'Security Handbook', text: '# Security Handbook\n\n## Passwords\n\nPasswords must have at least 14 characters.\n\n## Laptops\n\nLaptops lock after 5 minutes without input.\n' },
  { id: 'expenses', title: 'Expense Rules', text: '# Expense Rules\n\n## Receipts\n\nReceipts are required for every expense above 25 dollars.\n\n## Travel days\n\nA travel day counts as a working day.\n' },
];
const QUESTIONS = [
  { id: 'q1', question: 'How many days of PTO do full-time employees receive?', answer: '22 days per year', doc_ids: ['leave'], evidence: ['Full-time employees receive 22 days of PTO per year.'], answerable: true },
  { id: 'q2', question: 'What is the domestic meal per diem per day?', answer: '72 dollars per day', doc_ids: ['travel'], evidence: ['The domestic meal per diem is 72 dollars per day.'], answerable: true },
  { id: 'q3', question: 'How long must passwords be?', answer: 'at least 14 characters', doc_ids: ['security'], evidence: ['Passwords must have at least 14 characters.'], answerable: true },
  { id: 'q4', question: 'Which travel policy sets the hotel cap per night?', answer: '210 dollars', doc_ids: ['travel'], evidence: ['The nightly hotel cap is 210 dollars in standard locations.'], answerable: true },
];

// The same documents and questions as a QA folder (rag, experiment) and a BEIR folder (eval).
function folders() {
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-config-'));
  const qa = join(dir, 'qa');
  const beir = join(dir, 'beir');
  mkdirSync(qa);
  mkdirSync(join(beir, 'qrels'), { recursive: true });
  writeFileSync(join(qa, 'manifest.json'), JSON.stringify(DOCS.map((d) => ({ id: d.id, file: `${d.id}.md`, title: d.title }))));
  for (const d of DOCS) writeFileSync(join(qa, `${d.id}.md`), d.text);
  writeFileSync(join(qa, 'questions.jsonl'), QUESTIONS.map((q) => JSON.stringify(q)).join('\n') + '\n');
  writeFileSync(join(beir, 'corpus.jsonl'), DOCS.map((d) => JSON.stringify({ _id: d.id, title: d.title, text: d.text })).join('\n') + '\n');
  writeFileSync(join(beir, 'queries.jsonl'), QUESTIONS.map((q) => JSON.stringify({ _id: q.id, text: q.question })).join('\n') + '\n');
  writeFileSync(join(beir, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\n' + QUESTIONS.map((q) => `${q.id}\t${q.doc_ids[0]}\t1`).join('\n') + '\n');
  return { dir, qa, beir };
}

async function cli(...args) {
  const c = captureIo();
  const status = await main(args, c.io);
  return { status, stdout: c.out(), stderr: c.err() };
}
const jsonl = (path) => readFileSync(path, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));

test('#16 applyConfigOverrides sets paths, lists what it replaced and names the flag in errors', () => {
  const file = JSON.stringify({ chunker: { strategy: 'markdown-header', chunkSize: 400 }, retrieval: { k: 10 } });
  const r = applyConfigOverrides(file, [{ path: 'retrieval.k', value: 0, source: '--k' }, { path: 'chunker.chunkSize', value: 400, source: '--chunk-size' },
    { path: 'chunker.chunkOverlap', value: 50, source: '--chunker' }]);
  assert.equal(r.config.retrieval.k, 0);
  assert.equal(r.config.chunker.strategy, 'markdown-header');
  assert.equal(r.config.chunker.chunkOverlap, 50);
  // Only a value the file set and the flag changed is reported (chunkSize 400 = 400; chunkOverlap was not set).
  assert.deepEqual(r.changed, [{ path: 'retrieval.k', source: '--k', from: 10, to: 0 }]);
  assert.equal(r.raw.chunker.chunkOverlap, 50);
  // null deletes the key (the default comes back).
  const del = applyConfigOverrides({ retrieval: { k: 7, candidates: 50 } }, [{ path: 'retrieval.k', value: null }]);
  assert.deepEqual(del.raw, { retrieval: { candidates: 50 } });
  assert.equal(del.config.retrieval.k, applyConfigOverrides({}).config.retrieval.k);
  assert.throws(() => applyConfigOverrides({}, [{ path: 'retrieval.k', value: -3, source: '--k' }]),
    (e) => e instanceof RagwasmError && e.code === 'INVALID_ARGUMENT' && /^ragwasm: --k \(retrieval\.k\): /.test(e.message));
  // An error the override did not cause keeps the config's own path.
  assert.throws(() => applyConfigOverrides({ indexes: { bm25: { k1: 'high' } } }, [{ path: 'retrieval.k', value: 3, source: '--k' }]),
    (e) => e.code === 'INVALID_ARGUMENT' && /indexes\.bm25\.k1/.test(e.message) && !/--k/.test(e.message));
  assert.throws(() => applyConfigOverrides({}, [{ path: 'retrieval..k', value: 3 }]), (e) => e.code === 'INVALID_ARGUMENT' && /overrides\[0\]\.path/.test(e.message));
  assert.throws(() => applyConfigOverrides('{"chunker": ', []), (e) => e.code === 'PARSE_ERROR');
});

test('#30 F-3: a config file nested 100,000 levels deep is LIMIT_EXCEEDED, not a RangeError', () => {
  const deep = `{"x": ${'['.repeat(100000)}${']'.repeat(100000)}}`;
  assert.throws(() => applyConfigOverrides(deep, [{ path: 'retrieval.k', value: 5, source: '--k' }]),
    (e) => e instanceof RagwasmError && e.code === 'LIMIT_EXCEEDED' && /config: JSON nested deeper than 256 levels/.test(e.message));
});

test('#16 one config file gives the same retrieved chunks through eval, rag and experiment', async () => {
  const { dir, qa, beir } = folders();
  try {
    const cfg = join(dir, 'pipeline.json');
    writeFileSync(cfg, JSON.stringify({
      chunker: { strategy: 'markdown-header', chunkSize: 300, context: { template: '{title}', headerPath: true } },
      indexes: { bm25: { fields: { text: 1 } } }, retrieval: { k: 3 }, answerer: { type: 'extractive' },
    }));
    let r = await cli('eval', '--dataset', beir, '--config', cfg, '--hits', join(dir, 'eval-hits.jsonl'), '--json');
    assert.equal(r.status, 0, r.stderr);
    assert.match(JSON.parse(r.stdout).chunker, /^markdown-header:300\//);
    r = await cli('rag', '--dataset', qa, '--config', cfg, '--out', join(dir, 'rag.jsonl'));
    assert.equal(r.status, 0, r.stderr);
    r = await cli('experiment', '--config', cfg, '--dataset', qa, '--out', join(dir, 'exp.jsonl'));
    assert.equal(r.status, 0, r.stderr);
    const evalIds = new Map(jsonl(join(dir, 'eval-hits.jsonl')).map((x) => [x.queryId, x.hits.map((h) => h.id)]));
    const ragIds = new Map(jsonl(join(dir, 'rag.jsonl')).map((x) => [x.id, x.retrieved]));
    const expIds = new Map(jsonl(join(dir, 'exp.jsonl')).map((x) => [x.questionId, x.retrieval.chunks.slice(0, 3).map((c) => c.id)]));
    for (const q of QUESTIONS) {
      const e = evalIds.get(q.id);
      assert.ok(e.length >= 1 && e.length <= 3, `${q.id}: eval returned ${e.length} hits`);  // BM25 returns only chunks with a query term
      assert.ok(e.every((id) => id.includes('#')), `${q.id}: chunk ids expected, got ${e}`);  // chunks, not whole documents
      assert.deepEqual(ragIds.get(q.id), e, `${q.id}: rag vs eval`);
      assert.deepEqual(expIds.get(q.id), e, `${q.id}: experiment vs eval`);
    }
    // A flag overrides the file's path and says so once; the override reaches the retrieval.
    r = await cli('rag', '--dataset', qa, '--config', cfg, '--k', '1', '--out', join(dir, 'rag1.jsonl'));
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr.match(/--k overrides retrieval\.k 3 of .*pipeline\.json with 1/g)?.length, 1, r.stderr);
    for (const x of jsonl(join(dir, 'rag1.jsonl'))) assert.deepEqual(x.retrieved, ragIds.get(x.id).slice(0, 1));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('#16 rag takes retrieval.k 0 and every chunker from the flags or the config', async () => {
  const { dir, qa } = folders();
  try {
    let r = await cli('rag', '--dataset', qa, '--k', '0', '--out', join(dir, 'k0.jsonl'));
    assert.equal(r.status, 0, r.stderr);
    for (const x of jsonl(join(dir, 'k0.jsonl'))) {
      assert.deepEqual(x.retrieved, []);
      assert.equal(x.refRank, null);
      assert.equal(x.f1, 0);  // no passages: the extractive answerer abstains
    }
    for (const spec of ['markdown-header:200', 'sentence:200', 'fixed:200/20', 'markdown:300/30']) {
      r = await cli('rag', '--dataset', qa, '--chunker', spec, '--out', join(dir, 'c.jsonl'));
      assert.equal(r.status, 0, `${spec}: ${r.stderr}`);
      const rows = jsonl(join(dir, 'c.jsonl'));
      assert.equal(rows.length, QUESTIONS.length);
      assert.ok(rows.every((x) => x.retrieved.length === 5 || x.retrieved.length > 0), spec);
    }
    r = await cli('rag', '--dataset', qa, '--k=-1');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--k: expected an integer >= 0/);
    r = await cli('rag', '--dataset', qa, '--chunker', 'zigzag:100');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /chunker\.strategy/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('#16 eval --config honours the rerank section (cross-encoder needs its model file)', async (t) => {
  const { dir, beir } = folders();
  try {
    const cfg = join(dir, 'rerank.json');
    writeFileSync(cfg, JSON.stringify({ indexes: { bm25: {} }, rerank: { enabled: true, type: 'cross-encoder', candidates: 4, keep: 2 } }));
    let r = await cli('eval', '--dataset', beir, '--config', cfg);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /rerank\.type cross-encoder: rerank\.model names no model file/);
    r = await cli('eval', '--dataset', beir, '--config', cfg, '--rerank-model', join(dir, 'missing.onnx'));
    assert.equal(r.status, 2);
    assert.match(r.stderr, /rerank\.model: .*missing\.onnx not found/);
    const ce = crossEncoderFixture(t);  // made here when missing; skips by name without python3-onnx or ../shared
    if (!ce) return;
    const fixture = join(ce.dir, 'tiny-ce/onnx/model.onnx');
    r = await cli('eval', '--dataset', beir, '--config', cfg, '--rerank-model', fixture, '--hits', join(dir, 'h.jsonl'), '--json');
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.match(j.retriever, /bm25 \+ rerank cross-encoder \(4 -> 2\)/);
    // A document scores its best chunk by the reranker's score: the reciprocal rank from the hits by hand.
    let rr = 0;
    for (const x of jsonl(join(dir, 'h.jsonl'))) {
      const best = new Map();
      for (const h of x.hits) if (!best.has(h.docId) || best.get(h.docId) < h.rerankScore) best.set(h.docId, h.rerankScore);
      const docs = [...best].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([d]) => d);
      const at = docs.indexOf(QUESTIONS.find((q) => q.id === x.queryId).doc_ids[0]);
      rr += at < 0 ? 0 : 1 / (at + 1);
    }
    assert.ok(Math.abs(j.measures.recip_rank - rr / QUESTIONS.length) < 1e-9, `recip_rank ${j.measures.recip_rank} vs ${rr / QUESTIONS.length}`);
    // keep 2: two hits per query, ordered by the cross-encoder's score (not BM25's).
    for (const x of jsonl(join(dir, 'h.jsonl'))) {
      assert.ok(x.hits.length <= 2);
      for (let i = 1; i < x.hits.length; i++) assert.ok(x.hits[i - 1].rerankScore >= x.hits[i].rerankScore, `${x.queryId}: not in rerank order`);
    }

  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a relative rerank.model is resolved from the file that names it (config or grid), a --rerank-model flag from the working folder', async (t) => {
  const { dir, qa, beir } = folders();
  try {
    const sub = join(dir, 'study');
    mkdirSync(sub);
    const rerank = { enabled: true, type: 'cross-encoder', model: 'ce/onnx/model.onnx', candidates: 4, keep: 2 };
    const cfg = join(sub, 'rerank.json');
    writeFileSync(cfg, JSON.stringify({ indexes: { bm25: {} }, rerank }));
    const grid = join(sub, 'grid.json');
    writeFileSync(grid, JSON.stringify({ base: { indexes: { bm25: {} } }, cells: [{ name: 'bm25' }, { name: 'rerank', config: { rerank } }] }));
    // not there yet: the errors name the path as written and where it was looked for (beside the file, not the working folder)
    const where = join(sub, 'ce/onnx/model.onnx').replace(/[.\\/]/g, '.');
    let r = await cli('eval', '--dataset', beir, '--config', cfg);
    assert.equal(r.status, 2);
    assert.match(r.stderr, new RegExp(`rerank\\.model: ce/onnx/model\\.onnx not found \\(relative to the file that sets it: ${where}\\)`));
    r = await cli('experiment', '--grid', grid, '--dataset', qa);
    assert.equal(r.status, 2);
    assert.match(r.stderr, new RegExp(`not found \\(relative to the file that sets it: ${where}\\)`));
    // a flag's relative path stays relative to the working folder
    r = await cli('eval', '--dataset', beir, '--config', cfg, '--rerank-model', 'ce/onnx/model.onnx');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /rerank\.model: ce\/onnx\/model\.onnx not found\n/);
    const ce = crossEncoderFixture(t);  // made here when missing; skips by name without python3-onnx or ../shared
    if (!ce) return;
    const fixture = join(ce.dir, 'tiny-ce');
    cpSync(fixture, join(sub, 'ce'), { recursive: true });
    r = await cli('eval', '--dataset', beir, '--config', cfg, '--json');
    assert.equal(r.status, 0, r.stderr);
    assert.match(JSON.parse(r.stdout).retriever, /bm25 \+ rerank cross-encoder \(4 -> 2\)/);
    r = await cli('experiment', '--grid', grid, '--dataset', qa, '--out', join(dir, 'exp.jsonl'));
    assert.equal(r.status, 0, r.stderr);
    const cells = new Set(jsonl(join(dir, 'exp.jsonl')).map((x) => x.cell));
    assert.equal(cells.size, 2, [...cells].join(', '));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('#16 autotune base: the grid varies the config, everything else is the config\'s', async () => {
  const documents = DOCS;
  const queries = QUESTIONS.map((q) => ({ id: q.id, text: q.question }));
  const evidence = Object.fromEntries(QUESTIONS.map((q) => [q.id, q.evidence]));
  const base = { chunker: { strategy: 'markdown-header', chunkSize: 300, context: { template: '{title}', headerPath: true } }, indexes: { bm25: { fields: { text: 1 } } } };
  const grid = { chunker: [{ chunkSize: 200 }, { chunkSize: 300 }], bm25: [{ k1: 0.9, b: 0.4 }], fusion: [{ retriever: 'bm25' }], k: [1, 3] };
  const r = await autotune({ documents, queries, evidence, grid, base, bootstrap: false });
  assert.equal(r.table.length, 4);
  assert.equal(r.best.config.chunker.strategy, 'markdown-header');
  assert.equal(r.best.config.chunker.context.template, '{title}');
  assert.equal(r.best.config.chunker.context.headerPath, true);
  assert.deepEqual(r.best.config.indexes.bm25.fields, [{ name: 'text', boost: 1 }]);
  // The row's retrieval equals a Collection built from its config (the same meaning everywhere).
  const col = await Collection.create(r.best.config);
  try {
    await col.add(documents);
    let found = 0;
    for (const q of QUESTIONS) {
      const hits = await col.search(q.question);
      if (hits.some((h) => h.text.includes(q.evidence[0]))) found++;
    }
    assert.equal(found / QUESTIONS.length, r.best.value);
  } finally {
    col.dispose();
  }
  await assert.rejects(autotune({ documents, queries, evidence, grid, base: { rerank: { enabled: true } } }),
    (e) => e.code === 'INVALID_ARGUMENT' && /options\.base\.rerank\.enabled/.test(e.message));
});

test('#16 tune --config prints the whole config with the best row', async () => {
  const { dir, qa } = folders();
  try {
    const cfg = join(dir, 'base.json');
    writeFileSync(cfg, JSON.stringify({ chunker: { strategy: 'markdown-header', chunkSize: 300, context: { template: '{title}' } }, indexes: { bm25: {} } }));
    const grid = join(dir, 'grid.json');
    writeFileSync(grid, JSON.stringify({ chunker: [{ chunkSize: 300 }], fusion: [{ retriever: 'bm25' }], k: [3] }));
    const r = await cli('tune', '--dataset', qa, '--config', cfg, '--grid', grid, '--bootstrap', '0', '--json');
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.equal(j.best.config.chunker.strategy, 'markdown-header');
    assert.equal(j.best.config.chunker.context.template, '{title}');
    assert.equal(j.best.config.retrieval.k, 3);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('tune --config with LLM context steps runs them through --context-url: a summary per document, however many chunkers', async () => {
  const { dir, qa } = folders();
  try {
    const cfg = join(dir, 'summary.json');
    writeFileSync(cfg, JSON.stringify({ chunker: { strategy: 'recursive', chunkSize: 300, context: { template: '{summary}', llmSummary: { maxTokens: 30 } } }, indexes: { bm25: {} } }));
    const plain = join(dir, 'plain.json');
    writeFileSync(plain, JSON.stringify({ indexes: { bm25: {} } }));
    const grid = join(dir, 'grid.json');
    writeFileSync(grid, JSON.stringify({ chunker: [{ chunkSize: 300 }, { chunkSize: 150 }], fusion: [{ retriever: 'bm25' }], k: [3] }));
    double.reset();
    let r = await cli('tune', '--dataset', qa, '--config', cfg, '--grid', grid, '--bootstrap', '0');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /chunker\.context\.llmSummary: the config asks for an LLM step: give its endpoint with --context-url/);
    r = await cli('tune', '--dataset', qa, '--config', plain, '--grid', grid, '--bootstrap', '0', '--context-url', `${double.origin}/v1`);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--context-url: the config \(--config\) has no LLM context step/);
    assert.equal(double.requests.length, 0);
    double.always(() => ({ json: openaiJson('[scripted] summary') }));
    r = await cli('tune', '--dataset', qa, '--config', cfg, '--grid', grid, '--bootstrap', '0', '--context-url', `${double.origin}/v1`);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(double.requests.length, DOCS.length);  // once per document, not per chunker entry
    assert.ok(double.requests.every((q) => q.body.max_tokens === 30));
    assert.match(r.stdout, new RegExp(`LLM context steps: ${DOCS.length} documents summarized, 0 chunk contexts written`));
    assert.match(r.stdout, /"llmSummary":\{"maxTokens":30\}/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('tune --qrels runs the LLM context steps once per document and chunk, not once per label set', async () => {
  const { dir, qa } = folders();
  try {
    const cfg = join(dir, 'both.json');
    writeFileSync(cfg, JSON.stringify({ chunker: { strategy: 'recursive', chunkSize: 300, context: { template: '{summary}', llmSummary: { maxTokens: 30 }, llmChunkContext: { maxTokens: 20 } } }, indexes: { bm25: {} } }));
    const grid = join(dir, 'grid.json');
    writeFileSync(grid, JSON.stringify({ chunker: [{ chunkSize: 300 }, { chunkSize: 150 }], fusion: [{ retriever: 'bm25' }], k: [3] }));
    const qrels = join(dir, 'llm.qrels');
    writeFileSync(qrels, 'q1 0 leave 3\nq2 0 travel 2\nq3 0 security 3\n');
    double.reset();
    double.always(() => ({ json: openaiJson('[scripted] context') }));
    // One autotune run (human labels only): the number of requests the context steps need.
    let r = await cli('tune', '--dataset', qa, '--config', cfg, '--grid', grid, '--bootstrap', '0', '--context-url', `${double.origin}/v1`);
    assert.equal(r.status, 0, r.stderr);
    const once = double.requests.length;
    const m = /LLM context steps: (\d+) documents summarized, (\d+) chunk contexts written/.exec(r.stdout);
    assert.ok(m, r.stdout);
    assert.equal(Number(m[1]), DOCS.length);
    assert.ok(Number(m[2]) > DOCS.length, 'two chunkers: more chunks than documents');
    assert.equal(once, DOCS.length + Number(m[2]));  // a summary per document, a request per chunk of each chunker
    // --qrels: two autotune runs (LLM labels, then the folder's human evidence labels) over the same chunks.
    double.reset();
    double.always(() => ({ json: openaiJson('[scripted] context') }));
    r = await cli('tune', '--dataset', qa, '--config', cfg, '--grid', grid, '--qrels', qrels, '--bootstrap', '0', '--context-url', `${double.origin}/v1`);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /on the human labels of/);
    assert.equal(double.requests.length, once, 'each document summary and chunk context is asked once for both label sets');
    assert.match(r.stdout, new RegExp(`LLM context steps: ${DOCS.length} documents summarized, ${m[2]} chunk contexts written`));
    double.reset();
    double.always(() => ({ json: openaiJson('[scripted] context') }));
    r = await cli('tune', '--dataset', qa, '--config', cfg, '--grid', grid, '--qrels', qrels, '--bootstrap', '0', '--json', '--context-url', `${double.origin}/v1`);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).llmCalls, { summaries: DOCS.length, chunkContexts: Number(m[2]) });
    assert.equal(double.requests.length, once);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('#16 chunk contexts written by the caller are indexed; llmChunkContexts calls the endpoint once per chunk', async () => {
  const col = await Collection.create({ chunker: { strategy: 'markdown-header', chunkSize: 300 }, indexes: { bm25: { fields: { text: 1 } } }, retrieval: { k: 2 } });
  try {
    await col.add(DOCS.slice(0, 2), { chunkContexts: (doc, chunks) => chunks.map((c, i) => (doc.id === 'travel' && i === 0 ? 'zanzibar itinerary' : '')) });
    const hits = await col.search('zanzibar');
    assert.equal(hits.length, 1);
    assert.equal(hits[0].docId, 'travel');
    assert.ok(!hits[0].text.includes('zanzibar'));  // the context is indexed, the chunk text is unchanged
    await assert.rejects(col.add([DOCS[2]], { chunkContexts: () => ['only one'] }),
      (e) => e.code === 'INVALID_ARGUMENT' && /chunkContexts result for document "security"/.test(e.message));
  } finally {
    col.dispose();
  }
  double.reset();
  double.always(() => ({ json: openaiJson('[scripted] context') }));
  const client = createLlmClient({ provider: 'openai', baseUrl: `${double.origin}/v1`, model: 'ctx', maxRetries: 0 });
  const fn = llmChunkContexts(client);
  const col2 = await Collection.create({ chunker: { strategy: 'markdown-header', chunkSize: 300 }, indexes: { bm25: { fields: { text: 1 } } } });
  try {
    const r = await col2.add(DOCS, { chunkContexts: fn });
    assert.equal(double.requests.length, r.chunks);
    assert.equal(fn.stats.chunks, r.chunks);
    assert.equal(fn.stats.documents, DOCS.length);
    const hits = await col2.search('scripted', { k: 100 });
    assert.equal(hits.length, r.chunks);  // every chunk's indexText carries the scripted context
  } finally {
    col2.dispose();
  }
});

test('#16 experiment: a malformed grid file names the JSON path (syntax, grid path, pipeline path via --config)', async () => {
  const { dir, qa } = folders();
  try {
    const grid = join(dir, 'grid.json');
    writeFileSync(grid, '{"base": {"retrieval": {"k": 3}}, "vary": ');
    let r = await cli('experiment', '--grid', grid, '--dataset', qa);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--grid .*grid\.json: malformed JSON/);
    writeFileSync(grid, JSON.stringify({ base: { retrieval: { k: 3 } }, vary: { 'chunker.chunkSize': [200, -5] } }));
    r = await cli('experiment', '--grid', grid, '--dataset', qa, '--dry-run');
    assert.equal(r.status, 1);
    assert.match(r.stderr, /vary\["chunker\.chunkSize"\]\[1\]: expected an integer in \[1, 100000000\], got -5 \[INVALID_ARGUMENT\]/);
    const cfg = join(dir, 'bad.json');
    writeFileSync(cfg, JSON.stringify({ retrieval: { fusion: { weights: [1, 'x'] } } }));
    r = await cli('experiment', '--config', cfg, '--dataset', qa);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--config .*bad\.json: retrieval\.fusion\.weights\[1\]/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('#16 experiment cells that differ only in rerank share a collection but each applies its own rerank section', async () => {
  const { runExperiment } = await import('../../../web/src/eval.js');
  const base = { chunker: { strategy: 'markdown-header', chunkSize: 300 }, indexes: { bm25: { fields: { text: 1 } } }, retrieval: { k: 3 }, answerer: { type: 'none' } };
  const grid = { base, cells: [{ name: 'plain' }, { name: 'reranked', config: { rerank: { enabled: true, type: 'custom', candidates: 10, keep: 10 } } }] };
  // A reranker that scores the chunk whose text is shortest first: an order BM25 does not give.
  const reranker = async (query, items) => items.map((it) => -it.text.length);
  const records = [];
  await runExperiment(grid, { documents: DOCS, questions: QUESTIONS }, { reranker, onRecord: (r) => records.push(r) });
  let differs = 0;
  for (const q of QUESTIONS) {
    const plain = records.find((r) => r.cell === 'plain' && r.questionId === q.id).retrieval.chunks;
    const reranked = records.find((r) => r.cell === 'reranked' && r.questionId === q.id).retrieval.chunks;
    const lengths = reranked.map((c) => c.text.length);
    assert.deepEqual(lengths, [...lengths].sort((a, b) => a - b), `${q.id}: not in the reranker's order`);
    if (plain.map((c) => c.id).join() !== reranked.map((c) => c.id).join()) differs++;
  }
  assert.ok(differs > 0, 'the rerank section changed no ranking');
});

test('#16 eval --config with chunker.context.llmSummary runs it through --context-url; without it the key is named', async () => {
  const { dir, beir } = folders();
  try {
    const cfg = join(dir, 'summary.json');
    writeFileSync(cfg, JSON.stringify({ chunker: { strategy: 'recursive', chunkSize: 300, context: { llmSummary: { maxTokens: 30 } } }, indexes: { bm25: {} } }));
    let r = await cli('eval', '--dataset', beir, '--config', cfg, '--json');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /chunker\.context\.llmSummary: the config asks for an LLM step: give its endpoint with --context-url/);
    double.reset();
    double.always(() => ({ json: openaiJson('[scripted] summary') }));
    r = await cli('eval', '--dataset', beir, '--config', cfg, '--context-url', `${double.origin}/v1`, '--json');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(double.requests.length, DOCS.length);  // one summary per document
    assert.ok(double.requests.every((q) => q.body.max_tokens === 30));
    const out = JSON.parse(r.stdout);
    assert.equal(out.chunkContextCalls, DOCS.length);
    assert.match(out.chunker, /\+ llmSummary/);
    // --context-url has no price: the indexing cost is unknown, never 0 (free)
    assert.equal(out.indexingCost, null);
    r = await cli('eval', '--dataset', beir, '--config', cfg, '--context-url', `${double.origin}/v1`);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`; ${DOCS.length} chunk-context LLM calls, indexing cost unknown \\(no price\\)`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
