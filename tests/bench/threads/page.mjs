// Page side of the `threads` bench (tests/bench/suites/threads.mjs), imported by the page in headless Chromium:
// the same 1M x 100 f32 vectors (seededRandom(18), as the parallel suite) in (a) the WASM-threads scan module
// in a Worker (threads-worker.js) and (b) the Worker pool's ShardedVectorIndex with 1 Worker and with
// 2 Workers; checks that every mode returns the same hits (ids and scores), then times interleaved rounds.
import { init } from '/web/src/index.js';
import { WorkerPool, ShardedVectorIndex } from '/web/src/parallel.js';
import { seededRandom } from '/web/src/goldens/split.js';

// A request/reply channel to the threads Worker (also used by tests/browser/threads.test.mjs).
export function threadsHost() {
  const w = new Worker('/tests/bench/threads/threads-worker.js');
  let seq = 0;
  const pending = new Map();
  w.onmessage = (e) => {
    const { seq: s, error, ...rest } = e.data;
    const p = pending.get(s);
    pending.delete(s);
    if (error) p.reject(new Error(error));
    else p.resolve(rest);
  };
  w.onerror = (e) => { for (const p of pending.values()) p.reject(new Error(`threads Worker: ${e.message}`)); };
  return {
    call: (op, args = {}, transfer = []) => new Promise((resolve, reject) => {
      pending.set(++seq, { resolve, reject });
      w.postMessage({ seq, op, ...args }, transfer);
    }),
    terminate: () => w.terminate(),
  };
}

const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * opts: {n, dim, k, batch, batches, rounds, reps, chunk, progress(text), mark(label)}. Returns per mode and
 * round: the median batch wall ms / query and the scan time inside (threads: the slowest thread; pool: the
 * slowest shard), plus the checks.
 */
export async function run({ n, dim, k, batch, batches, rounds, reps, chunk }) {
  const say = (t) => self.benchProgress?.(t);
  const out = { isolated: self.crossOriginIsolated === true, hardwareConcurrency: navigator.hardwareConcurrency, userAgent: navigator.userAgent };
  if (!out.isolated) throw new Error('the page is not cross-origin isolated (COOP/COEP headers missing)');
  await init();
  const rand = seededRandom(18);
  const flat = new Float32Array(n * dim);
  for (let i = 0; i < flat.length; i++) flat[i] = rand() * 2 - 1;
  // `batches` batches of `batch` queries (distinct), cycled through the timed repetitions
  const queryBatches = Array.from({ length: batches }, () => Array.from({ length: batch }, () => Float32Array.from({ length: dim }, () => rand() * 2 - 1)));
  const flatBatch = (b) => {
    const f = new Float32Array(batch * dim);
    queryBatches[b].forEach((q, i) => f.set(q, i * dim));
    return f;
  };
  const host = threadsHost();
  const pools = [];
  try {
    out.threadsInit = await host.call('init', { dimension: dim });
    if (!out.threadsInit.isolated || !out.threadsInit.memoryShared) throw new Error(`threads Worker: ${JSON.stringify(out.threadsInit)}`);
    const p1 = await WorkerPool.create({ workers: 1, inThread: false, warm: true });
    pools.push(p1);
    const p2 = await WorkerPool.create({ workers: 2, warm: true });
    pools.push(p2);
    const w1 = await ShardedVectorIndex.create({ dimension: dim, metric: 'dot' }, { pool: p1 });
    const w2 = await ShardedVectorIndex.create({ dimension: dim, metric: 'dot' }, { pool: p2 });
    const step = 100_000;
    for (let s = 0; s < n; s += step) {
      const e = Math.min(n, s + step);
      const items = [];
      for (let i = s; i < e; i++) items.push({ id: `v${i}`, vector: flat.subarray(i * dim, (i + 1) * dim) });
      await Promise.all([w1.add(items), w2.add(items), (() => { const data = flat.slice(s * dim, e * dim); return host.call('add', { rows: e - s, first: s, data }, [data.buffer]); })()]);
      say(`loaded ${e} / ${n}`);
    }
    const modes = [
      { name: 't1', label: 'WASM threads, 1 thread', threads: 1 },
      { name: 't2', label: 'WASM threads, 2 threads (static halves)', threads: 2, chunk: 0 },
      { name: 't2d', label: `WASM threads, 2 threads (dynamic, ${chunk}-row ranges)`, threads: 2, chunk },
      { name: 'w1', label: 'Worker pool, 1 Worker', idx: w1 },
      { name: 'w2', label: 'Worker pool, 2 Workers', idx: w2 },
    ];
    const searchBatch = async (mode, b) => {
      if (mode.idx) {
        const w0 = performance.now();
        const hits = await mode.idx.searchMany(queryBatches[b], { k });
        return { hits, wall: performance.now() - w0, inside: Math.max(...mode.idx._shardMs), insideMin: Math.min(...mode.idx._shardMs) };
      }
      const q = flatBatch(b);
      const w0 = performance.now();
      const r = await host.call('search', { queries: q, k, threads: mode.threads, chunk: mode.chunk ?? 0 }, [q.buffer]);
      return { hits: r.hits, wall: performance.now() - w0, inside: Math.max(...r.threadMs), insideMin: Math.min(...r.threadMs) };
    };
    // the check: every mode's hits on every batch equal the 1-thread module's (ids and scores, JSON-equal)
    out.check = { queries: batches * batch, equal: {} };
    for (let b = 0; b < batches; b++) {
      const want = JSON.stringify((await searchBatch(modes[0], b)).hits);
      for (const mode of modes.slice(1)) {
        const got = JSON.stringify((await searchBatch(mode, b)).hits);
        if (got !== want) throw new Error(`${mode.label}: other hits than 1 thread on batch ${b}`);
        out.check.equal[mode.name] = (out.check.equal[mode.name] ?? 0) + batch;
      }
    }
    say(`hits equal in every mode on ${batches * batch} queries`);
    out.modes = modes.map(({ name, label, threads, chunk: c }) => ({ name, label, threads, chunk: c }));
    out.rounds = [];
    for (let r = 0; r < rounds; r++) {
      await self.benchRound?.(r, 'start');
      for (const mode of modes) await searchBatch(mode, 0);  // warm-up, outside the timing
      const acc = Object.fromEntries(modes.map((m) => [m.name, { wall: [], inside: [], insideMin: [] }]));
      // the modes alternate batch by batch, so a change of the VM's speed hits every mode alike
      for (let i = 0; i < reps; i++) {
        for (const mode of modes) {
          const x = await searchBatch(mode, (r * reps + i) % batches);
          acc[mode.name].wall.push(x.wall / batch);
          acc[mode.name].inside.push(x.inside / batch);
          acc[mode.name].insideMin.push(x.insideMin / batch);
        }
      }
      await self.benchRound?.(r, 'end');
      const round = {};
      for (const mode of modes) {
        const a = acc[mode.name];
        round[mode.name] = { ms: median(a.wall), insideMs: median(a.inside), insideMinMs: median(a.insideMin), samples: a.wall };
      }
      out.rounds.push(round);
      say(`round ${r + 1}/${rounds}: ` + modes.map((m) => `${m.name} ${round[m.name].ms.toFixed(2)}`).join(', ') + ' ms/query');
    }
    return out;
  } finally {
    host.terminate();
    for (const p of pools) await p.terminate();
  }
}
