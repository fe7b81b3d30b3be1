// A client that writes SQL instead of running it: exportToPostgres into it produces a script that
// loads the collection into an empty schema with `psql -f FILE` (the same statements, parameters
// inlined as literals). It answers the export's catalog reads as a fresh database would.
import { RagwasmError } from '../../core/errors.js';

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
export function sqlFileClient(write, { vectors = true } = {}) {
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
