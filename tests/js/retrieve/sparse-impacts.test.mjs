// Bm25Index.impacts() / queryTerms(): the impact table streamed in batches reproduces search()
// (weight x impact added in query-term order equals the score exactly), and a change of the index
// between two batches stops the reader.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Bm25Index, init } from '../../../web/src/index.js';
import { seededRandom } from '../helpers.mjs';

await init();

function randomIndex(seed, n = 150) {
  const rnd = seededRandom(seed);
  const idx = Bm25Index.create({ fields: ['title', { name: 'text', boost: 1 }] });
  const words = (k) => Array.from({ length: k }, () => `w${Math.floor(rnd() * rnd() * 40)}`).join(' ');
  idx.add(Array.from({ length: n }, (_, i) => ({ id: `d${i}`, title: words(2), text: words(5 + Math.floor(rnd() * 20)) })));
  return { idx, words };
}

test('impacts summed in query-term order equal the search scores exactly', () => {
  const { idx, words } = randomIndex(7);
  try {
    const table = new Map();
    let batches = 0;
    for (const b of idx.impacts({ batchTerms: 5, batchRows: 40 })) {
      batches++;
      assert.equal(b.rowStart.length, b.terms.length + 1);
      b.terms.forEach((t, i) => {
        const m = new Map();
        for (let r = b.rowStart[i]; r < b.rowStart[i + 1]; r++) m.set(b.ids[b.docs[r]], b.impacts[r]);
        table.set(t, m);
      });
    }
    assert.ok(batches > 3, 'several batches were read');
    for (const [t, m] of table) assert.equal(m.size, idx.documentFrequency(t));
    for (let q = 0; q < 40; q++) {
      const text = words(1 + (q % 4));
      const expected = idx.search(text, { k: 1000 });
      const score = new Map();
      for (const { term, weight } of idx.queryTerms(text)) for (const [d, v] of table.get(term) ?? []) score.set(d, (score.get(d) ?? 0) + weight * v);
      assert.equal(score.size, expected.length, text);
      for (const h of expected) assert.equal(score.get(h.id), h.score, `${text}: ${h.id}`);
    }
  } finally {
    idx.dispose();
  }
});

test('queryTerms counts repeats and keeps terms no document holds', () => {
  const idx = Bm25Index.create({ fields: ['text'], analyzer: { stemmer: 'none' } });
  try {
    idx.add([{ id: 'a', text: 'red apples' }]);
    assert.deepEqual(idx.queryTerms('Red the red pears'), [{ term: 'red', weight: 2 }, { term: 'pears', weight: 1 }]);
  } finally {
    idx.dispose();
  }
});

test('an index changed between two impact batches stops the reader with ABORTED', () => {
  const { idx } = randomIndex(3);
  try {
    const it = idx.impacts({ batchTerms: 2 });
    it.next();
    idx.remove(['d1']);
    assert.throws(() => it.next(), (e) => e.code === 'ABORTED' && /changed/.test(e.message));
    assert.throws(() => idx.impacts({ batchTerms: 0 }).next(), (e) => e.code === 'INVALID_ARGUMENT');
  } finally {
    idx.dispose();
  }
});
