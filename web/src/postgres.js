// @ts-check
// ragwasm/postgres: the same collection in PostgreSQL + pgvector (docs/postgres.md). Imports the
// optional peer dependency `pg` only when connectPostgres() is called.
export { checkExport, exportToPostgres } from './server/postgres/export.js';
export { PostgresRetriever } from './server/postgres/retriever.js';
export { connectPostgres, maskSecrets, maskUrl, parsePostgresUrl } from './server/postgres/connect.js';
export { RagwasmError } from './core/errors.js';
export { POSTGRES_SCHEMA_VERSION } from './server/postgres/schema.js';
export { csvFilesClient, sqlFileClient } from './server/postgres/sql-file.js';
