// @ts-check
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
  /** @type {[unknown, number][]} [value, its depth] */
  const stack = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (depth >= limit) throw corrupt(`${what}: JSON nested deeper than ${limit} levels`);
    for (const x of Array.isArray(v) ? v : Object.values(v)) if (x !== null && typeof x === 'object') stack.push([x, depth + 1]);
  }
}

/** UTF-16 units of chunk text per WASM call of the F-2 check (at most 3 bytes each in the heap). */
const CHECK_BATCH_UNITS = 8 * 1024 * 1024;

/**
 * Cross-checks a loaded collection's header against its BM25 section (F-2) and its offsets (F-4):
 * for every chunk, the distinct terms the index's analyzer gives its indexed fields must be exactly
 * the terms the BM25 section holds for that chunk (none when the section lacks its id), so a chunk
 * text replaced by another of the same length, or two documents' texts exchanged, is CORRUPT_INDEX
 * instead of a text returned with another text's scores. The texts go to WASM in batches of UTF-8,
 * where the index's analyzer reads them and the terms are compared with each chunk's forward record
 * (Bm25Index#_termMismatch, src/sparse/index_verify.cpp). Cost: about an index build's tokenizing,
 * without the indexing. Offsets are checked first, for every document, then the terms.
 * @param {Map<string, import('./chunk-store.js').DocRecord>} docs the header's documents
 * @param {import('../retrieve/sparse.js').Bm25Index|null} bm25 the loaded section (null: offsets only)
 * @param {string[]} fields the BM25 field names ('text', 'title', or a document field)
 * @param {(why: string) => Error} corrupt
 */
export function checkSavedCollection(docs, bm25, fields, corrupt) {
  const batches = [];  // [pieces: (chunk id, one text per field)..., chunk ids]
  let pieces = [];
  let ids = [];
  let units = 0;
  for (const [docId, d] of docs) {
    if (!(d.length <= MAX_SAVED_OFFSET)) throw corrupt(`header docs "${docId}": length ${d.length} is past ${MAX_SAVED_OFFSET}`);
    for (const c of d.chunkList()) {
      if (!(c.end <= MAX_SAVED_OFFSET)) throw corrupt(`header chunk "${c.id}": end ${c.end} is past ${MAX_SAVED_OFFSET}`);
      if (!bm25) continue;
      pieces.push(c.id);
      units += c.id.length;
      for (const f of fields) {
        const text = f === 'text' ? (c.indexText ?? c.text) : f === 'title' ? d.title : d.fields?.[f];
        const t = typeof text === 'string' ? text : '';
        pieces.push(t);
        units += t.length;
      }
      ids.push(c.id);
      if (units >= CHECK_BATCH_UNITS) {
        batches.push([pieces, ids]);
        pieces = [];
        ids = [];
        units = 0;
      }
    }
  }
  if (!bm25) return;
  if (ids.length > 0) batches.push([pieces, ids]);
  for (const [p, chunkIds] of batches) {
    const m = bm25._termMismatch(p, fields.length);
    if (m) {
      throw corrupt(`header chunk "${chunkIds[m.item]}": its indexed text analyzes to ${m.analyzed} distinct terms, not the ${m.held} terms the BM25 section holds for it (a text changed or exchanged after indexing)`);
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
