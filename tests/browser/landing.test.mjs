// The landing page in headless Chromium: the module loads in a Web Worker, splits the sample corpus,
// and the DOM shows the same sentence counts the JS API computes in Node.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { withPage, repoRoot } from './harness.mjs';
import { init, splitSentences } from '../../web/src/index.js';

test('landing page loads the module in a Worker and shows sentence counts equal to Node', async () => {
  await init();
  const corpus = JSON.parse(readFileSync(join(repoRoot, 'web/dist/corpus.json'), 'utf8'));
  const expected = corpus.documents.map((d) => splitSentences(d.text).length);
  await withPage(async ({ page, url, requests, consoleErrors, screenshot }) => {
    const response = await page.goto(url);
    assert.equal(response.status(), 200);
    assert.equal(response.headers()['cross-origin-opener-policy'], 'same-origin');
    await page.waitForFunction(() => document.getElementById('status').dataset.state === 'done' ||
      document.getElementById('status').classList.contains('err'), null, { timeout: 30000 });
    const status = await page.textContent('#status');
    assert.match(status, /^done: /, status);
    assert.match(status, /in a Web Worker/);
    const rows = await page.$$eval('#results tbody tr', (trs) => trs.map((tr) => [tr.cells[0].textContent, Number(tr.cells[2].textContent)]));
    assert.deepEqual(rows, corpus.documents.map((d, i) => [d.id, expected[i]]));
    // The same build also runs on the page's main thread.
    const mainThread = await page.evaluate(async () => {
      const m = await import('/web/src/index.js');
      await m.init();
      return m.splitSentences('Dr. Smith arrived. He sat.').map((s) => s.text);
    });
    assert.deepEqual(mainThread, ['Dr. Smith arrived.', 'He sat.']);
    await screenshot('landing-1280x800');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot('landing-390x844');
    const wasm = requests.filter((r) => r.endsWith('.wasm'));
    assert.equal(new Set(wasm).size, 1, `wasm requests: ${wasm}`);
    assert.ok(requests.every((r) => r.startsWith(url)), `a request left 127.0.0.1: ${requests.filter((r) => !r.startsWith(url))}`);
    assert.deepEqual(consoleErrors, []);
  });
});

test('the server sends .wasm as application/wasm and refuses paths outside the demo folders', async () => {
  const { startServer } = await import('../../scripts/serve.mjs');
  const s = await startServer({ port: 0, quiet: true });
  try {
    const w = await fetch(new URL('web/dist/ragwasm.wasm', s.url));
    assert.equal(w.headers.get('content-type'), 'application/wasm');
    assert.equal(w.headers.get('cross-origin-embedder-policy'), 'require-corp');
    const m = await fetch(new URL('web/dist/ragwasm.mjs', s.url));
    assert.match(m.headers.get('content-type'), /^text\/javascript/);
    for (const bad of ['package.json', 'web/../package.json', 'node_modules/playwright-core/package.json', '.git/config']) {
      assert.equal((await fetch(new URL(bad, s.url))).status, 404, bad);
    }
    // An unchanged file is revalidated with its ETag: 304 without a body; another tag gets the bytes.
    const etag = w.headers.get('etag');
    assert.match(etag, /^"[0-9a-f]+-[0-9a-f]+"$/);
    const again = await fetch(new URL('web/dist/ragwasm.wasm', s.url), { headers: { 'If-None-Match': etag } });
    assert.equal(again.status, 304);
    assert.equal((await again.arrayBuffer()).byteLength, 0);
    const other = await fetch(new URL('web/dist/ragwasm.wasm', s.url), { headers: { 'If-None-Match': '"0-0"' } });
    assert.equal(other.status, 200);
    assert.equal((await other.arrayBuffer()).byteLength, Number(w.headers.get('content-length')));
  } finally {
    await s.close();
  }
});

// #30 S-2: a symlink inside a served folder that leads outside it is a 404, as under /shared-data/.
// #30 S-1: a file replaced or removed while it is being served, or a read that fails, ends that request only.
test('the server follows no symlink out of its folders and survives files replaced during a request', async () => {
  const { startServer } = await import('../../scripts/serve.mjs');
  const { mkdtempSync, mkdirSync, writeFileSync, symlinkSync, unlinkSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const fs = createRequire(import.meta.url)('node:fs');
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-serve-'));
  mkdirSync(join(dir, 'web', 'sub'), { recursive: true });
  mkdirSync(join(dir, 'secret'));
  writeFileSync(join(dir, 'secret', 'key.txt'), 'SECRET');
  writeFileSync(join(dir, 'web', 'a.txt'), 'hello');
  writeFileSync(join(dir, 'web', 'sub', 'b.txt'), 'inside');
  symlinkSync(join(dir, 'secret', 'key.txt'), join(dir, 'web', 'leak.txt'));
  symlinkSync(join(dir, 'secret'), join(dir, 'web', 'leakdir'));
  symlinkSync(join(dir, 'web', 'sub', 'b.txt'), join(dir, 'web', 'ok.txt'));  // a link that stays inside is served
  const s = await startServer({ port: 0, quiet: true, root: dir });
  const original = fs.createReadStream;
  try {
    const get = async (p) => { const r = await fetch(new URL(p, s.url)); return [r.status, await r.text()]; };
    assert.deepEqual(await get('web/a.txt'), [200, 'hello']);
    assert.deepEqual(await get('web/ok.txt'), [200, 'inside']);
    for (const p of ['web/leak.txt', 'web/leakdir/key.txt', 'web/leakdir/']) assert.equal((await get(p))[0], 404, p);
    // The file is removed (a rebuild replacing it) between the server's check and its read.
    fs.createReadStream = function replaced(...args) { rmSync(join(dir, 'web', 'a.txt'), { force: true }); return original.apply(this, args); };
    syncBuiltinESMExports();
    assert.deepEqual(await get('web/a.txt'), [200, 'hello'], 'the bytes of the file that was opened');
    // A read that fails half-way: the response is cut, the server keeps serving.
    fs.createReadStream = function failing(...args) {
      const st = original.apply(this, args);
      process.nextTick(() => st.destroy(Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' })));
      return st;
    };
    syncBuiltinESMExports();
    await assert.rejects(fetch(new URL('web/sub/b.txt', s.url)).then((r) => r.text()));
    fs.createReadStream = original;
    syncBuiltinESMExports();
    assert.equal((await get('web/a.txt'))[0], 404);
    assert.deepEqual(await get('web/sub/b.txt'), [200, 'inside'], 'still serving');
    unlinkSync(join(dir, 'web', 'ok.txt'));
  } finally {
    fs.createReadStream = original;
    syncBuiltinESMExports();
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
