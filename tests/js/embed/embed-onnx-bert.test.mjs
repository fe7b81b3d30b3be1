// Proof of correctness of the ONNX embedder: a BERT-architecture model with seeded random weights
// (models/make-bert-fixture.py: 2 layers, hidden 32, the real 30,522 vocab) run by our embedder
// (WASM tokenizer + pooling, onnxruntime-web) and by transformers.js's feature-extraction pipeline
// (onnxruntime-node, offline) must agree within 1e-5 per dimension on >= 1,000 real SciFact sentences.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { init, RagwasmError, Tokenizer } from '../../../web/src/index.js';
import { createOnnxEmbedder } from '../../../web/src/onnx.js';
import { build, repoRoot, skipUnlessShared } from '../helpers.mjs';
import { loadTransformers, readScifact, pythonOnnx } from '../embed-fixtures.mjs';

await init();

const PY = '/usr/bin/python3';
const TOLERANCE = 1e-5;  // per dimension, absolute, on unit vectors (float32 kernels differ: ORT web vs node)
let fixtureDir = null;

function fixture(t) {
  const tok = skipUnlessShared(t, 'models/bert-base-uncased/tokenizer.json');
  if (!tok) return null;
  if (!pythonOnnx()) {
    t.skip('needs Debian python3-onnx and python3-numpy for /usr/bin/python3 (apt-get install python3-onnx)');
    return null;
  }
  if (fixtureDir === null) {
    fixtureDir = mkdtempSync(join(tmpdir(), 'ragwasm-bert-'));
    execFileSync(PY, [join(repoRoot, 'models/make-bert-fixture.py'), fixtureDir, tok, '--name', 'tiny-bert', '--seed', '1234']);
  }
  return { dir: fixtureDir, tok, model: pathToFileURL(join(fixtureDir, 'tiny-bert/onnx/model.onnx')) };
}

test.after(() => {
  if (fixtureDir) rmSync(fixtureDir, { recursive: true, force: true });
});

function sentences(t, n) {
  const corpus = skipUnlessShared(t, 'data/scifact/corpus.jsonl');
  if (!corpus) return null;
  const { docs, queries } = readScifact(corpus.replace(/corpus\.jsonl$/, ''));
  // Claims (queries) are single sentences; titles too. Queries first, then titles.
  return [...queries.map((q) => q.text), ...docs.map((d) => d.title)].filter((s) => s.trim().length > 0).slice(0, n);
}

async function compare(t, pooling, count) {
  const f = fixture(t);
  if (!f) return;
  const texts = sentences(t, count);
  if (!texts) return;
  const tf = await loadTransformers(f.dir);
  const extractor = await tf.pipeline('feature-extraction', 'tiny-bert', { dtype: 'fp32', device: 'cpu' });
  const ours = await createOnnxEmbedder({ model: f.model, tokenizer: { tokenizerJson: readFileSync(f.tok) }, pooling, normalize: true, batchSize: 64 });
  const mine = await ours.embed(texts);
  let maxDiff = 0;
  let worst = -1;
  for (let i = 0; i < texts.length; i += 64) {
    const batch = texts.slice(i, i + 64);
    const ref = await extractor(batch, { pooling, normalize: true });
    assert.deepEqual(ref.dims, [batch.length, 32]);
    for (let r = 0; r < batch.length; r++) {
      for (let d = 0; d < 32; d++) {
        const diff = Math.abs(mine[i + r][d] - ref.data[r * 32 + d]);
        if (diff > maxDiff) { maxDiff = diff; worst = i + r; }
      }
    }
  }
  t.diagnostic(`${pooling}: ${texts.length} sentences, max |ours - transformers.js| = ${maxDiff.toExponential(3)} (text ${worst})`);
  assert.equal(mine.length, texts.length);
  assert.equal(ours.dimension, 32);
  assert.ok(maxDiff <= TOLERANCE, `max difference ${maxDiff} > ${TOLERANCE} at text ${worst}: ${JSON.stringify(texts[worst])}`);
  await ours.dispose();
  await extractor.dispose();
}

test('mean pooling matches transformers.js within 1e-5 on 1200 SciFact sentences', async (t) => {
  await compare(t, 'mean', build === 'debug' ? 1000 : 1200);
});

test('cls pooling matches transformers.js within 1e-5 on 300 SciFact sentences', async (t) => {
  await compare(t, 'cls', 300);
});

test('prefixes progress and abort work and errors leave the embedder usable', async (t) => {
  const f = fixture(t);
  if (!f) return;
  const tokenizer = Tokenizer.fromTokenizerJson(readFileSync(f.tok));
  const e = await createOnnxEmbedder({ model: f.model, tokenizer, batchSize: 2, queryPrefix: 'query: ', documentPrefix: 'passage: ' });
  const progress = [];
  const docs = await e.embedDocuments(['a b', 'c', 'd e f'], { onProgress: (p) => progress.push(p.done) });
  assert.deepEqual(progress, [2, 3]);
  // The document prefix is applied: equal to embedding the prefixed text with empty prefixes.
  const plain = await createOnnxEmbedder({ model: f.model, tokenizer });
  const [same] = await plain.embed(['passage: a b']);
  assert.deepEqual(Array.from(docs[0]), Array.from(same));
  const [q] = await e.embedQueries(['a b']);
  assert.notDeepEqual(Array.from(q), Array.from(docs[0]));
  // Empty batch, non-string, aborted signal: RagwasmError; the embedder still works afterwards.
  await assert.rejects(e.embed([]), (err) => err instanceof RagwasmError && err.code === 'INVALID_ARGUMENT');
  await assert.rejects(e.embed(['ok', 3]), (err) => err instanceof RagwasmError && err.code === 'INVALID_ARGUMENT' && /texts\[1\]/.test(err.message));
  const ac = new AbortController();
  ac.abort();
  await assert.rejects(e.embed(['x'], { signal: ac.signal }), (err) => err.code === 'ABORTED');
  const again = await e.embed(['a b']);
  assert.equal(again[0].length, 32);
  await e.dispose();
  await plain.dispose();
  await assert.rejects(e.embed(['x']), (err) => err.code === 'DISPOSED');
  tokenizer.dispose();
});

test('length-bucketed batching gives the input-order vectors within 1e-6 in input order', async (t) => {
  const f = fixture(t);
  if (!f) return;
  const corpus = skipUnlessShared(t, 'data/scifact/corpus.jsonl');
  if (!corpus) return;
  // 300 abstracts' first sentences and titles, interleaved so that lengths vary along the input.
  const { docs } = readScifact(corpus.replace(/corpus\.jsonl$/, ''));
  const texts = docs.slice(0, 150).flatMap((d) => [d.title, d.text.slice(0, 40 + (d.text.length % 400))]);
  const tokenizer = Tokenizer.fromTokenizerJson(readFileSync(f.tok));
  const opts = { model: f.model, tokenizer, batchSize: 16, maxLength: 128 };
  const bucketed = await createOnnxEmbedder({ ...opts, batching: 'length' });
  const plain = await createOnnxEmbedder({ ...opts, batching: 'input' });
  const progress = [];
  const a = await bucketed.embed(texts, { onProgress: (p) => progress.push(p.done) });
  const b = await plain.embed(texts);
  assert.equal(a.length, texts.length);
  assert.deepEqual(progress, Array.from({ length: Math.ceil(texts.length / 16) }, (_, i) => Math.min(texts.length, 16 * (i + 1))));
  let maxDiff = 0;
  let neighbourMin = Infinity;  // how far apart two different texts' vectors are: a misplaced row would show
  for (let i = 0; i < texts.length; i++) {
    let d = 0;
    let n = 0;
    for (let k = 0; k < 32; k++) {
      d = Math.max(d, Math.abs(a[i][k] - b[i][k]));
      n = Math.max(n, Math.abs(a[i][k] - b[(i + 1) % texts.length][k]));
    }
    maxDiff = Math.max(maxDiff, d);
    if (texts[i] !== texts[(i + 1) % texts.length]) neighbourMin = Math.min(neighbourMin, n);
  }
  t.diagnostic(`${texts.length} texts, max |length - input batching| = ${maxDiff.toExponential(3)}; nearest neighbouring texts differ by ${neighbourMin.toExponential(3)}`);
  assert.ok(maxDiff <= 1e-6, `max difference ${maxDiff} > 1e-6 (tolerance: float32 kernels over a different padded width)`);
  assert.ok(neighbourMin > 1e-3, 'neighbouring texts must give distinguishable vectors for the order check to mean anything');
  await assert.rejects(createOnnxEmbedder({ ...opts, batching: 'sorted' }), (e) => e instanceof RagwasmError && e.code === 'INVALID_ARGUMENT' && /batching/.test(e.message));
  await bucketed.dispose();
  await plain.dispose();
  tokenizer.dispose();
});

test('token-budget batching gives the input-order vectors within 1e-6 and keeps each run within its budget', async (t) => {
  const f = fixture(t);
  if (!f) return;
  const corpus = skipUnlessShared(t, 'data/scifact/corpus.jsonl');
  if (!corpus) return;
  const { docs } = readScifact(corpus.replace(/corpus\.jsonl$/, ''));
  const texts = docs.slice(0, 60).flatMap((d) => [d.title, d.text.slice(0, 40 + (d.text.length % 400))]);
  const tokenizer = Tokenizer.fromTokenizerJson(readFileSync(f.tok));
  const opts = { model: f.model, tokenizer, maxLength: 128 };
  const budget = 600;
  const budgeted = await createOnnxEmbedder({ ...opts, batchSize: 64, batchTokens: budget });
  const plain = await createOnnxEmbedder({ ...opts, batchSize: 16, batching: 'input' });
  const progress = [];
  const a = await budgeted.embed(texts, { onProgress: (p) => progress.push(p.done) });
  const b = await plain.embed(texts);
  // Each run's rows x longest text (tokens, sorted ascending) within the budget unless the run is one text.
  const lengths = tokenizer.encodeBatch(texts, { padding: 'none', maxLength: 128 }).lengths;
  const sorted = Array.from(lengths).sort((x, y) => x - y);
  let prev = 0;
  for (const done of progress) {
    const rows = done - prev;
    assert.ok(rows >= 1 && rows <= 64, `run of ${rows} texts (cap 64)`);
    if (rows > 1) assert.ok(rows * sorted[done - 1] <= budget, `run of ${rows} texts padded to ${sorted[done - 1]} tokens exceeds ${budget}`);
    prev = done;
  }
  assert.equal(prev, texts.length);
  assert.ok(progress.length > Math.ceil(texts.length / 64), 'the budget, not the row cap, must cut some runs for this check to mean anything');
  let maxDiff = 0;
  for (let i = 0; i < texts.length; i++) for (let k = 0; k < 32; k++) maxDiff = Math.max(maxDiff, Math.abs(a[i][k] - b[i][k]));
  t.diagnostic(`${texts.length} texts in ${progress.length} runs, max |budget - input batching| = ${maxDiff.toExponential(3)}`);
  assert.ok(maxDiff <= 1e-6, `max difference ${maxDiff} > 1e-6 (tolerance: float32 kernels over a different padded width)`);
  await assert.rejects(createOnnxEmbedder({ ...opts, batchTokens: -1 }), (e) => e instanceof RagwasmError && e.code === 'INVALID_ARGUMENT' && /batchTokens/.test(e.message));
  await assert.rejects(createOnnxEmbedder({ ...opts, batchTokens: 100, batching: 'input' }), (e) => e instanceof RagwasmError && e.code === 'INVALID_ARGUMENT' && /batchTokens/.test(e.message));
  await budgeted.dispose();
  await plain.dispose();
  tokenizer.dispose();
});

test('bad options and mismatching models are rejected with RagwasmError', async (t) => {
  const f = fixture(t);
  if (!f) return;
  const tokenizerJson = readFileSync(f.tok);
  const base = { model: f.model, tokenizer: { tokenizerJson } };
  await assert.rejects(createOnnxEmbedder({ ...base, pooling: 'max' }), (e) => e.code === 'INVALID_ARGUMENT' && /pooling/.test(e.message));
  await assert.rejects(createOnnxEmbedder({ ...base, maxLength: 1 }), (e) => e.code === 'INVALID_ARGUMENT' && /maxLength/.test(e.message));
  await assert.rejects(createOnnxEmbedder({ ...base, batchSize: 0 }), (e) => e.code === 'INVALID_ARGUMENT');
  await assert.rejects(createOnnxEmbedder({ ...base, colour: 1 }), (e) => e.code === 'INVALID_ARGUMENT' && /unknown option 'colour'/.test(e.message));
  await assert.rejects(createOnnxEmbedder({ model: f.model, tokenizer: 'bert' }), (e) => e.code === 'INVALID_ARGUMENT' && /tokenizer/.test(e.message));
  await assert.rejects(createOnnxEmbedder({ ...base, outputName: 'pooler_output' }), (e) => e.code === 'INVALID_ARGUMENT' && /pooler_output/.test(e.message));
  await assert.rejects(createOnnxEmbedder({ ...base, model: new Uint8Array([1, 2, 3]) }), (e) => e instanceof RagwasmError && e.code === 'INTERNAL');
  await assert.rejects(createOnnxEmbedder({ ...base, model: pathToFileURL(join(f.dir, 'bad-inputs.onnx')) }),
    (e) => e.code === 'INVALID_ARGUMENT' && /input_ids/.test(e.message));
  // The output shape is checked at creation: the probe run that measures the dimension (docs/api.md).
  await assert.rejects(createOnnxEmbedder({ ...base, model: pathToFileURL(join(f.dir, 'bad-outputs.onnx')) }),
    (e) => e.code === 'INVALID_ARGUMENT' && /expected a float32 tensor/.test(e.message));
});
