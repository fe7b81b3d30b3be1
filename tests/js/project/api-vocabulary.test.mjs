// One API a developer can guess (issue #14, docs/api.md): the same names and policies on every index
// (toBytes/fromBytes, save/load by name, add/upsert/remove with one summary and one unknown-id policy,
// `exact`, `k` as a result count; the names before 0.1.0 are refused, issue #28),
// and one embedder contract whose `kind` reaches the model from autotune, semantic chunking and the leg check.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import {
  init, Bm25Index, VectorIndex, StaticEmbedder, Collection, RagwasmError, Tokenizer, fuse, aggregateToDocuments,
  chunkAsync, asEmbedder, embedTexts, ask, saveBytes
} from '../../../web/src/index.js';
import { metrics, autotune, checkLegs, vectorLeg } from '../../../web/src/eval.js';
import { createOnnxEmbedder } from '../../../web/src/onnx.js';
import { repoRoot, skipUnlessShared } from '../helpers.mjs';
import { pythonOnnx } from '../embed-fixtures.mjs';

await init();

const EMPTY = { added: 0, updated: 0, removed: 0, skipped: 0 };
const summary = (o) => ({ ...EMPTY, ...o });

function isCode(code) {
  return (e) => e instanceof RagwasmError && e.code === code;
}

// The two index kinds behind one adapter: `item(id, n)` is one entry of the kind's add() shape.
const KINDS = {
  bm25: {
    create: () => Bm25Index.create(),
    item: (id, n) => ({ id, text: `word${n} shared` }),
    bad: (id) => ({ id, text: 42 }),
    fromBytes: (b) => Bm25Index.fromBytes(b),
    load: (name, o) => Bm25Index.load(name, o),
    probe: (ix) => ix.search('shared', { k: 10, exact: true }),
  },
  vectors: {
    create: () => VectorIndex.create({ dimension: 3 }),
    item: (id, n) => ({ id, vector: [1, n, 0.5] }),
    bad: (id) => ({ id, vector: [1, NaN, 0.5] }),
    fromBytes: (b) => VectorIndex.fromBytes(b),
    load: (name, o) => VectorIndex.load(name, o),
    probe: (ix) => ix.search([1, 1, 0.5], { k: 10, exact: true }),
  },
};

for (const [kind, K] of Object.entries(KINDS)) {
  test(`${kind}: toBytes and fromBytes round trip and save and load round trip by name`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ragwasm-vocab-'));
    const ix = K.create();
    try {
      ix.add([K.item('a', 1), K.item('b', 2), K.item('c', 3)]);
      const bytes = ix.toBytes();
      assert.ok(bytes instanceof Uint8Array);
      const back = K.fromBytes(bytes);
      assert.deepEqual(K.probe(back), K.probe(ix));
      assert.deepEqual(back.toBytes(), bytes);
      back.dispose();
      const saving = ix.save('idx', { dir });
      assert.ok(saving instanceof Promise, 'save(name) is named storage (a promise)');
      await saving;
      const named = await K.load('idx', { dir });
      assert.deepEqual(K.probe(named), K.probe(ix));
      named.dispose();
      await assert.rejects(K.load('missing', { dir }), isCode('NOT_FOUND'));
      await assert.rejects(ix.save('.bad', { dir }), isCode('INVALID_ARGUMENT'));
    } finally {
      ix.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test(`${kind}: add upsert and remove follow the one policy and return the one summary`, () => {
    const ix = K.create();
    try {
      assert.deepEqual(ix.add([K.item('a', 1), K.item('b', 2)]), summary({ added: 2 }));
      assert.deepEqual(ix.add([]), summary({}), 'an empty batch is a no-op');
      // add refuses an indexed id, all or nothing: 'c' is not added either
      assert.throws(() => ix.add([K.item('c', 3), K.item('a', 4)]), isCode('DUPLICATE_ID'));
      assert.equal(ix.has('c'), false);
      assert.throws(() => ix.add([K.item('d', 3), K.item('d', 4)]), isCode('DUPLICATE_ID'));
      assert.equal(ix.has('d'), false);
      // a malformed item after good ones: nothing of the batch is written
      assert.throws(() => ix.add([K.item('d', 3), K.bad('e')]), isCode('INVALID_ARGUMENT'));
      assert.throws(() => ix.upsert([K.item('a', 9), K.bad('e')]), isCode('INVALID_ARGUMENT'));
      assert.equal(ix.has('d'), false);
      assert.equal(ix.size, 2);
      // upsert replaces indexed ids and adds new ones
      assert.deepEqual(ix.upsert([K.item('a', 5), K.item('c', 3)]), summary({ added: 1, updated: 1 }));
      assert.equal(ix.size, 3);
      // remove: an unknown id is NOT_FOUND and nothing is removed, unless ignoreMissing
      assert.throws(() => ix.remove(['a', 'zz']), isCode('NOT_FOUND'));
      assert.equal(ix.has('a'), true);
      assert.deepEqual(ix.remove(['a', 'zz'], { ignoreMissing: true }), summary({ removed: 1, skipped: 1 }));
      assert.deepEqual(ix.remove('b'), summary({ removed: 1 }));
      assert.equal(ix.size, 1);
      assert.equal(K.probe(ix)[0].id, 'c');
    } finally {
      ix.dispose();
    }
  });
}

test('#28 bm25 and vectors name the oracle switch exact; the names before 0.1.0 are refused (no deprecation shims)', async () => {
  const bm = Bm25Index.create();
  const vx = VectorIndex.create({ dimension: 2 });
  try {
    bm.add([{ id: 'a', text: 'apple pie' }, { id: 'b', text: 'apple' }]);
    assert.deepEqual(bm.search('apple', { exact: true }).map((h) => h.id), ['b', 'a']);
    assert.throws(() => bm.search('apple', { exhaustive: true }), isCode('INVALID_ARGUMENT'));
    // save() without a name and load(bytes) were the byte forms: now a name is required, bytes go through toBytes/fromBytes
    const bytes = bm.toBytes();
    await assert.rejects(bm.save(), isCode('INVALID_ARGUMENT'));
    await assert.rejects(Bm25Index.load(bytes), isCode('INVALID_ARGUMENT'));
    assert.throws(() => vx.add(['x', 'y'], [[1, 0], [0, 1]]), isCode('INVALID_ARGUMENT'));
    assert.equal(vx.size, 0, 'the old add(ids, vectors) wrote nothing');
    vx.add([{ id: 'x', vector: [1, 0] }]);
    await assert.rejects(vx.save(), isCode('INVALID_ARGUMENT'));
    await assert.rejects(VectorIndex.load(vx.toBytes()), isCode('INVALID_ARGUMENT'));
  } finally {
    bm.dispose();
    vx.dispose();
  }
});

test('#28 k is a result count in fuse and aggregateToDocuments, rrfK the RRF constant; topK and k as the constant are gone', async () => {
  const lists = [
    { retriever: 'bm25', hits: [{ id: 'a', score: 3 }, { id: 'b', score: 2 }, { id: 'c', score: 1 }] },
    { retriever: 'dense', hits: [{ id: 'c', score: 0.9 }, { id: 'a', score: 0.5 }, { id: 'd', score: 0.1 }] },
  ];
  const fresh = fuse(lists, { mode: 'rrf', rrfK: 10, k: 2 });
  assert.equal(fresh.hits.length, 2);
  assert.equal(fresh.options.rrfK, 10);
  // RRF with rrfK 10: a = 1/11 + 1/12, c = 1/13 + 1/11 (ranks 1-based)
  assert.ok(Math.abs(fresh.hits[0].score - (1 / 11 + 1 / 12)) < 1e-12);
  // k alone is the count too (the RRF constant stays its default 60): a = 1/61 + 1/62
  const alone = fuse(lists, { mode: 'rrf', k: 2 });
  assert.equal(alone.hits.length, 2);
  assert.equal(alone.options.rrfK, 60);
  assert.ok(Math.abs(alone.hits[0].score - (1 / 61 + 1 / 62)) < 1e-12);
  assert.throws(() => fuse(lists, { mode: 'rrf', topK: 2 }), isCode('INVALID_ARGUMENT'));
  const chunks = [{ id: 'a#0', docId: 'a', score: 3 }, { id: 'a#1', docId: 'a', score: 1 }, { id: 'b#0', docId: 'b', score: 2 }];
  assert.deepEqual(aggregateToDocuments(chunks, { k: 1 }).map((d) => d.docId), ['a']);
  assert.throws(() => aggregateToDocuments(chunks, { topK: 1 }), isCode('INVALID_ARGUMENT'));
  const questions = [{ evidence: [{ text: 'apple pie' }], chunks: [{ text: 'x' }, { text: 'apple pie' }] }];
  assert.deepEqual(Object.keys(metrics.evaluateEvidence(questions, { cutoffs: [1, 2] }).recall), ['1', '2']);
  assert.throws(() => metrics.evaluateEvidence(questions, { k: [1, 2] }), isCode('INVALID_ARGUMENT'));
});

// A prefix-sensitive fixture model: vectors are letter counts of the text, but a query is embedded
// from the text 'query: ' + text with the letters of 'query' removed again, and a document likewise,
// so both kinds agree; without a kind the model throws (as a model that needs prefixes would give
// vectors from the wrong side). Every call is recorded with its kind.
function fixtureEmbedder() {
  const calls = [];
  const bag = (t) => {
    const v = new Float32Array(26);
    for (const ch of t.toLowerCase()) {
      const c = ch.charCodeAt(0) - 97;
      if (c >= 0 && c < 26) v[c] += 1;
    }
    v[25] += 0.5;  // never all zeros
    return v;
  };
  const e = {
    id: 'fixture-prefix-model',
    dimension: 26,
    async embed(texts, options = {}) {
      if (options.kind !== 'query' && options.kind !== 'document') throw new Error(`fixture: embed() needs a kind, got ${options.kind}`);
      for (const t of texts) calls.push({ text: t, kind: options.kind });
      return texts.map(bag);
    },
  };
  return { e, calls };
}

const DOCS = Array.from({ length: 12 }, (_, i) => ({
  id: `d${i}`,
  text: `Document ${i} talks about ${['apples', 'rivers', 'engines', 'violins'][i % 4]} and ${['zebras', 'quartz', 'jelly', 'kites'][i % 3]}. `
    + `It continues with more words about topic number ${i} for the reader. A final sentence closes it.`,
}));

test('the embedder contract: autotune embeds queries with kind query and chunks with kind document', async () => {
  const { e, calls } = fixtureEmbedder();
  const queries = [{ id: 'q1', text: 'apples zebras' }, { id: 'q2', text: 'violins kites' }];
  const qrels = { q1: { d0: 1 }, q2: { d3: 1 } };
  const r = await autotune({
    documents: DOCS, queries, qrels, embedder: e, bootstrap: false,
    grid: { chunker: [{ chunkSize: 400 }], bm25: [{ k1: 0.9, b: 0.4 }], fusion: [{ retriever: 'dense' }, { mode: 'rrf', weights: [1, 1], rrfK: 60 }], k: [5] },
  });
  assert.equal(r.table.length, 2);
  const queryCalls = calls.filter((c) => c.kind === 'query').map((c) => c.text);
  assert.deepEqual(queryCalls.sort(), queries.map((q) => q.text).sort());
  assert.ok(calls.filter((c) => c.kind === 'document').length >= DOCS.length);
  for (const c of calls.filter((x) => x.kind === 'document')) assert.ok(!queries.some((q) => q.text === c.text));
});

test('the embedder contract: semantic chunking embeds sentence groups with kind document', async () => {
  const { e, calls } = fixtureEmbedder();
  const chunks = await chunkAsync({ id: 's', text: DOCS[0].text + ' ' + DOCS[1].text }, { strategy: 'semantic', embedder: e, bufferSize: 0 });
  assert.ok(chunks.length >= 1);
  assert.ok(calls.length > 0);
  assert.ok(calls.every((c) => c.kind === 'document'));
  // A plain function gets the kind too.
  const kinds = [];
  await chunkAsync({ id: 's', text: DOCS[2].text }, { strategy: 'semantic', embedder: async (texts, o) => { kinds.push(o.kind); return e.embed(texts, o); } });
  assert.deepEqual([...new Set(kinds)], ['document']);
});

test('the embedder contract: the leg check embeds probes with kind query', async () => {
  const { e, calls } = fixtureEmbedder();
  const passages = DOCS.map((d) => ({ id: d.id, text: d.text }));
  const vx = VectorIndex.create({ dimension: 26 });
  const bm = Bm25Index.create({ fields: ['text'] });
  try {
    const vectors = await e.embed(passages.map((p) => p.text), { kind: 'document' });
    vx.add(passages.map((p, i) => ({ id: p.id, vector: vectors[i] })));
    bm.add(passages);
    calls.length = 0;
    const report = await checkLegs([
      { retriever: 'bm25', search: (qs, k) => qs.map((q) => bm.search(q, { k }).map((h) => h.id)) },
      vectorLeg('dense', vx, e),
    ], passages, { minProbes: 1 });
    assert.equal(report.probes, passages.length);
    assert.equal(calls.length, report.probes);
    assert.ok(calls.every((c) => c.kind === 'query'));
    assert.ok(report.legs.find((l) => l.retriever === 'dense').mrr > 0);
  } finally {
    vx.dispose();
    bm.dispose();
  }
});

test('a plain function becomes an embedder through asEmbedder and gets the kind', async () => {
  const seen = [];
  const fn = asEmbedder(async (texts, o) => { seen.push(o.kind); return texts.map(() => new Float32Array([1, 0])); }, { dimension: 2, id: 'mine' });
  assert.equal(fn.dimension, 2);
  assert.equal(fn.id, 'mine');
  await fn.embed(['a'], { kind: 'query' });
  assert.deepEqual(seen, ['query']);
  assert.throws(() => asEmbedder(async () => []), isCode('INVALID_ARGUMENT'));
});

test('asEmbedder, embedTexts and ask refuse a revoked Proxy, throwing getters and null options with INVALID_ARGUMENT', async () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  const throwing = { get embed() { throw new Error('getter'); } };
  assert.throws(() => asEmbedder(proxy), isCode('INVALID_ARGUMENT'));
  assert.throws(() => asEmbedder(throwing), isCode('INVALID_ARGUMENT'));
  assert.throws(() => asEmbedder(async () => [], null), isCode('INVALID_ARGUMENT'));
  assert.throws(() => asEmbedder(async () => [], proxy), isCode('INVALID_ARGUMENT'));
  assert.throws(() => asEmbedder(async () => [], { dimension: 2, colour: 'red' }), isCode('INVALID_ARGUMENT'));
  await assert.rejects(embedTexts(proxy, ['a']), isCode('INVALID_ARGUMENT'));
  await assert.rejects(ask(proxy, 'what?'), isCode('INVALID_ARGUMENT'));
});

const STATIC_MODEL = join(repoRoot, 'models/build/static-model.bin');

test('StaticEmbedder has dimension and a stable id and loads by the same names', async (t) => {
  if (!existsSync(STATIC_MODEL)) return t.skip('models/build/static-model.bin is missing (node scripts/build-assets.mjs)');
  const bytes = readFileSync(STATIC_MODEL);
  const a = StaticEmbedder.fromBytes(bytes);
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-vocab-'));
  try {
    assert.equal(a.dimension, 100);
    assert.match(a.id, /^static-100d-[0-9a-f]{8}$/);
    await saveBytes('static-model', bytes, { dir });
    const b = await StaticEmbedder.load('static-model', { dir });
    assert.equal(b.id, a.id, 'the same file gives the same id');
    assert.deepEqual(await b.embed(['apples'], { kind: 'query' }), a.embedSync(['apples']));
    b.dispose();
    assert.equal(a.dims, undefined, 'dimension is the one name (#28)');
    // A collection saved with the static model names it and checks it on load.
    const col = await Collection.create({ chunker: { strategy: 'recursive', chunkSize: 400 }, indexes: { bm25: {}, dense: {} } }, { embedder: a });
    await col.add(DOCS.slice(0, 3));
    assert.equal(Collection.inspect(col.toBytes()).embedder.id, a.id);
    col.dispose();
  } finally {
    a.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('OnnxEmbedder knows its dimension at creation and its id names model pooling and prefixes', async (t) => {
  const tok = skipUnlessShared(t, 'models/bert-base-uncased/tokenizer.json');
  if (!tok) return;
  if (!pythonOnnx()) return t.skip('needs Debian python3-onnx and python3-numpy for /usr/bin/python3');
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-vocab-bert-'));
  const tokenizer = Tokenizer.fromTokenizerJson(readFileSync(tok));
  try {
    execFileSync('/usr/bin/python3', [join(repoRoot, 'models/make-bert-fixture.py'), dir, tok, '--name', 'tiny-bert', '--seed', '1234']);
    const model = pathToFileURL(join(dir, 'tiny-bert/onnx/model.onnx'));
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'models/manifest.json'), 'utf8'));
    const plain = await createOnnxEmbedder({ model, tokenizer });
    const e5 = await createOnnxEmbedder({ model, tokenizer, name: 'e5-small-v2', manifest, maxLength: 64 });
    const again = await createOnnxEmbedder({ model, tokenizer });
    try {
      assert.equal(plain.dimension, 32, 'known before the first embed()');
      assert.equal(e5.dimension, 32);
      assert.match(plain.id, /^onnx:crc32-[0-9a-f]{8}:mean:[0-9a-f]{8}$/);
      assert.equal(again.id, plain.id, 'the same bytes and settings give the same id');
      assert.match(e5.id, /^onnx:e5-small-v2:mean:[0-9a-f]{8}$/);
      assert.notEqual(e5.id.split(':').pop(), plain.id.split(':').pop(), 'the prefixes are part of the id');
      assert.deepEqual(e5.prefixes, { query: 'query: ', document: 'passage: ' });
      // The manifest's prefixes are applied by kind: a query equals the prefixed text embedded plainly.
      const [q] = await e5.embed(['apples'], { kind: 'query' });
      const [d] = await e5.embed(['apples'], { kind: 'document' });
      const [qRef] = await plain.embed(['query: apples']);
      assert.deepEqual(Array.from(q), Array.from(qRef));
      assert.notDeepEqual(Array.from(q), Array.from(d));
      await assert.rejects(createOnnxEmbedder({ model, tokenizer, name: 'no-such-model', manifest }), isCode('INVALID_ARGUMENT'));
    } finally {
      await plain.dispose();
      await e5.dispose();
      await again.dispose();
    }
  } finally {
    tokenizer.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});
