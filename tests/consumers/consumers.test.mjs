// Consumer tests: the package as a user installs it. `npm pack` -> fresh apps (tests/consumers/apps/)
// with the tarball installed by npm, offline -> each built by its own bundler -> opened in headless
// Chromium (or run by Node) -> the same calls must return what the repo's own API returns in this
// process, with no console error, no failed request and no request leaving 127.0.0.1. Prints the
// bundle size table and writes bench-results/consumers.json. See tests/consumers/README.md.
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../browser/harness.mjs';
import { sharedPath } from '../js/helpers.mjs';
import { pythonOnnx } from '../js/embed-fixtures.mjs';
import {
  APPS, openApp, prepare, repoRoot, resolveExport, run, runNodeScript, serveDir, sizeRow, sizeTable, writeOnnxAssets, writeSizes,
} from './harness.mjs';
import { bm25Scenario, fullScenario, onnxScenario, workerScenario } from './scenario.js';

const VECTOR_TOLERANCE = 1e-5;  // per dimension, absolute, unit vectors: ORT web in Chromium vs in Node
const TOKENIZER = 'models/bert-base-uncased/tokenizer.json';
const only = process.env.RAGWASM_CONSUMERS?.split(',');  // e.g. RAGWASM_CONSUMERS=vite,node
const apps = only ? APPS.filter((a) => only.includes(a.name)) : APPS;

let prepared = null;
let browser = null;
const rows = [];

// The repo's own entry for `subpath` (Node conditions), as the package's exports map names it.
const rootPkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
async function repoEntry(subpath) {
  const target = resolveExport(rootPkg, subpath, ['node', 'import', 'module']) ?? resolveExport(rootPkg, '.', ['node', 'import', 'module']);
  return import(pathToFileURL(join(repoRoot, target)).href);
}

const expected = {};
async function reference(kind, dir) {
  if (expected[kind]) return expected[kind];
  // the scenarios take the names an app imports from ragwasm and ragwasm/eval (metrics)
  const api = { ...(await repoEntry('.')), ...(await repoEntry('./eval')) };
  if (kind === 'full') expected.full = await fullScenario(api);
  if (kind === 'bm25') expected.bm25 = await bm25Scenario(api);
  if (kind === 'worker') expected.worker = await workerScenario(await repoEntry('./worker'));
  if (kind === 'onnx') {
    const { createOnnxEmbedder } = await repoEntry('./onnx');
    const { extractText } = await repoEntry('./parse');
    expected.onnx = await onnxScenario({ ...api, createOnnxEmbedder, extractText }, {
      model: join(dir, 'public/model.onnx'),
      tokenizerJson: readFileSync(join(dir, 'public/tokenizer.json'), 'utf8'),
      pdf: new Uint8Array(readFileSync(join(dir, 'public/policy.pdf'))),
    });
  }
  return expected[kind];
}

async function onnxAssets(dir) {
  const tok = sharedPath(TOKENIZER);
  if (!tok) return `needs ../shared/${TOKENIZER} (the BERT fixture's vocabulary)`;
  if (!pythonOnnx()) return 'needs Debian python3-onnx and python3-numpy for /usr/bin/python3 (apt-get install python3-onnx)';
  await writeOnnxAssets(dir, { tokenizerJsonPath: tok });
  return null;
}

test.before(async () => {
  prepared = await prepare({ apps, onnxAssets });
  const installs = prepared.apps.map((s) => `${s.app.name} ${s.install?.seconds?.toFixed(1) ?? '-'}`).join(', ');
  process.stdout.write(`consumers: wall seconds ${JSON.stringify(prepared.seconds)}; npm install per app: ${installs}\n`);
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
}, { timeout: 600_000 });

test.after(async () => {
  await browser?.close();
  if (rows.length) {
    // run.mjs prints the table itself, from the JSON.
    if (!process.env.RAGWASM_CONSUMERS_RUN) process.stdout.write(`\nconsumer bundle sizes (node --test tests/consumers/consumers.test.mjs):\n${sizeTable(rows)}\n`);
    writeSizes(rows, { seconds: prepared?.seconds, packs: prepared?.packs.map(({ name, version, size, unpackedSize, entries }) => ({ name, version, size, unpackedSize, entries })) });
  }
  if (prepared && !process.env.RAGWASM_CONSUMERS_KEEP) rmSync(prepared.root, { recursive: true, force: true });
  else if (prepared) process.stdout.write(`consumer apps kept in ${prepared.root}\n`);
});

const stateOf = (name) => prepared.apps.find((s) => s.app.name === name);

// Asserts the app was installed and built; returns its state, or null after t.skip(reason).
function built(t, name) {
  const s = stateOf(name);
  assert.ok(s, `${name} was not prepared`);
  if (s.skip) { t.skip(s.skip); return null; }
  assert.equal(s.install?.error, undefined, `npm install of the tarball into ${name} failed:\n${s.install?.error}`);
  if (s.build) {
    assert.equal(s.build.code, 0, `${name}: npm run build failed (${s.build.seconds.toFixed(1)} s):\n${s.build.output.slice(-6000)}`);
    // Warnings do not fail the test (the app works) but a user sees them: shown as diagnostics.
    const warnings = s.build.output.split('\n').filter((l) => /warn/i.test(l));
    for (const w of warnings.slice(0, 10)) t.diagnostic(`${name} build: ${w.trim()}`);
  }
  return s;
}

function assertClean(name, r) {
  assert.deepEqual(r.consoleErrors, [], `${name}: console errors`);
  assert.deepEqual(r.failedRequests, [], `${name}: failed requests`);
  assert.deepEqual(r.foreignRequests, [], `${name}: requests outside 127.0.0.1`);
}

function assertOk(name, where, outcome) {
  assert.ok(outcome, `${name}: no ${where} result`);
  assert.equal(outcome.ok, true, `${name} (${where}) threw: ${JSON.stringify(outcome.error)}`);
}

// The expected results come from the repo API; this pins them, so an app cannot pass by agreeing with
// a broken or empty reference.
test('the expected results rank the relevant section first for every query', async () => {
  const want = await reference('full');
  assert.equal(want.chunks.length, 6);  // 3 documents x 2 markdown sections
  assert.deepEqual(Object.values(want.bm25).map((hits) => hits[0][0]), ['handbook#1', 'security#1', 'handbook#0']);
  assert.deepEqual(Object.values(want.collection).map((hits) => hits[0][1]), ['handbook', 'security', 'handbook']);
  for (const run of ['bm25', 'collection']) {
    const e = want.evaluation[run];
    assert.equal(e.recip_rank, 1, run);  // every query's first hit is relevant
    assert.equal(e.recall_3, 1, run);  // q1 has 2 relevant, q2 and q3 have 1, all in the top 3
    assert.ok(Math.abs(e.P_3 - 4 / 9) < 1e-12, `${run} P_3 ${e.P_3}`);  // (2/3 + 1/3 + 1/3) / 3
  }
});

test('npm pack gives a tarball that npm installs offline into a fresh app', () => {
  assert.ok(prepared.packs.length >= 1);
  const main = prepared.packs.find((p) => p.name === 'ragwasm');
  assert.ok(main, `no ragwasm tarball among ${prepared.packs.map((p) => p.name)}`);
  for (const s of prepared.apps) assert.equal(s.install?.error, undefined, `${s.app.name}: ${s.install?.error}`);
});

for (const app of apps.filter((a) => !a.node)) {
  const title = app.name === 'vite-onnx'
    ? 'the Vite app with ragwasm/onnx and ragwasm/parse embeds a PDF as the repo API does with no console error and no failed request'
    : `the ${app.name} app returns the repo API's results ${app.worker ? 'on its page and in a module Worker ' : ''}with no console error and no failed request`;
  test(title, { timeout: 300_000 }, async (t) => {
    const s = built(t, app.name);
    if (!s) return;
    const r = await openApp(browser, s);
    const row = sizeRow(s, r.fetched, false, r.seconds);
    rows.push(row);
    assertOk(app.name, 'page', r.outcome.page);
    if (app.scenario === 'onnx') {
      const want = await reference('onnx', s.dir);
      // The reference itself: both PDF pages read, the hotel sentence found by BM25, 32-d vectors.
      assert.equal(want.pages.length, 2);
      const hotel = want.chunks.find(([id]) => id === want.bm25['hotel price per night'][0][0]);
      assert.match(want.text.slice(hotel[1], hotel[2]), /Hotel rooms cost/);
      assert.equal(want.dims, 32);
      const got = r.outcome.page.result;
      const { vectors, queryVectors, ...exact } = got;
      const { vectors: wantVectors, queryVectors: wantQueries, ...wantExact } = want;
      assert.deepEqual(exact, wantExact);
      let maxDiff = 0;
      for (const [a, b] of [[vectors, wantVectors], [queryVectors, wantQueries]]) {
        assert.equal(a.length, b.length);
        a.forEach((v, i) => { assert.equal(v.length, b[i].length); v.forEach((x, d) => { maxDiff = Math.max(maxDiff, Math.abs(x - b[i][d])); }); });
      }
      t.diagnostic(`max |Chromium - Node| over ${vectors.length + queryVectors.length} vectors = ${maxDiff.toExponential(3)}`);
      assert.ok(maxDiff <= VECTOR_TOLERANCE, `embeddings differ by ${maxDiff} > ${VECTOR_TOLERANCE}`);
    } else if (app.scenario !== 'worker') {
      assert.deepEqual(r.outcome.page.result, await reference(app.scenario));
    }
    if (app.scenario === 'worker' || app.workerCollection) {
      // ragwasm/worker: the Worker's hits equal the repo's, a fuzzy query finds the password section,
      // the Worker's error is a RagwasmError on the page
      const got = app.scenario === 'worker' ? r.outcome.page : r.outcome.workerCollection;
      assertOk(app.name, 'WorkerCollection', got);
      const want = await reference('worker');
      assert.deepEqual(want.fuzzy, ['security']);
      assert.deepEqual(want.error, [true, 'INVALID_ARGUMENT']);
      assert.equal(want.progress, true);
      assert.deepEqual(got.result, want);
    }
    if (app.worker) {
      assertOk(app.name, 'worker', r.outcome.worker);
      assert.deepEqual(r.outcome.worker.result, await reference(app.scenario));
    }
    if (app.name === 'vite') {
      // the package's Worker pool, its Worker script found by the app's bundler
      assertOk(app.name, 'pool', r.outcome.pool);
      assert.equal(r.outcome.pool.result.shards, 2);
      assert.equal(r.outcome.pool.result.same, true, JSON.stringify(r.outcome.pool.result));
      assert.ok(r.outcome.pool.result.hits >= 3);
    }
    assertClean(app.name, r);
    if (app.scenario !== 'onnx') {
      // Optional parts are loaded only when used: one .wasm (ragwasm's own), nothing of onnxruntime-web,
      // and no model file at all for the BM25-only app.
      const fetched = Object.values(r.fetched).flatMap((k) => k.files);
      assert.deepEqual(fetched.filter((f) => /onnxruntime|ort-wasm|pdf\.worker|mammoth/i.test(f)), [], 'optional peers fetched');
      assert.equal(r.fetched.wasm?.files.length, 1, `WASM files fetched: ${r.fetched.wasm?.files}`);
      if (app.scenario === 'bm25') assert.equal(r.fetched.model, undefined, `model files fetched by a BM25-only app: ${r.fetched.model?.files}`);
    }
    if (row.target) {
      // a size, not a timing: the same build gives the same bytes (the table printed below shows it too)
      assert.ok(row.target.gzipJsWasm !== null && row.target.gzipJsWasm <= row.target.bytes,
        `${app.name}: JS + WASM gzipped ${row.target.gzipJsWasm} bytes, target <= ${row.target.bytes}`);
    }
    row.works = true;
  });
}

if (apps.some((a) => a.cdn)) {
  test('on a CDN page a wrong wasmUrl or a missing model or ragwasm/onnx without onnxruntime-web gives a RagwasmError naming it and nothing is lost', { timeout: 120_000 }, async (t) => {
    const name = apps.find((a) => a.cdn).name;
    const s = built(t, name);
    if (!s) return;
    const r = await openApp(browser, s, { page: 'errors.html' });
    assertOk(name, 'errors page', r.outcome.page);
    const e = r.outcome.page.result;
    assertBoundaryErrors(e, t);
    assert.deepEqual(r.consoleErrors.filter((m) => !/404|Not Found/i.test(m)), [], 'console errors other than the two 404s');
    assert.deepEqual(r.failedRequests.map((f) => f.replace(/ \(.*\)$/, '')).filter((u) => !u.endsWith('/missing/ragwasm.wasm') && !u.endsWith('/missing/static-model.bin')), [],
      'failed requests other than the two missing files');
    assert.deepEqual(r.foreignRequests, []);
  });
}

// The messages must name what is missing (the URL) and how to fix it.
function assertBoundaryErrors(e, t) {
  for (const k of ['wrongWasmUrl', 'missingModelFile', 'missingModel', 'missingOrt']) {
    if (e[k]) t.diagnostic(`${k}: ${e[k].name} ${e[k].code}: ${e[k].message}`);
  }
  assert.equal(e.wrongWasmUrl.threw, true, 'init({wasmUrl}) with a wrong URL did not throw');
  assert.equal(e.wrongWasmUrl.name, 'RagwasmError', JSON.stringify(e.wrongWasmUrl));
  const named = [e.wasmUrl, e.wasmPath].filter(Boolean);  // Node may name the file by its path
  assert.ok(named.some((x) => e.wrongWasmUrl.message.includes(x)), `the message does not name ${named.join(' or ')}: ${e.wrongWasmUrl.message}`);
  assert.doesNotMatch(e.wrongWasmUrl.message, /npm run build/, 'an installed user cannot run npm run build');
  assert.equal(e.initAfter.threw, false, `init() after the failed one: ${JSON.stringify(e.initAfter)}`);
  assert.equal(e.chunksAfter, 2);
  assert.equal(e.missingModel.threw, true);
  assert.equal(e.missingModel.name, 'RagwasmError', JSON.stringify(e.missingModel));
  assert.ok(e.missingModel.message.includes(e.modelUrl), `the message does not name ${e.modelUrl}: ${e.missingModel.message}`);
  assert.equal(e.missingOrt.threw, true);
  assert.equal(e.missingOrt.name, 'RagwasmError', JSON.stringify(e.missingOrt));
  assert.match(e.missingOrt.message, /npm install onnxruntime-web/, 'the message should say what to install');
}

if (apps.some((a) => a.node)) {
  test('a Node ESM app returns the repo API results from the installed package', { timeout: 120_000 }, async (t) => {
    const s = built(t, 'node');
    if (!s) return;
    const outcome = await runNodeScript(s, 'main.mjs');
    assertOk('node', 'main.mjs', outcome);
    assert.deepEqual(outcome.result, await reference('full'));
  });

  test('the Worker pool runs from the installed package in Node (worker_threads, two shards rank as one index)', { timeout: 120_000 }, async (t) => {
    const s = built(t, 'node');
    if (!s) return;
    const r = await runNodeScript(s, 'parallel.mjs');
    assert.equal(r.shards, 2, JSON.stringify(r));
    assert.equal(r.same, true, JSON.stringify(r));
    assert.ok(r.hits >= 3, JSON.stringify(r));
  });

  test('npx ragwasm embed from the installed package uses the default static model', { timeout: 120_000 }, async (t) => {
    const s = built(t, 'node');
    if (!s) return;
    const mine = run(join(s.dir, 'node_modules/.bin/ragwasm'), ['embed', 'paid leave days'], { cwd: s.dir });
    const repo = run(process.execPath, [join(repoRoot, 'web/cli/ragwasm.mjs'), 'embed', 'paid leave days']);
    assert.equal(mine, repo);
    assert.equal(JSON.parse(mine.trim()).vector.length, 100);
  });

  test('npx ragwasm ask --docs examples/corpus from the installed package answers with a citation, as the README shows', { timeout: 120_000 }, async (t) => {
    const s = built(t, 'node');
    if (!s) return;
    const question = 'How many days of paid time off do full-time U.S. employees get per year?';
    const args = ['ask', '--docs', join(repoRoot, 'examples/corpus'), question];
    const mine = run(join(s.dir, 'node_modules/.bin/ragwasm'), args, { cwd: s.dir });
    const repo = run(process.execPath, [join(repoRoot, 'web/cli/ragwasm.mjs'), ...args]);
    assert.equal(mine, repo);
    assert.match(mine, /22 days per year.*\[1\]\n\s+\[1\] employee-faq \d+-\d+: /s);
    const json = JSON.parse(run(join(s.dir, 'node_modules/.bin/ragwasm'), [...args, '--json'], { cwd: s.dir }).trim());
    assert.equal(json.abstained, false);
    assert.equal(json.citations[0].docId, 'employee-faq');
  });

  test('a TypeScript file written from the README and docs type-checks with tsc --strict against the installed types', { timeout: 120_000 }, async (t) => {
    const s = built(t, 'node');
    if (!s) return;
    // typescript is linked from the repo (harness APPS tools); its .d.ts files come from the tarball
    const r = spawnSync(process.execPath, [join(s.dir, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: s.dir, encoding: 'utf8' });
    assert.equal(r.status, 0, `tsc --strict failed:\n${r.stdout}${r.stderr}`);
    assert.ok(existsSync(join(s.dir, 'node_modules/ragwasm/web/src/index.d.ts')), 'the types checked are the installed package\'s');
  });

  test('in Node a wrong wasmUrl or a missing model or ragwasm/onnx without onnxruntime-web gives a RagwasmError naming it and nothing is lost', { timeout: 120_000 }, async (t) => {
    const s = built(t, 'node');
    if (!s) return;
    const server = await serveDir(join(s.dir, 'node_modules'));
    try {
      const e = await runNodeScript(s, 'errors.mjs', [`${server.url}missing/static-model.bin`]);
      assert.ok(e.wrongWasmUrl, `errors.mjs failed: ${JSON.stringify(e)}`);
      assertBoundaryErrors(e, t);
      assert.equal(e.missingModelFile.name, 'RagwasmError', JSON.stringify(e.missingModelFile));
      assert.ok(e.missingModelFile.message.includes(e.modelPath), e.missingModelFile.message);
    } finally {
      await server.close();
    }
  });
}
