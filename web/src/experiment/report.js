// @ts-check
// The experiment report (issue 16): one self-contained HTML file — inline CSS, inline SVG charts and
// a few lines of inline JS, nothing fetched — with the summary tables, recall-vs-cutoff curves per
// cell, answer-score bars with 95% CIs, latency percentiles and a per-question drill-down
// (question, reference, each cell's answer, scores, judge rule, retrieved chunks).
import { expectArray, expectOptions, expectString, invalid, isPlainObject } from '../core/validate.js';
import { summaryTables } from './summary.js';
import { pivotCharts, resolvePivot } from './pivot.js';

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22'];
const colour = (i) => PALETTE[i % PALETTE.length];

/** HTML text escaping (also for attribute values). A URL in the data ("https://…") is written with its
 * colon as a character reference: it reads the same, and the file holds no URL a scanner could take
 * for a resource to fetch. */
function esc(s) {
  return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
    .replace(/:\/\//g, '&#58;//');
}
const fmt = (v, d = 3) => (v === null || v === undefined ? 'n/a' : Number(v).toFixed(d));

function htmlTable({ title, columns, rows }) {
  return `<h3>${esc(title)}</h3><div class="scroll"><table><thead><tr>${columns.map((c) => `<th>${esc(c)}</th>`).join('')}</tr></thead><tbody>${
    rows.map((r) => `<tr>${r.map((v, i) => `<td${i === 0 ? ' class="name"' : ''}>${esc(v)}</td>`).join('')}</tr>`).join('')}</tbody></table></div>`;
}

function legend(names) {
  return `<div class="legend">${names.map((n, i) => `<span><i style="background:${colour(i)}"></i>${esc(n)}</span>`).join('')}</div>`;
}

// A cell's name for charts: the varied settings by their last path segment ("context=none, k=5").
function shortName(c) {
  const s = Object.entries(c.settings ?? {});
  if (s.length === 0) return c.name;
  const suffix = c.name.includes(' | ') ? ` |${c.name.slice(c.name.lastIndexOf(' | ') + 2)}` : '';
  return s.map(([p, v]) => `${p.slice(p.lastIndexOf('.') + 1)}=${v}`).join(', ') + suffix;
}
const clip = (s, n) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

// Recall@k for k = 1..K, one polyline per distinct curve (cells that differ only in k rank the same
// chunks: one line, every cell named in its legend entry); the recommended cutoff as a dot.
function curveChart(allCells) {
  const groups = new Map();
  for (const c of allCells.filter((x) => x.retrieval?.curve?.length)) {
    const key = JSON.stringify(c.retrieval.curve);
    if (!groups.has(key)) groups.set(key, { ...c, members: [] });
    groups.get(key).members.push(shortName(c));
  }
  const withCurve = [...groups.values()];
  const cells = withCurve;
  if (withCurve.length === 0) return '<p>No cell retrieved for questions with evidence.</p>';
  const W = 640, H = 300, L = 44, B = 30, T = 10, R = 10;
  const K = Math.max(...withCurve.map((c) => c.retrieval.curve.length));
  const x = (k) => L + ((k - 1) / Math.max(1, K - 1)) * (W - L - R);
  const y = (v) => T + (1 - v) * (H - T - B);
  let svg = `<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="recall versus cutoff">`;
  for (let t = 0; t <= 5; t++) {
    const v = t / 5;
    svg += `<line x1="${L}" x2="${W - R}" y1="${y(v)}" y2="${y(v)}" class="grid"/><text x="${L - 6}" y="${y(v) + 4}" text-anchor="end">${v.toFixed(1)}</text>`;
  }
  for (let k = 1; k <= K; k++) if (k === 1 || k % 5 === 0) svg += `<text x="${x(k)}" y="${H - 10}" text-anchor="middle">${k}</text>`;
  svg += `<text x="${(W + L) / 2}" y="${H}" text-anchor="middle" class="axis">cutoff k</text>`;
  withCurve.forEach((c, i) => {
    const pts = c.retrieval.curve.map((v, j) => `${x(j + 1).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    svg += `<polyline points="${pts}" fill="none" stroke="${colour(i)}" stroke-width="2"><title>${esc(c.name)}</title></polyline>`;
    const rc = c.retrieval.recommendedCutoff;
    if (rc && rc <= c.retrieval.curve.length) {
      svg += `<circle cx="${x(rc)}" cy="${y(c.retrieval.curve[rc - 1])}" r="4" fill="${colour(i)}"><title>${esc(c.name)}: recommended cutoff ${rc}</title></circle>`;
    }
  });
  return `${svg}</svg>${legend(withCurve.map((c) => c.members.join(' · ')))}`;
}

// Horizontal bars of a mean in [0, max] with its CI as a whisker.
function barChart(cells, get, max, label) {
  const rows = cells.map((c, i) => ({ c, i, m: get(c) })).filter((r) => r.m);
  if (rows.length === 0) return `<p>No ${esc(label)} in this run.</p>`;
  const W = 760, row = 22, L = 340, R = 60;
  const H = rows.length * row + 24;
  const x = (v) => L + (v / max) * (W - L - R);
  let svg = `<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${esc(label)}">`;
  rows.forEach(({ c, i, m }, j) => {
    const yy = j * row + 4;
    const name = clip(shortName(c), 56);
    svg += `<text x="${L - 6}" y="${yy + 13}" text-anchor="end">${esc(name)}</text>`;
    svg += `<rect x="${L}" y="${yy}" width="${Math.max(0, x(m.mean) - L).toFixed(1)}" height="${row - 6}" fill="${colour(i)}"><title>${esc(c.name)}: ${fmt(m.mean)}</title></rect>`;
    if (m.low !== null) {
      const cy = yy + (row - 6) / 2;
      svg += `<line x1="${x(m.low)}" x2="${x(m.high)}" y1="${cy}" y2="${cy}" class="ci"/><line x1="${x(m.low)}" x2="${x(m.low)}" y1="${cy - 5}" y2="${cy + 5}" class="ci"/><line x1="${x(m.high)}" x2="${x(m.high)}" y1="${cy - 5}" y2="${cy + 5}" class="ci"/>`;
    }
    svg += `<text x="${Math.min(W - 4, x(m.high ?? m.mean) + 4)}" y="${yy + 13}">${fmt(m.mean, max > 1 ? 1 : 3)}</text>`;
  });
  svg += `<text x="${L}" y="${H - 4}">0</text><text x="${W - R}" y="${H - 4}" text-anchor="end">${max}</text></svg>`;
  return svg;
}

// p50 / p90 / p95 of the total latency per cell as three marks on one line (log-free, linear ms).
function latencyChart(cells) {
  const rows = cells.filter((c) => c.latencyMs.total);
  if (rows.length === 0) return '<p>No latencies recorded.</p>';
  const max = Math.max(...rows.map((c) => c.latencyMs.total.p95), 1e-6);
  const W = 760, row = 22, L = 340, R = 90;
  const H = rows.length * row + 24;
  const x = (v) => L + (v / max) * (W - L - R);
  let svg = `<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="latency percentiles">`;
  rows.forEach((c, j) => {
    const i = cells.indexOf(c);
    const l = c.latencyMs.total;
    const yy = j * row + 4;
    const cy = yy + 8;
    const name = clip(shortName(c), 56);
    svg += `<text x="${L - 6}" y="${yy + 13}" text-anchor="end">${esc(name)}</text>`;
    svg += `<line x1="${x(0)}" x2="${x(l.p95)}" y1="${cy}" y2="${cy}" stroke="${colour(i)}" stroke-width="2"/>`;
    for (const [p, r] of [['p50', 5], ['p90', 4], ['p95', 3]]) svg += `<circle cx="${x(l[p])}" cy="${cy}" r="${r}" fill="${colour(i)}"><title>${esc(c.name)} ${p}: ${fmt(l[p], 1)} ms</title></circle>`;
    svg += `<text x="${x(l.p95) + 6}" y="${yy + 13}">${fmt(l.p50, 1)} / ${fmt(l.p95, 1)} ms</text>`;
  });
  svg += `<text x="${L}" y="${H - 4}">0 ms</text><text x="${W - R}" y="${H - 4}" text-anchor="end">${fmt(max, 1)} ms</text></svg>`;
  return `${svg}<p class="note">Large dot p50, middle p90, small p95 of the total time per question (retrieve + answer + judge).</p>`;
}

function drillDown(cells, records) {
  const byQ = new Map();
  for (const r of records) {
    if (!byQ.has(r.questionId)) byQ.set(r.questionId, { q: r, rows: [] });
    byQ.get(r.questionId).rows.push(r);
  }
  const order = new Map(cells.map((c, i) => [c.name, i]));
  let html = '<input id="filter" placeholder="filter questions" aria-label="filter questions"><div id="questions">';
  for (const [qid, { q, rows }] of byQ) {
    rows.sort((a, b) => (order.get(a.cell) ?? 0) - (order.get(b.cell) ?? 0));
    html += `<details class="q"><summary><b>${esc(qid)}</b> ${esc(q.question)}${q.answerable ? '' : ' <em>(unanswerable)</em>'}</summary>`;
    html += `<p><b>Reference:</b> ${esc(q.reference ?? 'n/a')}</p><table><thead><tr><th>cell</th><th>answer</th><th>F1</th><th>correctness</th><th>judge rule</th><th>triad CR / AR / G</th><th>evidence recall@k</th><th>retrieved chunks</th></tr></thead><tbody>`;
    for (const r of rows) {
      const kRecall = r.retrieval?.recall && r.k > 0 ? r.retrieval.recall[r.k] ?? null : null;
      const chunks = (r.retrieval?.chunks ?? []).map((c, i) => `<li><b>${i + 1}. ${esc(c.id)}</b> ${r.retrieval.relevant?.[i] ? '<span class="ev">evidence</span> ' : ''}${esc(c.text)}</li>`).join('');
      html += `<tr><td class="name">${esc(r.cell)}</td><td>${esc(r.answer?.text ?? '(no answer)')}</td><td>${fmt(r.scores?.f1)}</td><td>${fmt(r.scores?.correctness, 0)}</td>`
        + `<td>${esc(r.judge?.rule ?? (r.judge ? 'judged' : ''))}</td><td>${r.scores?.answerRelevance !== undefined ? `${fmt(r.scores.contextRelevance)} / ${fmt(r.scores.answerRelevance)} / ${fmt(r.scores.groundedness)}` : ''}</td><td>${fmt(kRecall)}</td><td>${chunks ? `<details><summary>${(r.retrieval?.chunks ?? []).length} chunks</summary><ol>${chunks}</ol></details>` : ''}</td></tr>`;
    }
    html += '</tbody></table></details>';
  }
  return `${html}</div>`;
}

const CSS = `body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1400px}h1{font-size:22px}h2{margin-top:32px;border-bottom:1px solid #ccc}
h3{font-size:15px}table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ddd;padding:3px 6px;vertical-align:top;text-align:left}
th{background:#f4f4f4}td.name{font-weight:600}.scroll{overflow-x:auto}svg text{font-size:11px;fill:#333}svg .grid{stroke:#eee}svg .ci{stroke:#000;stroke-width:1.5}
.legend span{display:inline-block;margin-right:14px}.legend i{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:middle}
details.q{border:1px solid #ddd;margin:4px 0;padding:4px 8px}.ev{background:#dfd;padding:0 3px}.note{color:#666}#filter{margin:8px 0;padding:4px;width:320px}
.panels{display:flex;flex-wrap:wrap;gap:6px}svg.panel{border:1px solid #eee}svg .ptitle{font-weight:600;font-size:12px}svg .axis{font-size:12px;fill:#000}.legend svg{vertical-align:middle;margin-right:4px}`;
const JS = `document.getElementById('filter').addEventListener('input',function(e){var t=e.target.value.toLowerCase();
document.querySelectorAll('details.q').forEach(function(d){d.style.display=d.textContent.toLowerCase().indexOf(t)>=0?'':'none';});});`;

/**
 * The experiment report as one self-contained HTML document (no network: inline CSS, SVG and JS).
 * @example
 * writeFileSync('report.html', experimentReportHtml(summary, records, { title: 'chunking x context' }));
 * @param {{cells: object[], comparisons?: object[], baseline?: string|null, stopped?: object|null, failures?: object|null}} summary runExperiment's result
 * @param {object[]} records every record of the run (the --out JSONL lines), for the drill-down
 * @param {{title?: string, pivot?: {x?: string, series?: string[]|string, panels?: string[]|string}}} [options] pivot: the factors
 *   of the line charts (resolvePivot: a varied path, its last segment, "model" or "prompt"; defaults from the grid)
 * @returns {string} the HTML document
 * @throws {RagwasmError} INVALID_ARGUMENT (malformed summary or records, a pivot naming no factor)
 */
export function experimentReportHtml(summary, records, options = {}) {
  const o = expectOptions(options, 'experimentReportHtml options', ['title', 'pivot']);
  const title = o.title === undefined ? 'ragwasm experiment' : expectString(o.title, 'options.title', { maxLength: 1000 });
  if (!isPlainObject(summary)) throw invalid('summary', 'a summary (runExperiment)', summary);
  const recs = expectArray(records, 'records', { maxLength: 100000000, item: (r, n) => {
    if (!isPlainObject(r) || typeof r.questionId !== 'string' || typeof r.cell !== 'string') throw invalid(n, 'a record (runExperiment)', r);
  } });
  const cells = summary.cells;
  const { tables, notes } = summaryTables({ cells, comparisons: summary.comparisons ?? [], baseline: summary.baseline ?? null, stopped: summary.stopped ?? null, failures: summary.failures ?? null });
  const pivot = resolvePivot(cells, o.pivot ?? {});
  const tests = (summary.comparisons ?? []).length;
  const body = [
    `<h1>${esc(title)}</h1>`,
    `<p>${cells.length} cells, ${recs.length} question records${summary.baseline ? `, baseline <b>${esc(summary.baseline)}</b>` : ''}. Every mean with its 95% percentile-bootstrap CI.${tests ? ` Paired randomization tests against the baseline: ${tests} tests in this report, each p-value given raw and Holm-corrected over all ${tests} (family-wise error; a Holm p below 0.05 rejects at 5%).` : ''}</p>`,
    ...notes.map((n) => `<p class="note"><b>${esc(n)}</b></p>`),
    ...(pivot ? ['<h2>Results by factor</h2>', pivotCharts(cells, pivot, esc)] : []),
    '<h2>Tables</h2>', ...tables.map(htmlTable),
    '<h2>Evidence recall vs cutoff</h2>', curveChart(cells),
    ...(pivot ? [] : ['<h2>Answer scores (95% CI)</h2>', '<h3>token F1</h3>', barChart(cells, (c) => c.answers?.f1, 1, 'token F1'),
      '<h3>judged correctness (0-100)</h3>', barChart(cells, (c) => c.answers?.correctness, 100, 'judged correctness')]),
    '<h2>Latency</h2>', latencyChart(cells),
    '<h2>Per-question drill-down</h2>', drillDown(cells, recs),
  ];
  return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title><style>${CSS}</style></head><body>\n${body.join('\n')}\n<script>${JS}</script></body></html>\n`;
}
