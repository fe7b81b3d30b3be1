// fuse / tuneFusion / mmr / expandNeighbours / aggregateToDocuments / rerank through the WASM build.
import test from 'node:test';
import assert from 'node:assert/strict';
import { init, fuse, mmr, expandNeighbours, aggregateToDocuments, rerank, retrieveAndRerank, RagwasmError } from '../../../web/src/index.js';
import { tuneFusion, defaultFusionGrid } from '../../../web/src/eval.js';

await init();

// bm25: a=3 b=2 c=1; dense: c=0.9 a=0.5 d=0.1
const legs = () => [
  { retriever: 'bm25', hits: [{ id: 'b', score: 2 }, { id: 'a', score: 3 }, { id: 'c', score: 1 }] },
  { retriever: 'dense', hits: [{ id: 'a', score: 0.5 }, { id: 'd', score: 0.1 }, { id: 'c', score: 0.9 }] },
];
const close = (a, b, tol = 1e-12) => assert.ok(Math.abs(a - b) <= tol, `${a} vs ${b}`);
const rejects = (fn, code, re) => assert.throws(fn, (e) => e instanceof RagwasmError && e.code === code && (!re || re.test(e.message)));

test('RRF sums weight over k plus rank', () => {
  const r = fuse(legs(), { mode: 'rrf' });
  assert.deepEqual(r.hits.map((h) => h.id), ['a', 'c', 'b', 'd']);
  close(r.hits[0].score, 1 / 61 + 1 / 62);
  close(r.hits[1].score, 1 / 63 + 1 / 61);
  const w = fuse(legs(), { mode: 'rrf', weights: [1, 2], rrfK: 0 });
  close(w.hits.find((h) => h.id === 'a').score, 1 / 1 + 2 / 2);
  assert.equal(r.options.rrfK, 60);
});

test('the default mode is the safe hybrid with explanations', () => {
  const r = fuse(legs());
  assert.equal(r.options.mode, 'convex');
  assert.deepEqual(r.options.weights, [0.7, 0.3]);
  assert.deepEqual(r.hits.map((h) => h.id), ['a', 'b', 'c', 'd']);
  const a = r.hits[0];
  close(a.score, 0.7 * 1 + 0.3 * 0.5);
  assert.deepEqual(a.contributions.map((c) => [c.retriever, c.present, c.rank, c.raw]), [['bm25', true, 1, 3], ['dense', true, 2, 0.5]]);
  close(a.contributions[1].normalized, 0.5);
  close(a.contributions[1].contribution, 0.15);
  const b = r.hits[1];
  assert.equal(b.contributions[1].present, false);
  assert.equal(b.presentIn, 1);
});

test('CombMNZ and z-score follow the documented formulas', () => {
  const m = fuse(legs(), { mode: 'combmnz' });
  close(m.hits.find((h) => h.id === 'a').score, (1 + 0.5) * 2);
  const z = 1 / Math.sqrt(2 / 3);
  const zs = fuse(legs(), { mode: 'convex', normalization: 'zscore' });
  close(zs.hits.find((h) => h.id === 'd').score, -z, 1e-12);
});

test('diagnostics warn when the legs share few top hits', () => {
  const r = fuse([
    { retriever: 'bm25', hits: [{ id: 'a', score: 2 }, { id: 'b', score: 1 }] },
    { retriever: 'dense', hits: [{ id: 'x', score: 0.9 }, { id: 'y', score: 0.8 }] },
  ]);
  assert.equal(r.diagnostics.pairs[0].overlap, 0);
  assert.equal(r.diagnostics.warnings.length, 1);
  assert.match(r.diagnostics.warnings[0], /"bm25" and "dense" share only 0 of their top 2/);
  assert.equal(fuse(legs(), { minOverlap: 0.5 }).diagnostics.warnings.length, 0);  // they share a and c of 3
});

test('bad fusion input throws RagwasmError naming the parameter and later calls still work', () => {
  rejects(() => fuse(legs(), { weights: [1, -1] }), 'INVALID_ARGUMENT', /options\.weights\[1\]/);
  rejects(() => fuse(legs(), { weights: [1, NaN] }), 'INVALID_ARGUMENT', /got NaN/);
  rejects(() => fuse(legs(), { weights: [1] }), 'INVALID_ARGUMENT', /2 weights/);
  rejects(() => fuse(legs(), { mdoe: 'rrf' }), 'INVALID_ARGUMENT', /unknown option 'mdoe'/);
  rejects(() => fuse([]), 'INVALID_ARGUMENT', /lists/);
  rejects(() => fuse('x'), 'INVALID_ARGUMENT');
  rejects(() => fuse([{ retriever: 'a', hits: [{ id: 'x', score: Infinity }] }]), 'INVALID_ARGUMENT', /lists\[0\]\.hits\[0\]\.score/);
  rejects(() => fuse([{ retriever: 'a', hits: [{ id: 'x', score: 1 }, { id: 'x', score: 2 }] }]), 'DUPLICATE_ID', /lists\[0\]\.hits\[1\]\.id/);
  rejects(() => fuse([{ retriever: 'a', hits: [{ id: '\uD800', score: 1 }] }]), 'INVALID_UTF8');
  rejects(() => fuse([{ retriever: 'a', hits: [] }, { retriever: 'a', hits: [] }]), 'INVALID_ARGUMENT', /unique name/);
  assert.equal(fuse(legs(), { mode: 'rrf', rrfK: 60, k: 2 }).hits.length, 2);
});

test('ids with non-ASCII characters survive the round trip', () => {
  const r = fuse([{ retriever: 'bm25', hits: [{ id: 'café 😀', score: 1 }, { id: 'Ω', score: 2 }] }], { mode: 'rrf' });
  assert.deepEqual(r.hits.map((h) => h.id), ['Ω', 'café 😀']);
});

test('tuneFusion picks a setting at least as good as the better leg', () => {
  const runs = [0, 1, 2].map((q) => ({
    queryId: `q${q}`,
    lists: [
      { retriever: 'good', hits: [{ id: `rel${q}`, score: 1 }, { id: 'n1', score: 0.5 }, { id: 'n2', score: 0.4 }] },
      { retriever: 'bad', hits: [{ id: 'n3', score: 0.9 }, { id: 'n4', score: 0.8 }, { id: `rel${q}`, score: 0.1 }] },
    ],
  }));
  const qrels = { q0: { rel0: 1 }, q1: { rel1: 1 }, q2: { rel2: 1 } };
  const t = tuneFusion(runs, qrels);
  assert.equal(t.bestObjective, 1);
  assert.ok(t.bestObjective >= Math.max(...t.singleLeg));
  close(t.singleLeg[1], 1 / Math.log2(4));
  assert.equal(t.table.length, defaultFusionGrid(2).length);
  assert.equal(t.metric, 'ndcg_cut_10');
  assert.deepEqual(t.recommended, t.best);  // best is the good leg alone
  assert.equal(t.recommendation, 'best grid entry');
  // The chosen setting plugs straight back into fuse().
  assert.equal(fuse(runs[0].lists, t.best).hits[0].id, 'rel0');
  // A caller metric: share of queries whose top hit is n3 -> the "bad" leg alone wins.
  const c = tuneFusion(runs, qrels, { metric: (ids, fused) => fused.filter((f) => f[0]?.id === 'n3').length / ids.length });
  assert.equal(c.bestIndex, 1);
  assert.equal(c.bestObjective, 1);
  assert.equal(c.metric, 'custom');
  assert.deepEqual(c.recommended, c.best);
  // A fused setting must beat the best leg by minGain under a caller metric.
  const ndcgLike = (ids, fused) => fused.filter((f, i) => f[0]?.id === `rel${i}` || f[0]?.id === 'n1').length / ids.length;
  const m = tuneFusion(runs, qrels, { metric: ndcgLike, grid: [{ mode: 'rrf' }], minGain: 0.5 });
  assert.equal(m.recommendation.startsWith('single leg 0'), true);
  assert.deepEqual(m.recommended.weights, [1, 0]);
  const g = tuneFusion(runs, qrels, { grid: [{ mode: 'rrf' }, { mode: 'convex', weights: [0.9, 0.1] }] });
  assert.equal(g.table.length, 2);
  rejects(() => tuneFusion(runs, qrels, { grid: [{ mode: 'rrf', weights: [1, -1] }] }), 'INVALID_ARGUMENT', /grid\[0\]\.weights\[1\]/);
  rejects(() => tuneFusion(runs, { q9: { x: 1 } }), 'INVALID_ARGUMENT', /no query of labelledRuns has a relevant document/);
  rejects(() => tuneFusion(runs, qrels, { metric: () => NaN }), 'INVALID_ARGUMENT', /finite number/);
});

test('MMR diversifies with vectors a matrix or a callback', () => {
  const cands = [{ id: 'a', score: 1 }, { id: 'b', score: 0.9 }, { id: 'c', score: 0.5 }];
  const v = mmr(cands, { lambda: 0.5, k: 3, vectors: [[1, 0], [1, 0.01], [0, 1]] });
  assert.deepEqual(v.map((h) => h.id), ['a', 'c', 'b']);
  const sim = [[1, 0.95, 0.1], [0.95, 1, 0.2], [0.1, 0.2, 1]];
  const m = mmr(cands, { lambda: 0.5, k: 3, similarity: sim });
  assert.deepEqual(m.map((h) => h.id), ['a', 'c', 'b']);
  close(m[1].mmr, -0.05);
  const idx = { a: 0, b: 1, c: 2 };
  const f = mmr(cands, { k: 2, similarityFn: (x, y) => sim[idx[x.id]][idx[y.id]] });
  assert.deepEqual(f.map((h) => h.id), ['a', 'c']);
  assert.deepEqual(mmr(cands, { lambda: 1, similarity: sim }).map((h) => h.id), ['a', 'b', 'c']);
  rejects(() => mmr(cands, { lambda: 2, similarity: sim }), 'INVALID_ARGUMENT', /lambda/);
  rejects(() => mmr(cands, { vectors: [[1], [1, 2], [3]] }), 'DIMENSION_MISMATCH');
  rejects(() => mmr(cands, {}), 'INVALID_ARGUMENT', /exactly one/);
  rejects(() => mmr(cands, { flatVectors: new Float32Array(5), dim: 2 }), 'DIMENSION_MISMATCH');
});

test('#28 mmr with a flat Float32Array as vectors is INVALID_ARGUMENT naming flatVectors, and the module still works', () => {
  // Before: toVectors returned the array itself, the binding got no dim and the WASM module aborted.
  const cands = [{ id: 'a', score: 1 }, { id: 'b', score: 0.5 }];
  rejects(() => mmr(cands, { vectors: new Float32Array([1, 0, 0, 1]) }), 'INVALID_ARGUMENT', /flatVectors/);
  assert.deepEqual(mmr(cands, { flatVectors: new Float32Array([1, 0, 0, 1]), dim: 2 }).map((h) => h.id), ['a', 'b']);
});

test('neighbour expansion merges adjacent chunks of a document', () => {
  const chunks = [];
  for (let i = 0; i < 6; i++) chunks.push({ id: `D${i}`, docId: 'D', ordinal: i, start: 100 * i, end: 100 * i + 100 });
  for (let i = 0; i < 3; i++) chunks.push({ id: `E${i}`, docId: 'E', ordinal: i });
  const p = expandNeighbours([{ id: 'D2', score: 0.9 }, { id: 'D4', score: 0.5 }, { id: 'E0', score: 0.7 }], chunks);
  assert.equal(p.length, 2);
  assert.deepEqual(p[0].chunkIds, ['D1', 'D2', 'D3', 'D4', 'D5']);
  assert.equal(p[0].start, 100);
  assert.equal(p[0].end, 600);
  assert.deepEqual(p[1].chunkIds, ['E0', 'E1']);
  assert.equal(p[1].start, undefined);
  rejects(() => expandNeighbours([{ id: 'Z', score: 1 }], chunks), 'NOT_FOUND');
});

test('chunk hits aggregate to documents', () => {
  const hits = [{ id: 'c1', docId: 'd1', score: 0.9 }, { id: 'c2', docId: 'd1', score: 0.8 }, { id: 'c3', docId: 'd2', score: 0.85 }, { id: 'c4', docId: 'd1', score: 0.1 }];
  assert.deepEqual(aggregateToDocuments(hits).map((d) => [d.docId, d.score, d.chunks, d.bestChunk]), [['d1', 0.9, 3, 'c1'], ['d2', 0.85, 1, 'c3']]);
  close(aggregateToDocuments(hits, { method: 'sum' })[0].score, 0.9 + 0.8 + 0.1);
  const t = aggregateToDocuments(hits, { method: 'topm', m: 2 });
  close(t.find((d) => d.docId === 'd1').score, (0.9 + 0.8) / 2);
  rejects(() => aggregateToDocuments(hits, { method: 'mean' }), 'INVALID_ARGUMENT', /options\.method/);
});

// Deterministic reranker: score = number of query words in the text.
const wordOverlap = async (query, items) => items.map((it) => query.split(' ').filter((w) => it.text.includes(w)).length);

test('rerank keeps K of N by the reranker score with stable ties', async () => {
  const items = [
    { id: 'x', text: 'nothing here' }, { id: 'y', text: 'red apple' }, { id: 'z', text: 'red' }, { id: 'w', text: 'red apple pie' },
  ];
  const r = await rerank('red apple pie', items, wordOverlap, { candidates: 3, keep: 2 });
  assert.deepEqual(r.map((h) => [h.id, h.rerankScore, h.retrievalRank]), [['y', 2, 2], ['z', 1, 3]]);  // w is beyond N = 3
  const all = await rerank('red', items, wordOverlap, { keep: 4 });
  assert.deepEqual(all.map((h) => h.id), ['y', 'z', 'w', 'x']);  // y, z, w tie at 1: retrieval order
  await assert.rejects(rerank('q', items, async () => [1, 2]), (e) => e.code === 'INVALID_ARGUMENT' && /4 scores/.test(e.message));
  await assert.rejects(rerank('q', items, async (q, it) => it.map(() => NaN)), (e) => e.code === 'INVALID_ARGUMENT');
});

test('retrieveAndRerank retrieves N reranks and keeps K in one call', async () => {
  const corpus = ['red apple pie', 'green apple', 'red car', 'blue sky', 'apple pie recipe'];
  let asked = 0;
  const retrieve = async (query, n) => { asked = n; return corpus.map((text, i) => ({ id: `d${i}`, text })).slice(0, n); };
  const r = await retrieveAndRerank('apple pie', retrieve, wordOverlap, { candidates: 5, keep: 2 });
  assert.equal(asked, 5);
  assert.deepEqual(r.map((h) => h.id), ['d0', 'd4']);
  await assert.rejects(retrieveAndRerank('  ', retrieve, wordOverlap), (e) => e.code === 'INVALID_ARGUMENT' && /query/.test(e.message));
  await assert.rejects(retrieveAndRerank('a', retrieve, wordOverlap, { candidates: 2, keep: 3 }), (e) => e.code === 'INVALID_ARGUMENT');
  const ac = new AbortController();
  ac.abort();
  await assert.rejects(retrieveAndRerank('a', retrieve, wordOverlap, { signal: ac.signal }), (e) => e.code === 'ABORTED');
});
