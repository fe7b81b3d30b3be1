// Typo-tolerant and type-ahead search on Bm25Index (issue 29): prefix / fuzzy expansion checked against
// MiniSearch 7.2 on the cases where their definitions agree (the same tokens: text reduced to ASCII words,
// no stemmer or stop words), against a brute-force expansion written here from the documented weights,
// AND, per-query boosts, explain, suggest, the filter callback, and a sharded index equal to one index.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import { init, Bm25Index, RagwasmError } from '../../../web/src/index.js';
import { ShardedBm25Index } from '../../../web/src/parallel.js';
import { build, repoRoot } from '../helpers.mjs';

await init({ build });

const docsDir = join(repoRoot, 'examples/corpus/docs');
const files = readdirSync(docsDir).filter((f) => f.endsWith('.md')).sort();
// one document per paragraph of the sample corpus
const paragraphs = [];
for (const f of files) {
  const parts = readFileSync(join(docsDir, f), 'utf8').split(/\n\s*\n/).filter((p) => p.trim().length > 0);
  parts.forEach((p, i) => paragraphs.push({ id: `${f.replace(/\.md$/, '')}#${i}`, title: '', text: p }));
}
// the same tokens for both libraries: ASCII letters and digits, lowercased by both
const ascii = paragraphs.map((d) => ({ ...d, text: d.text.replace(/[^A-Za-z0-9]+/g, ' ') }));
const PLAIN = { analyzer: { stemmer: 'none', stopwords: false, identifiers: false }, fields: ['text'] };

function levenshtein(a, b) {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1), prev[j] + 1, cur[j - 1] + 1);
    prev = cur;
  }
  return prev[b.length];
}

const QUERIES = ['warrenty', 'calibraton schedule', 'anemometr', 'pasword rotaton', 'firmwre update', 'trave expens', 'soil moistre probe', 'remot work'];
const SETTINGS = [
  { fuzzy: 0.2 }, { fuzzy: 1 }, { fuzzy: 2 }, { prefix: true }, { prefix: true, fuzzy: 0.3 },
  { fuzzy: 0.2, combineWith: 'AND' }, { prefix: true, fuzzy: 1, combineWith: 'AND' },
];

test('prefix and fuzzy match the same documents and terms as MiniSearch where the definitions agree', () => {
  const idx = Bm25Index.create(PLAIN);
  idx.add(ascii.map(({ id, text }) => ({ id, text })));
  const ms = new MiniSearch({ fields: ['text'], storeFields: [] });
  ms.addAll(ascii);
  let compared = 0;
  for (const q of QUERIES) {
    for (const s of SETTINGS) {
      const theirs = ms.search(q, s);
      const ours = idx.search(q, { ...s, k: 100000, explain: true });
      assert.deepEqual(ours.map((h) => h.id).sort(), theirs.map((h) => h.id).sort(), `${q} ${JSON.stringify(s)}: documents`);
      const ourTerms = new Set(ours.flatMap((h) => h.matches.map((m) => m.term)));
      const theirTerms = new Set(theirs.flatMap((h) => h.terms));
      assert.deepEqual([...ourTerms].sort(), [...theirTerms].sort(), `${q} ${JSON.stringify(s)}: matched terms`);
      compared += theirs.length;
    }
  }
  assert.ok(compared > 100, `the comparison covered ${compared} MiniSearch hits`);
  idx.dispose();
});

test('expansion weights follow the documented formulas (a brute-force expansion over the dictionary)', () => {
  const idx = Bm25Index.create(PLAIN);
  idx.add(ascii.map(({ id, text }) => ({ id, text })));
  const vocab = idx.collectionStats().terms.filter((t) => idx.documentFrequency(t) > 0);
  for (const q of ['calibraton', 'warr', 'sensr']) {
    const hits = idx.search(q, { prefix: true, fuzzy: 0.25, k: 100000, explain: true });
    const got = new Map();
    for (const h of hits) for (const m of h.matches) got.set(m.term, m);
    const d = Math.min(6, Math.round(q.length * 0.25));
    const want = new Map();
    for (const t of vocab) {
      if (t === q) want.set(t, { kind: 'exact', weight: 1 });
      else if (t.startsWith(q)) want.set(t, { kind: 'prefix', weight: 0.375 * t.length / (t.length + 0.3 * (t.length - q.length)) });
      else if (d > 0 && levenshtein(t, q) <= d) want.set(t, { kind: 'fuzzy', weight: 0.45 * t.length / (t.length + levenshtein(t, q)) });
    }
    assert.ok(want.size > 0, q);
    assert.deepEqual([...got.keys()].sort(), [...want.keys()].sort(), q);
    for (const [t, w] of want) {
      assert.equal(got.get(t).kind, w.kind, t);
      assert.ok(Math.abs(got.get(t).weight - w.weight) < 1e-12, `${t}: ${got.get(t).weight} vs ${w.weight}`);
    }
    // a hit's score is the sum of its matches' contributions
    for (const h of hits) {
      const sum = h.matches.reduce((a, m) => a + m.score, 0);
      assert.ok(Math.abs(sum - h.score) <= 1e-9 * Math.max(1, h.score), h.id);
    }
  }
  idx.dispose();
});

test('"warrenty" finds the warranty policy with fuzzy and nothing without it', () => {
  const idx = Bm25Index.create();  // default analyzer: stemmed terms ("warranti")
  idx.add(paragraphs.map(({ id, text }) => ({ id, text })));
  assert.deepEqual(idx.search('warrenty'), []);
  const hits = idx.search('warrenty', { fuzzy: 0.2, k: 5, explain: true });
  assert.ok(hits.length > 0);
  for (const h of hits) assert.match(paragraphs.find((p) => p.id === h.id).text, /warrant/i, h.id);
  assert.ok(hits.some((h) => h.id.startsWith('customer-support-faq#')), 'the support FAQ\'s warranty section is in the top 5');
  assert.deepEqual(hits[0].matches.map((m) => [m.query, m.term, m.kind, m.distance]), [['warrenti', 'warranti', 'fuzzy', 1]]);
  // prefix: a word being typed
  const typed = idx.search('warr', { prefix: true, k: 3 });
  assert.ok(typed.length > 0);
  assert.match(paragraphs.find((p) => p.id === typed[0].id).text, /warrant/i);
  // per-term function: only the last term is a prefix (MiniSearch's autoSuggest default)
  const calls = [];
  idx.search('extended warr', { prefix: (term, i, terms) => { calls.push([term, i, terms.length]); return i === terms.length - 1; } });
  assert.deepEqual(calls, [['extend', 0, 2], ['warr', 1, 2]]);
  idx.dispose();
});

test('an exact match outranks its expansions and AND needs every term', () => {
  const idx = Bm25Index.create(PLAIN);
  idx.add([
    { id: 'a', text: 'sensor sensor calibration' },
    { id: 'b', text: 'sensors calibration' },
    { id: 'c', text: 'senor' },
  ]);
  const hits = idx.search('sensor', { prefix: true, fuzzy: 1, explain: true });
  assert.equal(hits[0].id, 'a');
  const kinds = Object.fromEntries(hits.map((h) => [h.id, h.matches.map((m) => m.kind)]));
  assert.deepEqual(kinds, { a: ['exact'], b: ['prefix'], c: ['fuzzy'] });
  // the same document length: the exact term outranks a prefix and a fuzzy match
  const same = Bm25Index.create(PLAIN);
  same.add([{ id: 'p', text: 'sensors x' }, { id: 'e', text: 'sensor x' }, { id: 'f', text: 'senor x' }]);
  assert.deepEqual(same.search('sensor', { prefix: true, fuzzy: 1 }).map((h) => h.id), ['e', 'f', 'p']);  // weights 1 > 0.375 > 0.3596
  same.dispose();
  assert.deepEqual(idx.search('sensor calibration', { fuzzy: 1, combineWith: 'AND' }).map((h) => h.id).sort(), ['a', 'b']);
  assert.deepEqual(idx.search('sensor zzzzzz', { combineWith: 'AND' }), []);
  assert.deepEqual(idx.search('sensor zzzzzz', { combineWith: 'OR' }).map((h) => h.id), ['a']);
  idx.dispose();
});

test('per-query field boosts, the filter callback and suggest', () => {
  const idx = Bm25Index.create({ analyzer: { stemmer: 'none' } });
  idx.add([
    { id: 'x', title: 'apple', text: 'pear pear pear' },
    { id: 'y', title: 'pear', text: 'apple apple apple' },
    { id: 'z', title: 'plum', text: 'apple apricot' },
  ]);
  assert.equal(idx.search('apple')[0].id, 'y');
  assert.equal(idx.search('apple', { boost: { title: 10 } })[0].id, 'x');
  assert.equal(idx.search('apple')[0].id, 'y', 'a boost does not stick');
  assert.throws(() => idx.search('apple', { boost: { body: 2 } }), (e) => e instanceof RagwasmError && e.code === 'INVALID_ARGUMENT' && /unknown field 'body'/.test(e.message));
  assert.throws(() => idx.search('apple', { fuzzy: 1.5 }), (e) => e instanceof RagwasmError && e.code === 'INVALID_ARGUMENT');
  assert.throws(() => idx.search('apple', { combineWith: 'XOR' }), (e) => e instanceof RagwasmError && e.code === 'INVALID_ARGUMENT');
  // filter(hit): k hits that pass, fetched past the first k
  const many = Bm25Index.create();
  many.add(Array.from({ length: 200 }, (_, i) => ({ id: `d${String(i).padStart(3, '0')}`, text: `apple ${'filler '.repeat(i % 7)}` })));
  const odd = many.search('apple', { k: 30, filter: (h) => Number(h.id.slice(1)) % 2 === 1 });
  assert.equal(odd.length, 30);
  assert.ok(odd.every((h) => Number(h.id.slice(1)) % 2 === 1));
  const all = many.search('apple', { k: 200 }).filter((h) => Number(h.id.slice(1)) % 2 === 1).slice(0, 30);
  assert.deepEqual(odd, all);
  many.dispose();
  assert.deepEqual(idx.suggest('ap'), [{ term: 'apple', df: 3 }, { term: 'apricot', df: 1 }]);
  assert.deepEqual(idx.suggest('ap', { k: 1 }), [{ term: 'apple', df: 3 }]);
  assert.deepEqual(idx.suggest('zz'), []);
  idx.dispose();
});

test('a sharded index gives the same expanded results as one index', async () => {
  const one = Bm25Index.create();
  one.add(paragraphs.map(({ id, text }) => ({ id, text })));
  const sharded = await ShardedBm25Index.create({}, { workers: 2 });
  try {
    await sharded.add(paragraphs.map(({ id, text }) => ({ id, text })));
    for (const s of [{ fuzzy: 0.2 }, { prefix: true }, { prefix: true, fuzzy: 1, combineWith: 'AND' }, { fuzzy: 1, boost: { text: 2 } }]) {
      const queries = ['warrenty', 'calibraton schedule', 'firmw updat'];
      const got = await sharded.searchMany(queries, { ...s, k: 20 });
      queries.forEach((q, i) => assert.deepEqual(got[i], one.search(q, { ...s, k: 20 }), `${q} ${JSON.stringify(s)}`));
    }
    const fn = await sharded.search('extended warr', { prefix: (t, i, terms) => i === terms.length - 1, k: 10 });
    assert.deepEqual(fn, one.search('extended warr', { prefix: (t, i, terms) => i === terms.length - 1, k: 10 }));
  } finally {
    await sharded.dispose();
    one.dispose();
  }
});
