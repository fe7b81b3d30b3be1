// ragwasm/worker (issue 29): WorkerCollection runs a Collection in a worker_threads Worker behind
// Collection's async API. Results equal the same calls on an in-process Collection; calls sent at once
// after create are not lost (the ready handshake); progress and abort cross; errors come back as
// RagwasmError with the in-process code; bytes move out and back in.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { init, Collection, ask, RagwasmError } from '../../../web/src/index.js';
import { WorkerCollection } from '../../../web/src/worker.js';
import { build, repoRoot, requireStaticModel } from '../helpers.mjs';

await init({ build });
requireStaticModel();

const docsDir = join(repoRoot, 'examples/corpus/docs');
const docs = readdirSync(docsDir).filter((f) => f.endsWith('.md')).sort().slice(0, 12)
  .map((f) => ({ id: f.replace(/\.md$/, ''), text: readFileSync(join(docsDir, f), 'utf8') }));
const QUERIES = ['How long is the warranty?', 'travel expense approval', 'calibrate the soil probe'];
const strip = (hits) => hits.map(({ id, docId, score, text }) => ({ id, docId, score, text }));

test('a WorkerCollection answers as an in-process Collection, with no call lost before ready', async () => {
  const local = await Collection.create();
  await local.add(docs);
  const col = await WorkerCollection.create();
  try {
    const progress = [];
    // everything sent at once: the Worker queues what arrives before its collection exists
    const [added, ...found] = await Promise.all([
      col.add(docs, { onProgress: ({ done, total }) => progress.push([done, total]), batchSize: 4 }),
      ...QUERIES.map((q) => col.search(q, { k: 5 })),
    ]);
    assert.equal(added.documents, docs.length);
    assert.equal(col.size, local.size);
    assert.ok(progress.length >= 2, `progress calls: ${JSON.stringify(progress)}`);
    const chars = docs.reduce((n, d) => n + d.text.length, 0);  // progress in characters (#29)
    assert.deepEqual(progress.at(-1), [chars, chars]);
    for (let i = 1; i < progress.length; i++) assert.ok(progress[i][0] >= progress[i - 1][0]);
    for (let i = 0; i < QUERIES.length; i++) assert.deepEqual(strip(found[i]), strip(await local.search(QUERIES[i], { k: 5 })), QUERIES[i]);
    // the search-box options reach the BM25 leg in the Worker too
    assert.deepEqual(strip(await col.search('warrenty', { fuzzy: 0.2, k: 3 })), strip(await local.search('warrenty', { fuzzy: 0.2, k: 3 })));
    const a = await col.ask(QUERIES[0]);
    const b = await ask(local, QUERIES[0]);
    assert.equal(a.answer, b.answer);
    assert.equal(a.abstained, b.abstained);
    // bytes out (transferred) and into a second Worker
    const bytes = await col.toBytes();
    assert.ok(bytes instanceof Uint8Array && bytes.length > 0);
    assert.deepEqual(bytes, local.toBytes());
    const again = await WorkerCollection.fromBytes(bytes, {}, { transfer: true });
    try {
      assert.equal(bytes.length, 0, 'transfer: true moves the buffer');
      assert.deepEqual(strip(await again.search(QUERIES[1], { k: 5 })), strip(await local.search(QUERIES[1], { k: 5 })));
    } finally {
      again.dispose();
    }
    // save in the Worker, load in another
    const dir = mkdtempSync(join(tmpdir(), 'ragwasm-worker-'));
    await col.save('w', { dir });
    const loaded = await WorkerCollection.load('w', { dir });
    try {
      assert.equal(loaded.size, local.size);
      assert.deepEqual(strip(await loaded.search(QUERIES[2], { k: 5 })), strip(await local.search(QUERIES[2], { k: 5 })));
    } finally {
      loaded.dispose();
    }
  } finally {
    col.dispose();
    local.dispose();
  }
});

test('errors from the Worker are RagwasmErrors with the in-process code', async () => {
  const local = await Collection.create();
  const col = await WorkerCollection.create();
  try {
    await col.add(docs.slice(0, 2));
    await local.add(docs.slice(0, 2));
    const inProcess = await local.search('', {}).catch((e) => e);
    const fromWorker = await col.search('', {}).catch((e) => e);
    assert.ok(fromWorker instanceof RagwasmError);
    assert.equal(fromWorker.code, inProcess.code);
    assert.equal(fromWorker.message, inProcess.message);
    const bad = [{ id: 'no-text' }];
    const inProcessAdd = await local.add(bad).catch((e) => e);
    await assert.rejects(col.add(bad), (e) => e instanceof RagwasmError && e.code === inProcessAdd.code && e.message === inProcessAdd.message);
    await assert.rejects(col.search('x', { reranker: () => [1] }), (e) => e instanceof RagwasmError && e.code === 'INVALID_ARGUMENT' && /cannot cross to the Worker/.test(e.message));
    await assert.rejects(WorkerCollection.load('missing-name', { dir: mkdtempSync(join(tmpdir(), 'ragwasm-worker-')) }), (e) => e instanceof RagwasmError && e.code === 'NOT_FOUND');
    await assert.rejects(WorkerCollection.create({}, {}, { init: { build: 'nope' } }), (e) => e instanceof RagwasmError && e.code === 'INVALID_ARGUMENT');
    col.dispose();
    await assert.rejects(col.search('x'), (e) => e instanceof RagwasmError && e.code === 'DISPOSED');
  } finally {
    col.dispose();
    local.dispose();
  }
});

test('an abort on the page stops the add in the Worker', async () => {
  const col = await WorkerCollection.create();
  try {
    const c = new AbortController();
    let calls = 0;
    const run = col.add(docs, { batchSize: 1, signal: c.signal, onProgress: () => { calls += 1; if (calls === 2) c.abort(); } });
    await assert.rejects(run, (e) => e instanceof RagwasmError && e.code === 'ABORTED');
    assert.ok(col.size < (await (async () => { const l = await Collection.create(); await l.add(docs); const n = l.size; l.dispose(); return n; })()));
    // the Worker still answers
    await col.add([{ id: 'late', text: 'A late document about warranty repairs.' }]);
    assert.ok((await col.search('late warranty repairs', { k: 1 })).length === 1);
  } finally {
    col.dispose();
  }
});

test('the Worker script keeps messages that arrive before init() has finished', async () => {
  const { Worker } = await import('node:worker_threads');
  const w = new Worker(new URL('../../../web/src/worker/collection-worker.js', import.meta.url));
  try {
    const replies = [];
    const done = new Promise((resolve, reject) => {
      w.on('error', reject);
      w.on('message', (m) => { replies.push(m); if (m.id === 4) resolve(); });
    });
    // posted back to back, before the Worker can have loaded the WASM module
    w.postMessage({ op: 'init', args: [{ build }] });
    w.postMessage({ id: 1, op: 'create', args: [{ retrieval: { retrievers: ['bm25'] } }, {}] });
    w.postMessage({ id: 2, op: 'add', args: [[{ id: 'd', text: 'The warranty lasts two years.' }], {}] });
    w.postMessage({ id: 3, op: 'search', args: ['warranty', { k: 1 }] });
    w.postMessage({ id: 4, op: 'size', args: [] });
    await done;
    assert.deepEqual(replies.map((m) => m.type ?? m.id), ['ready', 1, 2, 3, 4]);
    assert.ok(replies.every((m) => m.ok), JSON.stringify(replies.filter((m) => !m.ok)));
    assert.equal(replies[3].value[0].docId, 'd');
    assert.equal(replies[4].value, 1);
  } finally {
    await w.terminate();
  }
});
