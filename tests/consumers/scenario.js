// The calls every consumer app makes, written once: copied into each fixture app at test time and run
// in Node against the repo's own web/src/index.js for the expected results. Plain ES module with no
// imports: each app passes the functions it imported from the installed package, so a bundler sees
// only what that app uses (the BM25-only app passes init, chunk and Bm25Index).

export const DOCS = [
  {
    id: 'handbook',
    text: '# Travel\nBook economy class for flights under 6 hours. Business class needs a director\'s approval.\n\n' +
      '# Leave\nStaff get 22 days of paid leave a year. Unused days carry over until March.',
  },
  {
    id: 'security',
    text: '# Passwords\nUse a password manager and at least 14 characters.\n\n' +
      '# Laptops\nLaptops are encrypted. Report a lost laptop to the help desk within one hour.',
  },
  {
    id: 'benefits',
    text: '# Health\nThe health plan covers dental care and glasses once a year.\n\n' +
      '# Parental leave\nParents get 16 weeks of parental leave at full pay.',
  },
];

export const QUERIES = { q1: 'how many days of paid leave', q2: 'lost laptop', q3: 'flights business class approval' };
// Chunk-level judgments for the BM25 run (markdown-header chunks: #0 is a document's first section)
// and document-level ones for the Collection's run (its default chunking differs).
export const CHUNK_QRELS = { q1: { 'handbook#1': 1, 'benefits#1': 1 }, q2: { 'security#1': 1 }, q3: { 'handbook#0': 1 } };
export const DOC_QRELS = { q1: { handbook: 1, benefits: 1 }, q2: { security: 1 }, q3: { handbook: 1 } };
export const MEASURES = ['ndcg_cut.10', 'recip_rank', 'P.3', 'recall.3', 'map'];
export const CHUNKING = { strategy: 'markdown-header', chunkSize: 500 };

// Hits as [id, score] pairs: ids are compared exactly, scores too (the same .wasm on the same input
// gives the same bits in Node and in Chromium; any difference is a bug worth seeing).
const hitPairs = (hits) => hits.map((h) => [h.id, h.score]);

/** init + chunk + Bm25Index + search: all the BM25-only app uses. */
export async function bm25Scenario({ init, chunk, Bm25Index }) {
  const info = await init();
  const chunks = DOCS.flatMap((d) => chunk(d, CHUNKING));
  const index = Bm25Index.create();
  try {
    index.add(chunks.map((c) => ({ id: c.id, text: c.text })));
    const bm25 = {};
    for (const [q, text] of Object.entries(QUERIES)) bm25[q] = hitPairs(index.search(text, { k: 3 }));
    return {
      version: info.version,
      chunks: chunks.map((c) => [c.id, c.start, c.end, c.headerPath ?? null]),
      bm25,
    };
  } finally {
    index.dispose();
  }
}

// A run ({query: {id: score}}) from [id, score] hit lists, keeping each id's best score.
function toRun(hitLists, idOf = (id) => id) {
  const run = {};
  for (const [q, hits] of Object.entries(hitLists)) {
    run[q] = {};
    for (const [id, score] of hits) if (!(idOf(id) in run[q])) run[q][idOf(id)] = score;
  }
  return run;
}

/**
 * The BM25 part, then a Collection with the default config and the default embedder (documents
 * ranked by their best chunk), then metrics.evaluateRun on both runs.
 */
export async function fullScenario({ init, chunk, Bm25Index, Collection, metrics }) {
  const out = await bm25Scenario({ init, chunk, Bm25Index });
  const collection = await Collection.create();  // no embedder: the package's default static model
  try {
    await collection.add(DOCS);
    out.collection = {};
    const docOf = {};
    for (const [q, text] of Object.entries(QUERIES)) {
      const hits = await collection.search(text, { k: 3 });
      out.collection[q] = hits.map((h) => [h.id, h.docId, h.score]);
      for (const h of hits) docOf[h.id] = h.docId;
    }
    const collectionHits = Object.fromEntries(Object.entries(out.collection).map(([q, hits]) => [q, hits.map(([id, , score]) => [id, score])]));
    out.evaluation = {
      bm25: metrics.evaluateRun(CHUNK_QRELS, toRun(out.bm25), { measures: MEASURES }).aggregate,
      collection: metrics.evaluateRun(DOC_QRELS, toRun(collectionHits, (id) => docOf[id]), { measures: MEASURES }).aggregate,
    };
  } finally {
    collection.dispose?.();
  }
  return out;
}

// The PDF the ONNX app parses (tests/fixtures/make-pdf.mjs writes it at test time) and its queries.
export const PDF_PAGES = [
  ['Expense policy.', 'Taxis are refunded after 10 pm.', 'Hotel rooms cost at most 180 euros a night.'],
  ['Remote work.', 'Staff may work from home two days a week.', 'The office closes at 8 pm.'],
];
export const PDF_QUERIES = ['hotel price per night', 'working from home'];

/**
 * ragwasm/parse + ragwasm/onnx: text from a PDF, sentence chunks, BM25 hits, and ONNX embeddings of
 * the chunks and queries. `model` is a URL or path of the .onnx file, `tokenizerJson` its tokenizer.json
 * text, `pdf` the PDF bytes.
 */
export async function onnxScenario({ init, chunk, Bm25Index, createOnnxEmbedder, extractText }, { model, tokenizerJson, pdf }) {
  const info = await init();
  const doc = await extractText({ name: 'policy.pdf', data: pdf });
  const chunks = chunk({ id: 'policy', text: doc.text }, { strategy: 'sentence', chunkSize: 60 });
  const index = Bm25Index.create();
  const bm25 = {};
  try {
    index.add(chunks.map((c) => ({ id: c.id, text: c.text })));
    for (const q of PDF_QUERIES) bm25[q] = hitPairs(index.search(q, { k: 2 }));
  } finally {
    index.dispose();
  }
  const embedder = await createOnnxEmbedder({ model, tokenizer: { tokenizerJson } });
  try {
    const vectors = await embedder.embed(chunks.map((c) => c.text));
    const queryVectors = await embedder.embed(PDF_QUERIES, { kind: 'query' });
    return {
      version: info.version,
      pages: doc.pages,
      text: doc.text,
      chunks: chunks.map((c) => [c.id, c.start, c.end]),
      bm25,
      dims: embedder.dims ?? embedder.dimension,
      vectors: vectors.map((v) => Array.from(v)),
      queryVectors: queryVectors.map((v) => Array.from(v)),
    };
  } finally {
    await embedder.dispose?.();
  }
}

/** {name, code, message} of a thrown value, for reporting across postMessage / page.evaluate. */
export function errorInfo(e) {
  return { name: e?.name ?? typeof e, code: e?.code ?? null, message: String(e?.message ?? e) };
}

/** Runs fn and reports {threw: false} or {threw: true, name, code, message}: for the boundary-error checks. */
export async function attempt(fn) {
  try {
    await fn();
    return { threw: false };
  } catch (e) {
    return { threw: true, ...errorInfo(e) };
  }
}

/** Settles a scenario promise into {ok, result} or {ok: false, error}. */
/**
 * The Worker pool (issue #18): two Workers created by the package's own
 * `new Worker(new URL('./worker.js', import.meta.url), {type: 'module'})`, which the app's bundler must
 * follow; the two shards must rank every query as one Bm25Index does.
 */
export async function poolScenario({ init, Bm25Index, ShardedBm25Index }) {
  await init();
  const docs = DOCS.map((d) => ({ id: d.id, text: d.text }));
  const one = Bm25Index.create();
  one.add(docs);
  const sharded = await ShardedBm25Index.create({}, { workers: 2 });
  try {
    await sharded.add(docs);
    const out = { shards: sharded.shards, same: true, hits: 0 };
    for (const q of Object.values(QUERIES)) {
      const got = await sharded.search(q, { k: 3 });
      out.hits += got.length;
      if (JSON.stringify(got) !== JSON.stringify(one.search(q, { k: 3 }))) out.same = false;
    }
    return out;
  } finally {
    await sharded.dispose();
    one.dispose();
  }
}

/**
 * ragwasm/worker (issue 29): a Collection in the package's own module Worker
 * (`new Worker(new URL('./collection-worker.js', import.meta.url), {type: 'module'})`, which the app's
 * bundler must follow), created, filled with progress, searched (also with fuzzy), an error thrown in the
 * Worker re-thrown on the page as a RagwasmError, and its bytes moved out.
 */
export async function workerScenario({ WorkerCollection, RagwasmError }, workerOptions = {}) {
  const col = await WorkerCollection.create({}, {}, workerOptions);
  try {
    let progress = 0;
    await col.add(DOCS, { onProgress: () => { progress += 1; } });
    const out = { collection: {}, progress: progress > 0, size: col.size };
    for (const [q, text] of Object.entries(QUERIES)) {
      out.collection[q] = (await col.search(text, { k: 3 })).map((h) => [h.id, h.docId, h.score]);
    }
    out.fuzzy = (await col.search('pasword manger', { k: 1, fuzzy: 0.2 })).map((h) => h.docId);
    out.error = await col.search('').then(() => null, (e) => [e instanceof RagwasmError, e.code]);
    out.bytes = (await col.toBytes()).length > 0;
    return out;
  } finally {
    col.dispose();
  }
}

export function settle(promise) {
  return promise.then((result) => ({ ok: true, result }), (e) => ({ ok: false, error: errorInfo(e) }));
}

/** Browser pages: shows the outcome and leaves it on window.__consumer for the test to read. */
export function report(promise) {
  return Promise.resolve(promise).then((outcome) => {
    globalThis.__consumer = outcome;
    const out = globalThis.document?.getElementById('out');
    if (out) out.textContent = JSON.stringify(outcome, null, 1);
  });
}
