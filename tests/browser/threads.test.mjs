// The optional WASM-threads scan (tests/bench/threads, docs/parallel.md "WASM threads") in headless Chromium,
// cross-origin isolated: its hits (ids and scores) equal one VectorIndex.searchMany of the package build, with
// 1, 2 and 3 threads, static and dynamic slot ranges. It needs its own build step (`bash scripts/build.sh
// wasm-threads`); without build/wasm-threads the test is skipped by name.
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { withPage, repoRoot } from './harness.mjs';

const BUILD = join(repoRoot, 'build/wasm-threads/threads/scan_threads.js');

test('the WASM-threads flat scan returns the hits of one VectorIndex with 1 2 and 3 threads', async (t) => {
  if (!existsSync(BUILD)) {
    t.skip('build/wasm-threads is missing (bash scripts/build.sh wasm-threads builds it)');
    return;
  }
  await withPage(async ({ page, url }) => {
    await page.goto(`${url}tests/bench/threads/page.html`);
    const r = await page.evaluate(async () => {
      const { init, VectorIndex } = await import('/web/src/index.js');
      const { seededRandom } = await import('/web/src/goldens/split.js');
      const { threadsHost } = await import('/tests/bench/threads/page.mjs');
      await init();
      // values on a coarse grid so equal scores occur (ties ranked by insertion order), 20,011 rows
      // (not a multiple of the 256-row block or of the range sizes below)
      const n = 20_011;
      const dim = 40;
      const rand = seededRandom(1818);
      const grid = () => Math.floor(rand() * 7) - 3;
      const flat = Float32Array.from({ length: n * dim }, grid);
      const queries = Array.from({ length: 24 }, () => Float32Array.from({ length: dim }, () => grid() + 0.5));
      const one = VectorIndex.create({ dimension: dim, metric: 'dot' });
      one.add(Array.from({ length: n }, (_, i) => ({ id: `v${i}`, vector: flat.subarray(i * dim, (i + 1) * dim) })));
      const host = threadsHost();
      const out = { isolated: self.crossOriginIsolated, cases: [] };
      try {
        out.init = await host.call('init', { dimension: dim });
        await host.call('add', { rows: n, first: 0, data: flat });
        const q = new Float32Array(queries.length * dim);
        queries.forEach((x, i) => q.set(x, i * dim));
        for (const k of [1, 10, 100]) {
          const want = JSON.stringify(one.searchMany(queries, { k }));
          for (const [threads, chunk] of [[1, 0], [2, 0], [3, 0], [2, 1000], [2, 4096], [3, 777]]) {
            const got = await host.call('search', { queries: q.slice(), k, threads, chunk });
            out.cases.push({ k, threads, chunk, equal: JSON.stringify(got.hits) === want, hits: got.hits.reduce((a, l) => a + l.length, 0), threadMs: got.threadMs.length });
          }
        }
        out.error = await host.call('search', { queries: q.slice(), k: 10, threads: 17, chunk: 0 }).then(() => null, (e) => e.message);
      } finally {
        host.terminate();
        one.dispose();
      }
      return out;
    });
    assert.equal(r.isolated, true, 'the page is cross-origin isolated');
    assert.equal(r.init.memoryShared, true, 'the module runs on a SharedArrayBuffer heap');
    assert.equal(r.cases.length, 18);
    for (const c of r.cases) {
      assert.ok(c.equal, `k ${c.k}, ${c.threads} threads, chunk ${c.chunk}: hits differ from VectorIndex.searchMany`);
      assert.equal(c.hits, 24 * c.k, `k ${c.k}: every query has k hits`);
      assert.equal(c.threadMs, c.threads, 'one time per thread');
    }
    assert.match(r.error, /threads: expected 1\.\.16, got 17/);
  }, { extraAllowed: ['/tests/bench/threads/', '/build/wasm-threads/threads/'] });
});
