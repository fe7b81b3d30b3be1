// Chunking playground in headless Chromium: the chunk counts in the DOM equal chunk() in Node for
// the same document and options (sample document, a strategy change, a generated 1 MB document),
// the work happens in a Worker, and the 1 MB document leaves the page usable.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import { skipUnlessShared } from '../js/helpers.mjs';
import { join } from 'node:path';
import { withPage, repoRoot } from './harness.mjs';
import { init } from '../../web/src/index.js';
import { chunk, chunkAsync } from '../../web/src/index.js';
import { createStaticEmbedder } from '../../web/src/index.js';
import { evaluateEvidence } from '../../web/src/metrics/metrics.js';
import { generateBigText } from '../../web/demo/lib/bigtext.js';

const corpus = JSON.parse(readFileSync(join(repoRoot, 'web/dist/corpus.json'), 'utf8'));
const hasSparse = existsSync(join(repoRoot, 'web/src/retrieve/sparse.js'));

async function waitDone(page, timeout = 45000) {
  await page.waitForFunction(() => ['done', 'err'].includes(document.getElementById('status').dataset.state), null, { timeout });
  const text = await page.textContent('#status');
  assert.match(text, /^done/, text);
}

const counts = (page) => page.$$eval('[data-stat=count]', (els) => els.map((e) => Number(e.textContent)));

async function setConfig(page, key, o) {
  await page.selectOption(`#${key}-strategy`, o.strategy);
  for (const k of ['chunkSize', 'chunkOverlap', 'overlapSentences', 'splitLevels', 'breakpointAmount']) if (o[k] !== undefined) await page.fill(`#${key}-${k}`, String(o[k]));
  if (o.unit) await page.selectOption(`#${key}-unit`, o.unit);
}

// Evidence recall@k the way the page computes it, in Node (BM25 over every corpus chunk).
async function nodeEvidence(docId, options, maxK = 20) {
  const { Bm25Index } = await import('../../web/src/retrieve/sparse.js');
  const questions = corpus.questions.filter((q) => q.answerable !== false && q.evidence?.length && q.doc_ids?.includes(docId));
  const all = [];
  for (const d of corpus.documents) for (const c of chunk(d, options)) all.push({ text: c.text, docId: d.id });
  const index = Bm25Index.create();
  const docs = all.map((c, i) => ({ id: String(i), text: c.text }));
  index.add(docs);
  const r = evaluateEvidence(questions.map((q) => ({
    evidence: q.evidence.map((t) => ({ text: t })),
    chunks: index.search(q.question, { k: maxK }).map((hit) => all[Number(hit.id)]),
  })), { cutoffs: [1, 3, 5, 10], maxK });
  index.dispose?.();
  return r;
}

test('chunking playground: chunk counts equal chunk() in Node, A/B, evidence recall, 1 MB stays responsive', async () => {
  await init();
  await withPage(async ({ page, url, consoleErrors, screenshot, requests }) => {
    await page.goto(`${url}web/demo/chunking.html`);
    await waitDone(page);
    const doc = corpus.documents.find((d) => d.id === 'leave-policy');
    const A = { strategy: 'recursive', chunkSize: 400, chunkOverlap: 80, unit: 'utf16', strict: false };
    const B = { strategy: 'markdown-header', chunkSize: 1000, chunkOverlap: 0, unit: 'utf16', splitLevels: 3 };
    assert.deepEqual(await counts(page), [chunk(doc, A).length, chunk(doc, B).length]);
    // header paths of B are shown for each chunk
    const paths = await page.$$eval('[data-result=b] td.path', (tds) => tds.map((t) => t.textContent));
    assert.deepEqual(paths, chunk(doc, B).map((c) => (c.headerPath.length ? c.headerPath.join(' › ') : '—')));
    // every chunk start is marked in the text view, overlaps are drawn
    assert.equal(await page.$$eval('[data-result=a] .chunk-view .mark', (m) => m.length), chunk(doc, A).length);
    assert.ok(await page.$$eval('[data-result=a] .chunk-view .ov', (m) => m.length) > 0, 'recursive with overlap 80 shows overlaps');
    if (hasSparse) {
      const rows = await page.$$eval('#evidence-table tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td[data-k]')].map((td) => td.textContent)));
      const want = [await nodeEvidence('leave-policy', A), await nodeEvidence('leave-policy', B)].map((r) => [1, 3, 5, 10].map((k) => r.recall[k].toFixed(4)));
      assert.deepEqual(rows, want);
    }
    await screenshot('chunking-1280x800');

    // Change B: sentence strategy, 300 characters, 1 sentence overlap; another document.
    const B2 = { strategy: 'sentence', chunkSize: 300, unit: 'utf16', overlapSentences: 1 };
    await page.selectOption('#sample', 'employee-handbook');
    await setConfig(page, 'b', B2);
    await page.waitForFunction(() => /sentences, size 300/.test(document.getElementById('rb-h').textContent) && document.getElementById('status').dataset.state === 'done', null, { timeout: 45000 });
    const hb = corpus.documents.find((d) => d.id === 'employee-handbook');
    assert.deepEqual(await counts(page), [chunk(hb, A).length, chunk(hb, B2).length]);

    // Semantic chunking with the default static model, same count as chunkAsync in Node.
    await setConfig(page, 'a', { strategy: 'semantic', chunkSize: 1500, breakpointAmount: 90 });
    await page.waitForFunction(() => /^A: semantic/.test(document.getElementById('ra-h').textContent) && document.getElementById('status').dataset.state === 'done', null, { timeout: 45000 });
    const model = await createStaticEmbedder({ model: readFileSync(join(repoRoot, 'models/build/static-model.bin')) });
    const S = { strategy: 'semantic', chunkSize: 1500, unit: 'utf16', breakpoint: 'percentile', breakpointAmount: 90, embedder: async (t) => model.embedSync(t) };
    assert.equal((await counts(page))[0], (await chunkAsync(hb, S)).length);
    model.dispose();
    await setConfig(page, 'a', A);
    await page.waitForFunction(() => /^A: recursive/.test(document.getElementById('ra-h').textContent) && document.getElementById('status').dataset.state === 'done', null, { timeout: 45000 });

    // Bad options are explained in words, and the page keeps working.
    await page.fill('#a-chunkOverlap', '500');
    await page.waitForFunction(() => document.getElementById('status').dataset.state === 'err', null, { timeout: 20000 });
    assert.match(await page.textContent('#status'), /chunkOverlap/);
    await page.fill('#a-chunkOverlap', '80');
    await page.waitForFunction(() => document.getElementById('status').dataset.state === 'done', null, { timeout: 45000 });

    // 1 MB: chunked in the Worker; the main thread keeps handling input meanwhile.
    await page.evaluate(() => {
      window.__longest = 0;
      new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longest = Math.max(window.__longest, e.duration); }).observe({ type: 'longtask', buffered: false });
    });
    await page.click('#big');
    await page.click('#paste-toggle');
    await page.fill('#paste', 'typing while the worker chunks');
    assert.equal(await page.inputValue('#paste'), 'typing while the worker chunks');
    await waitDone(page, 60000);
    const big = generateBigText(corpus.documents.map((d) => d.text));
    assert.equal(big.length, 1 << 20);
    assert.match(await page.textContent('#doc-info'), /1,048,576 characters/);
    assert.deepEqual(await counts(page), [chunk({ id: 'generated-1mb', text: big }, A).length, chunk({ id: 'generated-1mb', text: big }, B2).length]);
    const rendered = await page.$$eval('.chunk-view', (vs) => vs.map((v) => v.textContent.replace(/#\d+/g, '').length));
    assert.ok(rendered.every((n) => n <= 24000 + 10), `the view renders a window, not the whole megabyte: ${rendered}`);
    const longest = await page.evaluate(() => window.__longest);
    // Reported, not asserted (no timing assertions): long tasks are those over 50 ms.
    console.log(`# 1 MB document: ${await page.textContent('#status')}; longest main-thread task ${longest ? `${longest.toFixed(0)} ms` : 'none over 50 ms'}`);
    await page.click('[data-result=a] button:has-text("next")');
    assert.match(await page.textContent('[data-result=a]'), /characters 24,000–48,000/);

    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot('chunking-390x844');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px at 390 px`);
    assert.ok(requests.every((r) => r.startsWith(url)), 'every request stays on 127.0.0.1');
    assert.deepEqual(consoleErrors, []);
  });
});

test('chunking playground: a dropped user file is extracted and chunked; cancel works', async () => {
  await init();
  await withPage(async ({ page, url, consoleErrors }) => {
    // Without ../shared the listing is empty and no example group is shown.
    await page.route('**/shared-data/index.json', (r) => r.fulfill({ status: 200, contentType: 'application/json', body: '{"groups":[]}' }));
    await page.goto(`${url}web/demo/chunking.html`);
    await waitDone(page);
    await page.waitForFunction(() => document.getElementById('sample').dataset.shared === 'none', null, { timeout: 20000 });
    assert.equal(await page.$$eval('#sample optgroup[data-shared]', (g) => g.length), 0);
    const hostile = readFileSync(join(repoRoot, 'examples/corpus/hostile/hostile.md'), 'utf8');
    await page.setInputFiles('#file', { name: 'hostile.md', mimeType: 'text/markdown', buffer: Buffer.from(hostile) });
    await page.waitForFunction(() => /hostile\.md/.test(document.getElementById('doc-info').textContent), null, { timeout: 20000 });
    await waitDone(page);
    const A = { strategy: 'recursive', chunkSize: 400, chunkOverlap: 80, unit: 'utf16', strict: false };
    assert.equal((await counts(page))[0], chunk({ id: 'hostile.md', text: hostile }, A).length);
    assert.equal(await page.evaluate(() => globalThis.__RAGWASM_XSS__), undefined, 'no payload of the hostile document ran');
    // Cancel: start the 1 MB run and cancel it at once.
    await page.evaluate(() => { document.getElementById('big').click(); document.getElementById('cancel').click(); });
    assert.equal(await page.$eval('#status', (e) => e.dataset.state), 'cancelled');
    await page.click('#run');
    await waitDone(page, 60000);
    assert.deepEqual(consoleErrors, []);
  });
});

test('chunking playground: shared SEC text picked from the example list gives the chunk counts of chunk() in Node', async (t) => {
  const dir = skipUnlessShared(t, 'data/sec-filings/text');
  if (!dir) return;
  await init();
  const name = readdirSync(dir).filter((f) => f.endsWith('.txt')).sort((a, b) => statSync(join(dir, a)).size - statSync(join(dir, b)).size)[0];
  const text = readFileSync(join(dir, name), 'utf8');
  await withPage(async ({ page, url, consoleErrors, requests }) => {
    // The server maps /shared-data/ to the two shared folders only.
    for (const bad of ['shared-data/sec-filings/%2e%2e/README.md', 'shared-data/sec-filings/..%2f..%2fSHA256SUMS', 'shared-data/cisi/x.txt', 'shared-data/markdown-docs/simdjson/LICENSE']) {
      assert.equal((await fetch(`${url}${bad}`)).status, 404, bad);
    }
    await page.goto(`${url}web/demo/chunking.html`);
    await waitDone(page);
    await page.waitForFunction(() => document.getElementById('sample').dataset.shared === 'listed', null, { timeout: 20000 });
    assert.ok(await page.$('#sample optgroup[data-shared="sec-filings"]'), 'the SEC texts are listed');
    assert.ok(await page.$('#sample optgroup[data-shared="markdown-docs"]'), 'the shared markdown docs are listed');
    await page.selectOption('#sample', `shared:sec-filings/${name}`);
    await page.waitForFunction((n) => document.getElementById('doc-info').textContent.startsWith(`sec-filings/${n}:`), name, { timeout: 20000 });
    await waitDone(page);
    assert.match(await page.textContent('#doc-info'), new RegExp(`${text.length.toLocaleString('en-US')} characters \\(shared example\\)`));
    const A = { strategy: 'recursive', chunkSize: 400, chunkOverlap: 80, unit: 'utf16', strict: false };
    const B = { strategy: 'markdown-header', chunkSize: 1000, chunkOverlap: 0, unit: 'utf16', splitLevels: 3 };
    const d = { id: name, text };
    const want = [chunk(d, A).length, chunk(d, B).length];
    assert.ok(want[0] > 10, `${name}: ${want[0]} chunks`);
    assert.deepEqual(await counts(page), want);
    await page.screenshot({ path: join(repoRoot, 'test-results/chunking-sec-1280x800.png') });
    assert.ok(requests.every((r) => r.startsWith(url)));
    assert.deepEqual(consoleErrors, []);
  });
});

test('chunking playground: a pipeline config file sets configuration A; a malformed one names the JSON path and changes nothing', async () => {
  await init();
  await withPage(async ({ page, url, consoleErrors }) => {
    await page.goto(`${url}web/demo/chunking.html`);
    await waitDone(page);
    const doc = corpus.documents.find((d) => d.id === 'leave-policy');
    const A = { strategy: 'recursive', chunkSize: 400, chunkOverlap: 80, unit: 'utf16', strict: false };
    const B = { strategy: 'markdown-header', chunkSize: 1000, chunkOverlap: 0, unit: 'utf16', splitLevels: 3 };
    const fromConfig = { strategy: 'fixed', chunkSize: 150, chunkOverlap: 0, unit: 'utf16' };
    const want = [chunk(doc, fromConfig).length, chunk(doc, B).length];
    assert.notEqual(want[0], chunk(doc, A).length);
    const file = (name, body) => ({ name, mimeType: 'application/json', buffer: Buffer.from(body) });
    await page.setInputFiles('#config-file', file('fixed.json', JSON.stringify({ chunker: { strategy: 'fixed', chunkSize: 150, chunkOverlap: 0 }, indexes: { bm25: {} } })));
    await page.waitForFunction((n) => /configuration A from fixed\.json/.test(document.getElementById('config-status').textContent)
      && document.querySelector('[data-stat=count]')?.textContent === String(n) && document.getElementById('status').dataset.state === 'done', want[0], { timeout: 45000 });
    assert.deepEqual(await counts(page), want);
    // A malformed config: the library's error names the JSON path; configuration A and the counts stay.
    await page.setInputFiles('#config-file', file('bad.json', JSON.stringify({ chunker: { strategy: 'fixed', chunkSize: 150, chunkOverlap: 400 } })));
    await page.waitForFunction(() => /bad\.json not used/.test(document.getElementById('config-status').textContent), null, { timeout: 45000 });
    assert.match(await page.textContent('#config-status'), /chunker\.chunkOverlap: expected less than chunker\.chunkSize/);
    assert.equal(await page.inputValue('#a-chunkSize'), '150');
    assert.deepEqual(await counts(page), want);
    assert.deepEqual(consoleErrors, []);
  });
});

test('chunking playground: ?config=URL reads a file of this site into configuration A; another origin or an HTTP error is refused and named', async () => {
  await init();
  await withPage(async ({ page, url, requests }) => {
    const doc = corpus.documents.find((d) => d.id === 'leave-policy');
    const fromConfig = { strategy: 'fixed', chunkSize: 120, chunkOverlap: 0, unit: 'utf16' };
    const B = { strategy: 'markdown-header', chunkSize: 1000, chunkOverlap: 0, unit: 'utf16', splitLevels: 3 };
    const want = [chunk(doc, fromConfig).length, chunk(doc, B).length];
    // The page's own fetch of a same-origin address, answered here (the static server serves only the demo's files).
    await page.route(`${url}configs/**`, (route) => (route.request().url().endsWith('/fixed.json')
      ? route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ chunker: { strategy: 'fixed', chunkSize: 120, chunkOverlap: 0 }, indexes: { bm25: {} } }) })
      : route.fulfill({ status: 404, body: 'not here' })));
    await page.goto(`${url}web/demo/chunking.html?config=/configs/fixed.json`);
    await page.waitForFunction((n) => /configuration A from fixed\.json/.test(document.getElementById('config-status').textContent)
      && document.querySelector('[data-stat=count]')?.textContent === String(n) && document.getElementById('status').dataset.state === 'done', want[0], { timeout: 45000 });
    assert.deepEqual(await counts(page), want);
    assert.equal(await page.inputValue('#a-chunkSize'), '120');

    await page.goto(`${url}web/demo/chunking.html?config=/configs/missing.json`);
    await page.waitForFunction(() => /not used/.test(document.getElementById('config-status').textContent), null, { timeout: 45000 });
    assert.match(await page.textContent('#config-status'), /\?config=\/configs\/missing\.json not used: HTTP 404/);
    await waitDone(page);
    assert.equal(await page.inputValue('#a-chunkSize'), '400', 'configuration A keeps its default');

    const before = requests.length;
    await page.goto(`${url}web/demo/chunking.html?config=http://config.invalid/cfg.json`);
    await page.waitForFunction(() => /not used/.test(document.getElementById('config-status').textContent), null, { timeout: 45000 });
    assert.match(await page.textContent('#config-status'), /only a file of this site .* is read/);
    assert.deepEqual(requests.slice(before).filter((r) => new URL(r).host === 'config.invalid'), [], 'no request to another origin');
  });
});
