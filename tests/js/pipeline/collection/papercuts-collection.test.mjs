// Issue #29 item 3, the Collection papercuts: load()/fromBytes() pick the default static model when the
// saved embedder is it; an aborted add()/upsert() leaves the collection exactly as it was (abort while
// chunking, while embedding, between batches); onProgress reports per document and within a large
// document; add() derives a title with documentTitle(); no hit from a leg with score <= 0.
import test, { before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Collection, createStaticEmbedder, init, RagwasmError } from '../../../../web/src/index.js';

before(async () => { await init(); });

const isCode = (code, re) => (e) => e instanceof RagwasmError && e.code === code && (re === undefined || re.test(e.message));

const DOCS = [
  { id: 'fr', text: 'Paris is the capital of France. The Seine flows through Paris.' },
  { id: 'de', text: 'Berlin is the capital of Germany. The Spree flows through Berlin.' },
  { id: 'cook', text: 'Apple pie needs apples, butter, flour and sugar.' },
];

// A small bag-of-words embedder (dimension 16): words hashed into dims 0..14, always positive.
function bag(text) {
  const v = new Float32Array(16);
  for (const w of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    let h = 7;
    for (const ch of w) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
    v[h % 15] += 1;
  }
  return v;
}

test('load() and fromBytes() use the default static model when the saved embedder is it', async () => {
  const col = await Collection.create();
  await col.add(DOCS);
  const want = await col.search('capital of Germany', { k: 3 });
  const dir = mkdtempSync(join(tmpdir(), 'rw-pc29-'));
  await col.save('kb', { dir });
  const bytes = col.toBytes();
  const loaded = await Collection.load('kb', { dir });
  assert.deepEqual(await loaded.search('capital of Germany', { k: 3 }), want);
  assert.equal(loaded.embedderInfo.id, col.embedderInfo.id);
  const again = await Collection.fromBytes(bytes);
  assert.deepEqual(await again.search('capital of Germany', { k: 3 }), want);
  assert.deepEqual(again.toBytes(), loaded.toBytes());
  for (const c of [col, loaded, again]) c.dispose();
});

test('a collection saved with another embedder still needs it, named in the error', async () => {
  for (const id of ['static-16d-00000000', 'my-model']) {
    const col = await Collection.create({}, { embedder: { id, dimension: 16, embed: async (texts) => texts.map(bag) } });
    await col.add(DOCS);
    const bytes = col.toBytes();
    await assert.rejects(async () => Collection.fromBytes(bytes), isCode('INVALID_ARGUMENT', new RegExp(`built with the embedder '${id}'`)));
    const dir = mkdtempSync(join(tmpdir(), 'rw-pc29-'));
    await col.save('kb', { dir });
    await assert.rejects(Collection.load('kb', { dir }), isCode('INVALID_ARGUMENT', new RegExp(`'${id}'`)));
    col.dispose();
  }
});

// The state an aborted add must leave unchanged.
async function snapshot(col) {
  const hits = [];
  for (const q of ['capital city', 'apple pie', 'river document']) hits.push(await col.search(q, { k: 10 }));
  return { size: col.size, chunks: col.chunks.size, docs: [...col.docs.keys()], hits, bytes: col.toBytes() };
}

function many(n, tag) {
  return Array.from({ length: n }, (_, i) => ({ id: i === 4 || i === 9 ? DOCS[i === 4 ? 0 : 2].id : `${tag}${i}`,  // two replace a document
    text: `River document ${tag} ${i}. ` + 'The capital city has a river and an apple market. '.repeat(4) }));
}

// Abort points: [where, options builder(controller) -> {options, embedHook}]
const ABORTS = {
  'at the first progress call': (c) => ({ options: { onProgress: () => c.abort() } }),
  'while chunking (chunkContexts, 5th document)': (c) => {
    let n = 0;
    return { options: { chunkContexts: (doc, chunks) => { if (++n === 5) c.abort(); return chunks.map(() => ''); } } };
  },
  'during embedding (3rd embed call, mid-way)': (c) => ({ embedHook: (call) => { if (call === 3) c.abort(); } }),
  'during embedding (last embed call)': (c) => ({ embedHook: (call, last) => { if (last) c.abort(); } }),
};

for (const method of ['add', 'upsert']) {
  for (const [where, make] of Object.entries(ABORTS)) {
    test(`${method}() aborted ${where} leaves the collection exactly as it was`, async () => {
      let calls = 0;
      let hook = null;
      let expected = 0;
      const embedder = {
        id: 'bag-16', dimension: 16,
        async embed(texts, { signal } = {}) {
          calls += 1;
          hook?.(calls, calls === expected);
          await new Promise((r) => setTimeout(r, 1));  // an embedder that awaits: the abort lands mid-way
          if (signal?.aborted) throw new RagwasmError('ABORTED', 'aborted');
          return texts.map(bag);
        },
      };
      const col = await Collection.create({ chunker: { chunkSize: 60, chunkOverlap: 0 } }, { embedder });
      await col.add(DOCS);
      const before = await snapshot(col);
      const docs = many(12, method);
      // how many embed calls the whole add makes (on a twin collection), so "last" is the last
      const twin = await Collection.create({ chunker: { chunkSize: 60, chunkOverlap: 0 } }, { embedder });
      calls = 0;
      await twin[method](docs, { batchSize: 2 });
      expected = calls;
      assert.ok(expected >= 4, `embed calls: ${expected}`);
      twin.dispose();
      calls = 0;
      const c = new AbortController();
      const { options = {}, embedHook = null } = make(c);
      hook = embedHook;
      await assert.rejects(col[method](docs, { batchSize: 2, signal: c.signal, ...options }), isCode('ABORTED'));
      hook = null;
      assert.deepEqual(await snapshot(col), before);
      // and it still adds
      const r = await col[method](docs, { batchSize: 2 });
      assert.equal(r.documents, docs.length);
      col.dispose();
    });
  }
}

test('onProgress reports within a 4 MB document, monotone, one object shape', async () => {
  const col = await Collection.create();
  const para = 'The warranty covers repairs of the pump for two years after delivery. ';
  const big = para.repeat(Math.ceil(4_000_000 / para.length));
  const docs = [{ id: 'small', text: 'A small note about pumps.' }, { id: 'big', text: big }, { id: 'tail', text: 'Another short note.' }];
  const calls = [];
  await col.add(docs, { onProgress: (p) => calls.push(p) });
  const total = docs.reduce((n, d) => n + d.text.length, 0);
  assert.ok(calls.length >= 10, `progress calls: ${calls.length}`);
  for (const p of calls) {
    assert.deepEqual(Object.keys(p).sort(), ['documents', 'done', 'total', 'totalDocuments', 'unit']);
    assert.equal(p.total, total);
    assert.equal(p.unit, 'characters');
    assert.equal(p.totalDocuments, 3);
  }
  for (let i = 1; i < calls.length; i++) {
    assert.ok(calls[i].done >= calls[i - 1].done && calls[i].documents >= calls[i - 1].documents, `call ${i}`);
  }
  // within the big document: calls strictly between its start and its end
  const start = docs[0].text.length;
  assert.ok(calls.filter((p) => p.done > start && p.done < start + big.length).length >= 8);
  assert.deepEqual(calls.at(-1), { done: total, total, unit: 'characters', documents: 3, totalDocuments: 3 });
  // a call per document: the small first document reports before the big one is done
  assert.ok(calls.some((p) => p.documents === 1 && p.done === start));
  col.dispose();
});

test('add() derives a title with documentTitle() when a document has none', async () => {
  const col = await Collection.create();
  await col.add([
    { id: 'hr/leave.md', text: '# Leave Policy\n\nEmployees get 22 days off a year.' },
    { id: 'policies/warranty.md', text: 'Repairs are free for two years after delivery.' },
    { id: 'given', title: 'Own title', text: '# Heading\n\nText.' },
    { id: 'none', title: null, text: '# Not a title\n\nText.' },
  ]);
  assert.equal(col.docs.get('none').title, undefined);  // title: null keeps it without one
  assert.equal(col.docs.get('hr/leave.md').title, 'Leave Policy');
  assert.equal(col.docs.get('policies/warranty.md').title, 'warranty');
  assert.equal(col.docs.get('given').title, 'Own title');
  // the BM25 title field: "warranty" is only in the derived title
  const hits = await col.search('warranty', { k: 3, explain: true });
  assert.equal(hits[0].docId, 'policies/warranty.md');
  assert.equal(hits[0].title, 'warranty');
  assert.ok(hits[0].contributions.some((x) => x.retriever === 'bm25' && x.raw > 0));
  col.dispose();
});

test('no hit from a leg with score <= 0 ("zebra giraffe")', async () => {
  // documents in dims 0..14, the query in dim 15 only: cosine 0 with every chunk
  const embedder = { id: 'split-16', dimension: 16, embed: async (texts, { kind } = {}) => texts.map((t) => {
    if (kind !== 'query' || !/zebra/.test(t)) return bag(t);
    const v = new Float32Array(16); v[15] = 1; return v;
  }) };
  const col = await Collection.create({}, { embedder });
  await col.add(DOCS);
  assert.deepEqual(await col.search('zebra giraffe', { k: 5 }), []);
  assert.ok((await col.search('capital of France', { k: 5 })).length > 0);
  col.dispose();
  const def = await Collection.create();
  await def.add(DOCS);
  const hits = await def.search('zebra giraffe', { k: 5, explain: true });
  for (const h of hits) for (const x of h.contributions) if (x.present) assert.ok(x.raw > 0, JSON.stringify(x));
  def.dispose();
});
