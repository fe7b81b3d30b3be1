// A client that writes SQL instead of running it: exportToPostgres into it produces a script that
// loads the collection into an empty schema with `psql -f FILE` (the same statements, parameters
// inlined as literals). It answers the export's catalog reads as a fresh database would.
import { RagwasmError } from '../../core/errors.js';
import { expectFunction, expectOptions } from '../../core/validate.js';

function literal(v) {
  if (v === null || v === undefined) return 'NULL';
  if (Array.isArray(v)) return v.length === 0 ? "'{}'" : `ARRAY[${v.map(literal).join(',')}]`;
  const s = String(v);
  if (s.includes('\0')) throw new RagwasmError('INVALID_ARGUMENT', 'ragwasm: SQL export: a value holds a NUL character, which PostgreSQL text cannot store');
  return `'${s.replaceAll("'", "''")}'`;
}

/** Inlines $n parameters of `text` as SQL literals (strings quoted, arrays as ARRAY[...]). */
export function inlineParams(text, params = []) {
  return text.replace(/\$(\d+)/g, (m, n) => literal(params[Number(n) - 1]));
}

/**
 * @param {(sql: string) => void|Promise<void>} write receives each statement with its ';\n'
 * @param {{vectors?: boolean}} [options] vectors: pretend pgvector is installed (default true)
 */
export function sqlFileClient(write, options = {}) {
  expectFunction(write, 'write');
  const { vectors = true } = expectOptions(options, 'sqlFileClient options', ['vectors']);
  return {
    async query(text, params) {
      const sql = inlineParams(text, params);
      if (/^SELECT to_regclass/.test(text)) return { rows: [{ t: null }] };
      if (/FROM pg_available_extensions/.test(text)) return { rows: vectors ? [{ default_version: 'any' }] : [] };
      if (/^SELECT id, content_hash FROM/.test(text)) return { rows: [] };
      if (/^SELECT key, value FROM/.test(text)) return { rows: [] };
      await write(`${sql};\n`);
      return { rows: [] };
    },
  };
}

function csvField(v) {
  const s = String(v);
  if (s.includes('\0')) throw new RagwasmError('INVALID_ARGUMENT', 'ragwasm: CSV export: a value holds a NUL character, which PostgreSQL text cannot store');
  return `"${s.replaceAll('"', '""')}"`;
}

/**
 * Like sqlFileClient, but the rows of every bulk INSERT (`INSERT INTO s.t (cols) SELECT … unnest(…)`)
 * go to `appendCsv(table, text)` as CSV lines, and the script gets one
 * `\copy s.t (cols) FROM 't.csv' WITH (FORMAT csv)` where the first such INSERT was: `psql -f load.sql`
 * run in the folder of the CSV files loads everything (COPY is the fast path for big tables).
 * @param {(sql: string) => void|Promise<void>} write
 * @param {(table: string, csv: string) => void|Promise<void>} appendCsv
 * @param {{vectors?: boolean}} [options]
 */
export function csvFilesClient(write, appendCsv, options = {}) {
  expectFunction(write, 'write');
  expectFunction(appendCsv, 'appendCsv');
  const { vectors = true } = expectOptions(options, 'csvFilesClient options', ['vectors']);
  const sql = sqlFileClient(write, { vectors });
  const started = new Set();
  return {
    async query(text, params) {
      const m = /^INSERT INTO (\w+)\.(\w+) \(([^)]*)\)\s+SELECT [^]*unnest\(/.exec(text);
      if (!m) return sql.query(text, params);
      const [, schema, table, cols] = m;
      if (!started.has(table)) {
        started.add(table);
        await write(`\\copy ${schema}.${table} (${cols}) FROM '${table}.csv' WITH (FORMAT csv)\n`);
      }
      const n = params[0].length;
      let out = '';
      for (let r = 0; r < n; r++) out += params.map((col) => csvField(col[r])).join(',') + '\n';
      await appendCsv(table, out);
      return { rows: [] };
    },
  };
}
