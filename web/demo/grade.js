// Metrics classroom, grading mode: a person grades the pooled (question, passage) pairs of
// `ragwasm label --pool-only` 0-3 with the keyboard; grades are kept in localStorage (per pool, by a
// hash of its text) and exported as TREC qrels / judge labels. Parsing and the qrels are the
// library's (web/src/goldens/human.js); this file only reads keys, stores and shows.
import { gradedLabels, gradedQrels, pairKey, parsePool } from '../src/eval.js';
import { h, setChildren, errorText } from './lib/dom.js';

const $ = (id) => document.getElementById(id);
const state = { pool: null, key: null, grades: {}, at: 0 };

// FNV-1a of the pool text: the storage key, so a different pool never reuses another's grades.
function poolHash(text) {
  let x = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) x = Math.imul(x ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return x.toString(16).padStart(8, '0');
}

function save() {
  try {
    localStorage.setItem(state.key, JSON.stringify({ grades: state.grades, at: state.at }));
  } catch (e) {
    $('grade-error').textContent = `progress not saved: ${e.message}`;
  }
}

function render() {
  const p = state.pool[state.at];
  const k = pairKey(p.questionId, p.chunkId);
  $('grade-card').hidden = false;
  $('grade-card').dataset.pair = k;
  $('grade-qid').textContent = p.questionId;
  $('grade-chunk').textContent = p.chunkId;
  $('grade-current').textContent = state.grades[k] === undefined ? 'none' : String(state.grades[k]);
  $('grade-question').textContent = p.question;
  $('grade-passage').textContent = p.text;
  const done = Object.keys(state.grades).length;
  $('grade-progress').textContent = `pair ${state.at + 1} of ${state.pool.length} · ${done} graded`;
  $('grade-progress').dataset.graded = String(done);
  for (const id of ['export-qrels', 'export-chunk-qrels', 'export-labels', 'grade-clear']) $(id).disabled = false;
}

function exportText(name, text, type) {
  const pre = $('grade-export');
  pre.hidden = false;
  pre.dataset.kind = name;
  pre.textContent = text;
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function guarded(fn) {
  return (...args) => {
    try {
      $('grade-error').textContent = '';
      fn(...args);
    } catch (e) {
      $('grade-error').textContent = errorText(e);
    }
  };
}

$('pool-file').addEventListener('change', async (e) => {
  const file = e.target.files?.[0];
  if (!file) return;
  $('grade-error').textContent = '';
  try {
    const text = await file.text();
    const pool = parsePool(text);
    state.pool = pool;
    state.key = `ragwasm-grades-${poolHash(text)}`;
    const saved = JSON.parse(localStorage.getItem(state.key) ?? 'null');
    const keys = new Set(pool.map((p) => pairKey(p.questionId, p.chunkId)));
    state.grades = {};
    for (const [k, g] of Object.entries(saved?.grades ?? {})) if (keys.has(k) && Number.isInteger(g) && g >= 0 && g <= 3) state.grades[k] = g;
    state.at = Number.isInteger(saved?.at) && saved.at >= 0 && saved.at < pool.length ? saved.at : 0;
    render();
    $('grade-card').focus();
  } catch (err) {
    state.pool = null;
    $('grade-card').hidden = true;
    setChildren($('grade-progress'));
    $('grade-error').textContent = errorText(err);
  }
});

$('grade-card').addEventListener('keydown', guarded((e) => {
  if (!state.pool || e.altKey || e.ctrlKey || e.metaKey) return;
  const p = state.pool[state.at];
  const k = pairKey(p.questionId, p.chunkId);
  if (/^[0-3]$/.test(e.key)) {
    state.grades[k] = Number(e.key);
    if (state.at < state.pool.length - 1) state.at += 1;
  } else if (e.key === 'u') {
    delete state.grades[k];
  } else if (e.key === 'ArrowRight' || e.key === 'j') {
    state.at = Math.min(state.pool.length - 1, state.at + 1);
  } else if (e.key === 'ArrowLeft' || e.key === 'k') {
    state.at = Math.max(0, state.at - 1);
  } else {
    return;
  }
  e.preventDefault();
  save();
  render();
}));

$('export-qrels').addEventListener('click', guarded(() => exportText('qrels.txt', gradedQrels(state.pool, state.grades), 'text/plain')));
$('export-chunk-qrels').addEventListener('click', guarded(() => exportText('chunk-qrels.txt', gradedQrels(state.pool, state.grades, { level: 'chunk' }), 'text/plain')));
$('export-labels').addEventListener('click', guarded(() => exportText('labels.jsonl', gradedLabels(state.pool, state.grades), 'application/jsonl')));
$('grade-clear').addEventListener('click', guarded(() => {
  state.grades = {};
  state.at = 0;
  localStorage.removeItem(state.key);
  render();
}));
