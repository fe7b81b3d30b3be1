// Bm25Index through the JS API: adds, search, filters, updates, errors, save/load, storage.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { init, Bm25Index, RagwasmError, saveBytes, loadBytes, removeBytes, listStored, storageBackend } from '../../../web/src/index.js';

await init();

const docs = [
  { id: 'd1', title: 'Apple pie', text: 'A classic apple pie recipe with cinnamon.', metadata: { lang: 'en', year: 2019, tags: ['food', 'baking'] } },
  { id: 'd2', title: 'Apple orchards', text: 'Orchards grow apples in cool climates.', metadata: { lang: 'en', year: 2021, tags: ['farming'] } },
  { id: 'd3', title: 'Tarte aux pommes', text: 'Une recette de tarte aux pommes. Café crème.', metadata: { lang: 'fr', year: 2020 } },
  { id: 'd4', title: 'Ticket TS-999', text: 'Crash when saving; see TS-999 and TS-1000.', metadata: { lang: 'en', year: 2022 } },
  { id: 'd5', title: '中文检索', text: '中文检索系统的评测', metadata: { lang: 'zh', year: 2018 } },
];

function assertCode(fn, code) {
  assert.throws(fn, (e) => e instanceof RagwasmError && e.code === code, `expected ${code}`);
}

test('search ranks matching documents with ties broken by id', () => {
  const idx = Bm25Index.create();
  assert.deepEqual(idx.add(docs), { added: 5, updated: 0, removed: 0, skipped: 0 });
  assert.equal(idx.size, 5);
  const hits = idx.search('apple');
  assert.deepEqual(hits.map((h) => h.id).sort(), ['d1', 'd2']);
  for (const h of hits) assert.ok(h.score > 0);
  assert.ok(hits[0].score >= hits[1].score);
  assert.equal(idx.search('cafe')[0].id, 'd3');  // accent folding on both sides
  assert.equal(idx.search('ts-999')[0].id, 'd4');
  assert.equal(idx.search('TS')[0].id, 'd4');
  assert.equal(idx.search('检索')[0].id, 'd5');
  assert.deepEqual(idx.search('zzzz'), []);
  idx.dispose();
});

test('maxscore and the exhaustive oracle agree through the JS API', () => {
  const idx = Bm25Index.create();
  const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa'.split(' ');
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const many = [];
  for (let i = 0; i < 500; i++) {
    const n = 1 + Math.floor(rnd() * 20);
    many.push({ id: `doc${i}`, text: Array.from({ length: n }, () => words[Math.floor(rnd() * rnd() * words.length)]).join(' ') });
  }
  idx.add(many);
  for (let q = 0; q < 50; q++) {
    const query = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => words[Math.floor(rnd() * words.length)]).join(' ');
    const k = 1 + Math.floor(rnd() * 20);
    assert.deepEqual(idx.search(query, { k }), idx.search(query, { k, exact: true }), query);
  }
  idx.dispose();
});

test('filters apply during search and still return k results', () => {
  const idx = Bm25Index.create();
  const many = [];
  for (let i = 0; i < 200; i++) many.push({ id: `x${String(i).padStart(3, '0')}`, text: 'common word', metadata: { lang: i % 10 === 0 ? 'de' : 'en', n: i } });
  idx.add(many);
  const de = idx.search('common', { k: 15, filter: { lang: 'de' } });
  assert.equal(de.length, 15);  // 20 documents match the filter
  for (const h of de) assert.equal(Number(h.id.slice(1)) % 10, 0);
  const range = idx.search('common', { k: 50, filter: { n: { gte: 10, lt: 20 } } });
  assert.deepEqual(range.map((h) => h.id), Array.from({ length: 10 }, (_, i) => `x0${10 + i}`));  // equal scores: id order
  const anyOf = idx.search('common', { k: 5, filter: { lang: ['de', 'fr'] } });
  assert.equal(anyOf.length, 5);
  assert.deepEqual(idx.search('common', { filter: { nokey: 'x' } }), []);
  const small = Bm25Index.create();
  small.add(docs);
  assert.deepEqual(small.search('apple', { filter: { tags: 'farming' } }).map((h) => h.id), ['d2']);
  assert.deepEqual(small.search('apple', { filter: { year: { lte: 2019 } } }).map((h) => h.id), ['d1']);
  idx.dispose();
  small.dispose();
});

test('updates keep statistics exact and compaction changes nothing visible', () => {
  const a = Bm25Index.create();
  a.add(docs);
  a.add({ id: 'tmp', text: 'apple apple apple' });
  a.upsert({ id: 'd2', title: 'Old', text: 'nothing here' });
  a.upsert({ id: 'd2', title: docs[1].title, text: docs[1].text, metadata: docs[1].metadata });
  assert.deepEqual(a.remove('tmp'), { added: 0, updated: 0, removed: 1, skipped: 0 });
  const b = Bm25Index.create();
  b.add(docs);
  assert.deepEqual(a.search('apple orchards'), b.search('apple orchards'));
  assert.equal(a.documentFrequency('appl'), b.documentFrequency('appl'));
  assert.equal(a.stats().avgLength, b.stats().avgLength);
  assert.equal(a.stats().deleted, 3);  // tmp and two replaced versions of d2
  a.compact();
  assert.equal(a.stats().deleted, 0);
  assert.deepEqual(a.search('apple orchards'), b.search('apple orchards'));
  assert.equal(a.has('tmp'), false);
  assert.equal(a.has('d1'), true);
  a.dispose();
  b.dispose();
});

test('bad input throws RagwasmError naming the parameter and the index stays usable', () => {
  const idx = Bm25Index.create();
  idx.add(docs);
  assertCode(() => idx.add({ id: 'd1', text: 'again' }), 'DUPLICATE_ID');
  assertCode(() => idx.add({ id: '', text: 'x' }), 'INVALID_ARGUMENT');
  assertCode(() => idx.add({ id: 'q', txet: 'typo' }), 'INVALID_ARGUMENT');
  assertCode(() => idx.add({ id: 'q', text: 42 }), 'INVALID_ARGUMENT');
  assertCode(() => idx.add({ id: 'q', text: 'x', metadata: { y: NaN } }), 'INVALID_ARGUMENT');
  assertCode(() => idx.add({ id: 'q', text: 'x', metadata: { y: { a: 1 } } }), 'INVALID_ARGUMENT');
  assertCode(() => idx.remove('nope'), 'NOT_FOUND');
  assert.deepEqual(idx.remove('nope', { ignoreMissing: true }), { added: 0, updated: 0, removed: 0, skipped: 1 });
  assertCode(() => idx.search(42), 'INVALID_ARGUMENT');
  assertCode(() => idx.search('x', { k: -1 }), 'INVALID_ARGUMENT');
  assertCode(() => idx.search('x', { k: 1.5 }), 'INVALID_ARGUMENT');
  assertCode(() => idx.search('x', { kk: 1 }), 'INVALID_ARGUMENT');
  assertCode(() => idx.search('x', { filter: { year: { gte: NaN } } }), 'INVALID_ARGUMENT');
  assertCode(() => idx.search('x', { rm3: { fbDocs: 0 } }), 'INVALID_ARGUMENT');
  assertCode(() => Bm25Index.create({ k1: -1 }), 'INVALID_ARGUMENT');
  assertCode(() => Bm25Index.create({ scorer: 'bm26' }), 'INVALID_ARGUMENT');
  assertCode(() => Bm25Index.create({ fields: [] }), 'INVALID_ARGUMENT');
  assertCode(() => Bm25Index.create({ fields: ['a', 'a'] }), 'INVALID_ARGUMENT');
  assertCode(() => Bm25Index.create({ analyzer: { stemmer: 'snowball' } }), 'INVALID_ARGUMENT');
  try {
    idx.search('x', { k: 'ten' });
    assert.fail('no error');
  } catch (e) {
    assert.match(e.message, /options\.k/);
  }
  assert.equal(idx.search('apple').length, 2);  // still usable
  idx.dispose();
  assertCode(() => idx.search('apple'), 'DISPOSED');
});

test('scorers fields and analyzer options are accepted and change scores', () => {
  const scores = {};
  for (const scorer of ['lucene', 'robertson', 'atire', 'bm25l', 'bm25plus']) {
    const idx = Bm25Index.create({ scorer, fields: [{ name: 'title', boost: 2 }, 'text'] });
    idx.add(docs);
    const hits = idx.search('apple pie');
    assert.equal(hits[0].id, 'd1', scorer);
    scores[scorer] = hits[0].score;
    idx.dispose();
  }
  assert.equal(new Set(Object.values(scores)).size, 5);
  const raw = Bm25Index.create({ analyzer: { stemmer: 'none', stopwords: false, lowercase: false, foldAccents: false } });
  assert.deepEqual(raw.analyze('The Cafés running'), ['The', 'Cafés', 'running']);
  raw.dispose();
  const custom = Bm25Index.create({ fields: ['body'], analyzer: { stopwords: ['running'] } });
  assert.deepEqual(custom.analyze('the running dog'), ['the', 'dog']);
  custom.add({ id: 'a', body: 'dog' });
  assert.deepEqual(custom.fields, ['body']);
  assert.equal(custom.search('dogs')[0].id, 'a');
  custom.dispose();
});

test('rm3 expansion is off by default and weights sum to one', () => {
  const idx = Bm25Index.create();
  idx.add(docs);
  const terms = idx.expandQuery('apple', { rm3: { fbDocs: 2, fbTerms: 5 } });
  assert.equal(terms[0].term, 'appl');
  assert.ok(Math.abs(terms.reduce((s, t) => s + t.weight, 0) - 1) < 1e-9);
  assert.ok(idx.search('apple', { rm3: true }).length >= 2);
  idx.dispose();
});

test('save and load round-trip and corrupt bytes fail with stable codes', () => {
  const idx = Bm25Index.create({ scorer: 'bm25plus', k1: 1.1, fields: [{ name: 'title', boost: 1.5 }, 'text'] });
  idx.add(docs);
  idx.remove('d3');
  const bytes = idx.toBytes();
  assert.ok(bytes instanceof Uint8Array);
  const back = Bm25Index.fromBytes(bytes);
  assert.deepEqual(back.search('apple', { filter: { lang: 'en' } }), idx.search('apple', { filter: { lang: 'en' } }));
  assert.deepEqual(back.toBytes(), bytes);
  assert.equal(back.size, 4);
  back.add({ id: 'new', text: 'apple' });  // a loaded index keeps working
  assert.equal(back.size, 5);
  assertCode(() => Bm25Index.fromBytes(bytes.slice(0, bytes.length - 1)), 'CORRUPT_INDEX');
  const flipped = bytes.slice();
  flipped[40] ^= 1;
  assertCode(() => Bm25Index.fromBytes(flipped), 'CORRUPT_INDEX');
  const version = bytes.slice();
  version[8] = 99;
  assertCode(() => Bm25Index.fromBytes(version), 'UNSUPPORTED_VERSION');
  assertCode(() => Bm25Index.fromBytes('not bytes'), 'INVALID_ARGUMENT');
  // seeded mutations: every one fails with a stable code (never a crash)
  let seed = 7;
  const rnd = (n) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
  const rounds = process.env.RAGWASM_BUILD === 'debug' ? 200 : 1000;
  for (let i = 0; i < rounds; i++) {
    const b = bytes.slice(0, i % 2 ? bytes.length : rnd(bytes.length));
    if (i % 2) b[rnd(b.length)] ^= 1 << rnd(8);
    assert.throws(() => Bm25Index.fromBytes(b), (e) => e instanceof RagwasmError && (e.code === 'CORRUPT_INDEX' || e.code === 'UNSUPPORTED_VERSION'));
  }
  idx.dispose();
  back.dispose();
});

test('storage saves atomically to files in Node and loads the same bytes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-store-'));
  try {
    assert.equal(await storageBackend(), 'node');
    const idx = Bm25Index.create();
    idx.add(docs);
    await saveBytes('scifact.idx', idx.toBytes(), { dir });
    await saveBytes('scifact.idx', idx.toBytes(), { dir });  // replacing works
    assert.deepEqual(await listStored({ dir }), ['scifact.idx']);
    assert.deepEqual(readdirSync(dir), ['scifact.idx']);  // no temporary file left behind
    const back = Bm25Index.fromBytes(await loadBytes('scifact.idx', { dir }));
    assert.deepEqual(back.search('apple'), idx.search('apple'));
    assert.equal(await loadBytes('missing', { dir }), null);
    assert.equal(await removeBytes('scifact.idx', { dir }), true);
    assert.equal(await removeBytes('scifact.idx', { dir }), false);
    await assert.rejects(saveBytes('../evil', new Uint8Array(1), { dir }), (e) => e.code === 'INVALID_ARGUMENT');
    await assert.rejects(saveBytes('ok', 'text', { dir }), (e) => e.code === 'INVALID_ARGUMENT');
    idx.dispose();
    back.dispose();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
