// Collection across Workers (docs/parallel.md "Collection across Workers"): with workers > 1 the BM25
// and dense legs are ShardedBm25Index / ShardedVectorIndex; searches return the hits and scores of
// workers: 1 (deepEqual: Object.is on every score), toBytes() the same bytes (after removals: those of
// workers: 1 given the live documents), and fromBytes(..., {workers})
// loads into shards. Also upsert/remove/filter on the sharded indexes themselves.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { init, Bm25Index, VectorIndex, Collection } from '../../../web/src/index.js';
import { ShardedBm25Index, ShardedVectorIndex, WorkerPool } from '../../../web/src/parallel.js';
import { requireStaticModel, seededRandom, skipUnlessShared } from '../helpers.mjs';

await init();

function scifact(t, n) {
  const corpus = skipUnlessShared(t, 'data/scifact/corpus.jsonl');
  const queries = skipUnlessShared(t, 'data/scifact/queries.jsonl');
  if (!corpus || !queries) return null;
  const read = (p) => readFileSync(p, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  return {
    docs: read(corpus).slice(0, n).map((d, i) => ({ id: d._id, title: d.title, text: d.text, metadata: { bucket: i % 4, year: 2000 + (i % 7) } })),
    queries: read(queries).map((q) => q.text),
  };
}

// Every search variant the brief names: plain, filtered, document level, both.
async function searches(col, queries) {
  const out = [];
  for (const q of queries) {
    out.push(await col.search(q, { k: 10 }));
    out.push(await col.search(q, { k: 10, filter: { bucket: [1, 3] } }));
    out.push(await col.search(q, { k: 5, level: 'document' }));
    out.push(await col.search(q, { k: 5, level: 'document', filter: { year: { gte: 2003 } }, explain: true }));
  }
  return out;
}

// Builds the same history on workers: 1 and workers: 2 (adds in two calls, an upsert of changed
// documents through add, a remove) and compares after every step.
async function sameHistory(t, config, data) {
  const one = await Collection.create(config, { workers: 1 });
  const two = await Collection.create(config, { workers: 2 });
  try {
    assert.equal(one.workers, 1);
    assert.equal(two.workers, 2);
    const qs = data.queries.slice(0, 12);
    const half = Math.floor(data.docs.length / 2);
    for (const col of [one, two]) {
      await col.add(data.docs.slice(0, half));
      await col.add(data.docs.slice(half));
    }
    assert.deepEqual(await searches(two, qs), await searches(one, qs), 'after two adds');
    const bytes = one.toBytes();
    const twoBytes = two.toBytes();
    assert.ok(twoBytes instanceof Promise, 'a sharded toBytes() is async');
    assert.deepEqual(await twoBytes, bytes, 'toBytes() after adds');

    // upsert (add of existing ids with new text) and remove, same calls on both
    const changed = data.docs.slice(10, 40).map((d) => ({ ...d, text: `${d.text} glucose insulin receptor`, metadata: { bucket: 0, year: 2010 } }));
    const gone = data.docs.slice(100, 160).map((d) => d.id);
    for (const col of [one, two]) {
      await col.add(changed);
      assert.equal(col.remove(gone), gone.length);
      assert.deepEqual(await col.compact(), { vectorsDropped: 0 });  // flat: removals are physical
    }
    assert.equal(two.size, one.size);
    assert.deepEqual(await searches(two, [...qs, 'glucose insulin receptor']), await searches(one, [...qs, 'glucose insulin receptor']), 'after upsert and remove');
    // After a removal one index's bytes keep its history (terms and metadata strings interned by
    // removed documents); the sharded save is the canonical form: the bytes of workers: 1 given only
    // the live documents, in the same order. Both load to the same hits.
    const live = new Map([...data.docs, ...changed].map((d) => [d.id, d]));
    const fresh = await Collection.create(config, { workers: 1 });
    let after;
    try {
      await fresh.add([...one.docs.keys()].map((id) => live.get(id)));
      after = await two.toBytes();
      assert.deepEqual(after, fresh.toBytes(), 'toBytes() after upsert and remove: the live documents\' bytes');
    } finally {
      fresh.dispose();
    }
    const reread = Collection.fromBytes(after, config.indexes?.dense === undefined && config.indexes ? {} : { embedder: one.embedder });
    // fromBytes into shards: same hits, and it saves what a workers: 1 load of the bytes saves
    const loaded = await Collection.fromBytes(after, { workers: 2 });
    try {
      assert.deepEqual(await searches(reread, qs), await searches(one, qs), 'the canonical bytes load to the same hits');
      assert.equal(loaded.workers, 2);
      assert.deepEqual(await searches(loaded, qs), await searches(one, qs), 'loaded into 2 Workers');
      assert.deepEqual(await loaded.toBytes(), reread.toBytes(), 'a loaded sharded collection saves the bytes a workers: 1 load saves');
    } finally {
      reread.dispose();
      loaded.dispose();
    }
  } finally {
    one.dispose();
    two.dispose();
  }
}

test('a hybrid Collection on 2 Workers returns the hits, scores and bytes of workers: 1 (adds, upsert, remove, filters, level document, fromBytes)', async (t) => {
  requireStaticModel();
  const data = scifact(t, 500);
  if (!data) return;
  await sameHistory(t, {}, data);
});

test('a BM25-only Collection on 2 Workers equals workers: 1 (small chunks, so documents span shards)', async (t) => {
  const data = scifact(t, 300);
  if (!data) return;
  await sameHistory(t, { indexes: { bm25: {} }, chunker: { chunkSize: 200, chunkOverlap: 40 } }, data);
});

test('Collection workers: refused for an HNSW or binary dense index and a given embedder; setEmbedder refused; save and load({workers}); dispose stops the Workers', async () => {
  requireStaticModel();
  for (const dense of [{ index: 'hnsw' }, { storage: 'binary' }]) {
    await assert.rejects(Collection.create({ indexes: { bm25: {}, dense } }, { workers: 2 }), (e) => e.code === 'INVALID_ARGUMENT' && /options\.workers/.test(e.message));
  }
  await assert.rejects(Collection.create({}, { workers: 2, embedder: async (x) => x.map(() => new Float32Array(2)), dimension: 2 }), (e) => e.code === 'INVALID_ARGUMENT');
  const col = await Collection.create({}, { workers: 2 });
  await col.add([{ id: 'a', text: 'the heart pumps blood' }, { id: 'b', text: 'the liver filters blood' }]);
  await assert.rejects(col.setEmbedder(async (x) => x.map(() => new Float32Array(2)), { dimension: 2 }), (e) => e.code === 'INVALID_ARGUMENT');
  // save() awaits the sharded bytes; load({workers}) shards them again
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-parallel-'));
  try {
    await col.save('sharded', { dir });
    const back = await Collection.load('sharded', { dir, workers: 2 });
    try {
      assert.equal(back.workers, 2);
      assert.deepEqual(await back.search('blood', { k: 2 }), await col.search('blood', { k: 2 }));
    } finally {
      back.dispose();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const pool = col._legs.pool;
  col.dispose();
  await assert.rejects(pool._call(0, 'init', [{}]), (e) => e.code === 'DISPOSED');
  assert.throws(() => col.size, (e) => e.code === 'DISPOSED');
});

test('ShardedBm25Index upsert and remove equal Bm25Index (scores bit for bit); NOT_FOUND removes nothing', async (t) => {
  const data = scifact(t, 400);
  if (!data) return;
  const one = Bm25Index.create({});
  const sharded = await ShardedBm25Index.create({}, { workers: 3 });
  try {
    one.add(data.docs);
    await sharded.add(data.docs);
    const up = data.docs.slice(0, 50).map((d) => ({ ...d, text: 'cell membrane protein folding' })).concat([{ id: 'new-1', text: 'protein folding' }]);
    assert.deepEqual(await sharded.upsert(up), one.upsert(up));
    const ids = data.docs.slice(200, 260).map((d) => d.id);
    await assert.rejects(sharded.remove([...ids, 'no-such-id']), (e) => e.code === 'NOT_FOUND' && /no-such-id/.test(e.message));
    assert.equal(sharded.size, one.size, 'a refused remove removed nothing');
    assert.deepEqual(await sharded.remove([...ids, ids[0], 'no-such-id'], { ignoreMissing: true }), one.remove([...ids, ids[0], 'no-such-id'], { ignoreMissing: true }));
    assert.equal(sharded.size, one.size);
    assert.deepEqual(sharded.analyze('Proteins FOLDING'), one.analyze('Proteins FOLDING'));
    const qs = [...data.queries.slice(0, 40), 'protein folding'];
    assert.deepEqual(await sharded.searchMany(qs, { k: 20 }), qs.map((q) => one.search(q, { k: 20 })));
    // compact() on every shard, then statistics synced again: still bit for bit
    await sharded.compact();
    one.compact();
    assert.deepEqual(await sharded.searchMany(qs, { k: 20 }), qs.map((q) => one.search(q, { k: 20 })), 'after compact()');
    const loaded = await ShardedBm25Index.fromBytes(await sharded.toBytes());
    try {
      assert.deepEqual(loaded.analyze('Proteins FOLDING'), one.analyze('Proteins FOLDING'));
    } finally {
      await loaded.dispose();
    }
  } finally {
    one.dispose();
    await sharded.dispose();
  }
});

test('ShardedVectorIndex upsert, remove and id filters equal VectorIndex (ties in insertion order)', async () => {
  const rand = seededRandom(77);
  const dim = 8;
  // values on a coarse grid so ties happen
  const items = Array.from({ length: 300 }, (_, i) => ({ id: `v${i}`, vector: Float32Array.from({ length: dim }, () => Math.round(rand() * 4) - 2) }));
  const pool = await WorkerPool.create({ workers: 2 });
  const one = VectorIndex.create({ dimension: dim, metric: 'dot' });
  const sharded = await ShardedVectorIndex.create({ dimension: dim, metric: 'dot' }, { pool });
  try {
    one.add(items);
    await sharded.add(items);
    const up = items.slice(0, 40).map((it) => ({ id: it.id, vector: it.vector.map((x) => -x) })).concat([{ id: 'fresh', vector: new Float32Array(dim).fill(1) }]);
    assert.deepEqual(await sharded.upsert(up), one.upsert(up));
    await assert.rejects(sharded.upsert([{ id: 'x', vector: new Float32Array(dim).fill(NaN) }]), (e) => e.code === 'INVALID_ARGUMENT' && /items\[0\]\.vector\[0\]/.test(e.message));
    const ids = items.slice(100, 150).map((it) => it.id);
    await assert.rejects(sharded.remove([...ids, 'nope']), (e) => e.code === 'NOT_FOUND');
    assert.deepEqual(await sharded.remove(ids), one.remove(ids));
    assert.equal(sharded.size, one.size);
    const queries = Array.from({ length: 10 }, () => Float32Array.from({ length: dim }, () => Math.round(rand() * 4) - 2));
    assert.deepEqual(await sharded.searchMany(queries, { k: 25 }), queries.map((q) => one.search(q, { k: 25 })));
    const allowed = new Set(items.filter((_, i) => i % 3 === 0).map((it) => it.id));
    assert.deepEqual(await sharded.searchMany(queries, { k: 25, filter: allowed }), queries.map((q) => one.search(q, { k: 25, filter: allowed })));
    assert.deepEqual(await sharded.search(queries[0], { k: 5, filter: [] }), []);
    await assert.rejects(sharded.search(queries[0], { filter: (id) => id === 'v1' }), (e) => e.code === 'INVALID_ARGUMENT');
  } finally {
    one.dispose();
    await sharded.dispose();
    await pool.terminate();
  }
});

test('a sharded BM25 add larger than one piece (2,048 per message) is all or nothing and equals one index', async () => {
  const rand = seededRandom(5);
  const words = ['heart', 'blood', 'cell', 'gene', 'virus', 'protein', 'brain', 'liver', 'tumor', 'insulin'];
  const docs = Array.from({ length: 5000 }, (_, i) => ({ id: `d${i}`, text: Array.from({ length: 8 }, () => words[Math.floor(rand() * words.length)]).join(' ') }));
  const sharded = await ShardedBm25Index.create({}, { workers: 2 });
  const one = Bm25Index.create({});
  try {
    const bad = docs.slice();
    bad[4800] = { id: 'x', text: 5 };
    await assert.rejects(sharded.add(bad), (e) => e.code === 'INVALID_ARGUMENT' && /docs\[4800\]/.test(e.message));
    assert.equal(sharded.size, 0);
    assert.deepEqual(await sharded.collectionStats().then((s) => s.documents), 0, 'the pieces other shards took were removed again');
    const twice = [...docs.slice(0, 4999), { id: 'd1', text: 'heart' }];
    await assert.rejects(sharded.add(twice), (e) => e.code === 'DUPLICATE_ID' && /docs\[4999\]/.test(e.message));
    assert.deepEqual(await sharded.add(docs), one.add(docs));
    const qs = ['heart blood', 'gene virus protein', 'insulin'];
    assert.deepEqual(await sharded.searchMany(qs, { k: 50 }), qs.map((q) => one.search(q, { k: 50 })));
  } finally {
    one.dispose();
    await sharded.dispose();
  }
});
