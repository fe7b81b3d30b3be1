// Bench suite `fusion`: SciFact hybrid retrieval quality, "safe by default" check. BM25 (Bm25Index,
// title + text) and dense (the offline static model, exact flat cosine) retrieve the top 100 for every
// train and test query; fusion settings are tuned on the train qrels (809 queries) and every setting is
// reported on the test qrels (300 queries, nDCG@10 as trec_eval ndcg_cut.10) beside fusion speed.
// Needs ../shared/data/scifact and models/build/static-model.bin (skipped with a message otherwise).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Bm25Index, VectorIndex, createStaticEmbedder, fuse } from '../../../web/src/index.js';
import { checkLegs, tuneFusion, weightsAfterLegCheck } from '../../../web/src/eval.js';

function readJsonl(path) {
  return readFileSync(path, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}
function readQrelsTsv(path) {
  const q = {};
  for (const line of readFileSync(path, 'utf8').split('\n').slice(1)) {
    const [qid, doc, rel] = line.trim().split('\t');
    if (!qid) continue;
    (q[qid] ??= {})[doc] = Number(rel);
  }
  return q;
}

/** Runs the measurement; returns rows {name, config, testNdcg10, trainNdcg10}. */
export async function measureScifact({ dataDir, modelPath, depth = 100, log = () => {} }) {
  const docs = readJsonl(join(dataDir, 'corpus.jsonl')).map((d) => ({ id: String(d._id), title: d.title ?? '', text: d.text ?? '' }));
  const queries = new Map(readJsonl(join(dataDir, 'queries.jsonl')).map((q) => [String(q._id), q.text]));
  const train = readQrelsTsv(join(dataDir, 'qrels/train.tsv'));
  const test = readQrelsTsv(join(dataDir, 'qrels/test.tsv'));

  const bm25 = Bm25Index.create();
  bm25.add(docs);
  const embedder = await createStaticEmbedder({ model: pathToFileURL(resolve(modelPath)) });
  const dense = VectorIndex.create({ dimension: embedder.dimension, metric: 'cosine' });
  for (let i = 0; i < docs.length; i += 256) {
    const batch = docs.slice(i, i + 256);
    const vecs = embedder.embedSync(batch.map((d) => `${d.title} ${d.text}`));
    dense.add(batch.map((d, i) => ({ id: d.id, vector: vecs[i] })));
  }
  log(`indexed ${docs.length} docs`);
  const runsFor = (qrels) => Object.keys(qrels).filter((q) => queries.has(q)).map((qid) => {
    const text = queries.get(qid);
    const [qv] = embedder.embedSync([text]);
    return {
      queryId: qid,
      lists: [
        { retriever: 'bm25', hits: bm25.search(text, { k: depth }).map((h) => ({ id: h.id, score: h.score })) },
        { retriever: 'dense', hits: dense.search(qv, { k: depth }).map((h) => ({ id: h.id, score: h.score })) },
      ],
    };
  });
  const trainRuns = runsFor(train);
  const testRuns = runsFor(test);
  log(`retrieved ${trainRuns.length} train and ${testRuns.length} test queries`);

  // The label-free leg check the default hybrid runs (Collection: retrieval.fusion.legCheck).
  const legCheck = await checkLegs([
    { retriever: 'bm25', search: (qs, k) => qs.map((q) => bm25.search(q, { k }).map((h) => h.id)) },
    { retriever: 'dense', search: (qs, k) => embedder.embedSync(qs).map((v) => dense.search(v, { k }).map((h) => h.id)) },
  ], docs.map((d) => ({ id: d.id, text: d.text })));
  log(legCheck.warning ?? `leg check: no weak leg (${JSON.stringify(legCheck.legs)})`);
  const hybridDefault = { mode: 'convex', normalization: 'minmax', weights: weightsAfterLegCheck([0.7, 0.3], ['bm25', 'dense'], legCheck) };
  const evalOn = (runs, qrels, config) => tuneFusion(runs, qrels, { grid: [config] }).bestObjective;
  const tunedAll = tuneFusion(trainRuns, train);
  const bestOf = (pred) => tunedAll.table.reduce((b, r) => (pred(r) && (!b || r.objective > b.objective) ? r : b), null);
  const strip = ({ objective, ...c }) => c;  // eslint-disable-line no-unused-vars
  const settings = [
    ['bm25 alone', { mode: 'rrf', weights: [1, 0] }],
    ['dense alone', { mode: 'rrf', weights: [0, 1] }],
    ['rrf (k=60, equal weights)', { mode: 'rrf' }],
    ['hybrid 0.7/0.3 without the leg check (convex min-max)', { mode: 'hybrid' }],
    [`hybrid default, no labels (leg check: ${legCheck.weak.length ? `${legCheck.weak.join(',')} benched` : 'no weak leg'})`, hybridDefault],
    ['rrf-weighted, tuned on train', strip(bestOf((r) => r.mode === 'rrf' && r.weights[0] > 0 && r.weights[1] > 0))],
    ['convex min-max, tuned on train', strip(bestOf((r) => r.mode === 'convex' && r.normalization === 'minmax'))],
    ['tuneFusion best grid entry (train argmax)', strip(tunedAll.best)],
    [`tuneFusion recommended (safe: ${tunedAll.recommendation})`, tunedAll.recommended],
  ];
  const rows = settings.map(([name, config]) => ({
    name, config, trainNdcg10: evalOn(trainRuns, train, config), testNdcg10: evalOn(testRuns, test, config),
  }));
  const warnings = testRuns.filter((q) => fuse(q.lists).diagnostics.warnings.length > 0).length;
  bm25.dispose();
  dense.dispose();
  embedder.dispose?.();
  return { rows, legCheck, testRuns, warnedTestQueries: warnings, trainQueries: trainRuns.length, testQueries: testRuns.length };
}

export default {
  name: 'fusion',
  description: 'SciFact BM25 + static dense: single legs, RRF, safe hybrid, tuned fusion (train -> test nDCG@10); fuse() speed',
  async run(ctx) {
    const data = ctx.shared('data/scifact/corpus.jsonl');
    const model = resolve('models/build/static-model.bin');
    if (!data || !existsSync(model)) {
      console.log('fusion suite skipped: needs ../shared/data/scifact and models/build/static-model.bin');
      return;
    }
    const r = await measureScifact({ dataDir: data.replace(/corpus\.jsonl$/, ''), modelPath: model, log: (m) => console.log(m) });
    ctx.table(`SciFact nDCG@10 (tuned on ${r.trainQueries} train queries, reported on ${r.testQueries} test queries)`,
      ['setting', 'config', 'train nDCG@10', 'test nDCG@10'],
      r.rows.map((x) => [x.name, JSON.stringify(x.config), x.trainNdcg10.toFixed(4), x.testNdcg10.toFixed(4)]));
    for (const x of r.rows) ctx.record(x.name, { config: x.config, train: x.trainNdcg10, test: x.testNdcg10 });
    ctx.record('testQueriesWithAgreementWarning', r.warnedTestQueries);
    ctx.record('legCheck', r.legCheck);
    const lists = r.testRuns[0].lists;
    const t = await ctx.time(() => fuse(lists, { mode: 'rrf' }), { warmup: 3, reps: ctx.quick ? 5 : 21 });
    ctx.table('fuse() of 2 x 100 hits', ['median ms', 'p95 ms'], [[t.median.toFixed(3), t.p95.toFixed(3)]]);
    ctx.record('fuse2x100', t);
  },
};
