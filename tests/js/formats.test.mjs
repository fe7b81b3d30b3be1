// Saved collections still load and answer as when they were saved
// (tests/fixtures/formats/<version>/collection-*.bin, written by make-collection-fixtures.mjs).
// The v1 files are collection format 1 (the JS framing of packSections, CRC-32) holding the BM25
// index and the vector index in the one C++ container (format 2 of each); the v1 layouts of those
// inner objects are covered by their own fixtures in tests/cpp/test_*_formats.cpp.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from '../../web/src/index.js';
import { Collection } from '../../web/src/pipeline/collection.js';
import { COLLECTION_DOCS, KINDS } from '../fixtures/formats/make-collection-fixtures.mjs';

await init();
const dir = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/formats');

for (const version of ['v1']) {
  const expected = JSON.parse(readFileSync(join(dir, version, 'collection-expected.json'), 'utf8'));
  for (const kind of Object.keys(KINDS)) {
    test(`a ${kind} collection saved by format ${version} loads and answers as when it was saved`, async () => {
      const bytes = new Uint8Array(readFileSync(join(dir, version, `collection-${kind}.bin`)));
      const col = Collection.fromBytes(bytes, KINDS[kind].options);
      // A one-retriever collection returns its retriever's raw scores since collection format 2 (v1
      // builds min-max normalized them through fuse()), so its scores are compared with the same
      // collection built now from the same documents; ids, documents and offsets with the v1 recording.
      const single = Object.keys(KINDS[kind].config.indexes ?? { bm25: 1, dense: 1 }).length === 1;
      let fresh = null;
      if (single) {
        fresh = await Collection.create(KINDS[kind].config, KINDS[kind].options);
        await fresh.add(COLLECTION_DOCS);
        fresh.remove(['honey']);
      }
      for (const { query, hits } of expected[kind]) {
        const got = await col.search(query, { k: 4 });
        assert.deepEqual(got.map((h) => [h.id, h.docId, h.start, h.end]), hits.map((h) => [h.id, h.docId, h.start, h.end]), query);
        const want = single ? (await fresh.search(query, { k: 4 })).map((h) => h.score) : hits.map((h) => h.score);
        // scores to 1e-6 relative: the same arithmetic, the margin only absorbs float32 vs double paths
        got.forEach((h, i) => assert.ok(Math.abs(h.score - want[i]) <= 1e-6 * Math.max(1, Math.abs(want[i])), `${query} #${i}`));
      }
      fresh?.dispose();
      // saved again with this build (inner indexes in the current container) it answers the same
      const again = Collection.fromBytes(col.toBytes(), KINDS[kind].options);
      for (const { query, hits } of expected[kind]) {
        assert.deepEqual((await again.search(query, { k: 4 })).map((h) => h.id), hits.map((h) => h.id), query);
      }
      col.dispose();
      again.dispose();
    });
  }
}
