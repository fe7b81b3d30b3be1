// The versioned PostgreSQL schema of an exported collection (docs/postgres.md) and the checks every
// reader and writer runs first: schema version, pgvector availability, safe identifiers.
import { RagwasmError } from '../../core/errors.js';

/** The schema version this build writes and reads (table `<schema>.meta`, key 'schema_version'). */
export const POSTGRES_SCHEMA_VERSION = 1;

const IDENT = /^[a-z_][a-z0-9_]{0,62}$/;

/** A lower-case SQL identifier, or INVALID_ARGUMENT. */
export function checkIdentifier(name, what) {
  if (typeof name !== 'string' || !IDENT.test(name)) {
    throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${what}: expected a lower-case SQL identifier ([a-z_][a-z0-9_]*, at most 63), got ${JSON.stringify(name)}`);
  }
  return name;
}

/** The tables of one exported collection in schema `s`. */
export function tables(s) {
  return {
    meta: `${s}.meta`, documents: `${s}.documents`, chunks: `${s}.chunks`, impacts: `${s}.bm25_impacts`,
    impactsNext: `${s}.bm25_impacts_next`, embeddings: `${s}.embeddings`,
  };
}

/** DDL of schema version 1 (without the embeddings table, which needs pgvector). */
export function baseDdl(s) {
  const t = tables(s);
  return [
    `CREATE SCHEMA IF NOT EXISTS ${s}`,
    `CREATE TABLE IF NOT EXISTS ${t.meta} (key text PRIMARY KEY, value jsonb NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS ${t.documents} (id text PRIMARY KEY, metadata jsonb NOT NULL DEFAULT '{}', content_hash text NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS ${t.chunks} (id text PRIMARY KEY, doc_id text NOT NULL REFERENCES ${t.documents}(id) ON DELETE CASCADE,
      ordinal integer NOT NULL, start_offset integer NOT NULL, end_offset integer NOT NULL, text text NOT NULL,
      index_text text NOT NULL, metadata jsonb NOT NULL DEFAULT '{}')`,
    `CREATE INDEX IF NOT EXISTS chunks_doc_id ON ${t.chunks} (doc_id)`,
    // float8: the impact is the double the in-browser scorer computes; real (float4) would round it.
    // COLLATE "C": bytewise order is the browser's tie order, and sorting by it is a memcmp.
    `CREATE TABLE IF NOT EXISTS ${t.impacts} (term text COLLATE "C" NOT NULL, chunk_id text COLLATE "C" NOT NULL, impact float8 NOT NULL, PRIMARY KEY (term, chunk_id))`,
  ];
}

/** DDL of the embeddings table: `type` vector|halfvec, `dimension` the collection's. */
export function embeddingsDdl(s, type, dimension) {
  const t = tables(s);
  return [`CREATE TABLE IF NOT EXISTS ${t.embeddings} (chunk_id text PRIMARY KEY REFERENCES ${t.chunks}(id) ON DELETE CASCADE, embedding ${type}(${dimension}) NOT NULL)`];
}

/** The HNSW index on the embeddings (cosine, as the in-browser dense index). */
export function hnswDdl(s, type, { m = 16, efConstruction = 64 } = {}) {
  const t = tables(s);
  return `CREATE INDEX IF NOT EXISTS embeddings_hnsw ON ${t.embeddings} USING hnsw (embedding ${type}_cosine_ops) WITH (m = ${m}, ef_construction = ${efConstruction})`;
}

/** Reads `<schema>.meta` as an object; null when the schema has no meta table. */
export async function readMeta(client, s) {
  const exists = await client.query('SELECT to_regclass($1) AS t', [`${s}.meta`]);
  if (exists.rows[0].t === null) return null;
  const r = await client.query(`SELECT key, value FROM ${s}.meta`);
  const out = {};
  for (const row of r.rows) out[row.key] = row.value;  // node-postgres and PGlite both parse jsonb
  return out;
}

/** UNSUPPORTED_VERSION unless meta.schema_version is the one this build reads. */
export function checkVersion(meta, s) {
  const v = meta?.schema_version;
  if (v !== POSTGRES_SCHEMA_VERSION) {
    throw new RagwasmError('UNSUPPORTED_VERSION', `ragwasm: postgres schema "${s}" has schema version ${JSON.stringify(v)}; this ragwasm reads version ${POSTGRES_SCHEMA_VERSION} (export again into a new schema, or use the matching ragwasm)`);
  }
}

/**
 * Installs pgvector when the server has it. Returns null when it is available, else the reason
 * (naming the missing extension), without failing the transaction the caller is in.
 */
export async function ensureVector(client) {
  const r = await client.query("SELECT default_version FROM pg_available_extensions WHERE name = 'vector'");
  if (r.rows.length === 0) {
    return 'the PostgreSQL extension "vector" (pgvector) is not available on this server (pg_available_extensions has no "vector"; install pgvector to store embeddings)';
  }
  await client.query('CREATE EXTENSION IF NOT EXISTS vector');
  return null;
}

/** '[x,y,...]' for a pgvector parameter (float32 values print exactly and parse back exactly). */
export function vectorLiteral(v) {
  let s = '[';
  for (let i = 0; i < v.length; i++) s += (i ? ',' : '') + v[i];
  return s + ']';
}
