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
