// Doc chat's Worker, loaded by chat-worker.js (which began the WASM module's download and compile first),
// written as the example a developer copies: one Collection built from the library's doc-chat preset,
// add / remove / save / load through Collection's own format, and every answer from the library's ask()
// (the same call as `ragwasm ask`). Nothing here touches the network except this site's own files (the
// WASM module, the static model) and, only when the user configured one, the LLM endpoint.
import { ask, Collection, createStaticEmbedder, createWordNeighbours, init, loadBytes, parsePipelineConfig, PRESETS, removeBytes, storageBackend, suggestWords } from '../src/index.js';

const MODEL_URL = new URL('../../models/build/static-model.bin', import.meta.url).href;
// The saved collection (storage.js: OPFS in Chromium, IndexedDB elsewhere) under this name.
const SAVED_NAME = 'ragwasm-doc-chat.collection';

let col = null;          // the Collection
let embedder = null;     // the current embedder (static model, or an ONNX model the user chose)
let withModel = PRESETS.docChatHybrid;  // the preset used with `embedder`: docChatNeural once the user chose a neural model
let denseLabel = null;
let denseError = null;
let startup = null;
let controller = null;   // aborts the running add / ask
let saving = Promise.resolve();  // the save begun after the last add (its documents are answerable before it ends)
// The save after an add starts once the worker has been idle for SAVE_IDLE_MS (a question re-arms it):
// a question asked right after indexing is not slowed by it, and files added in several drops are saved
// once. Anything that may change or replace the collection starts it at once and waits for it.
const SAVE_IDLE_MS = 1000;
let saveTimer = null;    // the scheduled save's timer; null: none scheduled
let saveId = null;       // the add whose save is scheduled (its 'saved' message carries that id)
let chunkedDocs = 0;     // documents chunked by this worker (0 after loading a saved collection)
let config = null;       // a pipeline config the user loaded (null: the doc-chat preset)
let ledger = null;       // every LLM request made from this worker (ragwasm/llm is imported at the first one)
let wordTable = null;    // the static model's word table, loaded at the first "suggest words" (a Promise)

const post = (m) => self.postMessage(m);

// The config's Collection: the embedder goes with a dense index or the semantic chunker.
function fromConfig(cfg) {
  return Collection.create(cfg, embedder && (cfg.indexes.dense || cfg.chunker.strategy === 'semantic') ? { embedder } : {});
}

async function newCollection() {
  if (config) return fromConfig(config);
  return embedder ? Collection.create(withModel, { embedder }) : Collection.create(PRESETS.docChat);
}

// PRESETS.docChat is BM25 only (issue 27): the static model is fetched only when the preset asks for it.
const PRESET_NEEDS_MODEL = !!(PRESETS.docChat.indexes.dense || PRESETS.docChat.retrieval.expansion);

/** Uses a pipeline config (JSON text): validated by the library, then every document indexed again; the open collection is replaced only on success. */
async function useConfig(id, text, docs) {
  const next = parsePipelineConfig(text);  // RagwasmError naming the JSON path
  const fresh = await fromConfig(next);
  try {
    if (docs.length) {
      await fresh.add(docs.map((d) => ({ id: d.id, title: d.title ?? d.name, text: d.text, metadata: { name: d.name } })), {
        signal: controller.signal, onProgress: ({ done, total }) => post({ type: 'progress', id, phase: 'indexing with the config', done, total }) });
    }
  } catch (e) {
    fresh.dispose();
    throw e;
  }
  col.dispose();
  col = fresh;
  config = next;
  chunkedDocs = docs.length;
}

// The static model download starts with the worker, in parallel with the WASM module's compile.
const modelResponse = PRESET_NEEDS_MODEL ? fetch(MODEL_URL) : null;
modelResponse?.catch(() => {});  // a failed download is reported by createStaticEmbedder below

async function start(early) {
  // Start-up timings (ms since this worker started), reported to the page for its performance marks.
  const startup = { workerStart: 0, modules: performance.now() };
  // The module chat-worker.js compiled while these imports loaded; if that failed, init() fetches it
  // again itself and its error names the URL and the fix.
  const wasmModule = await early.wasmModule.catch(() => undefined);
  const loaded = await init(wasmModule ? { wasmModule } : {});
  startup.init = performance.now();
  if (early.timing.wasmCompiled !== null) startup.wasmCompiled = early.timing.wasmCompiled;
  startup.initMs = performance.getEntriesByName('ragwasm:init')[0]?.duration ?? null;  // the library's measure
  if (PRESET_NEEDS_MODEL) {
    try {
      embedder = await createStaticEmbedder({ model: await modelResponse, cache: false });
      denseLabel = 'dense (static model)';
    } catch (e) {
      denseError = `${e.code ?? 'ERROR'}: ${e.message}`;  // BM25 alone still answers
    }
  }
  startup.staticModel = performance.now();
  col = await newCollection();
  startup.collection = performance.now();
  return { version: loaded.version, build: loaded.build, features: features(), startup, timeOrigin: performance.timeOrigin };
}

function features() {
  if (config && col) {
    const both = !!(col.config.indexes.bm25 && col.config.indexes.dense);
    return { bm25: !!col.config.indexes.bm25, dense: !!col.config.indexes.dense, denseLabel, denseError, fusion: both ? `${col.config.retrieval.fusion.mode} fusion` : 'none' };
  }
  const [wb, wd] = PRESETS.docChatNeural.retrieval.fusion.weights;
  const fusion = !embedder ? 'none' : withModel === PRESETS.docChatNeural ? `hybrid (BM25 ${wb}, dense ${wd})` : 'safe hybrid (leg check)';
  return { bm25: true, dense: !!embedder, denseLabel, denseError, fusion };
}

function summary() {
  const perDoc = {};
  for (const id of col.docs.keys()) perDoc[id] = col.docs.get(id).chunks.length;
  return { documents: col.size, chunks: Object.values(perDoc).reduce((a, b) => a + b, 0), perDoc, features: features(), chunkedDocs };
}

// The collection saved for the next visit; {saveError} when it could not be (the page says so).
async function trySave() {
  try {
    await col.save(SAVED_NAME);
    return {};
  } catch (e) {
    return { saveError: `${e.code ?? e.name ?? 'ERROR'}: ${e.message}` };
  }
}

/**
 * Loads the saved collection when it holds exactly `docIds` and was built with the current
 * embedder. {loaded: false, why} otherwise; CORRUPT_INDEX / UNSUPPORTED_VERSION for damaged bytes
 * (the page then re-indexes from its stored documents). The open collection is replaced only on success.
 */
async function load(docIds) {
  const bytes = await loadBytes(SAVED_NAME);
  if (bytes === null) return { loaded: false, why: 'no saved collection' };
  const saved = Collection.inspect(bytes);
  if ((saved.embedder?.id ?? null) !== (col.embedderInfo?.id ?? null)) return { loaded: false, why: 'the saved collection was built with another embedding model' };
  const next = Collection.fromBytes(bytes, embedder ? { embedder } : {});
  const want = [...docIds].sort();
  const have = [...next.docs.keys()].sort();
  if (want.length !== have.length || want.some((x, i) => x !== have[i])) {
    next.dispose();
    return { loaded: false, why: 'the saved collection is for other documents' };
  }
  col.dispose();
  col = next;
  chunkedDocs = 0;
  return { loaded: true, bytes: bytes.length };
}

/** Switches the dense leg to an ONNX model run by ONNX Runtime Web in this Worker; re-embeds every chunk. */
async function useOnnx(id, { model, tokenizerJson, pooling, name, hubUrl, docs }) {
  const { createOnnxEmbedder } = await import('../src/onnx.js');
  const ort = await import('../../node_modules/onnxruntime-web/dist/ort.wasm.min.mjs');
  ort.env.wasm.wasmPaths = new URL('../../node_modules/onnxruntime-web/dist/', import.meta.url).href;
  ort.env.wasm.numThreads = 1;
  post({ type: 'progress', id, phase: 'loading the ONNX model', done: 0, total: 1 });
  // By name: the library downloads the manifest model from the hub (cached in this browser), with progress.
  const download = (p) => post({ type: 'progress', id, phase: `${p.cached ? 'reading cached' : 'downloading'} ${p.file}`, done: p.loaded, total: p.total ?? p.loaded });
  const next = name ? await createOnnxEmbedder(name, { ort, onProgress: download, signal: controller.signal, ...(hubUrl ? { hubUrl } : {}) })
    : await createOnnxEmbedder({ model, tokenizer: { tokenizerJson }, pooling, ort, cache: true });
  let probe;
  try {
    [probe] = await next.embed(['probe'], { kind: 'query' });
    const onProgress = ({ done, total }) => post({ type: 'progress', id, phase: 'embedding with the ONNX model', done, total });
    if (config && col.config.indexes.dense) {
      await col.setEmbedder(next, { dimension: probe.length, signal: controller.signal, onProgress });
    } else {
      // The doc-chat preset (or a loaded config without a dense index): rebuild as PRESETS.docChatNeural (BM25 + this
      // model's dense leg) with the page's documents; the collection then follows the preset, not that config.
      const fresh = await Collection.create(PRESETS.docChatNeural, { embedder: next, dimension: probe.length });
      try {
        if (docs?.length) {
          await fresh.add(docs.map((d) => ({ id: d.id, title: d.title ?? d.name, text: d.text, metadata: { name: d.name } })), { signal: controller.signal, onProgress });
        }
      } catch (e) {
        fresh.dispose();
        throw e;
      }
      col.dispose();
      col = fresh;
      chunkedDocs = docs?.length ?? 0;
      config = null;
      withModel = PRESETS.docChatNeural;
    }
  } catch (e) {
    await next.dispose();  // the ONNX session of a model that did not become the dense leg
    throw e;
  }
  const old = embedder;
  embedder = next;
  denseLabel = `dense (ONNX, ${probe.length}-d)`;
  if (old && old !== next) await old.dispose?.();  // no collection uses the previous model any more
}

/** (Re)arms the save SAVE_IDLE_MS from now, for the add `id`. */
function scheduleSave(id) {
  cancelSave();
  saveId = id;
  saveTimer = setTimeout(startSave, SAVE_IDLE_MS);
}

function cancelSave() {
  clearTimeout(saveTimer ?? undefined);
  saveTimer = null;
}

/** Starts the scheduled save now; resolves when every save begun so far has ended ('saved' says how). */
function startSave() {
  cancelSave();
  const id = saveId;
  saving = saving.then(trySave).then((s) => post({ type: 'saved', id, ...s }));
  return saving;
}

const flushSave = () => (saveTimer !== null ? startSave() : saving);

/**
 * Called by chat-worker.js once this module has loaded: start-up begins at once (a failure is reported
 * to the page's first message), then the messages that arrived meanwhile are handled, in order.
 * @param {{wasmModule: Promise<WebAssembly.Module>, queued: MessageEvent[], timing: {wasmCompiled: number|null}}} early
 */
export function run(early) {
  startup = start(early);
  startup.catch(() => {});
  self.onmessage = onMessage;
  for (const e of early.queued.splice(0)) onMessage(e);
}

async function onMessage({ data }) {
  const { id } = data;
  try {
    if (data.type === 'cancel' || data.type === 'abort') { controller?.abort(); return; }
    const info = await startup;
    // A question runs beside a save in flight and pushes a scheduled one back; anything that may change or
    // replace the collection starts the scheduled save and waits for it ('clear' drops it: nothing to keep).
    const question = data.type === 'ask' || data.type === 'suggest';
    if (question) {
      if (saveTimer !== null) scheduleSave(saveId);
    } else {
      if (data.type === 'clear') cancelSave();
      await flushSave();
    }
    controller = new AbortController();
    switch (data.type) {
      case 'hello': post({ type: 'ready', id, ...info }); break;
      case 'add': {
        const t0 = performance.now();
        chunkedDocs += data.docs.length;
        const names = data.docs.length === 1 ? data.docs[0].name : `${data.docs.length} documents`;
        post({ type: 'progress', id, phase: `chunking ${names}`, done: 0, total: data.docs.length });
        const r = await col.add(data.docs.map((d) => ({ id: d.id, title: d.title ?? d.name, text: d.text, metadata: { name: d.name } })), {
          signal: controller.signal, onProgress: ({ done, total }) => post({ type: 'progress', id, phase: `embedding ${names}`, done, total }) });
        post({ type: 'indexed', id, ms: performance.now() - t0, zeroVectors: r.zeroVectors?.length ?? 0, ...summary() });
        // Saved for the next visit once the worker is idle (scheduleSave), so the documents are answerable at
        // once and a first question does not wait for the write; 'saved' reports it.
        scheduleSave(id);
        break;
      }
      case 'load': {
        const r = await load(data.docIds);
        post({ type: 'indexed', id, ...summary(), ...r, backend: await storageBackend().catch(() => null) });
        break;
      }
      case 'config':
        await useConfig(id, data.text, data.docs);
        post({ type: 'indexed', id, ...summary(), ...(await trySave()) });
        break;
      case 'onnx':
        await useOnnx(id, data);
        post({ type: 'indexed', id, ...summary(), ...(data.save === false ? {} : await trySave()) });
        break;
      case 'remove': col.remove([data.docId]); post({ type: 'indexed', id, ...summary(), ...(await trySave()) }); break;
      case 'clear':
        col.dispose();
        col = await newCollection();
        try { await removeBytes(SAVED_NAME); } catch { /* nothing saved */ }
        post({ type: 'indexed', id, ...summary() });
        break;
      case 'ask': {
        // The library's answer path: follow-up rewrite, retrieval, extractive or LLM answer, citations.
        const options = { ...PRESETS.docChatAnswer, history: data.history ?? [], signal: controller.signal };
        if (data.llm) {
          const { createLlmClient, RequestLedger } = await import('./lib/llm-client.js');
          ledger ??= new RequestLedger();
          // Anthropic's API answers browser (CORS) requests only with this opt-in header.
          const headers = data.llm.provider === 'anthropic' ? { 'anthropic-dangerous-direct-browser-access': 'true' } : undefined;
          options.llm = createLlmClient({ ...data.llm, ...(headers ? { headers } : {}), ledger, maxRetries: 1, timeoutMs: 60000 });
          options.onText = (delta) => post({ type: 'progress', id, delta, ledger: ledgerSnapshot() });
        }
        if (data.clarify) options.clarify = data.clarify;  // query clarification (off unless ticked in the settings)
        const r = await ask(col, data.question, options);
        post({ type: 'answer', id, ...r, ledger: ledgerSnapshot() });
        break;
      }
      case 'suggest': {
        // Words the documents use for the question's words they do not: the static model's nearest words,
        // its file fetched only now, once (then from Cache Storage); a failed load is tried again next time.
        wordTable ??= createWordNeighbours({ model: MODEL_URL });
        const words = await wordTable.catch((e) => { wordTable = null; throw e; });
        post({ type: 'suggested', id, suggestions: suggestWords(col, data.text, { words }) });
        break;
      }
      default: throw new Error(`unknown request ${data.type}`);
    }
  } catch (e) {
    post({ type: 'error', id, error: { code: e.code ?? 'INTERNAL', message: e.message ?? String(e) }, ledger: ledgerSnapshot() });
  }
}

function ledgerSnapshot() {
  if (!ledger) return { entries: [], bytesByHost: {} };
  return { entries: ledger.entries.map((e) => ({ ...e })), bytesByHost: ledger.bytesByHost() };
}
