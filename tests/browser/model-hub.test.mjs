// createOnnxEmbedder(NAME) in headless Chromium (issue #27): the model files come from a local hub on
// 127.0.0.1 laid out like Hugging Face (/<repo>/resolve/<revision>/<path>, CORS) serving a generated
// BERT-shaped model (models/make-bert-fixture.py); they are kept in Cache Storage, so after a reload with
// the hub stopped the same model loads with no request; a file whose sha256 is not the manifest's is
// refused (INTEGRITY) and not cached.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withPage, repoRoot } from './harness.mjs';
import { sharedPath } from '../js/helpers.mjs';
import { startHub } from '../js/model-hub-double.mjs';

function makeFixture(t, out) {
  const tok = sharedPath('models/bert-base-uncased/tokenizer.json');
  if (!tok) {
    t.skip('needs ../shared/models/bert-base-uncased/tokenizer.json');
    return null;
  }
  try {
    execFileSync('/usr/bin/python3', ['-c', 'import onnx, numpy'], { stdio: 'ignore' });
  } catch {
    t.skip('needs Debian python3-onnx and python3-numpy for /usr/bin/python3');
    return null;
  }
  execFileSync('/usr/bin/python3', [join(repoRoot, 'models/make-bert-fixture.py'), out, tok, '--name', 'tiny-bert', '--seed', '1234']);
  return join(out, 'tiny-bert');
}

// Runs in the page: load the embedder by name, embed one query, list Cache Storage.
async function loadByName({ hubUrl, badManifest }) {
  const { init } = await import('/web/src/index.js');
  const { createOnnxEmbedder, fetchModelFiles } = await import('/web/src/onnx.js');
  await init();
  const ort = await import('/node_modules/onnxruntime-web/dist/ort.wasm.min.mjs');
  ort.env.wasm.wasmPaths = new URL('/node_modules/onnxruntime-web/dist/', location.href).href;
  ort.env.wasm.numThreads = 1;
  let integrity = null;
  if (badManifest) {
    try {
      await fetchModelFiles('tiny', { manifest: badManifest, hubUrl });
    } catch (e) {
      integrity = { code: e.code, message: e.message };
    }
  }
  const progress = [];
  const e = await createOnnxEmbedder('bge-small-en-v1.5', { hubUrl, ort, onProgress: (p) => progress.push(p) });
  const [v] = await e.embedQueries(['Who do I call when I am off ill?']);
  const keys = (await (await caches.open('ragwasm-models-v1')).keys()).map((r) => r.url).sort();
  const out = { dimension: e.dimension, id: e.id, vector: Array.from(v), progress, keys, integrity };
  await e.dispose();
  return out;
}

test('Chromium: createOnnxEmbedder(NAME) downloads from the hub into Cache Storage and loads offline after a reload', { timeout: 120_000 }, async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'ragwasm-hub-browser-'));
  try {
    const dir = makeFixture(t, tmp);
    if (!dir) return;
    const hub = await startHub(dir);
    let stopped = false;
    try {
      await withPage(async ({ context, page, url, requests, consoleErrors }) => {
        await context.route('**/favicon.ico', (r) => r.fulfill({ status: 204 }));  // the plain-text page below has no icon link
        await page.goto(`${url}web/src/onnx.js`);  // any document of the server's origin can import the library
        const modelSize = readFileSync(join(dir, 'onnx/model.onnx')).length;
        const badManifest = { models: { tiny: { repo: 'test/tiny-bert', revision: 'main', files: {
          'tokenizer.json': { path: 'tokenizer.json', bytes: null, sha256: 'f'.repeat(64) } } } } };
        const first = await page.evaluate(loadByName, { hubUrl: hub.url, badManifest });
        assert.equal(first.integrity?.code, 'INTEGRITY');
        assert.match(first.integrity.message, /tokenizer\.json/);
        assert.match(first.integrity.message, new RegExp(`expected sha256 ${'f'.repeat(64)}, got [0-9a-f]{64}`));
        assert.equal(first.dimension, 32);
        assert.match(first.id, /^onnx:bge-small-en-v1\.5:cls:/);
        const last = first.progress.filter((p) => p.file === 'onnx/model.onnx').at(-1);
        assert.deepEqual(last, { file: 'onnx/model.onnx', loaded: modelSize, total: modelSize, cached: false });
        // Only the two files that passed are cached (not the tokenizer fetched for the bad manifest under test/tiny-bert).
        assert.deepEqual(first.keys, [`${hub.url}/BAAI/bge-small-en-v1.5/resolve/main/onnx/model.onnx`, `${hub.url}/BAAI/bge-small-en-v1.5/resolve/main/tokenizer.json`]);
        assert.equal(hub.requests.length, 3);

        await hub.close();
        stopped = true;
        const before = requests.length;
        await page.reload();
        const second = await page.evaluate(loadByName, { hubUrl: hub.url });
        assert.deepEqual(second.progress.map((p) => [p.file, p.cached]), [['onnx/model.onnx', true], ['tokenizer.json', true]]);
        assert.deepEqual(second.vector, first.vector);
        assert.deepEqual(requests.slice(before).filter((u) => u.startsWith(hub.url)), [], 'no request to the hub once cached');
        assert.deepEqual(consoleErrors, []);
      });
    } finally {
      if (!stopped) await hub.close();
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('doc chat demo: "use a neural model" loads a manifest model by name from the hub as the dense leg', { timeout: 180_000 }, async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'ragwasm-hub-demo-'));
  try {
    const dir = makeFixture(t, tmp);
    if (!dir) return;
    const hub = await startHub(dir);
    try {
      await withPage(async ({ page, url, requests, consoleErrors }) => {
        await page.goto(`${url}web/demo/chat.html?hub=${encodeURIComponent(hub.url)}`);
        await page.waitForFunction(() => document.getElementById('status').dataset.state === 'done', null, { timeout: 45000 });
        await page.click('#model-settings summary');
        // The real manifest pins no sizes yet: the button says so rather than guessing a number.
        assert.equal(await page.textContent('#use-neural'), 'use a neural model (download size not pinned in models/manifest.json)');
        await page.selectOption('#neural-name', 'bge-small-en-v1.5');
        await page.click('#use-neural');
        await page.waitForFunction(() => /^ready: dense \(ONNX/.test(document.getElementById('status').textContent) || document.getElementById('status').classList.contains('err'), null, { timeout: 90000 });
        assert.match(await page.textContent('#status'), /^ready: dense \(ONNX, 32-d\) for 0 chunks$/);
        // The sample corpus is then indexed with the neural model as the dense leg.
        await page.click('#sample');
        await page.waitForFunction(() => /^ready: 26 documents/.test(document.getElementById('status').textContent) || document.getElementById('status').classList.contains('err'), null, { timeout: 90000 });
        assert.match(await page.textContent('#status'), /^ready: 26 documents/);
        assert.match(await page.textContent('#collection'), /BM25 \+ dense \(ONNX, 32-d\)/);
        assert.deepEqual(hub.requests.sort(), ['/BAAI/bge-small-en-v1.5/resolve/main/onnx/model.onnx', '/BAAI/bge-small-en-v1.5/resolve/main/tokenizer.json']);
        assert.deepEqual(requests.filter((u) => !u.startsWith(url) && !u.startsWith(hub.url)), []);
        assert.deepEqual(consoleErrors, []);
      });
    } finally {
      await hub.close();
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
