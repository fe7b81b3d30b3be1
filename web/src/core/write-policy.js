// @ts-check
// The one write policy of the indexes (docs/api.md): what add/upsert/remove return and what remove
// does with ids that are not indexed. Bm25Index and VectorIndex both use it, so they cannot drift.
import { RagwasmError } from './errors.js';
import { expectBoolean, expectOptions } from './validate.js';

/** The summary every add/upsert/remove returns. */
export function writeSummary({ added = 0, updated = 0, removed = 0, skipped = 0 } = {}) {
  return { added, updated, removed, skipped };
}

/**
 * Which ids remove() deletes: the indexed ones, once each. An id that is not indexed throws NOT_FOUND
 * (nothing removed) unless `ignoreMissing`; skipped = ids listed minus ids removed.
 * @param {string[]} list validated ids
 * @param {(id: string) => boolean} has
 * @param {object} options remove() options ({ignoreMissing})
 * @returns {{present: string[], skipped: number}}
 * @throws {RagwasmError} INVALID_ARGUMENT (bad option), NOT_FOUND
 */
export function removalPlan(list, has, options) {
  const o = expectOptions(options, 'remove options', ['ignoreMissing']);
  const ignore = o.ignoreMissing === undefined ? false : expectBoolean(o.ignoreMissing, 'options.ignoreMissing');
  const present = [];
  for (const id of new Set(list)) {
    if (has(id)) present.push(id);
    else if (!ignore) {
      throw new RagwasmError('NOT_FOUND', `ragwasm: ids: '${id}' is not in the index (pass { ignoreMissing: true } to skip unknown ids); nothing was removed`);
    }
  }
  return { present, skipped: list.length - present.length };
}
