// createOnnxEmbedder(NAME) against a local model hub (issue #27): an HTTP server on 127.0.0.1 laid out
// like Hugging Face (/<repo>/resolve/<revision>/<path>) serving a generated BERT-shaped model
// (models/make-bert-fixture.py: random weights, the real bert-base-uncased vocabulary; real weights
// cannot be downloaded here). Checks the download, the cache folder, progress, the manifest's size and
// sha256 (a mismatch caches nothing), and that a cached model loads with the server stopped.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { init, RagwasmError } from '../../../web/src/index.js';
import { createOnnxEmbedder, fetchModelFiles, modelDownloadBytes, MODEL_MANIFEST } from '../../../web/src/onnx.js';
import { repoRoot, skipUnlessShared } from '../helpers.mjs';
import { pythonOnnx } from '../embed-fixtures.mjs';
import { startHub } from '../model-hub-double.mjs';

await init();

const tmp = mkdtempSync(join(tmpdir(), 'ragwasm-hub-'));
test.after(() => rmSync(tmp, { recursive: true, force: true }));
let fixtureDir = null;

// The generated model folder (config.json, tokenizer.json, onnx/model.onnx), or null after a named skip.
function fixture(t) {
  const tok = skipUnlessShared(t, 'models/bert-base-uncased/tokenizer.json');
  if (!tok) return null;
  if (!pythonOnnx()) {
    t.skip('needs Debian python3-onnx and python3-numpy for /usr/bin/python3 (apt-get install python3-onnx)');
    return null;
  }
  if (fixtureDir === null) {
    execFileSync('/usr/bin/python3', [join(repoRoot, 'models/make-bert-fixture.py'), join(tmp, 'fixture'), tok, '--name', 'tiny-bert', '--seed', '1234']);
    fixtureDir = join(tmp, 'fixture', 'tiny-bert');
  }
  return fixtureDir;
}

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const files = (dir) => (existsSync(dir) ? readdirSync(dir, { recursive: true }) : []).map(String).sort();

test('the library\'s manifest module is models/manifest.json (node models/sync-manifest.mjs writes it)', () => {
  assert.deepEqual(JSON.parse(JSON.stringify(MODEL_MANIFEST)), JSON.parse(readFileSync(join(repoRoot, 'models/manifest.json'), 'utf8')));
  for (const [name, e] of Object.entries(MODEL_MANIFEST.models)) {
    if (Object.keys(e.files).length === 0) continue;
    assert.match(e.repo, /^[\w.-]+\/[\w.-]+$/, name);
    for (const f of Object.values(e.files)) assert.equal(f.url, `https://huggingface.co/${e.repo}/resolve/${e.revision}/${f.path}`, name);
  }
});

test('createOnnxEmbedder(NAME): downloads from the hub with progress, caches, then loads offline with the server stopped', async (t) => {
  const dir = fixture(t);
  if (!dir) return;
  const hub = await startHub(dir);
  const cacheDir = join(tmp, 'cache-by-name');
  const progress = [];
  let e1;
  try {
    e1 = await createOnnxEmbedder('bge-small-en-v1.5', { hubUrl: hub.url, cacheDir, onProgress: (p) => progress.push(p) });
  } finally {
    await hub.close();
  }
  assert.deepEqual(hub.requests.sort(), ['/BAAI/bge-small-en-v1.5/resolve/main/onnx/model.onnx', '/BAAI/bge-small-en-v1.5/resolve/main/tokenizer.json']);
  const modelBytes = readFileSync(join(dir, 'onnx/model.onnx'));
  const last = progress.filter((p) => p.file === 'onnx/model.onnx').at(-1);
  assert.deepEqual(last, { file: 'onnx/model.onnx', loaded: modelBytes.length, total: modelBytes.length, cached: false });
  assert.ok(progress.every((p) => !p.cached));
  // The manifest entry's settings: bge's CLS pooling and query prefix, the name in the id.
  assert.equal(e1.dimension, 32);
  assert.match(e1.id, /^onnx:bge-small-en-v1\.5:cls:/);
  assert.equal(e1.prefixes.query, MODEL_MANIFEST.models['bge-small-en-v1.5'].queryPrefix);
  // Cached as <host>/<repo>/<revision>/<path>, whole files only.
  const host = new URL(hub.url).host.replace(':', '_');
  assert.deepEqual(files(cacheDir).filter((f) => f.endsWith('.onnx') || f.endsWith('.json')),
    [`${host}/BAAI/bge-small-en-v1.5/main/onnx/model.onnx`, `${host}/BAAI/bge-small-en-v1.5/main/tokenizer.json`].sort());
  assert.ok(!files(cacheDir).some((f) => f.includes('.tmp-')));

  // Server stopped: the second call makes no request (a request would fail with NETWORK) and gives the same vectors.
  const progress2 = [];
  const e2 = await createOnnxEmbedder('bge-small-en-v1.5', { hubUrl: hub.url, cacheDir, onProgress: (p) => progress2.push(p) });
  assert.deepEqual(progress2.map((p) => [p.file, p.cached]), [['onnx/model.onnx', true], ['tokenizer.json', true]]);
  const texts = ['Who do I call when I am off ill?', 'Employees get 22 days of PTO.'];
  const [a, b] = [await e1.embedQueries(texts), await e2.embedQueries(texts)];
  assert.deepEqual(a.map((v) => Array.from(v)), b.map((v) => Array.from(v)));
  // Equal to the explicit-bytes form with the same settings.
  const e3 = await createOnnxEmbedder({ model: modelBytes, tokenizer: { tokenizerJson: readFileSync(join(dir, 'tokenizer.json')) },
    name: 'bge-small-en-v1.5', manifest: MODEL_MANIFEST });
  assert.deepEqual((await e3.embedQueries(texts)).map((v) => Array.from(v)), a.map((v) => Array.from(v)));
  assert.equal(e3.id, e1.id);
  // With the cache off and the server stopped, the same call needs the network.
  await assert.rejects(createOnnxEmbedder('bge-small-en-v1.5', { hubUrl: hub.url, cacheDir, cache: false }),
    (err) => err instanceof RagwasmError && err.code === 'NETWORK' && /onnx\/model\.onnx/.test(err.message));
  for (const e of [e1, e2, e3]) await e.dispose();
});

test('size and sha256 from the manifest are checked: a mismatch names the file and both values and caches nothing', async (t) => {
  const dir = fixture(t);
  if (!dir) return;
  const hub = await startHub(dir);
  try {
    const model = readFileSync(join(dir, 'onnx/model.onnx'));
    const tokenizer = readFileSync(join(dir, 'tokenizer.json'));
    const entry = (modelSpec) => ({ models: { tiny: { pooling: 'mean', repo: 'test/tiny-bert', revision: 'r1', files: {
      'model.onnx': { path: 'onnx/model.onnx', ...modelSpec },
      'tokenizer.json': { path: 'tokenizer.json', bytes: tokenizer.length, sha256: sha256(tokenizer) } } } } });
    const wrong = '0'.repeat(64);
    const cacheDir = join(tmp, 'cache-integrity');
    await assert.rejects(fetchModelFiles('tiny', { manifest: entry({ bytes: model.length, sha256: wrong }), hubUrl: hub.url, cacheDir }), (err) =>
      err instanceof RagwasmError && err.code === 'INTEGRITY' && err.message.includes('onnx/model.onnx')
      && err.message.includes(wrong) && err.message.includes(sha256(model)));
    await assert.rejects(fetchModelFiles('tiny', { manifest: entry({ bytes: model.length + 1, sha256: null }), hubUrl: hub.url, cacheDir }),
      (err) => err.code === 'INTEGRITY' && err.message.includes(`expected ${model.length + 1} bytes, got ${model.length}`));
    await assert.rejects(fetchModelFiles('tiny', { manifest: entry({ bytes: model.length - 1, sha256: null }), hubUrl: hub.url, cacheDir }),
      (err) => err.code === 'INTEGRITY' && /onnx\/model\.onnx/.test(err.message));
    assert.deepEqual(files(cacheDir).filter((f) => f.endsWith('model.onnx')), [], 'a file that failed its check is not cached');

    // Pinned and right: verified, cached, and the revision is part of the URL; N MB for the demo from the pins.
    const good = entry({ bytes: model.length, sha256: sha256(model) });
    assert.equal(modelDownloadBytes(good.models.tiny), model.length + tokenizer.length);
    assert.equal(modelDownloadBytes(MODEL_MANIFEST.models['bge-small-en-v1.5']), null);  // not pinned: no size claimed
    const r = await fetchModelFiles('tiny', { manifest: good, hubUrl: hub.url, cacheDir });
    assert.deepEqual(r.downloaded, ['onnx/model.onnx', 'tokenizer.json']);
    assert.ok(hub.requests.includes('/test/tiny-bert/resolve/r1/onnx/model.onnx'));
    assert.equal(sha256(r.files['model.onnx']), sha256(model));
    // A cached file that no longer matches (the manifest pinned another hash since) is dropped and downloaded again.
    const before = hub.requests.length;
    await assert.rejects(fetchModelFiles('tiny', { manifest: entry({ bytes: model.length, sha256: wrong }), hubUrl: hub.url, cacheDir }),
      (err) => err.code === 'INTEGRITY');
    assert.equal(hub.requests.length, before + 1);
    assert.deepEqual(files(cacheDir).filter((f) => f.endsWith('model.onnx')), []);
    // Aborted before it starts: ABORTED and no request; a fetch of one's own is used (a body without a stream still reports progress).
    const ac = new AbortController();
    ac.abort();
    const n = hub.requests.length;
    await assert.rejects(fetchModelFiles('tiny', { manifest: good, hubUrl: hub.url, cache: false, signal: ac.signal }), (err) => err.code === 'ABORTED');
    assert.equal(hub.requests.length, n);
    const seen = [];
    const own = await fetchModelFiles('tiny', { manifest: good, hubUrl: 'http://hub.invalid', cache: false, onProgress: (p) => seen.push(p),
      fetch: async (url) => ({ ok: true, status: 200, headers: new Headers(), body: null, arrayBuffer: async () => readFileSync(join(dir, new URL(url).pathname.split('/resolve/r1/')[1])) }) });
    assert.equal(sha256(own.files['model.onnx']), sha256(model));
    assert.deepEqual(seen.map((p) => [p.file, p.loaded, p.total]), [['onnx/model.onnx', model.length, model.length], ['tokenizer.json', tokenizer.length, tokenizer.length]]);
    // A template hub URL.
    const tpl = await fetchModelFiles('tiny', { manifest: good, hubUrl: `${hub.url}/x/y/resolve/{revision}/{path}`, cache: false });
    assert.equal(sha256(tpl.files['tokenizer.json']), sha256(tokenizer));
  } finally {
    await hub.close();
  }
});

test('by-name errors: unknown names list the manifest, built models, HTTP 404, bad options, RAGWASM_CACHE default', async (t) => {
  await assert.rejects(createOnnxEmbedder('no-such-model'), (err) => err instanceof RagwasmError && err.code === 'INVALID_ARGUMENT'
    && /bge-small-en-v1\.5/.test(err.message) && /no-such-model/.test(err.message));
  await assert.rejects(createOnnxEmbedder('static-glove-100d'), (err) => err.code === 'INVALID_ARGUMENT' && /built locally/.test(err.message));
  await assert.rejects(createOnnxEmbedder({ model: new Uint8Array(4), tokenizer: { vocab: 'a' }, hubUrl: 'http://127.0.0.1:1' }),
    (err) => err.code === 'INVALID_ARGUMENT' && /options\.hubUrl/.test(err.message));
  await assert.rejects(createOnnxEmbedder('bge-small-en-v1.5', { hubUrl: 'ftp://example.org' }), (err) => err.code === 'INVALID_ARGUMENT' && /hubUrl/.test(err.message));
  await assert.rejects(createOnnxEmbedder('bge-small-en-v1.5', { hubUrl: 'http://a', remoteHost: 'http://b' }), (err) => err.code === 'INVALID_ARGUMENT');
  await assert.rejects(createOnnxEmbedder('bge-small-en-v1.5', 'x'), (err) => err.code === 'INVALID_ARGUMENT');
  await assert.rejects(createOnnxEmbedder({ pooling: 'mean' }), (err) => err.code === 'INVALID_ARGUMENT' && /options\.model/.test(err.message));
  const dir = fixture(t);
  if (!dir) return;
  const hub = await startHub(join(tmp, 'empty-hub'));
  const saved = process.env.RAGWASM_CACHE;
  process.env.RAGWASM_CACHE = join(tmp, 'env-cache');
  try {
    await assert.rejects(createOnnxEmbedder('e5-small-v2', { hubUrl: hub.url }),
      (err) => err.code === 'HTTP' && err.details?.status === 404 && /onnx\/model\.onnx/.test(err.message));
    await hub.close();
    const full = await startHub(dir);
    try {
      const e = await createOnnxEmbedder('e5-small-v2', { hubUrl: full.url });
      assert.equal(e.prefixes.document, 'passage: ');
      await e.dispose();
    } finally {
      await full.close();
    }
    assert.ok(files(join(tmp, 'env-cache')).some((f) => f.endsWith('Xenova/e5-small-v2/main/onnx/model.onnx')), 'cached under $RAGWASM_CACHE');
  } finally {
    if (saved === undefined) delete process.env.RAGWASM_CACHE;
    else process.env.RAGWASM_CACHE = saved;
  }
});

test('the demo\'s "use a neural model (downloads N MB)" label takes N from the manifest\'s pinned sizes', async () => {
  const { neuralModelLabel } = await import('../../../web/demo/lib/neural-model.js');
  const m = (a, b) => ({ models: { x: { files: { 'model.onnx': { bytes: a }, 'tokenizer.json': { bytes: b } } } } });
  assert.equal(neuralModelLabel('x', m(133_093_490, 711_396)), 'use a neural model (downloads 134 MB)');
  assert.equal(neuralModelLabel('x', m(4_000_000, 700_000)), 'use a neural model (downloads 4.7 MB)');
  assert.equal(neuralModelLabel('x', m(4_000_000, null)), 'use a neural model (download size not pinned in models/manifest.json)');
});
