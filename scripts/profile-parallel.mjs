#!/usr/bin/env node
// Profiles the parallel build of the `parallel` bench suite (issue #18 item 1, docs/parallel.md):
//   node scripts/profile-parallel.mjs parts [--trees A,B]   CPU ms per thread (calling thread, V8 helper
//        threads, each Worker; Linux /proc/self/task, 10 ms ticks) of the BM25 add + first search and of
//        the parallel embedding alone, 1 Worker vs 2 Workers, SciFact x 6 (31,098 docs), twice each
//   node scripts/profile-parallel.mjs wait [--trees A,B]    the wall ms the first search waits after a
//        2-Worker build (BM25 add + embedding at once): the serial statistics sync
//   node scripts/profile-parallel.mjs clone                 calling-thread CPU ms of posting the build's
//        documents / texts / texts packed into transferred UTF-8 buffers to a Worker (2,048 per message)
//   node scripts/profile-parallel.mjs bm25 [--trees A,B] [--rounds N]   the bm25 suite's 2-Worker build of
//        SciFact (5,183 docs, add + first search, a warm pool), per round and tree: wall ms, CPU ms per thread,
//        and the timeline of the pool's calls (each add piece, the statistics sync: rawStats / stats, setGlobalDf)
//   node scripts/profile-parallel.mjs timeline [--trees A,B] [--rounds N]   the bench's build row (BM25 add +
//        parallel embedding + first search, SciFact x 6, warm pools), 1 Worker and 2 Workers per round and tree:
//        (embedDocuments, or embed() of joined texts in a tree without it) wall ms, CPU ms per thread, and per Worker when it had no call pending (idle before its first call,
//        between calls, after its last reply) and what the calling thread did meanwhile (the phases' ends)
// --trees: repository roots whose web/src is imported (default: this one), interleaved, to compare a
// change with its base (a base tree needs web/dist: a symlink to this one's is enough).
// Needs ../shared/data/scifact and models/build/static-model.bin. Prints; writes nothing.
import { existsSync, readFileSync } from 'node:fs';
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
    // a tree from before the parallel tier had its own entry (ragwasm/parallel) exports it from the core entry
    const parallel = existsSync(join(t, 'web/src/parallel.js')) ? await import(join(t, 'web/src/parallel.js')) : {};
    libs.push({ name: t, ...m, ...parallel });
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
} else if (what === 'bm25') {
  const { loadBeir } = await import(join(repoRoot, 'web/cli/datasets.mjs'));
  const ds = loadBeir(join(shared, 'data/scifact'));
  const ri = rest.indexOf('--rounds');
  const rounds = ri >= 0 ? Number(rest[ri + 1]) : 8;
  const libs = await libraries();
  for (const lib of libs) {
    lib.beforePool = threadCpu();
    // a tree without WorkerPool's `warm` option refuses it: warm it with one build instead (below)
    lib.pool = await lib.WorkerPool.create({ workers: 2, warm: true }).catch(() => lib.WorkerPool.create({ workers: 2 }));
    lib.ms = [];
    lib.t0 = 0;
    lib.log = [];
    const call = lib.pool._call.bind(lib.pool);
    const all = lib.pool._all.bind(lib.pool);
    const note = (name, p) => {
      const start = performance.now() - lib.t0;
      p.then(() => lib.log.push(`${name} ${start.toFixed(0)}-${(performance.now() - lib.t0).toFixed(0)}`), () => {});
      return p;
    };
    lib.pool._call = (i, op, args, transfer) => note(`${op.replace('bm25.', '')}@${i}${op === 'bm25.add' ? `(${args[1].length})` : ''}`, call(i, op, args, transfer));
    lib.pool._all = (op, args) => note(`${op.replace('bm25.', '')}@all`, all(op, args));
  }
  const once = async (lib) => {
    const i = await lib.ShardedBm25Index.create({}, { pool: lib.pool });
    await i.add(ds.corpus);
    await i.search(ds.queries[0].text, { k: 10 });
    return i;
  };
  for (const lib of libs) await (await once(lib)).dispose();  // warm-up build
  for (let r = 0; r < rounds; r++) {
    const one = libs[0].Bm25Index.create();
    const a = performance.now();
    one.add(ds.corpus);
    const oneMs = performance.now() - a;
    one.dispose();
    for (const lib of r % 2 ? [...libs].reverse() : libs) {
      lib.log = [];
      const before = threadCpu();
      lib.t0 = performance.now();
      const i = await once(lib);
      const ms = performance.now() - lib.t0;
      lib.ms.push(ms);
      const t = threadSplit(lib.beforePool, before, threadCpu());
      console.log(`round ${r + 1} ${lib.name}: 2 Workers ${ms.toFixed(0)} ms (one Bm25Index in this thread ${oneMs.toFixed(0)} ms); CPU ms calling thread ${t.main} / Workers ${t.workers.join('+')} / helpers ${t.helpers}; `
        + `timeline ms ${lib.log.filter((x) => !x.startsWith('create')).join(', ')}; load ${load()}`);
      await i.dispose();
    }
  }
  const med = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  for (const lib of libs) console.log(`${lib.name}: 2-Worker build median ${med(lib.ms).toFixed(1)} ms over ${rounds} rounds`);
  if (libs.length === 2) console.log(`paired ratio ${libs[0].name} / ${libs[1].name} per round: ${libs[0].ms.map((x, i) => (x / libs[1].ms[i]).toFixed(2)).join(' ')}`);
  for (const lib of libs) await lib.pool.terminate();
} else if (what === 'timeline') {
  const model = readFileSync(join(repoRoot, 'models/build/static-model.bin'));
  const ri = rest.indexOf('--rounds');
  const rounds = ri >= 0 ? Number(rest[ri + 1]) : 3;
  const libs = await libraries();
  const ratios = new Map(libs.map((l) => [l.name, []]));
  for (let r = 0; r < rounds; r++) {
    for (const lib of r % 2 ? [...libs].reverse() : libs) {
      const wall = {};
      for (const [mode, options] of [['w1', { workers: 1, inThread: false, warm: true }], ['w2', { workers: 2, warm: true }]]) {
        const beforePool = threadCpu();
        const pool = await lib.WorkerPool.create(options);
        const [idx, emb] = await Promise.all([lib.ShardedBm25Index.create({}, { pool }), lib.createParallelEmbedder({ model, pool })]);
        // every call: lane, op, posted, replied (ms from t0); a lane is idle while none of its calls is pending
        const calls = [];
        let t0 = 0;
        const call = pool._call.bind(pool);
        pool._call = (i, op, args, transfer) => {
          const c = { lane: i, op, posted: performance.now() - t0, replied: NaN };
          calls.push(c);
          const p = call(i, op, args, transfer);
          p.then(() => { c.replied = performance.now() - t0; }, () => {});
          return p;
        };
        pool._all = (op, args) => Promise.all(Array.from({ length: pool.size }, (_, i) => pool._call(i, op, typeof args === 'function' ? args(i) : args)));  // logged too
        const before = threadCpu();
        t0 = performance.now();
        // the bench row: embedDocuments where the tree has it, else the texts joined here and embed()
        const texts = emb.embedDocuments ? null : docs.map((d) => `${d.title} ${d.text}`);
        const tTexts = performance.now() - t0;
        const addP = idx.add(docs);
        const tAddPosted = performance.now() - t0;
        const embP = texts ? emb.embed(texts) : emb.embedDocuments(docs);
        const tEmbPosted = performance.now() - t0;
        const [, vectors] = await Promise.all([addP.then((x) => { wall.addDone = performance.now() - t0; return x; }), embP.then((x) => { wall.embDone = performance.now() - t0; return x; })]);
        const tBuilt = performance.now() - t0;
        await idx.search('warm statistics', { k: 1 });
        const ms = performance.now() - t0;
        const t = threadSplit(beforePool, before, threadCpu());
        if (vectors.length !== docs.length) throw new Error('lost vectors');
        const lanes = [];
        for (let w = 0; w < pool.size; w++) {
          const mine = calls.filter((c) => c.lane === w && c.posted >= 0).sort((a, b) => a.posted - b.posted);
          // busy intervals: from a call's posting (or the previous reply, whichever is later) to its reply
          let idle = 0; let first = mine.length ? mine[0].posted : ms; let end = 0; let gaps = 0;
          for (const c of mine) {
            if (c.posted > end && end > 0) { gaps += c.posted - end; }
            end = Math.max(end, c.replied);
          }
          idle = first + gaps + (ms - end);
          const ops = {};
          for (const c of mine) ops[c.op] = (ops[c.op] ?? 0) + 1;
          lanes.push(`W${w}: first call ${first.toFixed(0)}, gaps ${gaps.toFixed(0)}, last reply ${end.toFixed(0)} (idle ${idle.toFixed(0)} ms of ${ms.toFixed(0)}; ${Object.entries(ops).map(([k, v]) => `${k.replace(/^(bm25|embed)\./, '')}×${v}`).join(' ')})`);
        }
        wall[mode] = ms;
        console.log(`round ${r + 1} ${mode} (${lib.name}): ${ms.toFixed(0)} ms; texts ${tTexts.toFixed(0)}, add posted ${tAddPosted.toFixed(0)}, embed posted ${tEmbPosted.toFixed(0)}, add done ${wall.addDone.toFixed(0)}, embed done ${wall.embDone.toFixed(0)}, built ${tBuilt.toFixed(0)}, searched ${ms.toFixed(0)}; `
          + `CPU ms calling thread ${t.main} / Workers ${t.workers.join('+')} / helpers ${t.helpers}; ${lanes.join('; ')}; load ${load()}`);
        await pool.terminate();
      }
      ratios.get(lib.name).push(wall.w1 / wall.w2);
      console.log(`round ${r + 1} (${lib.name}): 1 W / 2 W = ${(wall.w1 / wall.w2).toFixed(2)}×`);
    }
  }
  for (const [name, a] of ratios) console.log(`${name}: 1 W / 2 W per round ${a.map((x) => x.toFixed(2)).join(' ')}`);
} else {
  console.error('usage: node scripts/profile-parallel.mjs parts|wait|clone|bm25|timeline [--trees A,B] [--rounds N]');
  process.exit(2);
}
