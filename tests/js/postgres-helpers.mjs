// Real PostgreSQL engines for the tests: PGlite (PostgreSQL compiled to WASM, with pgvector) and the
// Debian PostgreSQL 15 server started on a temp data directory and a free 127.0.0.1 port.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PG_BIN = process.env.RAGWASM_PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** Why the local server tests cannot run here (null when they can). */
export function serverSkipReason() {
  if (!existsSync(join(PG_BIN, 'initdb')) || !existsSync(join(PG_BIN, 'pg_ctl'))) return `PostgreSQL binaries not found in ${PG_BIN} (apt-get install postgresql)`;
  if (process.getuid?.() === 0 && spawnSync('runuser', ['--help']).error) return 'running as root without runuser (initdb refuses root)';
  return null;
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// initdb and postgres refuse to run as root: as root, run them as the unprivileged user `nobody`.
function asServerUser(cmd, args) {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'nobody', '--', cmd, ...args]] : [cmd, args];
}

/**
 * Starts a throwaway PostgreSQL server (trust auth, user postgres). Returns {url, port, stop()}.
 * stop() shuts it down (fast) and removes the data directory.
 */
export async function startPostgresServer() {
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-pg-'));
  if (process.getuid?.() === 0) chownSync(dir, 65534, 65534);
  const data = join(dir, 'data');
  const run = (cmd, args) => {
    const [c, a] = asServerUser(join(PG_BIN, cmd), args);
    return execFileSync(c, a, { stdio: ['ignore', 'pipe', 'pipe'] });
  };
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  const port = await freePort();
  run('pg_ctl', ['-D', data, '-o', `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off`, '-l', join(dir, 'log'), '-w', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** A PGlite database in memory with the vector extension loaded. */
export async function startPglite() {
  const { PGlite } = await import('@electric-sql/pglite');
  const { vector } = await import('@electric-sql/pglite/vector');
  return PGlite.create({ extensions: { vector } });
}

/**
 * BM25 agreement between a Collection (in-browser) and a PostgresRetriever over `queries`:
 * {queries, listsDiffer (top-k id lists not identical), maxScoreDiff, skipped (no searchable term)}.
 */
export async function bm25Agreement(col, retriever, queries, k = 10) {
  let listsDiffer = 0;
  let maxScoreDiff = 0;
  let skipped = 0;
  const differing = [];
  for (const q of queries) {
    if (col.bm25.analyze(q.text).length === 0) {
      skipped++;
      continue;
    }
    const a = col.bm25.search(q.text, { k });
    const b = await retriever.searchBm25(q.text, k);
    if (a.length !== b.length || a.some((h, i) => h.id !== b[i].id)) {
      listsDiffer++;
      differing.push(q.id);
    }
    for (let i = 0; i < Math.min(a.length, b.length); i++) maxScoreDiff = Math.max(maxScoreDiff, Math.abs(a[i].score - b[i].score));
  }
  return { queries: queries.length, listsDiffer, differing, maxScoreDiff, skipped };
}

/**
 * True when `b` ranks like `a` up to float ties: every position holds the same id, or an id `a`
 * has within `tol` of that position's score (a near tie the two engines may order differently).
 */
export function sameRankingUpToTies(a, b, tol) {
  if (a.length !== b.length) return false;
  return b.every((h, i) => h.id === a[i].id || a.some((x) => x.id === h.id && Math.abs(x.score - a[i].score) <= tol));
}
