#!/usr/bin/env node
// Profiles the parallel build of the `parallel` bench suite (issue #18 item 1, docs/parallel.md):
//   node scripts/profile-parallel.mjs parts [--trees A,B]   CPU ms per thread (calling thread, V8 helper
//        threads, each Worker; Linux /proc/self/task, 10 ms ticks) of the BM25 add + first search and of
//        the parallel embedding alone, 1 Worker vs 2 Workers, SciFact x 6 (31,098 docs), twice each
//   node scripts/profile-parallel.mjs wait [--trees A,B]    the wall ms the first search waits after a
//        2-Worker build (BM25 add + embedding at once): the serial statistics sync
//   node scripts/profile-parallel.mjs clone                 calling-thread CPU ms of posting the build's
//        documents / texts / texts packed into transferred UTF-8 buffers to a Worker (2,048 per message)
// --trees: repository roots whose web/src is imported (default: this one), interleaved, to compare a
// change with its base (a base tree needs web/dist: a symlink to this one's is enough).
// Needs ../shared/data/scifact and models/build/static-model.bin. Prints; writes nothing.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { threadCpu, threadSplit } from '../tests/bench/lib/thread-cpu.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const shared = process.env.RAGWASM_SHARED ?? join(repoRoot, '..', 'shared');
const [what = 'parts', ...rest] = process.argv.slice(2);
const at = rest.indexOf('--trees');
const trees = at >= 0 ? rest[at + 1].split(',').map((t) => resolve(t)) : [repoRoot];

const base = readFileSync(join(shared, 'data/scifact/corpus.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const docs = [];
for (let r = 0; r < 6; r++) for (const d of base) docs.push({ id: `${d._id}#${r}`, title: d.title, text: d.text });
const load = () => os.loadavg()[0].toFixed(1);

async function libraries() {
  const libs = [];
  for (const t of trees) {
    const m = await import(join(t, 'web/src/index.js'));
    await m.init();
    libs.push({ name: t, ...m });
  }
  return libs;
}

if (what === 'parts') {
  const model = readFileSync(join(repoRoot, 'models/build/static-model.bin'));
  const libs = await libraries();
  for (const part of ['bm25', 'embed']) {
    for (let rep = 0; rep < 2; rep++) {
      for (const lib of libs) {
        for (const [mode, options] of [['1 Worker', { workers: 1, inThread: false }], ['2 Workers', { workers: 2 }]]) {
          const beforePool = threadCpu();
          const pool = await lib.WorkerPool.create(options);
          const [idx, emb] = await Promise.all([lib.ShardedBm25Index.create({}, { pool }), lib.createParallelEmbedder({ model, pool })]);
          const before = threadCpu();
          const t0 = performance.now();
          if (part === 'bm25') {
            await idx.add(docs);
            await idx.search('warm statistics', { k: 1 });
          } else {
            await emb.embed(docs.map((d) => `${d.title} ${d.text}`));
          }
          const ms = performance.now() - t0;
          const after = threadCpu();
          const t = threadSplit(beforePool, before, after);
          console.log(`${part} ${mode} (${lib.name}): calling thread ${t.main} / helpers ${t.helpers} / Workers ${t.workers.join('+')} CPU-ms; wall ${ms.toFixed(0)} ms; load ${load()}`);
          await pool.terminate();
        }
      }
    }
  }
} else if (what === 'wait') {
  const model = readFileSync(join(repoRoot, 'models/build/static-model.bin'));
  const libs = await libraries();
  for (let rep = 0; rep < 3; rep++) {
    for (const lib of libs) {
      const pool = await lib.WorkerPool.create({ workers: 2 });
      const [idx, emb] = await Promise.all([lib.ShardedBm25Index.create({}, { pool }), lib.createParallelEmbedder({ model, pool })]);
      await Promise.all([idx.add(docs), emb.embed(docs.map((d) => `${d.title} ${d.text}`))]);
      const t1 = performance.now();
      await idx.search('warm statistics', { k: 1 });
      console.log(`${lib.name}: first search after the 2-Worker build waits ${(performance.now() - t1).toFixed(1)} ms; load ${load()}`);
      await pool.terminate();
    }
  }
} else if (what === 'clone') {
  const texts = docs.map((d) => `${d.title} ${d.text}`);
  const w = new Worker("require('node:worker_threads').parentPort.on('message', (m) => require('node:worker_threads').parentPort.postMessage(1));", { eval: true });
  w.setMaxListeners(100);
  const roundTrip = (msg, transfer) => new Promise((res) => { w.once('message', res); w.postMessage(msg, transfer); });
  const encoder = new TextEncoder();
  const cpu = async (post) => {
    const c = process.cpuUsage();
    let last;
    for (let s = 0; s < docs.length; s += 2048) last = post(s);
    const used = process.cpuUsage(c);
    await last;
    return ((used.user + used.system) / 1000).toFixed(0);
  };
  for (let rep = 0; rep < 3; rep++) {
    const objects = await cpu((s) => roundTrip([docs.slice(s, s + 2048)]));
    const strings = await cpu((s) => roundTrip([texts.slice(s, s + 2048)]));
    const packed = await cpu((s) => {
      const part = texts.slice(s, s + 2048);
      let units = 0;
      for (const t of part) units += t.length;
      const bytes = new Uint8Array(units * 3);
      const offsets = new Uint32Array(part.length + 1);
      let n = 0;
      for (let i = 0; i < part.length; i++) {
        n += encoder.encodeInto(part[i], bytes.subarray(n)).written;
        offsets[i + 1] = n;
      }
      return roundTrip([bytes, offsets], [bytes.buffer, offsets.buffer]);
    });
    console.log(`calling-thread CPU ms to post ${docs.length} docs: objects ${objects}, text strings ${strings}, packed UTF-8 (transferred) ${packed}; load ${load()}`);
  }
  await w.terminate();
} else {
  console.error('usage: node scripts/profile-parallel.mjs parts|wait|clone [--trees A,B]');
  process.exit(2);
}
