// Bench suite `docchat` (issue 15): doc chat on the sample corpus (examples/corpus), on the tuning
// and the reporting half of examples/corpus/split.json. Per configuration: evidence hit@1 / hit@5 /
// MRR@10 (a chunk is a hit when it contains a question's evidence excerpt, evaluateEvidence with the
// default containment threshold 0.8), the extractive answer's token F1 against the reference answer
// (answerable questions; an abstention scores 0), abstentions on unanswerable questions and wrong
// abstentions on answerable ones. Configurations: BM25 (the default chunker, BM25 only), the doc-chat
// preset without and with the static model (PRESETS.docChatBm25 / PRESETS.docChat), and the preset
// with an ONNX embedder in the dense slot (the generated tiny BERT fixture, needs ../shared and
// python3-onnx). Then the abstention sweep (entityMismatch x threshold) on the tuning half that chose
// the preset's values. Every configuration answers with PRESETS.docChatAnswer (question words dropped
// from the retrieval query, one unit, entityMismatch), the BM25 row included.
// Every answer goes through ask() (web/src/answer/ask.js), the code path of the demo and `ragwasm ask`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ask, Collection, createStaticEmbedder, metrics, PRESETS } from '../../../web/src/index.js';
import { createOnnxEmbedder } from '../../../web/src/onnx.js';

const THRESHOLDS = [0.25, 0.28, 0.3, 0.32, 0.34, 0.35, 0.4, 0.45, 0.5, 0.6];
const ENTITY_MISMATCH = [1, 0.85, 0.7, 0.6, 0.5];

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
  })), { k: [1, 5, 10], maxK: 10 });
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

async function run(ctx) {
  const { documents, questions, split } = loadCorpus(ctx.repoRoot);
  const halves = { tuning: new Set(split.tuning), reporting: new Set(split.reporting) };
  const { threshold: _t, ...answerOptions } = PRESETS.docChatAnswer;
  const configs = [
    { name: 'BM25 (default chunker)', make: () => Collection.create({ indexes: { bm25: {} } }), threshold: PRESETS.docChatAnswer.threshold },
    { name: 'preset, BM25 only (docChatBm25)', make: () => Collection.create(PRESETS.docChatBm25), threshold: PRESETS.docChatAnswer.threshold },
  ];
  const staticModel = join(ctx.repoRoot, 'models/build/static-model.bin');
  if (existsSync(staticModel)) {
    const embedder = await createStaticEmbedder({ model: readFileSync(staticModel), cache: false });
    configs.push({ name: 'preset + static model (docChat)', make: () => Collection.create(PRESETS.docChat, { embedder }), threshold: PRESETS.docChatAnswer.threshold });
  } else {
    configs.push({ name: 'preset + static model (docChat)', skipped: 'models/build/static-model.bin missing (node scripts/build-assets.mjs)' });
  }
  const fx = fixtureEmbedder(ctx);
  if (fx.skipped) {
    configs.push({ name: 'preset + ONNX slot (tiny BERT fixture)', skipped: fx.skipped });
  } else {
    const onnx = await createOnnxEmbedder({ model: fx.model, tokenizer: { tokenizerJson: readFileSync(fx.tok) }, normalize: true, batchSize: 32 });
    const [probe] = await onnx.embed(['probe'], { kind: 'query' });
    configs.push({ name: 'preset + ONNX slot (tiny BERT fixture)', make: () => Collection.create(PRESETS.docChat, { embedder: onnx, dimension: probe.length }), threshold: PRESETS.docChatAnswer.threshold, cleanup: () => rmSync(fx.dir, { recursive: true, force: true }) });
  }

  const rows = [];
  const sweepRuns = {};
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
    if (c.name.startsWith('preset + static')) sweepRuns.col = col;
    else col.dispose();
    c.cleanup?.();
    ctx.record(c.name, result);
  }
  ctx.table(`Doc chat on examples/corpus (${questions.length} questions; split.json halves; answers by ask(), extractive, threshold ${PRESETS.docChatAnswer.threshold})`,
    ['configuration', 'half', 'evidence hit@1', 'hit@5', 'MRR@10', 'token F1 (answerable)', 'abstained: unanswerable', 'wrong abstentions'], rows);

  // The abstention threshold sweep, tuning half only: the preset's threshold is the one that
  // maximizes mean token F1 over all tuning questions (an unanswerable question scores 1 when the
  // answerer abstains) with at most 5% wrong abstentions.
  if (sweepRuns.col) {
    const tuningQs = questions.filter((q) => halves.tuning.has(q.id));
    const sweep = [];
    for (const em of ENTITY_MISMATCH) {
      for (const th of THRESHOLDS) {
        const runs = await runQuestions(sweepRuns.col, tuningQs, { ...answerOptions, entityMismatch: em, threshold: th });
        const s = score(runs);
        const squad2 = (s.tokenF1 * s.answerable + s.abstainedUnanswerable) / s.questions;
        sweep.push({ entityMismatch: em, threshold: th, ...s, squad2 });
      }
    }
    const ok = sweep.filter((s) => s.wrongAbstentions <= 0.05 * s.answerable);
    // Ties: the earlier row (larger entityMismatch, then smaller threshold).
    const best = (ok.length ? ok : sweep).reduce((a, b) => (b.squad2 > a.squad2 ? b : a));
    ctx.table('Abstention sweep (entityMismatch x threshold), preset + static model, tuning half',
      ['entityMismatch', 'threshold', 'token F1 (answerable)', 'abstained: unanswerable', 'wrong abstentions', 'F1 all (SQuAD2-style)'],
      sweep.map((s) => [s.entityMismatch, s.threshold, s.tokenF1, `${s.abstainedUnanswerable}/${s.unanswerable}`, `${s.wrongAbstentions}/${s.answerable}`, s.squad2]));
    process.stdout.write(`\nchosen on the tuning half: entityMismatch ${best.entityMismatch}, threshold ${best.threshold} `
      + `(PRESETS.docChatAnswer: entityMismatch ${PRESETS.docChatAnswer.entityMismatch}, threshold ${PRESETS.docChatAnswer.threshold})\n`);
    ctx.record('thresholdSweep', { sweep, chosen: { entityMismatch: best.entityMismatch, threshold: best.threshold },
      preset: { entityMismatch: PRESETS.docChatAnswer.entityMismatch, threshold: PRESETS.docChatAnswer.threshold } });
    sweepRuns.col.dispose();
  }
}

export default {
  name: 'docchat',
  description: 'doc chat on examples/corpus: evidence hit@1/hit@5/MRR@10, token F1 and abstention on the tuning and reporting halves',
  run,
};
