// The ```js examples of README.md and docs/*.md (the guides; docs/notes/ is the research log, not
// checked), as a new user pastes them:
//  1. every name imported from a package entry ('ragwasm', 'ragwasm/parse', …) is exported by that entry
//     (every block, runnable or not);
//  2. the blocks listed in RUNNABLE run in a fresh Node process against this checkout (with the stated
//     prelude, or afterInit code, for the variables the text leaves to the reader), exit 0, pass their
//     check when they have one, and print no deprecation warning
//     (a doc must show the current API, not an old name that still works for one minor version);
//     README blocks also run in tests/js/project/readme.test.mjs, which compares their printed output;
//  3. the blocks in NOT_RUNNABLE (browser-only, or needing a model or a server) are type-checked by
//     TypeScript against the package's .d.ts files, with the declarations their text leaves to the
//     reader; each names the test that runs the real thing, and that file must exist.
// Every ```js block must be listed in RUNNABLE or NOT_RUNNABLE, so a new example is classified when it
// is written; and every relative link of those pages must reach a file of the repository.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { repoRoot, requireStaticModel } from '../helpers.mjs';
import { openaiJson, ProtocolTestDouble } from '../llm-protocol-double.mjs';

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
/** 'ragwasm/parse' -> file URL of the entry in this checkout (from package.json exports). */
function entryUrl(specifier) {
  const sub = specifier === pkg.name ? '.' : `.${specifier.slice(pkg.name.length)}`;
  const target = pkg.exports[sub]?.default;
  return target ? pathToFileURL(join(repoRoot, target)).href : null;
}

// The pages checked: README.md and every docs/*.md (not docs/notes/).
const docsDir = join(repoRoot, 'docs');
const PAGES = ['README.md', ...readdirSync(docsDir).filter((n) => n.endsWith('.md')).sort().map((n) => `docs/${n}`)];
const blocks = [];
for (const page of PAGES) {
  const text = readFileSync(join(repoRoot, page), 'utf8');
  const name = page.startsWith('docs/') ? page.slice(5) : page;
  let n = 0;
  for (const m of text.matchAll(/```js\n([\s\S]*?)```/g)) blocks.push({ key: `${name}#${++n}`, code: m[1] });
}

const fakeVectors = 'const fakeVectors = (texts) => texts.map((t) => { const v = new Float32Array(8); for (const w of t.split(/\\W+/)) v[w.length % 8] += 1; return v; });';
const RUNNABLE = {
  'chunk.md#1': {
    prelude: `${fakeVectors}
const text = '# Title\\n\\nApple makes phones. It also makes computers.\\n\\n## Revenue\\n\\nRevenue grew by ten percent.';
const doc = { id: 'd', text };
const optionsA = { strategy: 'recursive', chunkSize: 40 }, optionsB = { strategy: 'sentence', chunkSize: 60 };`,
    // a fixed `vectors` cannot match the number of texts the semantic chunker embeds
    replace: [['async (texts) => vectors', 'async (texts) => fakeVectors(texts)']],
  },
  'README.md#1': { cwd: repoRoot },
  'README.md#2': {},
  'collection.md#1': {},
  'dense.md#1': {
    prelude: `const vec = (s) => Float32Array.from({ length: 384 }, (_, i) => Math.sin(i * s));
const vecA = vec(1), vecB = vec(2), query = vec(3), q1 = vec(4), q2 = vec(5), q3 = vec(6);`,
  },
  'docchat.md#1': {
    check: `if (!/22 days/.test(r.answer) || r.citations[0]?.n !== 1) throw new Error('unexpected answer ' + JSON.stringify(r));`,
  },
  'fusion.md#1': {
    // the two legs the text leaves to the reader, built once the module is initialized
    afterInit: `const { Bm25Index, VectorIndex } = await import(${JSON.stringify(entryUrl('ragwasm'))});
const bm25 = Bm25Index.create(); bm25.add([{ id: 'a', text: 'cats purr' }, { id: 'b', text: 'dogs bark' }]);
const vectors = VectorIndex.create({ dimension: 2 }); vectors.add([{ id: 'b', vector: [1, 0] }, { id: 'c', vector: [0, 1] }]);
const query = 'cats', queryVector = [1, 0];`,
    check: "if (hits.map((h) => h.id).join() !== 'a,b,c' || !Array.isArray(diagnostics.warnings)) throw new Error(JSON.stringify(hits));",
  },
  'llm.md#1': {
    // the repository's OpenAI-protocol test double (fixed replies: plumbing, not a model) stands in for the server
    replace: [["'http://127.0.0.1:8080/v1'", 'process.env.DOCS_LLM_URL']],
    double: '22 days of PTO per year [1].',
    check: "if (a.text !== '22 days of PTO per year [1].' || a.citations[0]?.id !== 'leave-policy' || streamed !== a.text || llm.ledger.entries.length !== 2) throw new Error(JSON.stringify(a));",
  },
  'install.md#2': { prelude: "const text = 'The cat sat on the mat. My query is about the cat.';" },
  'install.md#6': {},
  'minisearch.md#2': { prelude: "const docs = [{ id: 'w', title: 'Warranty', text: 'The warranty lasts two years.' }, { id: 'r', title: 'Returns', text: 'Returns are accepted within 30 days.' }];",
    check: "if (hits[0]?.id !== 'w' || !Array.isArray(completions)) throw new Error(JSON.stringify(hits));" },
  'minisearch.md#3': { prelude: "const docs = [{ id: 'w', title: 'Warranty', text: 'The warranty lasts two years.' }, { id: 'r', title: 'Returns', text: 'Returns are accepted within 30 days.' }];",
    check: "if (typeof answer !== 'string' || !Array.isArray(citations) || typeof abstained !== 'boolean') throw new Error(answer);" },
  'parallel.md#1': { prelude: "const docs = [{ id: 'a', title: 'Cats', text: 'A query about cats.' }, { id: 'b', title: 'Dogs', text: 'Dogs bark.' }];" },
};
// Not runnable here: [the reason, the test that runs the real thing, declarations for the type check].
const NOT_RUNNABLE = {
  'embed.md#1': ['needs an ONNX model URL and onnxruntime', 'tests/js/embed/embed-onnx-bert.test.mjs', 'declare const tokenizerJsonText: string;'],
  'embed.md#2': ['downloads a model from the hub', 'tests/js/embed/embed-model-hub.test.mjs', ''],
  'docchat.md#2': ['downloads a model from the hub', 'tests/js/cli/cli-ask.test.mjs', "declare const documents: { id: string, title: string, text: string }[];"],
  'experiments.md#1': ['reads failure.jsonl written by `ragwasm experiment`', 'tests/js/experiment/experiment-columns.test.mjs', null],
  'minisearch.md#1': ["MiniSearch's own API, for comparison", 'tests/bench/suites/minisearch-guide.mjs', null],
  'fusion.md#2': ['needs a cross-encoder model', 'tests/js/retrieve/rerank-onnx.test.mjs',
    "declare const query: string, passages: string[], signal: AbortSignal, onProgress: (p: { done: number, total: number }) => void;\ndeclare const retrieve: (q: string, n: number) => Promise<{ id: string, score: number, text: string }[]>;\ndeclare const collection: import('ragwasm').Collection;"],
  'install.md#1': ['init({wasmUrl}) for a page that serves the file', 'tests/consumers/apps/esbuild', "import { init } from 'ragwasm';\ndeclare const bytes: Uint8Array;"],
  'install.md#3': ['a vite.config.js', 'tests/consumers/apps/vite', null],
  'install.md#4': ['an esbuild bundle with the WASM copied next to it', 'tests/consumers/apps/esbuild', "import { init } from 'ragwasm';"],
  'install.md#5': ['a module Worker on a page', 'tests/consumers/apps/vite', null],
  'postgres.md#1': ['needs a PostgreSQL connection', 'tests/js/server/postgres/postgres-pglite.test.mjs',
    "declare const process: { env: Record<string, string> };\ndeclare const collection: import('ragwasm').Collection;\ndeclare const embedder: import('ragwasm').StaticEmbedder;"],
};

test('every ```js block of docs/*.md is classified as runnable or not', () => {
  const keys = blocks.map((b) => b.key);
  const unclassified = keys.filter((k) => !(k in RUNNABLE) && !(k in NOT_RUNNABLE));
  assert.deepEqual(unclassified, [], 'add the new example to RUNNABLE (preferred) or NOT_RUNNABLE in this test');
  const stale = [...Object.keys(RUNNABLE), ...Object.keys(NOT_RUNNABLE)].filter((k) => !keys.includes(k));
  assert.deepEqual(stale, [], 'these examples no longer exist');
});

test('names imported in docs examples are exported by the entry they are imported from', async () => {
  const problems = [];
  for (const { key, code } of blocks) {
    for (const m of code.matchAll(/import\s*\{([^}]*)\}\s*from\s*'([^']+)'/g)) {
      const specifier = m[2];
      if (specifier !== pkg.name && !specifier.startsWith(`${pkg.name}/`)) continue;
      const url = entryUrl(specifier);
      if (!url) { problems.push(`${key}: '${specifier}' is not a package entry`); continue; }
      const mod = await import(url);
      for (const raw of m[1].split(',')) {
        const name = raw.trim().split(/\s+as\s+/)[0];
        if (name && !(name in mod)) problems.push(`${key}: '${specifier}' has no export ${name}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

for (const { key, code } of blocks) {
  const spec = RUNNABLE[key];
  if (!spec) continue;
  test(`docs example ${key} runs as written`, async () => {
    let src = code;
    for (const [from, to] of spec.replace ?? []) {
      assert.ok(src.includes(from), `${key}: the replaced text ${from} is gone (update this test)`);
      src = src.replace(from, to);
    }
    if (spec.afterInit) {
      assert.ok(src.includes('await init();\n'), `${key}: no 'await init();' line to put afterInit after`);
      src = src.replace('await init();\n', `await init();\n${spec.afterInit}\n`);
    }
    src = src.replace(/from '(ragwasm(?:\/[a-z]+)?)'/g, (all, s) => `from ${JSON.stringify(entryUrl(s) ?? s)}`);
    // imports are hoisted, so the prelude may follow them
    const model = `const MODEL = ${JSON.stringify(requireStaticModel())};`;
    const dir = mkdtempSync(join(tmpdir(), 'ragwasm-docs-'));
    const double = spec.double === undefined ? null : await ProtocolTestDouble.start();
    try {
      double?.always(() => ({ json: openaiJson(spec.double) }));
      const file = join(dir, 'example.mjs');
      writeFileSync(file, `${model}\n${spec.prelude ?? ''}\n${src}\n${spec.check ?? ''}\n`);
      const env = double ? { ...process.env, DOCS_LLM_URL: `${double.origin}/v1` } : process.env;
      // async: the double answers from this process while the example runs
      const r = await new Promise((done) => execFile(process.execPath, [file], { cwd: spec.cwd ?? dir, encoding: 'utf8', env, timeout: 60_000 },
        (error, stdout, stderr) => done({ status: error ? (error.code ?? 1) : 0, stderr })));
      assert.equal(r.status, 0, `${key} failed:\n${r.stderr}`);
      assert.doesNotMatch(r.stderr, /deprecated/i, `${key} uses an old name`);
    } finally {
      await double?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('each example that does not run here names an existing test or app that runs it', () => {
  const missing = Object.entries(NOT_RUNNABLE).filter(([, [, where]]) => !existsSync(join(repoRoot, where)))
    .map(([key, [, where]]) => `${key}: ${where}`);
  assert.deepEqual(missing, []);
});

// install.md#3 (a config file with a default export) and #5 (page and Worker code in one block) are
// modules of their own: syntax-checked as modules. The others are type-checked against the .d.ts.
test('the examples that do not run here type-check against the package types (or, for a config or a two-file block, parse)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-docs-ts-'));
  try {
    const files = [];
    const parseOnly = [];
    for (const { key, code } of blocks) {
      const entry = NOT_RUNNABLE[key];
      if (!entry) continue;
      const [, , declarations] = entry;
      const file = join(dir, `${key.replace(/[^a-z0-9]/gi, '_')}.ts`);
      if (declarations === null) {
        parseOnly.push({ key, file, code });
        continue;
      }
      // the block's own imports first (hoisted either way), then the declarations, then the code
      writeFileSync(file, `${declarations}\n${code}\nexport {};\n`);
      files.push({ key, file });
    }
    const program = ts.createProgram(files.map((f) => f.file), {
      target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler,
      noEmit: true, strict: false, skipLibCheck: true, types: [], lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      baseUrl: repoRoot, paths: { ragwasm: ['web/src/index.d.ts'], 'ragwasm/*': ['web/src/*.d.ts'] },
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const key = files.find((f) => f.file === d.file?.fileName)?.key ?? d.file?.fileName ?? '';
      return `${key}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
    });
    assert.deepEqual(problems, []);
    for (const { key, code } of parseOnly) {
      const sf = ts.createSourceFile(`${key}.mjs`, code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
      assert.deepEqual(sf.parseDiagnostics.map((d) => `${key}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`), []);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every relative link of README.md and docs/*.md reaches a file of the repository', () => {
  const broken = [];
  for (const page of PAGES) {
    const text = readFileSync(join(repoRoot, page), 'utf8').replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1].split('#')[0];
      if (!target || /^[a-z]+:/i.test(target)) continue;
      if (!existsSync(join(repoRoot, dirname(page), target))) broken.push(`${page}: ${m[1]}`);
    }
  }
  assert.deepEqual(broken, []);
});
