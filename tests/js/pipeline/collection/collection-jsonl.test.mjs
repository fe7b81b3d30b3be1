// Collection JSONL export / import (web/src/pipeline/collection.js exportJsonl, exportJsonlLines, importJsonl):
// chunks + vectors + metadata for server-side engines, and back. An exported collection imports to
// identical search results (ids and scores) and exports byte-identically again; bad lines are
// rejected naming the line and field; nothing half-built is left behind.
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { init, createStaticEmbedder, RagwasmError } from '../../../../web/src/index.js';
import { Collection, JSONL_FORMAT_VERSION } from '../../../../web/src/index.js';
import { Bm25Index } from '../../../../web/src/index.js';
import { VectorIndex } from '../../../../web/src/index.js';
import { hashedBagOfWords, repoRoot, skipUnlessShared } from '../../helpers.mjs';

await init();

// 32-dim hashed bag of words, weighted and not normalized (so the float32 values are not "nice"
// after cosine normalization either): deterministic, no model needed.
const embed = async (texts) => hashedBagOfWords(texts, { normalize: false, weighted: true });

const docs = [
  { id: 'fr', text: 'Paris is the capital of France. The Seine flows through Paris.', metadata: { lang: 'en', population: 2.1e6, capital: true } },
  { id: 'de', text: 'Berlin is the capital of Germany. The Spree flows through Berlin.' },
  { id: 'none', text: '', metadata: { note: 'no chunks' } },
  { id: 'cook', text: 'Apple pie needs apples, butter, flour and sugar. Bake it for forty minutes.', metadata: { lang: 'en' } },
];
const SMALL = { chunker: { chunkSize: 40, chunkOverlap: 0 } };
const isCode = (code, re) => (e) => e instanceof RagwasmError && e.code === code && (re === undefined || re.test(e.message));

// Search output with raw per-retriever scores (explain) plus the raw index hits: equal only when the
// indexes hold the same chunks, vectors and statistics.
async function fingerprint(col, queries) {
  const out = [];
  for (const q of queries) {
    out.push(await col.search(q, { k: 10, explain: true }));
    if (col.bm25 && col.bm25.analyze(q).length > 0) out.push(col.bm25.search(q, { k: 10 }));
    if (col.dense) out.push(col.dense.search((await embed([q]))[0], { k: 10 }));
  }
  return JSON.parse(JSON.stringify(out));
}

test('the export has a header line then one line per chunk with the document metadata and float32-exact vectors', async () => {
  const col = await Collection.create(SMALL, { embedder: embed, dimension: 32, keepVectors: true });
  await col.add(docs);
  const lines = (await col.exportJsonl({ vectors: true })).trimEnd().split('\n').map((l) => JSON.parse(l));
  const [header, ...rest] = lines;
  assert.equal(header.type, 'ragwasm.collection');
  assert.equal(header.version, JSONL_FORMAT_VERSION);
  assert.deepEqual(header.config, col.config);
  assert.equal(header.dimension, 32);
  assert.equal(header.documents, 4);
  assert.equal(header.chunks, col.chunks.size);
  assert.equal(header.vectors, true);
  // the empty document is a typed line in its place; chunk lines have no type
  assert.deepEqual(rest.filter((l) => l.type !== undefined), [{ type: 'ragwasm.document', id: 'none', metadata: { note: 'no chunks' }, fields: { title: 'none' } }]);  // add() derived its title (#29)
  const chunks = rest.filter((l) => l.type === undefined);
  assert.equal(chunks.length, col.chunks.size);
  assert.deepEqual([...new Set(chunks.map((c) => c.docId))], ['fr', 'de', 'cook']);
  for (const c of chunks) {
    assert.deepEqual(Object.keys(c), ['id', 'docId', 'ordinal', 'text', 'start', 'end', 'metadata', 'fields', 'vector']);
    const doc = docs.find((d) => d.id === c.docId);
    assert.deepEqual(c.fields, { title: doc.id });  // add() derived the title (#29): no heading, the id
    assert.equal(doc.text.slice(c.start, c.end), c.text);
    assert.deepEqual(c.metadata, doc.metadata ?? {});
    const [expected] = await embed([c.text]);
    assert.equal(c.vector.length, 32);
    c.vector.forEach((x, j) => assert.ok(Object.is(Math.fround(x), expected[j]) && x === expected[j], `${c.id}[${j}]`));
  }
  // without vectors: the same lines minus the vector field; header: false drops the header line
  const plain = (await col.exportJsonl({ header: false })).trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(plain, rest.map(({ vector, ...c }) => c));  // eslint-disable-line no-unused-vars
  col.dispose();
});

test('a collection without kept vectors re-embeds on export and writes the same bytes', async () => {
  let calls = 0;
  const counting = async (texts) => { calls += texts.length; return embed(texts); };
  const kept = await Collection.create(SMALL, { embedder: embed, dimension: 32, keepVectors: true });
  const lean = await Collection.create(SMALL, { embedder: counting, dimension: 32 });
  await kept.add(docs);
  await lean.add(docs);
  calls = 0;
  const progress = [];
  const a = await lean.exportJsonl({ vectors: true, batchSize: 3, onProgress: ({ done, total }) => progress.push([done, total]) });
  assert.equal(calls, lean.chunks.size);  // every chunk embedded once
  assert.equal(a, await kept.exportJsonl({ vectors: true }));
  assert.equal(progress.at(-1)[0], lean.chunks.size);
  assert.ok(progress.length >= Math.ceil(lean.chunks.size / 3));
  // a bm25-only collection has no vectors to export
  const bm = await Collection.create({ indexes: { bm25: {} } });
  await assert.rejects(bm.exportJsonl({ vectors: true }), isCode('INVALID_ARGUMENT', /options\.vectors/));
  await assert.rejects(bm.exportJsonl({ vector: true }), isCode('INVALID_ARGUMENT', /unknown option 'vector'/));
  for (const c of [kept, lean, bm]) c.dispose();
});

const CONFIGS = {
  bm25: { indexes: { bm25: {} } },
  dense: { indexes: { dense: {} } },
  'dense hnsw': { indexes: { dense: { index: 'hnsw' } } },
  hybrid: {},
};

for (const [name, base] of Object.entries(CONFIGS)) {
  test(`export then import gives identical search results and an identical export (${name})`, async () => {
    const col = await Collection.create({ ...base, ...SMALL }, { embedder: embed, dimension: 32 });
    await col.add(docs);
    const queries = ['capital of Germany', 'apple pie', 'flows through', 'Seine river'];
    const dense = Boolean(col.dense);
    const first = await col.exportJsonl({ vectors: dense });
    let calls = 0;
    const counting = async (texts) => { calls += texts.length; return embed(texts); };
    const again = await Collection.importJsonl(first, { embedder: counting });  // config and dimension from the header
    assert.equal(calls, 0, 'vectors were taken from the file, not re-embedded');
    assert.deepEqual(again.config, col.config);
    assert.equal(again.size, col.size);
    assert.deepEqual(await fingerprint(again, queries), await fingerprint(col, queries));
    assert.equal(await again.exportJsonl({ vectors: dense }), first);
    // and the imported collection saves to the same bytes as the original
    assert.deepEqual(again.toBytes(), col.toBytes());
    if (dense) {
      // without vectors in the file the chunks are embedded on import: same results
      calls = 0;
      const third = await Collection.importJsonl(await col.exportJsonl(), { embedder: counting, batchSize: 2 });
      assert.equal(calls, col.chunks.size);
      assert.deepEqual(await fingerprint(third, queries), await fingerprint(col, queries));
      third.dispose();
    }
    col.dispose();
    again.dispose();
  });
}

test('SciFact with the static model: export with vectors and import give identical hits (bm25 dense hybrid)', async (t) => {
  const corpus = skipUnlessShared(t, 'data/scifact/corpus.jsonl');
  if (!corpus) return;
  const model = join(repoRoot, 'models/build/static-model.bin');
  if (!existsSync(model)) return t.skip('needs models/build/static-model.bin (node models/build-static-model.mjs)');
  const embedder = await createStaticEmbedder({ model: readFileSync(model) });
  const scifact = readFileSync(corpus, 'utf8').trim().split('\n').slice(0, 300).map((l) => JSON.parse(l))
    .map((d) => ({ id: String(d._id), text: `${d.title}\n${d.text}`, metadata: { title: d.title } }));
  const queries = ['smoking increases cancer risk', 'vitamin D deficiency in children', 'protein misfolding disease', 'stem cell therapy'];
  for (const [name, config] of Object.entries({ bm25: CONFIGS.bm25, dense: CONFIGS.dense, hybrid: {} })) {
    const col = await Collection.create(config, { embedder });
    await col.add(scifact);
    const dense = Boolean(col.dense);
    const lines = [];
    for await (const line of col.exportJsonlLines({ vectors: dense })) lines.push(line);
    // import from an async iterable of lines (as node:readline gives them)
    const again = await Collection.importJsonl((async function* () { yield* lines; })(), { embedder });
    for (const q of queries) {
      const a = await col.search(q, { k: 10, explain: true });
      const b = await again.search(q, { k: 10, explain: true });
      assert.deepEqual(JSON.parse(JSON.stringify(b)), JSON.parse(JSON.stringify(a)), `${name}: ${q}`);
      assert.ok(a.length > 0, `${name}: ${q}`);
    }
    assert.equal(await again.exportJsonl({ vectors: dense }), lines.join('\n') + '\n', name);
    col.dispose();
    again.dispose();
  }
  embedder.dispose();
});

test('importJsonl takes chunk lines without a header given a config and lines split across items', async () => {
  const col = await Collection.create({ ...SMALL, indexes: { bm25: {} } });
  await col.add(docs);
  const body = await col.exportJsonl({ header: false });
  // no header: the default config would need an embedder
  await assert.rejects(Collection.importJsonl(body), isCode('INVALID_ARGUMENT', /options\.embedder/));
  const items = body.split('\n');
  const pieces = [items.slice(0, 3).join('\n') + '\n', ...items.slice(3).map((l) => `${l}\r\n`)];  // several lines per item; CRLF
  const progress = [];
  const again = await Collection.importJsonl(pieces, { config: col.config, onProgress: ({ done, total }) => progress.push([done, total]), batchSize: 2 });
  assert.deepEqual(await again.search('capital of Germany', { k: 5 }), await col.search('capital of Germany', { k: 5 }));
  assert.equal(again.size, col.size);
  assert.deepEqual(progress.at(-1), [col.chunks.size, col.chunks.size]);
  // options.config overrides the header's
  const withHeader = await col.exportJsonl();
  const bigK = await Collection.importJsonl(withHeader, { config: { ...SMALL, indexes: { bm25: {} }, retrieval: { k: 2 } } });
  assert.equal((await bigK.search('capital', {})).length, 2);
  // an exported collection with vectors imports into a bm25-only config (the vectors are ignored)
  const hybrid = await Collection.create(SMALL, { embedder: embed, dimension: 32 });
  await hybrid.add(docs);
  const lexical = await Collection.importJsonl(await hybrid.exportJsonl({ vectors: true }), { config: { ...SMALL, indexes: { bm25: {} } } });
  assert.deepEqual(await lexical.search('apple pie', { k: 3 }), await col.search('apple pie', { k: 3 }));
  for (const c of [col, again, bigK, hybrid, lexical]) c.dispose();
});

test('bad JSONL lines are rejected naming the line and field', async () => {
  const col = await Collection.create(SMALL, { embedder: embed, dimension: 32 });
  await col.add(docs.slice(0, 2));
  const good = (await col.exportJsonl({ vectors: true })).trimEnd().split('\n');
  col.dispose();
  const header = JSON.parse(good[0]);
  const chunk = JSON.parse(good[1]);
  const n = good.length;
  const edit = (i, f) => good.map((l, j) => (j === i ? f(JSON.parse(l)) : l)).join('\n');
  const line = (o) => JSON.stringify(o);
  const cases = [
    ['bad JSON', good.map((l, j) => (j === 2 ? l.slice(0, -3) : l)).join('\n'), 'INVALID_ARGUMENT', /^ragwasm: line 3: not valid JSON/],
    ['NaN literal', edit(1, (c) => line(c).replace(/"vector":\[[^,]+/, '"vector":[NaN')), 'INVALID_ARGUMENT', /^ragwasm: line 2: not valid JSON/],
    ['NaN written by JSON.stringify (null)', edit(1, (c) => line({ ...c, vector: [NaN, ...c.vector.slice(1)] })), 'INVALID_ARGUMENT',
      /^ragwasm: line 2: vector\[0\]: expected a finite number with \|x\| <= 1e15, got null$/],
    ['huge value', edit(2, (c) => line({ ...c, vector: [...c.vector.slice(0, 5), 1e39, ...c.vector.slice(6)] })), 'INVALID_ARGUMENT', /^ragwasm: line 3: vector\[5\]: /],
    ['short vector', edit(2, (c) => line({ ...c, vector: c.vector.slice(1) })), 'DIMENSION_MISMATCH', /^ragwasm: line 3: vector: expected 32 numbers, got 31$/],
    ['vector not an array', edit(2, (c) => line({ ...c, vector: 'x' })), 'INVALID_ARGUMENT', /^ragwasm: line 3: vector: expected an array of 32 numbers/],
    ['duplicate chunk id', edit(3, () => line(chunk)), 'DUPLICATE_ID', /^ragwasm: line 4: id: chunk "fr#0" already appeared on line 2$/],
    ['id not docId#ordinal', edit(3, (c) => line({ ...c, id: chunk.id })), 'INVALID_ARGUMENT', /^ragwasm: line 4: id: expected "de#0" \(docId#ordinal\), got "fr#0"$/],
    ['header dimension vs embedder', edit(0, (h) => line({ ...h, dimension: 384 })), 'DIMENSION_MISMATCH', /^ragwasm: line 1: dimension: expected 32 \(the embedder's\), got 384$/],
    ['newer format', edit(0, (h) => line({ ...h, version: JSONL_FORMAT_VERSION + 1 })), 'UNSUPPORTED_VERSION', /^ragwasm: line 1: version: /],
    ['truncated file', good.slice(0, -1).join('\n'), 'INVALID_ARGUMENT', new RegExp(`^ragwasm: line 1: chunks: the header announces ${n - 1} chunks, the input has ${n - 2} \\(truncated\\?\\)$`)],
    ['bad header config', edit(0, (h) => line({ ...h, config: { ...h.config, retrieval: { k: -1 } } })), 'INVALID_ARGUMENT', /^ragwasm: line 1: config: retrieval\.k/],
    ['header not first', [good[1], good[0], ...good.slice(2)].join('\n'), 'INVALID_ARGUMENT', /^ragwasm: line 2: type: .* must be the first line/],
    ['unknown type', edit(2, (c) => line({ ...c, type: 'chunk' })), 'INVALID_ARGUMENT', /^ragwasm: line 3: type: /],
    ['unknown field', edit(2, (c) => line({ ...c, score: 1 })), 'INVALID_ARGUMENT', /^ragwasm: line 3: score: unknown field/],
    ['missing text', edit(2, ({ text, ...c }) => line(c)), 'INVALID_ARGUMENT', /^ragwasm: line 3: text: expected a string, got undefined$/],  // eslint-disable-line no-unused-vars
    ['empty id', edit(2, (c) => line({ ...c, id: '' })), 'INVALID_ARGUMENT', /^ragwasm: line 3: id: expected a non-empty string, got ""$/],
    ['negative start', edit(2, (c) => line({ ...c, start: -1 })), 'INVALID_ARGUMENT', /^ragwasm: line 3: start: expected an integer >= 0, got -1$/],
    ['end before start', edit(2, (c) => line({ ...c, end: c.start - 1 })), 'INVALID_ARGUMENT', /^ragwasm: line 3: end: /],
    ['metadata not an object', edit(2, (c) => line({ ...c, metadata: [1] })), 'INVALID_ARGUMENT', /^ragwasm: line 3: metadata: expected an object/],
    ['nested metadata', edit(2, (c) => line({ ...c, metadata: { ...c.metadata, tags: ['city'] } })), 'INVALID_ARGUMENT',
      /^ragwasm: line 3: metadata\.tags: expected a string, finite number, boolean or null, got an array of 1$/],
    ['metadata differs within a document', edit(2, (c) => line({ ...c, metadata: { lang: 'fr' } })), 'INVALID_ARGUMENT', /^ragwasm: line 3: metadata: differs .* line 2/],
    ['an array line', edit(2, () => '[1,2]'), 'INVALID_ARGUMENT', /^ragwasm: line 3: expected a JSON object, got an array of 2$/],
  ];
  assert.equal(chunk.id, 'fr#0');
  assert.equal(header.chunks, n - 1);
  for (const [name, text, code, re] of cases) {
    await assert.rejects(Collection.importJsonl(text, { embedder: embed, dimension: 32 }), (e) => {
      assert.ok(e instanceof RagwasmError, name);
      assert.equal(e.code, code, `${name}: ${e.message}`);
      assert.match(e.message, re, name);
      return true;
    });
  }
  const err = await Collection.importJsonl(edit(2, (c) => line({ ...c, vector: c.vector.slice(1) })), { embedder: embed }).catch((e) => e);
  assert.deepEqual(err.details, { line: 3, field: 'vector' });
  // the unedited lines import (the cases above fail because of the edit alone)
  const ok = await Collection.importJsonl(good.join('\n'), { embedder: embed });
  assert.equal(ok.size, 2);
  ok.dispose();
  await assert.rejects(Collection.importJsonl(42), isCode('INVALID_ARGUMENT', /input: expected a JSONL string/));
  await assert.rejects(Collection.importJsonl([good[0], 7], { embedder: embed }), isCode('INVALID_ARGUMENT', /input item 1/));
});

test('an import that fails or is aborted while building disposes its indexes', async () => {
  const col = await Collection.create(SMALL, { embedder: embed, dimension: 32 });
  await col.add(docs);
  const text = await col.exportJsonl();  // no vectors: the import embeds in batches
  col.dispose();
  const created = [];
  const origB = Bm25Index.create;
  const origV = VectorIndex.create;
  Bm25Index.create = (...a) => { const x = origB.apply(Bm25Index, a); created.push(x); return x; };
  VectorIndex.create = (...a) => { const x = origV.apply(VectorIndex, a); created.push(x); return x; };
  try {
    let batches = 0;
    const failing = async (texts) => {
      if (++batches === 2) return texts.map(() => new Float32Array(31));  // a wrong dimension on the second batch
      return embed(texts);
    };
    await assert.rejects(Collection.importJsonl(text, { embedder: failing, batchSize: 2 }), isCode('DIMENSION_MISMATCH', /embedder result\[0\]/));
    assert.equal(batches, 2);
    assert.equal(created.length, 2);
    assert.ok(created.every((x) => x.disposed), 'both indexes disposed after an embedder failure');

    created.length = 0;
    const ac = new AbortController();
    await assert.rejects(Collection.importJsonl(text, { embedder: embed, batchSize: 2, signal: ac.signal, onProgress: () => ac.abort() }), isCode('ABORTED'));
    assert.equal(created.length, 2);
    assert.ok(created.every((x) => x.disposed), 'both indexes disposed after an abort');

    // a line error is found before any index exists
    created.length = 0;
    await assert.rejects(Collection.importJsonl(text + '{"id":', { embedder: embed }), isCode('INVALID_ARGUMENT', /not valid JSON/));
    assert.equal(created.length, 0);
  } finally {
    Bm25Index.create = origB;
    VectorIndex.create = origV;
  }
});

test('removed and upserted documents export as they are now', async () => {
  const col = await Collection.create(SMALL, { embedder: embed, dimension: 32, keepVectors: true });
  await col.add(docs);
  col.remove(['de']);
  await col.add([{ id: 'fr', text: 'Lyon is a city in France.', metadata: { lang: 'fr' } }]);
  const text = await col.exportJsonl({ vectors: true });
  const chunks = text.trimEnd().split('\n').slice(1).map((l) => JSON.parse(l)).filter((l) => l.type === undefined);
  assert.deepEqual([...new Set(chunks.map((c) => c.docId))], ['cook', 'fr']);  // the upsert moved fr to the end
  assert.ok(chunks.filter((c) => c.docId === 'fr').every((c) => c.metadata.lang === 'fr'));
  assert.equal(col._vectors.size, col.chunks.size);  // kept vectors follow removals
  const again = await Collection.importJsonl(text, { embedder: embed });
  assert.deepEqual(await again.search('city in France', { k: 5 }), await col.search('city in France', { k: 5 }));
  assert.equal(await again.exportJsonl({ vectors: true }), text);
  col.dispose();
  again.dispose();
});
