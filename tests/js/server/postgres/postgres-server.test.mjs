// ragwasm/postgres against the Debian PostgreSQL 15 server, started by the test on a temp data
// directory and a free 127.0.0.1 port: the lexical path and the schema are the same as in PGlite;
// pgvector is not packaged here, so embeddings degrade with a message naming the extension; a
// connection dropped mid-export (pg_terminate_backend) leaves the previous export whole (one transaction).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Collection, createStaticEmbedder, init } from '../../../../web/src/index.js';
import { checkExport, connectPostgres, exportToPostgres, PostgresRetriever } from '../../../../web/src/postgres.js';
import { loadBeir } from '../../../../web/cli/datasets.mjs';
import { DEFAULT_MODEL } from '../../../../web/cli/lib/retrievers.mjs';
import { sharedPath } from '../../helpers.mjs';
import { bm25Agreement, serverSkipReason, startPostgresServer } from '../../postgres-helpers.mjs';

await init();
const scifact = sharedPath('data/scifact/corpus.jsonl') ? loadBeir(sharedPath('data/scifact')) : null;
const SKIP = serverSkipReason() ?? (scifact ? false : 'needs ../shared/data/scifact (not found)');

let server;
let embedder;
let col;
const clients = [];
async function connect() {
  const c = await connectPostgres(server.url);
  clients.push(c);
  return c;
}
test.before(async () => {
  if (SKIP) return;
  server = await startPostgresServer();
  embedder = await createStaticEmbedder({ model: readFileSync(DEFAULT_MODEL), cache: false });
  col = await Collection.create({ chunker: { strategy: 'recursive', chunkSize: 400, chunkOverlap: 50 } }, { embedder });
  await col.add(scifact.corpus.slice(0, 200).map((d) => ({ id: d.id, text: `${d.title} ${d.text}` })));
});
test.after(async () => {
  for (const c of clients) await c.end().catch(() => {});
  server?.stop();
  col?.dispose();
  embedder?.dispose();
});

test('PostgreSQL 15 without pgvector stores the lexical index and names the missing extension', { skip: SKIP }, async () => {
  const client = await connect();
  await assert.rejects(exportToPostgres(col, client, { schema: 'strict', vectors: true }),
    (e) => e.code === 'UNSUPPORTED_ENVIRONMENT' && /extension "vector"/.test(e.message));
  const r = await exportToPostgres(col, client);
  assert.equal(r.vectors, false);
  assert.equal(r.warnings.length, 1);
  assert.match(r.warnings[0], /extension "vector" \(pgvector\) is not available/);
  const pr = await PostgresRetriever.open(client, { embedder });
  try {
    const a = await bm25Agreement(col, pr, scifact.queries.slice(0, 60), 10);
    assert.equal(a.listsDiffer, 0, `queries with other top-10 lists: ${a.differing.join(', ')}`);
    assert.equal(a.maxScoreDiff, 0, 'float8 impacts summed in query-term order: the same doubles');
    await assert.rejects(pr.search('protein folding', { retriever: 'dense' }), (e) => e.code === 'UNSUPPORTED_ENVIRONMENT' && /"vector"/.test(e.message));
  } finally {
    pr.dispose();
  }
});

// A client that terminates its own backend (from a second connection) just before the n-th query
// matching `pattern`, so that query fails as a dropped connection would.
async function dropOn(pattern, n) {
  const client = await connect();
  const admin = await connect();
  const pid = (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
  let seen = 0;
  return {
    async query(text, params) {
      if (pattern.test(text) && ++seen === n) await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      return client.query(text, params);
    },
  };
}

for (const [phase, pattern, n] of [['documents', /INSERT INTO "dropped"\.chunks/, 3], ['impacts', /INSERT INTO "dropped"\.bm25_impacts_next/, 2]]) {
  test(`a connection dropped during the ${phase} phase of a re-export leaves the previous export whole and a rerun completes (#30 P-4)`, { skip: SKIP }, async () => {
    const check = await connect();
    const before = await Collection.create({ chunker: { strategy: 'recursive', chunkSize: 400, chunkOverlap: 50 } });
    try {
      await before.add(scifact.corpus.slice(0, 50).map((d) => ({ id: d.id, text: `${d.title} ${d.text}` })));
      await exportToPostgres(before, check, { schema: 'dropped', batchSize: 100 });
      const client = await dropOn(pattern, n);
      await assert.rejects(exportToPostgres(col, client, { schema: 'dropped', batchSize: 100 }), (e) => /terminat|connection/i.test(e.message));  // which one depends on when the client sees the termination
      // The export is one transaction: the database still holds exactly the previous export.
      const kept = await checkExport(before, check, { schema: 'dropped' });
      assert.deepEqual([kept.ok, kept.problems], [true, []]);
      assert.equal((await check.query("SELECT to_regclass('dropped.bm25_impacts_next') AS t")).rows[0].t, null);
    } finally {
      before.dispose();
    }
    const r = await exportToPostgres(col, check, { schema: 'dropped', batchSize: 100 });
    assert.equal(r.upserted, col.size - 50, 'the rerun writes what the interrupted export did not commit');
    assert.deepEqual((await checkExport(col, check, { schema: 'dropped' })).problems, []);
    const pr = await PostgresRetriever.open(check, { schema: 'dropped' });
    try {
      const a = await bm25Agreement(col, pr, scifact.queries.slice(0, 30), 10);
      assert.equal(a.listsDiffer, 0);
      assert.equal(a.maxScoreDiff, 0);
    } finally {
      pr.dispose();
    }
    await check.query('DROP SCHEMA dropped CASCADE');
  });
}

test('readers on another connection see the previous export whole while a re-export runs (#30 P-4)', { skip: SKIP }, async () => {
  const writer = await connect();
  const reader = await connect();
  const before = await Collection.create({ chunker: { strategy: 'recursive', chunkSize: 400, chunkOverlap: 50 } });
  try {
    await before.add(scifact.corpus.slice(0, 50).map((d) => ({ id: d.id, text: `${d.title} ${d.text}` })));
    await exportToPostgres(before, writer, { schema: 'visible', batchSize: 100 });
    const seen = [];
    let n = 0;
    const watching = {
      async query(text, params) {
        if (/INSERT INTO "visible"\.(chunks|bm25_impacts_next)/.test(text) && ++n % 3 === 1) seen.push(await checkExport(before, reader, { schema: 'visible' }));
        return writer.query(text, params);
      },
    };
    await exportToPostgres(col, watching, { schema: 'visible', batchSize: 100 });
    assert.ok(seen.length >= 3, `${seen.length} looks during the export`);
    for (const r of seen) assert.deepEqual([r.ok, r.problems], [true, []]);
    assert.deepEqual((await checkExport(col, reader, { schema: 'visible' })).problems, []);
  } finally {
    before.dispose();
  }
  await writer.query('DROP SCHEMA visible CASCADE');
});

test('a server that refuses the connection is a NETWORK error with the password masked', { skip: serverSkipReason() ?? false }, async () => {
  await assert.rejects(connectPostgres('postgres://someone:hunter2@127.0.0.1:1/nothing'),
    (e) => e.code === 'NETWORK' && !e.message.includes('hunter2') && e.message.includes('***'));
});
