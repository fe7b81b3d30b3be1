// Issue 15 round 5, on the TUNING half of examples/corpus/split.json only (the reporting half is never read
// here): does a real sentence encoder (Universal Sentence Encoder lite, tests/bench/lib/use-lite.mjs) help doc
// chat? (a) retrieval: PRESETS.docChatHybrid with USE lite (the leg check decides) vs BM25, plus the dense leg alone
// and the hybrid with the leg check off; (b) answer selection / abstention: cos(question, unit) from USE combined
// with the answerer's score, chosen by the round-4 rule with 3-fold CV inside the tuning half
// (docchat-study.mjs choose()/crossValidate(), folds() of docchat-select.mjs), against the round-3 rule.
//   node models/fetch-use-lite.mjs && node tests/bench/lib/docchat-use-study.mjs     (STUDY_DUMP=1: tuning-half near misses)
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ask, Collection, init, PRESETS } from '../../../web/src/index.js';
import { metrics } from '../../../web/src/eval.js';
import { loadCorpus, perQuestion } from '../suites/docchat.mjs';
import { summarize as summarizeRetrieval, THRESHOLDS } from './docchat-select.mjs';
import { choose, crossValidate, separation, tuningUnits } from './docchat-study.mjs';
import { loadUseLite } from './use-lite.mjs';

const ALPHA = [0.5, 1, 2, 4];
const MIX_THRESHOLDS = [0.01, 0.02, 0.03, 0.05, 0.07, 0.1, 0.12, 0.15, 0.18, 0.2, 0.22, 0.25, 0.3, 0.35, 0.4];
const COS_THRESHOLDS = [0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6];
// a cosine floor on the answerer's gate: answer only when some unit has score >= t and cos >= c
const COS_FLOORS = [0.1, 0.2, 0.25, 0.3, 0.35, 0.4];

const dot = (a, b) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};

/** The options of (b): {name, t, rank(d), gate(d)} in the shape docchat-study.mjs answerWith() reads (1 unit). */
export function useVariants() {
  const one = { second: Infinity, neighbour: -1, and: false };
  const score = (d) => d.units.map((u) => u.score);
  const cos = (d) => d.cos.map((c) => Math.max(0, c));
  const mix = (a) => (d) => d.units.map((u, i) => u.score * Math.max(0, d.cos[i]) ** a);
  const out = { 'formula (the round-3 rule)': [], 'cos selects, formula abstains': [], 'formula selects, cos abstains': [],
    'score x cos^a selects and abstains': [], 'score x cos^a selects, formula abstains': [], 'formula + a cosine floor on the gate': [] };
  for (const t of THRESHOLDS) {
    out['formula (the round-3 rule)'].push({ ...one, sel: 'formula', abst: 'formula', t, rank: score, gate: score });
    out['cos selects, formula abstains'].push({ ...one, sel: 'cos', abst: 'formula', t, rank: cos, gate: score });
    for (const a of ALPHA) out['score x cos^a selects, formula abstains'].push({ ...one, sel: `mix ${a}`, abst: 'formula', t, rank: mix(a), gate: score });
    for (const c of COS_FLOORS) {
      out['formula + a cosine floor on the gate'].push({ ...one, sel: 'formula', abst: `formula, cos >= ${c}`, t, rank: score,
        gate: (d) => d.units.map((u, i) => (d.cos[i] >= c ? u.score : 0)) });
    }
  }
  for (const t of COS_THRESHOLDS) out['formula selects, cos abstains'].push({ ...one, sel: 'formula', abst: 'cos', t, rank: score, gate: cos });
  for (const a of ALPHA) {
    for (const t of MIX_THRESHOLDS) out['score x cos^a selects and abstains'].push({ ...one, sel: `mix ${a}`, abst: `mix ${a}`, t, rank: mix(a), gate: mix(a) });
  }
  out['all of the above'] = Object.values(out).flat();
  return out;
}

async function retrievalRecords(documents, qs, config, embedder) {
  const col = await Collection.create(config, embedder ? { embedder } : {});
  const t0 = performance.now();
  await col.add(documents);
  const addMs = performance.now() - t0;
  const runs = [];
  for (const q of qs) runs.push({ q, r: await ask(col, q.question, PRESETS.docChatAnswer) });
  const legs = col.config.retrieval.retrievers.length > 1 ? await col.checkLegs() : null;
  const chunks = [...col.chunks.values()].map((c) => c.indexText ?? c.text);
  col.dispose();
  return { recs: perQuestion(runs), legs, addMs, chunks };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
  const use = await loadUseLite(root);
  if (use.skip) {
    console.log(`skipped: ${use.skip}`);
    process.exit(0);
  }
  await init();
  const embedder = use.embedder;
  const { documents, questions, split } = loadCorpus(root);
  const tuning = new Set(split.tuning);
  const qs = questions.filter((q) => tuning.has(q.id));
  console.log(`USE lite: backend ${embedder.backend}, ${qs.length} tuning questions`);

  // (a) retrieval
  const fmtR = (s) => `hit@1 ${s.hit1.toFixed(3)} hit@5 ${s.hit5.toFixed(3)} MRR@10 ${s.mrr10.toFixed(3)} | F1 ${s.tokenF1.toFixed(3)} abst ${s.abstainedUnanswerable}/${s.unanswerable} wrong ${s.wrongAbstentions}/${s.answerable}`;
  const dense = { ...PRESETS.docChatHybrid, retrieval: { ...PRESETS.docChatHybrid.retrieval, retrievers: ['dense'] } };
  const forced = { ...PRESETS.docChatHybrid, retrieval: { ...PRESETS.docChatHybrid.retrieval, fusion: { legCheck: false } } };
  let chunkTexts = null;
  for (const [name, config, emb] of [['BM25 (docChatBm25)', PRESETS.docChatBm25, null], ['docChat + USE lite (leg check decides)', PRESETS.docChatHybrid, embedder],
    ['docChat + USE lite, leg check off (hybrid forced)', forced, embedder], ['USE lite dense leg alone', dense, embedder]]) {
    const r = await retrievalRecords(documents, qs, config, emb);
    chunkTexts ??= r.chunks;
    console.log(`(a) ${name}: ${fmtR(summarizeRetrieval(r.recs))}  [add ${r.addMs.toFixed(0)} ms]`);
    if (r.legs) console.log(`    leg check: decided ${r.legs.decided}, weak [${r.legs.weak.join(', ')}], self-retrieval MRR@10 ${r.legs.legs.map((l) => `${l.retriever} ${l.mrr.toFixed(3)}`).join(', ')}, probes ${r.legs.probes}`);
  }

  // speed: the adapter on the corpus' chunks, one thread (after a warm-up)
  await embedder.embed(chunkTexts.slice(0, 16));
  const t0 = performance.now();
  await embedder.embed(chunkTexts);
  const sec = (performance.now() - t0) / 1000;
  const chars = chunkTexts.reduce((s, t) => s + t.length, 0);
  console.log(`speed: ${chunkTexts.length} chunks (mean ${(chars / chunkTexts.length).toFixed(0)} chars) in ${sec.toFixed(2)} s = ${(chunkTexts.length / sec).toFixed(1)} passages/s (batch 16, ${embedder.backend}, 1 thread)`);

  // (b) answer selection / abstention over the units of the top-5 chunks the preset's ask() reads (BM25)
  const data = await tuningUnits(root);
  const t1 = performance.now();
  let nUnits = 0;
  for (const d of data) {
    const vs = await embedder.embed([d.q.question, ...d.units.map((u) => u.text)], { kind: 'document' });
    d.cos = vs.slice(1).map((v) => dot(vs[0], v));
    nUnits += d.units.length;
  }
  console.log(`(b) ${data.length} questions, ${nUnits} units embedded in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
  // The unit each signal ranks first (no abstention), answerable questions: mean F1 and how often it is an oracle unit.
  const nAns = data.filter((x) => x.q.answerable).length;
  for (const [name, sig] of [['answerer score', (d) => d.units.map((u) => u.score)], ['USE cos', (d) => d.cos]]) {
    let picked = 0, oracleHit = 0;
    for (const d of data.filter((x) => x.q.answerable && x.units.length)) {
      const fs = d.units.map((u) => metrics.tokenF1(u.text, [d.q.answer]));
      const v = sig(d);
      const top = v.indexOf(Math.max(...v));
      picked += fs[top];
      if (fs[top] === Math.max(...fs)) oracleHit++;
    }
    console.log(`    argmax of ${name}, no abstention: mean F1 ${(picked / nAns).toFixed(3)}, an oracle unit for ${oracleHit}/${nAns}`);
  }
  console.log(`    separation of answerable from unanswerable by the best unit (AUC): formula score ${separation(data, (d) => d.units.map((u) => u.score)).toFixed(3)}, USE cos ${separation(data, (d) => d.cos).toFixed(3)}`);
  if (process.env.STUDY_DUMP) {
    // tuning half only: each unanswerable question's best answerer score and best cosine (and that unit), and
    // the answerable questions' best cosines
    const best = (xs) => Math.max(...xs);
    const ansCos = data.filter((d) => d.q.answerable && d.units.length).map((d) => best(d.cos)).sort((a, b) => a - b);
    console.log(`    answerable: best cos min ${ansCos[0].toFixed(3)} median ${ansCos[ansCos.length >> 1].toFixed(3)} max ${ansCos.at(-1).toFixed(3)}`);
    for (const d of data.filter((x) => !x.q.answerable && x.units.length)) {
      const i = d.cos.indexOf(best(d.cos));
      console.log(`    ${d.q.id} score ${best(d.units.map((u) => u.score)).toFixed(3)} cos ${d.cos[i].toFixed(3)} Q: ${d.q.question}\n      unit: ${d.units[i].text.slice(0, 120)}`);
    }
  }
  const fmt = (s) => `F1 ${s.tokenF1.toFixed(3)} abst ${s.abstained}/${s.unanswerable} wrong ${s.wrong}/${s.answerable} squad2 ${s.squad2.toFixed(3)}`;
  for (const [name, vs] of Object.entries(useVariants())) {
    const fit = choose(vs, data);
    const cv = crossValidate(vs, data);
    console.log(`\n${name}: fit on the tuning half: ${fit.v.sel}/${fit.v.abst} t ${fit.v.t} -> ${fmt(fit.s)}`);
    for (const r of cv.rows) console.log(`  fold ${r.fold}: ${r.sel}/${r.abst} t ${r.t} -> ${fmt(r)}`);
    console.log(`  CV pooled: ${fmt(cv.pooled)}`);
  }
}
