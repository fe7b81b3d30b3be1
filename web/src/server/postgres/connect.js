// @ts-check
// Connections for the CLI and servers: postgres:// URLs (credentials from the URL or the standard
// PG* environment variables, as libpq and node-postgres read them), never printed unmasked.
import { RagwasmError } from '../../core/errors.js';
import { expectString } from '../../core/validate.js';

/** The URL with its password replaced by '***' (for every message that names a server). */
export function maskUrl(url) {
  expectString(url, 'url');
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return String(url).replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
  }
}

/** Masks `password` (and the URL's password) inside any text, e.g. a driver error message. */
export function maskSecrets(text, url) {
  let out = expectString(text, 'text');
  if (url !== undefined && url !== null) expectString(url, 'url');
  const pw = [];
  try {
    const u = new URL(url);
    if (u.password) pw.push(u.password, decodeURIComponent(u.password));
  } catch { /* not a URL */ }
  if (typeof process !== 'undefined' && process.env?.PGPASSWORD) pw.push(process.env.PGPASSWORD);
  for (const p of pw) if (p) out = out.split(p).join('***');
  return out;
}

/**
 * Checks a postgres:// or postgresql:// URL. INVALID_ARGUMENT names what is wrong (password masked).
 * @param {string} url
 * @returns {URL}
 */
export function parsePostgresUrl(url) {
  let u;
  try {
    u = new URL(url);
  } catch {
    // Not echoed: an unparsable value may hold a password in a place maskUrl cannot recognise.
    throw new RagwasmError('INVALID_ARGUMENT', 'ragwasm: the postgres URL does not parse (expected postgres://[user[:password]@]host[:port]/database; the value is not repeated here since it may hold a password)');
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
    throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${maskUrl(url)}: expected a postgres:// or postgresql:// URL, got scheme "${u.protocol.slice(0, -1)}"`);
  }
  if (u.port !== '' && !(Number(u.port) >= 1 && Number(u.port) <= 65535)) {
    throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${maskUrl(url)}: port must be 1..65535`);
  }
  return u;
}

/**
 * Connects a node-postgres Client (the optional peer dependency `pg`) to `url`; missing parts
 * (user, password, host, port, database) come from PGUSER, PGPASSWORD, PGHOST, PGPORT, PGDATABASE.
 * @param {string} url
 * @returns {Promise<import('pg').Client>}
 * @throws {RagwasmError} INVALID_ARGUMENT (malformed URL), UNSUPPORTED_ENVIRONMENT (pg not installed),
 *   NETWORK (cannot connect; the message has the masked URL)
 */
export async function connectPostgres(url) {
  parsePostgresUrl(url);
  let pg;
  try {
    pg = (await import('pg')).default;
  } catch {
    throw new RagwasmError('UNSUPPORTED_ENVIRONMENT', 'ragwasm: the PostgreSQL driver "pg" is not installed (npm install pg)');
  }
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});  // a dropped connection surfaces as the failing query's error
  try {
    await client.connect();
  } catch (e) {
    throw new RagwasmError('NETWORK', `ragwasm: cannot connect to ${maskUrl(url)}: ${maskSecrets(e.message, url)}`);
  }
  return client;
}
