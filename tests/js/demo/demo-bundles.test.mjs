// The demo pages load esbuild bundles (scripts/bundle-demos.mjs, issue 27): every file a bundle names by
// `new URL(…, import.meta.url)` is there from web/dist/demo/, each page loads bundles that exist, what
// doc chat's Worker loads at start leaves the LLM client and ONNX out, and `serve.mjs --sources` points
// the pages back at the unbundled scripts.
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import { repoRoot } from '../helpers.mjs';
import { bundleDemos, DEMO_ENTRIES, DEMO_OUT } from '../../../scripts/bundle-demos.mjs';
import { withDemoSources } from '../../../scripts/serve.mjs';

const PAGES = ['web/demo/chat.html', 'web/demo/chunking.html', 'web/demo/metrics.html', 'web/demo/persistence-check.html', 'web/index.html'];
// Built by other steps (the static model), or a route of serve.mjs rather than a file (/shared-data/).
const NOT_HERE = ['models/build/static-model.bin', 'shared-data/'];

test('each new URL(literal, import.meta.url) of the bundles names a file that is there, seen from web/dist/demo/', async () => {
  await bundleDemos();
  const named = new Set();
  for (const f of readdirSync(DEMO_OUT).filter((x) => x.endsWith('.js'))) {
    for (const m of readFileSync(join(DEMO_OUT, f), 'utf8').matchAll(/new URL\("([^"]+)",import\.meta\.url\)/g)) named.add(m[1]);
  }
  // the library's .wasm, the demos' corpus and Workers are among them
  for (const want of ['../ragwasm.wasm', '../corpus.json', './chat-worker.js', './chunking-worker.js', './landing-worker.js']) assert.ok(named.has(want), `${want} in ${[...named]}`);
  for (const url of named) {
    const file = posix.join('web/dist/demo', url);
    if (NOT_HERE.includes(file)) continue;
    assert.ok(existsSync(join(repoRoot, file)), `${url} -> ${file} is missing`);
  }
});

test('each demo page loads bundles of web/dist/demo/ that exist, one per entry it names', async () => {
  await bundleDemos();
  for (const page of PAGES) {
    const html = readFileSync(join(repoRoot, page), 'utf8');
    const urls = [...html.matchAll(/["']([^"'\s]*dist\/demo\/[\w-]+\.js)["']/g)].map((m) => posix.join(posix.dirname(page), m[1]));
    assert.ok(urls.length > 0, `${page} loads no bundle`);
    for (const u of urls) {
      assert.ok(existsSync(join(repoRoot, u)), `${page}: ${u} missing`);
      assert.ok(Object.hasOwn(DEMO_ENTRIES, posix.basename(u, '.js')), `${page}: ${u} is not an entry`);
    }
  }
});

test('doc chat\'s Worker begins the WASM compile before its code loads, which holds neither the LLM client nor the ONNX entry (they are import() chunks)', async () => {
  await bundleDemos();
  const meta = JSON.parse(readFileSync(join(DEMO_OUT, 'metafile.json'), 'utf8'));
  const out = (name) => Object.entries(meta.outputs).find(([k]) => k.endsWith(`/${name}`));
  const seen = new Set();
  const inputs = new Set();
  const walk = (name) => {
    if (seen.has(name)) return;
    seen.add(name);
    const [, o] = out(name);
    for (const i of Object.keys(o.inputs)) inputs.add(i);
    for (const imp of o.imports) if (imp.kind === 'import-statement' && !imp.external) walk(posix.basename(imp.path));
  };
  // The entry imports nothing at start (its WASM fetch begins at once); its code is the import() of chat-worker-main.js.
  const [, entry] = out('chat-worker.js');
  assert.deepEqual(entry.imports.filter((i) => i.kind === 'import-statement' && !i.external), []);
  const main = Object.entries(meta.outputs).find(([, o]) => o.entryPoint?.endsWith('web/demo/chat-worker-main.js'));
  assert.ok(main, 'chat-worker-main.js is a chunk of its own');
  assert.ok(entry.imports.some((i) => i.kind === 'dynamic-import' && i.path === main[0]), 'chat-worker.js imports chat-worker-main.js with import()');
  walk(posix.basename(main[0]));
  const all = [...inputs].join('\n');
  assert.match(all, /web\/src\/answer\/ask-question\.js/);
  assert.doesNotMatch(all, /web\/src\/llm\/client\.js/);
  assert.doesNotMatch(all, /web\/src\/embed\/onnx-embedder\.js/);
});

test('serve.mjs --sources points a page\'s bundle URLs at web/demo/*.js and leaves other URLs', () => {
  assert.equal(withDemoSources(`new Worker('../dist/demo/chat-worker.js'); <script src="../dist/demo/chat.js">`, '/web/demo/chat.html'),
    `new Worker('chat-worker.js'); <script src="chat.js">`);
  assert.equal(withDemoSources('<script src="dist/demo/landing.js">', '/web/index.html'), '<script src="demo/landing.js">');
  assert.equal(withDemoSources('<a href="../dist/corpus.json"> <script src="/other/dist/demo/x.js">', '/web/demo/chat.html'),
    '<a href="../dist/corpus.json"> <script src="/other/dist/demo/x.js">');
});
