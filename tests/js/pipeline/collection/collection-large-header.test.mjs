// Collection headers too long for one JS string (issue #18 item 6, a million chunks): toBytes() encodes
// the JSON header in pieces (the bytes equal one JSON.stringify of it) and fromBytes() reads a header
// above the split size value by value. The split size is lowered here (setHeaderSplitBytes, white-box)
// so a small collection takes the large-header path; the million bench takes it for real.
import test from 'node:test';
import assert from 'node:assert/strict';
import { init, RagwasmError, Collection, COLLECTION_FORMAT_VERSION } from '../../../../web/src/index.js';
import { setHeaderSplitBytes } from '../../../../web/src/pipeline/collection.js';
import { packSections } from '../../../../web/src/core/checksum.js';
import { packContainer, unpackContainer } from '../../../../web/src/core/container.js';
import { hashedBagOfWords } from '../../helpers.mjs';

await init();

const embedder = { id: 'bow-32', dimension: 32, embed: async (texts) => hashedBagOfWords(texts) };
// -> {version, sections: [header, bm25, dense]} of the collection container (tags 1, 2, 3)
const unpack = (bytes) => {
  const c = unpackContainer(bytes, 'RWCOLLEC', { minVersion: COLLECTION_FORMAT_VERSION, maxVersion: COLLECTION_FORMAT_VERSION, what: 't', label: 't' });
  return { version: c.version, sections: [1, 2, 3].map((tag) => c.sections.get(tag)) };
};
const words = ['river', 'capital', 'Paris', 'Seine', 'bridge', 'naïve', 'café', '東京', 'emoji 🙂', 'quote "x"', 'back\\slash', 'tab\there'];

// 700 documents of ~1,600 characters: a header of more than one 1 Mi-character piece.
function corpus() {
  const docs = [];
  for (let i = 0; i < 700; i++) {
    let text = '';
    for (let j = 0; text.length < 1600; j++) text += `${words[(i * 7 + j * 3) % words.length]} ${i % 13 === 0 ? '[]{},:' : ''}`;
    docs.push({ id: `d${i}`, title: i % 2 ? `Title ${i} {x}` : undefined, text, metadata: { n: i, tag: `t${i % 5}`, flag: i % 3 === 0 } });
  }
  docs.push({ id: 'zero', text: '12345 678' });  // no letters: a zero vector (header.zeroVectors)
  return docs;
}

test('#18 toBytes writes the header in pieces whose bytes are one JSON.stringify of it', async () => {
  const col = await Collection.create({ indexes: { bm25: {}, dense: { storage: 'int8' } } }, { embedder });
  await col.add(corpus());
  const header = new TextDecoder().decode(unpack(col.toBytes()).sections[0]);
  assert.ok(header.length > 1 << 20, `header ${header.length} characters: more than one piece`);
  const parsed = JSON.parse(header);
  assert.equal(header, JSON.stringify(parsed));
  assert.deepEqual(Object.keys(parsed), ['config', 'embedder', 'docs', 'zeroVectors']);
  assert.equal(parsed.docs.length, 701);
  assert.deepEqual(parsed.zeroVectors, ['zero#0']);
  assert.equal(parsed.docs[699].id, 'd699');
  col.dispose();
});

test('#18 a header above the split size is read value by value into the same collection', async () => {
  const col = await Collection.create({ indexes: { bm25: {}, dense: { storage: 'int8' } } }, { embedder });
  await col.add(corpus());
  const bytes = col.toBytes();
  const queries = ['Paris bridge', 'café naïve river', 'emoji quote'];
  const want = [];
  for (const q of queries) want.push(await col.search(q, { k: 5 }));
  const whole = Collection.fromBytes(bytes, { embedder });  // the header read as one string
  const old = setHeaderSplitBytes(0);
  try {
    const again = Collection.fromBytes(bytes, { embedder });
    for (let i = 0; i < queries.length; i++) assert.deepEqual(await again.search(queries[i], { k: 5 }), want[i], queries[i]);
    // Same state as the one-string reader (a reloaded collection's bytes, compared whole).
    assert.ok(Buffer.from(again.toBytes()).equals(Buffer.from(whole.toBytes())));
    whole.dispose();
    assert.deepEqual(Collection.inspect(bytes).chunks, col.chunks.size);
    again.dispose();
    // Damaged structure, resealed so only the header parser can notice: CORRUPT_INDEX, never a TypeError.
    const { version, sections } = unpack(bytes);
    const text = new TextDecoder().decode(sections[0]);
    const cuts = [text.slice(0, -1), `${text} x`, text.replace('"docs":[', '"docs":[,'), text.replace('"docs":[', '"docs":'), text.slice(0, text.length >> 1), `[${text}]`, text.replace(/"}/, '\\"}')];
    for (const bad of cuts) {
      const resealed = packContainer('RWCOLLEC', version, [new TextEncoder().encode(bad), sections[1], sections[2]].map((b, i) => ({ tag: i + 1, bytes: b })));
      assert.throws(() => Collection.fromBytes(resealed, { embedder }), (e) => e instanceof RagwasmError && e.code === 'CORRUPT_INDEX', bad.slice(0, 40));
    }
  } finally {
    setHeaderSplitBytes(old);
  }
  col.dispose();
});

test('#18 the legacy packSections (tests only reseal with it now) refuses a section of 4 GiB or more before allocating', () => {
  const huge = [{ length: 2 ** 32 }];  // a list of pieces: only the lengths are read before the check
  assert.throws(() => packSections('TESTMAG1', 1, [new Uint8Array(1), huge]), (e) => e instanceof RagwasmError && e.code === 'LIMIT_EXCEEDED' && /section 1 is 4294967296 bytes/.test(e.message));
});
