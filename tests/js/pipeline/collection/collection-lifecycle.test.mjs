// Collection lifecycle and saved structure (issue #19 item 4): DISPOSED everywhere, an add in flight
// when dispose() lands fails, save() never replaces a good copy with a bad one, and fromBytes()
// cross-checks every header field against the sections (checksum-resealed mutations).
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { init, RagwasmError } from '../../../../web/src/index.js';
import { Collection, COLLECTION_FORMAT_VERSION } from '../../../../web/src/index.js';
import { containerStream, joinBytes, packContainer, unpackContainer } from '../../../../web/src/core/container.js';
import { savePieces } from '../../../../web/src/core/storage.js';
import { checkCollectionBytes, checkSavedSections } from '../../../../web/src/pipeline/collection/saved.js';
import { hashedBagOfWords } from '../../helpers.mjs';

await init();

const embedder = { id: 'bow-32', dimension: 32, embed: async (texts) => hashedBagOfWords(texts) };
const docs = [
  { id: 'fr', title: 'France', text: 'Paris is the capital of France. The Seine flows through Paris.', metadata: { lang: 'fr' } },
  { id: 'de', title: 'Germany', text: 'Berlin is the capital of Germany. The Spree flows through Berlin.', metadata: { lang: 'de' } },
];
const isCode = (code, re) => (e) => e instanceof RagwasmError && e.code === code && (!re || re.test(e.message));

test('#19 every Collection method answers DISPOSED after dispose', async () => {
  const col = await Collection.create({}, { embedder });
  await col.add(docs);
  col.dispose();
  col.dispose();  // twice is fine
  assert.equal(col.disposed, true);
  await assert.rejects(col.add(docs), isCode('DISPOSED'));
  assert.throws(() => col.remove(['fr']), isCode('DISPOSED'));
  await assert.rejects(col.search('Paris'), isCode('DISPOSED'));
  await assert.rejects(col.checkLegs(), isCode('DISPOSED'));
  await assert.rejects(col.setEmbedder(embedder), isCode('DISPOSED'));
  assert.throws(() => col.toBytes(), isCode('DISPOSED'));
  await assert.rejects(col.save('x', { dir: mkdtempSync(join(tmpdir(), 'rw-col-')) }), isCode('DISPOSED'));
  await assert.rejects(col.exportJsonl(), isCode('DISPOSED'));
  assert.throws(() => col.size, isCode('DISPOSED'));
  assert.throws(() => col.embedderInfo, isCode('DISPOSED'));
});

test('#19 an add in flight when dispose lands fails with DISPOSED and never reports success', async () => {
  let release;
  const gate = new Promise((r) => { release = r; });
  const slow = { id: 'bow-32', dimension: 32, embed: async (texts) => { await gate; return hashedBagOfWords(texts); } };
  const col = await Collection.create({}, { embedder: slow });
  const pending = col.add(docs);
  await new Promise((r) => setTimeout(r, 0));
  col.dispose();
  release();
  await assert.rejects(pending, isCode('DISPOSED'));
});

test('#19 save after dispose cannot replace a good saved copy', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rw-col-'));
  const col = await Collection.create({}, { embedder });
  await col.add(docs);
  await col.save('kb', { dir });
  col.dispose();
  await assert.rejects(col.save('kb', { dir }), isCode('DISPOSED'));
  const again = await Collection.load('kb', { dir, embedder });
  assert.equal(again.size, 2);
  again.dispose();
});

test('#18 save() stores exactly the bytes of toBytes() (written as pieces, never joined), for each leg set', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rw-col-'));
  const configs = [{}, { indexes: { bm25: {} } }, { indexes: { dense: { storage: 'int8' } } }];
  for (const [i, config] of configs.entries()) {
    const col = await Collection.create(config, { embedder });
    await col.add([...docs, { id: 'x', text: 'ünïcødé 東京 and an emoji 🙂 in a third document.' }]);
    col.remove(['de']);
    await col.save(`kb${i}`, { dir });
    const stored = readFileSync(join(dir, `kb${i}`));
    assert.deepEqual(new Uint8Array(stored), col.toBytes(), JSON.stringify(config));
    col.dispose();
  }
});

test('#18 savePieces writes pieces larger than one write window back to back', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rw-col-'));
  const a = new Uint8Array(9 << 20).map((_, i) => (i * 31) & 255);
  const b = new Uint8Array(3).fill(7);
  const c = new Uint8Array(17 << 20).map((_, i) => (i * 7 + 1) & 255);
  await savePieces('p', [a, b, new Uint8Array(0), c], { dir });
  assert.deepEqual(new Uint8Array(readFileSync(join(dir, 'p'))), joinBytes([a, b, c]));
});

test('#19 save verifies the bytes load before replacing the stored copy', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rw-col-'));
  const col = await Collection.create({}, { embedder });
  await col.add(docs);
  await col.save('kb', { dir });
  // Break the in-memory state behind the API's back: the header then disagrees with the BM25 section.
  col.docs.get('fr').chunks[0].text = 'tampered';
  await assert.rejects(col.save('kb', { dir }), isCode('CORRUPT_INDEX', /docs\[0\]\.chunks\[0\]\.text/));
  const again = await Collection.load('kb', { dir, embedder });
  assert.equal((await again.search('Seine', { k: 1 }))[0].text.startsWith('Paris'), true, 'the good copy is intact');
  again.dispose();
  col.dispose();
});

test('#18 save() makes the header twice (checked, then written): a change in between abandons the write and keeps the stored copy', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rw-col-'));
  const col = await Collection.create({}, { embedder });
  await col.add(docs);
  await col.save('kb', { dir });
  const good = readFileSync(join(dir, 'kb'));
  // save() checks synchronously, then awaits storage before it takes the first piece to write:
  // a remove() that lands there changes the header the check saw
  const saving = col.save('kb', { dir });
  col.remove(['de']);
  await assert.rejects(saving, isCode('ABORTED', /changed while it was being written/));
  assert.deepEqual(readFileSync(join(dir, 'kb')), good, 'the stored copy is untouched');
  assert.deepEqual(readdirSync(dir), ['kb'], 'no temp file left');
  // so does a change behind the API's back (same length, other bytes: caught by the pieces' CRC-32)
  const saving2 = col.save('kb', { dir });
  const c = col.docs.get('fr').chunks[0];
  c.text = c.text.replace('Paris', 'Pariz');
  await assert.rejects(saving2, isCode('ABORTED'));
  assert.deepEqual(readFileSync(join(dir, 'kb')), good);
  c.text = c.text.replace('Pariz', 'Paris');
  await col.save('kb', { dir });  // unchanged since the check: written
  assert.deepEqual(new Uint8Array(readFileSync(join(dir, 'kb'))), col.toBytes());
  // an add() called during a save waits for the write (the stored copy is the collection at the save call),
  // and a save called during an add() waits for it
  const before = col.toBytes();
  const saving3 = col.save('kb', { dir });
  const adding = col.add([{ id: 'it', text: 'Rome is the capital of Italy.' }]);
  await saving3;
  assert.deepEqual(new Uint8Array(readFileSync(join(dir, 'kb'))), before);
  const adding2 = col.add([{ id: 'es', text: 'Madrid is the capital of Spain.' }]);
  const saving4 = col.save('kb', { dir });
  await Promise.all([adding, adding2, saving4]);
  const loaded = await Collection.load('kb', { dir, embedder });
  assert.deepEqual([...loaded.docs.keys()].sort(), [...col.docs.keys()].sort());
  assert.ok(loaded.docs.has('it') && loaded.docs.has('es'));
  loaded.dispose();
  col.dispose();
});

test('#18 savePieces from an iterator: pieces taken as written; an iterator that throws abandons the write', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rw-col-'));
  const a = new Uint8Array(9 << 20).map((_, i) => (i * 13) & 255);
  let taken = 0;
  function* good() { taken++; yield a; taken++; yield new Uint8Array([1, 2, 3]); }
  await savePieces('p', good(), { dir });
  assert.equal(taken, 2);
  assert.deepEqual(new Uint8Array(readFileSync(join(dir, 'p'))), joinBytes([a, new Uint8Array([1, 2, 3])]));
  let closed = false;
  function* bad() {
    try {
      yield new Uint8Array(5);
      throw new RagwasmError('ABORTED', 'ragwasm: stop');
    } finally { closed = true; }
  }
  await assert.rejects(savePieces('p', bad(), { dir }), isCode('ABORTED'));
  assert.equal(closed, true);
  assert.deepEqual(new Uint8Array(readFileSync(join(dir, 'p'))), joinBytes([a, new Uint8Array([1, 2, 3])]), 'the stored copy is kept');
  assert.deepEqual(readdirSync(dir), ['p']);
  // many small pieces (gathered into one reused staging buffer, past its 8 MiB) arrive in order
  const small = Array.from({ length: 300 }, (_, k) => new Uint8Array(40_000 + k).fill(k & 255));
  await savePieces('s', small.values(), { dir });
  assert.deepEqual(new Uint8Array(readFileSync(join(dir, 's'))), joinBytes(small));
  await savePieces('s2', [...small, a, ...small], { dir });
  assert.deepEqual(new Uint8Array(readFileSync(join(dir, 's2'))), joinBytes([...small, a, ...small]));
  rmSync(join(dir, 's'));
  rmSync(join(dir, 's2'));
  // a section whose pieces do not add up to its declared length is refused (the container would lie)
  const short = containerStream('RWCOLLEC', 3, [{ tag: 1, bytes: [new Uint8Array(4)][Symbol.iterator](), length: 5 }]);
  await assert.rejects(savePieces('p', short, { dir }), isCode('INTERNAL', /do not add up/));
  assert.deepEqual(readdirSync(dir), ['p']);
  // containerStream's bytes are packContainer's
  const sections = [{ tag: 1, bytes: [new Uint8Array([7, 8]), new Uint8Array(3)] }, { tag: 2, bytes: a }];
  assert.deepEqual(joinBytes([...containerStream('RWCOLLEC', 3, sections)]), packContainer('RWCOLLEC', 3, sections));
});

// Decodes the header, lets `mutate` change it, and reseals with the writer's own container (packContainer).
function resealed(bytes, mutate) {
  const { version, sections } = unpackContainer(bytes, 'RWCOLLEC', { minVersion: 1, maxVersion: COLLECTION_FORMAT_VERSION, label: 't', what: 't' });
  const header = JSON.parse(new TextDecoder().decode(sections.get(1)));
  mutate(header);
  return packContainer('RWCOLLEC', version, [...sections].map(([tag, b]) => ({ tag, bytes: tag === 1 ? new TextEncoder().encode(JSON.stringify(header)) : b })));
}

test('#19 checksum-resealed header mutations are rejected with CORRUPT_INDEX naming the field', async () => {
  const col = await Collection.create({ chunker: { chunkSize: 30, chunkOverlap: 10 } }, { embedder });
  await col.add(docs);
  const bytes = col.toBytes();
  const same = Collection.fromBytes(resealed(bytes, () => {}), { embedder });
  assert.deepEqual(await same.search('Seine', { k: 3 }), await col.search('Seine', { k: 3 }), 'an unchanged header reseals and loads');
  same.dispose();
  const cases = [
    ['chunk text unlike its span', (h) => { h.docs[0].chunks[1].text = h.docs[0].chunks[1].text.replace(/[a-z]/, 'q'); }, /docs\[0\]\.chunks\[1\]\.text/],
    ['chunk text longer than its span', (h) => { h.docs[0].chunks[0].text += 'x'; }, /docs\[0\]\.chunks\[0\]\.text: has/],
    ['negative start', (h) => { h.docs[0].chunks[0].start = -5; }, /docs\[0\]\.chunks\[0\]\.start/],
    ['end past the document', (h) => { const c = h.docs[0].chunks.at(-1); c.end = 1e12; c.start = 1e12 - c.text.length; }, /chunks\[\d+\]\.end: .* past the end of the document/],
    ['docId pointing at another document', (h) => { h.docs[0].chunks[0].docId = 'de'; }, /docs\[0\]\.chunks\[0\]\.docId/],
    ['duplicate document', (h) => { h.docs.push(structuredClone(h.docs[0])); }, /docs\[2\]\.id: document "fr" appears twice/],
    // the save check keeps no document ids: a repeat is its chunk "id#0" seen before, or an earlier document without chunks
    ['duplicate document, the second without chunks', (h) => { h.docs.push({ ...structuredClone(h.docs[0]), chunks: [] }); }, /docs\[2\]\.id: document "fr" appears twice/],
    ['duplicate document, the first without chunks', (h) => { h.docs.unshift({ ...structuredClone(h.docs[0]), chunks: [] }); }, /docs\[1\]\.id: document "fr" appears twice/],
    ['duplicate document without chunks', (h) => { h.docs.push({ id: 'e', length: 0, chunks: [] }, { id: 'e', length: 0, chunks: [] }); }, /docs\[3\]\.id: document "e" appears twice/],
    ['chunk id unlike docId#ordinal', (h) => { h.docs[1].chunks[0].id = 'de#9'; }, /docs\[1\]\.chunks\[0\]\.id/],
    ['a chunk dropped from the header', (h) => { h.docs[1].chunks.pop(); }, /BM25 section holds/],
    ['a document dropped from the header', (h) => { h.docs.pop(); }, /header docs: \d+ chunks/],
    ['embedder dimension unlike the vectors', (h) => { h.embedder.dimension = 16; }, /embedder\.dimension: 16, but the vector section has dimension 32/],
    ['embedder missing for a dense config', (h) => { h.embedder = null; }, /header embedder/],
    ['unknown zero-vector chunk', (h) => { h.zeroVectors = ['nope#0']; }, /zeroVectors\[0\]/],
    ['bm25 fields unlike the section', (h) => { h.config.indexes.bm25.fields = { text: 1 }; }, /indexes\.bm25\.fields/],
    ['a bad config', (h) => { h.config.retrieval.k = -1; }, /header config: retrieval\.k/],
    ['metadata not flat', (h) => { h.docs[0].metadata = { a: { b: 1 } }; }, /docs\[0\]\.metadata\.a/],
    ['document length shorter than a chunk end', (h) => { h.docs[0].length = 3; }, /past the end of the document \(length 3\)/],
  ];
  for (const [name, mutate, re] of cases) {
    assert.throws(() => Collection.fromBytes(resealed(bytes, mutate), { embedder }), isCode('CORRUPT_INDEX', re), name);
    // save()'s load-back check (documents checked as they are parsed, not kept) refuses it the same way
    assert.throws(() => checkCollectionBytes(resealed(bytes, mutate), { embedder }), isCode('CORRUPT_INDEX', re), `${name} (save check)`);
  }
  checkCollectionBytes(resealed(bytes, () => {}), { embedder });  // and passes the unchanged header
  // save() checks its header as pieces, never joined (the start, one piece per document here, the end):
  // the same verdicts, and pieces that would not parse joined are refused
  const { sections } = unpackContainer(bytes, 'RWCOLLEC', { minVersion: 1, maxVersion: COLLECTION_FORMAT_VERSION, label: 't', what: 't' });
  const pieced = (mutate, sep = ',') => {
    const h = JSON.parse(new TextDecoder().decode(sections.get(1)));
    mutate(h);
    const enc = new TextEncoder();
    const all = JSON.stringify(h);
    const start = all.indexOf('"docs":[') + 8;
    const end = start + JSON.stringify(h.docs).length - 2;
    assert.equal(all.slice(0, start) + h.docs.map((d) => JSON.stringify(d)).join(',') + all.slice(end), all);
    const pieces = [enc.encode(all.slice(0, start)), ...h.docs.map((d, i) => enc.encode((i > 0 ? sep : '') + JSON.stringify(d))), enc.encode(all.slice(end))];
    return [pieces, sections.get(2), sections.get(3)];
  };
  for (const [name, mutate, re] of cases) {
    assert.throws(() => checkSavedSections(COLLECTION_FORMAT_VERSION, pieced(mutate), { embedder }), isCode('CORRUPT_INDEX', re), `${name} (pieces)`);
  }
  checkSavedSections(COLLECTION_FORMAT_VERSION, pieced(() => {}), { embedder });
  assert.throws(() => checkSavedSections(COLLECTION_FORMAT_VERSION, pieced(() => {}, ' '), { embedder }), isCode('CORRUPT_INDEX', /not valid JSON/));
  // nothing the user had is lost: the original still searches
  assert.equal((await col.search('Seine', { k: 1 }))[0].docId, 'fr');
  col.dispose();
});
