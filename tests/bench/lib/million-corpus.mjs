// The `million` bench corpus: the ~101k passages of big-corpus.mjs repeated to any size with distinct
// ids and varied text, so BM25 statistics are not those of N identical copies. Pure JS (no node:
// imports): the Chromium Worker imports this same file, so Node and the browser index the same docs.
//
// Document i (0-based, copy-major) is base passage b = i mod B in copy r = floor(i / B), B = base size:
// - id: `${base[b].id}~${r}` (unique across copies);
// - copy 0: the passage text unchanged;
// - copy r >= 1: each word (split on single spaces) is dropped when a hash of (r, word position) has
//   its low 3 bits zero (about 1 word in 8, a different set per copy), and the token `copy<r>` is
//   appended. So document lengths, term frequencies and document frequencies differ between copies,
//   and every copy adds one term (`copy<r>`) whose document frequency is B.

function dropWord(copy, pos) {
  let h = Math.imul(pos + 1, 0x9e3779b1) ^ Math.imul(copy, 0x85ebca77);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return (h & 7) === 0;
}

/** The text of copy `copy` of a base passage (see the file comment). */
export function variantText(text, copy) {
  if (copy === 0) return text;
  const words = text.split(' ');
  const kept = [];
  for (let i = 0; i < words.length; i++) if (!dropWord(copy, i)) kept.push(words[i]);
  kept.push(`copy${copy}`);
  return kept.join(' ');
}

/**
 * Documents [start, start + count) of the repeated corpus.
 * @param {{id: string, text: string}[]} base
 * @param {number} start
 * @param {number} count
 * @returns {{id: string, text: string}[]}
 */
export function repeatedDocs(base, start, count) {
  const out = new Array(count);
  const n = base.length;
  for (let j = 0; j < count; j++) {
    const i = start + j;
    const copy = Math.floor(i / n);
    const d = base[i % n];
    out[j] = { id: `${d.id}~${copy}`, text: variantText(d.text, copy) };
  }
  return out;
}

// The JSON header's length in Collection bytes (format 3, docs/formats.md): the first section (tag 1,
// the header) has its u64 length at offset 20, after the 16-byte container start and its u32 tag.
const headerBytes = (bytes) => Number(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(20, true));

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/**
 * The measured run shared by the Node twin and the Chromium Worker: builds a hybrid Collection
 * (BM25 + int8 flat dense, static model, default fusion) of `target` chunks in slices of `slice`
 * documents, timing the parts of the build, then hybrid latencies, toBytes() and a save; then, when
 * `ceiling` > target, keeps adding (toBytes() tried at every `checkEvery` chunks) until the first
 * error or `ceiling` chunks or `ceilingMs`.
 * @param {object} api {Collection, embedder, heapBytes(), memory(), save(col) -> {backend, storedBytes},
 *   progress(msg), now(), settled?(label) -> JS bytes retained after a GC (the Worker asks the page)}
 */
export async function runMillion(api, { base, queries, target, slice = 10000, batchSize = 1000, k = 10, warmup = 20, ceiling = 0, checkEvery = 250000, ceilingMs = 15 * 60000 }) {
  const { Collection, embedder } = api;
  const now = api.now;
  const peak = { wasmHeap: 0 };
  const sample = () => {
    const m = api.memory();
    peak.wasmHeap = Math.max(peak.wasmHeap, api.heapBytes());
    for (const [key, v] of Object.entries(m)) if (typeof v === 'number') peak[key] = Math.max(peak[key] ?? 0, v);
  };
  const col = await Collection.create({ indexes: { bm25: {}, dense: { storage: 'int8' } } }, { embedder });
  // Parts of the build: the embedder's embed() and the two indexes' add(), wrapped on these instances.
  const parts = { embed: 0, bm25: 0, dense: 0 };
  const wrap = (obj, method, part) => {
    const orig = obj[method].bind(obj);
    obj[method] = (...a) => {
      const t = now();
      const r = orig(...a);
      if (r && typeof r.then === 'function') return r.finally(() => { parts[part] += now() - t; });
      parts[part] += now() - t;
      return r;
    };
  };
  wrap(embedder, 'embed', 'embed');
  wrap(col.bm25, 'add', 'bm25');
  wrap(col.dense, 'add', 'dense');
  let done = 0; // documents added (one chunk each: passages are <= ~210 characters, chunkSize 1000)
  const addUpTo = async (n, onSlice) => {
    while (done < n) {
      const docs = repeatedDocs(base, done, Math.min(slice, n - done));
      const r = await col.add(docs, { batchSize });
      done += r.documents;
      sample();
      onSlice?.(done);
    }
  };
  const t0 = now();
  await addUpTo(target, (done) => api.progress({ phase: 'build', done, total: target, ms: now() - t0, wasmHeap: api.heapBytes() }));
  const buildMs = now() - t0;
  const mark = async (label) => { if (api.mark) await api.mark(label); };
  await mark('build');
  // Retained memory (after a GC, where the runtime allows one): api.settled(label) -> bytes or null.
  const settled = {};
  if (api.settled) settled.built = await api.settled('built');
  await mark('build, after a GC');
  const build = { ms: buildMs, wasmHeapAtBuild: api.heapBytes(), chunks: col.chunks.size, embedMs: parts.embed, bm25AddMs: parts.bm25, denseAddMs: parts.dense,
    chunkAndRestMs: buildMs - parts.embed - parts.bm25 - parts.dense };

  // Hybrid latencies (the leg check runs once first, as on a first search, and is timed apart).
  const tl = now();
  const legCheck = await col.checkLegs();
  const legCheckMs = now() - tl;
  await mark('leg check');
  let failed = 0;
  const ok = [];
  for (const q of queries) {
    try { await col.search(q, { k }); ok.push(q); } catch { failed++; }
    if (ok.length >= warmup) break;
  }
  const lat = [];
  let hits = 0;
  const tq0 = now();
  for (const q of queries) {
    const a = now();
    try { hits += (await col.search(q, { k })).length; } catch { failed++; continue; }
    lat.push(now() - a);
  }
  const tq = now() - tq0;
  lat.sort((x, y) => x - y);
  const hybrid = { queries: lat.length, failedQueries: failed, hits, qps: lat.length / (tq / 1000), p50: pct(lat, 0.5), p95: pct(lat, 0.95), max: lat[lat.length - 1] };
  sample();
  const heapAt = { built: build.wasmHeapAtBuild, queried: api.heapBytes() };  // WASM heap after each phase
  await mark('queries');

  // save() first, measured as an app that only calls save() sees it (issue #18 item 6: the README's memory
  // row is the max up to the end of the save); then the bench's own toBytes() (its time and the header
  // size), whose 520 MB result is held by its contract: its own phase, after the save.
  const saved = {};
  try {
    if (api.saveParts) {
      // save()'s steps one by one, each ended by a mark (where the save's transient memory goes), then the real save
      await api.saveParts(col, mark);
      api.gc?.();
      await mark('save parts dropped, after a GC');
    }
    sample();
    const t = now();
    Object.assign(saved, await api.save(col));
    saved.saveMs = now() - t;
    sample();
    heapAt.saved = api.heapBytes();
    await mark('save');
  } catch (e) {
    saved.error = `${e?.code ?? e?.name ?? ''}: ${e?.message ?? e}`;
  }
  if (api.settled) settled.saved = await api.settled('saved');
  await mark('save, after a GC');
  const peakAtSave = { ...peak };  // the maxima up to here are the save's (the bench's toBytes() follows)
  try {
    const t = now();
    let bytes = col.toBytes();
    saved.toBytesMs = now() - t;
    saved.bytes = bytes.length;
    saved.headerBytes = headerBytes(bytes);
    sample();
    heapAt.toBytes = api.heapBytes();
    await mark('toBytes (result held)');
    bytes = null;  // not kept past its phase (the suspended function would hold it)
    api.gc?.();
    await mark('toBytes dropped, after a GC');
  } catch (e) {
    saved.toBytesError = `${e?.code ?? e?.name ?? ''}: ${e?.message ?? e}`;
  }
  const result = { build, legCheckMs, legWarning: legCheck.warning ?? null, hybrid, saved, settled, heapAt, peakAtSave, peakAtTarget: { ...peak } };
  api.progress({ phase: 'measured', result });

  if (ceiling > target) {
    // Past the target: add in steps of checkEvery chunks; toBytes() at every step until it first fails,
    // then keep adding (no more saves) until add() fails, `ceiling` chunks or ceilingMs.
    const c0 = now();
    const steps = [];
    const limits = {};
    let next = Math.ceil((done + 1) / checkEvery) * checkEvery;
    while (next <= ceiling && now() - c0 < ceilingMs) {
      try {
        await addUpTo(next, (n) => api.progress({ phase: 'ceiling', done: n, total: ceiling, wasmHeap: api.heapBytes() }));
      } catch (e) {
        limits.add = { after: done, wasmHeap: api.heapBytes(), memory: api.memory(), error: `${e?.code ?? e?.name ?? ''}: ${e?.message ?? e}` };
        break;
      }
      const step = { chunks: col.chunks.size, wasmHeap: api.heapBytes(), memory: api.memory() };
      if (!limits.toBytes) {
        try {
          const t = now();
          const bytes = col.toBytes();
          step.toBytesMs = now() - t;
          step.bytes = bytes.length;
          step.headerBytes = headerBytes(bytes);
        } catch (e) {
          step.toBytesError = `${e?.code ?? e?.name ?? ''}: ${e?.message ?? e}`;
          limits.toBytes = { at: col.chunks.size, lastGood: steps.filter((x) => x.bytes).pop()?.chunks ?? null, error: step.toBytesError };
        }
      }
      sample();
      steps.push(step);
      api.progress({ phase: 'ceiling-step', step });
      next += checkEvery;
    }
    result.ceiling = { steps, limits, reached: col.chunks.size, ms: now() - c0, stoppedBy: limits.add ? 'add failed' : next > ceiling ? `ceiling ${ceiling} reached` : `time limit ${ceilingMs} ms` };
  }
  result.peak = { ...peak };
  col.dispose();
  return result;
}
