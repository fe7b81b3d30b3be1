// ragwasm/postgres against PGlite (PostgreSQL 17 compiled to WASM, with pgvector; no server): the
// exported SciFact subset searched in SQL returns the in-browser BM25 lists and scores (equal to the
// last bit: float8 impacts added in query-term order), dense exact search equals the flat index,
// re-export is idempotent, and schema version mismatches and malformed URLs are clear errors.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Collection, createStaticEmbedder, init } from '../../web/src/index.js';
import { exportToPostgres, parsePostgresUrl, PostgresRetriever } from '../../web/src/postgres.js';
import { loadBeir } from '../../web/cli/datasets.mjs';
import { DEFAULT_MODEL } from '../../web/cli/lib/retrievers.mjs';
import { sharedPath } from './helpers.mjs';
import { bm25Agreement, sameRankingUpToTies, startPglite } from './postgres-helpers.mjs';

await init();
const scifact = sharedPath('data/scifact/corpus.jsonl') ? loadBeir(sharedPath('data/scifact')) : null;
const SKIP = scifact ? false : 'needs ../shared/data/scifact (not found)';
// Subset: the first 300 documents, recursive 400/50 chunks, the first 100 test queries.
const N_DOCS = 300;
const N_QUERIES = 100;

let db;
let embedder;
let col;
test.before(async () => {
  if (SKIP) return;
  embedder = await createStaticEmbedder({ model: readFileSync(DEFAULT_MODEL), cache: false });
  col = await Collection.create({ chunker: { strategy: 'recursive', chunkSize: 400, chunkOverlap: 50 } }, { embedder, keepVectors: true });
  await col.add(scifact.corpus.slice(0, N_DOCS).map((d) => ({ id: d.id, text: `${d.title} ${d.text}`, metadata: { title: d.title } })));
  db = await startPglite();
});
test.after(async () => {
  await db?.close();
  col?.dispose();
  embedder?.dispose();
});

test('an exported collection searched with BM25 in PGlite gives the in-browser top-10 lists and scores', { skip: SKIP }, async () => {
  const phases = new Set();
  const r = await exportToPostgres(col, db, { batchSize: 500, onProgress: (p) => phases.add(p.phase) });
  assert.equal(r.documents, N_DOCS);
  assert.equal(r.upserted, N_DOCS);
  assert.equal(r.vectors, true);
  assert.ok(r.impacts > 0);
  assert.deepEqual([...phases].sort(), ['documents', 'impacts']);
  const counts = (await db.query('SELECT (SELECT count(*) FROM ragwasm.chunks)::int AS c, (SELECT count(*) FROM ragwasm.embeddings)::int AS e, (SELECT count(*) FROM ragwasm.bm25_impacts)::int AS i')).rows[0];
  assert.deepEqual(counts, { c: col.chunks.size, e: col.chunks.size, i: r.impacts });
  const pr = await PostgresRetriever.open(db, { embedder });
  try {
    const a = await bm25Agreement(col, pr, scifact.queries.slice(0, N_QUERIES), 10);
    assert.equal(a.listsDiffer, 0, `queries with other top-10 lists: ${a.differing.join(', ')}`);
    assert.ok(a.maxScoreDiff <= 1e-12, `max |score difference| ${a.maxScoreDiff} (float8 sums in query-term order: expected 0)`);
  } finally {
    pr.dispose();
  }
});

test('PostgresRetriever.search takes k in [1, 100000] like every search entry point (docs/api.md)', { skip: SKIP }, async () => {
  const pr = await PostgresRetriever.open(db, { embedder });
  try {
    for (const k of [0, -1, 100001, 2.5]) {
      await assert.rejects(pr.search('cancer cells', { k }), (e) => e.code === 'INVALID_ARGUMENT'
        && (Number.isInteger(k) ? e.message.endsWith(`options.k: expected an integer in [1, 100000], got ${k}`) : /options\.k: expected an integer/.test(e.message)));
    }
    assert.equal((await pr.search('cancer cells', { k: 1 })).length, 1);
  } finally {
    pr.dispose();
  }
});

test('dense exact search in PGlite equals the in-browser flat index and hybrid fuses the same lists', { skip: SKIP }, async () => {
  const pr = await PostgresRetriever.open(db, { embedder });
  try {
    for (const q of scifact.queries.slice(0, 30)) {
      const [qv] = embedder.embedSync([q.text]);
      const a = col.dense.search(qv, { k: 10 });
      const b = await pr.searchDense(q.text, 10, { exact: true });
      // pgvector computes the cosine in float4 arithmetic, the flat index in its own order: 1e-5 tolerance.
      assert.ok(sameRankingUpToTies(a, b, 1e-5), `query ${q.id}: ${a.map((h) => h.id)} vs ${b.map((h) => h.id)}`);
      for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i].score - b.find((h) => h.id === a[i].id).score) <= 1e-5);
      const fa = await col.search(q.text, { k: 10 });
      const fb = await pr.search(q.text, { k: 10, exact: true });
      assert.ok(sameRankingUpToTies(fa, fb, 1e-5), `hybrid query ${q.id}: ${fa.map((h) => `${h.id} ${h.score}`)} vs ${fb.map((h) => `${h.id} ${h.score}`)}`);
    }
  } finally {
    pr.dispose();
  }
});

test('re-export writes only changed documents and deletes removed ones', { skip: SKIP }, async () => {
  const again = await exportToPostgres(col, db);
  assert.equal(again.upserted, 0);
  assert.equal(again.removed, 0);
  assert.equal(again.impacts, null, 'statistics unchanged: the impact table is kept');
  const gone = scifact.corpus[0].id;
  const changed = scifact.corpus[1];
  col.remove([gone]);
  await col.add([{ id: changed.id, text: `${changed.title} ${changed.text} Extra words about zebrafish.`, metadata: { title: changed.title } }]);
  const r = await exportToPostgres(col, db);
  assert.equal(r.removed, 1);
  assert.equal(r.upserted, 1);
  assert.ok(r.impacts > 0, 'statistics changed: impacts rebuilt');
  assert.equal((await db.query('SELECT count(*)::int AS n FROM ragwasm.chunks WHERE doc_id = $1', [gone])).rows[0].n, 0);
  assert.equal((await db.query('SELECT count(*)::int AS n FROM ragwasm.chunks')).rows[0].n, col.chunks.size);
  const pr = await PostgresRetriever.open(db, { embedder });
  try {
    const a = await bm25Agreement(col, pr, [...scifact.queries.slice(0, 20), { id: 'z', text: 'zebrafish' }], 10);
    assert.equal(a.listsDiffer, 0);
    assert.equal(a.maxScoreDiff, 0);
  } finally {
    pr.dispose();
  }
});

test('a schema of another version is refused by export and search', { skip: SKIP }, async () => {
  const small = await Collection.create({ indexes: { bm25: {} } });
  try {
    await small.add([{ id: 'a', text: 'apples and pears' }]);
    await exportToPostgres(small, db, { schema: 'older' });
    await db.query("UPDATE older.meta SET value = '99'::jsonb WHERE key = 'schema_version'");
    await assert.rejects(exportToPostgres(small, db, { schema: 'older' }), (e) => e.code === 'UNSUPPORTED_VERSION' && /version 99/.test(e.message) && /reads version 1/.test(e.message));
    await assert.rejects(PostgresRetriever.open(db, { schema: 'older' }), (e) => e.code === 'UNSUPPORTED_VERSION');
    await assert.rejects(PostgresRetriever.open(db, { schema: 'nothing_here' }), (e) => e.code === 'NOT_FOUND' && /nothing_here/.test(e.message));
    await assert.rejects(exportToPostgres(small, db, { schema: 'Bad-Name' }), (e) => e.code === 'INVALID_ARGUMENT' && /options.schema/.test(e.message));
  } finally {
    small.dispose();
  }
});

test('a malformed postgres URL is an INVALID_ARGUMENT error that never shows the password', () => {
  for (const url of ['postgres://user:s3cret@host:99999/db', 'mysql://user:s3cret@host/db', 'not a url s3cret', 'postgres://user:s3cret@[bad/db']) {
    assert.throws(() => parsePostgresUrl(url), (e) => e.code === 'INVALID_ARGUMENT' && !e.message.includes('s3cret'), url);
  }
  assert.equal(parsePostgresUrl('postgresql://u:p@127.0.0.1:5432/x').port, '5432');
});
