// Module Worker of doc chat: chunks the user's documents, embeds them with the default static model,
// indexes them (BM25 + dense vectors when the build has both), retrieves with reciprocal-rank fusion,
// and writes the extractive answer. Nothing here touches the network except fetching this site's
// own files (the WASM module and the static model).
import * as ragwasm from '../src/index.js';
import { init, chunk, saveBytes, loadBytes, removeBytes, storageBackend } from '../src/index.js';
import { extractiveAnswer } from '../src/llm.js';
import { packIndex, unpackIndex } from './lib/saved-index.js';

const CHUNKING = { strategy: 'recursive', chunkSize: 900, chunkOverlap: 150 };
const MODEL_URL = new URL('../../models/build/static-model.bin', import.meta.url).href;

const docs = new Map();      // id -> {id, name, text}
let chunks = [];             // {id, docId, ordinal, text, start, end}
const chunkById = new Map();
let sparse = null;           // module or null
let bm25 = null;
let dense = null;            // {embed(texts, kind) => Promise<Float32Array[]>, index, label} or null
let denseMod = null;
let fusion = null;           // the module exporting fuse() or null
let features = { bm25: false, dense: false, fusion: 'none' };
let cancelled = false;
let startup = null;
let chunkedDocs = 0;         // documents chunked by this worker (0 after loading a saved index)
// The saved index (storage.js: OPFS in Chromium, IndexedDB elsewhere) under this name.
const SAVED_NAME = 'ragwasm-doc-chat.index';

async function start() {
  const loaded = await init();
  sparse = ragwasm;
  fusion = ragwasm;
  const embedMod = ragwasm;
  denseMod = ragwasm;
  let denseError = null;
  if (embedMod?.createStaticEmbedder && denseMod?.VectorIndex) {
    try {
      const embedder = await embedMod.createStaticEmbedder({ model: MODEL_URL, cache: false });
      dense = { embed: async (texts) => embedder.embedSync(texts), index: denseMod.VectorIndex.create({ dimension: embedder.dimension, metric: 'cosine' }),
        label: 'dense (static model)', key: 'static' };
    } catch (e) {
      denseError = `${e.code ?? 'ERROR'}: ${e.message}`;
    }
  }
  features = { bm25: !!sparse?.Bm25Index, dense: !!dense, denseLabel: dense?.label ?? null, fusion: fusion?.fuse ? 'fusion.js' : 'local', denseError };
  return { version: loaded.version, build: loaded.build, features };
}

const yieldNow = () => new Promise((r) => setTimeout(r, 0));
const post = (m) => self.postMessage(m);

function rebuildBm25() {
  if (!features.bm25) return;
  bm25?.dispose?.();
  const index = sparse.Bm25Index.create();
  const items = chunks.map((c) => ({ id: c.id, text: c.text }));
  if (items.length) index.add(items);
  bm25 = index;
}

async function addDocuments(id, list) {
  cancelled = false;
  const total = list.length;
  let done = 0;
  for (const d of list) {
    if (cancelled) throw Object.assign(new Error('indexing cancelled'), { code: 'ABORTED' });
    post({ type: 'progress', id, phase: `chunking ${d.name}`, done, total });
    if (docs.has(d.id)) removeOne(d.id);
    chunkedDocs++;
    const made = chunk({ id: d.id, text: d.text }, CHUNKING).map((c) => ({ id: c.id, docId: d.id, ordinal: c.ordinal, text: c.text, start: c.start, end: c.end }));
    if (dense && made.length) {
      post({ type: 'progress', id, phase: `embedding ${d.name}`, done: done + 0.5, total });
      const vecs = await dense.embed(made.map((c) => c.text), 'document');
      // A chunk with no known word embeds to zeros: it stays findable through BM25 only.
      const keep = made.map((c, i) => i).filter((i) => vecs[i].some((x) => x !== 0));
      if (keep.length) dense.index.add(keep.map((i) => ({ id: made[i].id, vector: vecs[i] })));
    }
    docs.set(d.id, { id: d.id, name: d.name, text: d.text });
    for (const c of made) { chunks.push(c); chunkById.set(c.id, c); }
    done++;
    await yieldNow();  // lets a 'cancel' message in
  }
  post({ type: 'progress', id, phase: 'building the BM25 index', done: total, total });
  rebuildBm25();
}

/**
 * Switches the dense leg to an ONNX model (bytes or a URL of this site) with its tokenizer.json, run
 * by ONNX Runtime Web (single-threaded WASM) in this Worker, and re-embeds every chunk.
 */
async function useOnnx(id, { model, tokenizerJson, pooling, key }) {
  const embedMod = await import('../src/onnx.js');
  const ort = await import('../../node_modules/onnxruntime-web/dist/ort.wasm.min.mjs');
  ort.env.wasm.wasmPaths = new URL('../../node_modules/onnxruntime-web/dist/', import.meta.url).href;
  ort.env.wasm.numThreads = 1;
  post({ type: 'progress', id, phase: 'loading the ONNX model', done: 0, total: 1 });
  // A model URL is kept in Cache Storage (the same bytes are not downloaded again after a reload).
  const embedder = await embedMod.createOnnxEmbedder({ model, tokenizer: { tokenizerJson }, pooling, ort, cache: true });
  const [probe] = await embedder.embed(['probe'], { kind: 'query' });
  const index = denseMod.VectorIndex.create({ dimension: probe.length, metric: 'cosine' });
  const next = { embed: (texts, kind) => embedder.embed(texts, { kind }), index, label: `dense (ONNX, ${probe.length}-d)`, key: key ?? 'onnx' };
  for (let i = 0; i < chunks.length; i += 64) {
    if (cancelled) throw Object.assign(new Error('cancelled'), { code: 'ABORTED' });
    post({ type: 'progress', id, phase: 'embedding with the ONNX model', done: i, total: chunks.length });
    const part = chunks.slice(i, i + 64);
    const vecs = await next.embed(part.map((c) => c.text), 'document');
    const keep = part.map((c, j) => j).filter((j) => vecs[j].some((x) => x !== 0));
    if (keep.length) index.add(keep.map((j) => ({ id: part[j].id, vector: vecs[j] })));
  }
  dense?.index.dispose?.();
  dense = next;
  features = { ...features, dense: true, denseLabel: next.label };
}

/** Saves chunks + BM25 + dense vectors (lib/saved-index.js format) through storage.js. */
async function saveIndex() {
  const header = { denseKey: dense?.key ?? null, denseLabel: dense?.label ?? null, docs: [...docs.values()].map((d) => d.id), chunks };
  const bytes = packIndex(header, bm25 ? bm25.toBytes() : new Uint8Array(0), dense ? dense.index.toBytes() : new Uint8Array(0));
  await saveBytes(SAVED_NAME, bytes);
  return bytes.length;
}

/**
 * Loads the saved index when it was built for exactly `docIds` with the current dense model.
 * Returns {loaded: false, why} when there is none or it does not match; throws CORRUPT_INDEX /
 * UNSUPPORTED_VERSION for damaged bytes (the page then re-indexes from its stored documents).
 */
async function loadIndex(docIds) {
  const bytes = await loadBytes(SAVED_NAME);
  if (bytes === null) return { loaded: false, why: 'no saved index' };
  const { header, bm25Bytes, denseBytes } = unpackIndex(bytes);
  const want = [...docIds].sort();
  const have = [...header.docs].sort();
  if (want.length !== have.length || want.some((x, i) => x !== have[i])) return { loaded: false, why: 'the saved index is for other documents' };
  if ((dense?.key ?? null) !== header.denseKey) return { loaded: false, why: 'the saved index was built with another embedding model' };
  const nextBm25 = features.bm25 ? sparse.Bm25Index.fromBytes(bm25Bytes) : null;
  let nextDense = null;
  try {
    if (dense) {
      nextDense = denseMod.VectorIndex.fromBytes(denseBytes);
      if (nextDense.dimension !== dense.index.dimension) {
        throw Object.assign(new Error(`saved vectors have ${nextDense.dimension} dimensions, the model gives ${dense.index.dimension}`), { code: 'CORRUPT_INDEX' });
      }
    }
  } catch (e) {
    nextBm25?.dispose?.();
    nextDense?.dispose?.();
    throw e;
  }
  for (const d of [...docs.keys()]) removeOne(d);
  bm25?.dispose?.();
  bm25 = nextBm25;
  if (dense) { dense.index.dispose?.(); dense.index = nextDense; }
  for (const c of header.chunks) { chunks.push(c); chunkById.set(c.id, c); }
  for (const id of header.docs) docs.set(id, { id });
  return { loaded: true, bytes: bytes.length };
}

function removeOne(docId) {
  const gone = chunks.filter((c) => c.docId === docId);
  if (dense && gone.length) {
    const ids = gone.map((c) => c.id).filter((id) => dense.index.has(id));
    if (ids.length) dense.index.remove(ids);
  }
  for (const c of gone) chunkById.delete(c.id);
  chunks = chunks.filter((c) => c.docId !== docId);
  docs.delete(docId);
}

async function search(query, k) {
  const lists = [];
  if (bm25 && chunks.length) lists.push({ retriever: 'bm25', hits: bm25.search(query, { k: 30 }).map((x) => ({ id: x.id, score: x.score })) });
  if (dense && chunks.length) {
    const [q] = await dense.embed([query], 'query');
    if (q.some((x) => x !== 0)) lists.push({ retriever: 'dense', hits: dense.index.search(q, { k: 30 }).map((x) => ({ id: x.id, score: x.score })) });
  }
  const nonEmpty = lists.filter((l) => l.hits.length);
  if (!nonEmpty.length) return [];
  let ranked;
  if (fusion?.fuse) {
    // Reciprocal rank fusion (k = 60) by web/src/retrieve/fusion.js: ties by score, then id.
    ranked = fusion.fuse(nonEmpty, { mode: 'rrf', rrfK: 60, k }).hits.map((x) => [x.id, x.score]);
  } else {
    const score = new Map();
    for (const l of nonEmpty) l.hits.forEach((x, r) => score.set(x.id, (score.get(x.id) ?? 0) + 1 / (60 + r + 1)));
    ranked = [...score].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).slice(0, k);
  }
  return ranked.map(([cid, sc]) => ({ ...chunkById.get(cid), score: sc }));
}

self.onmessage = async ({ data }) => {
  const { id } = data;
  try {
    if (data.type === 'cancel') { cancelled = true; return; }
    startup ??= start();
    const info = await startup;
    switch (data.type) {
      case 'hello': post({ type: 'ready', id, ...info }); break;
      case 'add': {
        const t0 = performance.now();
        await addDocuments(id, data.docs);
        post({ type: 'indexed', id, ms: performance.now() - t0, ...summary(), ...(await trySave()) });
        break;
      }
      case 'load': {
        const r = await loadIndex(data.docIds);
        post({ type: 'indexed', id, ...summary(), ...r, backend: await storageBackend().catch(() => null) });
        break;
      }
      case 'onnx':  // save: false when re-applying a remembered model before the saved index is loaded
        cancelled = false;
        await useOnnx(id, data);
        post({ type: 'indexed', id, ...summary(), ...(data.save === false ? {} : await trySave()) });
        break;
      case 'remove': removeOne(data.docId); rebuildBm25(); post({ type: 'indexed', id, ...summary(), ...(await trySave()) }); break;
      case 'clear':
        for (const d of [...docs.keys()]) removeOne(d);
        rebuildBm25();
        try { await removeBytes(SAVED_NAME); } catch { /* nothing saved */ }
        post({ type: 'indexed', id, ...summary() });
        break;
      case 'search': {
        const hits = await search(data.query, data.k ?? 5);
        let answer = null;
        if (data.extractive) answer = hits.length ? extractiveAnswer(data.query, hits.map((h) => ({ id: h.id, text: h.text, score: h.score }))) : null;
        post({ type: 'hits', id, hits, answer });
        break;
      }
      default: throw new Error(`unknown request ${data.type}`);
    }
  } catch (e) {
    post({ type: 'error', id, error: { code: e.code ?? 'INTERNAL', message: e.message ?? String(e) } });
  }
};

async function trySave() {
  try { return { savedBytes: await saveIndex() }; } catch (e) { return { saveError: `${e.code ?? e.name ?? 'ERROR'}: ${e.message}` }; }
}

function summary() {
  const perDoc = {};
  for (const c of chunks) perDoc[c.docId] = (perDoc[c.docId] ?? 0) + 1;
  return { documents: docs.size, chunks: chunks.length, perDoc, features, chunkedDocs };
}
