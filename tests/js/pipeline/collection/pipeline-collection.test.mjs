// Collection (web/src/pipeline/collection.js): add / search / remove / save / load over BM25 + dense + fusion,
// with a deterministic bag-of-words embedder (no model needed).
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { init, RagwasmError, saveBytes } from '../../../../web/src/index.js';
import { Collection, COLLECTION_FORMAT_VERSION } from '../../../../web/src/index.js';

import { packContainer, unpackContainer } from '../../../../web/src/core/container.js';
import { hashedBagOfWords } from '../../helpers.mjs';

await init();

// 32-dim hashed bag of words, L2-normalized: deterministic and good enough to rank by word overlap.
const embed = async (texts) => hashedBagOfWords(texts);

const docs = [
  { id: 'fr', text: 'Paris is the capital of France. The Seine flows through Paris.' },
  { id: 'de', text: 'Berlin is the capital of Germany. The Spree flows through Berlin.' },
  { id: 'cook', text: 'Apple pie needs apples, butter, flour and sugar.' },
];

test('a hybrid collection adds searches removes and explains', async () => {
  const col = await Collection.create({ chunker: { chunkSize: 40, chunkOverlap: 0 } }, { embedder: embed, dimension: 32 });
  const progress = [];
  const r = await col.add(docs, { onProgress: ({ done, total }) => progress.push([done, total]), batchSize: 2 });
  assert.equal(r.documents, 3);
  assert.ok(r.chunks > 3);  // 40-character chunks split every document
  // characters of text, a call per document, the last after the writes (docs/collection.md)
  const chars = docs.map((d) => d.text.length);
  const total = chars[0] + chars[1] + chars[2];
  assert.deepEqual(progress, [[chars[0], total], [chars[0] + chars[1], total], [total, total]]);
  const hits = await col.search('capital of Germany', { k: 3, explain: true });
  assert.equal(hits[0].docId, 'de');
  assert.equal(hits[0].contributions.length, 2);
  assert.ok(Array.isArray(hits.diagnostics.warnings));
  assert.equal(docs.find((d) => d.id === hits[0].docId).text.slice(hits[0].start, hits[0].end), hits[0].text);
  assert.equal(col.remove(['de', 'nope']), 1);
  const after = await col.search('capital of Germany', { k: 3 });
  assert.ok(after.every((h) => h.docId !== 'de'));
  await assert.rejects(col.search('   '), (e) => e instanceof RagwasmError && e.code === 'INVALID_ARGUMENT');
  await assert.rejects(col.search('the of'), (e) => e.code === 'INVALID_ARGUMENT' && /only stopwords/.test(e.message));
  assert.equal((await col.search('apple pie', { k: 1 }))[0].docId, 'cook');  // still usable after errors
  col.dispose();
});

test('save and load round-trip and corrupt or newer bytes are rejected', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-col-'));
  const col = await Collection.create({ indexes: { bm25: {} } });
  await col.add(docs);
  const before = await col.search('flows through', { k: 5 });
  await col.save('c1', { dir });
  const again = await Collection.load('c1', { dir });
  assert.deepEqual(await again.search('flows through', { k: 5 }), before);
  assert.equal(again.size, 3);

  const bytes = col.toBytes();
  const flipped = bytes.slice();
  flipped[flipped.length - 10] ^= 1;
  assert.throws(() => Collection.fromBytes(flipped), (e) => e.code === 'CORRUPT_INDEX' && /checksum/.test(e.message));
  assert.throws(() => Collection.fromBytes(bytes.slice(0, 20)), (e) => e.code === 'CORRUPT_INDEX');
  const newer = bytes.slice();
  new DataView(newer.buffer).setUint32(8, COLLECTION_FORMAT_VERSION + 1, true);
  assert.throws(() => Collection.fromBytes(newer), (e) => e.code === 'UNSUPPORTED_VERSION');
  // A corrupt blob stored under another name does not touch the good copy.
  await saveBytes('c2', flipped, { dir });
  await assert.rejects(Collection.load('c2', { dir }), (e) => e.code === 'CORRUPT_INDEX');
  assert.equal((await Collection.load('c1', { dir })).size, 3);
  await assert.rejects(Collection.load('missing', { dir }), (e) => e.code === 'NOT_FOUND');

  const jsonl = (await col.exportJsonl({ header: false })).trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(jsonl.length, [...col.docs.values()].reduce((s, d) => s + d.chunks.length, 0));
  assert.ok(jsonl.every((c) => typeof c.text === 'string' && typeof c.docId === 'string'));
  col.dispose();
  again.dispose();
});

test('the sentence chunker config works without a character overlap', async () => {
  const col = await Collection.create({ chunker: { strategy: 'sentence', chunkSize: 60 }, indexes: { bm25: {} } });
  await col.add(docs);
  assert.equal(col.docs.get('fr').chunks.length, 2);  // two sentences of ~30 characters each, 60 max
  assert.equal((await col.search('Seine', { k: 1 }))[0].id, 'fr#1');
  col.dispose();
});

test('a config with the dense index and no embedder uses the default static model', async () => {
  const col = await Collection.create({});
  assert.equal(col.dimension, 100);  // GloVe-100 of ragwasm-static-model
  await col.add([{ id: 'cat', text: 'The cat sat on the mat.' }, { id: 'markets', text: 'Stock markets fell sharply today.' }]);
  const hits = await col.search('a kitten on the rug', { k: 1 });
  assert.equal(hits[0].docId, 'cat');
  await assert.rejects(Collection.create({}, { embedder: async (texts) => texts.map(() => new Float32Array(4)) }),
    (e) => e.code === 'INVALID_ARGUMENT' && /dimension/.test(e.message));
  await assert.rejects(Collection.create({ indexes: { bm25: {} }, retrieval: { retrievers: ['dense'] } }), (e) => e.code === 'NOT_FOUND');
});

// CRC-32 (IEEE, as zlib), to seal collection bytes in the format-1 layout (oldWriter below).
function crc32(bytes) {
  let c = 0xFFFFFFFF;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c & 1) ? 0xEDB88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xFFFFFFFF) >>> 0;
}

/** Collection bytes with the header section replaced by `headerText` and a valid seal (packContainer). */
function withHeader(bytes, headerText) {
  const { version, sections } = unpackContainer(bytes, 'RWCOLLEC', { minVersion: 1, maxVersion: COLLECTION_FORMAT_VERSION, label: 't', what: 't' });
  return packContainer('RWCOLLEC', version, [...sections].map(([tag, b]) => ({ tag, bytes: tag === 1 ? new TextEncoder().encode(headerText) : b })));
}

test('a checksummed collection with a malformed header is CORRUPT_INDEX not a TypeError', async () => {
  const col = await Collection.create({ indexes: { bm25: {} } });
  await col.add(docs);
  const bytes = col.toBytes();
  const { sections } = unpackContainer(bytes, 'RWCOLLEC', { minVersion: 1, maxVersion: COLLECTION_FORMAT_VERSION, label: 't', what: 't' });
  const header = JSON.parse(new TextDecoder().decode(sections.get(1)));
  // the re-sealed original header still loads (the helper itself is right)
  const same = Collection.fromBytes(withHeader(bytes, JSON.stringify(header)));
  assert.deepEqual(await same.search('flows through', { k: 3 }), await col.search('flows through', { k: 3 }));
  same.dispose();
  for (const h of ['null', '[]', JSON.stringify({ config: header.config }), JSON.stringify({ config: header.config, docs: 5 }),
    JSON.stringify({ config: header.config, docs: [null] }), JSON.stringify({ config: header.config, docs: [{ id: 'x' }] }),
    JSON.stringify({ config: header.config, docs: [{ id: 'x', chunks: [{ id: 'x#0' }] }] })]) {
    assert.throws(() => Collection.fromBytes(withHeader(bytes, h)), (e) => e instanceof RagwasmError && e.code === 'CORRUPT_INDEX', h);
  }
  col.dispose();
});

test('fromBytes frees the indexes it loaded when the collection cannot be built', async () => {
  const col = await Collection.create({}, { embedder: embed, dimension: 32 });
  await col.add(docs);
  const bytes = col.toBytes();
  col.dispose();
  const { Bm25Index } = await import('../../../../web/src/retrieve/sparse.js');
  const { VectorIndex } = await import('../../../../web/src/retrieve/dense.js');
  const loaded = [];
  const origB = Bm25Index.fromBytes;
  const origV = VectorIndex.fromBytes;
  Bm25Index.fromBytes = (...a) => { const x = origB.apply(Bm25Index, a); loaded.push(x); return x; };
  VectorIndex.fromBytes = (...a) => { const x = origV.apply(VectorIndex, a); loaded.push(x); return x; };
  try {
    // no embedder for a collection whose config enables the dense index
    assert.throws(() => Collection.fromBytes(bytes), (e) => e instanceof RagwasmError && e.code === 'INVALID_ARGUMENT');
  } finally {
    Bm25Index.fromBytes = origB;
    VectorIndex.fromBytes = origV;
  }
  assert.equal(loaded.length, 2);
  assert.ok(loaded.every((x) => x.disposed), 'both loaded indexes are disposed');
  const ok = Collection.fromBytes(bytes, { embedder: embed, dimension: 32 });
  assert.equal(ok.size, 3);
  ok.dispose();
});

test('an embedder returning bad vectors leaves the collection unchanged and usable', async () => {
  let mode = 'good';
  const flaky = async (texts) => {
    const v = await embed(texts);
    if (mode === 'short') return v.map((x) => x.subarray(0, 31));
    if (mode === 'nan') return v.map((x) => { const y = Float32Array.from(x); y[0] = NaN; return y; });
    if (mode === 'huge') return v.map((x) => Array.from(x, (y, i) => (i === 0 ? 1e39 : y)));  // Infinity as float32
    return v;
  };
  const col = await Collection.create({}, { embedder: flaky, dimension: 32 });
  await col.add(docs);
  const before = await col.search('capital of Germany', { k: 5 });
  for (const m of ['short', 'nan', 'huge']) {
    mode = m;
    // an upsert of an existing document and a new one: neither index nor the document map may change
    await assert.rejects(col.add([{ id: 'de', text: 'Berlin changed.' }, { id: 'new', text: 'Brand new text.' }]),
      (e) => e instanceof RagwasmError && ['DIMENSION_MISMATCH', 'INVALID_ARGUMENT'].includes(e.code), m);
    mode = 'good';
    assert.equal(col.size, 3, m);
    assert.deepEqual(await col.search('capital of Germany', { k: 5 }), before, m);
    assert.deepEqual(await col.search('Brand new text', { k: 5 }).then((h) => h.filter((x) => x.docId === 'new')), [], m);
  }
  // and the same documents can still be added once the embedder behaves
  await col.add([{ id: 'new', text: 'Brand new text.' }]);
  assert.equal((await col.search('Brand new text', { k: 1 }))[0].docId, 'new');
  col.dispose();
});

// A copy of the collection writer as it was before toBytes() moved to checksum.js packSections:
// bytes saved by earlier builds must still load, and toBytes() must still write exactly them.
function oldWriter(headerJson, bm25Bytes, denseBytes) {
  const enc = new TextEncoder();
  const sections = [enc.encode(headerJson), bm25Bytes, denseBytes];
  const out = new Uint8Array(8 + 4 + sections.reduce((s, b) => s + 4 + b.length, 0) + 4);
  const view = new DataView(out.buffer);
  out.set(enc.encode('RAGWCOL1'), 0);
  view.setUint32(8, 1, true);
  let at = 12;
  for (const s of sections) {
    view.setUint32(at, s.length, true);
    out.set(s, at + 4);
    at += 4 + s.length;
  }
  view.setUint32(at, crc32(out.subarray(0, at)), true);
  return out;
}

test('collection bytes of the pre-packSections writer (format 1) load identically and re-save in the current format', async () => {
  for (const config of [{ indexes: { bm25: {} } }, { chunker: { chunkSize: 40, chunkOverlap: 0 } }]) {
    const col = await Collection.create(config, { embedder: embed, dimension: 32 });
    // Format 1 had no title field (title '': add() derives none, and the BM25 title field is empty),
    await col.add([...docs, { id: 'meta', text: 'Rome is the capital of Italy.', metadata: { lang: 'it', year: 2024 } }].map((d) => ({ ...d, title: '' })));
    // Format 1 had no title field, document length or embedder id; its BM25 section indexed "text" only.
    const docList = [...col.docs.entries()].map(([id, d]) => ({ id, metadata: d.metadata, chunks: d.chunks }));
    const v1config = structuredClone(col.config);
    if (v1config.indexes.bm25) delete v1config.indexes.bm25.fields;
    const { Bm25Index } = await import('../../../../web/src/retrieve/sparse.js');
    const v1bm25 = v1config.indexes.bm25 ? Bm25Index.create({ fields: ['text'], k1: 0.9, b: 0.4 }) : null;
    v1bm25?.add([...col.chunks.values()].map((c) => ({ id: c.id, text: c.text })));
    const old = oldWriter(JSON.stringify({ config: v1config, docs: docList }), v1bm25 ? v1bm25.toBytes() : new Uint8Array(0),
      col.dense ? col.dense.toBytes() : new Uint8Array(0));
    v1bm25?.dispose();
    const again = Collection.fromBytes(old, { embedder: embed, dimension: 32 });
    for (const q of ['capital of Germany', 'apple pie', 'Rome']) {
      const untitled = (hits) => { for (const h of hits) delete h.title; return hits; };
      assert.deepEqual(await again.search(q, { k: 5, explain: true }), untitled(await col.search(q, { k: 5, explain: true })), q);
    }
    const resaved = again.toBytes();
    assert.equal(new DataView(resaved.buffer).getUint32(8, true), COLLECTION_FORMAT_VERSION);
    const third = Collection.fromBytes(resaved, { embedder: embed, dimension: 32 });
    const rome = await col.search('Rome', { k: 5 });
    for (const h of rome) delete h.title;
    assert.deepEqual(await third.search('Rome', { k: 5 }), rome);
    third.dispose();
    col.dispose();
    again.dispose();
  }
});
