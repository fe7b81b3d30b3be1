// Bench suite `pipeline` (issue 7 "Scale", issue 4 speed corpus): a ~100k-passage corpus from
// ../shared/data (tests/bench/lib/big-corpus.mjs). In Node through the JS API: Bm25Index build time,
// memory, saved bytes, queries/s and p50/p95 latency; a hybrid Collection (BM25 + static-model dense +
// convex fusion, the default pipeline config) build time, saved bytes and hybrid query p50/p95. Then in
// headless Chromium: the same collection built inside a module Worker with progress events, hybrid
// query p50/p95 (target p95 < 50 ms), build time and saved size (OPFS). --quick: the first 10k passages.
// RAGWASM_DIST=<folder> serves that build's ragwasm.mjs/.wasm to the browser too (as Node does).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bm25Index, Collection, createStaticEmbedder, fuse } from '../../../web/src/index.js';
import { wasm } from '../../../web/src/core/module.js';
import { buildBigCorpus } from '../lib/big-corpus.mjs';
import { routeBenchFiles } from '../lib/bench-routes.mjs';

const MB = 1024 * 1024;
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
function gc() {
  if (typeof globalThis.gc === 'function') { globalThis.gc(); globalThis.gc(); }
}
function mem() {
  gc();
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, external: m.external, wasmHeap: wasm().HEAPU8.length };
}
const delta = (a, b) => Object.fromEntries(Object.keys(a).map((k) => [k, b[k] - a[k]]));

async function latencies(queries, fn, warmup = 20) {
  for (const q of queries.slice(0, warmup)) { try { await fn(q); } catch { /* counted below */ } }
  const lat = [];
  let failed = 0;
  const t0 = performance.now();
  for (const q of queries) {
    const a = performance.now();
    try { await fn(q); } catch { failed++; continue; }
    lat.push(performance.now() - a);
  }
  const total = performance.now() - t0;
  lat.sort((x, y) => x - y);
  return { queries: lat.length, failed, qps: lat.length / (total / 1000), p50: pct(lat, 0.5), p95: pct(lat, 0.95), max: lat[lat.length - 1] };
}

async function browserRun(ctx, corpus, queries) {
  const { chromium } = await import('playwright-core');
  const { startServer } = await import('../../../scripts/serve.mjs');
  const { CHROMIUM_ARGS, repoRoot } = await import('../../browser/harness.mjs');
  if (!existsSync('/usr/bin/chromium')) return { skipped: 'no /usr/bin/chromium' };
  const server = await startServer({ port: 0, quiet: true });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext();
    await routeBenchFiles(context, { repoRoot, corpus, dirs: ['browser'] });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${server.url}tests/bench/browser/pipeline.html`);
    const r = await page.evaluate(({ queries, k }) => new Promise((res) => {
      const w = new Worker('/tests/bench/browser/pipeline-worker.js', { type: 'module' });
      const progress = [];
      const t0 = performance.now();
      w.onmessage = (e) => {
        if (e.data.type === 'progress') {
          progress.push(e.data.done);
          document.getElementById('status').textContent = `${e.data.done} / ${e.data.total}`;
        } else {
          w.terminate();
          res({ ...e.data, wallMs: performance.now() - t0, progressSeen: progress.length, progressMonotonic: progress.every((v, i) => i === 0 || v > progress[i - 1]) });
        }
      };
      w.onerror = (e) => { w.terminate(); res({ type: 'error', message: e.message }); };
      w.postMessage({ corpusUrl: '/tests/bench/browser/corpus.json', modelUrl: '/models/build/static-model.bin', queries, k, batchSize: 1000, warmup: 20 });
    }), { queries: queries.map((q) => q.text), k: 10 });
    if (errors.length) r.pageErrors = errors;
    r.userAgent = await page.evaluate(() => navigator.userAgent);
    return r;
  } finally {
    await browser.close();
    await server.close();
  }
}

export default {
  name: 'pipeline',
  description: 'BM25 and a hybrid Collection over ~100k passages of the shared data: Node and a Chromium Worker',
  async run(ctx) {
    const t0 = performance.now();
    const limit = ctx.quick ? 10_000 : Infinity;
    const corpus = buildBigCorpus((rel) => ctx.shared(rel), { limit });
    const corpusMs = performance.now() - t0;
    if (corpus.docs.length === 0) {
      const reason = `skipped: no shared data (${corpus.skipped.join('; ')})`;
      process.stdout.write(`${reason}\n`);
      ctx.record('skipped', reason);
      return;
    }
    const nq = ctx.quick ? 200 : 500;
    const queries = corpus.queries.slice(0, nq);
    ctx.record('corpus', { passages: corpus.docs.length, chars: corpus.chars, sources: corpus.sources, skipped: corpus.skipped, queries: queries.length, buildMs: corpusMs });
    ctx.table('Corpus', ['passages', 'characters', 'sources', 'queries', 'missing sources'],
      [[corpus.docs.length, corpus.chars, Object.entries(corpus.sources).map(([k, v]) => `${k} ${v}`).join(', '), queries.length, corpus.skipped.join('; ') || 'none']]);

    // --- Node: Bm25Index ---
    const m0 = mem();
    let tb = performance.now();
    const bm25 = Bm25Index.create();
    bm25.add(corpus.docs);
    const bm25BuildMs = performance.now() - tb;
    const m1 = mem();
    const stats = bm25.stats();
    tb = performance.now();
    const saved = bm25.toBytes();
    const saveMs = performance.now() - tb;
    tb = performance.now();
    const reloaded = Bm25Index.fromBytes(saved);
    const loadMs = performance.now() - tb;
    reloaded.dispose();
    const q10 = await latencies(queries.map((q) => q.text), (q) => bm25.search(q, { k: 10 }));
    const bm25Res = { buildMs: bm25BuildMs, docsPerSec: corpus.docs.length / (bm25BuildMs / 1000), memDelta: delta(m0, m1), stats, savedBytes: saved.length, saveMs, loadMs, top10: q10 };
    ctx.record('node.bm25', bm25Res);
    bm25.dispose();

    // --- Node: hybrid Collection ---
    const modelPath = join(ctx.repoRoot, 'models/build/static-model.bin');
    let colRes = null;
    if (!existsSync(modelPath)) {
      colRes = { skipped: 'models/build/static-model.bin missing (node models/build-static-model.mjs)' };
    } else {
      const embedder = await createStaticEmbedder({ model: new Uint8Array(readFileSync(modelPath)) });
      const c0 = mem();
      tb = performance.now();
      const col = await Collection.create({}, { embedder });
      let events = 0;
      const added = await col.add(corpus.docs, { batchSize: 1000, onProgress: () => { events++; } });
      const buildMs = performance.now() - tb;
      const c1 = mem();
      // The default hybrid's label-free leg check (run once; search() would run it on first use).
      const tl = performance.now();
      const legCheck = await col.checkLegs();
      const legCheckMs = performance.now() - tl;
      console.log(`leg check over ${added.chunks} chunks: ${legCheckMs.toFixed(0)} ms, ${legCheck.warning ?? `no weak leg ${JSON.stringify(legCheck.legs)}`}`);
      const hybrid = await latencies(queries.map((q) => q.text), (q) => col.search(q, { k: 10 }));
      // Where a hybrid query's time goes (the collection's internal indexes, same candidates=100 and fusion).
      const parts = { bm25: [], embed: [], dense: [], fuse: [] };
      const fc = col.config.retrieval.fusion;
      for (const q of queries.map((x) => x.text)) {
        let a = performance.now();
        let h1;
        try { h1 = col.bm25.search(q, { k: 100 }); } catch { continue; }
        parts.bm25.push(performance.now() - a);
        a = performance.now();
        const [v] = embedder.embedSync([q]);
        parts.embed.push(performance.now() - a);
        a = performance.now();
        const h2 = col.dense.search(v, { k: 100 });
        parts.dense.push(performance.now() - a);
        a = performance.now();
        fuse([{ retriever: 'bm25', hits: h1.map((h) => ({ id: h.id, score: h.score })) }, { retriever: 'dense', hits: h2.map((h) => ({ id: h.id, score: h.score })) }],
          { mode: fc.mode, normalization: fc.normalization, weights: fc.weights, rrfK: fc.rrfK });
        parts.fuse.push(performance.now() - a);
      }
      const breakdown = Object.fromEntries(Object.entries(parts).map(([k, v]) => { v.sort((x, y) => x - y); return [k, { p50: pct(v, 0.5), p95: pct(v, 0.95) }]; }));
      tb = performance.now();
      const bytes = col.toBytes();
      const toBytesMs = performance.now() - tb;
      const dir = mkdtempSync(join(tmpdir(), 'ragwasm-pipeline-'));
      tb = performance.now();
      await col.save('bench', { dir });
      const saveFileMs = performance.now() - tb;
      tb = performance.now();
      const again = await Collection.load('bench', { dir, embedder });
      const loadFileMs = performance.now() - tb;
      again.dispose();
      rmSync(dir, { recursive: true, force: true });
      colRes = { documents: added.documents, chunks: added.chunks, progressEvents: events, buildMs, legCheckMs, legCheck, memDelta: delta(c0, c1), hybrid, breakdown, savedBytes: bytes.length, toBytesMs, saveFileMs, loadFileMs };
      col.dispose();
      embedder.dispose();
    }
    ctx.record('node.collection', colRes);

    // --- Chromium Worker ---
    let br;
    try {
      br = await browserRun(ctx, corpus.docs, queries);
    } catch (e) {
      br = { type: 'error', message: String(e) };
    }
    ctx.record('chromium.collection', br);

    const f = (x, d = 1) => (typeof x === 'number' ? x.toFixed(d) : String(x));
    ctx.table(`Node: Bm25Index over ${corpus.docs.length} passages`, ['build s', 'docs/s', 'JS heap Δ MB', 'WASM heap Δ MB', 'RSS Δ MB', 'index memory MB', 'saved MB', 'save ms', 'load ms', 'q/s top-10', 'p50 ms', 'p95 ms'],
      [[f(bm25BuildMs / 1000, 2), f(bm25Res.docsPerSec, 0), f(bm25Res.memDelta.heapUsed / MB), f(bm25Res.memDelta.wasmHeap / MB), f(bm25Res.memDelta.rss / MB), f(stats.memoryBytes / MB), f(saved.length / MB), f(saveMs), f(loadMs), f(q10.qps, 0), f(q10.p50, 2), f(q10.p95, 2)]]);
    const rows = [];
    if (colRes?.skipped) rows.push(['Node', colRes.skipped, '', '', '', '', '', '']);
    else if (colRes) rows.push(['Node', colRes.chunks, f(colRes.buildMs / 1000, 1), `JS heap ${f(colRes.memDelta.heapUsed / MB)}, WASM heap ${f(colRes.memDelta.wasmHeap / MB)}, RSS ${f(colRes.memDelta.rss / MB)}`, f(colRes.savedBytes / MB), f(colRes.hybrid.qps, 0), f(colRes.hybrid.p50, 2), f(colRes.hybrid.p95, 2)]);
    if (br.type === 'done') rows.push([`Chromium Worker (${br.progressEvents} progress events, save ${br.backend})`, br.chunks, f(br.buildMs / 1000, 1), `WASM heap ${f(br.wasmHeapBytes / MB)} (total)`, f(br.storedBytes / MB), f(br.qps, 0), f(br.p50, 2), f(br.p95, 2)]);
    else rows.push(['Chromium Worker', `not run: ${br.skipped ?? br.message}`, '', '', '', '', '', '']);
    ctx.table('Hybrid Collection (BM25 + static dense + convex fusion), k=10', ['where', 'chunks', 'build s', 'memory MB', 'saved MB', 'q/s', 'p50 ms', 'p95 ms'], rows);
    if (colRes?.breakdown) {
      ctx.table('Node: parts of one hybrid query (ms)', ['part', 'p50', 'p95'], Object.entries(colRes.breakdown).map(([k, v]) => [
        { bm25: 'BM25 top-100', embed: 'embed query (static)', dense: 'dense flat top-100', fuse: 'fuse (convex, minmax)' }[k], f(v.p50, 2), f(v.p95, 2)]));
    }
    if (br.type === 'done') {
      process.stdout.write(`\nChromium hybrid p95 ${f(br.p95, 2)} ms: ${br.p95 < 50 ? 'meets' : 'MISSES'} the < 50 ms target; ${br.failedQueries} queries rejected (stopwords only)\n`);
    }
  },
};
