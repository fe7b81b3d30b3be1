// Module Worker for the `million` bench in Chromium: fetches the ~101k base passages, builds a hybrid
// Collection (BM25 + int8 dense, static model) of `target` chunks from their varied copies
// (tests/bench/lib/million-corpus.mjs, the same code the Node twin runs), posts progress, times hybrid
// queries, toBytes() and an OPFS save through Collection.save, then (ceiling > target) looks for the
// first limit. The page measures JS memory; the bench (Node) samples the browser processes' RSS.
import { init, Collection, createStaticEmbedder, removeBytes } from '/web/src/index.js';
import { wasm } from '/web/src/core/module.js';
import { checkSavedSections } from '/web/src/pipeline/collection/saved.js';
import { saveStreaming } from '/web/src/pipeline/collection/save.js';
import { runMillion } from '/tests/bench/lib/million-corpus.mjs';

// JS memory retained at a point of the run: a GC here (Chromium runs with --js-flags=--expose-gc), then
// the page measures (measureUserAgentSpecificMemory, page + this Worker) and answers with the bytes.
const settled = (label) => new Promise((resolve) => {
  const on = (e) => {
    if (e.data?.type !== 'measure-done') return;
    self.removeEventListener('message', on);
    resolve(e.data.bytes);
  };
  self.addEventListener('message', on);
  self.gc?.();
  self.postMessage({ type: 'measure', label });
});

// The end of a phase: the page measures JS (no GC) and the bench reads the renderer's /proc (RSS split,
// smaps by kind) before this resolves.
const mark = (label) => new Promise((resolve) => {
  const on = (e) => {
    if (e.data?.type !== 'mark-done') return;
    self.removeEventListener('message', on);
    resolve();
  };
  self.addEventListener('message', on);
  self.postMessage({ type: 'mark', label, wasmHeap: wasm().HEAPU8.length });
});

self.onmessage = async (e) => {
  if (e.data?.type === 'measure-done' || e.data?.type === 'mark-done') return;
  const { corpusUrl, modelUrl, ...opts } = e.data;
  try {
    const t0 = performance.now();
    await init();
    await mark('init');
    const embedder = await createStaticEmbedder({ model: modelUrl, cache: false });
    await mark('model');
    const base = await (await fetch(corpusUrl)).json();
    const setupMs = performance.now() - t0;
    await mark('corpus');
    const name = 'million-bench';
    const result = await runMillion({
      Collection,
      embedder,
      now: () => performance.now(),
      heapBytes: () => wasm().HEAPU8.length,
      memory: () => ({}),
      progress: (msg) => self.postMessage({ type: 'progress', ...msg }),
      settled,
      mark,
      gc: () => self.gc?.(),
      // opts.saveParts: save()'s steps one at a time, marked: the index sections (made by the index
      // writers, kept in the WASM heap as save() keeps them), the header made piece by piece (not parsed),
      // the check (the header made again, into save()'s two reused buffers, and parsed, the index sections
      // checked in place), then save() itself (all of it again, and the OPFS write)
      saveParts: opts.saveParts ? async (col, mark) => {
        const bm25 = col.bm25._heapBytes();
        const dense = col.dense._heapBytes();
        try {
          await mark(`save part 1: index sections in the WASM heap (${bm25.length + dense.length} B)`);
          let n = 0;
          for (const p of col._headerStream()) n += p.length;
          await mark(`save part 2: header made (${n} B), not parsed`);
          checkSavedSections(3, [col._headerStream(true), bm25, dense], { embedder: col.embedder, keepVectors: false });
        } finally {
          bm25.dispose();
          dense.dispose();
        }
        await mark('save part 3: the check');
        await col.save(`${name}-parts`);
        await mark('save part 4: save()');
        await removeBytes(`${name}-parts`);
      } : undefined,
      // save()'s sub-steps (save.js saveStreaming with an observer, what col.save(name) runs): wall-clock
      // times (the bench's clock) and the WASM heap at each, which the bench lines up with its RSS samples (--sample-ms)
      save: async (col) => {
        const steps = [];
        await saveStreaming(col, name, undefined,
          { step: (label) => steps.push({ label, at: performance.timeOrigin + performance.now(), wasmHeap: wasm().HEAPU8.length }) });
        const root = await navigator.storage.getDirectory();
        const storedBytes = (await (await root.getFileHandle(name)).getFile()).size;
        const estimate = await navigator.storage.estimate();
        await removeBytes(name);
        return { backend: 'opfs', storedBytes, quota: estimate.quota, usageAfterSave: estimate.usage, steps };
      },
    }, { base, ...opts });
    self.postMessage({ type: 'done', setupMs, result, wasmHeapBytes: wasm().HEAPU8.length });
  } catch (err) {
    self.postMessage({ type: 'error', message: `${err?.code ?? ''} ${err?.stack ?? err}` });
  }
};
