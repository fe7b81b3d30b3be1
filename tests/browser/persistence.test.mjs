// Persistence in headless Chromium (issue 4 item 6): web/demo/persistence-check.html builds a
// Bm25Index and a hybrid Collection from the sample corpus and saves them through storage.js (the
// backend must be OPFS in Chromium); after a page reload both load and give identical hits and
// scores; bytes overwritten with a damaged copy (same API) load as CORRUPT_INDEX, shown on the page.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { withPage } from './harness.mjs';

// RAGWASM_DIST=<folder>: serve that build's ragwasm.mjs/.wasm as /web/dist/ (as the Node tests do).
async function routeDist(context) {
  if (!process.env.RAGWASM_DIST) return;
  const dist = resolve(process.env.RAGWASM_DIST);
  await context.route(/\/web\/dist\/ragwasm\.(mjs|wasm)$/, (route) => {
    const name = new URL(route.request().url()).pathname.split('/').pop();
    route.fulfill({ status: 200, body: readFileSync(join(dist, name)), headers: {
      'Content-Type': name.endsWith('.wasm') ? 'application/wasm' : 'text/javascript',
      'Cross-Origin-Resource-Policy': 'same-origin', 'Cache-Control': 'no-cache' } });
  });
}

async function step(page, url, name) {
  await page.goto(`${url}web/demo/persistence-check.html?step=${name}`);
  await page.waitForSelector('body[data-done]', { timeout: 30_000 });
  const done = await page.getAttribute('body', 'data-done');
  const status = await page.textContent('#status');
  assert.equal(done, 'ok', `step ${name}: ${status}`);
  return { result: JSON.parse(await page.textContent('#result')), status };
}

test('Chromium: save to OPFS, reload, load gives identical hits; damaged bytes give CORRUPT_INDEX', { timeout: 60_000 }, async () => {
  await withPage(async ({ context, page, url, consoleErrors, screenshot }) => {
    await routeDist(context);
    const built = (await step(page, url, 'build')).result;
    assert.equal(built.backend, 'opfs');
    assert.ok(built.chunks >= 20, `collection size ${built.chunks}`);  // 26 sample documents
    assert.ok(built.sizes.bm25 > 1000 && built.sizes.collection > built.sizes.bm25, JSON.stringify(built.sizes));
    for (const [q, hits] of Object.entries(built.hits.bm25)) assert.ok(hits.length > 0, `bm25 no hits for ${q}`);
    for (const [q, hits] of Object.entries(built.hits.collection)) assert.ok(hits.length > 0, `collection no hits for ${q}`);
    assert.deepEqual(built.stored.filter((n) => n.startsWith('persistence-check-')), ['persistence-check-bm25', 'persistence-check-collection']);

    // A new page load, then page.reload() of it: the same OPFS, identical results both times.
    const loaded = (await step(page, url, 'load')).result;
    assert.equal(loaded.backend, 'opfs');
    assert.equal(loaded.chunks, built.chunks);
    assert.deepEqual(loaded.hits, built.hits);  // ids and scores, exactly
    await page.reload();
    await page.waitForSelector('body[data-done]', { timeout: 30_000 });
    const reloaded = JSON.parse(await page.textContent('#result'));
    assert.equal(reloaded.step, 'load');
    assert.deepEqual(reloaded.hits, built.hits);

    const { result: corrupt, status } = await step(page, url, 'corrupt');
    assert.equal(corrupt.storedIsDamagedCopy, true);  // saveBytes replaced the whole copy (no mix)
    assert.deepEqual(corrupt.codes, { bm25: 'CORRUPT_INDEX', collection: 'CORRUPT_INDEX', bm25Truncated: 'CORRUPT_INDEX', collectionTruncated: 'CORRUPT_INDEX' });
    assert.match(status, /CORRUPT_INDEX/);
    assert.equal(await page.isVisible('text=CORRUPT_INDEX'), true);
    assert.equal(corrupt.goodStillLoads, true);
    await screenshot('persistence-corrupt');

    // storage.js keeps one copy per name (atomic replace, no backup): recovery is a new save.
    const restored = (await step(page, url, 'restore')).result;
    assert.deepEqual(restored.reloaded, built.hits);
    assert.deepEqual(restored.hits, built.hits);
    assert.deepEqual(consoleErrors, []);
  });
});
