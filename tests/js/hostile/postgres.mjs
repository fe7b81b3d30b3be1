// Hostile PostgreSQL families (issue #30): the ragwasm/postgres entry against a real database (PGlite:
// PostgreSQL in WASM with pgvector, in process). Each case exports a small collection into its own
// schema, then attacks what the reader trusts: meta rows (SQL in the vector type, odd shapes, deep
// configs), values read back (NaN/Infinity impacts, missing rows), schema names, document texts that
// PostgreSQL or psql mishandle, hostile queries. Every operation (open, the three searches, checkExport,
// re-export) is classified: ok, ragwasm (a RagwasmError), driver (the database's own error, passed
// through as documented), and the failing ones: non-ragwasm (a TypeError or similar), nan (a non-finite
// score returned), injection (the canary table outside the schema was changed), hang (no answer within
// the limit), wrong (a family's own check failed, e.g. BM25 in SQL differs from the browser).
//   node tests/js/hostile/postgres.mjs [--quick]      (also run by run.mjs, `npm run fuzz`)
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const POSTGRES_FAILING = new Set(['non-ragwasm', 'nan', 'injection', 'hang', 'wrong']);

const DOCS = [
  { id: 'p1', text: 'The runner was running past the orchard of apples.' },
  { id: 'p2', text: 'Runs of pears and apples in the running season.' },
  { id: 'p3', text: 'A cherry tree; running water nearby.' },
];
const DEEP = (n) => `${'['.repeat(n)}${']'.repeat(n)}`;

// [family, name, how]: how(db, schema) mutates an exported schema, or {docs} exports those documents,
// or {schema} names the schema, or {query} searches with it.
const CASES = [
  ['meta', 'vectors.type holds SQL', (s) => [`UPDATE "${s}".meta SET value = jsonb_set(value, '{type}', '"vector) AS d FROM public.canary; DROP TABLE public.canary; --"') WHERE key = 'vectors'`]],
  ['meta', 'vectors.type halfvec(1)', (s) => [`UPDATE "${s}".meta SET value = jsonb_set(value, '{type}', '"halfvec(1)"') WHERE key = 'vectors'`]],
  ['meta', 'vectors.dimension string', (s) => [`UPDATE "${s}".meta SET value = jsonb_set(value, '{dimension}', '"3; SELECT 1"') WHERE key = 'vectors'`]],
  ['meta', 'vectors null', (s) => [`UPDATE "${s}".meta SET value = 'null' WHERE key = 'vectors'`]],
  ['meta', 'config null', (s) => [`UPDATE "${s}".meta SET value = 'null' WHERE key = 'config'`]],
  ['meta', 'config array', (s) => [`UPDATE "${s}".meta SET value = '[1,2]' WHERE key = 'config'`]],
  ['meta', 'config string', (s) => [`UPDATE "${s}".meta SET value = '"bm25"' WHERE key = 'config'`]],
  ['meta', 'config 5000 levels deep', (s) => [`UPDATE "${s}".meta SET value = jsonb_set(value, '{deep}', '${DEEP(5000)}') WHERE key = 'config'`]],
  ['meta', 'config efSearch SQL', (s) => [`UPDATE "${s}".meta SET value = jsonb_set(value, '{indexes,dense,hnsw,efSearch}', '"1; DROP TABLE public.canary"') WHERE key = 'config'`]],
  ['meta', 'config bm25 k1 NaN string', (s) => [`UPDATE "${s}".meta SET value = jsonb_set(value, '{indexes,bm25,k1}', '"NaN"') WHERE key = 'config'`]],
  ['meta', 'config row deleted', (s) => [`DELETE FROM "${s}".meta WHERE key = 'config'`]],
  ['meta', 'schema_version "1"', (s) => [`UPDATE "${s}".meta SET value = '"1"' WHERE key = 'schema_version'`]],
  ['meta', 'schema_version 1.5', (s) => [`UPDATE "${s}".meta SET value = '1.5' WHERE key = 'schema_version'`]],
  ['meta', 'counts negative', (s) => [`UPDATE "${s}".meta SET value = '{"documents": -1, "chunks": 3}' WHERE key = 'counts'`]],
  ['meta', 'bm25_stats array', (s) => [`UPDATE "${s}".meta SET value = '[]' WHERE key = 'bm25_stats'`]],
  ['meta', 'unknown key', (s) => [`INSERT INTO "${s}".meta VALUES ('__proto__', '{"polluted": true}')`]],
  ['meta', 'every row deleted', (s) => [`DELETE FROM "${s}".meta`]],
  ['meta', 'meta table dropped', (s) => [`DROP TABLE "${s}".meta`]],
  ['values', 'impact NaN', (s) => [`UPDATE "${s}".bm25_impacts SET impact = 'NaN'`]],
  ['values', 'impact Infinity', (s) => [`UPDATE "${s}".bm25_impacts SET impact = 'Infinity'`]],
  ['values', 'impact -Infinity', (s) => [`UPDATE "${s}".bm25_impacts SET impact = '-Infinity'`]],
  ['values', 'impact 1e308 (sums overflow)', (s) => [`UPDATE "${s}".bm25_impacts SET impact = 1e308`]],
  ['values', 'zero embedding', (s) => [`UPDATE "${s}".embeddings SET embedding = array_fill(0, ARRAY[vector_dims(embedding)])::vector`]],
  ['values', 'chunk rows deleted', (s) => [`DELETE FROM "${s}".chunks`]],
  ['values', 'impact table dropped', (s) => [`DROP TABLE "${s}".bm25_impacts`]],
  ['values', 'a foreign table beside the export', (s) => [`CREATE TABLE "${s}".invoices (id int)`]],
  ['names', 'schema select', { schema: 'select' }],
  ['names', 'schema user', { schema: 'user' }],
  ['names', 'schema pg_toast', { schema: 'pg_toast' }],
  ['names', 'schema with a quote', { schema: 'a"b' }],
  ['names', 'schema 64 characters', { schema: 'x'.repeat(64) }],
  ['names', 'schema public (holds the canary)', { schema: 'public' }],
  ['texts', 'NUL in a text', { docs: [...DOCS, { id: 'n', text: 'a\0b' }] }],
  ['texts', 'unpaired surrogate in a text', { docs: [...DOCS, { id: 'n', text: 'a\uD800b' }] }],
  ['texts', 'SQL and quotes in texts and ids', { docs: [...DOCS, { id: "x'); DROP TABLE public.canary; --", text: "'; DROP TABLE public.canary; -- \\ \" $1 $$" }] }],
  ['texts', 'a line \\. and CRLF', { docs: [...DOCS, { id: 'dot', text: 'first\n\\.\nsecond\r\n\\.\r\nthird' }] }],
  ['texts', 'metadata with NUL', { docs: [...DOCS, { id: 'm', text: 'fine', metadata: { k: 'a\0' } }] }],
  ['queries', 'query with NUL', { query: 'apples\0pears' }],
  ['queries', 'query of stopwords only', { query: 'the of and' }],
  ['queries', 'query 1 MB', { query: 'apples '.repeat(150000) }],
  ['queries', 'query SQL', { query: "'); DROP TABLE public.canary; --" }],
];

function classify(api, e) {
  if (e instanceof api.RagwasmError) return { outcome: 'ragwasm', detail: `${e.code}: ${e.message.slice(0, 160)}` };
  // The database's own error (SQLSTATE code, severity): passed through by design (docs/postgres.md).
  if (e && typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && e.severity) return { outcome: 'driver', detail: `${e.code}: ${String(e.message).slice(0, 160)}` };
  return { outcome: 'non-ragwasm', detail: `${e?.name}: ${String(e?.message).slice(0, 160)}` };
}

async function withLimit(promise, ms) {
  let timer;
  const limit = new Promise((resolve) => { timer = setTimeout(() => resolve({ hang: true }), ms); });
  try {
    return await Promise.race([promise.then((value) => ({ value }), (error) => ({ error })), limit]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs the families; returns rows {family, name, op, outcome, detail}.
 * @param {{quick?: boolean, filter?: string, timeoutMs?: number, log?: (s: string) => void}} [options]
 *   quick: one case per family
 */
export async function runPostgresFamilies({ quick = false, filter, timeoutMs = 20000, log = () => {} } = {}) {
  const web = new URL('../../../web/src/', import.meta.url);
  const api = { ...(await import(new URL('index.js', web).href)), ...(await import(new URL('postgres.js', web).href)) };
  await api.init();
  const { PGlite } = await import('@electric-sql/pglite');
  const { vector } = await import('@electric-sql/pglite/vector');
  const model = readFileSync(fileURLToPath(new URL('../../../models/build/static-model.bin', import.meta.url)));
  const embedder = await api.createStaticEmbedder({ model, cache: false });
  const config = { chunker: { strategy: 'recursive', chunkSize: 1000, chunkOverlap: 0 } };
  const db = await PGlite.create({ extensions: { vector } });
  await db.query('CREATE TABLE public.canary (x int)');
  await db.query('INSERT INTO public.canary VALUES (42)');
  const rows = [];
  const seenFamily = new Set();
  try {
    let n = 0;
    for (const [family, name, how] of CASES) {
      if (filter && !`${family} ${name}`.includes(filter)) continue;
      if (quick && seenFamily.has(family)) continue;
      seenFamily.add(family);
      const schema = typeof how === 'object' && how.schema !== undefined ? how.schema : `h${n++}`;
      const col = await api.Collection.create(config, { embedder, keepVectors: true });
      const record = (op, r) => {
        rows.push({ family, name, op, ...r });
        if (POSTGRES_FAILING.has(r.outcome)) log(`${r.outcome}: postgres ${family} / ${name} / ${op}: ${r.detail ?? ''}`);
      };
      const run = async (op, fn, check) => {
        const r = await withLimit(Promise.resolve().then(fn), timeoutMs);
        if (r.hang) return record(op, { outcome: 'hang', detail: `no answer within ${timeoutMs} ms` });
        if (r.error !== undefined) return record(op, classify(api, r.error));
        const bad = check?.(r.value);
        if (bad) return record(op, bad);
        return record(op, { outcome: 'ok' });
      };
      const scores = (hits) => {
        const x = hits.find((h) => !Number.isFinite(h.score));
        return x ? { outcome: 'nan', detail: `score ${x.score} for ${x.id}` } : null;
      };
      try {
        await col.add(typeof how === 'object' && how.docs ? how.docs : DOCS);
        await run('export', () => api.exportToPostgres(col, db, { schema }));
        if (typeof how === 'function') for (const sql of how(schema)) await db.query(sql).catch(() => {});
        const query = typeof how === 'object' && how.query !== undefined ? how.query : 'running apples';
        let pr = null;
        await run('open', async () => { pr = await api.PostgresRetriever.open(db, { schema, embedder }); });
        if (pr) {
          await run('search bm25', () => pr.search(query, { retriever: 'bm25' }), (hits) => {
            const local = col.bm25.analyze(query).length > 0 ? col.bm25.search(query, { k: 10 }) : null;
            if (typeof how !== 'function' && local && hits.map((h) => h.id).join() !== local.map((h) => h.id).join()) {
              return { outcome: 'wrong', detail: `SQL ${hits.map((h) => h.id)} vs browser ${local.map((h) => h.id)}` };
            }
            return scores(hits);
          });
          await run('search dense', () => pr.search(query, { retriever: 'dense', exact: true }), scores);
          await run('search hybrid', () => pr.search(query, { k: 3 }), scores);
          pr.dispose();
        }
        await run('checkExport', () => api.checkExport(col, db, { schema }));
        await run('re-export', () => api.exportToPostgres(col, db, { schema }));
      } finally {
        col.dispose();
      }
      const canary = await db.query('SELECT x FROM public.canary').catch(() => ({ rows: [] }));
      if (canary.rows.length !== 1 || canary.rows[0].x !== 42) {
        record('canary', { outcome: 'injection', detail: 'public.canary was changed' });
        await db.query('CREATE TABLE IF NOT EXISTS public.canary (x int)');
        await db.query('DELETE FROM public.canary');
        await db.query('INSERT INTO public.canary VALUES (42)');
      }
    }
  } finally {
    embedder.dispose();
    await db.close();
  }
  return rows;
}

export function formatPostgresTable(rows) {
  const by = new Map();
  for (const r of rows) by.set(r.outcome, (by.get(r.outcome) ?? 0) + 1);
  const failing = rows.filter((r) => POSTGRES_FAILING.has(r.outcome));
  const lines = [`hostile PostgreSQL families (PGlite): ${new Set(rows.map((r) => `${r.family} ${r.name}`)).size} cases, ${rows.length} operations`];
  for (const [k, v] of [...by].sort((a, b) => b[1] - a[1])) lines.push(`  ${String(v).padStart(5)}  ${k}`);
  lines.push(`FAILURES (${failing.length}):`);
  for (const r of failing) lines.push(`  ${r.outcome}: ${r.family} / ${r.name} / ${r.op}: ${r.detail ?? ''}`);
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const rows = await runPostgresFamilies({ quick: process.argv.includes('--quick'), log: (s) => process.stderr.write(`${s}\n`) });
  console.log(formatPostgresTable(rows));
  process.exitCode = rows.some((r) => POSTGRES_FAILING.has(r.outcome)) ? 1 : 0;
}
