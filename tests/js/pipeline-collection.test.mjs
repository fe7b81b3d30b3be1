// Collection (web/src/collection.js): add / search / remove / save / load over BM25 + dense + fusion,
// with a deterministic bag-of-words embedder (no model needed).
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { init, RagwasmError, saveBytes } from '../../web/src/index.js';
import { Collection, COLLECTION_FORMAT_VERSION } from '../../web/src/collection.js';

await init();

// 32-dim hashed bag of words, L2-normalized: deterministic and good enough to rank by word overlap.
async function embed(texts) {
  return texts.map((t) => {
    const v = new Float32Array(32);
    for (const w of t.toLowerCase().match(/[a-z]+/g) ?? []) {
      let h = 2166136261;
      for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619) >>> 0;
      v[h % 32] += 1;
    }
    const n = Math.hypot(...v) || 1;
    return v.map((x) => x / n);
  });
}

const docs = [
  { id: 'fr', text: 'Paris is the capital of France. The Seine flows through Paris.' },
  { id: 'de', text: 'Berlin is the capital of Germany. The Spree flows through Berlin.' },
  { id: 'cook', text: 'Apple pie needs apples, butter, flour and sugar.' },
];

test('a hybrid collection adds searches removes and explains', async () => {
  const col = await Collection.create({ chunker: { chunkSize: 40, chunkOverlap: 0 } }, { embedder: embed, dimension: 32 });
  const progress = [];
  const r = await col.add(docs, { onProgress: (d, t) => progress.push([d, t]), batchSize: 2 });
  assert.equal(r.documents, 3);
  assert.ok(r.chunks > 3);  // 40-character chunks split every document
  assert.deepEqual(progress, [[2, 3], [3, 3]]);
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

  const jsonl = col.exportJsonl().trim().split('\n').map((l) => JSON.parse(l));
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

test('a config with the dense index needs an embedder', async () => {
  await assert.rejects(Collection.create({}), (e) => e.code === 'INVALID_ARGUMENT' && /embedder/.test(e.message));
  await assert.rejects(Collection.create({ indexes: { bm25: {} }, retrieval: { retrievers: ['dense'] } }), (e) => e.code === 'NOT_FOUND');
});
