// Issue 15 round 4, on the TUNING half of examples/corpus/split.json only (the reporting half is never
// read here): (1) the ceiling of unit answers: oracle token F1 of the best unit of the top-5 chunks, of
// the best 2 units joined, of the best clause, and of the reference's own evidence; (2) the learned
// unit scorer (answer-scorer.mjs, fitted on SQuAD) for unit selection / abstention and 2-unit answers,
// chosen by a rule in code with 3-fold cross-validation inside the tuning half, against the answerer's
// own score under the same rule.
//   node tests/bench/lib/docchat-study.mjs /tmp/scorer.json     (the output of models/fit-answer-scorer.mjs)
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { answerUnitFeatures } from '../../../web/src/answer/extractive.js';
import { ask, Collection, init, PRESETS } from '../../../web/src/index.js';
import { metrics } from '../../../web/src/eval.js';
import { loadCorpus } from '../suites/docchat.mjs';
import { features, predict } from './answer-scorer.mjs';
import { folds, THRESHOLDS } from './docchat-select.mjs';

const stripMarkers = (s) => s.replace(/\s*\[\d+\]/g, '').trim();
const f1 = (text, ref) => metrics.tokenF1(text, [ref]);

/** Per tuning question: the preset's ask() answer, the units of its top-5 chunks with features. */
export async function tuningUnits(root) {
  const { documents, questions, split } = loadCorpus(root);
  const tuning = new Set(split.tuning);
  const qs = questions.filter((q) => tuning.has(q.id));
  const titles = new Map(documents.map((d) => [d.id, d.title]));
  const col = await Collection.create(PRESETS.docChatBm25);
  await col.add(documents);
  const out = [];
  for (const q of qs) {
    const r = await ask(col, q.question, PRESETS.docChatAnswer);
    const top = r.hits.slice(0, PRESETS.docChatAnswer.answerChunks).map((h) => ({ text: h.text, context: titles.get(h.docId) ?? '' }));
    const units = answerUnitFeatures(q.question, top, { maxChunks: top.length, entityMismatch: PRESETS.docChatAnswer.entityMismatch, keyMismatch: PRESETS.docChatAnswer.keyMismatch });
    out.push({ q, askAnswer: r.abstained ? null : stripMarkers(r.answer), units, X: features(units) });
  }
  col.dispose();
  return out;
}

const clauses = (t) => t.split(/[,;:()—–]| - /).map((s) => s.trim()).filter((s) => s.length > 0);

/** P(a random answerable question's gate value > a random unanswerable one's): how well a gate separates them (ties 0.5). */
export function separation(data, gate) {
  const best = (d) => (d.units.length ? Math.max(...gate(d)) : 0);
  const a = data.filter((d) => d.q.answerable).map(best);
  const u = data.filter((d) => !d.q.answerable).map(best);
  let s = 0;
  for (const x of a) for (const y of u) s += x > y ? 1 : x === y ? 0.5 : 0;
  return s / Math.max(1, a.length * u.length);
}

/** The ceiling numbers (answerable tuning questions). */
export function ceiling(data) {
  const ans = data.filter((d) => d.q.answerable);
  let one = 0, two = 0, clause = 0, evidence = 0, askF1 = 0;
  for (const d of ans) {
    const fs = d.units.map((u) => f1(u.text, d.q.answer));
    one += Math.max(0, ...fs);
    let b2 = Math.max(0, ...fs);
    for (let i = 0; i < d.units.length; i++) for (let j = i + 1; j < d.units.length; j++) b2 = Math.max(b2, f1(`${d.units[i].text} ${d.units[j].text}`, d.q.answer));
    two += b2;
    clause += Math.max(0, ...d.units.flatMap((u) => clauses(u.text).map((c) => f1(c, d.q.answer))));
    evidence += d.q.evidence.length ? f1(d.q.evidence.join(' '), d.q.answer) : 0;
    askF1 += d.askAnswer === null ? 0 : f1(d.askAnswer, d.q.answer);
  }
  const n = ans.length;
  return { answerable: n, ask: askF1 / n, bestUnit: one / n, best2Units: two / n, bestClause: clause / n, evidence: evidence / n };
}

// The answer options a variant is chosen from: how units are ranked, what the abstention reads, and the
// ratio a second unit needs (Infinity = one unit).
const MIX = [0.25, 0.5, 1];
const MIX_THRESHOLDS = [0.01, 0.02, 0.03, 0.05, 0.07, 0.1, 0.12, 0.15, 0.18, 0.2, 0.22, 0.25, 0.3, 0.35, 0.4];
const P_THRESHOLDS = [0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6];
const SECOND = [Infinity, 0.9, 0.75];
// A neighbour (the unit before or after the answer in its chunk) joins when it scores at least this
// share of the answer (-1 = never); `and`: only for a question with "and" in it (two things asked).
const NEIGHBOUR = [-1, 0.75, 0.5, 0.25, 0];
export function variants(w) {
  const p = (d) => d.X.map((x) => predict(w, x));
  const rank = { formula: (d) => d.units.map((u) => u.score), learned: p };
  // the answerer's score times p^alpha: the learned signal as a soft factor
  for (const alpha of MIX) rank[`mix ${alpha}`] = (d) => { const ps = p(d); return d.units.map((u, i) => u.score * ps[i] ** alpha); };
  const out = [];
  for (const sel of Object.keys(rank)) {
    for (const abst of sel.startsWith('mix') ? [sel] : ['formula', 'learned']) {
      for (const t of abst === 'learned' ? P_THRESHOLDS : abst === 'formula' ? THRESHOLDS : MIX_THRESHOLDS) {
        for (const second of SECOND) out.push({ sel, abst, t, second, neighbour: -1, and: false, rank: rank[sel], gate: rank[abst] });
        for (const neighbour of NEIGHBOUR.slice(1)) {
          for (const and of [false, true]) out.push({ sel, abst, t, second: Infinity, neighbour, and, rank: rank[sel], gate: rank[abst] });
        }
      }
    }
  }
  return out;
}

/** Per-question record of variant v: {id, answerable, abstained, f1}. */
export function answerWith(v, d) {
  const rec = { id: d.q.id, answerable: d.q.answerable, abstained: true, f1: 0 };
  if (d.units.length === 0) return rec;
  const r = v.rank(d);
  const g = v.gate(d);
  const order = r.map((_, i) => i).sort((a, b) => r[b] - r[a] || a - b);
  const best = order[0];
  if (Math.max(...g) < v.t) return rec;
  let text = d.units[best].text;
  if (Number.isFinite(v.second) && order.length > 1 && r[order[1]] >= v.second * r[best]) text += ` ${d.units[order[1]].text}`;
  if (v.neighbour >= 0 && (!v.and || /\band\b/i.test(d.q.question))) {
    const near = [best - 1, best + 1].filter((i) => i >= 0 && i < d.units.length && d.units[i].chunkIndex === d.units[best].chunkIndex);
    const n = near.sort((a, b) => r[b] - r[a] || a - b)[0];
    if (n !== undefined && r[n] >= v.neighbour * r[best]) text = n < best ? `${d.units[n].text} ${text}` : `${text} ${d.units[n].text}`;
  }
  rec.abstained = false;
  if (d.q.answerable) rec.f1 = f1(text, d.q.answer);
  return rec;
}

export function summarize(recs) {
  const ans = recs.filter((r) => r.answerable);
  const un = recs.filter((r) => !r.answerable);
  const f = ans.reduce((s, r) => s + r.f1, 0);
  const au = un.filter((r) => r.abstained).length;
  return { tokenF1: f / Math.max(1, ans.length), abstained: au, unanswerable: un.length, wrong: ans.filter((r) => r.abstained).length, answerable: ans.length, squad2: (f + au) / Math.max(1, recs.length) };
}

/** The rule of docchat-select.mjs: the best SQuAD2-style F1 among options with <= 5% wrong abstentions (ties: earlier). */
export function choose(vs, data) {
  let best = null;
  for (const v of vs) {
    const s = summarize(data.map((d) => answerWith(v, d)));
    const ok = s.wrong <= 0.05 * s.answerable;
    if (!best || (ok && !best.ok) || (ok === best.ok && s.squad2 > best.s.squad2 + 1e-12)) best = { v, s, ok };
  }
  return best;
}

export function crossValidate(vs, data) {
  const fs = folds(data.map((d) => d.q));
  const held = [];
  const rows = [];
  for (let f = 0; f < fs.length; f++) {
    const c = choose(vs, data.filter((d) => !fs[f].has(d.q.id)));
    const recs = data.filter((d) => fs[f].has(d.q.id)).map((d) => answerWith(c.v, d));
    rows.push({ fold: f + 1, sel: c.v.sel, abst: c.v.abst, t: c.v.t, second: c.v.second, neighbour: c.v.neighbour, and: c.v.and, ...summarize(recs) });
    held.push(...recs);
  }
  return { rows, pooled: summarize(held) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await init();
  const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
  const scorer = JSON.parse(readFileSync(process.argv[2], 'utf8'));
  const data = await tuningUnits(root);
  console.log('ceiling (tuning half, answerable):', JSON.stringify(ceiling(data)));
  const all = variants(scorer.coefficients);
  console.log('separation of answerable from unanswerable by the best unit (AUC): formula score',
    separation(data, (d) => d.units.map((u) => u.score)).toFixed(3), 'learned p', separation(data, (d) => d.X.map((x) => predict(scorer.coefficients, x))).toFixed(3));
  if (process.env.STUDY_DUMP) {
    for (const d of data.filter((x) => x.q.answerable)) {
      const fs = d.units.map((u) => f1(u.text, d.q.answer));
      const o = fs.indexOf(Math.max(...fs));
      const c = d.units.map((u) => u.score).reduce((b, v, i, a) => (v > a[b] ? i : b), 0);
      console.log(`${d.q.id} chosen ${fs[c]?.toFixed(2)} (${d.units[c]?.score.toFixed(2)}) oracle ${fs[o]?.toFixed(2)} (${d.units[o]?.score.toFixed(2)})\n  Q: ${d.q.question}\n  R: ${d.q.answer}\n  C: ${d.units[c]?.text}\n  O: ${d.units[o]?.text}`);
    }
  }
  const sets = {
    'formula only, 1 unit (the round-3 rule)': all.filter((v) => v.sel === 'formula' && v.abst === 'formula' && v.second === Infinity && v.neighbour < 0),
    'formula, 1 or 2 best units': all.filter((v) => v.sel === 'formula' && v.abst === 'formula' && v.neighbour < 0),
    'formula, 1 unit or + its neighbour': all.filter((v) => v.sel === 'formula' && v.abst === 'formula' && v.second === Infinity),
    'learned selection and abstention, 1 unit': all.filter((v) => v.sel === 'learned' && v.abst === 'learned' && v.second === Infinity && v.neighbour < 0),
    'formula selection, learned abstention, 1 unit': all.filter((v) => v.sel === 'formula' && v.abst === 'learned' && v.second === Infinity && v.neighbour < 0),
    'learned selection, formula abstention, 1 unit': all.filter((v) => v.sel === 'learned' && v.abst === 'formula' && v.second === Infinity && v.neighbour < 0),
    'mix: score x p^alpha for selection and abstention, 1 unit': all.filter((v) => v.sel.startsWith('mix') && v.second === Infinity && v.neighbour < 0),
    'all options': all,
  };
  const fmt = (s) => `F1 ${s.tokenF1.toFixed(3)} abst ${s.abstained}/${s.unanswerable} wrong ${s.wrong}/${s.answerable} squad2 ${s.squad2.toFixed(3)}`;
  console.log(`\nat the preset's threshold ${PRESETS.docChatAnswer.threshold} (formula selection and abstention), the whole tuning half:`);
  for (const v of all.filter((x) => x.sel === 'formula' && x.abst === 'formula' && x.t === PRESETS.docChatAnswer.threshold)) {
    console.log(`  second ${v.second} neighbour ${v.neighbour}${v.and ? ' (and)' : ''}: ${fmt(summarize(data.map((d) => answerWith(v, d))))}`);
  }
  for (const [name, vs] of Object.entries(sets)) {
    const fit = choose(vs, data);
    const cv = crossValidate(vs, data);
    console.log(`\n${name}: fit on the tuning half: ${fit.v.sel}/${fit.v.abst} t ${fit.v.t} second ${fit.v.second} neighbour ${fit.v.neighbour}${fit.v.and ? ' (and)' : ''} -> ${fmt(fit.s)}`);
    for (const r of cv.rows) console.log(`  fold ${r.fold}: ${r.sel}/${r.abst} t ${r.t} second ${r.second} neighbour ${r.neighbour}${r.and ? ' (and)' : ''} -> ${fmt(r)}`);
    console.log(`  CV pooled: ${fmt(cv.pooled)}`);
  }
}
