// @ts-check
// The versioned PostgreSQL schema of an exported collection (docs/postgres.md) and the checks every
// reader and writer runs first: schema version, the meta row checked against what this version
// writes (nothing read back is used unchecked: #30 P-1), pgvector availability, safe identifiers,
// and the ownership marker that keeps export out of schemas holding other tables (#30 P-2).
import { RagwasmError } from '../../core/errors.js';
import { isPlainObject } from '../../core/validate.js';
import { readPipelineConfig } from '../../pipeline/pipeline.js';

/** The schema version this build writes and reads (table `<schema>.meta`, key 'schema_version'). */
export const POSTGRES_SCHEMA_VERSION = 1;

const IDENT = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * A lower-case SQL identifier, or INVALID_ARGUMENT. It is always written double-quoted (`"user"`,
 * `"select"` are fine: a reserved word is an ordinary name once quoted, #30 P-6); `pg_*` is refused
 * here because PostgreSQL reserves those schema names.
 */
export function checkIdentifier(name, what) {
  if (typeof name !== 'string' || !IDENT.test(name)) {
    throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${what}: expected a lower-case SQL identifier ([a-z_][a-z0-9_]*, at most 63), got ${JSON.stringify(name)}`);
  }
  if (name.startsWith('pg_')) throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${what}: "${name}": names starting with pg_ are reserved by PostgreSQL for system schemas`);
  return name;
}

/** The table names an export creates (anything else in its schema is someone else's). */
export const EXPORT_TABLES = Object.freeze(['meta', 'documents', 'chunks', 'bm25_impacts', 'bm25_impacts_next', 'embeddings']);

/** The tables of one exported collection in schema `s`. */
export function tables(s) {
  const q = `"${checkIdentifier(s, 'schema')}"`;
  return {
    schema: q, meta: `${q}.meta`, documents: `${q}.documents`, chunks: `${q}.chunks`, impacts: `${q}.bm25_impacts`,
    impactsNext: `${q}.bm25_impacts_next`, embeddings: `${q}.embeddings`,
  };
}

/** DDL of schema version 1 (without the embeddings table, which needs pgvector). */
export function baseDdl(s) {
  const t = tables(s);
  return [
    `CREATE SCHEMA IF NOT EXISTS ${t.schema}`,
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
  checkVectors({ type, dimension, metric: 'cosine' }, s);
  return [`CREATE TABLE IF NOT EXISTS ${t.embeddings} (chunk_id text PRIMARY KEY REFERENCES ${t.chunks}(id) ON DELETE CASCADE, embedding ${type}(${dimension}) NOT NULL)`];
}

/** The HNSW index on the embeddings (cosine, as the in-browser dense index). */
export function hnswDdl(s, type, { m = 16, efConstruction = 64 } = {}) {
  const t = tables(s);
  checkVectors({ type, dimension: 1, metric: 'cosine' }, s);
  if (!Number.isInteger(m) || m < 2 || m > 100 || !Number.isInteger(efConstruction) || efConstruction < 4 || efConstruction > 1000) {
    throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: HNSW parameters: m in [2, 100] and ef_construction in [4, 1000] (pgvector's ranges), got ${JSON.stringify({ m, efConstruction })}`);
  }
  return `CREATE INDEX IF NOT EXISTS embeddings_hnsw ON ${t.embeddings} USING hnsw (embedding ${type}_cosine_ops) WITH (m = ${m}, ef_construction = ${efConstruction})`;
}

/** Reads `<schema>.meta` as an object (unchecked: see checkMeta); null when the schema has no meta table. */
export async function readMeta(client, s) {
  const t = tables(s);
  const exists = await client.query('SELECT to_regclass($1) AS t', [t.meta]);
  if (exists.rows[0]?.t === null || exists.rows[0]?.t === undefined) return null;
  const r = await client.query(`SELECT key, value FROM ${t.meta}`);
  const out = {};
  for (const row of r.rows) {
    if (typeof row.key !== 'string' || Object.hasOwn(out, row.key)) throw corrupt(s, `a row with key ${JSON.stringify(row.key)}`);
    out[row.key] = row.value;  // node-postgres and PGlite both parse jsonb
  }
  return out;
}

function corrupt(s, what) {
  return new RagwasmError('CORRUPT_INDEX', `ragwasm: postgres schema "${s}": meta holds ${what}, which no ragwasm export writes (export again into a new schema)`);
}

const show = (v) => {
  const j = JSON.stringify(v) ?? String(v);
  return j.length > 80 ? `${j.slice(0, 80)}…` : j;
};
const count = (v) => Number.isSafeInteger(v) && v >= 0;
const exactKeys = (v, keys) => isPlainObject(v) && Object.keys(v).length === keys.length && keys.every((k) => Object.hasOwn(v, k));

/** meta.vectors as written by this version ({type: vector|halfvec, dimension 1..16000, metric cosine}), else CORRUPT_INDEX. */
export function checkVectors(v, s) {
  if (!exactKeys(v, ['type', 'dimension', 'metric']) || (v.type !== 'vector' && v.type !== 'halfvec')
    || !Number.isInteger(v.dimension) || v.dimension < 1 || v.dimension > 16000 || v.metric !== 'cosine') {
    throw corrupt(s, `vectors = ${show(v)} (expected {type: "vector"|"halfvec", dimension: 1..16000, metric: "cosine"})`);
  }
  return v;
}

/**
 * Checks every key of meta against the set schema version 1 writes, before anything of it is used
 * (a row anyone with write access changed must not choose SQL or crash the reader: #30 P-1, P-5).
 * @param {object} meta from readMeta @param {string} s schema
 * @param {{config?: boolean}} [options] config: the config row must be there (readers; default true)
 * @returns {object} meta with `config` normalized by the pipeline config parser
 * @throws {RagwasmError} UNSUPPORTED_VERSION, CORRUPT_INDEX naming the key
 */
export function checkMeta(meta, s, { config = true } = {}) {
  if (!isPlainObject(meta)) throw corrupt(s, show(meta));
  checkVersion(meta, s);
  const out = { ...meta };
  for (const [key, value] of Object.entries(meta)) {
    if (key === 'schema_version') continue;
    if (key === 'created_by') {
      if (value !== 'ragwasm') throw corrupt(s, `created_by = ${show(value)}`);
    } else if (key === 'vectors') {
      checkVectors(value, s);
    } else if (key === 'counts') {
      if (!exactKeys(value, ['documents', 'chunks']) || !count(value.documents) || !count(value.chunks)) throw corrupt(s, `counts = ${show(value)}`);
    } else if (key === 'bm25_fingerprint') {
      if (typeof value !== 'string' || !/^[0-9a-f]{8}:[0-9]{1,15}$/.test(value)) throw corrupt(s, `bm25_fingerprint = ${show(value)}`);
    } else if (key === 'bm25_stats') {
      if (!exactKeys(value, ['documents', 'terms', 'avgLength', 'rows']) || !count(value.documents) || !count(value.terms) || !count(value.rows)
        || !(Number.isFinite(value.avgLength) && value.avgLength >= 0)) throw corrupt(s, `bm25_stats = ${show(value)}`);
    } else if (key === 'config') {
      if (!isPlainObject(value)) throw corrupt(s, `config = ${show(value)}`);
      try {
        out.config = readPipelineConfig(value).config;
      } catch (e) {
        throw corrupt(s, `a config the pipeline config parser refuses (${e.message})`);
      }
    } else {
      throw corrupt(s, `the key ${show(key)}`);
    }
  }
  if (config && out.config === undefined) throw corrupt(s, 'no config row');
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

/**
 * Export's ownership check (#30 P-2): a schema export may write into is absent, empty, or one an
 * export created (meta.created_by = 'ragwasm'; a version-1 schema from before the marker counts when
 * it holds only export tables). Anything else holds someone's tables, which export would adopt and
 * empty: refused unless `force`.
 * @returns {Promise<{tables: string[]}>} the tables the schema holds
 * @throws {RagwasmError} INVALID_ARGUMENT naming the tables found, when not `force`
 */
export async function checkOwnership(client, s, meta, force) {
  const r = await client.query(`SELECT c.relname AS name FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm', 'f') ORDER BY c.relname`, [s]);
  const names = r.rows.map((row) => String(row.name));
  if (names.length === 0 || force) return { tables: names };
  const foreign = names.filter((n) => !EXPORT_TABLES.includes(n));
  const marked = meta !== null && (meta.created_by === 'ragwasm' || (meta.schema_version === POSTGRES_SCHEMA_VERSION && meta.created_by === undefined));
  if (foreign.length > 0 || !marked) {
    const list = (foreign.length > 0 ? foreign : names).slice(0, 10).join(', ');
    throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: postgres schema "${s}" holds tables ragwasm did not create (${list}${names.length > 10 ? ', …' : ''}); `
      + 'export writes only into a new or empty schema or one it created: pick another schema, or pass force: true (CLI --force) to adopt it '
      + '(tables named documents, chunks, bm25_impacts, embeddings, meta there are then overwritten)');
  }
  return { tables: names };
}
