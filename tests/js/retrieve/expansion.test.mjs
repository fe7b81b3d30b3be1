// Issue 27 (offline tier): BM25 query expansion from a static model's word neighbours, through
// WordNeighbours, Bm25Index (search option `expansion`, expansionTerms), the pipeline config key
// `retrieval.expansion` (Collection.search with explain) and `ragwasm ask --config`. The tiny model
// below is the one of tests/cpp/test_embed_neighbours.cpp, so the exact values asserted here
// (24/25, 7/25, 0.5 x 24/25) are the native build's too: WASM and native agree bit for bit.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bm25Index, Collection, createWordNeighbours, EXPANSION_DEFAULTS, init, parsePipelineConfig, PRESETS, WordNeighbours } from '../../../web/src/index.js';
import { main } from '../../../web/cli/ragwasm.mjs';

// A static model file in format version 1 (src/embed/static_embedder.h): words with 2-d int8 vectors.
function staticModelV1(words, vectors, dims = 2) {
  const enc = new TextEncoder();
  const wordBytes = enc.encode(words.map((w) => `${w}\n`).join(''));
  const n = words.length;
  let pos = 32 + wordBytes.length;
  pos = Math.ceil(pos / 4) * 4;
  const floatsAt = pos;
  pos += 4 * (2 * n + dims);
  const vecAt = pos;
  pos += n * dims;
  const body = Math.ceil(pos / 8) * 8;
  const b = new Uint8Array(body + 8);
  const v = new DataView(b.buffer);
  b.set(enc.encode('RWSTATIC'), 0);
  v.setUint32(8, 1, true);
  v.setUint32(12, dims, true);
  v.setUint32(16, n, true);
  v.setFloat32(20, 0.001, true);
  v.setUint32(24, wordBytes.length, true);
  b.set(wordBytes, 32);
  for (let i = 0; i < n; i++) {
    v.setFloat32(floatsAt + 4 * i, 1 / (n + 1), true);  // p(w)
    v.setFloat32(floatsAt + 4 * (n + i), 0.1 * (i + 1), true);  // scale: any, the cosine ignores it
  }
  for (let i = 0; i < n * dims; i++) v.setInt8(vecAt + i, vectors[i]);
  let h = 0xcbf29ce484222325n;  // FNV-1a 64 of every byte before the checksum
  for (let i = 0; i < body; i++) h = BigInt.asUintN(64, (h ^ BigInt(b[i])) * 0x100000001b3n);
  v.setBigUint64(body, h, true);
  return b;
}

// physician (3, 4), doctor (4, 3): cos 24/25; banana (-3, 4): cos 7/25 with physician; zero (0, 0);
// surgeon (6, 8): cos 1 with physician, but in no document.
const WORDS = ['physician', 'doctor', 'banana', 'zero', 'surgeon'];
const VECTORS = [3, 4, 4, 3, -3, 4, 0, 0, 6, 8];
const DOCS = [
  { id: 'clinic', title: 'Clinic', text: 'The doctor sees patients every morning.' },
  { id: 'fruit', title: 'Fruit', text: 'Bananas are yellow.' },
  { id: 'kit', title: 'Kit', text: 'The LS-240 kit ships with two batteries.' },
];

let dir;
let modelPath;
before(async () => {
  await init();
  dir = mkdtempSync(join(tmpdir(), 'ragwasm-expansion-'));
  modelPath = join(dir, 'tiny.bin');
  writeFileSync(modelPath, staticModelV1(WORDS, VECTORS));
});
after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('WordNeighbours ranks by exact cosine on the int8 vectors, ties by rank (as the native build)', () => {
  const w = WordNeighbours.fromBytes(staticModelV1(WORDS, VECTORS));
  assert.equal(w.size, 5);
  assert.equal(w.dimension, 2);
  assert.deepEqual(w.similar('physician', { minSimilarity: 0 }), [
    { word: 'surgeon', similarity: 1 }, { word: 'doctor', similarity: 24 / 25 }, { word: 'banana', similarity: 7 / 25 }]);
  assert.deepEqual(w.similar('physician', { minSimilarity: 0.5, k: 1 }), [{ word: 'surgeon', similarity: 1 }]);
  assert.deepEqual(w.similar('unknown'), []);
  assert.deepEqual(w.similar('zero', { minSimilarity: -1 }), []);  // an all-zero vector is nobody's neighbour
  assert.equal(WordNeighbours.fromBytes(staticModelV1(WORDS, VECTORS), { maxWords: 2 }).size, 2);
  w.dispose();
  assert.throws(() => w.similar('physician'), { code: 'DISPOSED' });
});

test('damaged model bytes and bad options are RagwasmErrors', () => {
  const bad = staticModelV1(WORDS, VECTORS);
  bad[40] ^= 0xff;
  assert.throws(() => WordNeighbours.fromBytes(bad), { code: 'CORRUPT_INDEX' });
  assert.throws(() => WordNeighbours.fromBytes('nope'), { code: 'INVALID_ARGUMENT' });
  assert.throws(() => WordNeighbours.fromBytes(staticModelV1(WORDS, VECTORS), { maxWords: -1 }), { code: 'INVALID_ARGUMENT' });
});

test('Bm25Index expansion adds in-vocabulary neighbours at weight x similarity', () => {
  const words = WordNeighbours.fromBytes(staticModelV1(WORDS, VECTORS));
  const idx = Bm25Index.create();
  idx.add(DOCS.map((d) => ({ id: d.id, text: d.text })));
  const expansion = { words, perTerm: 2, minSimilarity: 0.5, weight: 0.5 };
  // surgeon (1.0) is in no document, doctor (24/25) is; banana (7/25) is under the floor.
  assert.deepEqual(idx.expansionTerms('physician', { expansion }), [{ term: 'doctor', from: 'physician', word: 'doctor', similarity: 24 / 25, weight: 0.5 * (24 / 25) }]);
  assert.deepEqual(idx.search('physician'), []);
  const hits = idx.search('physician', { expansion });
  assert.deepEqual(hits.map((h) => h.id), ['clinic']);
  const plain = idx.search('doctor');
  // the expanded score is weight x the term's score (one product of doubles; 1e-15 relative)
  assert.ok(Math.abs(hits[0].score - 0.5 * (24 / 25) * plain[0].score) <= 1e-15 * plain[0].score);
  // deterministic
  assert.deepEqual(idx.search('physician', { expansion }), hits);
  // identifiers, numbers and capitals are not expanded; a word the documents use is kept as it is
  assert.deepEqual(idx.expansionTerms('LS-240 PHYSICIAN 240', { expansion }), []);
  const idx2 = Bm25Index.create();
  idx2.add([{ id: 's', text: 'The surgeon operates.' }, { id: 'c', text: 'The doctor sees patients.' }]);
  assert.deepEqual(idx2.expansionTerms('doctor', { expansion }).map((t) => [t.term, t.similarity]), [['surgeon', 24 / 25]]);
  assert.deepEqual(idx2.expansionTerms('doctor', { expansion: { ...expansion, unmatchedOnly: true } }), []);  // the documents use "doctor"
  idx2.dispose();
  assert.throws(() => idx.search('physician', { expansion: { perTerm: 2 } }), { code: 'INVALID_ARGUMENT' });
  assert.throws(() => idx.search('physician', { expansion: { ...expansion, perTerm: 0 } }), { code: 'INVALID_ARGUMENT' });
  assert.throws(() => idx.search('physician', { expansion, rm3: true }), { code: 'INVALID_ARGUMENT' });
  assert.throws(() => idx.expansionTerms('physician'), { code: 'INVALID_ARGUMENT' });
  assert.deepEqual(idx.search('physician', { expansion }), hits);  // still usable after the errors
  idx.dispose();
  words.dispose();
});

test('retrieval.expansion: one config key, validated, used by Collection.search and shown by explain', async () => {
  const cfg = { ...PRESETS.docChat, retrieval: { k: 5, expansion: { source: 'static', model: modelPath, minSimilarity: 0.5, weight: 0.5 } } };
  const normalized = parsePipelineConfig(cfg);
  assert.deepEqual(normalized.retrieval.expansion, { source: 'static', model: modelPath, perTerm: EXPANSION_DEFAULTS.perTerm, minSimilarity: 0.5, weight: 0.5, unmatchedOnly: false, maxWords: EXPANSION_DEFAULTS.maxWords });
  assert.equal(parsePipelineConfig(PRESETS.docChat).retrieval.expansion, undefined);
  assert.throws(() => parsePipelineConfig({ retrieval: { expansion: { source: 'wordnet' } } }), { code: 'INVALID_ARGUMENT', message: /retrieval\.expansion\.source/ });
  assert.throws(() => parsePipelineConfig({ retrieval: { expansion: { floor: 1 } } }), { code: 'INVALID_ARGUMENT', message: /retrieval\.expansion/ });
  assert.throws(() => parsePipelineConfig({ retrieval: { expansion: { weight: 0 } } }), { code: 'INVALID_ARGUMENT', message: /retrieval\.expansion\.weight/ });
  assert.throws(() => parsePipelineConfig({ indexes: { dense: {} }, retrieval: { expansion: {} } }), { code: 'INVALID_ARGUMENT', message: /no indexes\.bm25/ });

  const col = await Collection.create(cfg);
  await col.add(DOCS);
  const hits = await col.search('physician', { explain: true });
  assert.equal(hits[0].docId, 'clinic');
  assert.deepEqual(hits.diagnostics.expansion, [{ term: 'doctor', from: 'physician', word: 'doctor', similarity: 24 / 25, weight: 0.5 * (24 / 25) }]);
  const plain = await Collection.create(PRESETS.docChat);
  await plain.add(DOCS);
  assert.deepEqual(await plain.search('physician'), []);
  // the config (with its expansion) travels with the saved bytes
  const again = Collection.fromBytes(col.toBytes());
  assert.deepEqual((await again.search('physician')).map((h) => [h.id, h.score]), hits.map((h) => [h.id, h.score]));
  for (const c of [col, plain, again]) c.dispose();
});

test('createWordNeighbours reads a model file by path', async () => {
  const w = await createWordNeighbours({ model: modelPath, maxWords: 3 });
  assert.equal(w.size, 3);
  w.dispose();
});

test('ragwasm ask --config with retrieval.expansion answers a question in other words', async () => {
  const docs = join(dir, 'docs');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(docs, { recursive: true });
  writeFileSync(join(docs, 'clinic.md'), '# Clinic\n\nThe doctor sees patients every morning.\n');
  writeFileSync(join(docs, 'fruit.md'), '# Fruit\n\nBananas are yellow.\n');
  const config = join(dir, 'expansion.json');
  writeFileSync(config, JSON.stringify({ ...PRESETS.docChat, retrieval: { k: 10, expansion: { source: 'static', model: 'tiny.bin', minSimilarity: 0.5, weight: 0.5 } } }));
  const io = { out: '', err: '' };
  io.stdout = { write: (s) => { io.out += s; } };
  io.stderr = { write: (s) => { io.err += s; } };
  const code = await main(['ask', '--docs', docs, '--config', config, '--json', 'When does the physician see patients?'], io);
  assert.equal(code, 0, io.err);
  const r = JSON.parse(io.out.trim());
  assert.equal(r.hits[0].docId, 'clinic.md');
  // without the expansion key, the same question finds the clinic through "patients" only: the
  // expansion is what adds "doctor" (its score is higher with it)
  writeFileSync(config, JSON.stringify(PRESETS.docChat));
  const io2 = { out: '', err: '', stdout: { write: (s) => { io2.out += s; } }, stderr: { write: (s) => { io2.err += s; } } };
  assert.equal(await main(['ask', '--docs', docs, '--config', config, '--json', 'When does the physician see patients?'], io2), 0, io2.err);
  const r2 = JSON.parse(io2.out.trim());
  assert.equal(r2.hits[0].docId, 'clinic.md');
  assert.ok(r.hits[0].score > r2.hits[0].score, `${r.hits[0].score} > ${r2.hits[0].score}`);
  const io3 = { out: '', err: '', stdout: { write: (s) => { io3.out += s; } }, stderr: { write: (s) => { io3.err += s; } } };
  writeFileSync(config, JSON.stringify({ retrieval: { expansion: { perTerm: 99 } } }));
  assert.equal(await main(['ask', '--docs', docs, '--config', config, 'physician?'], io3), 2);
  assert.match(io3.err, /retrieval\.expansion\.perTerm/);
});
