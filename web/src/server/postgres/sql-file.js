// @ts-check
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
      if (/^SELECT to_regclass/.test(text)) return { rows: [{ t: null }] };
      if (/FROM pg_available_extensions/.test(text)) return { rows: vectors ? [{ default_version: 'any' }] : [] };
      // Every other read (stored hashes, meta, the schema's tables) answers as an empty database.
      if (/^SELECT /.test(text)) return { rows: [] };
      await write(`${inlineParams(text, params)};\n`);
      return { rows: [] };
    },
  };
}

function csvField(v) {
  const s = String(v);
  if (s.includes('\0')) throw new RagwasmError('INVALID_ARGUMENT', 'ragwasm: CSV export: a value holds a NUL character, which PostgreSQL text cannot store');
  return `"${s.replaceAll('"', '""')}"`;
}

// PostgreSQL's COPY text format: one physical line per row, so no line of the file can be `\.`.
function textField(v) {
  return String(v).replace(/[\\\n\r\t]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t'));
}

// psql up to version 17 ends a `\copy … FROM file` at a line that is exactly `\.` (or `\.` + CR),
// even inside a quoted CSV field; such a row goes to the table's COPY-text-format file instead (#30 P-3).
const ENDS_COPY = /\n\\\.\r?\n/;

/**
 * Like sqlFileClient, but the rows of every bulk INSERT (`INSERT INTO s.t (cols) SELECT … unnest(…)`)
 * go to `appendCsv(table, text, format)`: format 'csv' for `t.csv` (CSV lines), 'text' for `t.tsv`
 * (PostgreSQL's COPY text format, for the rare row that has a line `\.` in a value, which psql ≤ 17
 * cannot read from CSV; usually empty). The script gets, where the first such INSERT was,
 * `\copy s.t (cols) FROM 't.csv' WITH (FORMAT csv)` and `\copy s.t (cols) FROM 't.tsv'`:
 * `psql -f load.sql` run in the folder of the files loads everything (COPY is the fast path for big tables).
 * @param {(sql: string) => void|Promise<void>} write
 * @param {(table: string, data: string, format: 'csv'|'text') => void|Promise<void>} appendCsv
 *   called once with '' for each format when a table is first seen (so both files exist)
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
      const m = /^INSERT INTO ("[a-z0-9_]+"|\w+)\.(\w+) \(([^)]*)\)\s+SELECT [^]*unnest\(/.exec(text);
      if (!m) return sql.query(text, params);
      const [, schema, table, cols] = m;
      if (!started.has(table)) {
        started.add(table);
        await appendCsv(table, '', 'csv');
        await appendCsv(table, '', 'text');
        await write(`\\copy ${schema}.${table} (${cols}) FROM '${table}.csv' WITH (FORMAT csv)\n`);
        await write(`\\copy ${schema}.${table} (${cols}) FROM '${table}.tsv'\n`);
      }
      const n = params[0].length;
      let csv = '';
      let tsv = '';
      for (let r = 0; r < n; r++) {
        const line = params.map((col) => csvField(col[r])).join(',') + '\n';
        if (line.includes('\\.') && ENDS_COPY.test(line)) tsv += params.map((col) => textField(col[r])).join('\t') + '\n';
        else csv += line;
      }
      if (csv) await appendCsv(table, csv, 'csv');
      if (tsv) await appendCsv(table, tsv, 'text');
      return { rows: [] };
    },
  };
}
