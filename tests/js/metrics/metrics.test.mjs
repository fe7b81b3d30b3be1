// metrics through the WASM API: golden trec_eval differential tests (every golden run, every shared
// measure, every query, |delta| <= 1e-4), the trec_eval CLI line for line, hand-worked examples and
// every error path (followed by a successful call to show nothing was lost).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chunk, init, RagwasmError } from '../../../web/src/index.js';
import { metrics } from '../../../web/src/eval.js';
import { wasm } from '../../../web/src/core/module.js';
import { skipUnlessShared } from '../helpers.mjs';
import { main } from '../../../web/cli/ragwasm.mjs';

await init();

/** trec_eval output -> Map(measure -> Map(qid -> value text)). */
function parseTrecEvalOutput(text) {
  const out = new Map();
  for (const line of text.split('\n')) {
    const parts = line.split('\t');
    if (parts.length !== 3) continue;
    const name = parts[0].trimEnd();
    if (!out.has(name)) out.set(name, new Map());
    out.get(name).set(parts[1], parts[2]);
  }
  return out;
}

/** Compares evaluateRun's numbers with trec_eval's printed ones; returns the count compared. */
function compareWithGolden(result, goldenText, label) {
  const golden = parseTrecEvalOutput(goldenText);
  let compared = 0;
  for (const m of result.measures) {
    const g = golden.get(m);
    if (!g) continue; // ndcg_exp*: not a trec_eval measure
    for (const qid of result.queryIds) {
      assert.ok(g.has(qid), `${label}: trec_eval has no ${m} for query ${qid}`);
      const delta = Math.abs(result.perQuery[qid][m] - Number(g.get(qid)));
      assert.ok(delta <= 1e-4, `${label} ${m} query ${qid}: ours ${result.perQuery[qid][m]} trec_eval ${g.get(qid)}`); // printed %6.4f
      compared++;
    }
    assert.ok(Math.abs(result.aggregate[m] - Number(g.get('all'))) <= 1e-4, `${label} ${m} all: ours ${result.aggregate[m]} trec_eval ${g.get('all')}`);
    assert.equal(g.size, result.queryIds.length + 1, `${label} ${m}: query count`);
    compared++;
  }
  assert.equal(Number(golden.get('num_q').get('all')), result.numQueries);
  return compared;
}

/** Golden lines restricted to the measures we print (runid, num_q and ours), in file order. */
function goldenLinesFor(goldenText, ourText) {
  const names = new Set(ourText.split('\n').filter(Boolean).map((l) => l.split('\t')[0].trimEnd()));
  return goldenText.split('\n').filter((l) => l && names.has(l.split('\t')[0].trimEnd()));
}

function capture() {
  const chunks = { out: '', err: '' };
  return {
    chunks,
    io: { stdout: { write: (s) => { chunks.out += s; } }, stderr: { write: (s) => { chunks.err += s; } } },
  };
}

const DATASETS = [['scifact', 'data/scifact/qrels/test.trec'], ['cisi', 'data/cisi/qrels.trec']];

test('every golden run equals trec_eval on every shared measure and query', (t) => {
  for (const [ds, qrelsRel] of DATASETS) {
    const dir = skipUnlessShared(t, `data/golden/${ds}`);
    const qrelsPath = skipUnlessShared(t, qrelsRel);
    if (!dir || !qrelsPath) return;
    const qrels = metrics.Qrels.parse(readFileSync(qrelsPath, 'utf8'), { name: qrelsRel });
    const runs = readdirSync(dir).filter((f) => f.endsWith('.run')).sort();
    assert.equal(runs.length, 14);
    for (const f of runs) {
      const run = metrics.Run.parse(readFileSync(join(dir, f), 'utf8'), { name: f });
      const r = metrics.evaluateRun(qrels, run, { completeQueries: true }); // golden made with trec_eval -c
      const golden = readFileSync(join(dir, f.replace(/\.run$/, '.trec_eval.txt')), 'utf8');
      assert.ok(compareWithGolden(r, golden, `${ds}/${f}`) > 40 * r.numQueries);
      run.dispose();
    }
    qrels.dispose();
  }
});

test('trec_eval test suite outputs are reproduced for binary and graded qrels', (t) => {
  const dir = skipUnlessShared(t, 'data/golden/trec_eval_suite');
  if (!dir) return;
  const results = readFileSync(join(dir, 'results.test'), 'utf8');
  for (const [q, out] of [['qrels.test', 'out.all_trec.q.txt'], ['qrels.rel_level', 'out.rel_level.all_trec.q.txt']]) {
    const r = metrics.evaluateRun(readFileSync(join(dir, q), 'utf8'), results);
    assert.ok(compareWithGolden(r, readFileSync(join(dir, out), 'utf8'), q) > 100);
  }
});

test('the trec_eval CLI reproduces golden outputs line for line for shared measures', async (t) => {
  const cases = [];
  for (const [ds, qrelsRel] of DATASETS) {
    const dir = skipUnlessShared(t, `data/golden/${ds}`);
    const qrelsPath = skipUnlessShared(t, qrelsRel);
    if (!dir || !qrelsPath) return;
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.run')).sort()) {
      cases.push({ args: ['-q', '-c', qrelsPath, join(dir, f)], golden: join(dir, f.replace(/\.run$/, '.trec_eval.txt')) });
    }
  }
  const suite = skipUnlessShared(t, 'data/golden/trec_eval_suite');
  if (!suite) return;
  cases.push({ args: ['-q', join(suite, 'qrels.test'), join(suite, 'results.test')], golden: join(suite, 'out.all_trec.q.txt') });
  cases.push({ args: ['-q', join(suite, 'qrels.rel_level'), join(suite, 'results.test')], golden: join(suite, 'out.rel_level.all_trec.q.txt') });
  assert.equal(cases.length, 30);
  for (const c of cases) {
    const { chunks, io } = capture();
    assert.equal(await main(['trec_eval', ...c.args], io), 0, chunks.err);
    const ours = chunks.out.split('\n').filter((l) => l && !l.startsWith('ndcg_exp'));
    const expected = goldenLinesFor(readFileSync(c.golden, 'utf8'), chunks.out);
    assert.ok(expected.length > 100);
    assert.deepEqual(ours, expected, c.golden);
  }
});

test('the trec_eval CLI prints only the requested measures and fails on a missing query without -c', async (t) => {
  const dir = skipUnlessShared(t, 'data/golden/scifact');
  const qrels = skipUnlessShared(t, 'data/scifact/qrels/test.trec');
  if (!dir || !qrels) return;
  const a = capture();
  assert.equal(await main(['trec_eval', '-c', '-m', 'ndcg_cut.10', '-m', 'recall.100', '-m', 'recip_rank', '-m', 'map', qrels, join(dir, 'bm25-ref.run')], a.io), 0);
  // README headline numbers for bm25-ref: nDCG@10 0.6757, R@100 0.9287, MRR 0.6468, MAP 0.6377
  assert.equal(a.chunks.out, 'map                   \tall\t0.6377\nrecip_rank            \tall\t0.6468\n'
    + 'recall_100            \tall\t0.9287\nndcg_cut_10           \tall\t0.6757\n');
  const b = capture();
  assert.equal(await main(['trec_eval', qrels, join(dir, 'flexsearch-default.run')], b.io), 1);
  assert.match(b.chunks.err, /NOT_FOUND/);
});

test('hand-worked precision recall and nDCG through the JS API', () => {
  // ranks 1..10: R N R R N R N N R N -> 5 relevant in the top 10, 8 relevant judged
  const rels = [1, 0, 1, 1, 0, 1, 0, 0, 1, 0];
  const judged = [1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0];
  assert.equal(metrics.recallAt(rels, 10, { judged }), 5 / 8);
  assert.equal(metrics.precisionAt(rels, 10), 5 / 10);
  assert.equal(metrics.precisionAt([1, 1, 0, 1, 0, 1, 0, 1, 0, 1], 10), 6 / 10); // 6 relevant in the top 10
  // relevance per rank 3 0 2 1, judged {3,2,1,0}: DCG = 3/log2(2) + 2/log2(4) + 1/log2(5);
  // IDCG = 3/log2(2) + 2/log2(3) + 1/log2(4)
  const dcg = 3 / Math.log2(2) + 2 / Math.log2(4) + 1 / Math.log2(5);
  const idcg = 3 / Math.log2(2) + 2 / Math.log2(3) + 1 / Math.log2(4);
  assert.ok(Math.abs(metrics.ndcgCut([3, 0, 2, 1], 4, { judged: [3, 2, 1, 0] }) - dcg / idcg) < 1e-12);
  // exponential gain: 7 3 1 instead of 3 2 1
  const edcg = 7 / Math.log2(2) + 3 / Math.log2(4) + 1 / Math.log2(5);
  const eidcg = 7 / Math.log2(2) + 3 / Math.log2(3) + 1 / Math.log2(4);
  assert.ok(Math.abs(metrics.ndcgExpCut([3, 0, 2, 1], 4, { judged: [3, 2, 1, 0] }) - edcg / eidcg) < 1e-12);
  // AP of N R N R N with 3 relevant judged = (1/2 + 2/4) / 3
  assert.ok(Math.abs(metrics.averagePrecision([0, 1, 0, 1, 0], { judged: [1, 1, 1, 0] }) - (1 / 2 + 2 / 4) / 3) < 1e-12);
  assert.equal(metrics.reciprocalRank([0, 0, 1]), 1 / 3);
  assert.equal(metrics.successAt([0, 0, 1], 2), 0);
});

test('evaluateRun accepts objects orders ties like trec_eval and averages counts as sums', () => {
  // b and a tie at 1.0: trec_eval puts the larger docno 'b' first, so 'a' (relevant) is at rank 2.
  const r = metrics.evaluateRun({ q1: { a: 1 }, q2: { x: 2, y: 0 } }, { q1: { a: 1.0, b: 1.0 }, q2: { y: 3, x: 2 } },
    { measures: ['recip_rank', 'num_rel', 'ndcg_cut.1'] });
  assert.deepEqual(r.measures, ['num_rel', 'recip_rank', 'ndcg_cut_1']);
  assert.deepEqual(r.queryIds, ['q1', 'q2']);
  assert.equal(r.perQuery.q1.recip_rank, 1 / 2);
  assert.equal(r.perQuery.q2.recip_rank, 1 / 2);
  assert.equal(r.aggregate.num_rel, 2); // summed
  assert.equal(r.aggregate.recip_rank, 1 / 2); // mean
  assert.equal(r.perQuery.q2.ndcg_cut_1, 0);
});

test('graded relevance level and BEIR and JSONL formats', () => {
  const qrels = metrics.Qrels.parse('query-id\tcorpus-id\tscore\r\nq\ta\t1\r\nq\tb\t2\r\n');
  assert.equal(qrels.size, 2);
  const run = metrics.Run.parse('{"qid":"q","hits":[{"docid":"a","score":2},{"docid":"b","score":1}]}\n');
  // level 2: only b (rank 2) is relevant -> P@2 = 1/2, map = (1/2)/1
  const r = metrics.evaluateRun(qrels, run, { measures: ['P.2', 'map'], relevanceLevel: 2 });
  assert.equal(r.aggregate.P_2, 0.5);
  assert.equal(r.aggregate.map, 0.5);
  qrels.dispose();
  run.dispose();
});

function throwsCode(fn, code, pattern) {
  assert.throws(fn, (e) => e instanceof RagwasmError && e.code === code && (!pattern || pattern.test(e.message)), `expected ${code}`);
}

test('bad input raises RagwasmError and the objects stay usable', () => {
  const qrels = metrics.Qrels.parse('q 0 a 1\n');
  const run = metrics.Run.create();
  throwsCode(() => run.addQuery('q', ['a', 'b'], [1, NaN]), 'INVALID_ARGUMENT', /scores\[1\]/);
  throwsCode(() => run.addQuery('q', ['a', 'a'], [1, 2]), 'DUPLICATE_ID', /twice/);
  throwsCode(() => run.addQuery('q', ['a'], [1, 2]), 'INVALID_ARGUMENT');
  assert.equal(run.size, 0); // nothing was added by the failed calls
  run.addQuery('q', ['a'], [1]);
  throwsCode(() => run.addQuery('q', ['b'], [1]), 'DUPLICATE_ID', /already/);
  assert.equal(metrics.evaluateRun(qrels, run, { measures: ['map'] }).aggregate.map, 1);
  throwsCode(() => metrics.precisionAt([1, 0], 0), 'INVALID_ARGUMENT', /k/);
  throwsCode(() => metrics.precisionAt([1, 0], -1), 'INVALID_ARGUMENT');
  throwsCode(() => metrics.precisionAt([1, 0], 1.5), 'INVALID_ARGUMENT');
  throwsCode(() => metrics.recallAt([1, 0], 5), 'INVALID_ARGUMENT', /judged/);
  throwsCode(() => metrics.evaluateRun(qrels, run, { measures: ['P.0'] }), 'INVALID_ARGUMENT', /cutoff/);
  throwsCode(() => metrics.evaluateRun(qrels, run, { measures: ['mapp'] }), 'INVALID_ARGUMENT', /unknown/);
  throwsCode(() => metrics.evaluateRun(qrels, run, { measure: ['map'] }), 'INVALID_ARGUMENT', /unknown option/);
  throwsCode(() => metrics.Run.parse('q Q0 a 1 nan r\n', { name: 'x.run' }), 'INVALID_ARGUMENT', /x\.run:1/);
  throwsCode(() => metrics.Run.parse('q Q0 a 1 1.0 r\nq Q0 a 2 0.5 r\n', { name: 'd.run' }), 'DUPLICATE_ID', /d\.run:2/);
  throwsCode(() => metrics.Qrels.parse('q 0 a 1\nq 0 b\n', { name: 'bad.qrels' }), 'PARSE_ERROR', /bad\.qrels:2/);
  // Empty run: every judged query is missing -> NOT_FOUND as trec_eval 10.0, zeros with completeQueries.
  const empty = metrics.Run.parse('');
  throwsCode(() => metrics.evaluateRun(qrels, empty), 'NOT_FOUND', /completeQueries/);
  const zeros = metrics.evaluateRun(qrels, empty, { completeQueries: true, measures: ['map', 'num_ret'] });
  assert.equal(zeros.aggregate.map, 0);
  assert.equal(zeros.aggregate.num_ret, 0);
  assert.equal(zeros.numQueries, 1);
  throwsCode(() => metrics.cohensKappa([1, 2], [1]), 'INVALID_ARGUMENT', /same length/);
  throwsCode(() => metrics.spearman([1, NaN], [1, 2]), 'INVALID_ARGUMENT');
  throwsCode(() => metrics.summarize([]), 'INVALID_ARGUMENT');
  assert.equal(metrics.cohensKappa([0, 1, 1, 0], [0, 1, 0, 0]), 0.5); // still works after errors
  run.dispose();
  throwsCode(() => run.size, 'DISPOSED');
  qrels.dispose();
});

test('answer metrics by hand', () => {
  // SQuAD normalization removes "an": {he, ate, apple} vs {he, eats, apple} -> F1 2/3; keeping articles 3/4
  assert.ok(Math.abs(metrics.tokenF1('He ate an apple', 'He eats an apple') - 2 / 3) < 1e-12);
  assert.equal(metrics.tokenF1('He ate an apple', 'He eats an apple', { removeArticles: false }), 0.75);
  assert.equal(metrics.exactMatch('The Apple!', ['pear', 'apple']), 1);
  assert.equal(metrics.squadNormalize('  The  Apple! '), 'apple');
  assert.ok(Math.abs(metrics.anls('hello', 'hallo') - 0.8) < 1e-12); // 1 - 1/5
  assert.equal(metrics.anls('abc', 'xyz'), 0); // below 0.5
  assert.ok(Math.abs(metrics.rougeL('the cat sat on the mat', 'the cat on the mat') - 10 / 11) < 1e-12);
  // c = 3, r = 6: BP = exp(1 - 2); p1..p3 = 1, p4 = (0+1)/(1+1)
  assert.ok(Math.abs(metrics.sentenceBleu('the cat sat', 'the cat sat on the mat') - Math.exp(-1) * 0.5 ** 0.25) < 1e-12);
  assert.equal(metrics.sentenceBleu('the cat sat', 'the cat sat on the mat', { smoothing: 'none' }), 0);
  const c = metrics.citationMetrics('Paris [1]. Big [2, 3].\n\nSources:\n[1] doc-a\n[2] doc-b\n', { contextIds: ['c1', 'c2', 'c3'], relevantIds: ['doc-a', 'c3'] });
  assert.deepEqual(c.cited, ['doc-a', 'doc-b', 'c3']);
  assert.ok(Math.abs(c.precision - 2 / 3) < 1e-12);
  assert.equal(c.recall, 1);
  throwsCode(() => metrics.anls('a', []), 'INVALID_ARGUMENT');
  throwsCode(() => metrics.sentenceBleu('a', 'b', { smoothing: 'method7' }), 'INVALID_ARGUMENT');
});

test('evidence evaluation by text and by span with a recommended cutoff', () => {
  const questions = [
    { evidence: [{ text: 'The quick brown fox' }], chunks: [{ text: 'nothing here' }, { text: 'Yes, the QUICK brown fox!' }, { text: 'quick brown fox again' }] },
    { evidence: [{ docId: 'd', start: 10, end: 20 }], chunks: [{ docId: 'd', start: 0, end: 15 }, { docId: 'e', start: 10, end: 20 }] },
  ];
  const r = metrics.evaluateEvidence(questions, { cutoffs: [1, 2], maxK: 3 });
  // q1: first match at rank 2 (rank 3 also matches: "the" missing, 4/19 edits -> below 0.8? see below)
  assert.equal(r.perQuestion[0].rr, 1 / 2);
  assert.equal(r.perQuestion[1].rr, 1); // span [0,15) overlaps [10,20)
  assert.equal(r.recall[1], (0 + 1) / 2);
  assert.equal(r.recall[2], (1 + 1) / 2);
  assert.equal(r.precision[2], (1 / 2 + 1 / 2) / 2);
  assert.deepEqual(r.curve, [0.5, 1, 1]);
  assert.equal(metrics.recommendCutoff(r.curve, { minGain: 0.01 }), 2);
  assert.equal(metrics.evidenceContainment('quick brown fox', 'a quick brwn fox'), 1 - 1 / 15);
  throwsCode(() => metrics.evaluateEvidence(questions, { cutoffs: [0] }), 'INVALID_ARGUMENT');
  throwsCode(() => metrics.evaluateEvidence([{ evidence: [{}], chunks: [] }]), 'INVALID_ARGUMENT');
});

test('judge agreement and system comparison', () => {
  // quadratic kappa of 0 1 2 vs 0 2 2 = 1 - (1/12)/(5/12)
  assert.ok(Math.abs(metrics.cohensKappa([0, 1, 2], [0, 2, 2], { weights: 'quadratic' }) - 0.8) < 1e-12);
  const b = metrics.binaryScores([3, 2, 1, 0, 2], [2, 0, 3, 1, 3], { threshold: 2 });
  assert.deepEqual([b.tp, b.fp, b.fn, b.tn], [2, 1, 1, 1]);
  assert.equal(metrics.withinAccuracy([0, 1, 3, 0], [0, 2, 1, 3]), 0.5);
  assert.deepEqual(metrics.confusionMatrix([0, 1], [1, 1]), { labels: [0, 1], matrix: [[0, 1], [0, 1]] });
  assert.ok(Math.abs(metrics.spearman([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]) - 8 / Math.sqrt(95)) < 1e-12);
  assert.ok(Math.abs(metrics.kendallTau([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]) - 7 / Math.sqrt(90)) < 1e-12);
  const a = Array(10).fill(1);
  const z = Array(10).fill(0);
  const p1 = metrics.randomizationTest(a, z, { trials: 5000, seed: 3 });
  assert.ok(p1.pValue < 0.01 && p1.pValue > 0);
  assert.deepEqual(metrics.randomizationTest(a, z, { trials: 5000, seed: 3 }), p1); // deterministic
  const ci = metrics.bootstrapCI([0.5, 0.7], [0, 0.2], { samples: 500 });
  assert.ok(Math.abs(ci.low - 0.5) < 1e-12); // every difference is 0.5 (up to 0.7 - 0.2 rounding)
  assert.ok(Math.abs(ci.high - 0.5) < 1e-12);
  assert.deepEqual(metrics.winTieLoss([1, 0, 0.5], [0, 0, 0.7]), { wins: 1, ties: 1, losses: 1 });
  const s = metrics.summarize([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
  assert.equal(s.p50, 5.5);
  assert.ok(Math.abs(s.p90 - 9.1) < 1e-12);
  assert.ok(Math.abs(s.p95 - 9.55) < 1e-12);
});

test('SQuAD answer sentences are found by span and text with two real chunkers', async (t) => {
  const path = skipUnlessShared(t, 'data/squad-v1.1/dev-v1.1.json');
  if (!path) return;
  const wasmHasChunk = Object.keys(wasm()).some((k) => k.startsWith('chunk_'));
  if (!wasmHasChunk) {
    t.skip('needs a WASM build with the chunk module bound (RAGWASM_WASM_ONLY without chunk)');
    return;
  }
  const squad = JSON.parse(readFileSync(path, 'utf8'));
  const n = process.env.RAGWASM_BUILD === 'debug' ? 60 : 200;
  const questions = { recursive: [], sentence: [] };
  const textQuestions = [];
  let count = 0;
  outer: for (const article of squad.data) {
    for (const para of article.paragraphs) {
      const ctx = para.context;
      const chunkings = {
        recursive: chunk({ id: 'p', text: ctx }, { strategy: 'recursive', chunkSize: 400, chunkOverlap: 200 }),
        sentence: chunk({ id: 'p', text: ctx }, { strategy: 'sentence', chunkSize: 1 }),
      };
      for (const qa of para.qas) {
        const a = qa.answers[0];
        // evidence = the sentence chunk (sentence strategy, one sentence per chunk) holding the answer start
        const sent = chunkings.sentence.find((c) => a.answer_start >= c.start && a.answer_start < c.end);
        assert.ok(sent, `question ${qa.id}: no sentence holds the answer start`);
        const evidence = [{ text: sent.text, docId: 'p', start: sent.start, end: sent.end }];
        for (const [name, chunks] of Object.entries(chunkings)) {
          questions[name].push({ evidence, chunks: chunks.map((c) => ({ text: c.text, docId: 'p', start: c.start, end: c.end })) });
        }
        // text-only matching on the recursive chunks, for questions where some chunk's span contains
        // the whole evidence sentence: the exact substring must then be found (containment 1)
        if (chunkings.recursive.some((c) => c.start <= sent.start && sent.end <= c.end)) {
          textQuestions.push({ evidence: [{ text: sent.text }], chunks: chunkings.recursive.map((c) => ({ text: c.text })) });
        }
        if (++count >= n) break outer;
      }
    }
  }
  for (const [name, qs] of Object.entries(questions)) {
    const r = metrics.evaluateEvidence(qs, { cutoffs: [1000], maxK: 5 });
    assert.equal(r.recall[1000], 1, `${name}: every evidence span overlaps some chunk`);
    assert.ok(r.curve[0] > 0 && r.curve[0] <= r.curve[4], `${name}: recall curve rises with k`);
  }
  const rt = metrics.evaluateEvidence(textQuestions, { cutoffs: [1000] });
  assert.ok(textQuestions.length > n / 3);
  assert.equal(rt.recall[1000], 1, 'text matching finds every evidence sentence contained in a chunk');
});

test('compareRuns pairs per-query scores of two golden runs', (t) => {
  const dir = skipUnlessShared(t, 'data/golden/scifact');
  const qrelsPath = skipUnlessShared(t, 'data/scifact/qrels/test.trec');
  if (!dir || !qrelsPath) return;
  const qrels = metrics.Qrels.parse(readFileSync(qrelsPath, 'utf8'));
  const a = metrics.Run.parse(readFileSync(join(dir, 'bm25-ref.run'), 'utf8'));
  const b = metrics.Run.parse(readFileSync(join(dir, 'orama-default.run'), 'utf8'));
  const c = metrics.compareRuns(qrels, a, b, { measure: 'ndcg_cut.10', trials: 2000, samples: 1000 });
  // README headline numbers: bm25-ref 0.6757, orama-default 0.1662 nDCG@10 on SciFact
  assert.equal(c.measure, 'ndcg_cut_10');
  assert.ok(Math.abs(c.meanA - 0.6757) <= 1e-4 && Math.abs(c.meanB - 0.1662) <= 1e-4);
  assert.equal(c.a.length, 300);
  assert.equal(c.winTieLoss.wins + c.winTieLoss.ties + c.winTieLoss.losses, 300);
  assert.ok(c.randomization.pValue < 0.001); // 2000 trials: p = 1/2001 when no permutation is as extreme
  assert.ok(c.bootstrap.low > 0.4 && c.bootstrap.high < 0.6 && c.bootstrap.low < c.meanA - c.meanB && c.meanA - c.meanB < c.bootstrap.high);
  assert.throws(() => metrics.compareRuns(qrels, a, b, { measure: 'P' }), (e) => e.code === 'INVALID_ARGUMENT');
  for (const h of [qrels, a, b]) h.dispose();
});
