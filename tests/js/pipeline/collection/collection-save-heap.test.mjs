// Collection.save() keeps its index sections in the WASM heap (issue #18 item 6, docs/scale.md): each
// made once by the index's writer (HeapBytes), checked there in place, copied out in pieces as written,
// and freed whatever happens (a good save, a check that fails, a write abandoned or refused).
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { init, RagwasmError, Collection } from '../../../../web/src/index.js';
import { HeapBytes, liveHeapBytes } from '../../../../web/src/core/heap-bytes.js';
import { joinBytes } from '../../../../web/src/core/container.js';
import { saveStreaming } from '../../../../web/src/pipeline/collection/save.js';
import { hashedBagOfWords } from '../../helpers.mjs';

await init();

const embedder = { id: 'bow-32', dimension: 32, embed: async (texts) => hashedBagOfWords(texts) };
const docs = Array.from({ length: 40 }, (_, i) => ({ id: `d${i}`, title: `doc ${i}`, text: `Document ${i} talks about topic ${i % 7} and river ${i % 3}. ünïcødé ${i}` }));
const isCode = (code, re) => (e) => e instanceof RagwasmError && e.code === code && (!re || re.test(e.message));
const dir = () => mkdtempSync(join(tmpdir(), 'rw-heap-'));

async function built() {
  const col = await Collection.create({}, { embedder });
  await col.add(docs);
  return col;
}

test('#18 an index section kept in the heap reads out as toBytes() in pieces of any size and checks as its bytes do', async () => {
  const col = await built();
  for (const index of [col.bm25, col.dense]) {
    const want = index.toBytes();
    for (const size of [1, 7, 4096, want.length, want.length + 5]) {
      const h = index._heapBytes();
      assert.ok(h instanceof HeapBytes);
      assert.equal(h.length, want.length);
      // each piece is a view of one reused buffer: copy it before taking the next
      const got = joinBytes([...(function* copies() { for (const p of h.pieces(size)) yield p.slice(); })()]);
      assert.deepEqual(got, want, `piece size ${size}`);
      assert.equal(h.disposed, true, 'disposed once its last piece was taken');
    }
    const h = index._heapBytes();
    const seen = { heap: [], bytes: [] };
    const Cls = index.constructor;
    const a = Cls._checkBytes(h, (ids) => seen.heap.push(...ids));
    const b = Cls._checkBytes(want, (ids) => seen.bytes.push(...ids));
    assert.deepEqual(a, b);
    assert.deepEqual(seen.heap, seen.bytes);
    assert.equal(seen.heap.length, 40);
    h.dispose();
    h.dispose();  // twice is fine
    assert.throws(() => Cls._checkBytes(h, () => {}), isCode('DISPOSED'));
  }
  // abandoned after one piece: disposed
  const h = col.bm25._heapBytes();
  const it = h.pieces(16);
  it.next();
  it.return();
  assert.equal(h.disposed, true);
  assert.equal(liveHeapBytes(), 0);
  col.dispose();
});

test('#18 save() frees its heap sections on success, on a failed check, on ABORTED and on a storage error', async () => {
  const d = dir();
  const col = await built();
  assert.equal(liveHeapBytes(), 0);
  await col.save('kb', { dir: d });
  assert.equal(liveHeapBytes(), 0, 'after a good save');
  assert.deepEqual(new Uint8Array(readFileSync(join(d, 'kb'))), col.toBytes());
  const good = readFileSync(join(d, 'kb'));

  // the check fails on the first section made (the vector section): the header lost a document the indexes hold
  const gone = col.docs.get('d3');
  col.docs.delete('d3');
  await assert.rejects(col.save('kb', { dir: d }), isCode('CORRUPT_INDEX', /the vector section holds 40 vectors/));
  assert.equal(liveHeapBytes(), 0, 'after a failed check');
  col.docs.set('d3', gone);
  // ... and on the second (the BM25 section, made once the vector section was checked and freed)
  const other = await built();
  other.bm25.remove(['d3#0']);
  await assert.rejects(other.save('kb', { dir: d }), isCode('CORRUPT_INDEX', /BM25 section holds 39 documents/));
  assert.equal(liveHeapBytes(), 0, 'after a failed check of the second section');
  assert.deepEqual(readFileSync(join(d, 'kb')), good, 'the stored copy is kept');
  other.dispose();

  // the write is abandoned: a remove() lands between the check and the first piece written
  const saving = col.save('kb', { dir: d });
  col.remove(['d5']);
  await assert.rejects(saving, isCode('ABORTED'));
  assert.equal(liveHeapBytes(), 0, 'after ABORTED');
  assert.deepEqual(readFileSync(join(d, 'kb')), good, 'the stored copy is kept');

  // the storage refuses before any piece is taken (the directory is a file)
  const file = join(d, 'not-a-dir');
  writeFileSync(file, 'x');
  await assert.rejects(col.save('kb', { dir: file }));
  assert.equal(liveHeapBytes(), 0, 'after a storage error');

  // and the collection saves and loads after all of it
  await col.save('kb', { dir: d });
  assert.equal(liveHeapBytes(), 0);
  const again = await Collection.load('kb', { dir: d, embedder });
  assert.equal(again.size, 39);
  again.dispose();
  col.dispose();
});

test('#18 save()\'s header pieces (encoded into two reused buffers, for the check and for the write) join to toBytes()\' header', async () => {
  const col = await Collection.create({}, { embedder });
  const many = Array.from({ length: 600 }, (_, i) => ({ id: `m${i}`, text: `Passage ${i}: ${'ünïcødé 東京 🙂 words '.repeat(6 + (i % 5))}`, metadata: { n: i } }));
  many.push({ id: 'big', text: 'a long document. '.repeat(3000) });  // one document larger than a piece
  await col.add(many);
  const copies = [];
  for (const p of col._headerStream(true)) copies.push(p.slice());
  assert.ok(copies.length > 4, `${copies.length} pieces`);
  assert.deepEqual(joinBytes(copies), joinBytes(col._headerBytes()));
  const d = dir();
  await col.save('kb', { dir: d });
  assert.deepEqual(new Uint8Array(readFileSync(join(d, 'kb'))), col.toBytes());
  assert.equal(liveHeapBytes(), 0);
  col.dispose();
});

// save()'s sub-steps through save.js's observer (what col.save() runs, without one), with the HeapBytes alive at each
function traced() {
  const steps = [];
  return { steps, observer: { step: (label) => steps.push([label.replace(/ \(\d+ B\)$/, ''), liveHeapBytes()]) } };
}

test('#18 save() holds one index section in the heap at a time: the vector section checked first, each made again for its write', async () => {
  const d = dir();
  const col = await built();
  const { steps, observer } = traced();
  await saveStreaming(col, 'kb', { dir: d }, observer);
  assert.deepEqual(steps, [['start', 0], ['header checked', 0], ['dense made', 1], ['dense checked', 1], ['bm25 made', 1], ['bm25 checked', 1],
    ['checked', 0], ['header written', 0], ['bm25 made again', 1], ['bm25 written', 0], ['dense made again', 1], ['dense written', 0], ['stored', 0]]);
  assert.deepEqual(new Uint8Array(readFileSync(join(d, 'kb'))), col.toBytes());

  // col.save() writes the same bytes
  await col.save('kb2', { dir: d });
  assert.deepEqual(readFileSync(join(d, 'kb2')), readFileSync(join(d, 'kb')));
  assert.equal(liveHeapBytes(), 0);
  col.dispose();
});

test('#18 save() refuses an index section whose bytes made again for the write differ from the checked ones (ABORTED, stored copy kept)', async () => {
  const d = dir();
  for (const leg of ['bm25', 'dense']) {
    const col = await built();
    await col.save('kb', { dir: d });
    const good = readFileSync(join(d, 'kb'));
    // changed behind the collection's back (no revision change, the header is the same): only the
    // section's length and XXH64, compared when it is made again, can tell
    const saving = col.save('kb', { dir: d });
    if (leg === 'bm25') col.bm25.upsert([{ id: 'd0#0', text: 'other words entirely' }]);
    else col.dense.upsert([{ id: 'd0#0', vector: new Float32Array(32).fill(0.5) }]);
    await assert.rejects(saving, isCode('ABORTED', /changed while it was being written/));
    assert.equal(liveHeapBytes(), 0, `${leg}: after ABORTED`);
    assert.deepEqual(readFileSync(join(d, 'kb')), good, `${leg}: the stored copy is kept`);
    col.dispose();
  }
});

test('#18 save() frees the section it made for the write when the write fails after the header', async () => {
  const d = dir();
  const col = await built();
  // a failure while the BM25 section, made again for its turn, is held (after the header was written)
  const observer = { step: (label) => { if (label === 'bm25 made again') throw new RagwasmError('INTERNAL', 'test: storage failed'); } };
  await assert.rejects(saveStreaming(col, 'kb', { dir: d }, observer), isCode('INTERNAL', /test: storage failed/));
  assert.equal(liveHeapBytes(), 0, 'after a failure with a section made');
  assert.equal(readdirSync(d).length, 0, 'nothing stored, no temporary file left');
  col.dispose();
});

test('#18 save()\'s check parses each header piece\'s text (not its bytes decoded again): lone surrogates and non-ASCII save and load back', async () => {
  const d = dir();
  const col = await Collection.create({}, { embedder });
  await col.add([{ id: 'lone', title: 'x\uDC00y', text: `a lone \uD800 surrogate, ünïcødé 東京 🙂 and \uDFFF. ${'more words here. '.repeat(400)}` },
    ...docs.slice(0, 5)]);
  await col.save('kb', { dir: d });
  assert.deepEqual(new Uint8Array(readFileSync(join(d, 'kb'))), col.toBytes());
  const back = await Collection.load('kb', { dir: d, embedder });
  assert.equal(back.size, col.size);
  assert.deepEqual([...back.docs.keys()], [...col.docs.keys()]);
  back.dispose();
  col.dispose();
  assert.equal(liveHeapBytes(), 0);
});
