// Bench suite `parallel` (issue #18 item 1): the Worker pool on this machine, 1 vs 2 Workers.
//   build: BM25 (ShardedBm25Index) + static embeddings (createParallelEmbedder) of a SciFact-derived
//     corpus (the 5,183 abstracts repeated with distinct ids; 2 repeats with --quick), both on one pool;
//     workers: 1 is the calling thread (no Worker), i.e. today's single-core build.
//   scan: exact flat scan (ShardedVectorIndex, dot, f32) of 1M synthetic 100-d vectors (200k with
//     --quick), batches of 16 queries, k = 10.
// Goals (issue #18): build and scan >= 1.8x with 2 Workers. The machine's load average is printed with
// every table: other processes share the cores, and the ratio is only meaningful when it is low (with
// sched_autogroup, as here, a busy machine gives this process one group's share of CPU however many
// threads it runs). CPU seconds of the whole process (process.cpuUsage(), Worker threads included)
// are printed too: 2-Worker CPU close to 1-thread CPU means the split itself costs little.
import os from 'node:os';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { init, WorkerPool, ShardedBm25Index, ShardedVectorIndex, createParallelEmbedder } from '../../../web/src/index.js';
import { seededRandom } from '../../../web/src/goldens/split.js';

function load() {
  return os.loadavg().map((x) => x.toFixed(2)).join(' ');
}

function corpus(ctx, repeats) {
  const p = ctx.shared('data/scifact/corpus.jsonl');
  if (!p) return null;
  const base = readFileSync(p, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const docs = [];
  for (let r = 0; r < repeats; r++) for (const d of base) docs.push({ id: `${d._id}#${r}`, title: d.title, text: d.text });
  return docs;
}


async function build(workers, docs, model) {
  const pool = await WorkerPool.create({ workers });
  try {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const [idx, emb] = await Promise.all([ShardedBm25Index.create({}, { pool }), createParallelEmbedder({ model, pool })]);
    const texts = docs.map((d) => `${d.title} ${d.text}`);
    const [, vectors] = await Promise.all([idx.add(docs), emb.embed(texts)]);
    await idx.search('warm statistics', { k: 1 });  // sums and injects the collection-wide statistics
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    if (vectors.length !== docs.length || idx.size !== docs.length) throw new Error('build lost documents');
    return { ms, cpuMs: (c.user + c.system) / 1000 };
  } finally {
    await pool.terminate();
  }
}

export default {
  name: 'parallel',
  description: 'Worker pool: BM25 + static-embedding build and 1M-vector flat scan, 1 vs 2 Workers',
  async run(ctx) {
    await init();
    const model = join(ctx.repoRoot, 'models/build/static-model.bin');
    const docs = corpus(ctx, ctx.quick ? 2 : 6);
    const rows = [];
    if (docs && existsSync(model)) {
      const bytes = readFileSync(model);
      const reps = ctx.quick ? 1 : 3;
      const times = {};
      const cpu = {};
      for (const workers of [1, 2]) {
        const samples = [];
        for (let r = 0; r < reps; r++) samples.push(await build(workers, docs, bytes));
        times[workers] = ctx.stats(samples.map((x) => x.ms)).median;
        cpu[workers] = ctx.stats(samples.map((x) => x.cpuMs)).median;
      }
      rows.push([`build BM25 + static embeddings, ${docs.length} docs`, times[1], times[2], times[1] / times[2], '>= 1.8', `${(cpu[1] / 1000).toFixed(1)} / ${(cpu[2] / 1000).toFixed(1)}`, load()]);
      ctx.record('build', { docs: docs.length, ms1: times[1], ms2: times[2], speedup: times[1] / times[2], cpuMs1: cpu[1], cpuMs2: cpu[2], load: os.loadavg() });
    } else {
      rows.push(['build (needs ../shared/data/scifact and models/build/static-model.bin)', '-', '-', '-', '>= 1.8', '-', load()]);
    }

    const n = ctx.quick ? 200_000 : 1_000_000;
    const dim = 100;
    const rand = seededRandom(18);
    const flat = new Float32Array(n * dim);
    for (let i = 0; i < flat.length; i++) flat[i] = rand() * 2 - 1;
    const queries = Array.from({ length: 16 }, () => Float32Array.from({ length: dim }, () => rand() * 2 - 1));
    const scan = {};
    const scanCpu = {};
    let first = null;
    for (const workers of [1, 2]) {
      const idx = await ShardedVectorIndex.create({ dimension: dim, metric: 'dot' }, { workers });
      try {
        const step = 100_000;
        for (let s = 0; s < n; s += step) {
          const items = [];
          for (let i = s; i < Math.min(n, s + step); i++) items.push({ id: `v${i}`, vector: flat.subarray(i * dim, (i + 1) * dim) });
          await idx.add(items);
        }
        const result = await idx.searchMany(queries, { k: 10 });
        if (first === null) first = JSON.stringify(result);
        else if (JSON.stringify(result) !== first) throw new Error('2 Workers returned other hits than 1');
        const reps = ctx.quick ? 3 : 7;
        const c0 = process.cpuUsage();
        const t = await ctx.time(() => idx.searchMany(queries, { k: 10 }), { warmup: 0, reps });
        const c = process.cpuUsage(c0);
        scan[workers] = t.median / queries.length;
        scanCpu[workers] = (c.user + c.system) / 1000 / reps / queries.length;
      } finally {
        await idx.dispose();
      }
    }
    const gbps = (ms) => (n * dim * 4) / (ms / 1000) / 1e9;
    rows.push([`flat scan ${n / 1e6}M x ${dim} f32 dot, ms/query (GB/s)`, `${scan[1].toFixed(2)} (${gbps(scan[1]).toFixed(1)})`, `${scan[2].toFixed(2)} (${gbps(scan[2]).toFixed(1)})`, scan[1] / scan[2], '>= 1.8', `${scanCpu[1].toFixed(1)} / ${scanCpu[2].toFixed(1)} ms`, load()]);
    ctx.record('scan', { n, dim, msPerQuery1: scan[1], msPerQuery2: scan[2], speedup: scan[1] / scan[2], cpuMsPerQuery1: scanCpu[1], cpuMsPerQuery2: scanCpu[2], identical: true, load: os.loadavg() });
    ctx.table(`Worker pool, 1 vs 2 Workers (${os.cpus().length} cores; load average 1/5/15 min in the last column)`,
      ['case', '1 (this thread) ms', '2 Workers ms', 'speedup', 'goal', 'CPU 1 / 2 (s or ms/query)', 'load'], rows);
  },
};
