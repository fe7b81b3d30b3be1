// autotune (web/src/pipeline/autotune.js) on the sample corpus (examples/corpus, evidence labels) and with
// document qrels; `ragwasm tune`. A deterministic hashing embedder stands in for the static model so
// the results do not depend on a built model file.
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { init, Collection, RagwasmError } from '../../../web/src/index.js';
import { autotune, DEFAULT_AUTOTUNE_GRID, metrics } from '../../../web/src/eval.js';
import { main } from '../../../web/cli/ragwasm.mjs';
import { loadEvidenceCorpus } from '../../../web/cli/datasets.mjs';
import { DEFAULT_MODEL } from '../../../web/cli/lib/retrievers.mjs';
import { repoRoot } from '../helpers.mjs';

await init();
// The debug (assertion) build runs the evidence matching several times slower: fewer questions there.
const DEBUG = process.env.RAGWASM_BUILD === 'debug';
const full = await loadEvidenceCorpus(join(repoRoot, 'examples/corpus'));
const corpus = { ...full, queries: DEBUG ? full.queries.slice(0, 10) : full.queries };

// Bag of hashed words in 64 buckets plus a constant component (never a zero vector), unit length.
function hashEmbed(texts) {
  return texts.map((t) => {
    const v = new Float32Array(64);
    v[0] = 1;
    for (const w of t.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
      let h = 2166136261;
      for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619) >>> 0;
      v[1 + (h % 63)] += 1;
    }
    const n = Math.hypot(...v);
    return v.map((x) => x / n);
  });
}
const embedder = async (texts) => hashEmbed(texts);

const GRID = {
  chunker: DEBUG ? [{ chunkSize: 400, chunkOverlap: 80 }] : [{ chunkSize: 400, chunkOverlap: 80 }, { chunkSize: 1000, chunkOverlap: 200 }],
  bm25: [{ k1: 0.9, b: 0.4 }],
  fusion: [{ retriever: 'bm25' }, { retriever: 'dense' }, { mode: 'convex', normalization: 'minmax', weights: [0.7, 0.3] }],
  k: [3, 10],
};
const isCode = (code) => (e) => e instanceof RagwasmError && e.code === code;

test('autotune on the sample corpus is deterministic with one row per grid point and a bootstrap CI', async () => {
  const progress = [];
  const opts = { documents: corpus.documents, queries: corpus.queries, evidence: corpus.evidence, grid: GRID, embedder, bootstrap: { samples: 500 } };
  const a = await autotune({ ...opts, onProgress: (p) => progress.push(p) });
  const b = await autotune(opts);
  const size = GRID.chunker.length * 1 * 3 * 2;
  assert.equal(a.table.length, size);
  assert.equal(a.labels, 'evidence');
  assert.equal(a.metric, 'recall');
  assert.equal(a.queries, corpus.queries.length);
  assert.ok(a.queries === (DEBUG ? 10 : 61), `answerable questions: ${a.queries}`);
  assert.deepEqual(a.table, b.table);
  assert.deepEqual(a.best, b.best);
  assert.deepEqual(a.ci, b.ci);
  // progress: every row reported once, in order, with the grid size as total
  const rows = progress.filter((p) => p.phase === 'evaluate');
  assert.deepEqual(rows.map((p) => p.done), a.table.map((_, i) => i + 1));
  assert.ok(progress.every((p) => p.total === size));
  // best = first maximum of the table; the CI brackets its mean
  const max = Math.max(...a.table.map((r) => r.value));
  assert.equal(a.best.value, max);
  assert.equal(a.best.index, a.table.findIndex((r) => r.value === max));
  for (const r of a.table) assert.ok(r.value >= 0 && r.value <= 1, `row ${r.index}: ${r.value}`);
  const perQuery = Object.values(a.best.perQuery);
  assert.equal(perQuery.length, a.queries);
  assert.ok(Math.abs(perQuery.reduce((s, v) => s + v, 0) / perQuery.length - a.best.value) < 1e-12);
  assert.ok(a.ci.low <= a.best.value + 1e-12 && a.best.value <= a.ci.high + 1e-12, JSON.stringify(a.ci));
  // a spread of per-query values gives an interval of positive width; identical values a point
  if (new Set(perQuery).size > 1) assert.ok(a.ci.low < a.ci.high, JSON.stringify(a.ci));
  else assert.ok(a.ci.low === a.best.value && a.ci.high === a.best.value, JSON.stringify(a.ci));
  // recall@10 never below recall@3 for the same setting (more chunks can only match more evidence)
  for (let i = 0; i < a.table.length; i += 2) assert.ok(a.table[i + 1].value >= a.table[i].value);
  // BM25 finds most evidence on this corpus (a broken pipeline would not)
  assert.ok(a.table[1].value > 0.5, `bm25 recall@10 with 400-char chunks: ${a.table[1].value}`);
});

test('the best configuration reproduces its metric through a Collection built from best.config', async () => {
  const r = await autotune({ documents: corpus.documents, queries: corpus.queries, evidence: corpus.evidence, grid: GRID, embedder, bootstrap: false });
  assert.equal(r.ci, null);
  for (const row of DEBUG ? [r.table[r.best.index]] : [r.table[r.best.index], r.table[5]]) {
    const cfgRow = row.index === r.best.index ? r.best.config
      : (await autotune({ documents: corpus.documents, queries: corpus.queries, evidence: corpus.evidence, embedder, bootstrap: false,
        grid: { chunker: [row.chunker], bm25: [row.bm25], fusion: [row.fusion], k: [row.k] } })).best.config;
    const col = await Collection.create(cfgRow, { embedder, dimension: 64 });
    try {
      await col.add(corpus.documents);
      const questions = [];
      for (const q of corpus.queries) {
        const hits = await col.search(q.text);
        questions.push({ evidence: corpus.evidence[q.id].map((text) => ({ text })), chunks: hits.map((h) => ({ text: h.text })) });
      }
      const e = metrics.evaluateEvidence(questions, { cutoffs: [row.k], maxK: row.k });
      assert.ok(Math.abs(e.recall[row.k] - row.value) < 1e-9, `row ${row.index} (${row.fusionLabel}): collection ${e.recall[row.k]} vs autotune ${row.value}`);
    } finally {
      col.dispose();
    }
  }
});

test('autotune with document qrels scores ndcg_cut.10 per query', async () => {
  const qrels = {};
  const questions = corpus.queries.slice(0, 20);
  for (const q of questions) qrels[q.id] = {};
  // the document the first evidence excerpt comes from is relevant
  for (const q of questions) {
    const ex = corpus.evidence[q.id][0];
    const doc = corpus.documents.find((d) => d.text.includes(ex));
    if (doc) qrels[q.id][doc.id] = 1;
  }
  const grid = { chunker: [{ chunkSize: 1000 }], bm25: [{ k1: 0.9, b: 0.4 }, { k1: 1.2, b: 0.75 }], fusion: [{ retriever: 'bm25' }], k: [10] };
  const r = await autotune({ documents: corpus.documents, queries: questions, qrels, grid, bootstrap: { samples: 200 } });
  assert.equal(r.labels, 'qrels');
  assert.equal(r.metric, 'ndcg_cut.10');
  assert.equal(r.table.length, 2);
  assert.ok(r.best.value > 0.3 && r.best.value <= 1, `ndcg ${r.best.value}`);
  assert.deepEqual(r.best.config.retrieval.retrievers, ['bm25']);
  assert.equal(r.best.config.chunker.chunkOverlap, 200);  // min(200, size / 5) when not given
});

test('autotune aborts with ABORTED and rejects bad options naming them', async () => {
  const ac = new AbortController();
  let calls = 0;
  await assert.rejects(autotune({ documents: corpus.documents, queries: corpus.queries, evidence: corpus.evidence, grid: GRID, embedder,
    signal: ac.signal, onProgress: (p) => { calls++; if (p.phase === 'evaluate') ac.abort(); } }), isCode('ABORTED'));
  assert.ok(calls >= 1);
  const pre = new AbortController();
  pre.abort();
  await assert.rejects(autotune({ documents: corpus.documents, queries: corpus.queries, evidence: corpus.evidence, signal: pre.signal, grid: { fusion: [{ retriever: 'bm25' }] } }), isCode('ABORTED'));
  const base = { documents: corpus.documents, queries: corpus.queries, evidence: corpus.evidence };
  await assert.rejects(autotune({ ...base, grid: { fusion: [{ retriever: 'bm25' }, { retriever: 'dense' }] } }),
    (e) => isCode('INVALID_ARGUMENT')(e) && /options\.grid\.fusion\[1\]\.retriever/.test(e.message));
  await assert.rejects(autotune({ ...base, qrels: {} }), (e) => isCode('INVALID_ARGUMENT')(e) && /qrels/.test(e.message));
  await assert.rejects(autotune({ ...base, embedder, grid: { bm25: [{ k1: -1 }] } }), (e) => isCode('INVALID_ARGUMENT')(e) && /options\.grid\.bm25\[0\]\.k1/.test(e.message));
  await assert.rejects(autotune({ ...base, embedder, grid: { k: [] } }), (e) => isCode('INVALID_ARGUMENT')(e) && /options\.grid\.k/.test(e.message));
  await assert.rejects(autotune({ ...base, embedder, bootstrap: { samples: 0 } }), (e) => isCode('INVALID_ARGUMENT')(e) && /options\.bootstrap\.samples/.test(e.message));
  await assert.rejects(autotune({ ...base, embedder, metric: 'ndcg_cut.10' }), (e) => isCode('INVALID_ARGUMENT')(e) && /options\.metric/.test(e.message));
  assert.equal(DEFAULT_AUTOTUNE_GRID.chunker.length * DEFAULT_AUTOTUNE_GRID.bm25.length * DEFAULT_AUTOTUNE_GRID.fusion.length * DEFAULT_AUTOTUNE_GRID.k.length, 32);
});

function capture() {
  const out = [];
  const err = [];
  return {
    io: { stdout: { write: (s) => { out.push(String(s)); return true; } }, stderr: { write: (s) => { err.push(String(s)); return true; } } },
    out: () => out.join(''), err: () => err.join(''),
  };
}

test('ragwasm tune prints one markdown row per grid point and JSON with --json', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-tune-'));
  try {
    const grid = join(dir, 'grid.json');
    writeFileSync(grid, JSON.stringify({ chunker: [{ chunkSize: 600, chunkOverlap: 100 }], bm25: [{ k1: 0.9, b: 0.4 }, { k1: 1.5, b: 0.75 }], fusion: [{ retriever: 'bm25' }], k: [5] }));
    let c = capture();
    assert.equal(await main(['tune', '--dataset', join(repoRoot, 'examples/corpus'), '--grid', grid, '--bootstrap', '300', ...(DEBUG ? ['--max-queries', '10'] : [])], c.io), 0, c.err());
    const rows = c.out().split('\n').filter((l) => l.startsWith('| '));
    assert.equal(rows.length, 2 + 2, c.out());  // header, separator, one row per setting
    assert.match(rows[0], /\| recall \|$/);
    assert.match(c.out(), /best: #\d .* recall 0\.\d{4} \(95% bootstrap CI/);
    c = capture();
    assert.equal(await main(['tune', '--dataset', join(repoRoot, 'examples/corpus'), '--grid', grid, '--json', '--metric', 'mrr', '--max-queries', '10'], c.io), 0, c.err());
    const r = JSON.parse(c.out());
    assert.equal(r.table.length, 2);
    assert.equal(r.metric, 'mrr');
    c = capture();
    writeFileSync(grid, '{"bm25": [');
    assert.equal(await main(['tune', '--dataset', join(repoRoot, 'examples/corpus'), '--grid', grid], c.io), 2);
    assert.match(c.err(), /--grid .*not valid JSON/);
    c = capture();
    assert.equal(await main(['tune', '--dataset', dir], c.io), 2);
    assert.match(c.err(), /--dataset/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('ragwasm tune with the default grid uses the static model for the dense leg', async (t) => {
  if (!existsSync(DEFAULT_MODEL)) {
    t.skip(`needs ${DEFAULT_MODEL} (node models/build-static-model.mjs)`);
    return;
  }
  const c = capture();
  assert.equal(await main(['tune', '--dataset', join(repoRoot, 'examples/corpus'), '--max-queries', DEBUG ? '3' : '15', '--bootstrap', '200'], c.io), 0, c.err());
  const rows = c.out().split('\n').filter((l) => l.startsWith('| '));
  assert.equal(rows.length, 2 + 32);
  assert.ok(rows.some((l) => /dense alone/.test(l)) && rows.some((l) => /convex minmax 0\.7\/0\.3/.test(l)));
});

test('autotune runs in a worker thread with progress messages and cancels on request', async () => {
  const { Worker } = await import('node:worker_threads');
  const { pathToFileURL } = await import('node:url');
  const index = pathToFileURL(join(repoRoot, 'web/src/index.js')).href;
  const evalEntry = pathToFileURL(join(repoRoot, 'web/src/eval.js')).href;
  const tune = pathToFileURL(join(repoRoot, 'web/cli/datasets.mjs')).href;
  // The worker owns its AbortController; a 'cancel' message aborts it (as a browser Worker would).
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    (async () => {
      const { init } = await import(${JSON.stringify(index)});
      const { autotune } = await import(${JSON.stringify(evalEntry)});
      const { loadEvidenceCorpus } = await import(${JSON.stringify(tune)});
      await init();
      const ac = new AbortController();
      parentPort.on('message', (m) => { if (m === 'cancel') ac.abort(); });
      const c = await loadEvidenceCorpus(workerData.dir);
      const grid = { chunker: [{ chunkSize: 800 }], bm25: [{ k1: 0.9, b: 0.4 }, { k1: 1.2, b: 0.75 }, { k1: 1.5, b: 0.9 }], fusion: [{ retriever: 'bm25' }], k: [5, 10] };
      const run = () => autotune({ documents: c.documents, queries: c.queries.slice(0, workerData.n), evidence: c.evidence, grid, bootstrap: false,
        signal: ac.signal, onProgress: (p) => { if (p.phase === 'evaluate') parentPort.postMessage({ progress: p.done, total: p.total }); } });
      const r = await run();
      parentPort.postMessage({ done: r.table.length, best: r.best.value });
      await new Promise((res) => setTimeout(res, 50));  // let the 'cancel' message arrive
      try { await run(); parentPort.postMessage({ second: 'finished' }); }
      catch (e) { parentPort.postMessage({ second: e.code }); }
    })().catch((e) => parentPort.postMessage({ error: String(e && e.stack || e) }));`;
  const w = new Worker(code, { eval: true, workerData: { dir: join(repoRoot, 'examples/corpus'), n: DEBUG ? 5 : 20 } });
  const messages = [];
  try {
    await new Promise((resolve, reject) => {
      w.on('error', reject);
      w.on('message', (m) => {
        messages.push(m);
        if (m.error) reject(new Error(m.error));
        if (m.done !== undefined) w.postMessage('cancel');
        if (m.second !== undefined) resolve();
      });
    });
  } finally {
    await w.terminate();
  }
  const first = messages.filter((m) => m.progress !== undefined && messages.indexOf(m) < messages.findIndex((x) => x.done !== undefined));
  assert.deepEqual(first.map((m) => m.progress), [1, 2, 3, 4, 5, 6]);
  assert.ok(first.every((m) => m.total === 6));
  const done = messages.find((m) => m.done !== undefined);
  assert.equal(done.done, 6);
  assert.ok(done.best > 0 && done.best <= 1);
  assert.equal(messages.at(-1).second, 'ABORTED');
});
