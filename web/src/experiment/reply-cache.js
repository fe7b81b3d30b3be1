// @ts-check
// A persistent LLM reply cache for Node: the store behind createLlmClient({cache}) kept as a JSONL
// file (one {key, value} line per reply, appended as soon as the reply arrives), so a re-run of a
// grown experiment grid or a run resumed after a kill pays only for requests it has not sent before.
// Keys are the client's SHA-256 request hashes (web/src/llm/cache.js).
import { RagwasmError } from '../core/errors.js';
import { nodeBuiltin } from '../core/node.js';
import { expectString } from '../core/validate.js';

/** A reply cache kept in a JSONL file (Node only). */
export class FileReplyCache {
  /**
   * Opens (or creates on the first set) the cache file and reads the replies it holds; a line that
   * is not a complete JSON record (e.g. cut by a kill mid-write) is skipped.
   * @example
   * const cache = new FileReplyCache('results.cache.jsonl');
   * const client = createLlmClient({ ...endpoint, cache });
   * @param {string} path file path
   * @throws {RagwasmError} UNSUPPORTED_ENVIRONMENT outside Node; INVALID_ARGUMENT (bad path, unreadable file)
   */
  constructor(path) {
    this.path = expectString(path, 'path', { allowEmpty: false, maxLength: 4096 });
    this.fs = nodeBuiltin('fs');
    this.map = new Map();
    /** Lines skipped when reading (incomplete or malformed). */
    this.skipped = 0;
    let text = '';
    try {
      text = this.fs.readFileSync(path, 'utf8');
    } catch (e) {
      if (e?.code !== 'ENOENT') throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: path: cannot read the reply cache ${path} (${e?.code ?? e})`);
    }
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const r = JSON.parse(line);
        if (typeof r.key === 'string' && r.value && typeof r.value === 'object') this.map.set(r.key, r.value);
        else this.skipped++;
      } catch {
        this.skipped++;
      }
    }
    this.hits = 0;
    this.misses = 0;
  }

  /** @param {string} key @returns {object|undefined} */
  get(key) {
    const v = this.map.get(expectString(key, 'key'));
    if (v === undefined) this.misses++; else this.hits++;
    return v;
  }

  /** Stores a reply and appends it to the file. @param {string} key @param {object} value */
  set(key, value) {
    expectString(key, 'key');
    this.map.set(key, value);
    // A line left half-written by a kill is skipped on the next open: the leading newline starts a fresh one.
    this.fs.appendFileSync(this.path, `${JSON.stringify({ key, value })}\n`);
  }

  /** Replies held. */
  get size() { return this.map.size; }
}
