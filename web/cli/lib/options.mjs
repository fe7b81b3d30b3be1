// Option parsing shared by the CLI commands: usage errors, --chunker specs and integer flags.
// Commands import from here (and from lib/retrievers.mjs, ../datasets.mjs), never from each other.

/** A usage error: the command prints it and exits with status 2. */
export class UsageError extends Error {}

/**
 * "recursive:1800/300" -> {strategy, chunkSize, chunkOverlap}; "none" -> null (whole documents).
 * @throws {UsageError} the spec does not parse
 */
export function parseChunker(spec) {
  if (spec === 'none') return null;
  const m = /^([a-z-]+)(?::(\d+)(?:\/(\d+))?)?$/.exec(spec);
  if (!m) throw new UsageError(`--chunker: expected NAME[:SIZE[/OVERLAP]] (e.g. recursive:1800/300) or none, got '${spec}'`);
  const o = { strategy: m[1] };
  if (m[2] !== undefined) o.chunkSize = Number(m[2]);
  if (m[3] !== undefined) o.chunkOverlap = Number(m[3]);
  return o;
}

/**
 * The pipeline-config chunker for a --chunker spec: 'none' = one chunk per document (the recursive
 * splitter keeps a text shorter than chunkSize whole).
 */
export function configChunker(spec) {
  const c = parseChunker(spec);
  return c === null ? { strategy: 'recursive', chunkSize: 100000000, chunkOverlap: 0 } : c;
}

/**
 * An integer flag >= min, or undefined when absent.
 * @throws {UsageError} not a decimal integer >= min
 */
export function intOption(v, name, { min = 1 } = {}) {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < min) throw new UsageError(`--${name}: expected an integer >= ${min}, got '${v}'`);
  return Number(v);
}
