// Test helpers: the repo root, ../shared lookup with named skips, and init() of the chosen build.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const sharedRoot = process.env.RAGWASM_SHARED ?? join(repoRoot, '..', 'shared');

/** Absolute path of a file under ../shared, or null when it is missing. */
export function sharedPath(relative) {
  const p = join(sharedRoot, relative);
  return existsSync(p) ? p : null;
}

/**
 * For node:test: returns the path, or marks the test skipped (with the reason) and returns null.
 * Usage: `const p = skipUnlessShared(t, 'data/scifact/corpus.jsonl'); if (!p) return;`
 */
export function skipUnlessShared(t, relative) {
  const p = sharedPath(relative);
  if (!p) t.skip(`needs ../shared/${relative} (not found under ${sharedRoot})`);
  return p;
}

/** Which WASM build this run tests: RAGWASM_BUILD=debug|release (default release). */
export const build = process.env.RAGWASM_BUILD ?? 'release';

// The default static model is built by the test pipeline itself (native stage, scripts/build-assets.mjs),
// so a missing file is a broken build: tests that need it fail with this message instead of skipping.
export const STATIC_MODEL_PATH = join(repoRoot, 'models/build/static-model.bin');
export function requireStaticModel() {
  if (!existsSync(STATIC_MODEL_PATH)) throw new Error(`${STATIC_MODEL_PATH} is missing: build it with node scripts/build-assets.mjs`);
  return STATIC_MODEL_PATH;
}

/**
 * Deterministic test embedder (no model): a `dims`-dim hashed bag of the [a-z]+ words (FNV-1a 32).
 * `weighted` adds 1 + (hash mod 7) / 3 per word instead of 1, so values are not small integers;
 * `normalize` scales each vector to unit length.
 * @returns {Float32Array[]}
 */
export function hashedBagOfWords(texts, { dims = 32, normalize = true, weighted = false } = {}) {
  return texts.map((t) => {
    const v = new Float32Array(dims);
    for (const w of t.toLowerCase().match(/[a-z]+/g) ?? []) {
      let h = 2166136261;
      for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619) >>> 0;
      v[h % dims] += weighted ? 1 + (h % 7) / 3 : 1;
    }
    if (!normalize) return v;
    const n = Math.hypot(...v) || 1;
    return v.map((x) => x / n);
  });
}

/** Seeded uniform random numbers in [0, 1) (mulberry32), the library's (web/src/goldens/split.js). */
export { seededRandom } from '../../web/src/goldens/split.js';

/** Captured stdout/stderr for calling the CLI's main(argv, io) in-process: {io, out(), err()}. */
export function captureIo() {
  const out = [];
  const err = [];
  return {
    io: { stdout: { write: (s) => { out.push(String(s)); return true; } }, stderr: { write: (s) => { err.push(String(s)); return true; } } },
    out: () => out.join(''), err: () => err.join(''),
  };
}

/** captureIo() as one object a CLI command writes to: {stdout, stderr, out, err} with out/err read as fields. */
export function captureCli() {
  const c = captureIo();
  return { ...c.io, get out() { return c.out(); }, get err() { return c.err(); } };
}

/** Captures console.warn while fn runs (sync or async); returns the warnings as strings. */
export async function warnings(fn) {
  const seen = [];
  const original = console.warn;
  console.warn = (...args) => seen.push(args.join(' '));
  try {
    await fn();
  } finally {
    console.warn = original;
  }
  return seen;
}

/** Section positions of a container: [{tag, header, payload, length}] (docs/formats.md layout). */
export function containerSections(bytes) {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = [];
  let at = 16;
  for (let i = 0; i < v.getUint32(12, true); i++) {
    const length = Number(v.getBigUint64(at + 4, true));
    out.push({ tag: v.getUint32(at, true), header: at, payload: at + 12, length });
    at += 12 + length;
  }
  if (at + 8 !== bytes.length) throw new Error(`containerSections: ${bytes.length - at - 8} bytes left after the sections`);
  return out;
}
