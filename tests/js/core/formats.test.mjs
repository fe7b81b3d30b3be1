// Saved collections still load and answer as when they were saved
// (tests/fixtures/formats/<version>/collection-*.bin, written by make-collection-fixtures.mjs).
// The v1 files are collection format 1 and the v2 files collection format 2 (both the JS framing
// "RAGWCOL1" of checksum.js packSections, CRC-32) holding the BM25 index and the vector index in the
// one C++ container (format 2 of each); the v1 layouts of those inner objects are covered by their
// own fixtures in tests/cpp/test_*_formats.cpp. Collection format 3 (written now) is the one
// container ("RWCOLLEC"): the same corruption checks as tests/cpp/format_suite.h run on it below.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from '../../../web/src/index.js';
import { Collection, COLLECTION_FORMAT_VERSION } from '../../../web/src/pipeline/collection.js';
import { packContainer, unpackContainer } from '../../../web/src/core/container.js';
import { containerSections as sectionsOf, seededRandom } from '../helpers.mjs';
import { COLLECTION_DOCS, KINDS, RANDOM_KIND, randomDocs } from '../../fixtures/formats/make-collection-fixtures.mjs';

await init();
// The fixtures were written before add() derived a title (#29): documents without one are added with title null.
const untitled = (docs) => docs.map((d) => ({ title: null, ...d }));
const dir = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/formats');

for (const version of ['v1', 'v2', 'v3']) {
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
        await fresh.add(untitled(COLLECTION_DOCS));
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

// The v3 files were written by the single-buffer writer (the whole payload packed in the WASM heap,
// before the streaming container binding): the same collections built now give the same bytes.
test('toBytes() writes the bytes of the single-buffer writer (format 3 fixtures, incl. a random collection)', async () => {
  const build = async ({ config, options }, docs) => {
    const col = await Collection.create(config, options);
    await col.add(untitled(docs));
    return col;
  };
  const cases = [
    ...Object.keys(KINDS).map((kind) => [kind, KINDS[kind], COLLECTION_DOCS, ['honey']]),
    ['random', RANDOM_KIND, randomDocs(), [randomDocs()[0].id]],
  ];
  for (const [kind, spec, docs, removed] of cases) {
    const col = await build(spec, docs);
    col.remove(removed);
    const want = new Uint8Array(readFileSync(join(dir, 'v3', `collection-${kind}.bin`)));
    const got = col.toBytes();
    assert.equal(got.length, want.length, kind);
    assert.ok(Buffer.from(got.buffer, got.byteOffset, got.length).equals(want), `${kind}: bytes differ from the fixture`);
    // and read back through the windowed reader: the same hits and scores as the collection itself
    // (load + save is not byte-identical after a remove, with the old writer too: not asserted)
    const again = Collection.fromBytes(want, spec.options);
    for (const q of ['lactic bacteria', 'café 東京 brew', 'green tea']) {
      assert.deepEqual((await again.search(q, { k: 5 })).map((h) => [h.id, h.score]), (await col.search(q, { k: 5 })).map((h) => [h.id, h.score]), `${kind}: ${q}`);
    }
    col.dispose();
    again.dispose();
  }
});

// The container binding hashes and reads in 1 MiB windows: sections across window boundaries and
// pieces of odd sizes give the bytes of the same sections handed over whole, and unpack finds them.
test('packContainer pieces across 1 MiB windows equal the sections given whole', () => {
  const rnd = seededRandom(181);
  const big = new Uint8Array(2.5 * 1024 * 1024 + 7).map(() => Math.floor(rnd() * 256));
  const small = new Uint8Array(13).map(() => Math.floor(rnd() * 256));
  const whole = packContainer('RWTESTXX', 5, [{ tag: 1, bytes: small }, { tag: 2, bytes: big }, { tag: 3, bytes: new Uint8Array(0) }]);
  const cuts = [0, 1, 1048575, 1048577, 2097152, 2097153 + 1000, big.length];
  const pieces = cuts.slice(1).map((c, i) => big.subarray(cuts[i], c));
  const split = packContainer('RWTESTXX', 5, [{ tag: 1, bytes: [small.subarray(0, 5), small.subarray(5)] }, { tag: 2, bytes: pieces }, { tag: 3, bytes: [] }]);
  assert.ok(Buffer.from(split).equals(Buffer.from(whole)));
  assert.equal(whole.length, 16 + 3 * 12 + small.length + big.length + 8);
  const u = unpackContainer(split, 'RWTESTXX', { minVersion: 5, maxVersion: 5, what: 'test', label: 'test' });
  assert.ok(Buffer.from(u.sections.get(2)).equals(Buffer.from(big)));
  assert.ok(Buffer.from(u.sections.get(1)).equals(Buffer.from(small)));
  assert.equal(u.sections.get(3).length, 0);
  // one flipped bit in the last window (past 2 MiB) is caught by the seal
  const bad = split.slice();
  bad[bad.length - 100] ^= 4;
  assert.throws(() => unpackContainer(bad, 'RWTESTXX', { minVersion: 5, maxVersion: 5, what: 'test', label: 'test' }), /checksum mismatch/);
});

for (const kind of Object.keys(KINDS)) {
  test(`${kind} collection bytes are the one container and every corruption is refused naming the problem`, async () => {
    const col = await Collection.create(KINDS[kind].config, KINDS[kind].options);
    await col.add(COLLECTION_DOCS);
    const bytes = col.toBytes();
    const want = (await col.search('lactic bacteria', { k: 3 })).map((h) => h.id);
    col.dispose();
    assert.equal(new TextDecoder().decode(bytes.subarray(0, 8)), 'RWCOLLEC');
    assert.equal(new DataView(bytes.buffer).getUint32(8, true), COLLECTION_FORMAT_VERSION);
    const secs = sectionsOf(bytes);
    assert.deepEqual(secs.map((x) => x.tag), kind === 'bm25' ? [1, 2] : [1, 2, 3]);
    const good = Collection.fromBytes(bytes, KINDS[kind].options);
    assert.deepEqual((await good.search('lactic bacteria', { k: 3 })).map((h) => h.id), want);
    good.dispose();
    const refused = (b, what, code = /^(CORRUPT_INDEX|UNSUPPORTED_VERSION)$/) => {
      assert.throws(() => Collection.fromBytes(b, KINDS[kind].options), (e) => {
        assert.match(e.code, code, `${what}: ${e.message}`);
        assert.match(e.message, /^ragwasm: collection bytes: /, what);
        return true;
      }, what);
    };
    // truncation at every section boundary (and one byte either side), the header, the seal, random points
    for (const x of secs) {
      for (const cut of [x.header, x.header + 1, x.payload - 1, x.payload, x.payload + x.length]) refused(bytes.subarray(0, cut), `cut at ${cut}`, /^CORRUPT_INDEX$/);
    }
    for (const cut of [0, 7, 16, bytes.length - 8, bytes.length - 1]) refused(bytes.subarray(0, cut), `cut at ${cut}`, /^CORRUPT_INDEX$/);
    const rand = seededRandom(20261127);  // seed fixed
    for (let i = 0; i < 60; i++) {
      const cut = Math.floor(rand() * bytes.length);
      refused(bytes.subarray(0, cut), `cut at ${cut}`, /^CORRUPT_INDEX$/);
    }
    // single bit flips anywhere (the seal catches them; a flip in the version field is UNSUPPORTED_VERSION,
    // or CORRUPT_INDEX when it gives 1 or 2, which the seal then refuses)
    for (let i = 0; i < 150; i++) {
      const b = bytes.slice();
      const at = Math.floor(rand() * b.length);
      b[at] ^= 1 << Math.floor(rand() * 8);
      refused(b, `bit flip at byte ${at}`, at >= 8 && at < 12 ? /^(UNSUPPORTED_VERSION|CORRUPT_INDEX)$/ : /^CORRUPT_INDEX$/);
    }
    const flipped = bytes.slice();
    flipped[secs[0].payload + 3] ^= 4;  // inside the JSON header
    assert.throws(() => Collection.fromBytes(flipped, KINDS[kind].options), (e) => e.code === 'CORRUPT_INDEX' && /checksum mismatch/.test(e.message));
    // other versions (resealed by the writer's own container): UNSUPPORTED_VERSION naming the versions read
    const { sections } = unpackContainer(bytes, 'RWCOLLEC', { minVersion: 1, maxVersion: COLLECTION_FORMAT_VERSION, what: 't', label: 't' });
    const parts = [...sections].map(([tag, b]) => ({ tag, bytes: b }));
    for (const v of [0, COLLECTION_FORMAT_VERSION + 1, 0xFFFFFFFF]) {
      refused(packContainer('RWCOLLEC', v, parts), `version ${v}`, /^UNSUPPORTED_VERSION$/);
      assert.throws(() => Collection.fromBytes(packContainer('RWCOLLEC', v, parts), KINDS[kind].options), /reads versions 1 to 3/);
    }
    refused(packContainer('RWCOLLEC', 2, parts), 'version 2 in the new container', /^CORRUPT_INDEX$/);
    // resealed structural edits: a missing header or index section, a wrong magic
    refused(packContainer('RWCOLLEC', COLLECTION_FORMAT_VERSION, parts.filter((p) => p.tag !== 1)), 'no header section', /^CORRUPT_INDEX$/);
    refused(packContainer('RWCOLLEC', COLLECTION_FORMAT_VERSION, parts.filter((p) => p.tag !== 2)), 'no BM25 section', /^CORRUPT_INDEX$/);
    refused(packContainer('RWCOLLEX', COLLECTION_FORMAT_VERSION, parts), 'wrong magic', /^CORRUPT_INDEX$/);
  });
}

test('the legacy collection framing (formats 1 and 2) still refuses damage', () => {
  for (const version of ['v1', 'v2']) {
    const bytes = new Uint8Array(readFileSync(join(dir, version, 'collection-hybrid.bin')));
    assert.equal(new TextDecoder().decode(bytes.subarray(0, 8)), 'RAGWCOL1');
    for (let at = 12; at < bytes.length; at += 97) {
      const b = bytes.slice();
      b[at] ^= 0x10;
      assert.throws(() => Collection.fromBytes(b, KINDS.hybrid.options), (e) => e.code === 'CORRUPT_INDEX', `${version} byte ${at}`);
    }
    assert.throws(() => Collection.fromBytes(bytes.subarray(0, bytes.length - 1), KINDS.hybrid.options), (e) => e.code === 'CORRUPT_INDEX');
  }
});

test('isCollectionBytes recognizes every collection format by its magic only', () => {
  assert.equal(Collection.isCollectionBytes(new Uint8Array(readFileSync(join(dir, 'v1', 'collection-bm25.bin')))), true);
  assert.equal(Collection.isCollectionBytes(new TextEncoder().encode('RWCOLLEC')), true);
  assert.equal(Collection.isCollectionBytes(new TextEncoder().encode('RWSPARSE and more')), false);
  assert.equal(Collection.isCollectionBytes(new Uint8Array(3)), false);
  assert.equal(Collection.isCollectionBytes('RWCOLLEC'), false);
});

// #30 F-2..F-4: a header resealed with edits the checksum cannot see (a crafted or hand-edited file).
test('a header that disagrees with the BM25 section, nests too deep or states offsets past int32 is CORRUPT_INDEX', async () => {
  const col = await Collection.create({ indexes: { bm25: {} } });
  await col.add(untitled([{ id: 'a', text: 'apples and pears grow here' }, { id: 'b', text: 'zebra stripes run fast now' }, { id: 'c', text: 'a third, quiet document' }]));
  const bytes = col.toBytes();
  col.dispose();
  const { sections } = unpackContainer(bytes, 'RWCOLLEC', { minVersion: 3, maxVersion: 3, what: 't', label: 't' });
  const header = new TextDecoder().decode(sections.get(1));
  const resealed = (h) => packContainer('RWCOLLEC', COLLECTION_FORMAT_VERSION, [...sections].map(([tag, b]) => ({ tag, bytes: tag === 1 ? new TextEncoder().encode(h) : b })));
  const same = Collection.fromBytes(resealed(header));  // resealing alone changes nothing
  assert.equal((await same.search('apples', { k: 1 }))[0].id, 'a#0');
  same.dispose();
  const swap = (h, x, y) => h.replace(x, '\u0001').replace(y, x).replace('\u0001', y);
  const cases = [
    ['a same-length text', header.replace('apples and pears', 'zebras and bears'), /header chunk "a#0": its indexed text analyzes to 4 distinct terms, not the 4 terms/],
    ['two documents\' texts exchanged', swap(header, 'apples and pears grow here', 'zebra stripes run fast now'), /header chunk "a#0"/],
    ['a config 100,000 levels deep', header.replace('"indexes":{', `"deep":${'['.repeat(100000)}${']'.repeat(100000)},"indexes":{`), /header config: JSON nested deeper than 256 levels/],
    ['a length and offsets past 2^31 - 1', header.replace('"length":26,"chunks":[{"id":"a#0","docId":"a","ordinal":0,"text":"apples and pears grow here","start":0,"end":26}',
      '"length":2147483700,"chunks":[{"id":"a#0","docId":"a","ordinal":0,"text":"apples and pears grow here","start":2147483670,"end":2147483696}'), /header docs "a": length 2147483700 is past 2147483647/],
  ];
  for (const [what, h, message] of cases) {
    assert.notEqual(h, header, what);
    assert.throws(() => Collection.fromBytes(resealed(h)), (e) => e.code === 'CORRUPT_INDEX' && message.test(e.message), what);
  }
});
