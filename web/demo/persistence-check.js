// Persistence check page (driven by tests/browser/persistence.test.mjs): ?step=
//   build    build a Bm25Index and a hybrid Collection (BM25 + static-model dense + fusion) from the
//            sample corpus, save both via storage.js, run the queries
//   load     load both from storage (after a page reload), run the same queries
//   corrupt  overwrite the stored copies with changed bytes (saveBytes), try to load -> error codes
//   restore  rebuild from the corpus and save again (the API keeps no backup copy), load, run queries
// The outcome is JSON in #result and the error codes are shown in #status.
import { init, Bm25Index, Collection, createStaticEmbedder, saveBytes, loadBytes, storageBackend, listStored } from '../src/index.js';

const BM25_NAME = 'persistence-check-bm25';
const COL_NAME = 'persistence-check-collection';
const QUERIES = ['When was Larkspire founded?', 'soil moisture probe', 'warranty for the data logger', 'how do I reset the device'];
const MODEL_URL = new URL('../../models/build/static-model.bin', import.meta.url).href;

const step = new URLSearchParams(location.search).get('step') ?? 'build';
document.getElementById('step').textContent = step;

async function corpus() {
  const res = await fetch(new URL('../dist/corpus.json', import.meta.url));
  return (await res.json()).documents.map((d) => ({ id: d.id, text: d.text }));
}

async function build(embedder) {
  const docs = await corpus();
  const bm25 = Bm25Index.create();
  bm25.add(docs);
  const col = await Collection.create({ chunker: { chunkSize: 400, chunkOverlap: 40 } }, { embedder });
  await col.add(docs);
  return { bm25, col };
}

async function run(bm25, col) {
  const out = { bm25: {}, collection: {} };
  for (const q of QUERIES) {
    out.bm25[q] = bm25.search(q, { k: 5 }).map((h) => [h.id, h.score]);
    out.collection[q] = (await col.search(q, { k: 5 })).map((h) => [h.id, h.docId, h.score]);
  }
  return out;
}

function codeOf(fn) {
  try {
    fn();
    return 'OK';
  } catch (e) {
    return e?.code ?? String(e);
  }
}
async function codeOfAsync(fn) {
  try {
    await fn();
    return 'OK';
  } catch (e) {
    return e?.code ?? String(e);
  }
}

// Flips bytes in the middle of a copy (the length and magic stay the same, so only the checksum notices).
function damaged(bytes) {
  const b = bytes.slice();
  const mid = b.length >> 1;
  for (let i = 0; i < 16; i++) b[mid + i] ^= 0x5a;
  return b;
}

async function main() {
  await init();
  const backend = await storageBackend();
  document.getElementById('backend').textContent = backend;
  const embedder = await createStaticEmbedder({ model: MODEL_URL });
  const result = { step, backend };
  if (step === 'build' || step === 'restore') {
    const { bm25, col } = await build(embedder);
    await saveBytes(BM25_NAME, bm25.toBytes());
    await col.save(COL_NAME);
    result.sizes = { bm25: (await loadBytes(BM25_NAME)).length, collection: (await loadBytes(COL_NAME)).length };
    result.chunks = col.size;
    result.hits = await run(bm25, col);
    if (step === 'restore') {
      const bm25b = Bm25Index.fromBytes(await loadBytes(BM25_NAME));
      const colb = await Collection.load(COL_NAME, { embedder });
      result.reloaded = await run(bm25b, colb);
    }
  } else if (step === 'load') {
    const bm25 = Bm25Index.fromBytes(await loadBytes(BM25_NAME));
    const col = await Collection.load(COL_NAME, { embedder });
    result.chunks = col.size;
    result.hits = await run(bm25, col);
  } else if (step === 'corrupt') {
    const goodBm25 = await loadBytes(BM25_NAME);
    const goodCol = await loadBytes(COL_NAME);
    await saveBytes(BM25_NAME, damaged(goodBm25));
    await saveBytes(COL_NAME, damaged(goodCol));
    const storedBm25 = await loadBytes(BM25_NAME);
    const storedCol = await loadBytes(COL_NAME);
    result.storedIsDamagedCopy = storedBm25.length === goodBm25.length && storedCol.length === goodCol.length &&
      storedBm25.some((v, i) => v !== goodBm25[i]) && storedCol.some((v, i) => v !== goodCol[i]);
    result.codes = {
      bm25: codeOf(() => Bm25Index.fromBytes(storedBm25)),
      collection: await codeOfAsync(() => Collection.load(COL_NAME, { embedder })),
      bm25Truncated: codeOf(() => Bm25Index.fromBytes(goodBm25.subarray(0, goodBm25.length - 7))),
      collectionTruncated: codeOf(() => Collection.fromBytes(goodCol.subarray(0, goodCol.length >> 1), { embedder })),
    };
    // The in-memory good bytes still load (nothing else was disturbed by the failed loads).
    result.goodStillLoads = codeOf(() => Bm25Index.fromBytes(goodBm25)) === 'OK' && codeOf(() => Collection.fromBytes(goodCol, { embedder })) === 'OK';
  }
  result.stored = await listStored();
  document.getElementById('result').textContent = JSON.stringify(result);
  document.getElementById('status').textContent = result.codes ? `errors: ${Object.values(result.codes).join(' ')}` : 'done';
  document.body.dataset.done = 'ok';
}

main().catch((e) => {
  document.getElementById('status').textContent = `failed: ${e?.code ?? ''} ${e?.message ?? e}`;
  document.body.dataset.done = 'error';
});
