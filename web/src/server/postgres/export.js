// @ts-check
// exportToPostgres: writes a Collection into the versioned PostgreSQL schema (docs/postgres.md):
// documents and chunks upserted by document (content hash), removed documents deleted, the BM25
// impact table rebuilt beside the live one and swapped in when the collection statistics changed,
// embeddings as pgvector vectors with an HNSW index. The whole export is one transaction (#30 P-4):
// readers see the previous export or the new one, never a mix; an interrupted export changes nothing.
// checkExport compares an exported schema with the collection (`ragwasm export --check`).
import { crc32 } from '../../core/checksum.js';
import { RagwasmError } from '../../core/errors.js';
import { expectBoolean, expectEnum, expectFunction, expectInteger, expectOptions, invalid, isInstance, isObject } from '../../core/validate.js';
import { Bm25Index } from '../../retrieve/sparse.js';
import {
  baseDdl, checkIdentifier, checkMeta, checkOwnership, embeddingsDdl, ensureVector, hnswDdl, POSTGRES_SCHEMA_VERSION, readMeta, tables, vectorLiteral,
} from './schema.js';

const encoder = new TextEncoder();

const upsertedOrImpacts = (changed, removed, impacts) => changed > 0 || removed > 0 || impacts !== null;

/** Runs fn inside BEGIN/COMMIT on `client` (ROLLBACK on error, then rethrow). */
// The BM25 index whose impacts are exported. A collection sharded across Workers (workers > 1) holds a
// ShardedBm25Index, which has no impacts() or stats(): refused before anything is written (it used to
// fail half-way with a TypeError; found by tsc --checkJs, #28).
function singleBm25(collection) {
  const bm25 = collection.bm25;
  if (bm25 !== null && bm25 !== undefined && !isInstance(bm25, Bm25Index)) {
    throw invalid('collection', 'a Collection without Workers (built or loaded with workers: 1; a sharded BM25 index has no impacts to export)', collection);
  }
  return bm25 ?? null;
}

export async function inTransaction(client, fn) {
  await client.query('BEGIN');
  try {
    const r = await fn();
    await client.query('COMMIT');
    return r;
  } catch (e) {
    try {
      await client.query('ROLLBACK');
    } catch { /* the connection may be gone; the server rolls back by itself */ }
    throw e;
  }
}

function contentHash(value) {
  const bytes = encoder.encode(JSON.stringify(value));
  return `${crc32(bytes).toString(16).padStart(8, '0')}:${bytes.length}`;
}

async function setMeta(client, t, key, value) {
  await client.query(`INSERT INTO ${t.meta} (key, value) VALUES ($1, $2::jsonb) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, [key, JSON.stringify(value)]);
}

async function embedChunks(collection, chunks) {
  const kept = collection._vectors;
  const out = chunks.map((c) => kept?.get(c.id) ?? null);
  const missing = out.flatMap((v, i) => (v === null ? [i] : []));
  if (missing.length > 0) {
    const e = collection.embedder;
    const texts = missing.map((i) => chunks[i].text);
    const vs = typeof e === 'function' ? await e(texts) : await e.embedSync(texts);
    if (!Array.isArray(vs) || vs.length !== texts.length) throw invalid('embedder result', `${texts.length} vectors`, vs);
    missing.forEach((i, j) => { out[i] = vs[j]; });
  }
  return out;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// What PostgreSQL text and jsonb cannot hold: NUL (U+0000), and an unpaired UTF-16 surrogate (the
// driver would send U+FFFD, so the stored id or text would differ from the collection's).
function unstorable(str) {
  if (str.includes('\0')) return 'a NUL character (U+0000), which PostgreSQL text and jsonb cannot store';
  if (typeof str.isWellFormed === 'function' ? !str.isWellFormed() : LONE_SURROGATE.test(str)) {
    return 'an unpaired UTF-16 surrogate, which PostgreSQL (UTF-8) would store as U+FFFD';
  }
  return null;
}

// Keys and string values of a metadata object (the collection checked its shape and depth on add).
function unstorableJson(v) {
  if (typeof v === 'string') return unstorable(v);
  if (v === null || typeof v !== 'object') return null;
  for (const [k, x] of Object.entries(v)) {
    const why = unstorable(k) ?? unstorableJson(x);
    if (why) return why;
  }
  return null;
}

/**
 * Every id, chunk text and metadata value checked before anything is sent (#30 P-7): one clear
 * INVALID_ARGUMENT whatever the target (server, .sql, CSV), instead of a driver error half-way.
 */
function checkStorable(collection) {
  const fail = (docId, where, why) => new RagwasmError('INVALID_ARGUMENT',
    `ragwasm: exportToPostgres: document ${JSON.stringify(docId.slice(0, 80))} holds ${why} (in its ${where}); nothing was written (remove the character, or leave the document out)`);
  for (const [id, d] of collection.docs) {
    let why = unstorable(id);
    if (why) throw fail(id, 'id', why);
    why = unstorableJson(d.metadata ?? {});
    if (why) throw fail(id, 'metadata', why);
    for (const c of d.chunkList()) {
      why = unstorable(c.text);
      if (why) throw fail(id, `chunk ${c.ordinal} text`, why);
    }
  }
}

const docHashes = (collection, withVectors) => [...collection.docs.entries()].map(([id, d]) => ({
  id, d, hash: contentHash({ m: d.metadata ?? {}, c: d.chunkList().map((c) => [c.id, c.ordinal, c.start, c.end, c.text]), v: withVectors }),
}));
const fingerprintOf = (cfg, docs) => contentHash({ bm25: cfg.indexes.bm25, docs: docs.map((x) => [x.id, x.hash]) });

/**
 * Exports a Collection into PostgreSQL (node-postgres Client, PGlite, or any client with
 * `query(text, params) -> {rows}` on one connection), as one transaction.
 * @example await exportToPostgres(col, client, { onProgress: (p) => console.log(p.phase, p.done, p.total) })
 * @param {import('../../pipeline/collection.js').Collection} collection
 * @param {{query: Function}} client one connection (not a Pool: the export is one transaction)
 * @param {{schema?: string, batchSize?: number, vectors?: boolean, vectorType?: 'vector'|'halfvec',
 *   hnsw?: boolean, force?: boolean, onProgress?: (p: {phase: string, done: number, total: number}) => void}} [options]
 *   schema default 'ragwasm'; batchSize chunks per INSERT statement (default 2000); vectors default: when
 *   the collection has a dense index and the server has pgvector (true: required, error without it);
 *   vectorType default 'vector' ('halfvec' halves the bytes); hnsw default true; force (default false):
 *   write into a schema that holds tables export did not create (they are adopted and overwritten)
 * @returns {Promise<{documents: number, upserted: number, removed: number, chunks: number,
 *   impacts: number|null, vectors: boolean, warnings: string[]}>} impacts null when the impact table was current
 * @throws {RagwasmError} INVALID_ARGUMENT (bad option; a NUL or unpaired surrogate in a document; a schema
 *   holding other tables, without force), UNSUPPORTED_VERSION (schema version mismatch), CORRUPT_INDEX (a
 *   meta row no export writes), UNSUPPORTED_ENVIRONMENT (vectors: true without pgvector), DIMENSION_MISMATCH
 *   (the schema holds vectors of another dimension); driver errors (e.g. a dropped connection) pass through
 *   unchanged, after which the database is as it was before the export
 */
export async function exportToPostgres(collection, client, options = {}) {
  const o = expectOptions(options, 'exportToPostgres options', ['schema', 'batchSize', 'vectors', 'vectorType', 'hnsw', 'force', 'onProgress']);
  if (!isObject(collection) || !isInstance(collection.docs, Map)) throw invalid('collection', 'a Collection', collection);
  const bm25 = singleBm25(collection);
  if (client === null || typeof client !== 'object' || typeof client.query !== 'function') throw invalid('client', 'a database client with query(text, params)', client);
  const s = checkIdentifier(o.schema ?? 'ragwasm', 'options.schema');
  const batchSize = o.batchSize === undefined ? 2000 : expectInteger(o.batchSize, 'options.batchSize', { min: 1, max: 1_000_000 });
  const vectorType = o.vectorType === undefined ? 'vector' : expectEnum(o.vectorType, 'options.vectorType', ['vector', 'halfvec']);
  const hnsw = o.hnsw === undefined ? true : expectBoolean(o.hnsw, 'options.hnsw');
  const force = o.force === undefined ? false : expectBoolean(o.force, 'options.force');
  if (o.vectors !== undefined) expectBoolean(o.vectors, 'options.vectors');
  if (o.onProgress !== undefined) expectFunction(o.onProgress, 'options.onProgress');
  const progress = (phase, done, total) => o.onProgress?.({ phase, done, total });
  const t = tables(s);
  const cfg = collection.config;
  if (o.vectors === true && !cfg.indexes.dense) throw invalid('options.vectors', 'false (the collection has no dense index)', true);
  checkStorable(collection);
  const warnings = [];
  let changedCount = 0;
  let removedCount = 0;
  const r = await inTransaction(client, async () => {
    // 1. ownership, schema and version
    const raw = await readMeta(client, s);
    const before = raw !== null && raw.schema_version !== undefined ? checkMeta(raw, s, { config: false }) : raw;
    await checkOwnership(client, s, before, force);
    for (const q of baseDdl(s)) await client.query(q);
    await setMeta(client, t, 'schema_version', POSTGRES_SCHEMA_VERSION);
    await setMeta(client, t, 'created_by', 'ragwasm');
    const meta = before ?? {};
    let withVectors = Boolean(cfg.indexes.dense) && o.vectors !== false;
    if (withVectors) {
      const missing = await ensureVector(client);
      if (missing !== null) {
        if (o.vectors === true) throw new RagwasmError('UNSUPPORTED_ENVIRONMENT', `ragwasm: exportToPostgres: ${missing}`);
        warnings.push(`embeddings not exported: ${missing}; dense and hybrid search need it`);
        withVectors = false;
      } else {
        if (meta.vectors !== undefined && (meta.vectors.dimension !== collection.dimension || meta.vectors.type !== vectorType)) {
          throw new RagwasmError('DIMENSION_MISMATCH', `ragwasm: postgres schema "${s}" holds ${meta.vectors.type}(${meta.vectors.dimension}) embeddings, this collection has ${vectorType}(${collection.dimension}) (export into a new schema)`);
        }
        for (const q of embeddingsDdl(s, vectorType, collection.dimension)) await client.query(q);
        await setMeta(client, t, 'vectors', { type: vectorType, dimension: collection.dimension, metric: 'cosine' });
      }
    }
    await setMeta(client, t, 'config', cfg);

    // 2. documents: delete the removed, upsert the changed (hash over metadata + chunks + vector flag)
    const docs = docHashes(collection, withVectors);
    const stored = new Map((await client.query(`SELECT id, content_hash FROM ${t.documents}`)).rows.map((row) => [row.id, row.content_hash]));
    const live = new Set(docs.map((x) => x.id));
    const removed = [...stored.keys()].filter((id) => !live.has(id));
    for (let i = 0; i < removed.length; i += batchSize) {
      await client.query(`DELETE FROM ${t.documents} WHERE id = ANY($1::text[])`, [removed.slice(i, i + batchSize)]);
      progress('delete', Math.min(i + batchSize, removed.length), removed.length);
    }
    const changed = docs.filter((x) => stored.get(x.id) !== x.hash);
    changedCount = changed.length;
    removedCount = removed.length;
    const totalChunks = changed.reduce((n, x) => n + x.d.chunkCount, 0);
    let doneChunks = 0;
    for (let i = 0; i < changed.length;) {
      const batch = [];
      let n = 0;
      while (i < changed.length && (batch.length === 0 || n + changed[i].d.chunkCount <= batchSize)) {
        n += changed[i].d.chunkCount;
        batch.push(changed[i++]);
      }
      const chunks = batch.flatMap((x) => x.d.chunkList().map((c) => ({ c, meta: x.d.metadata ?? {} })));
      const vectors = withVectors && chunks.length > 0 ? await embedChunks(collection, chunks.map((x) => x.c)) : null;
      const ids = batch.map((x) => x.id);
      await client.query(`DELETE FROM ${t.documents} WHERE id = ANY($1::text[])`, [ids]);
      await client.query(`INSERT INTO ${t.documents} (id, metadata, content_hash) SELECT * FROM unnest($1::text[], $2::jsonb[], $3::text[])`,
        [ids, batch.map((x) => JSON.stringify(x.d.metadata ?? {})), batch.map((x) => x.hash)]);
      if (chunks.length > 0) {
        await client.query(`INSERT INTO ${t.chunks} (id, doc_id, ordinal, start_offset, end_offset, text, index_text, metadata)
          SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::int[], $6::text[], $7::text[], $8::jsonb[])`, [
          chunks.map((x) => x.c.id), chunks.map((x) => x.c.docId), chunks.map((x) => x.c.ordinal), chunks.map((x) => x.c.start),
          chunks.map((x) => x.c.end), chunks.map((x) => x.c.text), chunks.map((x) => x.c.text), chunks.map((x) => JSON.stringify(x.meta)),
        ]);
        if (vectors) {
          await client.query(`INSERT INTO ${t.embeddings} (chunk_id, embedding) SELECT c, v::${vectorType} FROM unnest($1::text[], $2::text[]) AS x(c, v)`,
            [chunks.map((x) => x.c.id), vectors.map(vectorLiteral)]);
        }
      }
      doneChunks += chunks.length;
      progress('documents', doneChunks, totalChunks);
    }

    await setMeta(client, t, 'counts', { documents: docs.length, chunks: collection.chunks.size });
    if (withVectors && hnsw) {
      /** @type {{M?: number, efConstruction?: number}} */
      const h = cfg.indexes.dense.hnsw ?? {};
      await client.query(hnswDdl(s, vectorType, { m: h.M ?? 16, efConstruction: h.efConstruction ?? 64 }));
    }

    // 3. BM25 impacts: rebuilt into bm25_impacts_next and swapped in when the statistics changed. Last:
    // the swap's DROP holds an exclusive lock on the live table until the commit that follows it.
    let impactRows = null;
    if (bm25) {
      const fingerprint = fingerprintOf(cfg, docs);
      if (meta.bm25_fingerprint !== fingerprint || (await client.query('SELECT to_regclass($1) AS t', [t.impactsNext])).rows[0]?.t) {
        await client.query(`DROP TABLE IF EXISTS ${t.impactsNext}`);
        await client.query(`CREATE TABLE ${t.impactsNext} (term text COLLATE "C" NOT NULL, chunk_id text COLLATE "C" NOT NULL, impact float8 NOT NULL)`);
        impactRows = 0;
        const total = bm25.stats().terms;
        let termsDone = 0;
        for (const b of bm25.impacts({ batchRows: Math.max(batchSize * 20, 10000) })) {
          const n = b.docs.length;
          const terms = new Array(n);
          const rowIds = new Array(n);
          for (let i = 0; i < b.terms.length; i++) for (let row = b.rowStart[i]; row < b.rowStart[i + 1]; row++) terms[row] = b.terms[i];
          for (let row = 0; row < n; row++) rowIds[row] = b.ids[b.docs[row]];
          await client.query(`INSERT INTO ${t.impactsNext} (term, chunk_id, impact) SELECT * FROM unnest($1::text[], $2::text[], $3::float8[])`,
            [terms, rowIds, Array.from(b.impacts)]);
          impactRows += n;
          termsDone += b.terms.length;
          progress('impacts', termsDone, total);
        }
        await client.query(`DROP TABLE ${t.impacts}`);  // first: frees the name of its primary key
        await client.query(`ALTER TABLE ${t.impactsNext} ADD CONSTRAINT bm25_impacts_pkey PRIMARY KEY (term, chunk_id)`);
        await client.query(`ALTER TABLE ${t.impactsNext} RENAME TO bm25_impacts`);
        await setMeta(client, t, 'bm25_fingerprint', fingerprint);
        const st = bm25.stats();
        await setMeta(client, t, 'bm25_stats', { documents: st.documents, terms: st.terms, avgLength: st.avgLength, rows: impactRows });
      }
    }
    return { documents: docs.length, upserted: changed.length, removed: removed.length, chunks: collection.chunks.size, impacts: impactRows, vectors: withVectors, warnings };
  });
  // Fresh planner statistics (after the commit: ANALYZE changes no data): without them the BM25 query
  // scans the whole impact table instead of its primary-key index (measured: 225 ms instead of a few
  // ms per SciFact query on PostgreSQL 15).
  if (upsertedOrImpacts(changedCount, removedCount, r.impacts)) {
    for (const name of [t.documents, t.chunks, t.impacts]) await client.query(`ANALYZE ${name}`);
  }
  return r;
}

/**
 * Compares an exported schema with the collection (`ragwasm export --check`): row counts of
 * documents, chunks, impacts and embeddings, each document's content hash, the analyzer and scorer
 * settings (config.indexes.bm25), the BM25 statistics and fingerprint. Reads only.
 * @param {import('../../pipeline/collection.js').Collection} collection
 * @param {{query: Function}} client
 * @param {{schema?: string}} [options]
 * @returns {Promise<{ok: boolean, problems: string[], counts: {documents: number, chunks: number, impacts: number, embeddings: number|null}}>}
 * @throws {RagwasmError} NOT_FOUND (no export in the schema), UNSUPPORTED_VERSION, CORRUPT_INDEX (meta rows no export writes)
 */
export async function checkExport(collection, client, options = {}) {
  const o = expectOptions(options, 'checkExport options', ['schema']);
  if (!isObject(collection) || !isInstance(collection.docs, Map)) throw invalid('collection', 'a Collection', collection);
  const bm25 = singleBm25(collection);
  if (client === null || typeof client !== 'object' || typeof client.query !== 'function') throw invalid('client', 'a database client with query(text, params)', client);
  const s = checkIdentifier(o.schema ?? 'ragwasm', 'options.schema');
  const t = tables(s);
  const raw = await readMeta(client, s);
  if (raw === null) throw new RagwasmError('NOT_FOUND', `ragwasm: postgres schema "${s}" holds no exported collection (no meta table)`);
  const meta = checkMeta(raw, s);
  const problems = [];
  const cfg = collection.config;
  const number = async (sql) => Number((await client.query(sql)).rows[0].n);
  const counts = {
    documents: await number(`SELECT count(*) AS n FROM ${t.documents}`),
    chunks: await number(`SELECT count(*) AS n FROM ${t.chunks}`),
    impacts: await number(`SELECT count(*) AS n FROM ${t.impacts}`),
    embeddings: meta.vectors ? await number(`SELECT count(*) AS n FROM ${t.embeddings}`) : null,
  };
  const differ = (what, db, col) => { if (db !== col) problems.push(`${what}: ${db} in PostgreSQL, ${col} in the collection`); };
  differ('documents', counts.documents, collection.docs.size);
  differ('chunks', counts.chunks, collection.chunks.size);
  if (counts.embeddings !== null) differ('embeddings', counts.embeddings, collection.chunks.size);
  if (meta.counts) {
    differ('meta.counts.documents', meta.counts.documents, collection.docs.size);
    differ('meta.counts.chunks', meta.counts.chunks, collection.chunks.size);
  }
  const docs = docHashes(collection, Boolean(meta.vectors));
  const stored = new Map((await client.query(`SELECT id, content_hash FROM ${t.documents}`)).rows.map((row) => [row.id, row.content_hash]));
  const stale = docs.filter((x) => stored.get(x.id) !== x.hash);
  if (stale.length > 0) problems.push(`${stale.length} documents missing or different (e.g. ${JSON.stringify(stale[0].id.slice(0, 80))})`);
  if (JSON.stringify(meta.config.indexes.bm25 ?? null) !== JSON.stringify(cfg.indexes.bm25 ?? null)) {
    problems.push('the BM25 analyzer or scorer settings (config.indexes.bm25) differ from the collection\'s');
  }
  if (bm25) {
    let rows = 0;
    for (const b of bm25.impacts({ batchRows: 100000 })) rows += b.docs.length;
    differ('BM25 impact rows', counts.impacts, rows);
    const st = bm25.stats();
    const ms = meta.bm25_stats;
    if (!ms) problems.push('meta has no bm25_stats');
    else {
      differ('bm25_stats.rows', ms.rows, rows);
      differ('bm25_stats.documents', ms.documents, st.documents);
      differ('bm25_stats.terms', ms.terms, st.terms);
      differ('bm25_stats.avgLength', ms.avgLength, st.avgLength);
    }
    if (meta.bm25_fingerprint !== fingerprintOf(cfg, docs)) problems.push('the BM25 fingerprint differs: the impact table was built for other documents or settings');
  }
  return { ok: problems.length === 0, problems, counts };
}
