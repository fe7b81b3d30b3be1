// Doc chat: files are extracted here (the library's extractText: pdf.js / mammoth / DOMParser, all
// local) and kept in IndexedDB; chat-worker.js indexes them in a Collection built from
// PRESETS.docChat and answers with the library's ask() — the extractive answerer without an
// endpoint, or a streamed LLM reply whose every request is shown from the worker's ledger.
import { documentTitle, init } from '../src/index.js';
import { extractText, FILE_LIMITS, SUPPORTED_FORMATS } from '../src/parse.js';
import { loadApiKey, saveApiKey, forgetApiKey } from '../src/llm.js';
import { h, setChildren, errorText, setStatus, installErrorBanner } from './lib/dom.js';
import { loadDocuments, saveDocuments, removeDocument, clearDocuments } from './lib/store.js';
import { mountNeuralModel } from './lib/neural-model.js';

performance.mark('chat:start');  // this module and its imports are loaded and evaluated
installErrorBanner();

const $ = (id) => document.getElementById(id);
const status = $('status');
const KEY_NAME = 'ragwasm-doc-chat';
const SETTINGS = 'ragwasm-doc-chat-settings';
let ledger = { entries: [], bytesByHost: {} };  // the worker's request ledger, as last reported
const history = [];  // the conversation so far: [{role: 'user'|'assistant', content}]
const docs = new Map();   // id -> {id, name, format, text, pages?, added}
let features = null;

// ---------- worker ----------
let worker = null;
let seq = 0;
const waiting = new Map();  // id -> {resolve, reject, onProgress}

function startWorker() {
  // The first worker is started by chat.html before this module's imports load (so the two module graphs
  // load in parallel); a worker restarted by Cancel is made here.
  const early = globalThis.chatEarlyWorker;
  globalThis.chatEarlyWorker = null;
  worker = early ?? new Worker(new URL('./chat-worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = ({ data }) => {
    // the save that follows an add once the worker is idle (chat-worker-main.js scheduleSave; the add itself
    // was answered already): a failure is shown, a success marks chat:saved
    if (data.type === 'saved') {
      if (data.saveError) showIndexNote(`Indexed, but the index could not be saved for the next visit (${data.saveError}); it will be rebuilt then.`);
      else performance.mark('chat:saved');
      return;
    }
    const w = waiting.get(data.id);
    if (!w) return;
    if (data.ledger) { ledger = data.ledger; renderLedger(); }
    if (data.type === 'progress') { w.onProgress?.(data); return; }
    waiting.delete(data.id);
    if (data.type === 'error') w.reject(Object.assign(new Error(data.error.message), { code: data.error.code }));
    else w.resolve(data);
  };
  worker.onerror = (e) => {
    for (const w of waiting.values()) w.reject(new Error(`the worker failed: ${e.message || 'could not start'}`));
    waiting.clear();
  };
}

function call(msg, onProgress) {
  if (worker.earlyError) return Promise.reject(new Error(`the worker failed: ${worker.earlyError}`));
  const id = ++seq;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject, onProgress });
    worker.postMessage({ ...msg, id });
  });
}

// ---------- documents ----------
function showProgress(on) {
  $('progress').hidden = !on;
  $('cancel').hidden = !on;
  document.body.setAttribute('aria-busy', String(on));
  if (!on) $('progress-text').textContent = '';
}

function onProgress(p) {
  $('progress').max = p.total || 1;
  $('progress').value = p.done;
  $('progress-text').textContent = `${p.phase} (${Math.floor(p.done)}/${p.total})`;
}

function renderDocs(summary) {
  const list = [...docs.values()];
  $('collection').textContent = list.length
    ? `${list.length} document${list.length === 1 ? '' : 's'}, ${summary?.chunks ?? '?'} chunks · ${describeFeatures()} · saved in this browser`
    : 'No documents yet.';
  $('collection').dataset.documents = String(list.length);
  $('collection').dataset.chunks = String(summary?.chunks ?? 0);
  $('collection').dataset.chunkedDocs = String(summary?.chunkedDocs ?? 0);
  setChildren($('doclist'), list.map((d) => h('li', {},
    h('span', { title: d.name }, d.name, h('small', { class: 'muted' }, ` · ${d.format} · ${d.text.length.toLocaleString('en-US')} chars${summary?.perDoc?.[d.id] !== undefined ? ` · ${summary.perDoc[d.id]} chunks` : ''}`)),
    h('button', { type: 'button', class: 'icon', 'aria-label': `remove ${d.name}`, onclick: () => removeDoc(d.id) }, '✕'))));
}

function describeFeatures() {
  if (!features) return '';
  const parts = [];
  if (features.bm25) parts.push('BM25');
  if (features.dense) parts.push(features.denseLabel ?? 'dense');
  return parts.length ? `${parts.join(' + ')}${parts.length > 1 ? `, ${features.fusion}` : ''}` : 'no retriever in this build';
}

let lastSummary = null;

async function indexDocs(list, verb = 'indexing') {
  showProgress(true);
  setStatus(status, `${verb} ${list.length} document(s)…`, 'busy');
  try {
    const r = await call({ type: 'add', docs: list.map((d) => ({ id: d.id, name: d.name, title: documentTitle(d.text, d.name), text: d.text })) }, onProgress);
    lastSummary = r;
    features = r.features;
    renderDocs(r);
    setStatus(status, `ready: ${r.documents} documents, ${r.chunks} chunks indexed in this page`, 'ok');
    status.dataset.state = 'done';
    performance.mark('chat:indexed');
    return true;
  } catch (e) {
    if (e.code === 'ABORTED') return false;
    setStatus(status, `Could not index: ${errorText(e)}`, 'err');
    return false;
  } finally {
    showProgress(false);
  }
}

async function addDocs(list) {
  if (!list.length) return;
  const prev = new Map(docs);
  for (const d of list) docs.set(d.id, d);
  renderDocs(lastSummary);
  const ok = await indexDocs(list);
  if (ok) {
    try { await saveDocuments(list); } catch (e) { setStatus(status, `Indexed, but could not save for the next visit: ${errorText(e)}`, 'err'); }
  } else {
    docs.clear();
    for (const [k, v] of prev) docs.set(k, v);
    renderDocs(lastSummary);
  }
}

let epoch = 0;  // bumped by Cancel: work started before it must not reach the new worker
$('cancel').addEventListener('click', async () => {
  // Stop at once: drop the worker and rebuild the index from the saved documents.
  epoch++;
  worker.terminate();
  for (const w of waiting.values()) w.reject(Object.assign(new Error('cancelled'), { code: 'ABORTED' }));
  waiting.clear();
  showProgress(false);
  setStatus(status, 'cancelled; restoring the saved documents…', 'err');
  status.dataset.state = 'cancelled';
  startWorker();
  docs.clear();
  await restore('cancelled; restored');
});

async function removeDoc(id) {
  docs.delete(id);
  try {
    await removeDocument(id);
    lastSummary = await call({ type: 'remove', docId: id });
    renderDocs(lastSummary);
    setStatus(status, `removed ${id}`, 'ok');
  } catch (e) {
    setStatus(status, `Could not remove ${id}: ${errorText(e)}`, 'err');
  }
}

$('clear').addEventListener('click', async () => {
  docs.clear();
  try {
    await clearDocuments();
    lastSummary = await call({ type: 'clear' });
    renderDocs(lastSummary);
    setStatus(status, 'all documents removed from this browser', 'ok');
  } catch (e) {
    setStatus(status, `Could not remove the documents: ${errorText(e)}`, 'err');
  }
});

async function readFiles(files) {
  const started = epoch;
  const out = [];
  const failed = [];
  let i = 0;
  let bytes = 0;  // one drop is one folder: at most FILE_LIMITS.maxFolderBytes read (issue #33)
  showProgress(true);
  for (const item of files) {
    const f = item instanceof Blob ? item : item.file;
    const path = item instanceof Blob ? (f.webkitRelativePath || f.name) : item.path.replace(/^\//, '');
    i++;
    if (bytes + f.size > FILE_LIMITS.maxFolderBytes) {
      failed.push(`${f.name}: the files dropped together pass ${FILE_LIMITS.maxFolderBytes} bytes`);
      continue;
    }
    bytes += f.size;
    onProgress({ phase: `reading ${f.name}`, done: i - 1, total: files.length });
    try {
      await init();  // text decoding uses the WASM module on this thread too
      const x = await extractText(f);
      if (!x.text.trim()) { setStatus(status, `${f.name}: no text found (a scanned PDF?)`, 'err'); continue; }
      const id = path.replace(/\s+/g, '_');
      out.push({ id, name: path, format: x.format, text: x.text, pages: x.pages ?? null, added: Date.now() + i });
    } catch (e) {
      failed.push(`${f.name}: ${errorText(e)}`);
    }
  }
  if (started !== epoch) return;
  showProgress(false);
  await addDocs(out);
  // After addDocs, so its status line does not hide which files were refused.
  if (failed.length) setStatus(status, `Could not read ${failed.join('; ')}. Nothing already indexed was changed.`, 'err');
}

$('files').addEventListener('change', (e) => { readFiles([...e.target.files]); e.target.value = ''; });

async function entryFiles(entry, out) {
  if (entry.isFile) { out.push({ file: await new Promise((res, rej) => entry.file(res, rej)), path: entry.fullPath }); return; }
  if (entry.isDirectory) {
    const reader = entry.createReader();
    for (;;) {
      const batch = await new Promise((res, rej) => reader.readEntries(res, rej));
      if (!batch.length) break;
      for (const e of batch) await entryFiles(e, out);
    }
  }
}
const drop = $('drop');
drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', async (e) => {
  e.preventDefault();
  drop.classList.remove('over');
  const entries = [...e.dataTransfer.items].map((it) => it.webkitGetAsEntry?.()).filter(Boolean);
  const files = [];
  if (entries.length) for (const en of entries) await entryFiles(en, files);
  else files.push(...e.dataTransfer.files);
  const supported = (f) => Object.hasOwn(SUPPORTED_FORMATS, ((f instanceof Blob ? f : f.file).name.match(/\.([^.]+)$/)?.[1] ?? '').toLowerCase());
  const skipped = files.filter((f) => !supported(f)).map((f) => (f instanceof Blob ? f : f.file).name);
  await readFiles(files.filter(supported));
  if (skipped.length) showIndexNote(`Skipped ${skipped.length} unsupported file(s): ${skipped.slice(0, 5).join(', ')}${skipped.length > 5 ? ', …' : ''} (supported: ${Object.keys(SUPPORTED_FORMATS).map((x) => '.' + x).join(' ')}). Nothing already indexed was changed.`);
});

$('sample').addEventListener('click', async () => {
  try {
    performance.mark('chat:sample:start');
    const r = await fetch(new URL('../dist/corpus.json', import.meta.url));
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    const corpus = await r.json();
    performance.mark('chat:sample:fetched');
    await addDocs(corpus.documents.map((d, i) => ({ id: d.id, name: d.metadata?.file?.split('/').pop() ?? `${d.id}.md`, format: 'markdown', text: d.text, pages: null, added: i + 1 })));
    performance.mark('chat:sample:ready');
  } catch (e) {
    setStatus(status, `Could not load the sample corpus: ${errorText(e)}`, 'err');
  }
});

const MODEL_CHOICE = 'ragwasm-doc-chat-model';  // localStorage: the ONNX model picked by URL

/** Re-applies an ONNX model picked by URL on an earlier visit (files cannot be re-read). */
async function restoreModel() {
  let choice = null;
  try { choice = JSON.parse(localStorage.getItem(MODEL_CHOICE) ?? 'null'); } catch { /* none */ }
  if (!choice?.model || !choice?.tokenizer) return;
  $('onnx-url').value = choice.model;
  $('tok-url').value = choice.tokenizer;
  $('pooling').value = choice.pooling ?? 'mean';
  try {
    setStatus(status, 'loading the ONNX model chosen last time…', 'busy');
    const r = await fetch(new URL(choice.tokenizer, location.href));
    if (!r.ok) throw new Error(`tokenizer.json: HTTP ${r.status} for ${choice.tokenizer}`);
    const info = await call({ type: 'onnx', model: new URL(choice.model, location.href).href, tokenizerJson: await r.text(), pooling: choice.pooling ?? 'mean', key: modelKey(choice), save: false, docs: workerDocs() }, onProgress);
    features = info.features;
  } catch (e) {
    if (e.code === 'ABORTED') throw e;
    localStorage.removeItem(MODEL_CHOICE);
    showIndexNote(`The ONNX model chosen last time could not be loaded (${errorText(e)}); using the static model.`);
  }
}
const modelKey = (c) => `onnx:${c.model}|${c.tokenizer}|${c.pooling ?? 'mean'}`;

function showIndexNote(text) {
  $('index-note').hidden = !text;
  $('index-note').textContent = text ?? '';
}

/**
 * Restores the saved collection: the documents from IndexedDB and, when it matches them and the
 * current embedding model, the saved index from storage.js (OPFS / IndexedDB) without re-indexing.
 * A damaged or mismatched saved index is reported and rebuilt from the stored documents.
 */
async function restore(verb = 'restored') {
  let saved = [];
  try { saved = await loadDocuments(); } catch (e) { setStatus(status, `Saved documents unavailable: ${errorText(e)}`, 'err'); }
  for (const d of saved) docs.set(d.id, d);
  try { await restoreModel(); } catch { return; }  // cancelled while loading the model
  if (saved.length) {
    let loaded = null;
    let why = null;
    try {
      loaded = await call({ type: 'load', docIds: saved.map((d) => d.id) });
      if (!loaded.loaded) { why = loaded.why; loaded = null; }
    } catch (e) {
      if (e.code === 'ABORTED') return;
      showIndexNote(`The saved index could not be used: ${errorText(e)}. It was rebuilt from your stored documents; nothing was lost.`);
      why = 'damaged';
    }
    if (loaded) {
      lastSummary = loaded;
      features = loaded.features;
      renderDocs(loaded);
      setStatus(status, `${verb}: ${saved.length} saved documents, ${loaded.chunks} chunks · loaded saved index (${loaded.backend ?? 'browser storage'}), nothing re-indexed`, 'ok');
      status.dataset.index = 'loaded';
    } else if (await indexDocs(saved, 'restoring')) {
      setStatus(status, `${verb}: ${saved.length} saved documents, ${lastSummary.chunks} chunks · re-indexed (${why ?? 'no saved index'})`, 'ok');
      status.dataset.index = 'rebuilt';
    }
    status.dataset.state = 'done';
  } else {
    lastSummary = await call({ type: 'clear' });
    renderDocs(lastSummary);
    setStatus(status, 'ready: add documents to start', 'ok');
    status.dataset.state = 'done';
  }
}

// ---------- pipeline config ----------
// The library validates the config (parsePipelineConfig, errors naming the JSON path) and builds the
// Collection from it in the worker; a config it refuses changes nothing that is indexed.
async function useConfig(text, source) {
  const started = epoch;
  showProgress(true);
  setStatus($('config-status'), `indexing again with ${source}…`, 'busy');
  try {
    const r = await call({ type: 'config', text, docs: workerDocs() }, onProgress);
    lastSummary = r;
    features = r.features;
    renderDocs(r);
    setStatus($('config-status'), `using ${source}: ${r.documents} documents, ${r.chunks} chunks`, 'ok');
    setStatus(status, `ready: ${r.documents} documents, ${r.chunks} chunks indexed in this page (config ${source})`, 'ok');
    status.dataset.state = 'done';
  } catch (e) {
    if (e.code !== 'ABORTED') setStatus($('config-status'), `${source} not used: ${errorText(e)}. The indexed documents are unchanged.`, 'err');
  } finally {
    if (started === epoch) showProgress(false);
  }
}

$('config-file').addEventListener('change', async () => {
  const f = $('config-file').files[0];
  if (!f) return;
  await useConfig(await f.text(), f.name);
  $('config-file').value = '';
});

// ?config=URL: a config file of this site, loaded after the saved documents are restored.
async function configFromAddress() {
  const v = new URLSearchParams(location.search).get('config');
  if (!v) return;
  const u = new URL(v, location.href);
  if (u.origin !== location.origin) {
    setStatus($('config-status'), `?config=${v} not used: only a file of this site (${location.origin}) is read.`, 'err');
    return;
  }
  $('config-settings').open = true;
  const r = await fetch(u);
  if (!r.ok) {
    setStatus($('config-status'), `?config=${v} not used: HTTP ${r.status}.`, 'err');
    return;
  }
  await useConfig(await r.text(), u.pathname.split('/').pop());
}

$('use-onnx').addEventListener('click', async () => {
  const started = epoch;
  showProgress(true);
  setStatus(status, 'loading the ONNX model…', 'busy');
  try {
    const mf = $('onnx-file').files[0];
    const tf = $('tok-file').files[0];
    const murl = $('onnx-url').value.trim();
    const turl = $('tok-url').value.trim();
    if (!mf && !murl) throw new Error('give the model as a URL or a file');
    if (!tf && !turl) throw new Error('give tokenizer.json as a URL or a file');
    const model = mf ? await mf.arrayBuffer() : new URL(murl, location.href).href;
    let tokenizerJson;
    if (tf) tokenizerJson = await tf.text();
    else {
      const r = await fetch(new URL(turl, location.href));
      if (!r.ok) throw new Error(`tokenizer.json: HTTP ${r.status} for ${turl}`);
      tokenizerJson = await r.text();
    }
    if (started !== epoch) return;
    const choice = mf || tf ? null : { model: murl, tokenizer: turl, pooling: $('pooling').value };
    lastSummary = await call({ type: 'onnx', model, tokenizerJson, pooling: $('pooling').value, key: choice ? modelKey(choice) : `onnx-file:${mf?.name ?? murl}`, docs: workerDocs() }, onProgress);
    try {
      if (choice) localStorage.setItem(MODEL_CHOICE, JSON.stringify(choice));
      else localStorage.removeItem(MODEL_CHOICE);
    } catch { /* a convenience */ }
    modelReady(lastSummary);
  } catch (e) {
    if (e.code !== 'ABORTED') setStatus(status, `Could not use the ONNX model: ${errorText(e)}`, 'err');
  } finally {
    if (started === epoch) showProgress(false);
  }
});

function modelReady(summary) {
  features = summary.features;
  renderDocs(summary);
  setStatus(status, `ready: ${features.denseLabel} for ${summary.chunks} chunks`, 'ok');
  status.dataset.state = 'done';
}

// "use a neural model": a models/manifest.json model by name, downloaded from the hub by the library (lib/neural-model.js).
mountNeuralModel($('neural-model'), { load: async (name, hubUrl) => {
  showProgress(true);
  setStatus(status, `loading ${name}…`, 'busy');
  try {
    lastSummary = await call({ type: 'onnx', name, hubUrl, docs: workerDocs() }, onProgress);
    modelReady(lastSummary);
  } catch (e) {
    if (e.code !== 'ABORTED') setStatus(status, `Could not use the neural model: ${errorText(e)}`, 'err');
  } finally {
    showProgress(false);
  }
} });

// ---------- settings ----------
function loadSettings() {
  try {
    const s = JSON.parse(localStorage.getItem(SETTINGS) ?? '{}');
    if (s.provider) $('provider').value = s.provider;
    if (s.endpoint) $('endpoint').value = s.endpoint;
    if (s.model) $('model').value = s.model;
    $('clarify').checked = s.clarify === true;
    const key = loadApiKey(localStorage, KEY_NAME);
    if (key) { $('apikey').value = key; $('remember').checked = true; }
  } catch { /* settings are a convenience */ }
}
function saveSettings() {
  try {
    localStorage.setItem(SETTINGS, JSON.stringify({ provider: $('provider').value, endpoint: $('endpoint').value, model: $('model').value, clarify: $('clarify').checked }));
    if ($('remember').checked && $('apikey').value) saveApiKey(localStorage, KEY_NAME, $('apikey').value);
    else forgetApiKey(localStorage, KEY_NAME);
    setStatus($('settings-status'), $('remember').checked ? 'the key is saved in this browser' : 'the key is kept in memory only (gone after a reload)');
  } catch (e) {
    setStatus($('settings-status'), errorText(e), 'err');
  }
}
for (const id of ['provider', 'endpoint', 'model', 'apikey', 'remember', 'clarify']) $(id).addEventListener('change', saveSettings);

function llmSettings() {
  const provider = $('provider').value;
  if (provider === 'none') return null;
  const baseUrl = $('endpoint').value.trim();
  const model = $('model').value.trim();
  if (!/^https?:\/\/\S+$/.test(baseUrl)) throw new Error('set the endpoint to an http(s) URL in Answer settings, or choose “none”');
  if (!model) throw new Error('set the model name in Answer settings');
  return { provider, baseUrl, model, apiKey: $('apikey').value || undefined };
}

// ---------- answers ----------
let sources = [];    // [{n, chunk, ranges: [{start, end}]}]: ranges are UTF-16 offsets in the document

/** Answer text with [n] markers turned into links to the sources; everything else stays text. */
function renderAnswer(text) {
  const box = $('answer');
  const parts = [];
  let last = 0;
  for (const m of text.matchAll(/\[(\d{1,3})\]/g)) {
    const n = Number(m[1]);
    const src = sources.find((s) => s.n === n);
    if (!src) continue;
    parts.push(text.slice(last, m.index));
    parts.push(h('a', { href: '#source-panel', class: 'cite', dataset: { n: String(n) }, 'aria-label': `source ${n}: ${docs.get(src.chunk.docId)?.name ?? src.chunk.docId}`,
      onclick: (e) => { e.preventDefault(); openSource(n); } }, `[${n}]`));
    last = m.index + m[0].length;
  }
  parts.push(text.slice(last));
  setChildren(box, parts);
}

function renderSources() {
  setChildren($('sources'), sources.map((s) => {
    const d = docs.get(s.chunk.docId);
    return h('li', { value: String(s.n) },
      h('a', { href: '#source-panel', class: 'cite', onclick: (e) => { e.preventDefault(); openSource(s.n); } }, `[${s.n}] ${d?.name ?? s.chunk.docId}${pagesText(d, s.ranges)}`),
      h('div', { class: 'small muted' }, s.chunk.text.length > 220 ? `${s.chunk.text.slice(0, 220)}…` : s.chunk.text));
  }));
}

/** ', page 3' / ', pages 1, 3' for PDF sources, '' otherwise. */
function pagesText(d, ranges) {
  const pages = [...new Set(ranges.map((r) => pageOf(d, r.start)).filter((p) => p !== null))];
  return pages.length ? `, page${pages.length > 1 ? 's' : ''} ${pages.join(', ')}` : '';
}

function pageOf(d, offset) {
  if (!d?.pages) return null;
  const p = d.pages.find((x) => offset >= x.start && offset < x.end);
  return p ? p.page : null;
}

function openSource(n) {
  const s = sources.find((x) => x.n === n);
  if (!s) return;
  const d = docs.get(s.chunk.docId);
  const panel = $('source-panel');
  panel.hidden = false;
  if (!d) { setChildren($('source-view'), 'This document has been removed.'); return; }
  const ranges = s.ranges;
  $('source-meta').textContent = `[${n}] ${d.name}${pagesText(d, ranges)} · characters ${ranges.map((r) => `${r.start}–${r.end}`).join(', ')}`;
  const parts = [];
  let at = 0;
  ranges.forEach((r, i) => {
    parts.push(d.text.slice(at, r.start), h('mark', { id: i === 0 ? 'source-mark' : null }, d.text.slice(r.start, r.end)));
    at = r.end;
  });
  parts.push(d.text.slice(at));
  setChildren($('source-view'), parts);
  const mark = $('source-mark');
  const view = $('source-view');
  view.scrollTop = Math.max(0, mark.offsetTop - view.offsetTop - 40);
  panel.scrollIntoView({ block: 'nearest' });
  view.focus({ preventScroll: true });
}

function renderLedger() {
  const entries = ledger.entries;
  const table = $('ledger');
  table.hidden = entries.length === 0;
  const by = ledger.bytesByHost;
  $('ledger-summary').textContent = entries.length
    ? `${entries.length} request(s): ${Object.entries(by).map(([host, b]) => `${b.toLocaleString('en-US')} bytes to ${host}`).join(', ')}. Your documents are sent only as the passages listed here.`
    : 'Nothing: no request has been sent to any LLM endpoint.';
  setChildren(table.tBodies[0], entries.map((e) => h('tr', {},
    h('td', { class: 'num' }, String(e.seq)), h('td', {}, e.time.replace('T', ' ').replace(/\.\d+Z$/, 'Z')), h('td', {}, e.host), h('td', {}, e.purpose ?? ''),
    h('td', { class: 'num' }, String(e.bytes)), h('td', {}, e.status === null ? (e.error ?? '…') : String(e.status)),
    h('td', {}, h('details', {}, h('summary', {}, 'request body'), h('pre', { class: 'mono small', style: 'white-space:pre-wrap;max-height:12rem;overflow:auto' }, e.body))))));
}

/**
 * The 'passages' outcome: ask() found no sentence that answers, so each passage it read is listed with its best
 * sentence highlighted; [n] opens the document there. Sources are the passages (ranges: the best sentence).
 */
function renderPassages(r) {
  sources = r.passages.map((p, i) => ({ n: i + 1, chunk: { id: p.chunkId, docId: p.docId, text: p.text, start: p.start, end: p.end },
    ranges: [p.best ? { start: p.best.start, end: p.best.end } : { start: p.start, end: p.end }] }));
  const excerpt = (p) => {
    if (!p.best) return [p.text.length > 300 ? `${p.text.slice(0, 300)}…` : p.text];
    const before = p.text.slice(0, p.best.start - p.start);
    const after = p.text.slice(p.best.end - p.start);
    return [before.length > 160 ? `…${before.slice(-160)}` : before, h('mark', {}, p.best.text), after.length > 160 ? `${after.slice(0, 160)}…` : after];
  };
  setChildren($('answer'), [
    h('p', { class: 'outcome-note' }, r.answer),
    ...unmatchedNote(r),
    h('ol', { class: 'passages', 'aria-label': 'closest passages' }, r.passages.map((p, i) => h('li', { dataset: { docId: p.docId } },
      h('a', { href: '#source-panel', class: 'cite', dataset: { n: String(i + 1) }, 'aria-label': `passage ${i + 1}: ${docs.get(p.docId)?.name ?? p.docId}`,
        onclick: (e) => { e.preventDefault(); openSource(i + 1); } }, `[${i + 1}] ${docs.get(p.docId)?.name ?? p.docId}`),
      h('div', { class: 'excerpt' }, ...excerpt(p))))),
  ]);
}

/** The 'not-found' outcome: the documents hold nothing that matches the question; say what was searched. */
function renderNotFound(r) {
  sources = [];
  setChildren($('answer'), [h('p', { class: 'outcome-note' }, r.answer),
    h('p', { class: 'small muted', id: 'searched' }, `Searched your ${docs.size} document${docs.size === 1 ? '' : 's'} for “${r.query}”: no passage matches it.`),
    ...unmatchedNote(r)]);
}

/**
 * The question's words no document uses (ask()'s `unmatched`): a paraphrase or a typo the user can change,
 * and a button that asks the worker for words the documents do use (suggestWords, the static model's
 * nearest words; its file is fetched at the first click). A suggestion replaces its word and asks again.
 */
function unmatchedNote(r) {
  if (!r.unmatched?.length) return [];
  const words = r.unmatched.map((w) => `“${w}”`).join(', ');
  const box = h('div', { id: 'suggestions', class: 'small' });
  const button = h('button', { type: 'button', id: 'suggest-btn', class: 'small', onclick: async () => {
    button.disabled = true;
    setChildren(box, 'looking for words your documents use (loads the word model once)…');
    try {
      const { suggestions } = await call({ type: 'suggest', text: r.query });
      setChildren(box, (suggestions ?? []).map((s) => h('p', { class: 'suggestion' }, `“${s.word}” → `,
        ...(s.suggestions.length ? s.suggestions.map((x) => h('button', { type: 'button', class: 'small suggest-word', dataset: { from: s.word, word: x.word },
          title: `similarity ${x.similarity.toFixed(2)}`, onclick: () => askWith(s.word, x.word) }, x.word)) : ['no close word in your documents']))));
    } catch (e) {
      setChildren(box, `Could not suggest words: ${errorText(e)}`);
      button.disabled = false;
    }
  } }, 'Suggest words your documents use');
  return [h('p', { class: 'small muted', id: 'unmatched' }, `No document uses ${words}: try the words your documents use.`), h('p', {}, button), box];
}

/** Replaces `from` (a whole word, any case, first occurrence) in the question with `to` and asks again. */
function askWith(from, to) {
  const escaped = from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  $('question').value = $('question').value.replace(new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'iu'), (m, pre) => pre + to);
  $('ask').requestSubmit();
}

/** Sources of an ask() result: extractive citations carry the cited span; LLM ones the whole passage. */
function sourcesOf(r) {
  const byN = new Map();
  for (const c of r.citations) {
    const hit = r.hits.find((x) => x.chunkId === c.chunkId);
    const s = byN.get(c.n) ?? { n: c.n, chunk: { id: c.chunkId, docId: c.docId, text: hit?.text ?? c.text, start: hit?.start ?? c.start, end: hit?.end ?? c.end }, ranges: [] };
    s.ranges.push({ start: c.start, end: c.end });
    byN.set(c.n, s);
  }
  return [...byN.values()].sort((x, y) => x.n - y.n);
}

// Query clarification: ask() returns grounded interpretations (r.clarification) instead of an answer
// when the question is ambiguous; each becomes a button that re-asks with that interpretation.
let skipClarify = false;  // set by a choice button: the chosen interpretation is asked as is
function renderChoices(r) {
  const box = $('clarify-choices');
  const c = r.clarification;
  box.hidden = !c?.ambiguous;
  setChildren(box, c?.ambiguous ? c.interpretations.map((it) => h('button', { type: 'button', class: 'secondary choice',
    title: `supported by ${it.chunkIds.length} passage(s)`, onclick: () => {
      $('question').value = it.question;
      skipClarify = true;
      $('ask').requestSubmit();
    } }, it.question)) : []);
}

$('ask').addEventListener('submit', async (e) => {
  e.preventDefault();
  const clarify = !skipClarify;
  skipClarify = false;
  const question = $('question').value.trim();
  if (!question) return;
  if (docs.size === 0) { setStatus(status, 'Add documents first (or the sample corpus).', 'err'); return; }
  let llm;
  try { llm = llmSettings(); } catch (err) { setStatus(status, errorText(err), 'err'); $('settings').open = true; return; }
  $('ask-btn').disabled = true;
  setChildren($('answer'));
  delete $('answer').dataset.outcome;
  renderChoices({});
  setChildren($('sources'));
  $('source-panel').hidden = true;
  $('rewritten').hidden = true;
  setStatus(status, llm ? `asking ${llm.baseUrl}…` : 'retrieving…', 'busy');
  $('stop').hidden = !llm;
  let text = '';
  try {
    const r = await call({ type: 'ask', question, history: history.slice(-6), llm, clarify: llm && clarify && $('clarify').checked ? 'ask' : undefined }, (p) => {
      if (p.delta === undefined) return;
      text += p.delta;
      renderAnswer(text);
    });
    if (r.query !== r.question) {
      $('rewritten').hidden = false;
      $('rewritten').textContent = `Searched for: ${r.query}`;
    }
    // The three outcomes of ask() (docs/docchat.md, "Three outcomes"), each shown its own way.
    $('answer').dataset.outcome = r.outcome;
    if (r.outcome === 'passages' && !r.clarification?.ambiguous) renderPassages(r);
    else if (r.outcome === 'not-found') renderNotFound(r);
    else {
      sources = sourcesOf(r);
      renderAnswer(r.answer);
    }
    if (r.outcome !== 'passages') renderSources();  // the passages list is its own source list
    $('sources-h').hidden = r.outcome !== 'answer';
    renderChoices(r);
    if (r.clarification?.ambiguous) {
      $('answer-meta').textContent = `${llm.model} found ${r.clarification.interpretations.length} readings in the top passages; choose one`;
      setStatus(status, 'which question did you mean?', 'ok');
      status.dataset.state = 'clarify';
      return;
    }
    history.push({ role: 'user', content: question }, { role: 'assistant', content: r.answer });
    $('answer-meta').textContent = r.mode === 'llm'
      ? `streamed by ${llm.model} from the top ${Math.min(5, r.hits.length)} of ${r.hits.length} passages (${describeFeatures()})`
      : `${r.outcome === 'answer' ? 'extractive answer from' : 'read'} the top ${Math.min(5, r.hits.length)} of ${r.hits.length} passages (${describeFeatures()}); nothing was sent anywhere`;
    setStatus(status, { answer: 'answered from your documents', passages: 'no single sentence answers this: the closest passages are shown',
      'not-found': 'nothing in your documents matches this question' }[r.outcome], 'ok');
    status.dataset.state = 'answered';
  } catch (err) {
    setStatus(status, err.code === 'ABORTED' ? 'stopped' : `Could not answer: ${errorText(err)}`, 'err');
    status.dataset.state = err.code === 'ABORTED' ? 'stopped' : 'failed';
  } finally {
    $('ask-btn').disabled = false;
    $('stop').hidden = true;
  }
});
$('stop').addEventListener('click', () => worker.postMessage({ type: 'abort' }));

// ---------- start ----------
loadSettings();
startWorker();
try {
  // The worker loads the WASM module and the static model; this thread loads the module only when files
  // are read (readFiles: text decoding), so it does not compete with the worker at start-up.
  const info = await call({ type: 'hello' });
  // Start-up on the page's performance timeline (docs/performance.md): the worker's init() and static
  // model, moved from the worker's clock to the page's.
  const shift = info.timeOrigin - performance.timeOrigin;
  for (const [step, at] of Object.entries(info.startup)) if (step !== 'initMs') performance.mark(`chat:worker:${step}`, { startTime: shift + at });
  performance.mark('chat:worker:initMs', { detail: info.startup.initMs });
  performance.mark('chat:worker-ready');
  features = info.features;
  $('version').textContent = `v${info.version} (${info.build} build)`;
  if (!features.bm25 && !features.dense) throw Object.assign(new Error(`this build has no retriever (${features.denseError ?? 'no BM25 or dense module'})`), { code: 'UNSUPPORTED_ENVIRONMENT' });
  await restore();
  await configFromAddress();
  performance.mark('chat:ready');
} catch (e) {
  setStatus(status, `Could not start: ${errorText(e)}`, 'err');
}

// The page's documents as the worker re-indexes them (a new config, or the hybrid preset with an ONNX model).
function workerDocs() {
  return [...docs.values()].map((d) => ({ id: d.id, name: d.name, title: documentTitle(d.text, d.name), text: d.text }));
}
