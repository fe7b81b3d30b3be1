// Proof of correctness of the cross-encoder reranker: a BertForSequenceClassification model (1 logit)
// with seeded random weights (models/make-bert-fixture.py --head classifier: 2 layers, hidden 32, the
// real 30,522 vocab) scored by createCrossEncoderReranker (WASM pair tokenizer, onnxruntime-web) and by
// transformers.js (AutoTokenizer with text_pair + AutoModelForSequenceClassification, onnxruntime-node,
// local files only) must agree within 1e-5 on >= 1,000 real SciFact (query, passage) pairs. Then the
// reranker drives retrieveAndRerank and Collection.search({reranker}) on a SciFact subset.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { init, retrieveAndRerank, rerank, Collection, RagwasmError, Tokenizer } from '../../../web/src/index.js';
import { createCrossEncoderReranker, CrossEncoderReranker } from '../../../web/src/onnx.js';
import { build, skipUnlessShared } from '../helpers.mjs';
import { loadTransformers, readScifact } from '../embed-fixtures.mjs';
import { crossEncoderFixture } from '../ce-fixture.mjs';
import { longestFirstRows } from '../pair-fixtures.mjs';

await init();

const TOLERANCE = 1e-5;  // absolute, on logits of magnitude ~1 (float32 kernels differ: ORT web vs node)
const BATCH = 16;

const fixture = crossEncoderFixture;

let data = null;
function scifact(t) {
  const corpus = skipUnlessShared(t, 'data/scifact/corpus.jsonl');
  if (!corpus) return null;
  data ??= readScifact(corpus.replace(/corpus\.jsonl$/, ''));
  return data;
}

/** (query, title + abstract) pairs: each query with deterministic documents (stride 7919, a prime). */
function pairs(d, perQuery) {
  const out = [];
  d.queries.forEach((q, i) => {
    for (let j = 0; j < perQuery; j++) {
      const doc = d.docs[((i * perQuery + j) * 7919) % d.docs.length];
      out.push([q.text, `${doc.title} ${doc.text}`]);
    }
  });
  return out;
}

let reference = null;
async function transformersJs(f) {
  if (reference) return reference;
  const tf = await loadTransformers(f.dir);
  const tokenizer = await tf.AutoTokenizer.from_pretrained('tiny-ce');
  const model = await tf.AutoModelForSequenceClassification.from_pretrained('tiny-ce', { dtype: 'fp32', device: 'cpu' });
  reference = { tf, tokenizer, model };
  return reference;
}

test.after(async () => {
  if (reference) await reference.model.dispose();
});

const sigmoid = (x) => 1 / (1 + Math.exp(-x));

test('scores match transformers.js within 1e-5 on 1200 SciFact pairs (1000 in the debug build) that fit in 512 tokens', async (t) => {
  const f = fixture(t);
  const d = f && scifact(t);
  if (!d) return;
  const ref = await transformersJs(f);
  // Pairs transformers.js does not truncate (its pair truncation differs from longest_first; see
  // tests/js/embed/embed-pair-parity.test.mjs), grouped per query like a reranking call.
  const want = build === 'debug' ? 1000 : 1200;
  const all = pairs(d, 4).filter(([q, p]) => ref.tokenizer(q, { text_pair: p, return_tensor: false }).input_ids.length <= 512).slice(0, want);
  const ours = await createCrossEncoderReranker({ model: f.model, tokenizer: { tokenizerJson: readFileSync(f.tok) }, batchSize: BATCH });
  const sig = await createCrossEncoderReranker({ model: f.model, tokenizer: { tokenizerJson: readFileSync(f.tok) }, batchSize: BATCH, activation: 'sigmoid' });
  // Ours: one score() call per query (its passages in one batch), as a reranker is called.
  const mine = [];
  const sigMine = [];
  for (let i = 0; i < all.length;) {
    let j = i;
    while (j < all.length && all[j][0] === all[i][0]) j++;
    mine.push(...await ours.score(all[i][0], all.slice(i, j).map((x) => x[1])));
    sigMine.push(...await sig.score(all[i][0], all.slice(i, j).map((x) => x[1])));
    i = j;
  }
  let maxDiff = 0;
  let maxSigDiff = 0;
  let worst = -1;
  let spread = [Infinity, -Infinity];
  for (let i = 0; i < all.length; i += BATCH) {
    const batch = all.slice(i, i + BATCH);
    const inputs = ref.tokenizer(batch.map((x) => x[0]), { text_pair: batch.map((x) => x[1]), padding: true, truncation: true });
    const { logits } = await ref.model(inputs);
    assert.deepEqual(logits.dims, [batch.length, 1]);
    for (let r = 0; r < batch.length; r++) {
      const diff = Math.abs(mine[i + r] - logits.data[r]);
      if (diff > maxDiff) { maxDiff = diff; worst = i + r; }
      maxSigDiff = Math.max(maxSigDiff, Math.abs(sigMine[i + r] - sigmoid(logits.data[r])));
      spread = [Math.min(spread[0], logits.data[r]), Math.max(spread[1], logits.data[r])];
    }
  }
  t.diagnostic(`${all.length} pairs: max |ours - transformers.js| = ${maxDiff.toExponential(3)} (pair ${worst}); sigmoid: ${maxSigDiff.toExponential(3)}; logits in [${spread[0].toFixed(3)}, ${spread[1].toFixed(3)}]`);
  assert.equal(all.length, want);
  assert.ok(spread[1] - spread[0] > 0.25, 'the fixture gives distinguishable scores (random weights: a narrow but nonzero spread)');
  assert.ok(maxDiff <= TOLERANCE, `max difference ${maxDiff} > ${TOLERANCE} at pair ${worst}`);
  assert.ok(maxSigDiff <= TOLERANCE, `sigmoid: max difference ${maxSigDiff} > ${TOLERANCE}`);
  await ours.dispose();
  await sig.dispose();
});

test('batched scoring of one query equals the transformers.js model on longest_first inputs at maxLength 128', async (t) => {
  const f = fixture(t);
  const d = f && scifact(t);
  if (!d) return;
  const ref = await transformersJs(f);
  const tokenizer = Tokenizer.fromTokenizerJson(readFileSync(f.tok));
  const ours = await createCrossEncoderReranker({ model: f.model, tokenizer, maxLength: 128, batchSize: 7 });
  // 40 queries x 10 passages, nearly all longer than 128 tokens: score() batches 7 pairs per run.
  const all = pairs(d, 10).slice(0, 400);
  let maxDiff = 0;
  let truncated = 0;
  for (let i = 0; i < all.length; i += 10) {
    const group = all.slice(i, i + 10);
    const mine = await ours.score(group[0][0], group.map((x) => x[1]));
    // Reference inputs: transformers.js's own pair tokens, cut longest_first (what Python serves).
    const full = ref.tokenizer(group.map((x) => x[0]), { text_pair: group.map((x) => x[1]), return_tensor: false });
    const { rows, types, truncated: cut } = longestFirstRows(full.input_ids, 128);
    truncated += cut;
    const cols = Math.max(...rows.map((r) => r.length));
    const pad = (v) => [...v, ...new Array(cols - v.length).fill(0)];
    const tensor = (m) => new ref.tf.Tensor('int64', BigInt64Array.from(m.flat().map(BigInt)), [rows.length, cols]);
    const { logits } = await ref.model({
      input_ids: tensor(rows.map(pad)), token_type_ids: tensor(types.map(pad)), attention_mask: tensor(rows.map((r) => pad(r.map(() => 1)))),
    });
    group.forEach((_, r) => { maxDiff = Math.max(maxDiff, Math.abs(mine[r] - logits.data[r])); });
  }
  t.diagnostic(`${all.length} pairs (${truncated} truncated): max |ours - transformers.js model| = ${maxDiff.toExponential(3)}`);
  assert.ok(truncated >= 390, `only ${truncated} pairs were truncated`);
  assert.ok(maxDiff <= TOLERANCE, `max difference ${maxDiff} > ${TOLERANCE}`);
  await ours.dispose();
  assert.equal(tokenizer.disposed, false, 'a Tokenizer passed in stays owned by the caller');
  tokenizer.dispose();
});

test('retrieveAndRerank and Collection.search order SciFact hits by the cross-encoder score', async (t) => {
  const f = fixture(t);
  const d = f && scifact(t);
  if (!d) return;
  const ce = await createCrossEncoderReranker({ model: f.model, tokenizer: { tokenizerJson: readFileSync(f.tok) }, maxLength: 256 });
  assert.ok(ce instanceof CrossEncoderReranker);
  const col = await Collection.create({ indexes: { bm25: {} }, rerank: { type: 'cross-encoder', candidates: 20, keep: 10 } });
  await col.add(d.docs.slice(0, 300).map((doc) => ({ id: doc.id, text: `${doc.title} ${doc.text}` })));
  const queries = d.queries.slice(0, 12).map((q) => q.text);
  let checked = 0;
  for (const q of queries) {
    const retrieve = (query, n) => col.search(query, { k: n });
    const candidates = await retrieve(q, 20);
    if (candidates.length < 2) continue;
    const expected = await ce.score(q, candidates.map((h) => h.text));
    const out = await retrieveAndRerank(q, retrieve, ce.reranker, { candidates: 20, keep: 10 });
    assert.equal(out.length, Math.min(10, candidates.length));
    // Order = reranker score desc, ties by retrieval rank; every score is the cross-encoder's.
    const order = candidates.map((h, i) => ({ id: h.id, s: expected[i], rank: i + 1 }))
      .sort((a, b) => (b.s - a.s) || (a.rank - b.rank)).slice(0, out.length);
    assert.deepEqual(out.map((h) => [h.id, h.rerankScore, h.retrievalRank]), order.map((o) => [o.id, o.s, o.rank]));
    // The same through the pipeline hook (config rerank: candidates 20, keep 10).
    const viaCollection = await col.search(q, { k: 10, reranker: ce.reranker });
    assert.deepEqual(viaCollection.map((h) => h.id), out.map((h) => h.id));
    // Plain {id, text} objects through rerank() give the same top 3.
    const direct = await rerank(q, candidates.map((h) => ({ id: h.id, text: h.text })), ce.reranker, { keep: 3 });
    assert.deepEqual(direct.map((h) => h.id), out.slice(0, 3).map((h) => h.id));
    checked++;
  }
  assert.deepEqual(await ce.reranker('q', ['a b', { text: 'a b' }]), await ce.score('q', ['a b', 'a b']));
  // Ties (the same passage twice gets the same score) keep retrieval order.
  const [p1, p2] = [d.docs[0].text, d.docs[1].text];
  const tied = await rerank(d.queries[0].text, [{ id: 'x', text: p1 }, { id: 'y', text: p2 }, { id: 'z', text: p1 }, { id: 'w', text: p2 }], ce.reranker);
  assert.equal(tied[0].rerankScore, tied[1].rerankScore);
  assert.deepEqual(tied.map((h) => h.id), tied[0].id === 'x' ? ['x', 'z', 'y', 'w'] : ['y', 'w', 'x', 'z']);
  t.diagnostic(`${checked} queries reranked (20 BM25 candidates each, keep 10)`);
  assert.ok(checked >= 10, `only ${checked} queries had candidates`);
  col.dispose();
  await ce.dispose();
});

test('progress abort and argument errors are RagwasmErrors and leave the reranker usable', async (t) => {
  const f = fixture(t);
  if (!f) return;
  const ce = await createCrossEncoderReranker({ model: f.model, tokenizer: { tokenizerJson: readFileSync(f.tok) }, batchSize: 2 });
  const progress = [];
  const s = await ce.score('q', ['a', 'b c', 'd'], { onProgress: (p) => progress.push([p.done, p.total]) });
  assert.deepEqual(progress, [[2, 3], [3, 3]]);
  assert.equal(s.length, 3);
  const ac = new AbortController();
  ac.abort();
  await assert.rejects(ce.score('q', ['a'], { signal: ac.signal }), (e) => e instanceof RagwasmError && e.code === 'ABORTED');
  // Aborting between batches stops before the next run.
  const later = new AbortController();
  await assert.rejects(ce.score('q', ['a', 'b', 'c', 'd'], { signal: later.signal, onProgress: () => later.abort() }), (e) => e.code === 'ABORTED');
  await assert.rejects(retrieveAndRerank('q', () => [{ text: 'a' }], ce.reranker, { signal: ac.signal }), (e) => e.code === 'ABORTED');
  const bad = (code, re) => (e) => e instanceof RagwasmError && e.code === code && re.test(e.message);
  await assert.rejects(ce.score('q', []), bad('INVALID_ARGUMENT', /passages/));
  await assert.rejects(ce.score('q', ['a', 2]), bad('INVALID_ARGUMENT', /passages\[1\]/));
  await assert.rejects(ce.score(5, ['a']), bad('INVALID_ARGUMENT', /query/));
  await assert.rejects(ce.score('q', ['a'], { colour: 1 }), bad('INVALID_ARGUMENT', /unknown option 'colour'/));
  await assert.rejects(ce.reranker('q', [{ id: 'x' }]), bad('INVALID_ARGUMENT', /items\[0\]/));
  await assert.rejects(ce.reranker('q', 'a'), bad('INVALID_ARGUMENT', /items/));
  assert.deepEqual(await ce.score('q', ['a', 'b c', 'd']), s, 'still usable and deterministic after errors');
  await ce.dispose();
  await assert.rejects(ce.score('q', ['a']), bad('DISPOSED', /disposed/));
});

test('bad options and models without a one-logit output are rejected with RagwasmError', async (t) => {
  const f = fixture(t);
  if (!f) return;
  const tokenizerJson = readFileSync(f.tok);
  const base = { model: f.model, tokenizer: { tokenizerJson } };
  const bad = (code, re) => (e) => e instanceof RagwasmError && e.code === code && re.test(e.message);
  await assert.rejects(createCrossEncoderReranker({ ...base, activation: 'softmax' }), bad('INVALID_ARGUMENT', /activation/));
  await assert.rejects(createCrossEncoderReranker({ ...base, maxLength: 2 }), bad('INVALID_ARGUMENT', /maxLength/));
  await assert.rejects(createCrossEncoderReranker({ ...base, batchSize: 0 }), bad('INVALID_ARGUMENT', /batchSize/));
  await assert.rejects(createCrossEncoderReranker({ ...base, pooling: 'cls' }), bad('INVALID_ARGUMENT', /unknown option 'pooling'/));
  await assert.rejects(createCrossEncoderReranker({ model: f.model, tokenizer: 'bert' }), bad('INVALID_ARGUMENT', /tokenizer/));
  await assert.rejects(createCrossEncoderReranker({ tokenizer: { tokenizerJson } }), bad('INVALID_ARGUMENT', /model/));
  await assert.rejects(createCrossEncoderReranker({ ...base, model: new Uint8Array([1, 2, 3]) }), bad('INTERNAL', /could not load/));
  await assert.rejects(createCrossEncoderReranker({ ...base, model: pathToFileURL(join(f.dir, 'missing.onnx')) }), bad('NOT_FOUND', /missing\.onnx/));
  // No 'logits' output (a feature extractor): the error names what is missing and what the model has.
  await assert.rejects(createCrossEncoderReranker({ ...base, model: pathToFileURL(join(f.dir, 'bad-outputs.onnx')) }),
    bad('INVALID_ARGUMENT', /'logits' output.*\[last_hidden_state\]/));
  await assert.rejects(createCrossEncoderReranker({ ...base, model: pathToFileURL(join(f.dir, 'bad-inputs.onnx')) }), bad('INVALID_ARGUMENT', /input_ids/));
  await assert.rejects(createCrossEncoderReranker({ ...base, model: pathToFileURL(join(f.dir, 'two-logits.onnx')) }),
    bad('INVALID_ARGUMENT', /output 'logits' has shape \[batch, 2\], expected \[batch, 1\]/));
  // 'logits' of shape [batch, tokens]: detected on the first run, naming the output and the shape.
  const wide = await createCrossEncoderReranker({ ...base, model: pathToFileURL(join(f.dir, 'bad-logits.onnx')) });
  await assert.rejects(wide.score('q', ['a b c']), bad('INVALID_ARGUMENT', /'logits': expected a float32 tensor \[1, 1\].*\[1, 7\]/));
  await wide.dispose();
});
