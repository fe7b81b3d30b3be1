// Collection's documents and chunks held as text + spans (web/src/pipeline/chunk-store.js, issue #18):
// chunk objects made on demand equal those chunk() gives, ids resolve only in their docId#ordinal form.
import test from 'node:test';
import assert from 'node:assert/strict';
import { init, Collection, chunk } from '../../../web/src/index.js';

await init();

test('collection.chunks gives the chunks chunk() makes, by id and in document order', async () => {
  const config = { chunker: { chunkSize: 40, chunkOverlap: 12 }, indexes: { bm25: {} } };
  const col = await Collection.create(config);
  const docs = [
    { id: 'a#b', text: 'Ünïcode text 🙂 with an emoji, then a second sentence. And a third one here.' },
    { id: 'short', text: 'One chunk only.' },
    { id: 'empty', text: '' },
  ];
  await col.add(docs);
  const want = docs.flatMap((d) => chunk({ id: d.id, text: d.text, metadata: {} }, { strategy: 'recursive', chunkSize: 40, chunkOverlap: 12 })
    .map((c) => ({ id: c.id, docId: c.docId, ordinal: c.ordinal, text: c.text, start: c.start, end: c.end })));
  assert.ok(want.length >= 3);
  assert.equal(col.chunks.size, want.length);
  assert.deepEqual([...col.chunks.values()], want);
  assert.deepEqual([...col.chunks.keys()], want.map((c) => c.id));
  for (const c of want) assert.deepEqual(col.chunks.get(c.id), c);
  assert.deepEqual(col.docs.get('empty').chunks, []);
  // only the exact docId#ordinal form resolves
  for (const id of ['a#b', 'a#b#01', 'a#b#-1', `a#b#${want.filter((c) => c.docId === 'a#b').length}`, 'nope#0', 'short#0.0', 'short# 0']) {
    assert.equal(col.chunks.has(id), false, id);
    assert.equal(col.chunks.get(id), undefined, id);
  }
  // removal and replacement keep the count; a loaded copy holds the same chunks
  col.remove(['short']);
  assert.equal(col.chunks.size, want.length - 1);
  await col.add([{ id: 'short', text: 'Replaced text of the short one.' }]);
  assert.equal(col.chunks.get('short#0').text, 'Replaced text of the short one.');
  const again = Collection.fromBytes(col.toBytes());
  assert.deepEqual([...again.chunks.values()], [...col.chunks.values()]);
  col.dispose();
  again.dispose();
});
