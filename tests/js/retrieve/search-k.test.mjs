// One rule for k on every search entry point (docs/api.md "k of a search"): an integer in
// [1, 100000] (MAX_SEARCH_K), else INVALID_ARGUMENT "options.k: expected an integer in [1, 100000], got …".
// Before it, Bm25Index (and the sharded BM25) took 0..1,000,000 and VectorIndex 1..100,000.
// Each entry point is used again after the error (nothing lost).
import test from 'node:test';
import assert from 'node:assert/strict';
import { Bm25Index, Collection, init, RagwasmError, VectorIndex, VECTOR_MAX_K } from '../../../web/src/index.js';
import { ShardedBm25Index, ShardedVectorIndex, WorkerPool } from '../../../web/src/parallel.js';
import { MAX_SEARCH_K } from '../../../web/src/core/limits.js';

await init();

const BAD = [[0, '0'], [-1, '-1'], [100001, '100001'], [1000000, '1000000'], [2.5, '2.5'], ['3', '"3"'], [NaN, 'NaN'], [null, 'null']];
const DOCS = [{ id: 'a', text: 'apple orchard harvest' }, { id: 'b', text: 'apple pie recipe' }, { id: 'c', text: 'pear tree' }];
const VECS = [{ id: 'a', vector: [1, 0, 0] }, { id: 'b', vector: [0.5, 0.5, 0] }, { id: 'c', vector: [0, 0, 1] }];

// Every bad k fails with the one message shape; k 1 and 100000 (the bounds) work afterwards.
async function checkRule(name, search, { ids }) {
  for (const [k, shown] of BAD) {
    await assert.rejects(async () => search(k), (e) => {
      assert.ok(e instanceof RagwasmError, `${name} k ${shown}: ${e}`);
      assert.equal(e.code, 'INVALID_ARGUMENT', `${name} k ${shown}`);
      assert.match(e.message, /options\.k: expected an integer/, `${name} k ${shown}: ${e.message}`);
      if (typeof k === 'number' && Number.isInteger(k)) assert.ok(e.message.endsWith(`options.k: expected an integer in [1, 100000], got ${shown}`), `${name}: ${e.message}`);
      return true;
    });
  }
  assert.deepEqual((await search(1)).map((h) => h.id), ids.slice(0, 1), `${name} k 1`);
  assert.deepEqual((await search(MAX_SEARCH_K)).map((h) => h.id), ids, `${name} k 100000`);
}

test('MAX_SEARCH_K is the one limit (VECTOR_MAX_K is the same number)', () => {
  assert.equal(MAX_SEARCH_K, 100000);
  assert.equal(VECTOR_MAX_K, MAX_SEARCH_K);
});

test('Bm25Index.search: k in [1, 100000]', async () => {
  const idx = Bm25Index.create();
  idx.add(DOCS);
  await checkRule('Bm25Index.search', (k) => idx.search('apple', { k }), { ids: ['a', 'b'] });
  await checkRule('Bm25Index.search exact', (k) => idx.search('apple', { k, exact: true }), { ids: ['a', 'b'] });
  idx.dispose();
});

test('VectorIndex.search and searchMany: k in [1, 100000]', async () => {
  for (const index of ['flat', 'hnsw']) {
    const v = VectorIndex.create({ dimension: 3, metric: 'dot', index });
    v.add(VECS);
    await checkRule(`VectorIndex(${index}).search`, (k) => v.search([1, 0.1, 0], { k }), { ids: ['a', 'b', 'c'] });
    await checkRule(`VectorIndex(${index}).searchMany`, async (k) => (await v.searchMany([[1, 0.1, 0]], { k }))[0], { ids: ['a', 'b', 'c'] });
    v.dispose();
  }
});

test('Collection.search: k in [1, 100000]; retrieval.k 0 without options.k stays the no-retrieval baseline', async () => {
  const col = await Collection.create({ chunker: { strategy: 'recursive', chunkSize: 200 }, indexes: { bm25: {} } });
  await col.add(DOCS);
  await checkRule('Collection.search', (k) => col.search('apple', { k }), { ids: ['a#0', 'b#0'] });
  col.dispose();
  const none = await Collection.create({ chunker: { strategy: 'recursive', chunkSize: 200 }, indexes: { bm25: {} }, retrieval: { k: 0 } });
  await none.add(DOCS);
  assert.deepEqual(await none.search('apple'), []);
  await assert.rejects(none.search('apple', { k: 0 }), (e) => e.code === 'INVALID_ARGUMENT' && /options\.k: expected an integer in \[1, 100000\], got 0/.test(e.message));
  assert.equal((await none.search('apple', { k: 1 })).length, 1);
  none.dispose();
  // candidates above the limit fetch 100000 hits per leg (no error)
  const wide = await Collection.create({ chunker: { strategy: 'recursive', chunkSize: 200 }, indexes: { bm25: {} }, retrieval: { k: 2, candidates: 1000000 } });
  await wide.add(DOCS);
  assert.deepEqual((await wide.search('apple')).map((h) => h.docId), ['a', 'b']);
  wide.dispose();
});

test('ShardedBm25Index and ShardedVectorIndex search / searchMany: k in [1, 100000]', async () => {
  const pool = await WorkerPool.create({ workers: 1 });
  const bm = await ShardedBm25Index.create({}, { pool });
  await bm.add(DOCS);
  await checkRule('ShardedBm25Index.search', (k) => bm.search('apple', { k }), { ids: ['a', 'b'] });
  await checkRule('ShardedBm25Index.searchMany', async (k) => (await bm.searchMany(['apple'], { k }))[0], { ids: ['a', 'b'] });
  const vx = await ShardedVectorIndex.create({ dimension: 3, metric: 'dot' }, { pool });
  await vx.add(VECS);
  await checkRule('ShardedVectorIndex.search', (k) => vx.search([1, 0.1, 0], { k }), { ids: ['a', 'b', 'c'] });
  await checkRule('ShardedVectorIndex.searchMany', async (k) => (await vx.searchMany([[1, 0.1, 0]], { k }))[0], { ids: ['a', 'b', 'c'] });
  await bm.dispose();
  await vx.dispose();
  await pool.terminate();
});
// PostgresRetriever.search: in tests/js/server/postgres/postgres-pglite.test.mjs (its PGlite database; starting one takes seconds).
