// @ts-check
// The report's pivot (issue 32): the grid's factors laid out as the study reads them — one factor on
// the x axis (e.g. retrieval.k), one line per series (e.g. chunker x context), one small panel per
// panel value (e.g. the answer model) — as inline-SVG line charts with 95% CI bands and labelled axes,
// one row of panels per measure (accuracy, correctness, token F1, ANLS, evidence recall@k).
// Every text from the data goes through `esc`; the SVG holds no script and no event attribute.
import { RagwasmError } from '../core/errors.js';
import { isArray, isPlainObject } from '../core/validate.js';

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22'];
const DASHES = ['', '6 3', '2 3', '8 3 2 3'];

/** The measures charted: [key, label, maximum, the cell summary's MeanCI]. */
/** @type {[string, string, number, (cell: import('./experiment.js').ExperimentCellSummary) => import('./experiment.js').MeanCI|null|undefined][]} */
export const PIVOT_MEASURES = [
  ['accuracy', 'accuracy (judged correct, share)', 1, (c) => c.answers?.accuracy],
  ['correctness', 'judged correctness (0-100)', 100, (c) => c.answers?.correctness],
  ['f1', 'token F1', 1, (c) => c.answers?.f1],
  ['anls', 'ANLS', 1, (c) => c.answers?.anls],
  ['recall@k', 'evidence recall@k', 1, (c) => c.retrieval?.recallAtK],
];

// The factors of a cell: its varied settings by path, plus model and prompt.
function factorsOf(c) {
  const f = { ...(c.settings ?? {}) };
  if (c.model) f.model = c.model;
  if (c.prompt) f.prompt = c.prompt;
  return f;
}

/**
 * Resolves a pivot {x, series, panels} against the cells' factors: a factor is a varied path
 * ("retrieval.k"), its last segment when that is unique ("k"), "model" or "prompt". Defaults: x =
 * retrieval.k when it is varied, else the first varied factor; series = the other varied paths; panels =
 * model when there is more than one.
 * @param {object[]} cells cell summaries
 * @param {{x?: string, series?: string[], panels?: string[]}} [pivot]
 * @returns {{x: string, series: string[], panels: string[]}|null} null when the cells vary in no factor
 * @throws {RagwasmError} INVALID_ARGUMENT (a name that is no factor, or one factor in two roles)
 */
export function resolvePivot(cells, pivot = {}) {
  if (!isPlainObject(pivot)) throw new RagwasmError('INVALID_ARGUMENT', 'ragwasm: report: expected {x, series, panels}');
  const known = [];
  for (const c of cells) for (const k of Object.keys(factorsOf(c))) if (!known.includes(k)) known.push(k);
  const varied = known.filter((k) => new Set(cells.map((c) => factorsOf(c)[k]).filter((v) => v !== undefined)).size > 1);
  const name = (n, path) => {
    if (typeof n !== 'string' || n === '') throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${path}: expected a factor name, got ${JSON.stringify(n)}`);
    if (known.includes(n)) return n;
    const bySuffix = known.filter((k) => k.slice(k.lastIndexOf('.') + 1) === n);
    if (bySuffix.length === 1) return bySuffix[0];
    throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${path}: ${JSON.stringify(n)} is ${bySuffix.length > 1 ? 'ambiguous' : 'not a factor of this grid'} (factors: ${known.map((k) => JSON.stringify(k)).join(', ') || 'none'})`);
  };
  const list = (v, path) => {
    if (v === undefined) return undefined;
    const arr = typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : v;
    if (!isArray(arr)) throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${path}: expected a list of factor names`);
    return arr.map((n, i) => name(n, `${path}[${i}]`));
  };
  let x = pivot.x === undefined ? undefined : name(pivot.x, 'report.x');
  let panels = list(pivot.panels, 'report.panels');
  let series = list(pivot.series, 'report.series');
  if (x === undefined) x = varied.includes('retrieval.k') ? 'retrieval.k' : varied.find((k) => k !== 'model' && !(panels ?? []).includes(k) && !(series ?? []).includes(k));
  if (x === undefined) return null;
  if (panels === undefined) panels = varied.includes('model') && x !== 'model' && !(series ?? []).includes('model') ? ['model'] : [];
  if (series === undefined) series = varied.filter((k) => k !== x && !panels.includes(k));
  const all = [x, ...series, ...panels];
  const twice = all.find((k, i) => all.indexOf(k) !== i);
  if (twice) throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: report: factor ${JSON.stringify(twice)} has two roles (x, series, panels)`);
  return { x, series, panels };
}

const numeric = (vals) => vals.every((v) => v !== '' && Number.isFinite(Number(v)));
const short = (k) => k.slice(k.lastIndexOf('.') + 1);

/**
 * The pivot charts as HTML: for each measure some cell has, a row of small multiples.
 * @param {object[]} cells cell summaries
 * @param {{x: string, series: string[], panels: string[]}} p resolvePivot's result
 * @param {(s: string) => string} esc HTML escaping
 * @returns {string}
 */
export function pivotCharts(cells, p, esc) {
  const fmt = (v, d) => Number(v).toFixed(d);
  const inPivot = cells.filter((c) => factorsOf(c)[p.x] !== undefined);
  const xs = [...new Set(inPivot.map((c) => factorsOf(c)[p.x]))];
  const isNum = numeric(xs);
  if (isNum) xs.sort((a, b) => Number(a) - Number(b));
  const key = (c, keys) => keys.map((k) => factorsOf(c)[k] ?? '—').join(' × ');
  const seriesNames = [...new Set(inPivot.map((c) => key(c, p.series)))];
  const panelNames = [...new Set(inPivot.map((c) => key(c, p.panels)))];
  const style = (i) => ({ colour: PALETTE[i % PALETTE.length], dash: DASHES[Math.floor(i / PALETTE.length) % DASHES.length] });
  const out = [];
  const left = cells.length - inPivot.length;
  out.push(`<p class="note">x: <b>${esc(p.x)}</b>; one line per ${p.series.length ? `<b>${esc(p.series.join(' × '))}</b>` : 'grid'}${p.panels.length ? `; one panel per <b>${esc(p.panels.join(' × '))}</b>` : ''}. `
    + `Lines are means, bands their 95% percentile-bootstrap CIs.${left ? ` ${left} cell(s) without the x factor (baselines) are in the tables only.` : ''}</p>`);
  for (const [mkey, label, max, get] of PIVOT_MEASURES) {
    if (!inPivot.some((c) => get(c))) continue;
    const legend = seriesNames.map((s, i) => {
      const st = style(i);
      return `<span><svg width="26" height="10" aria-hidden="true"><line x1="1" x2="25" y1="5" y2="5" stroke="${st.colour}" stroke-width="2.5" stroke-dasharray="${st.dash}"/></svg>${esc(s || 'all cells')}</span>`;
    }).join('');
    const panel = (members, pn) => {
      const W = 300, H = 220, L = 46, R = 8, T = 22, B = 40;
      // A numeric factor (k) on a linear scale, any other in its grid order at equal steps.
      const lo = isNum ? Number(xs[0]) : 0;
      const span = isNum ? Number(xs[xs.length - 1]) - lo : xs.length - 1;
      const xAt = (i) => L + (span === 0 ? (W - L - R) / 2 : (((isNum ? Number(xs[i]) - lo : i)) / span) * (W - L - R));
      const yAt = (v) => T + (1 - v / max) * (H - T - B);
      let svg = `<svg class="panel" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${esc(`${label} by ${p.x}${pn ? `, ${pn}` : ''}`)}">`;
      svg += `<text x="${(W + L) / 2}" y="14" text-anchor="middle" class="ptitle">${esc(pn || label)}</text>`;
      for (let t = 0; t <= 4; t++) {
        const v = (max * t) / 4;
        svg += `<line x1="${L}" x2="${W - R}" y1="${yAt(v).toFixed(1)}" y2="${yAt(v).toFixed(1)}" class="grid"/><text x="${L - 4}" y="${(yAt(v) + 4).toFixed(1)}" text-anchor="end">${max > 1 ? fmt(v, 0) : fmt(v, 2)}</text>`;
      }
      xs.forEach((xv, i) => { svg += `<text x="${xAt(i).toFixed(1)}" y="${H - 24}" text-anchor="middle">${esc(xv.length > 8 ? `${xv.slice(0, 7)}…` : xv)}</text>`; });
      svg += `<text x="${(W + L) / 2}" y="${H - 6}" text-anchor="middle" class="axis">${esc(short(p.x))}</text>`;
      svg += `<text transform="translate(11 ${(T + H - B) / 2}) rotate(-90)" text-anchor="middle" class="axis">${esc(mkey)}</text>`;
      seriesNames.forEach((sn, si) => {
        const st = style(si);
        const pts = [];
        xs.forEach((xv, i) => {
          const c = members.find((m) => key(m, p.series) === sn && factorsOf(m)[p.x] === xv);
          const m = c ? get(c) : null;
          if (m && Number.isFinite(m.mean)) pts.push({ i, m, c });
        });
        if (pts.length === 0) return;
        const band = pts.filter((q) => q.m.low !== null && q.m.low !== undefined);
        if (band.length > 1) {
          const up = band.map((q) => `${xAt(q.i).toFixed(1)},${yAt(q.m.high).toFixed(1)}`);
          const down = band.slice().reverse().map((q) => `${xAt(q.i).toFixed(1)},${yAt(q.m.low).toFixed(1)}`);
          svg += `<polygon class="band" points="${[...up, ...down].join(' ')}" fill="${st.colour}" fill-opacity="0.13" stroke="none"/>`;
        } else if (band.length === 1) {
          const q = band[0];
          svg += `<line class="band" x1="${xAt(q.i).toFixed(1)}" x2="${xAt(q.i).toFixed(1)}" y1="${yAt(q.m.low).toFixed(1)}" y2="${yAt(q.m.high).toFixed(1)}" stroke="${st.colour}" stroke-opacity="0.4" stroke-width="6"/>`;
        }
        svg += `<polyline class="series" points="${pts.map((q) => `${xAt(q.i).toFixed(1)},${yAt(q.m.mean).toFixed(1)}`).join(' ')}" fill="none" stroke="${st.colour}" stroke-width="2" stroke-dasharray="${st.dash}"><title>${esc(sn || 'all cells')}</title></polyline>`;
        for (const q of pts) {
          const ci = q.m.low === null || q.m.low === undefined ? '' : ` [${fmt(q.m.low, 3)}, ${fmt(q.m.high, 3)}]`;
          svg += `<circle cx="${xAt(q.i).toFixed(1)}" cy="${yAt(q.m.mean).toFixed(1)}" r="3" fill="${st.colour}"><title>${esc(`${q.c.name}: ${fmt(q.m.mean, 3)}${ci} (n ${q.m.n})`)}</title></circle>`;
        }
      });
      return `${svg}</svg>`;
    };
    const panels = panelNames.map((pn) => panel(inPivot.filter((c) => key(c, p.panels) === pn), pn));
    out.push(`<section class="pivot" data-measure="${esc(mkey)}"><h3>${esc(label)}</h3><div class="legend">${legend}</div><div class="panels">${panels.join('')}</div></section>`);
  }
  return out.join('\n');
}
