// Playwright routes shared by the Chromium bench suites: scripts/serve.mjs does not serve tests/bench, so
// the pages, Workers and modules under tests/bench/<dirs> are served from the checkout (corpus.json from
// memory), with cross-origin isolation headers; RAGWASM_DIST=<folder> swaps in another ragwasm.{mjs,wasm}.
import { existsSync, readFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';

const HEADERS = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp', 'Cross-Origin-Resource-Policy': 'same-origin', 'Cache-Control': 'no-cache' };
const TYPE = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json' };

/** Routes tests/bench/<dir>/ (dir of `dirs`) and the optional RAGWASM_DIST build on a browser context. */
export async function routeBenchFiles(context, { repoRoot, corpus, dirs = ['browser'] }) {
  const corpusBody = Buffer.from(JSON.stringify(corpus));
  await context.route(new RegExp(`/tests/bench/(${dirs.join('|')})/`), (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path.endsWith('/corpus.json')) return route.fulfill({ status: 200, headers: { ...HEADERS, 'Content-Type': TYPE['.json'] }, body: corpusBody });
    const file = join(repoRoot, 'tests/bench', path.split('/tests/bench/')[1]);
    if (!existsSync(file)) return route.fulfill({ status: 404, headers: HEADERS, body: 'not found' });
    return route.fulfill({ status: 200, headers: { ...HEADERS, 'Content-Type': TYPE[extname(file)] ?? 'application/octet-stream' }, body: readFileSync(file) });
  });
  if (process.env.RAGWASM_DIST) {
    const dist = resolve(process.env.RAGWASM_DIST);
    await context.route(/\/web\/dist\/ragwasm\.(mjs|wasm)$/, (route) => {
      const file = join(dist, new URL(route.request().url()).pathname.split('/').pop());
      return route.fulfill({ status: 200, headers: { ...HEADERS, 'Content-Type': TYPE[extname(file)] }, body: readFileSync(file) });
    });
  }
}
