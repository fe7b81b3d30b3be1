#!/usr/bin/env node
// Profiles the 2-Worker flat scan of the `parallel` bench suite (issue #18 item 1, docs/parallel.md,
// "The 2-Worker flat scan"): 1M (--n) synthetic 100-d f32 vectors, batches of 16 queries, k = 10.
//   node scripts/profile-scan.mjs cpus [--repeat 3]   one thread pinned to each CPU in turn (Linux
//        `taskset -c`): VectorIndex.searchMany ms/query (scaled to 1M rows from 200k) and the SIMD kernel
//        of tests/bench/lib/ceiling.mjs (5e7 iterations), 3 measurements per CPU: shows a CPU that is slower
//   node scripts/profile-scan.mjs shards [--batches 30] each 2-Worker batch's two shard times (ms/query,
//        measured inside the Workers: ShardedVectorIndex._shardMs)
//   node scripts/profile-scan.mjs workers [--rounds 5] 1, 2 and 4 Workers, batches alternating: medians per round
//   node scripts/profile-scan.mjs interference [--rounds 4]  a 1-Worker scan (median of 4 batches) while another
//        thread runs nothing / the integer chain / the SIMD kernel / a 200 MB read pass in a loop
// Prints; writes nothing. Run it on an idle machine (or in its own scheduler group at a low nice).
import { execFileSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { init, VectorIndex } from '../web/src/index.js';
import { WorkerPool, ShardedVectorIndex } from '../web/src/parallel.js';
import { seededRandom } from '../web/src/goldens/split.js';
import { kernelModule } from '../tests/bench/lib/ceiling.mjs';

const args = process.argv.slice(2);
const what = args[0] ?? 'cpus';
const opt = (name, d) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : d;
};
const dim = 100;
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];

function data(n) {
  const rand = seededRandom(18);
  const flat = new Float32Array(n * dim);
  for (let i = 0; i < flat.length; i++) flat[i] = rand() * 2 - 1;
  const queries = Array.from({ length: 16 }, () => Float32Array.from({ length: dim }, () => rand() * 2 - 1));
  const items = (from, to) => {
    const out = [];
    for (let i = from; i < to; i++) out.push({ id: `v${i}`, vector: flat.subarray(i * dim, (i + 1) * dim) });
    return out;
  };
  return { queries, items };
}

async function sharded(workers, n, d) {
  const pool = await WorkerPool.create({ workers, inThread: false, warm: true });
  const idx = await ShardedVectorIndex.create({ dimension: dim, metric: 'dot' }, { pool });
  for (let s = 0; s < n; s += 100_000) await idx.add(d.items(s, Math.min(n, s + 100_000)));
  await idx.searchMany(d.queries, { k: 10 });
  return { workers, pool, idx };
}

await init();
if (what === 'cpu-child') {
  // one pinned measurement (run by `cpus`)
  const n = 200_000;
  const d = data(n);
  const idx = VectorIndex.create({ dimension: dim, metric: 'dot' });
  idx.add(d.items(0, n));
  const ex = new WebAssembly.Instance(new WebAssembly.Module(kernelModule())).exports;
  ex.simd(1e6);
  idx.searchMany(d.queries, { k: 10 });
  const out = [];
  for (let r = 0; r < 3; r++) {
    const t = [];
    for (let b = 0; b < 6; b++) {
      const t0 = performance.now();
      idx.searchMany(d.queries, { k: 10 });
      t.push(((performance.now() - t0) / 16) * (1_000_000 / n));
    }
    const s0 = performance.now();
    ex.simd(5e7);
    out.push(`scan ${med(t).toFixed(2)} ms/query, SIMD ${(performance.now() - s0).toFixed(0)} ms`);
  }
  console.log(out.join('; '));
} else if (what === 'cpus') {
  const cpus = os.cpus().length;
  for (let r = 0; r < opt('repeat', 3); r++) {
    for (let c = 0; c < cpus; c++) {
      const line = execFileSync('taskset', ['-c', String(c), process.execPath, fileURLToPath(import.meta.url), 'cpu-child'], { encoding: 'utf8' }).trim();
      console.log(`${new Date().toISOString().slice(11, 19)} CPU ${c}: ${line}`);
    }
  }
} else if (what === 'shards') {
  const d = data(opt('n', 1_000_000));
  const m = await sharded(2, opt('n', 1_000_000), d);
  const line = [];
  for (let b = 0; b < opt('batches', 30); b++) {
    await m.idx.searchMany(d.queries, { k: 10 });
    line.push(m.idx._shardMs.map((x) => (x / 16).toFixed(1)).join('/'));
  }
  console.log(`shard 0 / shard 1, ms/query per batch: ${line.join('  ')}`);
  await m.idx.dispose();
  await m.pool.terminate();
} else if (what === 'workers') {
  const n = opt('n', 1_000_000);
  const d = data(n);
  const modes = [];
  for (const w of [1, 2, 4]) modes.push(await sharded(w, n, d));
  for (let r = 0; r < opt('rounds', 5); r++) {
    const t = modes.map(() => []);
    for (let b = 0; b < 8; b++) {
      for (let i = 0; i < modes.length; i++) {
        const t0 = performance.now();
        await modes[i].idx.searchMany(d.queries, { k: 10 });
        t[i].push((performance.now() - t0) / 16);
      }
    }
    const [a, b2, c] = t.map(med);
    console.log(`round ${r + 1}: 1 W ${a.toFixed(2)}, 2 W ${b2.toFixed(2)} (${(a / b2).toFixed(2)}×), 4 W ${c.toFixed(2)} (${(a / c).toFixed(2)}×) ms/query`);
  }
  for (const m of modes) {
    await m.idx.dispose();
    await m.pool.terminate();
  }
} else if (what === 'interference') {
  const n = opt('n', 1_000_000);
  const d = data(n);
  const m = await sharded(1, n, d);
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const src = `
const { parentPort, workerData } = require('node:worker_threads');
const { bytes, flag } = workerData;
const ex = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports;
const len = 200 * 1024 * 1024;
ex.mem.grow(len / 65536 + 1);
new Uint8Array(ex.mem.buffer, 65536, len).fill(1);
parentPort.postMessage('ready');
parentPort.on('message', (op) => {
  while (Atomics.load(flag, 0) === 1) { if (op === 'spin') ex.spin(1e6); else if (op === 'simd') ex.simd(1e6); else ex.read(65536, 65536 + len); }
  parentPort.postMessage('stopped');
});`;
  const w = new Worker(src, { eval: true, workerData: { bytes: kernelModule(), flag } });
  await new Promise((r) => w.once('message', r));
  for (let r = 0; r < opt('rounds', 4); r++) {
    const cells = [];
    for (const op of ['idle', 'spin', 'simd', 'read']) {
      if (op !== 'idle') {
        Atomics.store(flag, 0, 1);
        w.postMessage(op);
        await new Promise((x) => setTimeout(x, 20));
      }
      const t = [];
      for (let b = 0; b < 4; b++) {
        const t0 = performance.now();
        await m.idx.searchMany(d.queries, { k: 10 });
        t.push((performance.now() - t0) / 16);
      }
      if (op !== 'idle') {
        Atomics.store(flag, 0, 0);
        await new Promise((x) => w.once('message', x));
      }
      cells.push(`${op} ${med(t).toFixed(2)}`);
    }
    console.log(`round ${r + 1}: 1-Worker scan ms/query with the other thread ${cells.join(', ')}`);
  }
  await w.terminate();
  await m.idx.dispose();
  await m.pool.terminate();
} else {
  console.error('usage: node scripts/profile-scan.mjs cpus|shards|workers|interference');
  process.exit(2);
}
