// One-time deprecation warnings for names kept for one minor version after the API vocabulary
// change (docs/api.md). Each old name warns once per process (per page), then stays quiet.
const warned = new Set();

/**
 * Warns once per `key` through console.warn: "ragwasm: <old> is deprecated; use <replacement>".
 * @param {string} key stable identity of the old name, e.g. 'Bm25Index.save()'
 * @param {string} message what to write instead
 */
export function deprecated(key, message) {
  if (warned.has(key)) return;
  warned.add(key);
  // eslint-disable-next-line no-console
  console.warn(`ragwasm: ${key} is deprecated and will be removed in the next minor version; ${message} (docs/api.md)`);
}

/** @internal tests: forget which warnings were given. */
export function resetDeprecations() {
  warned.clear();
}
