// The package as an app installs it: the entry points of package.json "exports", their declarations,
// what their import graphs reach (no node: specifier, no repository path, bare names only for the
// optional peers of that entry), what `npm pack` publishes, and the errors at the new boundaries
// (a wrong wasmUrl, a missing optional peer).
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { repoRoot } from '../helpers.mjs';

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
const ENTRIES = { '.': 'ragwasm', './parallel': 'ragwasm/parallel', './eval': 'ragwasm/eval', './onnx': 'ragwasm/onnx', './parse': 'ragwasm/parse', './llm': 'ragwasm/llm', './postgres': 'ragwasm/postgres', './worker': 'ragwasm/worker' };
// Bare names each entry's graph may import (dynamically, at the point of use).
const CORE_PEERS = ['ragwasm-static-model'];
const ALLOWED_BARE = {
  '.': CORE_PEERS,
  './parallel': CORE_PEERS,
  './eval': CORE_PEERS,
  './onnx': [...CORE_PEERS, 'onnxruntime-web'],
  './parse': [...CORE_PEERS, 'pdfjs-dist', 'pdfjs-dist/build/pdf.worker.min.mjs', 'pdfjs-dist/legacy/build/pdf.mjs', 'mammoth'],
  './llm': CORE_PEERS,
  './postgres': [...CORE_PEERS, 'pg'],
  './worker': CORE_PEERS,
};

// Every import specifier (static, re-export, literal dynamic import) of every module reachable from `file`.
function importGraph(file) {
  const seen = new Map();
  const stack = [resolve(file)];
  while (stack.length) {
    const f = stack.pop();
    if (seen.has(f)) continue;
    // JSDoc is not code: `{import('./x.js').T}` names a type (#28: every module is type-checked and names
    // its .d.ts types so). Dropped: /** ... */ on one line and the lines of a JSDoc block (starting with *).
    const src = readFileSync(f, 'utf8').replace(/\/\*\*.*?\*\//g, '').replace(/^\s*\*.*$/gm, '');
    const specs = [...src.matchAll(/(?:^|[\s;])(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|import\(\s*(?:\/\*[^*]*\*\/\s*)*['"]([^'"]+)['"]\s*\)/gm)]
      .map((m) => m[1] ?? m[2] ?? m[3]);
    seen.set(f, specs);
    for (const s of specs) if (s.startsWith('.')) stack.push(resolve(dirname(f), s));
  }
  return seen;
}

// Names of the values (not types) a .d.ts module exports, by the TypeScript checker.
function declaredValues(dts) {
  const program = ts.createProgram([dts], { allowJs: false, noEmit: true, types: [] });
  const checker = program.getTypeChecker();
  const sym = checker.getSymbolAtLocation(program.getSourceFile(dts));
  return checker.getExportsOfModule(sym)
    .map((s) => [s.name, s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s])
    .filter(([, t]) => (t.flags & ts.SymbolFlags.Value) !== 0)
    // no `@internal` filter: the library's own declarations (for tsconfig.checkjs.json) must not leak into an
    // entry, where a TypeScript user could import a name that is undefined at run time (the entries list such modules' names)
    .map(([name]) => name).sort();
}

test('every entry point in package.json exports resolves by its package name', async () => {
  assert.deepEqual(Object.keys(pkg.exports).filter((k) => k in ENTRIES), Object.keys(ENTRIES));
  for (const [key, name] of Object.entries(ENTRIES)) {
    const byName = await import(name);
    const byFile = await import(join(repoRoot, pkg.exports[key].default));
    assert.deepEqual(Object.keys(byName).sort(), Object.keys(byFile).sort(), name);
    assert.ok(Object.keys(byName).length > 0, name);
  }
});

test('every runtime export of each entry has a declaration and every declared value exists', async () => {
  for (const [key, name] of Object.entries(ENTRIES)) {
    const runtime = Object.keys(await import(name)).sort();
    const declared = declaredValues(join(repoRoot, pkg.exports[key].types));
    assert.deepEqual(runtime.filter((n) => !declared.includes(n)), [], `${name}: exported but not declared`);
    assert.deepEqual(declared.filter((n) => !runtime.includes(n)), [], `${name}: declared but not exported`);
  }
});

// docs/api.md "Entry points: the tiers" lists every runtime name of every entry under its `### \`ragwasm/…\`` heading and
// counts them in its table: the tiers a newcomer reads are the code's (issue #28), and a name is in one tier only
// (RagwasmError, re-exported by ragwasm/postgres and ragwasm/worker for their callers, is the one exception).
test('#28 docs/api.md lists each entry\'s names exactly and a name lives in one tier', async () => {
  const api = readFileSync(join(repoRoot, 'docs/api.md'), 'utf8');
  const start = api.indexOf('## Entry points: the tiers');
  assert.ok(start >= 0, 'docs/api.md lacks the section "Entry points: the tiers"');
  const section = api.slice(start, api.indexOf('\n## ', start + 1));
  const seen = new Map();
  for (const [key, name] of Object.entries(ENTRIES)) {
    const runtime = Object.keys(await import(name)).sort();
    const heading = section.indexOf(`### \`${name}\``);
    assert.ok(heading >= 0, `docs/api.md has no heading for ${name}`);
    const body = section.slice(heading).split('\n### ')[0].split('\n').slice(1).join('\n');
    const listed = [...body.matchAll(/`([A-Za-z_$][\w$]*)`/g)].map((m) => m[1]).sort();
    assert.deepEqual(listed, runtime, `docs/api.md: the names of ${name}`);
    const row = new RegExp(`^\\| \`${name.replace('/', '\\/')}\` \\| [^|]+\\| (\\d+) \\|`, 'm').exec(section);
    assert.equal(Number(row?.[1]), runtime.length, `docs/api.md: the count of ${name} in the table`);
    for (const n of runtime) {
      if (n !== 'RagwasmError') assert.ok(!seen.has(n), `${n} is exported by ${seen.get(n)} and ${name}`);
      seen.set(n, seen.get(n) ?? name);
    }
    assert.ok(key in pkg.exports);
  }
});

test('no entry reaches a node: specifier or a repository path and bare names are only its optional peers', () => {
  for (const [key, name] of Object.entries(ENTRIES)) {
    const graph = importGraph(join(repoRoot, pkg.exports[key].default));
    for (const [file, specs] of graph) {
      const rel = file.slice(repoRoot.length + 1);
      for (const s of specs) {
        assert.ok(!s.startsWith('node:'), `${name}: ${rel} imports ${s}`);
        assert.ok(!/node_modules|\.\.\/\.\.\/\.\.\/src\//.test(s), `${name}: ${rel} imports the repository path ${s}`);
        if (!s.startsWith('.')) assert.ok(ALLOWED_BARE[key].includes(s), `${name}: ${rel} imports the bare name ${s}`);
      }
    }
    if (key === '.') {
      const files = [...graph.keys()].map((f) => f.slice(repoRoot.length + 1));
      for (const heavy of ['web/src/embed/ort-session.js', 'web/src/document/parse.js', 'web/src/llm/client.js']) {
        assert.ok(!files.includes(heavy), `ragwasm reaches ${heavy}`);
      }
    }
  }
});

test('npm pack publishes the release WASM and no repository-only files', () => {
  const [info] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  const files = info.files.map((f) => f.path);
  for (const want of ['web/dist/ragwasm.mjs', 'web/dist/ragwasm.wasm', 'web/src/index.js', 'web/src/index.d.ts', 'web/src/parallel.js', 'web/src/parallel.d.ts', 'web/src/eval.js', 'web/src/eval.d.ts', 'web/src/onnx.js', 'web/src/parse.js', 'web/src/llm.js', 'web/src/llm/prompts/answer_grounded.js', 'web/cli/ragwasm.mjs']) {
    assert.ok(files.includes(want), `missing ${want}`);
  }
  const leaked = files.filter((p) => /^(web\/dist\/debug\/|web\/dist\/corpus\.json|src\/|tests\/|examples\/|models\/|web\/demo\/)/.test(p));
  assert.deepEqual(leaked, []);
  assert.ok(info.size <= 2_000_000, `tarball ${info.size} bytes > 2 MB`);
  for (const peer of ['onnxruntime-web', 'pdfjs-dist', 'mammoth']) {
    assert.equal(pkg.dependencies?.[peer], undefined, `${peer} is a dependency`);
    assert.equal(pkg.peerDependenciesMeta[peer]?.optional, true, `${peer} is not an optional peer`);
  }
});

// Both tarballs say Apache-2.0 (package.json "license"), so both carry the license text: the same file
// as the repository's LICENSE (packages/static-model/LICENSE is a copy, checked equal here).
test('both tarballs (ragwasm and ragwasm-static-model) publish LICENSE with the Apache-2.0 text', () => {
  const license = readFileSync(join(repoRoot, 'LICENSE'), 'utf8');
  assert.match(license, /Apache License\s+Version 2\.0, January 2004/);
  assert.match(license, /END OF TERMS AND CONDITIONS/);
  for (const dir of ['.', 'packages/static-model']) {
    const cwd = join(repoRoot, dir);
    const meta = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8'));
    assert.equal(meta.license, 'Apache-2.0', `${meta.name}: license`);
    const [info] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    assert.equal(info.name, meta.name);
    assert.ok(info.files.some((f) => f.path === 'LICENSE'), `${meta.name}: the tarball lacks LICENSE`);
    assert.equal(readFileSync(join(cwd, 'LICENSE'), 'utf8'), license, `${dir}/LICENSE differs from the repository's LICENSE`);
  }
});

test('a missing optional peer is a RagwasmError that says what to npm install', async () => {
  const { importPeer } = await import('../../../web/src/core/peer.js');
  await assert.rejects(importPeer(() => import('ragwasm-no-such-peer-package'), 'ragwasm-no-such-peer-package', 'ragwasm/onnx'),
    (e) => e.name === 'RagwasmError' && e.code === 'NOT_FOUND' && /npm install ragwasm-no-such-peer-package/.test(e.message) && /ragwasm\/onnx/.test(e.message));
});

// init() loads once per realm, so each bad init runs in its own Node process.
function initIn(child) {
  const script = `import { init } from 'ragwasm';
try { await init(${child}); console.log(JSON.stringify({ ok: true })); }
catch (e) { console.log(JSON.stringify({ name: e.name, code: e.code, message: e.message })); }`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, RAGWASM_BUILD: 'release', RAGWASM_DIST: '' } }));
}

test('a wrong wasmUrl is a RagwasmError naming the file and the wasmUrl override', () => {
  const r = initIn(`{ wasmUrl: '/nonexistent/ragwasm-test/ragwasm.wasm' }`);
  assert.equal(r.name, 'RagwasmError');
  assert.equal(r.code, 'NOT_FOUND');
  assert.match(r.message, /\/nonexistent\/ragwasm-test\/ragwasm\.wasm/);
  assert.match(r.message, /wasmUrl/);
  assert.doesNotMatch(r.message, /npm run build/);
  const notWasm = initIn(`{ wasmBinary: new Uint8Array([1, 2, 3]) }`);
  assert.equal(notWasm.code, 'INVALID_ARGUMENT');
  assert.match(notWasm.message, /wasmBinary/);
  const given = initIn(`{ wasmBinary: (await import('node:fs')).readFileSync(${JSON.stringify(join(repoRoot, 'web/dist/ragwasm.wasm'))}) }`);
  assert.deepEqual(given, { ok: true });
});

test('init({ wasmModule }) takes a compiled module or a Promise of one, and names what was wrong', () => {
  const wasm = JSON.stringify(join(repoRoot, 'web/dist/ragwasm.wasm'));
  const compile = `WebAssembly.compile((await import('node:fs')).readFileSync(${wasm}))`;
  // a Promise begun before init() (as a Worker starts compileStreaming before its imports load), and a Module
  assert.deepEqual(initIn(`{ wasmModule: ${compile} }`), { ok: true });
  assert.deepEqual(initIn(`{ wasmModule: await ${compile} }`), { ok: true });
  const notModule = initIn(`{ wasmModule: new Uint8Array([0, 97, 115, 109]) }`);
  assert.equal(notModule.code, 'INVALID_ARGUMENT');
  assert.match(notModule.message, /wasmModule.*WebAssembly\.Module/);
  const resolvedWrong = initIn(`{ wasmModule: Promise.resolve('ragwasm.wasm') }`);
  assert.equal(resolvedWrong.code, 'INVALID_ARGUMENT');
  assert.match(resolvedWrong.message, /wasmModule/);
  const rejected = initIn(`{ wasmModule: Promise.reject(new Error('HTTP 404 for ragwasm.wasm')) }`);
  assert.equal(rejected.code, 'INVALID_ARGUMENT');
  assert.match(rejected.message, /wasmModule: the Promise was rejected: HTTP 404 for ragwasm\.wasm/);
  const both = initIn(`{ wasmModule: ${compile}, wasmBinary: new Uint8Array(8) }`);
  assert.equal(both.code, 'INVALID_ARGUMENT');
  assert.match(both.message, /wasmBinary or wasmModule, not both/);
});

test('the default static model is the companion package file and model options accept paths URLs bytes Blobs and Responses', async () => {
  const { modelUrl } = await import('ragwasm-static-model');
  assert.equal(modelUrl.protocol, 'file:');
  const { init, createStaticEmbedder } = await import('ragwasm');
  await init();
  const byDefault = await createStaticEmbedder();
  const relativePath = join('packages', 'static-model', 'static-model.bin');
  const cwd = process.cwd();
  process.chdir(repoRoot);
  try {
    const bytes = readFileSync(relativePath);
    const want = [...byDefault.embedSync(['a cat'])[0]];
    const sources = { path: relativePath, fileUrl: modelUrl, fileUrlString: modelUrl.href, uint8: bytes,
      arrayBuffer: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), blob: new Blob([bytes]), response: new Response(bytes) };
    for (const [kind, model] of Object.entries(sources)) {
      const e = await createStaticEmbedder({ model, cache: false });
      assert.deepEqual([...e.embedSync(['a cat'])[0]], want, kind);
      e.dispose();
    }
    await assert.rejects(createStaticEmbedder({ model: new Response('gone', { status: 404 }) }), (e) => e.code === 'HTTP' && /404/.test(e.message));
    await assert.rejects(createStaticEmbedder({ model: 'no/such/model.bin' }), (e) => e.code === 'NOT_FOUND' && /model\.bin/.test(e.message));
  } finally {
    process.chdir(cwd);
  }
  byDefault.dispose();
});
