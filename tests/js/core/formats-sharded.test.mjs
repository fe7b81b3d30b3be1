// Sharded indexes (ShardedBm25Index "RWSHBM25", ShardedVectorIndex "RWSHVEC1") save in the one
// container since version 2; version-1 files (packSections, CRC-32; tests/fixtures/formats/v1/sharded-*,
// written by make-sharded-fixtures.mjs before the switch) still load and answer as when they were saved.
// Every damaged or foreign byte string is refused before any Worker starts.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from '../../../web/src/index.js';
import { packContainer, unpackContainer } from '../../../web/src/core/container.js';
import { ShardedBm25Index, ShardedVectorIndex, SHARDED_BM25_FORMAT_VERSION, SHARDED_VECTOR_FORMAT_VERSION } from '../../../web/src/parallel/sharded.js';
import { containerSections, hashedBagOfWords, seededRandom } from '../helpers.mjs';
import { COLLECTION_QUERIES } from '../../fixtures/formats/make-collection-fixtures.mjs';

await init();
const dir = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/formats');
const expected = JSON.parse(readFileSync(join(dir, 'v1', 'sharded-expected.json'), 'utf8'));
const queryVectors = hashedBagOfWords(COLLECTION_QUERIES);

const KINDS = {
  bm25: { cls: ShardedBm25Index, magic: 'RWSHBM25', version: SHARDED_BM25_FORMAT_VERSION, search: (ix, i) => ix.search(COLLECTION_QUERIES[i], { k: 4 }) },
  vector: { cls: ShardedVectorIndex, magic: 'RWSHVEC1', version: SHARDED_VECTOR_FORMAT_VERSION, search: (ix, i) => ix.search(queryVectors[i], { k: 4 }) },
};

const version = (bytes) => new DataView(bytes.buffer, bytes.byteOffset, 12).getUint32(8, true);

for (const [kind, k] of Object.entries(KINDS)) {
  test(`a sharded ${kind} index saved by format 1 loads, answers as recorded, and saves again as the container`, async () => {
    const v1 = new Uint8Array(readFileSync(join(dir, 'v1', `sharded-${kind}.bin`)));
    assert.equal(version(v1), 1);
    const ix = await k.cls.fromBytes(v1);
    let v2;
    try {
      for (const [i, { hits }] of expected[kind].entries()) assert.deepEqual(await k.search(ix, i), hits, COLLECTION_QUERIES[i]);
      v2 = await ix.toBytes();
    } finally {
      await ix.dispose();
    }
    assert.equal(new TextDecoder().decode(v2.subarray(0, 8)), k.magic);
    assert.equal(version(v2), k.version);
    assert.equal(k.version, 2);
    const tags = containerSections(v2).map((s) => s.tag);
    assert.deepEqual(tags, [1, ...Array.from({ length: kind === 'bm25' ? 2 : 6 }, (_, i) => 16 + i)]);
    const again = await k.cls.fromBytes(v2);
    try {
      for (const [i, { hits }] of expected[kind].entries()) assert.deepEqual(await k.search(again, i), hits, COLLECTION_QUERIES[i]);
      assert.deepEqual(await again.toBytes(), v2, 'a re-save gives the same bytes');
    } finally {
      await again.dispose();
    }
  });

  test(`damaged sharded ${kind} bytes of either format are refused naming the problem`, async () => {
    const v1 = new Uint8Array(readFileSync(join(dir, 'v1', `sharded-${kind}.bin`)));
    const ix = await k.cls.fromBytes(v1);
    const bytes = await ix.toBytes();
    await ix.dispose();
    const refused = async (b, what, code = /^CORRUPT_INDEX$/) => {
      await assert.rejects(k.cls.fromBytes(b), (e) => {
        assert.match(e.code, code, `${what}: ${e.message}`);
        assert.match(e.message, new RegExp(`^ragwasm: sharded ${kind === 'bm25' ? 'BM25' : 'vector'} bytes`), what);
        return true;
      }, what);
    };
    for (const s of containerSections(bytes)) {
      for (const cut of [s.header, s.header + 1, s.payload - 1, s.payload, s.payload + s.length]) await refused(bytes.subarray(0, cut), `cut at ${cut}`);
    }
    const rand = seededRandom(20261128);  // seed fixed
    for (let i = 0; i < 80; i++) {
      const b = bytes.slice();
      const at = Math.floor(rand() * b.length);
      b[at] ^= 1 << Math.floor(rand() * 8);
      await refused(b, `bit flip at byte ${at}`, at >= 8 && at < 12 ? /^(UNSUPPORTED_VERSION|CORRUPT_INDEX)$/ : /^CORRUPT_INDEX$/);
    }
    for (let at = 12; at < v1.length; at += 53) {
      const b = v1.slice();
      b[at] ^= 0x10;
      await refused(b, `format 1, byte ${at}`);
    }
    // resealed by the writer's own container: other versions, a missing part, a header naming more shards
    const { sections } = unpackContainer(bytes, k.magic, { minVersion: 2, maxVersion: 2, what: 't', label: 't' });
    const parts = [...sections].map(([tag, b]) => ({ tag, bytes: b }));
    for (const v of [0, 3, 0xFFFFFFFF]) await refused(packContainer(k.magic, v, parts), `version ${v}`, /^UNSUPPORTED_VERSION$/);
    await refused(packContainer(k.magic, 2, parts.filter((p) => p.tag !== 17)), 'a missing part');
    await refused(packContainer(k.magic, 2, parts.filter((p) => p.tag !== 1)), 'no header');
    const header = JSON.parse(new TextDecoder().decode(sections.get(1)));
    const more = new TextEncoder().encode(JSON.stringify({ ...header, shards: header.shards + 1 }));
    await refused(packContainer(k.magic, 2, parts.map((p) => (p.tag === 1 ? { tag: 1, bytes: more } : p))), 'a header naming 3 shards');
    await refused(packContainer(kind === 'bm25' ? 'RWSHVEC1' : 'RWSHBM25', 2, parts), 'the other kind\'s magic');
  });
}

// #30 F-1: a resealed file whose shards hold ids that route elsewhere, or one id in two shards, is refused
// before any Worker starts (it loaded before, and upsert then made a second copy of the id).
for (const [kind, k] of Object.entries(KINDS)) {
  test(`sharded ${kind} bytes with shards exchanged or an id in two shards are CORRUPT_INDEX`, async () => {
    const ix = await k.cls.fromBytes(new Uint8Array(readFileSync(join(dir, 'v1', `sharded-${kind}.bin`))));
    const bytes = await ix.toBytes();
    await ix.dispose();
    const { sections } = unpackContainer(bytes, k.magic, { minVersion: 2, maxVersion: 2, what: 't', label: 't' });
    const per = kind === 'bm25' ? 1 : 3;
    const part = (shard, j = 0) => sections.get(16 + per * shard + j);
    const pack = (order) => packContainer(k.magic, 2, [{ tag: 1, bytes: sections.get(1) },
      ...order.flatMap((shard, i) => Array.from({ length: per }, (_, j) => ({ tag: 16 + per * i + j, bytes: part(shard, j) })))]);
    const refused = (b, message) => assert.rejects(k.cls.fromBytes(b), (e) => e.code === 'CORRUPT_INDEX' && message.test(e.message));
    await refused(pack([1, 0]), /shard 0 holds id "[^"]+", which routes to shard 1/);
    // both shards hold shard 0's part: every id twice (the routing check names the first misplaced one)
    await refused(pack([0, 0]), /shard 1 holds id|is in shard 0 and again in shard 1/);
  });
}
