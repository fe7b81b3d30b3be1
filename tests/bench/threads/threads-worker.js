// Classic Worker of the `threads` bench (tests/bench/suites/threads.mjs): hosts the optional WASM-threads
// scan module (build/wasm-threads/threads/scan_threads.js, a classic script: its pthread Workers load it
// with importScripts) so that, like the Worker pool, the scan runs off the page's thread and the module's
// own thread may block in pthread_join. Messages: {op: 'init'} -> {isolated, memoryShared, poolSize};
// {op: 'add', rows, first, data} -> {}; {op: 'search', queries (Float32Array, count x dim), k, threads,
// chunk} -> {hits: [[{id, score}]], threadMs: [per thread]}. Replies carry the request's `seq`; errors {error}.
/* global createScanThreads, importScripts */
const BUILD = '/build/wasm-threads/threads/scan_threads.js';
importScripts(BUILD);
let M = null;
let dim = 0;

function check(rc) {
  if (rc !== 0) throw new Error(M.UTF8ToString(M._st_error()));
}

// a heap block for `bytes`, freed after fn; the views are taken after every malloc (memory may grow)
function withBlock(bytes, fn) {
  const p = M._malloc(Math.max(bytes, 8));
  if (!p) throw new Error(`malloc(${bytes}) failed`);
  try {
    return fn(p);
  } finally {
    M._free(p);
  }
}

const ops = {
  async init({ dimension }) {
    const url = new URL(BUILD, self.location.href).href;
    // the .wasm and the pthread worker.js sit beside the script, not beside this Worker
    M = await createScanThreads({ mainScriptUrlOrBlob: url, locateFile: (path) => new URL(path, url).href });
    dim = dimension;
    check(M._st_create(dim));
    return { isolated: self.crossOriginIsolated === true, memoryShared: M.wasmMemory.buffer instanceof SharedArrayBuffer,
      poolSize: M.PThread.unusedWorkers.length + M.PThread.runningWorkers.length };
  },
  add({ rows, first, data }) {
    withBlock(data.byteLength, (p) => {
      new Float32Array(M.wasmMemory.buffer, p, data.length).set(data);
      check(M._st_add(p, rows, first));
    });
    return {};
  },
  search({ queries, k, threads, chunk }) {
    const count = queries.length / dim;
    const bytes = queries.byteLength + count * k * 8 + count * 4 + threads * 8;
    return withBlock(bytes + 16, (p) => {
      const qp = p;
      const slots = qp + queries.byteLength;
      const scores = slots + count * k * 4;
      const counts = scores + count * k * 4;
      const ms = (counts + count * 4 + 7) & ~7;
      new Float32Array(M.wasmMemory.buffer, qp, queries.length).set(queries);
      check(M._st_search(qp, count, k, threads, chunk, slots, scores, counts, ms));
      const buf = M.wasmMemory.buffer;
      const s = new Uint32Array(buf, slots, count * k);
      const f = new Float32Array(buf, scores, count * k);
      const c = new Uint32Array(buf, counts, count);
      const hits = [];
      for (let q = 0; q < count; q++) {
        const list = [];
        for (let i = 0; i < c[q]; i++) list.push({ id: M.UTF8ToString(M._st_id(s[q * k + i])), score: f[q * k + i] });
        hits.push(list);
      }
      return { hits, threadMs: Array.from(new Float64Array(buf, ms, threads)) };
    });
  },
};

self.onmessage = async (e) => {
  const { seq, op, ...args } = e.data;
  try {
    self.postMessage({ seq, ...(await ops[op](args)) });
  } catch (err) {
    self.postMessage({ seq, error: String(err?.stack ?? err) });
  }
};
