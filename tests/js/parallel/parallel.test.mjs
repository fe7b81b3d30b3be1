// The Worker pool (web/src/parallel/): sharded BM25 and flat vector indexes and the parallel static
// embedder return exactly what one index / one embedder returns (ids and float scores, bit for bit),
// errors raised in a Worker reach the caller as RagwasmError with nothing half-written, and pools
// never keep a process alive.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { init, Bm25Index, VectorIndex, StaticEmbedder, Collection, RagwasmError } from '../../../web/src/index.js';
import { WorkerPool, ShardedBm25Index, ShardedVectorIndex, createParallelEmbedder, defaultWorkers } from '../../../web/src/parallel.js';
import { repoRoot, requireStaticModel, seededRandom, skipUnlessShared } from '../helpers.mjs';

await init();

const STATIC_MODEL = join(repoRoot, 'models/build/static-model.bin');

function readJsonl(path) {
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

function scifact(t) {
  const corpus = skipUnlessShared(t, 'data/scifact/corpus.jsonl');
  const queries = skipUnlessShared(t, 'data/scifact/queries.jsonl');
  if (!corpus || !queries) return null;
  return {
    docs: readJsonl(corpus).map((d, i) => ({ id: d._id, title: d.title, text: d.text, metadata: { bucket: i % 5 } })),
    queries: readJsonl(queries).map((q) => q.text),
  };
}

test('defaultWorkers is the core count capped at 8', () => {
  const n = defaultWorkers();
  assert.ok(Number.isInteger(n) && n >= 1 && n <= 8, `got ${n}`);
});

test('sharded BM25 equals one index bit for bit on SciFact (every query; 2 and 3 Workers; filters; exact)', async (t) => {
  const data = scifact(t);
  if (!data) return;
  const options = { fields: [{ name: 'title', boost: 2 }, 'text'] };
  const one = Bm25Index.create(options);
  one.add(data.docs);
  for (const workers of [2, 3]) {
    const sharded = await ShardedBm25Index.create(options, { workers });
    try {
      assert.equal(sharded.shards, workers);
      // added in two batches: statistics are re-summed after each write
      const half = Math.floor(data.docs.length / 2);
      assert.deepEqual(await sharded.add(data.docs.slice(0, half)), { added: half, updated: 0, removed: 0, skipped: 0 });
      await sharded.add(data.docs.slice(half));
      assert.equal(sharded.size, data.docs.length);
      const stats = await sharded.collectionStats();
      const own = one.collectionStats();
      assert.equal(stats.documents, own.documents);
      assert.deepEqual(stats.fieldLengths, own.fieldLengths);
      assert.equal(stats.terms.length, own.terms.length);
      // all 1,109 queries with 2 Workers; a subset with 3 (keeps the test to seconds)
      const qs = workers === 2 ? data.queries : data.queries.slice(0, 300);
      const exactOptions = { k: 10, exact: true };
      for (const [opts, queries] of [
        [{ k: 10 }, qs],
        [{ k: 100 }, qs.slice(0, 100)],
        [{ k: 20, filter: { bucket: [1, 3] } }, qs.slice(100, 200)],
        [exactOptions, qs.slice(200, 300)],
      ]) {
        const got = await sharded.searchMany(queries, opts);
        let hits = 0;
        for (let q = 0; q < queries.length; q++) {
          const want = one.search(queries[q], opts);
          hits += want.length;
          // deepEqual on numbers is Object.is: the float scores must be identical, not close
          assert.deepEqual(got[q], want, `workers ${workers}, query ${q} ${JSON.stringify(opts)}`);
        }
        assert.ok(hits > queries.length, 'the queries find documents');
      }
      assert.deepEqual(exactOptions, { k: 10, exact: true }, 'search does not rewrite the caller\'s options');
      if (workers === 3) {
        // the check can fail: shards left with their own statistics score differently
        await sharded.add([{ id: 'extra', text: 'one more document' }]);
        one.add([{ id: 'extra', text: 'one more document' }]);
        sharded._statsDirty = false;  // white box: skip re-summing after this write
        const local = await sharded.searchMany(data.queries.slice(0, 50), { k: 10 });
        assert.ok(data.queries.slice(0, 50).some((q, i) => JSON.stringify(local[i]) !== JSON.stringify(one.search(q, { k: 10 }))));
      }
    } finally {
      await sharded.dispose();
    }
  }
  one.dispose();
});

test('sharded BM25 with workers: 1 runs in this thread and equals one index', async () => {
  const docs = Array.from({ length: 300 }, (_, i) => ({ id: `d${i}`, text: `alpha beta ${i % 7 === 0 ? 'gamma' : 'delta'} word${i % 13}` }));
  const pool = await WorkerPool.create({ workers: 1 });
  assert.equal(pool.parallel, false);
  const sharded = await ShardedBm25Index.create({}, { pool });
  const one = Bm25Index.create({});
  await sharded.add(docs);
  one.add(docs);
  for (const q of ['gamma', 'alpha word3', 'delta word12 beta']) assert.deepEqual(await sharded.search(q, { k: 50 }), one.search(q, { k: 50 }));
  await sharded.dispose();
  await pool.terminate();
  one.dispose();
});

test('ShardedBm25Index.create({}, { pool, shards }) puts fewer shards than Workers on the first Workers and still equals one index', async () => {
  const docs = Array.from({ length: 500 }, (_, i) => ({ id: `d${i}`, title: `t${i % 11}`, text: `alpha ${i % 3 ? 'beta' : 'gamma'} word${i % 17} more${i % 5}` }));
  const one = Bm25Index.create({});
  one.add(docs);
  const pool = await WorkerPool.create({ workers: 3 });
  try {
    for (const shards of [1, 2]) {
      const ix = await ShardedBm25Index.create({}, { pool, shards });
      // the Workers past the shards are free: an embedding in the same pool runs beside the add
      const emb = await createParallelEmbedder({ model: requireStaticModel(), pool });
      const [, vectors] = await Promise.all([ix.add(docs), emb.embedDocuments(docs)]);
      assert.equal(vectors.length, docs.length);
      assert.equal(ix.shards, shards);
      assert.equal(ix.size, docs.length);
      for (const q of ['gamma word3', 'beta more4 t2', 'alpha', 'zzz']) assert.deepEqual(await ix.search(q, { k: 40 }), one.search(q, { k: 40 }), `shards ${shards}: ${q}`);
      const byTerm = ({ terms, df, ...rest }) => ({ ...rest, df: new Map(terms.map((t, i) => [t, df[i]])) });  // shards list terms in their own order
      assert.deepEqual(byTerm(await ix.collectionStats()), byTerm(one.collectionStats()));
      assert.equal((await ix.remove(['d3', 'd4'])).removed, 2);
      const after = Bm25Index.create({});
      after.add(docs.filter((d) => d.id !== 'd3' && d.id !== 'd4'));
      assert.deepEqual(await ix.search('gamma word3', { k: 40 }), after.search('gamma word3', { k: 40 }));
      after.dispose();
      const bytes = await ix.toBytes();
      const loaded = await ShardedBm25Index.fromBytes(bytes);  // a pool of the saved shard count
      assert.equal(loaded.shards, shards);
      assert.deepEqual(await loaded.search('alpha beta', { k: 40 }), await ix.search('alpha beta', { k: 40 }));
      await loaded.dispose();
      await ix.dispose();
    }
    for (const bad of [0, 4, 1.5, '1']) {
      await assert.rejects(ShardedBm25Index.create({}, { pool, shards: bad }), (e) => e instanceof RagwasmError && e.code === 'INVALID_ARGUMENT' && /shards/.test(e.message), String(bad));
    }
  } finally {
    await pool.terminate();
    one.dispose();
  }
});

test('the statistics sync after a write runs in the background, and a write that overtakes it leaves scores equal to one index', async () => {
  const rand = seededRandom(1818);
  const words = Array.from({ length: 300 }, (_, i) => `w${i.toString(36)}`);
  const doc = (i) => ({ id: `d${i}`, text: Array.from({ length: 5 + Math.floor(rand() * 30) }, () => words[Math.floor(rand() ** 2 * words.length)]).join(' ') });
  const docs = Array.from({ length: 3000 }, (_, i) => doc(i));
  const queries = Array.from({ length: 40 }, () => `${words[Math.floor(rand() * 300)]} ${words[Math.floor(rand() * 300)]} ${words[Math.floor(rand() * 60)]}`);
  const one = Bm25Index.create({});
  const sharded = await ShardedBm25Index.create({}, { workers: 2 });
  const macrotask = () => new Promise((r) => setTimeout(r, 0));
  try {
    one.add(docs.slice(0, 1000));
    await sharded.add(docs.slice(0, 1000));
    // no search yet: the sync starts by itself once the event loop is idle
    for (let i = 0; i < 50 && (sharded._statsDirty || sharded._syncing !== null); i++) await macrotask();
    assert.equal(sharded._statsDirty, false, 'the background sync ran after the write');
    assert.deepEqual(await sharded.searchMany(queries, { k: 20 }), queries.map((q) => one.search(q, { k: 20 })));
    // a write posted while a background sync is under way: that sync's totals are stale and not used
    one.add(docs.slice(1000, 2000));
    await sharded.add(docs.slice(1000, 2000));
    await macrotask();  // the background sync has started (its stats requests are posted)
    const racing = sharded.add(docs.slice(2000));
    one.add(docs.slice(2000));
    await racing;
    assert.deepEqual(await sharded.searchMany(queries, { k: 20 }), queries.map((q) => one.search(q, { k: 20 })));
    // writes in a loop with no pause: correct whether or not a background sync ran in between
    const more = Array.from({ length: 600 }, (_, i) => doc(3000 + i));
    for (let b = 0; b < 600; b += 100) {
      one.add(more.slice(b, b + 100));
      await sharded.add(more.slice(b, b + 100));
    }
    assert.deepEqual(await sharded.searchMany(queries, { k: 20 }), queries.map((q) => one.search(q, { k: 20 })));
  } finally {
    await sharded.dispose();
    one.dispose();
  }
});

test('the statistics sync sums the shards\' raw statistics as sumStats does, each shard getting its own terms\' totals (non-ASCII terms too)', () => {
  const rand = seededRandom(4242);
  // many overlapping words (the byte-string table probes past collisions), accented and CJK terms
  const words = [...Array.from({ length: 4000 }, (_, i) => `t${(i * 7919).toString(36)}`), 'café', 'cafe', 'naïve', '東京', '東京都', 'ß', 'ss'];
  const shards = [0, 1, 2].map((s) => {
    const ix = Bm25Index.create({ fields: ['text'], analyzer: { stemmer: 'none', stopwords: false, foldAccents: false } });
    ix.add(Array.from({ length: 400 }, (_, i) => ({ id: `s${s}d${i}`, text: Array.from({ length: 20 }, () => words[Math.floor(rand() ** (s + 1) * words.length)]).join(' ') })));
    return ix;
  });
  try {
    const stats = shards.map((x) => x.collectionStats());
    const sum = Bm25Index.sumStats(stats);
    const at = new Map(sum.terms.map((t, i) => [t, sum.df[i]]));
    const got = Bm25Index._globalDf(shards.map((x) => x._rawStats()));
    assert.equal(got.documents, sum.documents);
    assert.deepEqual(got.fieldLengths, sum.fieldLengths);
    assert.ok(stats.some((st) => st.terms.includes('東京')) && stats.some((st) => st.terms.includes('café')));
    stats.forEach((st, i) => {
      assert.ok(got.df[i] instanceof Uint32Array);
      assert.deepEqual(Array.from(got.df[i]), st.terms.map((t) => at.get(t)), `shard ${i}`);
    });
    assert.throws(() => Bm25Index._globalDf([shards[0]._rawStats(), { ...shards[1]._rawStats(), fieldLengths: new Float64Array(2) }]), /stats\[1\]\.fieldLengths/);
  } finally {
    for (const x of shards) x.dispose();
  }
});

test('WorkerPool.create({ warm: true }) warms every Worker at start and changes no result; warm must be a boolean', async () => {
  const docs = Array.from({ length: 500 }, (_, i) => ({ id: `d${i}`, text: `alpha beta ${i % 7 === 0 ? 'gamma' : 'delta'} word${i % 13} warm${i % 3}` }));
  const one = Bm25Index.create({});
  one.add(docs);
  for (const options of [{ workers: 2, warm: true }, { workers: 1, warm: true }]) {
    const pool = await WorkerPool.create(options);
    try {
      const sharded = await ShardedBm25Index.create({}, { pool });
      await sharded.add(docs);
      for (const q of ['gamma', 'alpha word3 kalo', 'delta word12 beta']) assert.deepEqual(await sharded.search(q, { k: 50 }), one.search(q, { k: 50 }));
      await sharded.dispose();
    } finally {
      await pool.terminate();
    }
  }
  one.dispose();
  await assert.rejects(WorkerPool.create({ workers: 2, warm: 'yes' }), (e) => e instanceof RagwasmError && e.code === 'INVALID_ARGUMENT' && /options\.warm/.test(e.message));
});

test('ties across shards are broken by id bytewise (UTF-8 order, not UTF-16)', async () => {
  // equal documents: equal scores; ids chosen so UTF-16 and UTF-8 orders differ ('\u{1F600}' > '\uFF5E' in UTF-8)
  const ids = ['b', 'a', '\uFF5E', '\u{1F600}', 'a\u{1F600}', 'a\uFF5E', 'c', 'aa'];
  const docs = ids.map((id) => ({ id, text: 'same words here' }));
  const one = Bm25Index.create({});
  one.add(docs);
  const sharded = await ShardedBm25Index.create({}, { workers: 3 });
  await sharded.add(docs);
  const got = await sharded.search('words', { k: 8 });
  assert.deepEqual(got, one.search('words', { k: 8 }));
  assert.deepEqual(got.map((h) => h.id), ['a', 'aa', 'a\uFF5E', 'a\u{1F600}', 'b', 'c', '\uFF5E', '\u{1F600}']);
  await sharded.dispose();
  one.dispose();
});

test('sharded flat vectors equal one VectorIndex (f32 cosine, int8 dot; ties in insertion order)', async () => {
  const seed = 1127;
  const rand = seededRandom(seed);
  const dim = 48;
  const n = 6000;
  const items = [];
  for (let i = 0; i < n; i++) {
    // every 10th vector repeats an earlier one: equal scores, ordered by insertion
    const v = i % 10 === 9 ? items[i - 5].vector : Float32Array.from({ length: dim }, () => rand() * 2 - 1);
    items.push({ id: `v${(i * 7919) % n}`, vector: v });
  }
  const queries = Array.from({ length: 40 }, () => Float32Array.from({ length: dim }, () => rand() * 2 - 1));
  for (const options of [{ dimension: dim }, { dimension: dim, metric: 'dot', storage: 'int8' }]) {
    const one = VectorIndex.create(options);
    one.add(items);
    const sharded = await ShardedVectorIndex.create(options, { workers: 2 });
    await sharded.add(items.slice(0, 2500));
    await sharded.add(items.slice(2500));
    assert.equal(sharded.size, n);
    const got = await sharded.searchMany(queries, { k: 25 });
    for (let q = 0; q < queries.length; q++) assert.deepEqual(got[q], one.search(queries[q], { k: 25 }), `seed ${seed} query ${q} ${JSON.stringify(options)}`);
    // a query equal to a repeated vector: the tie is decided by insertion order
    assert.deepEqual(await sharded.search(items[4].vector, { k: 4 }), one.search(items[4].vector, { k: 4 }));
    await sharded.dispose();
    one.dispose();
  }
});

test('a bad document in a Worker gives RagwasmError naming the caller index, and nothing is written', async () => {
  const sharded = await ShardedBm25Index.create({}, { workers: 2 });
  try {
    await sharded.add([{ id: 'keep', text: 'kept document' }]);
    const batch = Array.from({ length: 50 }, (_, i) => ({ id: `n${i}`, text: `new document ${i}` }));
    batch[37] = { id: 'n37', text: 42 };
    await assert.rejects(sharded.add(batch), (e) => e instanceof RagwasmError && e.code === 'INVALID_ARGUMENT' && /docs\[37\]\.text/.test(e.message));
    assert.equal(sharded.size, 1);
    assert.deepEqual((await sharded.search('new document', { k: 100 })).map((h) => h.id), ['keep']);
    // an id already indexed: DUPLICATE_ID, again nothing of the batch stays
    await assert.rejects(sharded.add([{ id: 'x1', text: 'new' }, { id: 'keep', text: 'again' }]), (e) => e.code === 'DUPLICATE_ID' && /docs\[1\]/.test(e.message));
    assert.deepEqual((await sharded.search('new', { k: 10 })).map((h) => h.id), []);
    await assert.rejects(sharded.search('x', { rm3: true }), (e) => e.code === 'INVALID_ARGUMENT');
  } finally {
    await sharded.dispose();
  }
  const vectors = await ShardedVectorIndex.create({ dimension: 3 }, { workers: 2 });
  try {
    await assert.rejects(vectors.add([{ id: 'a', vector: [1, 0, 0] }, { id: 'b', vector: [1, 2] }]), (e) => e.code === 'DIMENSION_MISMATCH');
    await vectors.add(Array.from({ length: 20 }, (_, i) => ({ id: `v${i}`, vector: [1, i, 0] })));
    await assert.rejects(vectors.add([{ id: 'w', vector: [0, 1, 0] }, { id: 'v3', vector: [1, 1, 1] }]), (e) => e.code === 'DUPLICATE_ID');
    assert.equal(vectors.size, 20);
    assert.equal((await vectors.search([0, 1, 0], { k: 30 })).length, 20, 'w was rolled back');
  } finally {
    await vectors.dispose();
  }
  await assert.rejects(ShardedVectorIndex.create({ dimension: 3, index: 'hnsw' }, { workers: 2 }), (e) => e.code === 'INVALID_ARGUMENT');
  await assert.rejects(ShardedBm25Index.create({ scorer: 'nope' }, { workers: 2 }), (e) => e.code === 'INVALID_ARGUMENT');
});

test('terminate() rejects pending and later calls with DISPOSED; an idle pool does not keep Node alive', async () => {
  const pool = await WorkerPool.create({ workers: 2 });
  const idx = await ShardedBm25Index.create({}, { pool });
  const docs = Array.from({ length: 20000 }, (_, i) => ({ id: `d${i}`, text: `words of document ${i} `.repeat(20) }));
  const pending = assert.rejects(idx.add(docs), (e) => e instanceof RagwasmError && e.code === 'DISPOSED');
  await pool.terminate();
  await pending;
  await assert.rejects(idx.search('words'), (e) => e.code === 'DISPOSED');
  await assert.rejects(ShardedBm25Index.create({}, { pool }), (e) => e.code === 'DISPOSED');
  // a child process that creates a pool and never terminates it must still exit by itself
  const entry = join(repoRoot, 'web/src/index.js');
  const parallelEntry = join(repoRoot, 'web/src/parallel.js');
  const out = execFileSync(process.execPath, ['--input-type=module', '-e',
    `const m = await import(${JSON.stringify(entry)}); const par = await import(${JSON.stringify(parallelEntry)});
     await m.init(); const p = await par.WorkerPool.create({ workers: 2 });
     const i = await par.ShardedBm25Index.create({}, { pool: p }); await i.add([{ id: 'a', text: 'b' }]); console.log((await i.search('b'))[0].id);`],
  { encoding: 'utf8', timeout: 60000 });
  assert.equal(out.trim(), 'a');
});

test('the parallel static embedder returns StaticEmbedder vectors bit for bit', async (t) => {
  requireStaticModel();
  const data = scifact(t);
  if (!data) return;
  const texts = data.docs.slice(0, 1500).map((d) => `${d.title} ${d.text}`);
  const bytes = readFileSync(STATIC_MODEL);
  const one = StaticEmbedder.fromBytes(bytes);
  const par = await createParallelEmbedder({ model: bytes, workers: 2, batch: 500 });
  try {
    assert.equal(par.id, one.id);
    assert.equal(par.dimension, one.dimension);
    const progress = [];
    const got = await par.embed(texts, { onProgress: (p) => progress.push(p.done) });
    const want = one.embedSync(texts);
    assert.equal(got.length, texts.length);
    for (let i = 0; i < texts.length; i++) assert.deepEqual(got[i], want[i], `text ${i}`);
    assert.equal(progress.at(-1), texts.length);
    // batches of at most `batch` texts, each a quarter of what is left (2 Workers), at least 64, so both
    // Workers finish together. Batches complete in whatever order the Workers run (a descheduled Worker
    // can finish its larger batch last), so the sizes are compared as a set, not in completion order.
    const steps = progress.map((d, i) => d - (i === 0 ? 0 : progress[i - 1]));
    assert.deepEqual(steps.toSorted((a, b) => b - a), [375, 282, 211, 158, 119, 89, 67, 64, 64, 64, 7], `batch sizes ${steps}`);
    await assert.rejects(par.embed([]), (e) => e.code === 'INVALID_ARGUMENT');
    await assert.rejects(par.embed(['ok', 7]), (e) => e.code === 'INVALID_ARGUMENT' && /texts\[1\]/.test(e.message));
  } finally {
    await par.dispose();
    one.dispose();
  }
});

test('embedDocuments returns the vectors of the joined fields bit for bit, with 1 and 2 Workers', async (t) => {
  requireStaticModel();
  const data = scifact(t);
  if (!data) return;
  const docs = data.docs.slice(0, 1200).map(({ id, title, text }) => ({ id, title, text }));
  // left out: a null / undefined title, an empty title (kept: the text starts with the space), lone
  // surrogates at the parts' edges (each becomes U+FFFD, as in the joined string), a missing text
  docs[3].title = null;
  docs[4].title = undefined;
  docs[5].title = '';
  docs[6] = { id: docs[6].id, title: 'alpha \ud800', text: '\udc00 beta' };
  docs[7] = { id: docs[7].id, title: 'only a title' };
  const joined = (d, fields) => fields.map((f) => d[f]).filter((v) => v !== undefined && v !== null).join(' ');
  const one = StaticEmbedder.fromBytes(readFileSync(STATIC_MODEL));
  try {
    for (const workers of [1, 2]) {
      const par = await createParallelEmbedder({ model: readFileSync(STATIC_MODEL), workers, batch: 300 });
      try {
        for (const fields of [undefined, ['text'], ['text', 'title', 'id']]) {
          const want = one.embedSync(docs.map((d) => joined(d, fields ?? ['title', 'text'])));
          const progress = [];
          const got = await par.embedDocuments(docs, fields === undefined ? { onProgress: (p) => progress.push(p.done) } : { fields });
          assert.equal(got.length, docs.length);
          for (let i = 0; i < docs.length; i++) assert.deepEqual(got[i], want[i], `workers ${workers}, fields ${fields}, document ${i}`);
          if (fields === undefined) assert.equal(progress.at(-1), docs.length);
        }
        await assert.rejects(par.embedDocuments([]), (e) => e.code === 'INVALID_ARGUMENT' && /documents/.test(e.message));
        await assert.rejects(par.embedDocuments([{ text: 'a' }, 'b']), (e) => e.code === 'INVALID_ARGUMENT' && /documents\[1\]/.test(e.message));
        await assert.rejects(par.embedDocuments([{ text: 'a' }, { title: 7, text: 'b' }]), (e) => e.code === 'INVALID_ARGUMENT' && /documents\[1\]\.title/.test(e.message));
        await assert.rejects(par.embedDocuments([{ text: 'a' }], { fields: [] }), (e) => e.code === 'INVALID_ARGUMENT' && /fields/.test(e.message));
        await assert.rejects(par.embedDocuments([{ text: 'a' }], { fields: ['text', 3] }), (e) => e.code === 'INVALID_ARGUMENT' && /fields\[1\]/.test(e.message));
        await assert.rejects(par.embedDocuments([{ text: 'a' }], { field: ['text'] }), (e) => e.code === 'INVALID_ARGUMENT' && /unknown option 'field'/.test(e.message));
      } finally {
        await par.dispose();
      }
    }
  } finally {
    one.dispose();
  }
});

test('Collection.create({workers: 2}) embeds across Workers and saves the same bytes as workers: 1', async (t) => {
  requireStaticModel();
  const data = scifact(t);
  if (!data) return;
  const docs = data.docs.slice(0, 400).map(({ id, title, text }) => ({ id, title, text }));
  const a = await Collection.create({}, { workers: 2 });
  const b = await Collection.create({}, { workers: 1 });
  try {
    await a.add(docs);
    await b.add(docs);
    assert.deepEqual(await a.toBytes(), b.toBytes());
    assert.deepEqual(await a.search('cerebral white matter', { k: 5 }), await b.search('cerebral white matter', { k: 5 }));
    await assert.rejects(Collection.create({}, { workers: 2, embedder: async (x) => x.map(() => new Float32Array(2)), dimension: 2 }), (e) => e.code === 'INVALID_ARGUMENT');
  } finally {
    a.dispose();
    b.dispose();
  }
});

test('a sharded BM25 index saves in the sharded format and loads into a pool of the same size', async () => {
  const docs = Array.from({ length: 400 }, (_, i) => ({ id: `d${i}`, title: `t${i % 9}`, text: `alpha ${i % 3 ? 'beta' : 'gamma'} word${i % 17} more${i % 5}` }));
  const one = Bm25Index.create({});
  one.add(docs);
  const a = await ShardedBm25Index.create({}, { workers: 2 });
  await a.add(docs);
  const bytes = await a.toBytes();
  await a.dispose();
  assert.equal(new TextDecoder().decode(bytes.subarray(0, 8)), 'RWSHBM25');
  const b = await ShardedBm25Index.fromBytes(bytes);
  try {
    assert.equal(b.shards, 2);
    assert.equal(b.size, docs.length);
    for (const q of ['gamma word3', 'beta more4 t2', 'alpha']) assert.deepEqual(await b.search(q, { k: 30 }), one.search(q, { k: 30 }));
    assert.deepEqual(await b.toBytes(), bytes, 'saving again gives the same bytes');
  } finally {
    await b.dispose();
  }
  const bad = bytes.slice();
  bad[bad.length - 40] ^= 1;
  await assert.rejects(ShardedBm25Index.fromBytes(bad), (e) => e.code === 'CORRUPT_INDEX');
  await assert.rejects(ShardedBm25Index.fromBytes(bytes, { workers: 3 }), (e) => e.code === 'INVALID_ARGUMENT' && /2 Workers/.test(e.message));
  one.dispose();
});

test('a sharded vector index saves its shards and insertion order and loads into a pool of the same size', async () => {
  const rand = seededRandom(77);
  const items = Array.from({ length: 500 }, (_, i) => ({ id: `v${i}`, vector: Float32Array.from({ length: 8 }, () => rand() - 0.5) }));
  items[300].vector = items[100].vector;  // a tie decided by insertion order
  const one = VectorIndex.create({ dimension: 8, storage: 'int8' });
  one.add(items);
  const a = await ShardedVectorIndex.create({ dimension: 8, storage: 'int8' }, { workers: 2 });
  await a.add(items.slice(0, 250));
  await a.add(items.slice(250));
  const bytes = await a.toBytes();
  await a.dispose();
  const b = await ShardedVectorIndex.fromBytes(bytes);
  try {
    assert.equal(b.size, 500);
    assert.equal(b.dimension, 8);
    for (const q of [items[100].vector, items[7].vector]) assert.deepEqual(await b.search(q, { k: 12 }), one.search(q, { k: 12 }));
    // vectors added after loading continue the insertion order
    const extra = { id: 'late', vector: items[100].vector };
    one.add([extra]);
    await b.add([extra]);
    assert.deepEqual(await b.search(items[100].vector, { k: 5 }), one.search(items[100].vector, { k: 5 }));
  } finally {
    await b.dispose();
  }
  const bad = bytes.slice();
  bad[20] ^= 1;
  await assert.rejects(ShardedVectorIndex.fromBytes(bad), (e) => e.code === 'CORRUPT_INDEX');
  one.dispose();
});
