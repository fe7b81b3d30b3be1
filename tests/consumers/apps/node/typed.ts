// A TypeScript user's file, type-checked with `tsc --strict` against the types of the installed
// tarball (consumers.test.mjs). It follows README.md "The JS API at a glance" and the docs' examples
// (docs/collection.md, docs/docchat.md, docs/fusion.md, docs/llm.md) as written; it is compiled, not run.
import { init, chunk, Bm25Index, VectorIndex, Collection, PRESETS, ask, fuse, createStaticEmbedder, RagwasmError } from 'ragwasm';
import { metrics } from 'ragwasm/eval';
import { fileToDocument } from 'ragwasm/parse';
import { createLlmClient } from 'ragwasm/llm';

export async function readme(): Promise<number> {
  await init();
  const doc = { id: 'handbook', text: '# Leave\nStaff get 22 days of paid leave a year.', metadata: { title: 'Handbook' } };
  const chunks = chunk(doc, { strategy: 'markdown-header', chunkSize: 500 });
  const lines: string[] = chunks.map((c) => `${c.id} ${c.start}-${c.end} ${c.headerPath}`);
  const index = Bm25Index.create();
  index.add(chunks.map((c) => ({ id: c.id, text: c.text })));
  const hits = index.search('how many days of leave', { k: 2 });
  const run = { q1: Object.fromEntries(hits.map((h) => [h.id, h.score])) };
  const result = metrics.evaluateRun({ q1: { 'handbook#0': 1 } }, run, { measures: ['ndcg_cut.10', 'recip_rank'] });
  index.dispose();
  return lines.length + result.aggregate.recip_rank;
}

export async function collection(file: File): Promise<string> {
  await init();
  const embedder = await createStaticEmbedder();
  const col = await Collection.create({
    chunker: { strategy: 'markdown-header', context: { template: '{title}', headerPath: true } },
    indexes: { bm25: { fields: [{ name: 'text', boost: 1 }, { name: 'title', boost: 2 }] }, dense: {} },
  }, { embedder });
  const { zeroVectors } = await col.add([{ id: 'hr', title: 'Leave policy', text: '# Leave', metadata: { lang: 'en', year: 2024 } }]);
  await col.add({ id: 'one', text: 'one document' });
  await col.add([await fileToDocument(file)]);
  const hits = await col.search('paid leave in Belgium', { k: 5, filter: { lang: 'en', year: { gte: 2023 } } });
  const docs = await col.search('paid leave', { level: 'document', k: 3 });
  await col.save('kb');
  const again = await Collection.load('kb', { embedder });
  const r = await ask(again, 'How many days of PTO?', { ...PRESETS.docChatAnswer });
  const cited: number = r.citations[0]?.start ?? -1;
  return `${zeroVectors.length} ${hits[0]?.docId} ${docs[0]?.bestChunk} ${r.answer} ${cited}`;
}

export function fusion(bm25: Bm25Index, vectors: VectorIndex, query: string, queryVector: Float32Array): string[] {
  const { hits, diagnostics } = fuse(
    [{ retriever: 'bm25', hits: bm25.search(query, { k: 100 }) }, { retriever: 'dense', hits: vectors.search(queryVector, { k: 100 }) }],
    { mode: 'rrf', rrfK: 60, k: 10 });
  return [...hits.map((h) => h.id), ...diagnostics.warnings.map(String)];
}

export async function llm(baseUrl: string): Promise<string> {
  const client = createLlmClient({ provider: 'openai', baseUrl, model: 'm', timeoutMs: 5000 });
  try {
    const r = await client.complete({ messages: [{ role: 'user', content: 'hi' }], maxTokens: 20 });
    return r.text;
  } catch (e) {
    if (e instanceof RagwasmError) return e.code;
    throw e;
  }
}
