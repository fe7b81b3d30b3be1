// The shape of web/src (issue #28): no import cycle anywhere in the library, no stage importing the
// CLI or the demos, no module past 800 lines, and every module type-checked (// @ts-check).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const src = join(root, 'web/src');

function jsFiles(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...jsFiles(p));
    else if (/\.(m?js)$/.test(e.name)) out.push(p);
  }
  return out.sort();
}

// Static `import ... from '...'` and `export ... from '...'` of a module (relative specifiers only).
function imports(file) {
  const text = readFileSync(file, 'utf8');
  const out = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]/gm)) out.push(resolve(dirname(file), m[1]));
  for (const m of text.matchAll(/^\s*import\s*['"](\.[^'"]+)['"]/gm)) out.push(resolve(dirname(file), m[1]));
  return out;
}

// Every cycle a depth-first walk meets in `graph` (file -> imported files), as 'a -> b -> a' strings.
function findCycles(graph, name = (p) => p) {
  const state = new Map();  // 1 = on the path, 2 = done
  const cycles = [];
  const visit = (f, path) => {
    state.set(f, 1);
    for (const t of graph.get(f) ?? []) {
      if (state.get(t) === 1) cycles.push([...path.slice(path.indexOf(t)), t].map(name).join(' -> '));
      else if (!state.has(t)) visit(t, [...path, t]);
    }
    state.set(f, 2);
  };
  for (const f of graph.keys()) if (!state.has(f)) visit(f, [f]);
  return cycles;
}

test('#28 web/src has no import cycle', () => {
  const files = jsFiles(src);
  assert.ok(files.length > 100, `expected the library's modules, found ${files.length}`);
  const graph = new Map(files.map((f) => [f, imports(f).filter((t) => t.startsWith(src))]));
  assert.deepEqual(findCycles(graph, (p) => relative(src, p)), []);
});

test('#28 the cycle finder finds a cycle when there is one', () => {
  assert.deepEqual(findCycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']]])), ['a -> b -> c -> a']);
  assert.deepEqual(findCycles(new Map([['a', ['b']], ['b', []]])), []);
});

test('#28 library modules never import the CLI, the demos or the tests', () => {
  const bad = [];
  for (const f of jsFiles(src)) {
    for (const t of imports(f)) if (!t.startsWith(src) && !t.startsWith(join(root, 'web/dist'))) bad.push(`${relative(root, f)} -> ${relative(root, t)}`);
  }
  assert.deepEqual(bad, []);
});

test('#28 no web/src module is past 800 lines', () => {
  const big = jsFiles(src).map((f) => [relative(src, f), readFileSync(f, 'utf8').split('\n').length]).filter(([, n]) => n > 800);
  assert.deepEqual(big, []);
  assert.ok(statSync(src).isDirectory());
});

test('#28 every web/src module starts with // @ts-check (type-checked by scripts/check-js-types.mjs)', () => {
  // tsconfig.checkjs.json includes all of web/src with checkJs off (so the Emscripten output is not
  // checked): the marker is what turns checking on, file by file. A new module needs it too.
  const unmarked = jsFiles(src).filter((f) => !readFileSync(f, 'utf8').startsWith('// @ts-check\n')).map((f) => relative(src, f));
  assert.deepEqual(unmarked, []);
});

// Issue #28 item 7: tests/js mirrors the source folders. A test file lives in the folder of what it
// tests (tests/js/retrieve/ for web/src/retrieve/, tests/js/pipeline/collection/ for
// web/src/pipeline/collection/); four folders mirror no folder of web/src: cli (web/cli), demo (web/demo),
// hostile (hostile input across every entry) and project (README, docs, package, this layout).
test('tests/js mirrors web/src: every test file is in a folder named after the source folder it tests', () => {
  const tests = join(root, 'tests/js');
  const extras = new Set(['cli', 'demo', 'hostile', 'project']);
  const misplaced = [];
  for (const f of readdirSync(tests, { recursive: true })) {
    if (!String(f).endsWith('.test.mjs')) continue;
    const dir = dirname(String(f));
    if (dir === '.') misplaced.push(`${f}: at the top of tests/js`);
    else if (!extras.has(dir.split('/')[0]) && !statSync(join(src, dir), { throwIfNoEntry: false })?.isDirectory()) {
      misplaced.push(`${f}: there is no web/src/${dir}`);
    }
  }
  assert.deepEqual(misplaced, []);
});
