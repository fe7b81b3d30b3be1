// Bench suite `postgres`: the same collection in PostgreSQL (docs/postgres.md). Full SciFact with
// the default hybrid pipeline config, exported to PGlite (WASM PostgreSQL 17 + pgvector) and to a
// throwaway Debian PostgreSQL 15 server (no pgvector: lexical only): agreement with the in-browser
// collection (BM25 top-10 lists and scores for every test query, nDCG@10; dense exact vs the flat
// index; HNSW recall@10 vs exact), then the scale table: export time, table sizes, throughput and
// query p50/p95 beside in-browser. RAGWASM_BENCH_PG_SCALE=1 adds (=only: runs only) the 101k-passage corpus of
// tests/bench/lib/big-corpus.mjs (BM25 + dense, PostgreSQL 15 and PGlite).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Collection, createStaticEmbedder } from '../../../web/src/index.js';
import { metrics } from '../../../web/src/eval.js';
import { connectPostgres, exportToPostgres, PostgresRetriever } from '../../../web/src/postgres.js';
import { loadBeir } from '../../../web/cli/datasets.mjs';
import { documentRanking } from '../../../web/cli/lib/retrievers.mjs';
import { bm25Agreement, sameRankingUpToTies, serverSkipReason, startPglite, startPostgresServer } from '../../js/postgres-helpers.mjs';
import { buildBigCorpus } from '../lib/big-corpus.mjs';

function ndcg10(runPairs, qrelsMap, queries) {
  const run = metrics.Run.create({ runId: 'pg' });
  const judged = {};
  for (const q of queries) if (qrelsMap.has(q.id)) judged[q.id] = Object.fromEntries(qrelsMap.get(q.id));
  const qrels = metrics.Qrels.fromObject(judged);
  try {
    for (const [qid, docs] of runPairs) run.addQuery(qid, docs.map((d) => d.id), docs.map((d) => d.score));
    return metrics.evaluateRun(qrels, run, { measures: ['ndcg_cut.10'], completeQueries: true }).aggregate.ndcg_cut_10;
  } finally {
    run.dispose();
    qrels.dispose();
  }
}

async function sizes(client, schema) {
  const r = await client.query(`SELECT c.relname AS t, pg_total_relation_size(c.oid)::float8 AS bytes FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r' ORDER BY c.relname`, [schema]);
  return Object.fromEntries(r.rows.map((x) => [x.t, Number(x.bytes)]));
}

async function latency(ctx, fn, queries) {
  let i = 0;
  const s = await ctx.time(async () => { await fn(queries[i++ % queries.length].text); }, { warmup: 5, reps: Math.min(queries.length, 200) });
  return s;
}

async function engineRun(ctx, name, client, col, embedder, queries, qrels, o) {
  const row = { engine: name };
  const t0 = performance.now();
  const r = await exportToPostgres(col, client, { schema: o.schema, batchSize: 2000 });
  row.exportS = (performance.now() - t0) / 1000;
  row.chunksPerS = col.chunks.size / row.exportS;
  row.impacts = r.impacts;
  row.vectors = r.vectors;
  row.sizes = await sizes(client, o.schema);
  row.bytesPerChunk = Object.values(row.sizes).reduce((a, b) => a + b, 0) / col.chunks.size;
  const pr = await PostgresRetriever.open(client, { schema: o.schema, embedder });
  try {
    if (o.agreement) {
      row.bm25 = await bm25Agreement(col, pr, queries, 10);
      const local = [];
      const remote = [];
      for (const q of queries) {
        if (col.bm25.analyze(q.text).length === 0) continue;
        local.push([q.id, documentRanking(col.bm25.search(q.text, { k: 100 }).map((h) => ({ ...h, docId: col.chunks.get(h.id).docId })), 10)]);
        remote.push([q.id, documentRanking(await pr.searchBm25(q.text, 100), 10)]);
      }
      row.ndcgBrowser = ndcg10(local, qrels, queries);
      row.ndcgEngine = ndcg10(remote, qrels, queries);
      if (r.vectors) {
        let same = 0;
        let maxDiff = 0;
        let recall = 0;
        for (const q of queries) {
          const [qv] = embedder.embedSync([q.text]);
          const a = col.dense.search(qv, { k: 10 });
          const b = await pr.searchDense(q.text, 10, { exact: true });
          if (sameRankingUpToTies(a, b, 1e-5)) same++;
          for (const h of a) maxDiff = Math.max(maxDiff, Math.abs(h.score - (b.find((x) => x.id === h.id)?.score ?? -Infinity)));
          const approx = await pr.searchDense(q.text, 10);
          const exactIds = new Set(b.map((h) => h.id));
          recall += approx.filter((h) => exactIds.has(h.id)).length / Math.max(1, b.length);
        }
        row.dense = { queries: queries.length, sameUpToTies: same, maxScoreDiff: maxDiff, hnswRecall10: recall / queries.length };
      }
    }
    const searchable = queries.filter((q) => col.bm25.analyze(q.text).length > 0);
    row.bm25Latency = await latency(ctx, (t) => pr.searchBm25(t, 10), searchable);
    if (r.vectors) {
      row.denseLatency = await latency(ctx, (t) => pr.searchDense(t, 10), searchable);
      row.hybridLatency = await latency(ctx, (t) => pr.search(t, { k: 10 }), searchable);
    }
  } finally {
    pr.dispose();
  }
  return row;
}

async function browserRow(ctx, col, embedder, queries, buildS) {
  const searchable = queries.filter((q) => col.bm25.analyze(q.text).length > 0);
  const row = { engine: 'in-browser (Node, WASM)', exportS: buildS, chunksPerS: col.chunks.size / buildS, bytesPerChunk: col.toBytes().length / col.chunks.size };
  row.bm25Latency = await latency(ctx, (t) => col.bm25.search(t, { k: 10 }), searchable);
  row.denseLatency = await latency(ctx, (t) => col.dense.search(embedder.embedSync([t])[0], { k: 10 }), searchable);
  row.hybridLatency = await latency(ctx, (t) => col.search(t, { k: 10 }), searchable);
  return row;
}

async function measure(ctx, label, docs, queries, qrels, embedder, { agreement }) {
  const t0 = performance.now();
  const col = await Collection.create({}, { embedder, keepVectors: true });
  await col.add(docs, { batchSize: 256 });
  const buildS = (performance.now() - t0) / 1000;
  const rows = [await browserRow(ctx, col, embedder, queries, buildS)];
  const db = await startPglite();
  try {
    rows.push(await engineRun(ctx, 'PGlite 0.4.6 (PostgreSQL 17.5 WASM + pgvector 0.8.1)', db, col, embedder, queries, qrels, { schema: 'bench', agreement }));
  } finally {
    await db.close();
  }
  const skip = serverSkipReason();
  if (skip) {
    process.stdout.write(`PostgreSQL 15 skipped: ${skip}\n`);
  } else {
    const server = await startPostgresServer();
    const client = await connectPostgres(server.url);
    try {
      rows.push(await engineRun(ctx, 'PostgreSQL 15.18 (Debian, no pgvector)', client, col, embedder, queries, qrels, { schema: 'bench', agreement }));
    } finally {
      await client.end();
      server.stop();
    }
  }
  col.dispose();
  const ms = (s) => (s ? `${s.median.toFixed(2)} / ${s.p95.toFixed(2)}` : 'n/a');
  ctx.table(`${label}: ${docs.length} documents, ${rows[0] && Math.round(rows[0].chunksPerS * rows[0].exportS)} chunks`,
    ['engine', 'build/export s', 'chunks/s', 'bytes/chunk', 'BM25 p50/p95 ms', 'dense p50/p95 ms', 'hybrid p50/p95 ms'],
    rows.map((r) => [r.engine, r.exportS, r.chunksPerS, r.bytesPerChunk, ms(r.bm25Latency), ms(r.denseLatency), ms(r.hybridLatency)]));
  for (const r of rows.filter((x) => x.sizes)) {
    ctx.table(`${label}: table sizes in ${r.engine} (pg_total_relation_size, bytes)`, ['table', 'bytes'], Object.entries(r.sizes));
  }
  if (agreement) {
    ctx.table(`${label}: agreement with the in-browser collection (${queries.length} queries)`,
      ['engine', 'BM25 top-10 lists differ', 'BM25 max |score diff|', 'nDCG@10 browser', 'nDCG@10 engine', 'dense exact same (up to 1e-5 ties)', 'dense max |score diff|', 'HNSW recall@10 vs exact'],
      rows.filter((x) => x.bm25).map((r) => [r.engine, r.bm25.listsDiffer, r.bm25.maxScoreDiff, r.ndcgBrowser, r.ndcgEngine,
        r.dense ? `${r.dense.sameUpToTies}/${r.dense.queries}` : 'no pgvector', r.dense ? r.dense.maxScoreDiff : 'n/a', r.dense ? r.dense.hnswRecall10 : 'n/a']));
  }
  ctx.record(label, rows.map(({ bm25Latency, denseLatency, hybridLatency, ...r }) => ({ ...r,
    bm25Ms: bm25Latency && { p50: bm25Latency.median, p95: bm25Latency.p95 }, denseMs: denseLatency && { p50: denseLatency.median, p95: denseLatency.p95 },
    hybridMs: hybridLatency && { p50: hybridLatency.median, p95: hybridLatency.p95 } })));
}

export default {
  name: 'postgres',
  description: 'the collection in PGlite and PostgreSQL 15: agreement on SciFact, export and query scale',
  async run(ctx) {
    const dir = ctx.shared('data/scifact/corpus.jsonl') && ctx.shared('data/scifact');
    const modelPath = join(ctx.repoRoot, 'models/build/static-model.bin');
    if (!dir || !existsSync(modelPath)) {
      const reason = `skipped: needs ../shared/data/scifact and ${modelPath}`;
      process.stdout.write(`${reason}\n`);
      ctx.record('skipped', reason);
      return;
    }
    const embedder = await createStaticEmbedder({ model: readFileSync(modelPath), cache: false });
    try {
      const s = loadBeir(dir);
      const docs = (ctx.quick ? s.corpus.slice(0, 1000) : s.corpus).map((d) => ({ id: d.id, text: `${d.title} ${d.text}` }));
      if (process.env.RAGWASM_BENCH_PG_SCALE !== 'only') await measure(ctx, 'SciFact', docs, s.queries, s.qrels, embedder, { agreement: true });
      if (process.env.RAGWASM_BENCH_PG_SCALE === '1' || process.env.RAGWASM_BENCH_PG_SCALE === 'only') {
        const big = buildBigCorpus(ctx.shared);
        await measure(ctx, '101k passages', big.docs, big.queries.slice(0, 500), new Map(), embedder, { agreement: false });
      } else {
        process.stdout.write('\n101k-passage scale run not run (set RAGWASM_BENCH_PG_SCALE=1)\n');
        ctx.record('scale101k', 'not run (RAGWASM_BENCH_PG_SCALE unset)');
      }
    } finally {
      embedder.dispose();
    }
  },
};
