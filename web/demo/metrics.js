// Metrics classroom: a ranked list the learner reorders and grades, a qrels editor, trec_eval
// measures computed by the WASM metrics module (web/src/metrics/metrics.js) with the worked arithmetic
// beside each value, precision/recall-vs-k plots, and a judge-agreement exercise.
import { init } from '../src/index.js';
import { metrics } from '../src/eval.js';
import { h, s, setChildren, fmt, errorText, setStatus, installErrorBanner } from './lib/dom.js';

const { evaluateRun, confusionMatrix, cohensKappa, withinAccuracy } = metrics;

installErrorBanner();

const QID = 'q01';
const QUERY = 'How many days of paid time off do full-time U.S. employees get per year?';
// Sample-corpus documents (titles from web/dist/corpus.json) in a deliberately imperfect order.
const DOCS = {
  'employee-handbook': 'Larkspire Instruments Employee Handbook (2024 Edition)',
  'remote-work-policy': 'Remote Work Policy',
  'leave-policy': 'Leave Policy',
  'employee-faq': 'Employee FAQ',
  'travel-expense-policy': 'Travel and Expense Policy',
  'onboarding-guide': 'New Employee Onboarding Guide',
  'meeting-2024-11-05-leadership': 'Leadership Team Meeting — November 5, 2024',
  'glossary': 'Glossary of Larkspire Terms',
  'company-overview': 'About Larkspire Instruments',
  'security-policy': 'Information Security and Password Policy',
};
const INITIAL_ORDER = Object.keys(DOCS);
const INITIAL_QRELS = [
  ['employee-handbook', 2], ['remote-work-policy', 0], ['leave-policy', 3], ['employee-faq', 2],
  ['onboarding-guide', 1], ['glossary', 0], ['quarterly-report-2024-q4', 1],
];
const RATER_A = [3, 2, 0, 1, 2, 0, 3, 1, 0, 2, 1, 0];
const RATER_B = [3, 1, 0, 1, 3, 0, 2, 2, 0, 2, 0, 1];

const state = {
  order: [...INITIAL_ORDER],
  qrels: new Map(INITIAL_QRELS),
  k: 5,
  level: 1,
  raterA: [...RATER_A],
  raterB: [...RATER_B],
};

const $ = (id) => document.getElementById(id);
const status = $('status');
let ready = false;

// ---------- ranked list ----------
function announce(text) { $('announce').textContent = text; }

function move(from, to, focus = true) {
  if (to < 0 || to >= state.order.length || from === to) return;
  const [id] = state.order.splice(from, 1);
  state.order.splice(to, 0, id);
  announce(`${id} moved to rank ${to + 1}`);
  update();
  if (focus) $('ranking').children[to]?.focus();
}

function setGrade(id, g) {
  if (g === null) state.qrels.delete(id); else state.qrels.set(id, g);
  announce(g === null ? `${id} unjudged` : `${id} graded ${g}`);
  update();
}

let dragFrom = -1;
function renderRanking() {
  const ol = $('ranking');
  const active = document.activeElement;
  const activeKey = active && ol.contains(active) ? [active.closest('li')?.dataset.doc, active.dataset.role ?? 'li'] : null;
  setChildren(ol, state.order.map((id, i) => {
    const grade = state.qrels.has(id) ? state.qrels.get(id) : null;
    const gradeButtons = [0, 1, 2, 3].map((g) => h('button', {
      type: 'button', 'aria-pressed': String(grade === g), dataset: { g: String(g), role: `g${g}` },
      'aria-label': `grade ${id} ${g}`, title: `grade ${g}`, onclick: () => setGrade(id, grade === g ? null : g),
    }, String(g)));
    const li = h('li', {
      draggable: 'true', tabindex: '0', dataset: { doc: id, rank: String(i + 1) },
      class: i + 1 === state.k ? 'cut' : null,
      'aria-label': `rank ${i + 1}: ${DOCS[id] ?? id}, ${grade === null ? 'unjudged' : `grade ${grade}`}`,
      onkeydown: (e) => {
        if (e.target !== li) return;
        const idx = state.order.indexOf(id);
        if (e.altKey && e.key === 'ArrowUp') { e.preventDefault(); move(idx, idx - 1); }
        else if (e.altKey && e.key === 'ArrowDown') { e.preventDefault(); move(idx, idx + 1); }
        else if (e.key === 'ArrowUp') { e.preventDefault(); li.previousElementSibling?.focus(); }
        else if (e.key === 'ArrowDown') { e.preventDefault(); li.nextElementSibling?.focus(); }
        else if (/^[0-3]$/.test(e.key)) { e.preventDefault(); setGrade(id, Number(e.key)); $('ranking').children[idx]?.focus(); }
        else if (e.key === 'u') { e.preventDefault(); setGrade(id, null); $('ranking').children[idx]?.focus(); }
      },
      ondragstart: (e) => { dragFrom = state.order.indexOf(id); li.classList.add('dragging'); e.dataTransfer.effectAllowed = 'move'; e.dataTransfer.setData('text/plain', id); },
      ondragend: () => { li.classList.remove('dragging'); dragFrom = -1; },
      ondragover: (e) => {
        e.preventDefault();
        const r = li.getBoundingClientRect();
        const after = e.clientY > r.top + r.height / 2;
        li.classList.toggle('drop-after', after);
        li.classList.toggle('drop-before', !after);
      },
      ondragleave: () => li.classList.remove('drop-after', 'drop-before'),
      ondrop: (e) => {
        e.preventDefault();
        const after = li.classList.contains('drop-after');
        li.classList.remove('drop-after', 'drop-before');
        const fromId = e.dataTransfer.getData('text/plain');
        const from = dragFrom >= 0 ? dragFrom : state.order.indexOf(fromId);
        if (from < 0) return;
        let to = state.order.indexOf(id) + (after ? 1 : 0);
        if (from < to) to -= 1;
        move(from, to, false);
      },
    },
    h('span', { class: 'handle', 'aria-hidden': 'true' }, '⠿'),
    h('span', { class: 'rank' }, String(i + 1)),
    h('span', { class: 'doc-title' }, DOCS[id] ?? id, h('small', {}, id)),
    h('span', { class: 'grades', role: 'group', 'aria-label': `grade of ${id}` }, gradeButtons),
    h('span', { class: 'moves' },
      h('button', { type: 'button', class: 'icon', 'aria-label': `move ${id} up`, disabled: i === 0, dataset: { role: 'up' }, onclick: () => move(i, i - 1) }, '▲'),
      h('button', { type: 'button', class: 'icon', 'aria-label': `move ${id} down`, disabled: i === state.order.length - 1, dataset: { role: 'down' }, onclick: () => move(i, i + 1) }, '▼')));
    return li;
  }));
  // Keep keyboard focus on the same control after a re-render.
  if (activeKey) {
    const li = ol.querySelector(`li[data-doc="${CSS.escape(activeKey[0] ?? '')}"]`);
    const target = activeKey[1] === 'li' ? li : li?.querySelector(`[data-role="${activeKey[1]}"]`);
    if (target && !target.disabled) target.focus(); else li?.focus();
  }
}

// ---------- qrels editor ----------
function renderQrels() {
  const body = $('qrels').tBodies[0];
  const ids = [...state.qrels.keys()].sort();
  setChildren(body, ids.map((id) => {
    const sel = h('select', { 'aria-label': `grade of ${id}`, onchange: (e) => setGrade(id, Number(e.target.value)) },
      [0, 1, 2, 3].map((g) => h('option', { value: String(g), selected: state.qrels.get(id) === g }, String(g))));
    const rank = state.order.indexOf(id);
    return h('tr', { dataset: { doc: id } },
      h('td', { class: 'mono small' }, id),
      h('td', {}, sel),
      h('td', { class: 'small' }, rank >= 0 ? `rank ${rank + 1}` : 'not retrieved'),
      h('td', {}, h('button', { type: 'button', class: 'icon', 'aria-label': `remove judgment of ${id}`, onclick: () => setGrade(id, null) }, '✕')));
  }));
  $('qrels-trec').textContent = qrelsText();
  $('run-trec').textContent = runText();
}

$('add-qrel').addEventListener('submit', (e) => {
  e.preventDefault();
  const id = $('new-doc').value.trim();
  const err = $('qrels-error');
  if (!/^\S{1,200}$/.test(id)) {
    setStatus(err, 'A document id is one word without spaces (1–200 characters).', 'err');
    return;
  }
  setStatus(err, '');
  $('new-doc').value = '';
  setGrade(id, Number($('new-grade').value));
});

function qrelsObject() { return { [QID]: Object.fromEntries(state.qrels) }; }
function runObject() { return { [QID]: Object.fromEntries(state.order.map((id, i) => [id, state.order.length - i])) }; }
function qrelsText() { return [...state.qrels].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([d, g]) => `${QID} 0 ${d} ${g}`).join('\n') + '\n'; }
function runText() { return state.order.map((d, i) => `${QID} Q0 ${d} ${i + 1} ${state.order.length - i} classroom`).join('\n') + '\n'; }

// ---------- measures ----------
const log2 = (x) => Math.log(x) / Math.log(2);

function worked() {
  const L = state.level;
  const k = state.k;
  const grades = state.order.map((id) => (state.qrels.has(id) ? state.qrels.get(id) : null));
  const relAt = (i) => grades[i] !== null && grades[i] >= L;
  const relevantIds = [...state.qrels].filter(([, g]) => g >= L).map(([d]) => d);
  const R = relevantIds.length;
  const topHits = [];
  for (let i = 0; i < Math.min(k, grades.length); i++) if (relAt(i)) topHits.push(i + 1);
  const out = {};
  out.P = { value: topHits.length / k, text: `relevant in the top ${k}: ${topHits.length ? `ranks ${topHits.join(', ')}` : 'none'}\nP@${k} = ${topHits.length} / ${k} = ${fmt(topHits.length / k)}` };
  out.R = R === 0
    ? { value: 0, text: `no document is judged relevant (grade ≥ ${L}): R = 0, recall is 0 by convention` }
    : { value: topHits.length / R, text: `R = ${R} judged relevant (grade ≥ ${L})\nR@${k} = ${topHits.length} / ${R} = ${fmt(topHits.length / R)}` };
  const first = grades.findIndex((_, i) => relAt(i));
  out.MRR = first < 0 ? { value: 0, text: 'no relevant document in the list → 0' }
    : { value: 1 / (first + 1), text: `first relevant document at rank ${first + 1}\nRR = 1 / ${first + 1} = ${fmt(1 / (first + 1))}` };
  const terms = [];
  let hits = 0;
  let sum = 0;
  grades.forEach((_, i) => { if (relAt(i)) { hits += 1; sum += hits / (i + 1); terms.push(`${hits}/${i + 1}`); } });
  out.AP = R === 0 ? { value: 0, text: 'R = 0 → AP = 0' }
    : { value: sum / R, text: `precision at each relevant rank: ${terms.length ? terms.join(' + ') : '(none)'} = ${fmt(sum)}\nAP = ${fmt(sum)} / R=${R} = ${fmt(sum / R)}` };
  const dcgTerms = [];
  let dcg = 0;
  for (let i = 0; i < Math.min(k, grades.length); i++) {
    const g = grades[i] ?? 0;
    if (g > 0) { dcg += g / log2(i + 2); dcgTerms.push(`${g}/log₂(${i + 2})`); }
  }
  const ideal = [...state.qrels.values()].filter((g) => g > 0).sort((a, b) => b - a).slice(0, k);
  let idcg = 0;
  const idcgTerms = ideal.map((g, i) => { idcg += g / log2(i + 2); return `${g}/log₂(${i + 2})`; });
  out.nDCG = idcg === 0 ? { value: 0, text: 'no judged gain > 0 → IDCG = 0, nDCG = 0' }
    : { value: dcg / idcg, text: `DCG@${k} = ${dcgTerms.join(' + ') || '0'} = ${fmt(dcg)}\nIDCG@${k} = ${idcgTerms.join(' + ')} = ${fmt(idcg)}\nnDCG@${k} = ${fmt(dcg)} / ${fmt(idcg)} = ${fmt(dcg / idcg)}` };
  return out;
}

const CARDS = [
  { key: 'P', name: (k) => `P@${k}`, measure: (k) => `P_${k}`, formula: (k) => `P@${k} = |relevant ∩ top ${k}| / ${k}`,
    about: 'Share of the top k that is relevant. Counts k even past the end of the list.' },
  { key: 'R', name: (k) => `R@${k}`, measure: (k) => `recall_${k}`, formula: (k) => `R@${k} = |relevant ∩ top ${k}| / R`,
    about: 'Share of all judged-relevant documents found in the top k.' },
  { key: 'MRR', name: () => 'MRR (RR)', measure: () => 'recip_rank', formula: () => 'RR = 1 / rank of the first relevant document',
    about: 'Reciprocal rank for this query; MRR is its mean over queries.' },
  { key: 'AP', name: () => 'AP', measure: () => 'map', formula: () => 'AP = (1/R) Σ_{relevant ranks r} P@r',
    about: 'Average precision over the whole list (trec_eval map for one query).' },
  { key: 'nDCG', name: (k) => `nDCG@${k}`, measure: (k) => `ndcg_cut_${k}`, formula: (k) => `nDCG@${k} = DCG@${k} / IDCG@${k},  DCG = Σ gradeᵢ / log₂(i+1)`,
    about: 'Graded gain with a log discount, over the best possible ordering of all judged documents.' },
];

function evaluate() {
  const n = state.order.length;
  const cut = Array.from(new Set([...Array.from({ length: n }, (_, i) => i + 1), state.k])).sort((a, b) => a - b).join(',');
  return evaluateRun(qrelsObject(), runObject(), {
    measures: [`P.${cut}`, `recall.${cut}`, 'recip_rank', 'map', `ndcg_cut.${state.k}`],
    relevanceLevel: state.level,
    completeQueries: true,
  });
}

function renderMeasures() {
  const box = $('measures');
  const k = state.k;
  $('k-label').textContent = String(k);
  if (state.qrels.size === 0) {
    setChildren(box, h('p', { class: 'status err' }, 'Add at least one judgment to the qrels: with none, trec_eval evaluates no query.'));
    renderCurves(null);
    return;
  }
  let res;
  try {
    res = evaluate();
  } catch (e) {
    setChildren(box, h('p', { class: 'status err', role: 'alert' }, `Could not evaluate: ${errorText(e)}`));
    renderCurves(null);
    return;
  }
  const row = res.perQuery[QID] ?? res.aggregate;
  const w = worked();
  setChildren(box, CARDS.map((c) => {
    const value = row[c.measure(k)];
    const agree = Math.abs(value - w[c.key].value) < 1e-9;
    return h('article', { class: 'metric-card', dataset: { measure: c.measure(k), key: c.key } },
      h('h3', {}, h('span', {}, c.name(k)), h('span', { class: 'value', dataset: { value: String(value) } }, fmt(value))),
      h('p', { class: 'small muted', style: 'margin:.2rem 0' }, c.about),
      h('div', { class: 'formula' }, c.formula(k)),
      h('pre', { class: 'work' }, w[c.key].text),
      h('p', { class: `small ${agree ? 'muted' : 'status err'}`, style: 'margin:.3rem 0 0' },
        agree ? `✓ the arithmetic matches the WASM value (${c.measure(k)})` : `✗ the arithmetic gives ${fmt(w[c.key].value)}, WASM ${fmt(value)}`));
  }));
  renderCurves(row);
}

function plot(values, { label, cls, k }) {
  const W = 320, H = 190, L = 34, B = 26, T = 10, Rr = 10;
  const n = values.length;
  const x = (i) => L + (n <= 1 ? 0 : (i * (W - L - Rr)) / (n - 1));
  const y = (v) => T + (1 - v) * (H - T - B);
  const parts = [];
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(s('line', { class: 'grid', x1: L, x2: W - Rr, y1: y(v), y2: y(v) }));
    parts.push(s('text', { x: L - 4, y: y(v) + 4, 'text-anchor': 'end' }, v.toFixed(2)));
  }
  values.forEach((_, i) => parts.push(s('text', { x: x(i), y: H - B + 14, 'text-anchor': 'middle' }, String(i + 1))));
  parts.push(s('text', { x: (L + W) / 2, y: H - 1, 'text-anchor': 'middle' }, 'k'));
  parts.push(s('line', { class: 'axis', x1: L, x2: L, y1: T, y2: H - B }));
  parts.push(s('line', { class: 'axis', x1: L, x2: W - Rr, y1: H - B, y2: H - B }));
  if (k <= n) parts.push(s('line', { x1: x(k - 1), x2: x(k - 1), y1: T, y2: H - B, stroke: '#f0b429', 'stroke-width': 2, 'stroke-dasharray': '4 3' }));
  parts.push(s('polyline', { class: cls, points: values.map((v, i) => `${x(i)},${y(v)}`).join(' ') }));
  values.forEach((v, i) => parts.push(s('circle', { class: cls.replace('line', 'dot'), cx: x(i), cy: y(v), r: 3 }, s('title', {}, `${label}@${i + 1} = ${fmt(v)}`))));
  return s('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': `${label} at k = 1 to ${n}: ${values.map((v) => fmt(v, 2)).join(', ')}` }, parts);
}

function renderCurves(row) {
  const n = state.order.length;
  const table = $('curve-table');
  if (!row) { setChildren($('plot-p')); setChildren($('plot-r')); setChildren(table); return; }
  const P = Array.from({ length: n }, (_, i) => row[`P_${i + 1}`]);
  const R = Array.from({ length: n }, (_, i) => row[`recall_${i + 1}`]);
  setChildren($('plot-p'), plot(P, { label: 'P', cls: 'line-a', k: state.k }));
  setChildren($('plot-r'), plot(R, { label: 'R', cls: 'line-b', k: state.k }));
  setChildren(table,
    h('caption', { class: 'sr-only' }, 'Precision and recall for every k'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'row' }, 'k'), P.map((_, i) => h('th', { scope: 'col', class: 'num' }, String(i + 1))))),
    h('tbody', {},
      h('tr', { dataset: { series: 'P' } }, h('th', { scope: 'row' }, 'P@k'), P.map((v) => h('td', { class: 'num' }, fmt(v)))),
      h('tr', { dataset: { series: 'R' } }, h('th', { scope: 'row' }, 'R@k'), R.map((v) => h('td', { class: 'num' }, fmt(v))))));
}

// ---------- agreement ----------
function renderRaters() {
  const table = $('raters');
  const mk = (arr, who, i) => h('select', {
    'aria-label': `rater ${who} label for pair ${i + 1}`, dataset: { rater: who, item: String(i) },
    onchange: (e) => { arr[i] = Number(e.target.value); renderAgreement(); },
  }, [0, 1, 2, 3].map((g) => h('option', { value: String(g), selected: arr[i] === g }, String(g))));
  setChildren(table,
    h('caption', { class: 'sr-only' }, 'Labels of rater A and rater B for 12 pairs'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'rater'), state.raterA.map((_, i) => h('th', { scope: 'col' }, `#${i + 1}`)))),
    h('tbody', {},
      h('tr', {}, h('th', { scope: 'row' }, 'A'), state.raterA.map((_, i) => h('td', {}, mk(state.raterA, 'A', i)))),
      h('tr', {}, h('th', { scope: 'row' }, 'B'), state.raterB.map((_, i) => h('td', {}, mk(state.raterB, 'B', i))))));
}

function renderAgreement() {
  const a = state.raterA;
  const b = state.raterB;
  const box = $('agree-measures');
  try {
    const cm = confusionMatrix(a, b);
    const kappa = cohensKappa(a, b);
    const kappaQ = cohensKappa(a, b, { weights: 'quadratic' });
    const within1 = withinAccuracy(a, b, { tolerance: 1 });
    const exact = withinAccuracy(a, b, { tolerance: 0 });
    const n = a.length;
    setChildren($('confusion'), h('table', { class: 'confusion', id: 'confusion-table' },
      h('caption', { class: 'sr-only' }, 'Confusion matrix: rows rater A, columns rater B'),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'A \\ B'), cm.labels.map((l) => h('th', { scope: 'col' }, String(l))), h('th', { scope: 'col' }, 'Σ'))),
      h('tbody', {}, cm.matrix.map((r, i) => h('tr', {}, h('th', { scope: 'row' }, String(cm.labels[i])),
        r.map((c, j) => h('td', { class: i === j ? 'diag' : null }, String(c))), h('td', {}, String(r.reduce((x, y) => x + y, 0))))),
      h('tr', {}, h('th', { scope: 'row' }, 'Σ'), cm.labels.map((_, j) => h('td', {}, String(cm.matrix.reduce((x, r) => x + r[j], 0)))), h('td', {}, String(n))))));
    const diag = cm.matrix.reduce((x, r, i) => x + r[i], 0);
    const rows = cm.matrix.map((r) => r.reduce((x, y) => x + y, 0));
    const cols = cm.labels.map((_, j) => cm.matrix.reduce((x, r) => x + r[j], 0));
    const po = diag / n;
    const pe = rows.reduce((x, r, i) => x + (r * cols[i]) / (n * n), 0);
    const pairs = a.filter((x, i) => Math.abs(x - b[i]) <= 1).length;
    const card = (key, name, value, formula, work) => h('article', { class: 'metric-card', dataset: { key } },
      h('h3', {}, h('span', {}, name), h('span', { class: 'value', dataset: { value: String(value) } }, value === null || Number.isNaN(value) ? 'undefined' : fmt(value))),
      h('div', { class: 'formula' }, formula), work ? h('pre', { class: 'work' }, work) : null);
    setChildren(box,
      card('kappa', "Cohen's κ", kappa, 'κ = (p_o − p_e) / (1 − p_e)',
        `p_o = ${diag}/${n} = ${fmt(po)}\np_e = Σ rowᵢ·colᵢ / n² = (${rows.map((r, i) => `${r}·${cols[i]}`).join(' + ')}) / ${n * n} = ${fmt(pe)}\nκ = (${fmt(po)} − ${fmt(pe)}) / (1 − ${fmt(pe)}) = ${pe === 1 ? 'undefined' : fmt((po - pe) / (1 - pe))}`),
      card('within1', 'Off-by-one accuracy', within1, 'share of pairs with |A − B| ≤ 1', `${pairs} / ${n} = ${fmt(pairs / n)}`),
      card('exact', 'Exact agreement', exact, 'share of pairs with A = B', `${diag} / ${n} = ${fmt(po)}`),
      card('kappaQ', 'Quadratic-weighted κ', kappaQ, 'κ_w = 1 − Σ wᵢⱼ Oᵢⱼ / Σ wᵢⱼ Eᵢⱼ,  wᵢⱼ = ((i−j)/(K−1))²', 'credits near-misses: the usual choice for graded labels'));
  } catch (e) {
    setChildren(box, h('p', { class: 'status err', role: 'alert' }, `Could not compute agreement: ${errorText(e)}`));
  }
}

$('agree-copy').addEventListener('click', () => { state.raterB = [...state.raterA]; renderRaters(); renderAgreement(); });
$('agree-random').addEventListener('click', () => {
  state.raterA = state.raterA.map(() => Math.floor(Math.random() * 4));
  state.raterB = state.raterA.map((x) => Math.max(0, Math.min(3, x + [-1, 0, 0, 1][Math.floor(Math.random() * 4)])));
  renderRaters(); renderAgreement();
});

// ---------- controls ----------
$('k').addEventListener('input', (e) => {
  const v = Number(e.target.value);
  if (Number.isInteger(v) && v >= 1 && v <= 20) { state.k = v; update(); }
});
$('level').addEventListener('change', (e) => { state.level = Number(e.target.value); update(); });
$('reset').addEventListener('click', () => { state.order = [...INITIAL_ORDER]; state.qrels = new Map(INITIAL_QRELS); update(); });
$('shuffle').addEventListener('click', () => {
  for (let i = state.order.length - 1; i > 0; i--) { const j = Math.floor(Math.random() * (i + 1)); [state.order[i], state.order[j]] = [state.order[j], state.order[i]]; }
  update();
});
$('ideal').addEventListener('click', () => {
  const g = (id) => (state.qrels.has(id) ? state.qrels.get(id) : -1);
  state.order = state.order.map((id, i) => [id, i]).sort((x, y) => g(y[0]) - g(x[0]) || x[1] - y[1]).map(([id]) => id);
  update();
});

function update() {
  renderRanking();
  renderQrels();
  if (ready) renderMeasures();
}

$('query-text').textContent = `Query ${QID}: “${QUERY}”`;
update();
renderRaters();

try {
  const loaded = await init();
  ready = true;
  $('version').textContent = `v${loaded.version} (${loaded.build} build)`;
  update();
  renderAgreement();
  setStatus(status, 'ready: measures computed by the WebAssembly trec_eval code', 'ok');
  status.dataset.state = 'done';
} catch (e) {
  setStatus(status, `Could not start: ${errorText(e)}`, 'err');
}
