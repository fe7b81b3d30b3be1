#!/usr/bin/env node
// npm run fetch-model -- NAME [--force]: downloads the files of one models/manifest.json entry (an
// embedding model from `models` or a cross-encoder from `rerankers`) into models/build/NAME/, verifying bytes and sha256 when the manifest pins them (a mismatch deletes the
// file and fails). Without pinned values it prints the measured size and sha256 so they can be added.
// Needs internet; no test depends on it.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const manifest = JSON.parse(readFileSync(join(here, 'manifest.json'), 'utf8'));
const args = process.argv.slice(2);
const name = args.find((a) => !a.startsWith('--'));
const force = args.includes('--force');

const rerankers = manifest.rerankers ?? {};
const isReranker = Boolean(name) && !manifest.models[name] && Boolean(rerankers[name]);
if (!name || (!manifest.models[name] && !isReranker)) {
  console.error(`usage: npm run fetch-model -- NAME [--force]\nmodels: ${Object.keys(manifest.models).join(', ')}\nrerankers: ${Object.keys(rerankers).join(', ')}`);
  process.exit(2);
}
const entry = isReranker ? rerankers[name] : manifest.models[name];
if (!entry.files || Object.keys(entry.files).length === 0) {
  console.error(`${name} is not downloaded: ${entry.build ?? 'see models/manifest.json'}`);
  process.exit(2);
}
const outDir = join(here, 'build', name);
mkdirSync(outDir, { recursive: true });
let failed = false;
for (const [file, spec] of Object.entries(entry.files)) {
  const dest = join(outDir, file);
  if (existsSync(dest) && !force) {
    const bytes = readFileSync(dest);
    const sha = createHash('sha256').update(bytes).digest('hex');
    if ((spec.sha256 === null || spec.sha256 === sha) && (spec.bytes === null || spec.bytes === bytes.length)) {
      console.log(`${file}: present (${bytes.length} bytes, sha256 ${sha})`);
      continue;
    }
  }
  process.stdout.write(`${file}: downloading ${spec.url} ... `);
  const res = await fetch(spec.url, { redirect: 'follow' });
  if (!res.ok) {
    console.log(`HTTP ${res.status}`);
    failed = true;
    continue;
  }
  const bytes = new Uint8Array(await res.arrayBuffer());
  const sha = createHash('sha256').update(bytes).digest('hex');
  if (spec.bytes !== null && spec.bytes !== bytes.length) {
    console.log(`size mismatch: expected ${spec.bytes}, got ${bytes.length}; not saved`);
    failed = true;
    continue;
  }
  if (spec.sha256 !== null && spec.sha256 !== sha) {
    console.log(`sha256 mismatch: expected ${spec.sha256}, got ${sha}; not saved`);
    failed = true;
    continue;
  }
  writeFileSync(`${dest}.part`, bytes);
  renameSync(`${dest}.part`, dest);
  console.log(`${bytes.length} bytes, sha256 ${sha}${spec.sha256 === null ? ' (not pinned in manifest.json: add it)' : ' (verified)'}`);
}
if (failed) {
  process.exit(1);
}
if (isReranker) {
  writeFileSync(join(outDir, 'config.json'), JSON.stringify({ name, kind: 'reranker', maxLength: entry.maxLength, activation: entry.activation }, null, 1));
  console.log(`\nUse: createCrossEncoderReranker({ model: <bytes of ${join(outDir, 'model.onnx')}>, tokenizer: { tokenizerJson: <tokenizer.json> }, maxLength: ${entry.maxLength}, activation: '${entry.activation}' })`);
} else {
  writeFileSync(join(outDir, 'config.json'), JSON.stringify({ name, dims: entry.dims, pooling: entry.pooling, normalize: entry.normalize,
    maxLength: entry.maxLength, queryPrefix: entry.queryPrefix, documentPrefix: entry.documentPrefix }, null, 1));
  console.log(`\nUse: createOnnxEmbedder({ model: <bytes of ${join(outDir, 'model.onnx')}>, tokenizer: { tokenizerJson: <tokenizer.json> }, pooling: '${entry.pooling}', queryPrefix: ${JSON.stringify(entry.queryPrefix)} })`);
}
