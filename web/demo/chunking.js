// Chunking playground: two chunking configurations side by side over one document. The chunking
// (and the evidence-recall evaluation) runs in chunking-worker.js; this file only renders.
import { extractText } from '../src/parse.js';
import { init } from '../src/index.js';
import { generateBigText } from './lib/bigtext.js';
import { h, s, setChildren, fmt, errorText, setStatus, debounce, installErrorBanner } from './lib/dom.js';

installErrorBanner();

const $ = (id) => document.getElementById(id);
const status = $('status');
const corpusUrl = new URL('../dist/corpus.json', import.meta.url).href;
const VIEW_CHARS = 24000;   // characters of text rendered at once (a 1 MB document is paged)
const TABLE_ROWS = 200;     // chunk rows listed per configuration

const STRATEGIES = {
  fixed: 'fixed size', recursive: 'recursive (LangChain)', markdown: 'markdown separators', 'markdown-header': 'markdown headers', sentence: 'sentences', semantic: 'semantic (static embeddings)',
};
const DEFAULTS = {
  a: { strategy: 'recursive', chunkSize: 400, chunkOverlap: 80, unit: 'utf16', overlapSentences: 0, splitLevels: 3, strict: false },
  b: { strategy: 'markdown-header', chunkSize: 1000, chunkOverlap: 0, unit: 'utf16', overlapSentences: 1, splitLevels: 3, strict: false },
};
const OPTION_FOR = {
  chunkOverlap: ['fixed', 'recursive', 'markdown', 'markdown-header'],
  overlapSentences: ['sentence'],
  splitLevels: ['markdown-header'],
  strict: ['recursive', 'markdown'],
  breakpointAmount: ['semantic'],
};

let corpus = null;
let doc = null;            // {id, text, metadata, source}
let results = null;        // {configs: [...], options: [...]}
const viewStart = { a: 0, b: 0 };

// ---------- configuration forms ----------
function buildForm(key) {
  const box = document.querySelector(`[data-config="${key}"] .opts`);
  const d = DEFAULTS[key];
  const id = (n) => `${key}-${n}`;
  const num = (n, label, value, min, max) => h('label', { class: 'field', for: id(n), dataset: { opt: n } }, label,
    h('input', { id: id(n), type: 'number', min: String(min), max: String(max), step: '1', value: String(value), required: true }));
  setChildren(box,
    h('label', { class: 'field', for: id('strategy') }, 'strategy',
      h('select', { id: id('strategy') }, Object.entries(STRATEGIES).map(([v, t]) => h('option', { value: v, selected: v === d.strategy }, t)))),
    num('chunkSize', 'chunk size', d.chunkSize, 2, 100000),
    num('chunkOverlap', 'overlap', d.chunkOverlap, 0, 100000),
    h('label', { class: 'field', for: id('unit') }, 'unit',
      h('select', { id: id('unit') }, [['utf16', 'characters (UTF-16)'], ['codepoints', 'code points'], ['bytes', 'UTF-8 bytes'], ['tokens', 'whitespace tokens']]
        .map(([v, t]) => h('option', { value: v, selected: v === d.unit }, t)))),
    num('overlapSentences', 'sentence overlap', d.overlapSentences, 0, 50),
    num('splitLevels', 'split at header levels 1–', d.splitLevels, 1, 6),
    num('breakpointAmount', 'break above distance percentile', 95, 1, 100),
    h('label', { for: id('strict'), dataset: { opt: 'strict' } }, h('input', { id: id('strict'), type: 'checkbox', checked: d.strict }), ' strict size limit'));
  box.addEventListener('input', () => { syncForm(key); schedule(); });
  box.addEventListener('change', () => { syncForm(key); schedule(); });
  syncForm(key);
}

function syncForm(key) {
  const strategy = $(`${key}-strategy`).value;
  for (const [opt, strategies] of Object.entries(OPTION_FOR)) {
    const el = document.querySelector(`[data-config="${key}"] [data-opt="${opt}"]`);
    el.hidden = !strategies.includes(strategy);
  }
}

/** The options object for chunk()/compareChunkings() from a form. */
function readConfig(key) {
  const v = (n) => $(`${key}-${n}`).value;
  const strategy = v('strategy');
  const o = { strategy, chunkSize: Number(v('chunkSize')), unit: v('unit') };
  if (OPTION_FOR.chunkOverlap.includes(strategy)) o.chunkOverlap = Number(v('chunkOverlap'));
  if (strategy === 'sentence') o.overlapSentences = Number(v('overlapSentences'));
  if (strategy === 'markdown-header') o.splitLevels = Number(v('splitLevels'));
  if (OPTION_FOR.strict.includes(strategy)) o.strict = $(`${key}-strict`).checked;
  if (strategy === 'semantic') { o.breakpoint = 'percentile'; o.breakpointAmount = Number(v('breakpointAmount')); }
  return o;
}

// ---------- worker ----------
let worker = null;
let seq = 0;
let running = null;   // id of the run in flight
let pending = false;  // a change arrived while running

function startWorker() {
  worker = new Worker(new URL('./chunking-worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = onWorkerMessage;
  worker.onerror = (e) => {
    setStatus(status, `The worker failed: ${e.message || 'could not start'}`, 'err');
    running = null;
    busy(false);
  };
  worker.postMessage({ type: 'hello', id: ++seq });
}

function busy(on) {
  $('cancel').disabled = !on;
  $('progress').hidden = !on;
  document.body.setAttribute('aria-busy', String(on));
}

function run() {
  if (!doc) return;
  if (running !== null) { pending = true; return; }
  pending = false;
  const configs = [readConfig('a'), readConfig('b')];
  running = ++seq;
  busy(true);
  $('progress').removeAttribute('value');
  setStatus(status, `chunking ${doc.text.length.toLocaleString('en-US')} characters…`, 'busy');
  worker.postMessage({ type: 'run', id: running, doc: { id: doc.id, text: doc.text, metadata: doc.metadata ?? {} }, configs,
    corpusUrl: doc.source === 'sample' ? corpusUrl : null, maxK: 20 });
  results = { options: configs, id: running };
}

const schedule = debounce(() => { if ($('auto').checked) run(); }, 250);

function onWorkerMessage({ data }) {
  if (data.type === 'ready') {
    $('version').textContent = `v${data.version} (${data.build} build)`;
    setStatus(status, 'ready', 'ok');
    if (doc) run();
    if (!configChecked) { configChecked = true; configFromAddress(); }
    return;
  }
  if (data.id === configRequest) { configLoaded(data); return; }
  if (data.id !== running) return;  // a cancelled run
  if (data.type === 'progress') {
    $('progress').max = data.total || 1;
    $('progress').value = data.done;
    setStatus(status, `${data.phase}…`, 'busy');
  } else if (data.type === 'chunks') {
    results.configs = data.configs;
    results.ms = data.ms;
    viewStart.a = 0;
    viewStart.b = 0;
    renderResult('a', 0);
    renderResult('b', 1);
    setStatus(status, `chunked in ${data.ms.toFixed(0)} ms: A ${data.configs[0].count} chunks, B ${data.configs[1].count} chunks`, 'busy');
  } else if (data.type === 'done') {
    renderEvidence(data.evidence);
    finish(`done: A ${results.configs[0].count} chunks, B ${results.configs[1].count} chunks (${data.ms.toFixed(0)} ms in the worker)`, 'ok');
  } else if (data.type === 'error') {
    finish(`Could not chunk: ${data.error.code}: ${data.error.message}`, 'err');
  }
}

function finish(text, state) {
  running = null;
  busy(false);
  setStatus(status, text, state);
  status.dataset.state = state === 'ok' ? 'done' : state;
  if (pending) run();
}

// ---------- pipeline config ----------
// A pipeline config file (?config=URL of this site, or "Load config into A"): the library validates it
// in the worker (parsePipelineConfig: errors name the JSON path) and its chunker section fills form A.
let configRequest = null;
let configChecked = false;
let configSource = '';
function loadConfig(text, source) {
  configRequest = ++seq;
  configSource = source;
  worker.postMessage({ type: 'config', id: configRequest, text });
}

const FORM_KEYS = ['strategy', 'chunkSize', 'chunkOverlap', 'unit', 'overlapSentences', 'splitLevels', 'strict', 'breakpointAmount'];
function configLoaded(data) {
  configRequest = null;
  const el = $('config-status');
  el.hidden = false;
  if (data.type === 'error') {
    setStatus(el, `${configSource} not used: ${data.error.code}: ${data.error.message}. Configuration A is unchanged.`, 'err');
    return;
  }
  const c = data.chunker;
  for (const k of FORM_KEYS) {
    if (c[k] === undefined) continue;
    const input = $(`a-${k}`);
    if (input.type === 'checkbox') input.checked = !!c[k];
    else input.value = String(c[k]);
  }
  syncForm('a');
  const shown = new Set([...FORM_KEYS, 'invalidUtf8']);
  const other = Object.keys(c).filter((k) => !shown.has(k));
  setStatus(el, `configuration A from ${configSource}: ${c.strategy}, chunk size ${c.chunkSize}${other.length ? ` (not shown on this page: ${other.join(', ')})` : ''}`, 'ok');
  run();
}

$('config-file').addEventListener('change', async () => {
  const f = $('config-file').files[0];
  if (!f) return;
  loadConfig(await f.text(), f.name);
  $('config-file').value = '';
});

async function configFromAddress() {
  const v = new URLSearchParams(location.search).get('config');
  if (!v) return;
  const u = new URL(v, location.href);
  const el = $('config-status');
  el.hidden = false;
  if (u.origin !== location.origin) { setStatus(el, `?config=${v} not used: only a file of this site (${location.origin}) is read.`, 'err'); return; }
  const r = await fetch(u);
  if (!r.ok) { setStatus(el, `?config=${v} not used: HTTP ${r.status}.`, 'err'); return; }
  loadConfig(await r.text(), u.pathname.split('/').pop());
}

$('run').addEventListener('click', run);
$('cancel').addEventListener('click', () => {
  worker.terminate();
  running = null;
  pending = false;
  busy(false);
  setStatus(status, 'cancelled; restarting the worker…', 'err');
  status.dataset.state = 'cancelled';
  startWorker();
});

// ---------- rendering ----------
const COLORS = 6;

/** Text with chunk spans: colour per chunk, striped where chunks overlap, grey outside every chunk. */
function renderText(text, spans, from, to) {
  const n = spans.length / 2;
  const points = new Set([from, to]);
  const startsAt = new Map();
  for (let i = 0; i < n; i++) {
    const a = spans[2 * i];
    const b = spans[2 * i + 1];
    if (b <= from || a >= to) continue;
    if (a >= from) { points.add(a); if (!startsAt.has(a)) startsAt.set(a, []); startsAt.get(a).push(i); }
    if (b <= to) points.add(b);
  }
  const cuts = [...points].sort((x, y) => x - y);
  // chunks intersecting the window, in start order
  const active = [];
  for (let i = 0; i < n; i++) if (spans[2 * i + 1] > from && spans[2 * i] < to) active.push(i);
  const frag = document.createDocumentFragment();
  let lo = 0;
  for (let p = 0; p + 1 < cuts.length; p++) {
    const a = cuts[p];
    const b = cuts[p + 1];
    for (const i of startsAt.get(a) ?? []) frag.append(h('span', { class: 'mark', title: `chunk ${i + 1} starts` }, `#${i + 1}`));
    while (lo < active.length && spans[2 * active[lo] + 1] <= a) lo++;
    let cover = 0;
    let first = -1;
    for (let j = lo; j < active.length && spans[2 * active[j]] <= a; j++) {
      const i = active[j];
      if (spans[2 * i] <= a && spans[2 * i + 1] >= b) { cover++; if (first < 0) first = i; }
    }
    const cls = cover === 0 ? 'gap' : cover > 1 ? 'ov' : `c${first % COLORS}`;
    frag.append(h('span', { class: cls, title: cover > 1 ? `overlap of ${cover} chunks` : cover === 1 ? `chunk ${first + 1}` : 'in no chunk' }, text.slice(a, b)));
  }
  return frag;
}

function histogram(stats) {
  const bins = stats.histogram.filter((b) => b.count > 0 || (b.max !== null && b.max <= Math.max(1024, stats.maxSize * 2)));
  const W = 300, H = 120, L = 24, B = 28;
  const max = Math.max(1, ...bins.map((b) => b.count));
  const bw = (W - L) / bins.length;
  const parts = [];
  bins.forEach((b, i) => {
    const hgt = ((H - B - 10) * b.count) / max;
    parts.push(s('rect', { x: L + i * bw + 2, y: H - B - hgt, width: bw - 4, height: hgt }, s('title', {}, `${b.count} chunks of ${b.min}–${b.max === null || b.max === Infinity ? '∞' : b.max - 1} characters`)));
    parts.push(s('text', { x: L + i * bw + bw / 2, y: H - B - hgt - 2, 'text-anchor': 'middle' }, String(b.count)));
    parts.push(s('text', { x: L + i * bw + bw / 2, y: H - B + 12, 'text-anchor': 'middle' }, b.max === null || b.max === Infinity ? `${b.min}+` : `<${b.max}`));
  });
  parts.push(s('text', { x: W / 2, y: H - 2, 'text-anchor': 'middle' }, 'chunk size (characters)'));
  return s('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': `size histogram: ${bins.map((b) => (b.max === null ? `${b.count} of ${b.min} or more` : `${b.count} below ${b.max}`)).join(', ')}` }, parts);
}

function renderResult(key, index) {
  const box = document.querySelector(`[data-result="${key}"] .result`);
  const r = results.configs[index];
  const o = results.options[index];
  const st = r.stats;
  const pct = (x) => (x === null || x === undefined ? '–' : `${(100 * x).toFixed(1)}%`);
  $(`r${key}-h`).textContent = `${key.toUpperCase()}: ${STRATEGIES[o.strategy]}, size ${o.chunkSize}${o.chunkOverlap ? `, overlap ${o.chunkOverlap}` : ''}`;
  const n = r.count;
  const text = doc.text;
  const from = Math.min(viewStart[key], text.length);
  const to = Math.min(text.length, from + VIEW_CHARS);
  const firstChunk = (() => { for (let i = 0; i < n; i++) if (r.spans[2 * i + 1] > from) return i; return n; })();
  const pager = text.length > VIEW_CHARS ? h('div', { class: 'row small' },
    h('button', { type: 'button', class: 'secondary', disabled: from === 0, onclick: () => { viewStart[key] = Math.max(0, from - VIEW_CHARS); renderResult(key, index); } }, '◀ previous'),
    h('span', {}, `characters ${from.toLocaleString('en-US')}–${to.toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')}`),
    h('button', { type: 'button', class: 'secondary', disabled: to >= text.length, onclick: () => { viewStart[key] = to; renderResult(key, index); } }, 'next ▶')) : null;
  const rows = [];
  for (let i = firstChunk; i < Math.min(n, firstChunk + TABLE_ROWS); i++) {
    const a = r.spans[2 * i];
    const b = r.spans[2 * i + 1];
    rows.push(h('tr', {}, h('td', { class: 'num' }, String(i + 1)), h('td', { class: 'num' }, `${a}–${b}`), h('td', { class: 'num' }, String(b - a)),
      h('td', { class: 'num' }, String(r.tokens[i])), h('td', { class: 'path' }, r.headerPaths[i].length ? r.headerPaths[i].join(' › ') : '—')));
  }
  setChildren(box,
    h('dl', { class: 'stats' },
      h('dt', {}, 'chunks'), h('dd', { dataset: { stat: 'count' } }, String(n)),
      h('dt', {}, 'size mean / min / max'), h('dd', {}, `${fmt(st.meanSize, 1)} / ${st.minSize} / ${st.maxSize}`),
      h('dt', {}, 'overlap'), h('dd', {}, pct(st.overlapRatio)),
      h('dt', {}, 'coverage'), h('dd', {}, pct(st.coverage)),
      h('dt', {}, 'ends on a sentence end'), h('dd', {}, pct(st.sentenceEndShare)),
      h('dt', {}, 'starts on a header'), h('dd', {}, pct(st.headerStartShare))),
    h('div', { class: 'hist' }, histogram(st)),
    h('p', { class: 'small muted legend' }, h('span', {}, h('span', { class: 'sw', style: 'background:#dbeafe;height:.8rem' }), 'chunk'),
      h('span', {}, h('span', { class: 'sw', style: 'background:#fca5a5;height:.8rem' }), 'overlap'),
      h('span', {}, h('span', { class: 'sw', style: 'background:#f3f3f3;height:.8rem' }), 'in no chunk')),
    pager,
    h('div', { class: 'chunk-view', tabindex: '0', role: 'region', 'aria-label': `configuration ${key.toUpperCase()}: text with chunk boundaries` }, renderText(text, r.spans, from, to)),
    h('details', { open: text.length < 20000 }, h('summary', {}, `chunks and header paths${n > TABLE_ROWS ? ` (${TABLE_ROWS} from chunk ${firstChunk + 1})` : ''}`),
      h('div', { class: 'chunk-list table-wrap' }, h('table', {},
        h('thead', {}, h('tr', {}, ['#', 'span', 'chars', '≈tokens', 'header path'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, rows)))));
}

function curvePlot(curves, maxK) {
  const W = 420, H = 200, L = 34, B = 28, T = 10, R = 10;
  const x = (k) => L + ((k - 1) * (W - L - R)) / Math.max(1, maxK - 1);
  const y = (v) => T + (1 - v) * (H - T - B);
  const parts = [];
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(s('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: '#e5e5e5' }));
    parts.push(s('text', { x: L - 4, y: y(v) + 4, 'text-anchor': 'end' }, v.toFixed(2)));
  }
  for (let k = 1; k <= maxK; k += maxK > 10 ? 2 : 1) parts.push(s('text', { x: x(k), y: H - B + 13, 'text-anchor': 'middle' }, String(k)));
  parts.push(s('text', { x: (W + L) / 2, y: H - 2, 'text-anchor': 'middle' }, 'k (chunks retrieved)'));
  curves.forEach((c, i) => parts.push(s('polyline', { fill: 'none', stroke: i === 0 ? '#2b59c3' : '#c2410c', 'stroke-width': 2, 'stroke-dasharray': i ? '5 3' : null,
    points: c.map((v, j) => `${x(j + 1)},${y(v)}`).join(' ') })));
  return s('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': curves.map((c, i) => `${'AB'[i]}: ${c.map((v) => v.toFixed(2)).join(', ')}`).join('; ') }, parts);
}

function renderEvidence(ev) {
  const box = $('evidence');
  if (!ev) { setChildren(box, h('p', { class: 'small muted' }, 'Evidence recall needs a sample-corpus document with labelled questions.')); return; }
  if (ev.note) { setChildren(box, h('p', { class: 'small muted' }, ev.note)); return; }
  const ks = [1, 3, 5, 10];
  setChildren(box,
    h('div', { class: 'legend' }, h('span', {}, h('span', { class: 'sw', style: 'background:#2b59c3' }), 'A'), h('span', {}, h('span', { class: 'sw', style: 'background:#c2410c' }), 'B')),
    curvePlot(ev.configs.map((c) => c.curve), ev.maxK),
    h('p', { class: 'small muted' }, `${ev.questions.length} labelled question(s): ${ev.questions.map((q) => q.question).join(' · ')}`),
    h('div', { class: 'table-wrap' }, h('table', { id: 'evidence-table' },
      h('caption', { class: 'sr-only' }, 'Evidence recall at k and MRR per configuration'),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'config'), h('th', { scope: 'col', class: 'num' }, 'chunks'),
        ks.map((k) => h('th', { scope: 'col', class: 'num' }, `R@${k}`)), h('th', { scope: 'col', class: 'num' }, 'MRR'))),
      h('tbody', {}, ev.configs.map((c, i) => h('tr', { dataset: { config: 'ab'[i] } }, h('th', { scope: 'row' }, 'AB'[i]), h('td', { class: 'num' }, String(c.corpusChunks)),
        ks.map((k) => h('td', { class: 'num', dataset: { k: String(k) } }, fmt(c.recall[k]))), h('td', { class: 'num' }, fmt(c.mrr))))))));
}

// ---------- document sources ----------
function setDoc(d) {
  doc = d;
  $('doc-info').textContent = `${d.title ?? d.id}: ${d.text.length.toLocaleString('en-US')} characters (${d.source === 'sample' ? 'sample corpus' : d.source})`;
  setChildren($('evidence'), h('p', { class: 'small muted' }, d.source === 'sample' ? 'computing…' : 'Evidence recall needs a sample-corpus document with labelled questions.'));
  run();
}

async function useFile(file) {
  setStatus(status, `reading ${file.name}…`, 'busy');
  try {
    await init();  // text decoding uses the WASM module on this thread too
    const x = await extractText(file);
    if (!x.text.trim()) throw new Error(`${file.name} contains no text`);
    $('sample').value = '';
    setDoc({ id: file.name.replace(/\s+/g, '_'), title: file.name, text: x.text, source: `your ${x.format} file` });
  } catch (e) {
    setStatus(status, `Could not read ${file.name}: ${errorText(e)}`, 'err');
  }
}

$('file').addEventListener('change', (e) => { if (e.target.files[0]) useFile(e.target.files[0]); });
const drop = $('drop');
drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', (e) => { e.preventDefault(); drop.classList.remove('over'); if (e.dataTransfer.files[0]) useFile(e.dataTransfer.files[0]); });
$('paste-toggle').addEventListener('click', () => {
  const box = $('paste-box');
  box.hidden = !box.hidden;
  $('paste-toggle').setAttribute('aria-expanded', String(!box.hidden));
  if (!box.hidden) $('paste').focus();
});
$('paste-use').addEventListener('click', () => {
  const text = $('paste').value;
  if (!text.trim()) { setStatus(status, 'Paste some text first.', 'err'); return; }
  $('sample').value = '';
  setDoc({ id: 'pasted', title: 'pasted text', text, source: 'pasted' });
});
$('sample').addEventListener('change', (e) => {
  const v = e.target.value;
  if (v.startsWith('shared:')) { useShared(v.slice(7)); return; }
  const d = corpus?.documents.find((x) => x.id === v);
  if (d) setDoc({ id: d.id, title: d.metadata?.title ?? d.id, text: d.text, metadata: d.metadata, source: 'sample' });
});

// Shared example documents (markdown docs, SEC filing texts) that scripts/serve.mjs serves read-only
// from ../shared when that folder exists; its listing is /shared-data/index.json.
const sharedBase = new URL('../../shared-data/', import.meta.url);
const GROUP_LABEL = { 'markdown-docs': 'Shared markdown docs', 'sec-filings': 'SEC filings (text)' };

async function useShared(path) {
  setStatus(status, `loading ${path}…`, 'busy');
  try {
    const r = await fetch(new URL(path.split('/').map(encodeURIComponent).join('/'), sharedBase));
    if (!r.ok) throw new Error(`HTTP ${r.status} for ${path}`);
    const text = await r.text();
    if ($('sample').value !== `shared:${path}`) return;  // another document was picked meanwhile
    setDoc({ id: path.split('/').pop(), title: path, text, source: 'shared example' });
  } catch (e) {
    setStatus(status, `Could not load ${path}: ${errorText(e)}`, 'err');
  }
}

async function listShared() {
  try {
    const r = await fetch(new URL('index.json', sharedBase));
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    const { groups } = await r.json();
    let n = 0;
    for (const g of groups ?? []) {
      if (!g.files?.length) continue;
      n++;
      $('sample').append(h('optgroup', { label: GROUP_LABEL[g.name] ?? g.name, dataset: { shared: g.name } },
        g.files.map((f) => h('option', { value: `shared:${f.path}` }, `${f.path.slice(g.name.length + 1)} (${Math.round(f.bytes / 1024)} KB)`))));
    }
    $('sample').dataset.shared = n ? 'listed' : 'none';  // none: no ../shared here, no group shown
  } catch {
    $('sample').dataset.shared = 'unavailable';  // examples are optional
  }
}

$('big').addEventListener('click', () => {
  if (!corpus) { setStatus(status, 'The sample corpus is not loaded yet.', 'err'); return; }
  $('sample').value = '';
  setDoc({ id: 'generated-1mb', title: 'generated 1 MB document', text: generateBigText(corpus.documents.map((d) => d.text)), source: 'generated' });
});

// ---------- start ----------
buildForm('a');
buildForm('b');
startWorker();
try {
  const r = await fetch(corpusUrl);
  if (!r.ok) throw new Error(`HTTP ${r.status}`);
  corpus = await r.json();
  const withQ = new Set(corpus.questions.filter((q) => q.answerable !== false).flatMap((q) => q.doc_ids ?? []));
  setChildren($('sample'), h('option', { value: '' }, '— choose —'), h('optgroup', { label: 'Sample corpus (★ = labelled questions)' }, corpus.documents.map((d) =>
    h('option', { value: d.id }, `${d.metadata?.title ?? d.id}${withQ.has(d.id) ? ' ★' : ''}`))));
  const first = corpus.documents.find((d) => d.id === 'leave-policy') ?? corpus.documents[0];
  $('sample').value = first.id;
  setDoc({ id: first.id, title: first.metadata?.title ?? first.id, text: first.text, metadata: first.metadata, source: 'sample' });
} catch (e) {
  setChildren($('sample'), h('option', { value: '' }, 'sample corpus unavailable'));
  setStatus(status, `Could not load the sample corpus (${errorText(e)}); paste text or pick a file instead.`, 'err');
}
await listShared();
