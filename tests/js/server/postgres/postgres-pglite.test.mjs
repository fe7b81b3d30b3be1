// ragwasm/postgres against PGlite (PostgreSQL 17 compiled to WASM, with pgvector; no server): the
// exported SciFact subset searched in SQL returns the in-browser BM25 lists and scores (equal to the
// last bit: float8 impacts added in query-term order), dense exact search equals the flat index,
// re-export is idempotent, and schema version mismatches and malformed URLs are clear errors.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Collection, createStaticEmbedder, init } from '../../../../web/src/index.js';
import { checkExport, csvFilesClient, exportToPostgres, parsePostgresUrl, PostgresRetriever, sqlFileClient } from '../../../../web/src/postgres.js';
import { loadBeir } from '../../../../web/cli/datasets.mjs';
import { DEFAULT_MODEL } from '../../../../web/cli/lib/retrievers.mjs';
import { sharedPath } from '../../helpers.mjs';
import { bm25Agreement, sameRankingUpToTies, startPglite } from '../../postgres-helpers.mjs';

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

// #30: the PostgreSQL path as an edge to trust (no ../shared needed: small collections, one PGlite).
const FRUIT = [
  { id: 'f1', text: 'The runner was running past the orchard of apples.' },
  { id: 'f2', text: 'Runs of pears and apples in the running season.' },
  { id: 'f3', text: 'A cherry tree; running water nearby.' },
  { id: 'f4', text: 'Quiet library with old books.' },
];
async function fruitCollection(analyzer = {}, dense = true) {
  const e = dense ? await createStaticEmbedder({ model: readFileSync(DEFAULT_MODEL), cache: false }) : null;
  const c = await Collection.create({ chunker: { strategy: 'recursive', chunkSize: 1000, chunkOverlap: 0 }, indexes: { bm25: { analyzer }, ...(dense ? { dense: {} } : {}) } },
    dense ? { embedder: e, keepVectors: true } : {});
  await c.add(FRUIT);
  return { col: c, embedder: e, dispose() { c.dispose(); e?.dispose(); } };
}

test('meta rows are checked before use: a vector type holding SQL, odd configs and unknown keys are CORRUPT_INDEX (#30 P-1, P-5)', async () => {
  const pg = await startPglite();
  const f = await fruitCollection();
  try {
    await exportToPostgres(f.col, pg, { schema: 'tamper' });
    await pg.query('CREATE TABLE public.canary (x int)');
    const set = (key, json) => pg.query('UPDATE tamper.meta SET value = $2::jsonb WHERE key = $1', [key, json]);
    const saved = Object.fromEntries((await pg.query('SELECT key, value::text AS v FROM tamper.meta')).rows.map((r) => [r.key, r.v]));
    const cases = [
      ['vectors', JSON.stringify({ type: 'vector) AS d FROM tamper.chunks; DROP TABLE public.canary; --', dimension: f.col.dimension, metric: 'cosine' })],
      ['vectors', JSON.stringify({ type: 'vector', dimension: -1, metric: 'cosine' })],
      ['config', 'null'], ['config', '5'], ['config', JSON.stringify({ indexes: { bm25: { k1: 'x' } } })],
      ['counts', '"many"'], ['bm25_stats', '{"documents": -1}'], ['bm25_fingerprint', '"1; DROP"'], ['created_by', '"someone"'],
    ];
    for (const [key, json] of cases) {
      await set(key, json);
      await assert.rejects(async () => {
        const pr = await PostgresRetriever.open(pg, { schema: 'tamper', embedder: f.embedder });
        try { await pr.search('running apples', { retriever: 'dense' }); } finally { pr.dispose(); }
      }, (e) => e.code === 'CORRUPT_INDEX' && e.message.includes(`"tamper"`) && e.message.includes(key), `${key} = ${json}`);
      await set(key, saved[key]);
    }
    await pg.query("INSERT INTO tamper.meta VALUES ('surprise', '1')");
    await assert.rejects(PostgresRetriever.open(pg, { schema: 'tamper' }), (e) => e.code === 'CORRUPT_INDEX' && /surprise/.test(e.message));
    await assert.rejects(exportToPostgres(f.col, pg, { schema: 'tamper' }), (e) => e.code === 'CORRUPT_INDEX');
    assert.equal((await pg.query("SELECT to_regclass('public.canary') AS t")).rows[0].t, 'canary', 'no SQL from meta ran');
  } finally {
    f.dispose();
    await pg.close();
  }
});

test('reserved words are valid schema names (always quoted), pg_* is refused before any query (#30 P-6)', async () => {
  const pg = await startPglite();
  const f = await fruitCollection();
  try {
    for (const schema of ['select', 'user', 'table']) {
      const r = await exportToPostgres(f.col, pg, { schema });
      assert.equal(r.documents, 4);
      const pr = await PostgresRetriever.open(pg, { schema, embedder: f.embedder });
      try {
        assert.deepEqual((await pr.search('running', { retriever: 'bm25' })).map((h) => h.id), f.col.bm25.search('running', { k: 10 }).map((h) => h.id));
        assert.equal((await pr.search('apples', { retriever: 'dense', exact: true })).length > 0, true);
      } finally {
        pr.dispose();
      }
      assert.equal((await checkExport(f.col, pg, { schema })).ok, true);
    }
    let queries = 0;
    const counting = { query: (...a) => { queries++; return pg.query(...a); } };
    await assert.rejects(exportToPostgres(f.col, counting, { schema: 'pg_mine' }), (e) => e.code === 'INVALID_ARGUMENT' && /reserved by PostgreSQL/.test(e.message));
    await assert.rejects(PostgresRetriever.open(counting, { schema: 'pg_catalog' }), (e) => e.code === 'INVALID_ARGUMENT');
    assert.equal(queries, 0);
  } finally {
    f.dispose();
    await pg.close();
  }
});

test('a NUL or an unpaired surrogate in a document is one INVALID_ARGUMENT before anything is written, for every target (#30 P-7)', async () => {
  const pg = await startPglite();
  try {
    for (const [label, doc] of [['text NUL', { id: 'bad', text: 'nul \0 here' }], ['id NUL', { id: 'b\0d', text: 'fine' }],
      ['metadata NUL', { id: 'bad', text: 'fine', metadata: { note: 'a\0b' } }], ['text surrogate', { id: 'bad', text: 'half \uD800 pair' }]]) {
      const col = await Collection.create({ indexes: { bm25: {} } });
      try {
        await col.add([...FRUIT, doc]);
        const check = (e) => e.code === 'INVALID_ARGUMENT' && /document "(bad|b\\u0000d)"/.test(e.message) && /nothing was written/.test(e.message);
        await assert.rejects(exportToPostgres(col, pg, { schema: 'nul' }), check, label);
        assert.equal((await pg.query("SELECT to_regclass('nul.meta') AS t")).rows[0].t, null, `${label}: nothing written`);
        const out = [];
        await assert.rejects(exportToPostgres(col, sqlFileClient((s) => out.push(s))), check, `${label} (.sql)`);
        await assert.rejects(exportToPostgres(col, csvFilesClient((s) => out.push(s), () => {})), check, `${label} (csv)`);
        assert.deepEqual(out, [], `${label}: no statement written`);
      } finally {
        col.dispose();
      }
    }
  } finally {
    await pg.close();
  }
});

test('export refuses a schema holding tables it did not create; force adopts it; older exports are still updated (#30 P-2)', async () => {
  const pg = await startPglite();
  const f = await fruitCollection({}, false);
  try {
    await pg.query('CREATE SCHEMA crm');
    await pg.query('CREATE TABLE crm.documents (id text PRIMARY KEY, metadata jsonb NOT NULL DEFAULT \'{}\', content_hash text NOT NULL)');
    await pg.query("INSERT INTO crm.documents VALUES ('invoice-1', '{}', 'x'), ('invoice-2', '{}', 'y')");
    await assert.rejects(exportToPostgres(f.col, pg, { schema: 'crm' }), (e) => e.code === 'INVALID_ARGUMENT' && /"crm" holds tables ragwasm did not create \(documents\)/.test(e.message) && /force/.test(e.message));
    assert.equal((await pg.query('SELECT count(*)::int AS n FROM crm.documents')).rows[0].n, 2, 'their rows are kept');
    await pg.query('CREATE SCHEMA notes');
    await pg.query('CREATE TABLE notes.todo (x text)');
    await pg.query("INSERT INTO notes.todo VALUES ('keep me')");
    await assert.rejects(exportToPostgres(f.col, pg, { schema: 'notes' }), (e) => e.code === 'INVALID_ARGUMENT' && /\(todo\)/.test(e.message));
    const r = await exportToPostgres(f.col, pg, { schema: 'notes', force: true });
    assert.equal(r.documents, 4);
    assert.deepEqual((await pg.query('SELECT x FROM notes.todo')).rows, [{ x: 'keep me' }]);
    // An export from before the marker (meta without created_by) is still ours.
    await exportToPostgres(f.col, pg, { schema: 'older' });
    await pg.query("DELETE FROM older.meta WHERE key = 'created_by'");
    assert.equal((await exportToPostgres(f.col, pg, { schema: 'older' })).upserted, 0);
    assert.equal((await pg.query("SELECT value FROM older.meta WHERE key = 'created_by'")).rows[0].value, 'ragwasm');
    await pg.query('CREATE SCHEMA empty');
    assert.equal((await exportToPostgres(f.col, pg, { schema: 'empty' })).documents, 4);
  } finally {
    f.dispose();
    await pg.close();
  }
});

test('an interrupted re-export with another analyzer leaves the previous export whole: config and impacts agree (#30 P-4)', async () => {
  const pg = await startPglite();
  const a = await fruitCollection({}, false);
  const b = await fruitCollection({ stemmer: 'none' }, false);
  try {
    await exportToPostgres(a.col, pg);
    const expected = a.col.bm25.search('running', { k: 10 });
    assert.equal(expected.length, 3);
    let inserts = 0;
    const failing = {
      async query(text, params) {
        if (/INSERT INTO "ragwasm"\.bm25_impacts_next/.test(text) && ++inserts === 1) throw new Error('connection terminated unexpectedly');
        return pg.query(text, params);
      },
    };
    await assert.rejects(exportToPostgres(b.col, failing, { batchSize: 1 }), /connection terminated/);
    const pr = await PostgresRetriever.open(pg);
    try {
      assert.deepEqual(pr.config.indexes.bm25, a.col.config.indexes.bm25, 'the analyzer of the export that committed');
      const got = await pr.searchBm25('running', 10);
      assert.deepEqual(got.map((h) => [h.id, h.score]), expected.map((h) => [h.id, h.score]));
    } finally {
      pr.dispose();
    }
    assert.equal((await checkExport(a.col, pg)).ok, true);
    const other = await checkExport(b.col, pg);
    assert.equal(other.ok, false);
    assert.ok(other.problems.some((p) => /analyzer or scorer settings/.test(p)), other.problems.join('; '));
    await exportToPostgres(b.col, pg);
    const pr2 = await PostgresRetriever.open(pg);
    try {
      assert.deepEqual((await pr2.searchBm25('running', 10)).map((h) => h.id), b.col.bm25.search('running', { k: 10 }).map((h) => h.id));
    } finally {
      pr2.dispose();
    }
  } finally {
    a.dispose();
    b.dispose();
    await pg.close();
  }
});

test('checkExport names missing rows and changed statistics; a NaN impact is CORRUPT_INDEX; a zero query vector scores 0 (#30)', async () => {
  const pg = await startPglite();
  const f = await fruitCollection();
  try {
    await exportToPostgres(f.col, pg);
    const good = await checkExport(f.col, pg);
    assert.deepEqual([good.ok, good.problems], [true, []]);
    assert.deepEqual(good.counts, { documents: 4, chunks: 4, impacts: good.counts.impacts, embeddings: 4 });
    await pg.query("DELETE FROM ragwasm.bm25_impacts WHERE chunk_id = 'f4#0'");
    await pg.query("UPDATE ragwasm.meta SET value = jsonb_set(value, '{avgLength}', '1') WHERE key = 'bm25_stats'");
    const bad = await checkExport(f.col, pg);
    assert.equal(bad.ok, false);
    assert.ok(bad.problems.some((p) => /^BM25 impact rows: \d+ in PostgreSQL, \d+ in the collection$/.test(p)), bad.problems.join('; '));
    assert.ok(bad.problems.some((p) => /^bm25_stats.avgLength: 1 in PostgreSQL/.test(p)), bad.problems.join('; '));
    await pg.query("UPDATE ragwasm.bm25_impacts SET impact = 'NaN' WHERE term = 'appl'");
    const pr = await PostgresRetriever.open(pg, { embedder: f.embedder });
    try {
      await assert.rejects(pr.searchBm25('apples', 5), (e) => e.code === 'CORRUPT_INDEX' && /BM25 score of chunk "f\d#0" is NaN/.test(e.message));
      const [qv] = f.embedder.embedSync(['qqqzzzwww']);
      assert.equal(Math.hypot(...qv), 0, 'a query of unknown words embeds to zero');
      const hits = await pr.searchDense('qqqzzzwww', 4, { exact: true });
      assert.ok(hits.length > 0 && hits.every((h) => h.score === 0), JSON.stringify(hits));
    } finally {
      pr.dispose();
    }
  } finally {
    f.dispose();
    await pg.close();
  }
});

test('the hostile PostgreSQL families (one case each) end in ok, a RagwasmError or a database error: no TypeError, NaN, injection or hang (#30)', async () => {
  const { runPostgresFamilies, POSTGRES_FAILING } = await import('../../hostile/postgres.mjs');
  const rows = await runPostgresFamilies({ quick: true });
  assert.ok(new Set(rows.map((r) => r.family)).size >= 5, 'every family ran');
  assert.ok(rows.some((r) => r.outcome === 'ragwasm' && /CORRUPT_INDEX/.test(r.detail)), 'the meta family was refused');
  assert.deepEqual(rows.filter((r) => POSTGRES_FAILING.has(r.outcome)), []);
});
