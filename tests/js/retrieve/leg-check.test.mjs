// Leg check (web/src/retrieve/leg-check.js): the label-free test the default hybrid runs before fusing, so a
// much weaker retriever cannot pull the fused ranking below the better one (issue: "safe by default").
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { init, RagwasmError, createStaticEmbedder } from '../../../web/src/index.js';
import { checkLegs, pickProbes, weightsAfterLegCheck, LEG_CHECK_DEFAULTS } from '../../../web/src/eval.js';
import { Collection } from '../../../web/src/index.js';
import { runPipelineEval } from '../../../web/cli/commands/eval.mjs';
import { hashedBagOfWords, repoRoot, skipUnlessShared } from '../helpers.mjs';

await init();

// 40 passages of distinct made-up sentences (seeded), long enough to give probes.
function passages(n = 40) {
  const vocab = 'amber basalt cedar delta ember fjord garnet harbor indigo juniper kelp lagoon marble nectar onyx prairie quartz ridge sierra tundra umber valley willow xenon yarrow zephyr'.split(' ');
  let s = 7;
  const next = () => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return s; };
  const sentence = () => {
    const s = Array.from({ length: 8 + (next() % 6) }, () => vocab[next() % vocab.length]).join(' ');
    return s[0].toUpperCase() + s.slice(1) + '.';
  };
  return Array.from({ length: n }, (_, i) => ({ id: `p${String(i).padStart(3, '0')}`, text: [sentence(), sentence(), sentence()].join(' ') }));
}

// A leg that finds a passage by exact substring (perfect), and one that returns a fixed wrong list.
const perfectLeg = (ps) => ({ retriever: 'exact', search: (qs, k) => qs.map((q) => ps.filter((p) => p.text.includes(q)).map((p) => p.id).slice(0, k)) });
const blindLeg = (ps) => ({ retriever: 'blind', search: (qs, k) => qs.map(() => ps.slice(-k).map((p) => p.id).reverse()) });

test('pickProbes takes the middle sentence of evenly spaced passages in id order', () => {
  const ps = passages(40);
  const probes = pickProbes([...ps].reverse(), { sample: 10 });
  assert.equal(probes.length, 10);
  assert.deepEqual(probes.map((p) => p.id), ['p000', 'p004', 'p008', 'p012', 'p016', 'p020', 'p024', 'p028', 'p032', 'p036']);
  for (const p of probes) {
    const src = ps.find((x) => x.id === p.id).text;
    assert.ok(src.includes(p.query), `${p.query} is a sentence of ${p.id}`);
    assert.equal(p.query, src.split('. ')[1] + '.', 'the middle of three sentences');
  }
  assert.deepEqual(pickProbes([{ id: 'a', text: 'Too short.' }]), [], 'fewer than 6 words: no probe');
  const run = Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ');  // one 100-word "sentence"
  assert.deepEqual(pickProbes([{ id: 'b', text: run }]), [{ id: 'b', query: Array.from({ length: 12 }, (_, i) => `w${44 + i}`).join(' ') }],
    'no sentence of 6..60 words: the middle 12 words');
  assert.deepEqual(pickProbes([{ id: 'c', text: 'Alpha beta gamma delta epsilon zeta eta theta iota kappa.' }]), [],
    'a 10-word passage has no 6-word probe that is at most half of it (every leg would find it)');
  assert.deepEqual(pickProbes([{ id: 'd', text: 'Alpha beta gamma delta epsilon zeta eta. Theta iota kappa lambda mu nu xi.' }]),
    [{ id: 'd', query: 'Theta iota kappa lambda mu nu xi.' }], 'two 7-word sentences of a 14-word passage: the middle one');
});

test('a leg far below the best is reported weak and benched', async () => {
  const ps = passages(40);
  const r = await checkLegs([perfectLeg(ps), blindLeg(ps)], ps);
  assert.equal(r.probes, 40);
  assert.equal(r.decided, true);
  assert.equal(r.legs[0].mrr, 1);
  assert.ok(r.legs[1].mrr < 0.2, `blind leg MRR ${r.legs[1].mrr}`);
  assert.deepEqual(r.weak, ['blind']);
  assert.match(r.warning, /blind looks much weaker than exact .*benched/);
  assert.deepEqual(weightsAfterLegCheck([0.7, 0.3], ['exact', 'blind'], r), [0.7, 0]);
  assert.deepEqual(weightsAfterLegCheck([0.7, 0.3], ['blind', 'exact'], r), [0, 0.3]);
});

test('two equally good legs are both kept', async () => {
  const ps = passages(40);
  const r = await checkLegs([perfectLeg(ps), { ...perfectLeg(ps), retriever: 'exact2' }], ps);
  assert.deepEqual(r.weak, []);
  assert.equal(r.warning, null);
  assert.deepEqual(weightsAfterLegCheck([0.7, 0.3], ['exact', 'exact2'], r), [0.7, 0.3]);
});

test('too few probes decide nothing', async () => {
  const ps = passages(LEG_CHECK_DEFAULTS.minProbes - 1);
  const r = await checkLegs([perfectLeg(ps), blindLeg(ps)], ps);
  assert.equal(r.decided, false);
  assert.deepEqual(r.weak, []);
  assert.equal(r.warning, null);
});

test('bad legs and options are RagwasmErrors naming the argument', async () => {
  const ps = passages(30);
  const fails = async (fn, re) => {
    await assert.rejects(fn, (e) => e instanceof RagwasmError && e.code === 'INVALID_ARGUMENT' && re.test(e.message));
  };
  await fails(() => checkLegs([perfectLeg(ps)], ps), /legs: expected at least two retrievers/);
  await fails(() => checkLegs([perfectLeg(ps), perfectLeg(ps)], ps), /legs\[1\]\.retriever: expected a name not used/);
  await fails(() => checkLegs([perfectLeg(ps), { retriever: 'x', search: 3 }], ps), /legs\[1\]\.search: expected a function/);
  await fails(() => checkLegs([perfectLeg(ps), { retriever: 'x', search: () => [] }], ps), /legs \(x\)\.search result: expected an array of 30 ranked id lists/);
  await fails(() => checkLegs([perfectLeg(ps), blindLeg(ps)], ps, { ratio: NaN }), /options\.ratio: expected a finite number/);
  await fails(() => checkLegs([perfectLeg(ps), blindLeg(ps)], ps, { bogus: 1 }), /bogus/);
  const ac = new AbortController();
  ac.abort();
  await assert.rejects(() => checkLegs([perfectLeg(ps), blindLeg(ps)], ps, { signal: ac.signal }), (e) => e.code === 'ABORTED');
});

// The first 1,500 SciFact documents (title + text), the offline static model, whole-document chunks.
async function scifactSubset(corpus) {
  const docs = readFileSync(corpus, 'utf8').split('\n').filter(Boolean).slice(0, 1500).map((l) => JSON.parse(l))
    .map((d) => ({ id: String(d._id), text: `${d.title} ${d.text}` }));
  const embedder = await createStaticEmbedder({ model: pathToFileURL(join(repoRoot, 'models/build/static-model.bin')) });
  return { docs, embedder, whole: { strategy: 'recursive', chunkSize: 100000000, chunkOverlap: 0 } };
}

test('the default hybrid collection benches the static model on SciFact and keeps BM25 order', async (t) => {
  const corpus = skipUnlessShared(t, 'data/scifact/corpus.jsonl');
  if (!corpus) return;
  const { docs, embedder, whole } = await scifactSubset(corpus);
  const hybrid = await Collection.create({ chunker: whole }, { embedder });
  const bm25 = await Collection.create({ chunker: whole, indexes: { bm25: {} } });
  const unchecked = await Collection.create({ chunker: whole, retrieval: { fusion: { legCheck: false } } }, { embedder });
  try {
    for (const c of [hybrid, bm25, unchecked]) await c.add(docs);
    const report = await hybrid.checkLegs();
    assert.equal(report.probes, 200);
    assert.deepEqual(report.weak, ['dense'], JSON.stringify(report.legs));
    const mrr = Object.fromEntries(report.legs.map((l) => [l.retriever, l.mrr]));
    assert.ok(mrr.bm25 > 0.9 && mrr.dense < 0.8 * mrr.bm25, JSON.stringify(mrr));
    let differs = 0;
    for (const q of ['effect of vitamin D on bone density', 'gene expression in cancer cells', 'antibiotic resistance in bacteria']) {
      const h = await hybrid.search(q, { k: 100, explain: true });
      const b = await bm25.search(q, { k: 100 });
      assert.equal(b.length, 100);
      assert.deepEqual(h.map((x) => x.id), b.map((x) => x.id), `${q}: benched dense leg -> BM25 order, tail included`);
      assert.deepEqual(h.diagnostics.legCheck.weak, ['dense']);
      assert.match(h.diagnostics.warnings[0], /dense looks much weaker than bm25/);
      const u = await unchecked.search(q, { k: 10, explain: true });
      assert.equal(u.diagnostics.legCheck, undefined, 'legCheck: false runs no check');
      if (u.map((x) => x.id).join() !== b.map((x) => x.id).join()) differs++;
    }
    assert.ok(differs > 0, 'without the check the dense leg does reorder the hits');
  } finally {
    for (const c of [hybrid, bm25, unchecked]) c.dispose();
    embedder.dispose?.();
  }
});

test('default hybrid is not below BM25 on SciFact test (nDCG@10, no labels)', async (t) => {
  const dataset = skipUnlessShared(t, 'data/scifact/corpus.jsonl');
  if (!dataset) return;
  const embedder = await createStaticEmbedder({ model: pathToFileURL(join(repoRoot, 'models/build/static-model.bin')) });
  try {
    const dir = dataset.replace(/corpus\.jsonl$/, '');
    const common = { dataset: dir, chunker: 'none', measures: ['ndcg_cut.10'] };
    const b = await runPipelineEval({ ...common, config: { indexes: { bm25: {} } } });
    const h = await runPipelineEval({ ...common, config: {}, embedder });
    t.diagnostic(`SciFact test nDCG@10: bm25 ${b.measures.ndcg_cut_10}, default hybrid ${h.measures.ndcg_cut_10}`);
    assert.ok(h.measures.ndcg_cut_10 >= b.measures.ndcg_cut_10, `hybrid ${h.measures.ndcg_cut_10} >= bm25 ${b.measures.ndcg_cut_10}`);
  } finally {
    embedder.dispose?.();
  }
});

// A collection whose dense leg is a 4-dim hashed bag of words: far weaker than BM25 at self-retrieval.
async function weakDenseCollection(embedCalls = { n: 0 }, delay = 0) {
  const embed = async (texts) => {
    embedCalls.n++;
    if (delay) await new Promise((r) => setTimeout(r, delay));
    return hashedBagOfWords(texts, { dims: 4 });
  };
  return Collection.create({}, { embedder: embed, dimension: 4 });
}

test('the check re-runs after any add or remove and then matches a fresh collection', async () => {
  const ps = passages(60);
  const a = await weakDenseCollection();
  const b = await weakDenseCollection();
  try {
    await a.add(ps.slice(0, 40));
    await a.search('amber basalt cedar');
    const first = a.legReport;
    assert.equal(first.probes, 40);
    await a.remove(['p000']);
    await a.add(ps.slice(40));
    await a.search('amber basalt cedar');
    assert.notEqual(a.legReport, first, 'a change invalidates the cached check');
    await b.add([...ps.slice(1, 40), ...ps.slice(40)]);
    await b.search('amber basalt cedar');
    assert.deepEqual(a.legReport, b.legReport, 'same chunks, same decision, whatever the history');
    const again = a.legReport;
    await a.search('delta ember');
    assert.equal(a.legReport, again, 'no change: the check is reused');
  } finally {
    a.dispose();
    b.dispose();
  }
});

test('concurrent first searches share one check and explain returns a copy', async () => {
  const calls = { n: 0 };
  const col = await weakDenseCollection(calls);
  try {
    await col.add(passages(40));
    calls.n = 0;
    const [x, y] = await Promise.all([col.search('amber basalt', { explain: true }), col.search('cedar delta', { explain: true })]);
    assert.equal(calls.n, 3, 'two query embeddings + one batch of probe embeddings');
    assert.deepEqual(x.diagnostics.legCheck.weak, ['dense']);
    x.diagnostics.legCheck.weak.push('bm25');
    assert.deepEqual(col.legReport.weak, ['dense'], 'the cached report is not the one handed out');
    assert.deepEqual(y.diagnostics.legCheck.weak, ['dense']);
  } finally {
    col.dispose();
  }
});

test('a benched leg\'s own hits follow in its ranking, and explicit weights turn the check off', async (t) => {
  const corpus = skipUnlessShared(t, 'data/scifact/corpus.jsonl');
  if (!corpus) return;
  const { docs, embedder, whole } = await scifactSubset(corpus);
  const hybrid = await Collection.create({ chunker: whole }, { embedder });
  const dense = await Collection.create({ chunker: whole, indexes: { dense: {} } }, { embedder });
  const weighted = await Collection.create({ chunker: whole, retrieval: { fusion: { weights: [0.7, 0.3] } } }, { embedder });
  try {
    for (const c of [hybrid, dense, weighted]) await c.add(docs);
    const q = 'zebrafish heart regeneration';  // few BM25 hits: the tail comes from the benched dense leg
    const h = await hybrid.search(q, { k: 100, explain: true });
    const lexical = h.filter((x) => x.contributions.some((c) => c.retriever === 'bm25'));
    const tail = h.slice(lexical.length);
    assert.ok(lexical.length > 0 && lexical.length < 100 && tail.length > 0, `bm25 hits ${lexical.length}`);
    const denseOrder = (await dense.search(q, { k: 100 })).map((x) => x.id).filter((id) => tail.some((x) => x.id === id));
    assert.deepEqual(tail.map((x) => x.id), denseOrder.slice(0, tail.length), 'dense-only hits in dense rank order');
    assert.ok(tail.every((x) => x.score === 0 && x.contributions[0].retriever === 'dense'));
    const w = await weighted.search(q, { k: 10, explain: true });
    assert.equal(w.diagnostics.legCheck, undefined, 'explicit weights: no leg check');
  } finally {
    for (const c of [hybrid, dense, weighted]) c.dispose();
    embedder.dispose?.();
  }
});

test('a chunk removed while a search awaits the embedder is left out, not a TypeError', async () => {
  const col = await weakDenseCollection({ n: 0 }, 20);
  try {
    const ps = passages(40);
    await col.add(ps);
    const pending = col.search(ps[5].text.split('.')[0], { k: 40 });
    col.remove(['p005']);
    const hits = await pending;
    assert.ok(hits.length > 0);
    assert.ok(!hits.some((x) => x.docId === 'p005'));
  } finally {
    col.dispose();
  }
});
