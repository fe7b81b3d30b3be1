// Saved files as untrusted input (#30 F-1..F-4): the checks that compare what a saved header says
// with what its index sections hold, beyond counts and ids (collection.js checkSections), and the
// depth and range limits on what a header may carry before anything recursive touches it.
// Every failure is the caller's `corrupt(why)` (CORRUPT_INDEX naming the field).
import { RagwasmError } from '../core/errors.js';

/** Deepest JSON nesting a saved header's config may have (as the pipeline config parser's limit). */
export const MAX_SAVED_JSON_DEPTH = 256;
/** Largest offset or length a saved document may state: offsets cross into WASM as int32. */
export const MAX_SAVED_OFFSET = 2 ** 31 - 1;

/**
 * Throws corrupt(...) when `value` nests arrays/objects deeper than `limit`, walking iteratively (a
 * recursive walk, structuredClone included, would throw a RangeError on 100,000 levels: F-3).
 * @param {unknown} value parsed JSON @param {string} what e.g. 'header config' @param {(why: string) => Error} corrupt
 */
export function checkJsonDepth(value, what, corrupt, limit = MAX_SAVED_JSON_DEPTH) {
  const stack = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (depth >= limit) throw corrupt(`${what}: JSON nested deeper than ${limit} levels`);
    for (const x of Array.isArray(v) ? v : Object.values(v)) if (x !== null && typeof x === 'object') stack.push([x, depth + 1]);
  }
}

// FNV-1a over UTF-16 code units, then a murmur3 finalizer for the second, independent sum.
function termHash(t) {
  let h = 0x811c9dc5;
  for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
function mix(h) {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * Cross-checks a loaded collection's header against its BM25 section (F-2) and its offsets (F-4):
 * for every chunk, the distinct terms the index's analyzer gives its indexed fields must be the
 * terms the BM25 section holds for that chunk (compared as a count and two order-free 32-bit sums
 * of term hashes, from the impact reader), so a chunk text replaced by another of the same length,
 * or two documents' texts exchanged, is CORRUPT_INDEX instead of a text returned with another text's
 * scores. Cost: one analysis of every chunk and one pass over the postings (about an index build's
 * tokenizing, without the indexing).
 * @param {Map<string, import('./chunk-store.js').DocRecord>} docs the header's documents
 * @param {import('../retrieve/sparse.js').Bm25Index|null} bm25 the loaded section (null: offsets only)
 * @param {string[]} fields the BM25 field names ('text', 'title', or a document field)
 * @param {(why: string) => Error} corrupt
 */
export function checkSavedCollection(docs, bm25, fields, corrupt) {
  const want = bm25 ? new Map() : null;  // chunk id -> [distinct terms, sum of hashes, sum of mixed hashes]
  for (const [docId, d] of docs) {
    if (!(d.length <= MAX_SAVED_OFFSET)) throw corrupt(`header docs "${docId}": length ${d.length} is past ${MAX_SAVED_OFFSET}`);
    for (const c of d.chunkList()) {
      if (!(c.end <= MAX_SAVED_OFFSET)) throw corrupt(`header chunk "${c.id}": end ${c.end} is past ${MAX_SAVED_OFFSET}`);
      if (!want) continue;
      const terms = new Set();
      for (const f of fields) {
        const text = f === 'text' ? (c.indexText ?? c.text) : f === 'title' ? d.title : d.fields?.[f];
        if (typeof text === 'string' && text !== '') for (const t of bm25.analyze(text)) terms.add(t);
      }
      let s1 = 0;
      let s2 = 0;
      for (const t of terms) {
        const h = termHash(t);
        s1 = (s1 + h) >>> 0;
        s2 = (s2 + mix(h)) >>> 0;
      }
      want.set(c.id, [terms.size, s1, s2]);
    }
  }
  if (!want) return;
  let got = null;
  let ids = null;
  for (const b of bm25.impacts({ batchRows: 1 << 20 })) {
    if (got === null) {
      ids = b.ids;
      got = { n: new Uint32Array(ids.length), s1: new Uint32Array(ids.length), s2: new Uint32Array(ids.length) };
    }
    for (let i = 0; i < b.terms.length; i++) {
      const h = termHash(b.terms[i]);
      const m = mix(h);
      for (let r = b.rowStart[i]; r < b.rowStart[i + 1]; r++) {
        const k = b.docs[r];
        got.n[k]++;
        got.s1[k] = (got.s1[k] + h) >>> 0;
        got.s2[k] = (got.s2[k] + m) >>> 0;
      }
    }
  }
  const seen = new Map((ids ?? []).map((id, k) => [id, k]));
  for (const [id, [n, s1, s2]] of want) {
    const k = seen.get(id);
    const same = k === undefined ? n === 0 : got.n[k] === n && got.s1[k] === s1 && got.s2[k] === s2;
    if (!same) {
      throw corrupt(`header chunk "${id}": its indexed text analyzes to ${n} distinct terms, not the ${k === undefined ? 0 : got.n[k]} terms the BM25 section holds for it (a text changed or exchanged after indexing)`);
    }
  }
}

/**
 * The id checks of a sharded index's parts (F-1): every id must live in the shard it routes to, and
 * no id may be in two shards. Feed each shard's ids (in any batches), then done() throws.
 * @param {string} label e.g. 'sharded BM25 bytes' @param {number} shards @param {(id: string, n: number) => number} route
 */
export function shardIdChecker(label, shards, route) {
  const seen = new Map();
  let error = null;
  return {
    ids(shard, list) {
      if (error) return;
      for (const id of list) {
        const at = route(id, shards);
        if (at !== shard) {
          error = `shard ${shard} holds id ${JSON.stringify(id.slice(0, 80))}, which routes to shard ${at}`;
          return;
        }
        if (seen.has(id)) {
          error = `id ${JSON.stringify(id.slice(0, 80))} is in shard ${seen.get(id)} and again in shard ${shard}`;
          return;
        }
        seen.set(id, shard);
      }
    },
    done() {
      if (error) throw new RagwasmError('CORRUPT_INDEX', `ragwasm: ${label}: ${error}`);
    },
  };
}
