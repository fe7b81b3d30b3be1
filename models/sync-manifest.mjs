#!/usr/bin/env node
// Writes web/src/embed/model-manifest.js from models/manifest.json: the library's copy of the manifest
// (an ES module, so every bundler includes it without JSON imports). tests/js/embed/embed-model-hub.test.mjs
// fails when the two differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const manifest = JSON.parse(readFileSync(join(here, 'manifest.json'), 'utf8'));
const out = join(here, '..', 'web/src/embed/model-manifest.js');
writeFileSync(out, `// models/manifest.json as a module (written by node models/sync-manifest.mjs; do not edit): the models
// createOnnxEmbedder(NAME) downloads from a model hub, with their settings, sizes and sha256 where pinned.
export const MODEL_MANIFEST = Object.freeze(${JSON.stringify(manifest, null, 2)});
`);
console.log(`wrote ${out}`);
