// Doc chat in headless Chromium: the sample corpus is indexed in the page; with no endpoint the
// extractive answer cites sources and no request leaves 127.0.0.1 or carries document text; the
// collection survives a reload with the same answer; a hostile document and a hostile LLM reply
// (from a local scripted server speaking the OpenAI protocol, with CORS) never run script.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { withPage, repoRoot } from './harness.mjs';
import { openaiSse, anthropicSse, ProtocolTestDouble } from '../js/llm-protocol-double.mjs';
import { generateBigText } from '../../web/demo/lib/bigtext.js';
import { makePdf } from '../fixtures/make-pdf.mjs';
import { sharedPath } from '../js/helpers.mjs';
import { Collection, documentTitle, init, PRESETS, unmatchedWords } from '../../web/src/index.js';

const corpus = JSON.parse(readFileSync(join(repoRoot, 'web/dist/corpus.json'), 'utf8'));
const QUESTION = 'How many days of paid time off do full-time U.S. employees get per year?';

// The worker saves the index once it has been idle after an add (chat-worker-main.js scheduleSave): a
// reload that expects the saved index waits for the page's chat:saved mark first, as a person would.
async function waitSaved(page, count = 1) {
  await page.waitForFunction((n) => performance.getEntriesByName('chat:saved').length >= n, count, { timeout: 45000 });
}

async function waitState(page, states, timeout = 45000) {
  await page.waitForFunction((s) => s.includes(document.getElementById('status').dataset.state) || document.getElementById('status').classList.contains('err'),
    states, { timeout });
  return page.textContent('#status');
}

function recordBodies(context) {
  const out = [];
  context.on('request', (r) => out.push({ url: r.url(), method: r.method(), body: r.postData() }));
  return out;
}

async function ask(page, q) {
  await page.fill('#question', q);
  await page.click('#ask-btn');
  const st = await waitState(page, ['answered', 'failed']);
  return { status: st, answer: await page.textContent('#answer'), sources: await page.$$eval('#sources li > a', (as) => as.map((a) => a.textContent)) };
}

test('doc chat: local indexing, extractive answer with citations, nothing leaves the device, persistence', async () => {
  await withPage(async ({ page, context, url, requests, consoleErrors, screenshot }) => {
    const bodies = recordBodies(context);
    await page.goto(`${url}web/demo/chat.html`);
    assert.match(await waitState(page, ['done']), /^ready/);
    await page.click('#sample');
    await page.waitForFunction(() => /^ready: 26 documents/.test(document.getElementById('status').textContent) || document.getElementById('status').classList.contains('err'), null, { timeout: 45000 });
    assert.match(await page.textContent('#status'), /^ready: 26 documents, \d+ chunks/);
    assert.equal(await page.$$eval('#doclist li', (li) => li.length), 26);

    const first = await ask(page, QUESTION);
    assert.match(first.status, /answered from your documents/, first.status);
    assert.match(first.answer, /22 days/, first.answer);
    assert.match(first.answer, /\[1\]/);
    assert.ok(first.sources.length >= 1);
    // The citation opens the source with the cited sentence highlighted, and it is the document's own text.
    await page.click('#answer a.cite[data-n="1"]');
    const mark = await page.textContent('#source-mark');
    const meta = await page.textContent('#source-meta');
    const docName = meta.match(/^\[1\] (\S+)/)[1];
    const doc = corpus.documents.find((d) => (d.metadata?.file?.split('/').pop() ?? `${d.id}.md`) === docName);
    assert.ok(doc, `cited document ${docName} is in the corpus`);
    assert.ok(doc.text.includes(mark), 'the highlighted passage is text of the cited document');
    const plain = (x) => x.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
    assert.ok(plain(first.answer).includes(plain(mark)), 'the highlighted passage is the sentence the answer quotes (as plain text)');
    await screenshot('chat-1280x800');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot('chat-390x844');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px at 390 px`);
    await page.setViewportSize({ width: 1280, height: 800 });

    // Privacy: every request went to the static server, none carried a body (so no document text).
    assert.ok(requests.length > 0);
    assert.deepEqual(requests.filter((r) => !r.startsWith(url)), [], 'a request left 127.0.0.1');
    assert.deepEqual(bodies.filter((b) => b.method !== 'GET' || b.body), [], 'a request carried a body');
    assert.match(await page.textContent('#ledger-summary'), /^Nothing/);

    // Persistence: reload; the documents come back from IndexedDB and the saved index (OPFS in
    // Chromium) is loaded as is: the new worker chunked nothing. Same answer and sources.
    assert.equal(await page.$eval('#collection', (e) => e.dataset.chunkedDocs), '26');
    await waitSaved(page);
    await page.reload();
    await page.waitForFunction(() => /^restored: 26 saved documents/.test(document.getElementById('status').textContent) || document.getElementById('status').classList.contains('err'), null, { timeout: 45000 });
    assert.match(await page.textContent('#status'), /^restored: 26 saved documents, \d+ chunks · loaded saved index \(opfs\), nothing re-indexed$/);
    assert.equal(await page.$eval('#collection', (e) => e.dataset.chunkedDocs), '0', 'the worker chunked documents again after the reload');
    assert.equal(await page.isVisible('#index-note'), false);
    const again = await ask(page, QUESTION);
    assert.equal(again.answer, first.answer);
    assert.deepEqual(again.sources, first.sources);

    // A damaged saved index (one byte flipped in OPFS): the page says so in words, re-indexes the
    // stored documents (all 26), answers the same, and saves a good index again.
    const size = await page.evaluate(async () => {
      const fh = await (await navigator.storage.getDirectory()).getFileHandle('ragwasm-doc-chat.collection');
      const b = new Uint8Array(await (await fh.getFile()).arrayBuffer());
      b[b.length >> 1] ^= 0xff;
      const w = await fh.createWritable();
      await w.write(b);
      await w.close();
      return b.length;
    });
    assert.ok(size > 1000, `saved index of ${size} bytes`);
    await page.reload();
    await page.waitForFunction(() => /^restored: 26 saved documents/.test(document.getElementById('status').textContent), null, { timeout: 45000 });
    assert.match(await page.textContent('#status'), /re-indexed \(damaged\)$/);
    assert.match(await page.textContent('#index-note'), /^The saved index could not be used: .*(CORRUPT_INDEX|checksum).*nothing was lost\.$/);
    assert.equal(await page.$eval('#collection', (e) => e.dataset.chunkedDocs), '26');
    assert.equal(await page.$$eval('#doclist li', (li) => li.length), 26);
    await page.screenshot({ path: join(repoRoot, 'test-results/chat-index-error-1280x800.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(repoRoot, 'test-results/chat-index-error-390x844.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
    const rebuilt = await ask(page, QUESTION);
    assert.equal(rebuilt.answer, first.answer);
    assert.deepEqual(rebuilt.sources, first.sources);
    await waitSaved(page);
    await page.reload();
    await page.waitForFunction(() => /^restored: 26 saved documents.*loaded saved index/.test(document.getElementById('status').textContent), null, { timeout: 45000 });

    // Remove one document: it disappears from the list and from storage.
    await page.click('#doclist button[aria-label="remove leave-policy.md"]');
    await page.waitForFunction(() => document.getElementById('collection').dataset.documents === '25');
    await page.reload();
    await page.waitForFunction(() => /^restored: 25 saved documents/.test(document.getElementById('status').textContent), null, { timeout: 45000 });
    assert.deepEqual(requests.filter((r) => !r.startsWith(url)), []);
    assert.deepEqual(consoleErrors, []);
  });
});

/** A scripted OpenAI-protocol server on 127.0.0.1 with CORS (the page is on another port). */
async function startScriptedLlm(replyText) {
  const seen = [];
  const server = createServer(async (req, res) => {
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'authorization, content-type, accept, x-api-key, anthropic-version, anthropic-dangerous-direct-browser-access', 'access-control-allow-methods': 'POST, OPTIONS' };
    if (req.method === 'OPTIONS') { res.writeHead(204, cors).end(); return; }
    const chunks = [];
    for await (const c of req) chunks.push(c);
    seen.push({ path: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (!body.stream) {  // the follow-up rewrite (query_rewrite prompt) is not streamed
      res.writeHead(200, { ...cors, 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'x', object: 'chat.completion', model: 'double-model', choices: [{ index: 0, message: { role: 'assistant', content: 'what the document says' }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 4, total_tokens: 9 } }));
      return;
    }
    res.writeHead(200, { ...cors, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const pieces = replyText.match(/.{1,12}/gs);
    for (const ev of (req.url.endsWith('/messages') ? anthropicSse(pieces) : openaiSse(pieces))) res.write(`${ev}\n\n`);
    res.end();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${server.address().port}`, seen, close: () => new Promise((r) => server.close(r)) };
}

test('doc chat: a hostile document and a hostile streamed LLM reply never run script; only the configured endpoint is contacted', async () => {
  const hostileReply = 'Payload <img src=x onerror="globalThis.__RAGWASM_XSS__=1"><script>globalThis.__RAGWASM_XSS__=1</script> ' +
    '<a href="javascript:globalThis.__RAGWASM_XSS__=1">click</a> as the documents say [1] and [9].';
  const llm = await startScriptedLlm(hostileReply);
  try {
    await withPage(async ({ page, context, url, requests, consoleErrors }) => {
      const bodies = recordBodies(context);
      await page.goto(`${url}web/demo/chat.html`);
      await waitState(page, ['done']);
      const hostile = readFileSync(join(repoRoot, 'examples/corpus/hostile/hostile.md'));
      await page.setInputFiles('#files', { name: 'hostile.md', mimeType: 'text/markdown', buffer: hostile });
      await page.waitForFunction(() => /^ready: 1 documents/.test(document.getElementById('status').textContent) || document.getElementById('status').classList.contains('err'), null, { timeout: 45000 });
      assert.match(await page.textContent('#status'), /^ready: 1 documents/);
      const ex = await ask(page, 'What does the script tag do?');
      assert.ok(ex.answer.length > 0);
      if (await page.$('#answer a.cite')) await page.click('#answer a.cite');
      assert.equal(await page.evaluate(() => globalThis.__RAGWASM_XSS__), undefined, 'the hostile document ran script');
      assert.deepEqual(bodies.filter((b) => b.body), [], 'no request body before an endpoint is configured');

      // Configure the endpoint (key in memory only) and stream the hostile reply.
      await page.click('#settings summary');
      await page.selectOption('#provider', 'openai');
      await page.fill('#endpoint', `${llm.origin}/v1`);
      await page.fill('#model', 'double-model');
      await page.fill('#apikey', 'sk-test-demo-key');
      await page.dispatchEvent('#apikey', 'change');
      const r = await ask(page, 'What does the document say?');
      assert.match(r.status, /^answered/, r.status);
      assert.equal(r.answer, hostileReply, 'the reply is shown as text, exactly');
      assert.equal(await page.$$eval('#answer *:not(a.cite)', (els) => els.length), 0, 'no element was created from the reply');
      assert.equal(await page.$$eval('#answer a.cite', (as) => as.map((a) => a.textContent).join()), '[1]', '[9] points at no passage and stays text');
      await page.click('#answer a.cite');
      assert.equal(await page.isVisible('#source-mark'), true);
      assert.equal(await page.evaluate(() => globalThis.__RAGWASM_XSS__), undefined, 'the hostile reply ran script');

      // Two requests went to the endpoint (the follow-up rewrite with the chat history, then the
      // streamed answer); the ledger shows both; the key is not stored or logged.
      assert.equal(llm.seen.length, 2);
      assert.equal(llm.seen[0].headers.authorization, 'Bearer sk-test-demo-key');
      const sent = JSON.parse(llm.seen[0].body);
      assert.ok(JSON.stringify(sent.messages).includes('What does the document say?'));
      assert.equal(JSON.parse(llm.seen[1].body).stream, true);
      assert.equal(await page.textContent('#rewritten'), 'Searched for: what the document says');
      assert.equal(await page.$$eval('#ledger tbody tr', (trs) => trs.length), 2);
      assert.match(await page.textContent('#ledger tbody tr'), new RegExp(`127\\.0\\.0\\.1:${new URL(llm.origin).port}`));
      assert.ok(!(await page.textContent('#ledger')).includes('sk-test-demo-key'));
      assert.equal(await page.evaluate(() => JSON.stringify(localStorage).includes('sk-test-demo-key')), false, 'the key was stored without "remember"');
      // 'remember' stores the key in localStorage; unticking removes it again.
      await page.check('#remember');
      assert.equal(await page.evaluate(() => JSON.stringify(localStorage).includes('sk-test-demo-key')), true);
      await page.uncheck('#remember');
      assert.equal(await page.evaluate(() => JSON.stringify(localStorage).includes('sk-test-demo-key')), false);
      const outside = requests.filter((u) => !u.startsWith(url) && !u.startsWith(llm.origin));
      assert.deepEqual(outside, [], 'a request went somewhere other than the page server and the configured endpoint');
      assert.deepEqual(consoleErrors, []);
    });
  } finally {
    await llm.close();
  }
});

test('doc chat: a dropped PDF is extracted locally and a citation opens the right page with the sentence highlighted', async () => {
  await withPage(async ({ page, url, requests, consoleErrors }) => {
    await page.goto(`${url}web/demo/chat.html`);
    await waitState(page, ['done']);
    const pdf = makePdf([
      ['Introduction to the Falcon project.', 'This report is a test fixture written for ragwasm.'],
      ['Budget notes for the quarter.', 'Travel costs stayed flat.'],
      ['The Falcon project launch date is 14 March 2027.', 'The launch site is Lisbon.'],
    ]);
    // Dropped on the drop zone (a DataTransfer holding the file), as a user would.
    const dt = await page.evaluateHandle((b64) => {
      const d = new DataTransfer();
      d.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], 'falcon report.pdf', { type: 'application/pdf' }));
      return d;
    }, Buffer.from(pdf).toString('base64'));
    await page.dispatchEvent('#drop', 'drop', { dataTransfer: dt });
    await page.waitForFunction(() => /^ready: 1 documents/.test(document.getElementById('status').textContent) || document.getElementById('status').classList.contains('err'), null, { timeout: 45000 });
    assert.match(await page.textContent('#doclist'), /falcon report\.pdf · pdf/);
    const r = await ask(page, 'When is the Falcon project launch date?');
    assert.match(r.answer, /14 March 2027/);
    console.log(`# PDF answer: ${r.answer} | sources: ${r.sources.join(' | ')}`);
    assert.match(r.sources[0], /falcon report\.pdf, pages? (\d, )*3\b/);
    await page.click('#answer a.cite[data-n="1"]');
    assert.match(await page.textContent('#source-meta'), /^\[1\] falcon report\.pdf, pages? (\d, )*3\b/);
    const marks = await page.$$eval('#source-view mark', (ms) => ms.map((m) => m.textContent));
    assert.ok(marks.includes('The Falcon project launch date is 14 March 2027.'), `highlighted: ${marks}`);
    assert.deepEqual(requests.filter((u) => !u.startsWith(url)), []);
    assert.deepEqual(consoleErrors, []);
  });
});

// The tiny BERT-architecture ONNX fixture (random weights, real vocabulary) served from models/build/;
// generated here when missing, as the embed tests do. Returns a skip reason or null.
function ensureTinyBert() {
  if (existsSync(join(repoRoot, 'models/build/fixtures/tiny-bert/config.json'))) return null;
  const tok = sharedPath('models/bert-base-uncased/tokenizer.json');
  if (!tok) return 'needs ../shared/models/bert-base-uncased/tokenizer.json';
  try {
    execFileSync('/usr/bin/python3', ['-c', 'import onnx, numpy'], { stdio: 'ignore' });
  } catch {
    return 'needs Debian python3-onnx and python3-numpy for /usr/bin/python3';
  }
  execFileSync('/usr/bin/python3', [join(repoRoot, 'models/make-bert-fixture.py'), join(repoRoot, 'models/build/fixtures'), tok,
    '--name', 'tiny-bert', '--seed', '1234']);
  return null;
}

test('doc chat: an ONNX model and tokenizer picked by URL replace the dense leg, run locally', async (t) => {
  const skip = ensureTinyBert();
  if (skip) {
    t.skip(skip);
    return;
  }
  const hidden = JSON.parse(readFileSync(join(repoRoot, 'models/build/fixtures/tiny-bert/config.json'), 'utf8')).hidden_size;
  await withPage(async ({ page, url, requests, consoleErrors }) => {
    await page.goto(`${url}web/demo/chat.html`);
    await waitState(page, ['done']);
    await page.click('#sample');
    await page.waitForFunction(() => /^ready: 26 documents/.test(document.getElementById('status').textContent), null, { timeout: 45000 });
    await page.click('#model-settings summary');
    await page.fill('#onnx-url', '/models/build/fixtures/tiny-bert/onnx/model.onnx');
    await page.fill('#tok-url', '/models/build/fixtures/tiny-bert/tokenizer.json');
    // Cancel right after starting: the worker is replaced, the saved documents are re-indexed with
    // the default preset (BM25 only, issue 27), and the ONNX model never becomes the dense leg.
    await page.evaluate(() => { document.getElementById('use-onnx').click(); document.getElementById('cancel').click(); });
    await page.waitForFunction(() => /^cancelled; restored: 26 saved documents/.test(document.getElementById('status').textContent), null, { timeout: 45000 });
    assert.match(await page.textContent('#collection'), /BM25/);
    assert.doesNotMatch(await page.textContent('#collection'), /dense/);
    assert.equal(await page.isVisible('#cancel'), false);
    await page.click('#use-onnx');
    await page.waitForFunction(() => /^ready: dense \(ONNX/.test(document.getElementById('status').textContent) || document.getElementById('status').classList.contains('err'), null, { timeout: 60000 });
    assert.equal(await page.textContent('#status'), `ready: dense (ONNX, ${hidden}-d) for ${await page.$eval('#collection', (e) => e.dataset.chunks)} chunks`);
    assert.match(await page.textContent('#collection'), new RegExp(`BM25 \\+ dense \\(ONNX, ${hidden}-d\\)`));
    const r = await ask(page, QUESTION);
    assert.match(r.status, /answered from your documents/);
    assert.match(await page.textContent('#answer-meta'), /ONNX/);
    assert.ok(r.sources.length >= 1);
    const modelFetches = () => requests.filter((u) => u.endsWith('/models/build/fixtures/tiny-bert/onnx/model.onnx')).length;
    assert.ok(modelFetches() >= 1);
    const fetchedBefore = modelFetches();
    const cached = await page.evaluate(async () => (await (await caches.open('ragwasm-models-v1')).keys()).map((q) => q.url));
    assert.ok(cached.some((u) => u.endsWith('/models/build/fixtures/tiny-bert/onnx/model.onnx')), `Cache Storage holds the model: ${cached}`);
    // The URL choice is remembered: after a reload the ONNX model is loaded again (from Cache
    // Storage, not the network) and the index saved with its vectors is used as is.
    await page.reload();
    await page.waitForFunction(() => /^restored: 26 saved documents/.test(document.getElementById('status').textContent), null, { timeout: 45000 });
    assert.match(await page.textContent('#status'), /loaded saved index/);
    assert.match(await page.textContent('#collection'), new RegExp(`BM25 \\+ dense \\(ONNX, ${hidden}-d\\)`));
    assert.equal(await page.$eval('#collection', (e) => e.dataset.chunkedDocs), '0');
    const r2 = await ask(page, QUESTION);
    assert.equal(r2.answer, r.answer);
    assert.equal(modelFetches(), fetchedBefore, 'after the reload the model bytes came from Cache Storage');
    assert.deepEqual(requests.filter((u) => !u.startsWith(url)), []);
    assert.deepEqual(consoleErrors, []);
  });
});

test('doc chat: the Anthropic provider streams a cited answer through the same ledger', async () => {
  const reply = 'Full-time U.S. employees get 22 days of PTO per year [1].';
  const llm = await startScriptedLlm(reply);
  try {
    await withPage(async ({ page, url, requests, consoleErrors }) => {
      await page.goto(`${url}web/demo/chat.html`);
      await waitState(page, ['done']);
      await page.click('#sample');
      await page.waitForFunction(() => /^ready: 26 documents/.test(document.getElementById('status').textContent), null, { timeout: 45000 });
      await page.click('#settings summary');
      await page.selectOption('#provider', 'anthropic');
      await page.fill('#endpoint', llm.origin);
      await page.fill('#model', 'double-model');
      await page.fill('#apikey', 'sk-ant-test');
      const r = await ask(page, QUESTION);
      assert.match(r.status, /^answered/, r.status);
      assert.equal(r.answer, reply);
      assert.equal(llm.seen.length, 1);
      assert.equal(llm.seen[0].path, '/v1/messages');
      assert.equal(llm.seen[0].headers['x-api-key'], 'sk-ant-test');
      assert.equal(llm.seen[0].headers['anthropic-dangerous-direct-browser-access'], 'true');
      // The passages sent are the sources listed on the page, and the ledger shows that body.
      const body = JSON.parse(llm.seen[0].body);
      const firstSource = await page.$eval('#sources li .small', (e) => e.textContent.replace(/…$/, ''));
      assert.ok(JSON.stringify(body).includes(JSON.stringify(firstSource.slice(0, 60)).slice(1, -1)), 'the first passage was sent');
      assert.equal(await page.$$eval('#ledger tbody tr', (trs) => trs.length), 1);
      assert.match(await page.textContent('#ledger-summary'), /^1 request\(s\): \d[\d,]* bytes to 127\.0\.0\.1:/);
      assert.deepEqual(requests.filter((u) => !u.startsWith(url) && !u.startsWith(llm.origin)), []);
      assert.deepEqual(consoleErrors, []);
    });
  } finally {
    await llm.close();
  }
});

const CORS = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type, accept, x-api-key, anthropic-version, anthropic-dangerous-direct-browser-access' };

test('doc chat: Stop during a streamed answer and Cancel during indexing leave the page usable', async () => {
  // The protocol test double streams a long reply slowly (one piece every 150 ms); the preflight
  // gets CORS headers since the page runs on another port.
  const slow = 'The documents say the answer is in the handbook. '.repeat(8);
  const llm = await ProtocolTestDouble.start();
  let reply = { sse: openaiSse(slow.match(/.{1,10}/gs)), chunkDelayMs: 150, headers: CORS };
  llm.always((req) => (req.method === 'OPTIONS' ? { status: 204, headers: CORS, body: '' } : reply));
  try {
    await withPage(async ({ page, url, requests, consoleErrors }) => {
      await page.goto(`${url}web/demo/chat.html`);
      await waitState(page, ['done']);
      await page.click('#sample');
      await page.waitForFunction(() => /^ready: 26 documents/.test(document.getElementById('status').textContent), null, { timeout: 45000 });

      // Cancel while a generated 1 MB document is being chunked/embedded: the worker is replaced,
      // the saved index of the 26 documents is loaded (nothing re-indexed), the big one is not kept.
      const big = generateBigText(corpus.documents.map((d) => d.text));
      const clicked = page.evaluate(() => new Promise((resolve) => {
        const t = setInterval(() => {
          const p = document.getElementById('progress-text').textContent;
          if (/^(chunking|embedding) big\.md/.test(p)) { clearInterval(t); document.getElementById('cancel').click(); resolve(p); }
        }, 1);
      }));
      await page.setInputFiles('#files', { name: 'big.md', mimeType: 'text/markdown', buffer: Buffer.from(big) });
      console.log(`# cancelled during: ${await clicked}`);
      await page.waitForFunction(() => /^cancelled; restored: 26 saved documents/.test(document.getElementById('status').textContent), null, { timeout: 45000 });
      assert.match(await page.textContent('#status'), /loaded saved index/);
      assert.equal(await page.$$eval('#doclist li', (li) => li.length), 26);
      assert.ok(!(await page.textContent('#doclist')).includes('big.md'));
      assert.equal(await page.isVisible('#cancel'), false);
      const afterCancel = await ask(page, QUESTION);
      assert.match(afterCancel.status, /answered from your documents/);
      assert.match(afterCancel.answer, /22 days/);

      // Stop during a slow streamed answer: the partial text stays, the request is aborted (the
      // double sees the client go away before the last event), and asking again works.
      await page.click('#settings summary');
      await page.selectOption('#provider', 'openai');
      await page.fill('#endpoint', `${llm.origin}/v1`);
      await page.fill('#model', 'double-model');
      await page.fill('#question', QUESTION);
      await page.click('#ask-btn');
      await page.waitForFunction(() => document.getElementById('answer').textContent.length >= 20, null, { timeout: 20000 });
      await page.click('#stop');
      await page.waitForFunction(() => document.getElementById('status').dataset.state === 'stopped', null, { timeout: 10000 });
      assert.equal(await page.textContent('#status'), 'stopped');
      const partial = await page.textContent('#answer');
      assert.ok(partial.length > 0 && partial.length < slow.length && slow.startsWith(partial), `partial answer: ${partial.length} of ${slow.length} characters`);
      assert.equal(await page.isVisible('#stop'), false);
      assert.equal(await page.isDisabled('#ask-btn'), false);
      const posts = () => llm.requests.filter((r) => r.method === 'POST');
      await new Promise((r) => setTimeout(r, 400));
      assert.equal(posts().length, 1);
      assert.equal(posts()[0].clientGone, true, 'the stream was still being written when the page stopped reading');

      reply = { sse: openaiSse(['Full-time U.S. employees get ', '22 days of PTO [1].']), headers: CORS };
      const again = await ask(page, QUESTION);
      assert.match(again.status, /^answered/, again.status);
      assert.equal(again.answer, 'Full-time U.S. employees get 22 days of PTO [1].');
      assert.equal(posts().length, 2);
      assert.equal(await page.$$eval('#ledger tbody tr', (trs) => trs.length), 2);
      assert.deepEqual(requests.filter((u) => !u.startsWith(url) && !u.startsWith(llm.origin)), []);
      assert.deepEqual(consoleErrors, []);
    });
  } finally {
    await llm.close();
  }
});

// Issue 27: questions of the second question set (examples/corpus/own-words.jsonl, written apart from the first, in the
// user's own words) typed into the box as a person would. Each gets one of ask()'s three outcomes, shown its own way:
// an answer whose citation opens the source with the cited unit highlighted; the closest passages, each with its best
// sentence marked, whose [n] opens the source there; or "Your documents don't say." with what was searched. Checked
// against the set itself: an unanswerable question never gets an answer, an answerable one never gets not-found, a
// Yes/No said has the set's polarity, an answer's highlight is the quoted unit and (but for the count below) holds the
// question's evidence; all three outcomes occur. Ids from both halves of own-words-split.json.
// Answers among them whose highlighted unit lacks the question's evidence (a wrong unit cited), as measured.
const WITHOUT_EVIDENCE = 0;
// w74 "Who is the CTO?" comes first: later in the conversation its one content word makes it a follow-up, searched with
// the previous question's words (rewriteFollowUp).
const OWN_WORDS = ['w74', 'w08', 'w15', 'w12', 'w02', 'w03', 'w13', 'w16', 'w44', 'w64', 'w76', 'w77'];

test('doc chat: questions of the own-words set get their outcome, citation and highlight in the page (issue 27)', async () => {
  const questions = new Map(corpus.ownWordsQuestions.map((q) => [q.id, q]));
  // The page's collection built here too (same documents, titles and preset): the words no document uses.
  await init();
  const here = await Collection.create(PRESETS.docChat);
  await here.add(corpus.documents.map((d, i) => {
    const name = d.metadata?.file?.split('/').pop() ?? `${d.id}.md`;
    return { id: d.id, title: documentTitle(d.text, name), text: d.text, metadata: { name } };
  }));
  const unmatchedSeen = [];
  const plain = (x) => x.toLowerCase().replace(/[*`|]/g, ' ').replace(/[^a-z0-9.,:%$€–-]+/g, ' ').replace(/\s+/g, ' ').trim();
  await withPage(async ({ page, url, requests, consoleErrors, screenshot }) => {
    await page.goto(`${url}web/demo/chat.html`);
    await waitState(page, ['done']);
    await page.click('#sample');
    await page.waitForFunction(() => /^ready: 26 documents/.test(document.getElementById('status').textContent) || document.getElementById('status').classList.contains('err'), null, { timeout: 45000 });
    const seen = { answer: 0, passages: 0, 'not-found': 0 };
    const withoutEvidence = [];
    for (const id of OWN_WORDS) {
      const q = questions.get(id);
      assert.ok(q, `${id} is in corpus.json ownWordsQuestions`);
      await page.click('#question');
      await page.fill('#question', '');
      await page.keyboard.type(q.question);
      await page.keyboard.press('Enter');
      const st = await waitState(page, ['answered', 'failed']);
      // a new turn: clear the state so the next wait sees this question's result
      await page.evaluate(() => { document.getElementById('status').dataset.state = 'asking'; });
      const outcome = await page.$eval('#answer', (e) => e.dataset.outcome);
      const answer = await page.textContent('#answer');
      seen[outcome]++;
      if (outcome !== 'answer') {
        // the question's words no document uses are named (a paraphrase or typo to change), and only those
        const searched = await page.$eval('#rewritten', (e) => (e.hidden ? null : e.textContent.replace(/^Searched for: /, '')));
        const want = unmatchedWords(here, searched ?? q.question);
        const note = await page.$eval('#answer', (e) => e.querySelector('#unmatched')?.textContent ?? null);
        if (want.length === 0) assert.equal(note, null, `${id}: no word to name, got ${note}`);
        else assert.equal(note, `No document uses ${want.map((w) => `“${w}”`).join(', ')}: try the words your documents use.`);
        if (want.length) unmatchedSeen.push(`${id}: ${want.join(', ')}`);
      }
      if (outcome === 'not-found') {
        assert.equal(q.answerable, false, `${id}: an answerable question got not-found: ${q.question}`);
        assert.match(st, /nothing in your documents matches this question/);
        assert.equal(await page.textContent('#answer .outcome-note'), "Your documents don't say.");
        assert.match(await page.textContent('#searched'), /^Searched your 26 documents for “.+”: no passage matches it\.$/);
        assert.equal(await page.$$eval('#answer a.cite', (a) => a.length), 0, `${id}: not-found cites nothing`);
        continue;
      }
      if (outcome === 'passages') {
        assert.match(st, /no single sentence answers this/);
        assert.equal(await page.textContent('#answer .outcome-note'), "I couldn't find one sentence that answers this; here are the closest passages.");
        const items = await page.$$eval('#answer ol.passages li', (li) => li.map((x) => ({ mark: x.querySelector('.excerpt mark')?.textContent ?? null })));
        assert.ok(items.length >= 1 && items.length <= 5, `${id}: 1-5 passages, got ${items.length}`);
        assert.ok(items[0].mark, `${id}: the first passage marks its best sentence`);
        // [1] opens the document with that sentence highlighted, in the document's own text
        await page.click('#answer ol.passages a.cite[data-n="1"]');
        const mark = await page.textContent('#source-mark');
        assert.equal(mark, items[0].mark, `${id}: the source highlight is the marked sentence`);
        continue;
      }
      assert.equal(outcome, 'answer');
      assert.ok(q.answerable, `${id}: an unanswerable question got an answer: ${q.question} -> ${answer}`);
      assert.match(st, /answered from your documents/, `${id}: ${st}`);
      const said = /^(Yes|No)\./.exec(answer)?.[1].toLowerCase();
      if (said) assert.equal(said, q.polarity, `${id}: "${said}" said for a question whose answer is ${q.polarity}: ${answer}`);
      const cites = await page.$$eval('#answer a.cite', (as) => as.map((a) => a.dataset.n));
      assert.ok(cites.length >= 1, `${id}: the answer cites a passage: ${answer}`);
      await page.click(`#answer a.cite[data-n="${cites[0]}"]`);
      const mark = await page.textContent('#source-mark');
      assert.ok(plain(answer).includes(plain(mark)), `${id}: the highlight is the unit the answer quotes: ${mark}`);
      if (!q.evidence.some((e) => plain(mark).includes(plain(e)) || plain(e).includes(plain(mark)))) {
        withoutEvidence.push(`${id}: ${q.question}\n  mark: ${mark}\n  evidence: ${q.evidence.join(' || ')}`);
      }
    }
    console.log(`outcomes: ${JSON.stringify(seen)}; answers whose highlight lacks the evidence: ${withoutEvidence.length}; words no document uses: ${unmatchedSeen.join('; ')}`);
    assert.ok(unmatchedSeen.length >= 1, 'some question names words no document uses (w02 "rotate", w44 "grandmother")');
    here.dispose();
    for (const o of Object.keys(seen)) assert.ok(seen[o] >= 1, `the questions show every outcome: ${JSON.stringify(seen)}`);
    // PRESETS.docChatAnswer (threshold 0.4, chosen on the tuning halves) cites a unit without the evidence for
    // WITHOUT_EVIDENCE of these answers (see the list printed on failure); more is a regression.
    assert.ok(withoutEvidence.length <= WITHOUT_EVIDENCE, `at most ${WITHOUT_EVIDENCE} answers highlight a unit without the evidence, got ${withoutEvidence.length}:\n${withoutEvidence.join('\n')}`);
    await screenshot('chat-outcomes-1280x800');
    assert.deepEqual(requests.filter((r) => !r.startsWith(url)), [], 'a request left 127.0.0.1');
    assert.deepEqual(consoleErrors, []);
  });
});

test('doc chat: words no document uses get suggestions from the word model, and a suggestion asks again with it (issue 27)', async () => {
  await withPage(async ({ page, url, requests, consoleErrors }) => {
    await page.goto(`${url}web/demo/chat.html`);
    await waitState(page, ['done']);
    await page.click('#sample');
    await page.waitForFunction(() => /^ready: 26 documents/.test(document.getElementById('status').textContent) || document.getElementById('status').classList.contains('err'), null, { timeout: 45000 });
    await page.fill('#question', 'When does Perch go down for upkeep?');
    await page.keyboard.press('Enter');
    await waitState(page, ['answered', 'failed']);
    await page.evaluate(() => { document.getElementById('status').dataset.state = 'asking'; });
    assert.notEqual(await page.$eval('#answer', (e) => e.dataset.outcome), 'answer');
    assert.equal(await page.textContent('#unmatched'), 'No document uses “upkeep”: try the words your documents use.');
    assert.equal(requests.filter((r) => r.endsWith('static-model.bin')).length, 0, 'the word model is not fetched before it is asked for');
    await page.click('#suggest-btn');
    await page.waitForSelector('#suggestions button.suggest-word', { timeout: 45000 });
    const offered = await page.$$eval('#suggestions button.suggest-word', (bs) => bs.map((b) => [b.dataset.from, b.dataset.word]));
    // the static model's nearest words that the documents use (suggestWords, as in Node)
    assert.ok(offered.some(([from, word]) => from === 'upkeep' && word === 'maintenance'), JSON.stringify(offered));
    assert.ok(offered.length <= 3, JSON.stringify(offered));
    assert.equal(requests.filter((r) => r.endsWith('static-model.bin')).length, 1, 'the word model is fetched once, from this site');
    await page.click('#suggestions button.suggest-word[data-word="maintenance"]');
    await waitState(page, ['answered', 'failed']);
    assert.equal(await page.inputValue('#question'), 'When does Perch go down for maintenance?');
    assert.equal(await page.$('#unmatched'), null, 'every word of the new question is used by some document');
    assert.match(await page.textContent('#answer'), /Sundays/);
    assert.deepEqual(requests.filter((r) => !r.startsWith(url)), [], 'a request left 127.0.0.1');
    assert.deepEqual(consoleErrors, []);
  });
});

test('doc chat: query clarification shows grounded readings as buttons, and a button re-asks with that reading', async () => {
  // A scripted OpenAI-protocol server (CORS): the clarification request (not streamed, query_clarify
  // prompt) gets two readings citing passages 1 and 2 and one citing a passage never shown; answers stream.
  const seen = [];
  const server = createServer(async (req, res) => {
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'authorization, content-type, accept, x-api-key', 'access-control-allow-methods': 'POST, OPTIONS' };
    if (req.method === 'OPTIONS') { res.writeHead(204, cors).end(); return; }
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    seen.push(body);
    if (!body.stream) {
      const text = JSON.stringify({ ambiguous: true, interpretations: [{ question: 'How long is the WS-410 warranty?', passages: [1] },
        { question: 'How long is the DL-7 warranty?', passages: [2] }, { question: 'How long is the HX-9 warranty?', passages: [40] }] });
      res.writeHead(200, { ...cors, 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'x', object: 'chat.completion', model: 'double-model', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 4, total_tokens: 9 } }));
      return;
    }
    res.writeHead(200, { ...cors, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const ev of openaiSse(['Scripted answer [1].'])) res.write(`${ev}\n\n`);
    res.end();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${server.address().port}`;
  try {
    await withPage(async ({ page, url: base, consoleErrors }) => {
      await page.goto(`${base}web/demo/chat.html`);
      await waitState(page, ['done']);
      await page.setInputFiles('#files', [
        { name: 'ws410.md', mimeType: 'text/markdown', buffer: Buffer.from('# WS-410\n\n## Warranty\n\nThe WS-410 weather station has a warranty of 3 years.\n') },
        { name: 'dl7.md', mimeType: 'text/markdown', buffer: Buffer.from('# DL-7\n\n## Warranty\n\nThe DL-7 data logger has a warranty of 2 years.\n') }]);
      await page.waitForFunction(() => /^ready: 2 documents/.test(document.getElementById('status').textContent), null, { timeout: 45000 });
      await page.click('#settings summary');
      await page.selectOption('#provider', 'openai');
      await page.fill('#endpoint', `${origin}/v1`);
      await page.fill('#model', 'double-model');
      await page.check('#clarify');
      await page.fill('#question', 'How long is the warranty?');
      await page.click('#ask-btn');
      await waitState(page, ['clarify', 'failed']);
      assert.equal(await page.textContent('#status'), 'which question did you mean?');
      const choices = await page.$$eval('#clarify-choices button', (bs) => bs.map((b) => b.textContent));
      assert.deepEqual(choices, ['How long is the WS-410 warranty?', 'How long is the DL-7 warranty?'], 'the reading citing an unshown passage is not offered');
      assert.equal(seen.length, 1, 'no answer request before a reading is chosen');
      await page.click('#clarify-choices button >> nth=1');
      await waitState(page, ['answered', 'failed']);
      assert.equal(await page.inputValue('#question'), 'How long is the DL-7 warranty?');
      assert.equal(seen.length, 2, 'the chosen reading is asked once, without a second clarification');
      assert.equal(seen[1].stream, true);
      assert.ok(JSON.stringify(seen[1].messages).includes('How long is the DL-7 warranty?'));
      assert.equal(await page.isVisible('#clarify-choices'), false);
      assert.deepEqual(consoleErrors, []);
    });
  } finally {
    await new Promise((r) => server.close(r));
  }
});

test('doc chat: a loaded pipeline config re-indexes with its chunker; a malformed one names the JSON path and keeps the documents', async () => {
  await withPage(async ({ page, url }) => {
    await page.goto(`${url}web/demo/chat.html`);
    assert.match(await waitState(page, ['done']), /^ready/);
    await page.click('#sample');
    await page.waitForFunction(() => /^ready: 26 documents/.test(document.getElementById('status').textContent) || document.getElementById('status').classList.contains('err'), null, { timeout: 45000 });
    const before = Number(await page.getAttribute('#collection', 'data-chunks'));
    const file = (name, body) => ({ name, mimeType: 'application/json', buffer: Buffer.from(body) });
    await page.click('#config-settings summary');
    await page.setInputFiles('#config-file', file('small.json', JSON.stringify({ chunker: { strategy: 'recursive', chunkSize: 200, chunkOverlap: 0 }, indexes: { bm25: {} } })));
    await page.waitForFunction(() => /^using small\.json|not used/.test(document.getElementById('config-status').textContent), null, { timeout: 60000 });
    assert.match(await page.textContent('#config-status'), /^using small\.json: 26 documents, \d+ chunks/);
    const after = Number(await page.getAttribute('#collection', 'data-chunks'));
    assert.ok(after > before, `a 200-character chunker gives more chunks (${after}) than the preset (${before})`);
    const answered = await ask(page, QUESTION);
    assert.match(answered.answer, /22 days/, answered.answer);
    // Malformed: the library's error names the JSON path; the indexed documents and chunks stay.
    await page.setInputFiles('#config-file', file('bad.json', JSON.stringify({ retrieval: { fusion: { weights: [1, 'x'] } } })));
    await page.waitForFunction(() => /bad\.json not used/.test(document.getElementById('config-status').textContent), null, { timeout: 45000 });
    assert.match(await page.textContent('#config-status'), /retrieval\.fusion\.weights\[1\]/);
    assert.equal(Number(await page.getAttribute('#collection', 'data-chunks')), after);
    assert.equal(await page.$$eval('#doclist li', (li) => li.length), 26);
    assert.match((await ask(page, QUESTION)).answer, /22 days/);
  });
});

test('doc chat: ?config=URL builds the collection from a file of this site; another origin is refused without a request', async () => {
  const { init, chunk } = await import('../../web/src/index.js');
  await init();
  const options = { strategy: 'recursive', chunkSize: 200, chunkOverlap: 0 };
  await withPage(async ({ page, url, requests }) => {
    await page.route(`${url}configs/small.json`, (route) => route.fulfill({ status: 200, contentType: 'application/json',
      body: JSON.stringify({ chunker: options, indexes: { bm25: {} } }) }));
    await page.goto(`${url}web/demo/chat.html?config=/configs/small.json`);
    await page.waitForFunction(() => /^using small\.json|not used/.test(document.getElementById('config-status').textContent), null, { timeout: 60000 });
    assert.match(await page.textContent('#config-status'), /^using small\.json: 0 documents, 0 chunks/);
    await page.click('#sample');
    await page.waitForFunction(() => /^ready: 26 documents/.test(document.getElementById('status').textContent) || document.getElementById('status').classList.contains('err'), null, { timeout: 45000 });
    const chunks = Number(await page.getAttribute('#collection', 'data-chunks'));
    assert.ok(chunks > 0);
    // The sample corpus was chunked with the config's chunker: at least as many chunks as chunk() gives for
    // the documents' own text with those options (the page may add a title line before a document's text).
    const expected = corpus.documents.reduce((n, d) => n + chunk(d, options).length, 0);
    assert.ok(Math.abs(chunks - expected) <= corpus.documents.length, `config chunker: ${chunks} chunks in the page, ${expected} by chunk() in Node`);
    assert.match((await ask(page, QUESTION)).answer, /22 days/);

    const before = requests.length;
    await page.goto(`${url}web/demo/chat.html?config=http://config.invalid/cfg.json`);
    await page.waitForFunction(() => /not used/.test(document.getElementById('config-status').textContent), null, { timeout: 45000 });
    assert.match(await page.textContent('#config-status'), /only a file of this site .* is read/);
    assert.deepEqual(requests.slice(before).filter((r) => new URL(r).host === 'config.invalid'), [], 'no request to another origin');
  });
});
