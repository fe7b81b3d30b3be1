// Module Worker for the `pipeline` bench in Chromium: builds a hybrid Collection (BM25 + static-model
// dense + convex fusion, the default pipeline config) from the corpus JSON it fetches, posts progress
// events, then times hybrid queries, toBytes() and an OPFS save through storage.js.
import { init, Collection, createStaticEmbedder, storageBackend, loadBytes, removeBytes } from '/web/src/index.js';
import { wasm } from '/web/src/core/module.js';

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

self.onmessage = async (e) => {
  const { corpusUrl, modelUrl, queries, k, batchSize, warmup } = e.data;
  try {
    const t0 = performance.now();
    await init();
    const embedder = await createStaticEmbedder({ model: modelUrl, cache: false });
    const docs = await (await fetch(corpusUrl)).json();
    const tReady = performance.now();
    const col = await Collection.create({}, { embedder });
    let events = 0;
    const added = await col.add(docs, {
      batchSize,
      onProgress: ({ done, total }) => { events++; self.postMessage({ type: 'progress', done, total }); },
    });
    const tBuilt = performance.now();
    let failed = 0;
    const ok = [];
    for (const q of queries) {
      try { await col.search(q, { k }); ok.push(q); } catch { failed++; }
      if (ok.length >= warmup) break;
    }
    const lat = [];
    let hitsSeen = 0;
    const tq0 = performance.now();
    for (const q of queries) {
      const a = performance.now();
      try {
        hitsSeen += (await col.search(q, { k })).length;
      } catch {
        failed++;
        continue;
      }
      lat.push(performance.now() - a);
    }
    const tq = performance.now() - tq0;
    lat.sort((x, y) => x - y);
    const ts0 = performance.now();
    const bytes = col.toBytes();
    const toBytesMs = performance.now() - ts0;
    const backend = await storageBackend();
    const ts1 = performance.now();
    await col.save('pipeline-bench');
    const saveMs = performance.now() - ts1;
    const stored = (await loadBytes('pipeline-bench')).length;
    await removeBytes('pipeline-bench');
    self.postMessage({
      type: 'done',
      setupMs: tReady - t0,
      buildMs: tBuilt - tReady,
      documents: added.documents,
      chunks: added.chunks,
      progressEvents: events,
      queries: lat.length,
      failedQueries: failed,
      hitsSeen,
      qps: lat.length / (tq / 1000),
      p50: pct(lat, 0.5),
      p95: pct(lat, 0.95),
      max: lat[lat.length - 1],
      savedBytes: bytes.length,
      storedBytes: stored,
      toBytesMs,
      saveMs,
      backend,
      wasmHeapBytes: wasm().HEAPU8.length,
    });
  } catch (err) {
    self.postMessage({ type: 'error', message: `${err?.code ?? ''} ${err?.stack ?? err}` });
  }
};
