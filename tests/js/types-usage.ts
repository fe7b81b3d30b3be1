// Typed usage of the public API: `tsc --noEmit -p tests/js/tsconfig.json` checks that the hand-written
// .d.ts files describe what a user writes. Each area adds its own usage below.
import { init, isInitialized, info, RagwasmError, ErrorCodes, createDocument, SentenceSplitter, splitSentences, foldText, findInvalidUtf8, decodeUtf8 } from '../../web/src/index.js';
import { extractText } from '../../web/src/parse.js';
import type { Chunk, Document, Sentence, ErrorCode } from '../../web/src/index.js';
import type { ExtractedText } from '../../web/src/parse.js';

export async function foundation(): Promise<number> {
  const loaded: { version: string; build: 'release' | 'debug' } = await init({ build: 'release' });
  const ready: boolean = isInitialized();
  const maxBytes: number = info().maxTextBytes;
  const limits: number = info().maxJsonDepth + info().maxAlignmentCells + info().maxJudgeReplyBytes;
  const doc: Document = createDocument({ id: 'a', text: 'One. Two.', metadata: { page: 1 } });
  const splitter = SentenceSplitter.create({ abbreviations: ['approx'], newlineBreaks: false });
  const sentences: Sentence[] = splitter.split(doc.text);
  splitter.dispose();
  const again: Sentence[] = splitSentences('A b. C d.');
  const folded: string = foldText('Ça', { lowercase: true, accents: true });
  const bad: number = findInvalidUtf8(new Uint8Array([0xff]));
  const decoded: string = decodeUtf8(new Uint8Array([0x61]), { fatal: false });
  const codes: readonly ErrorCode[] = ErrorCodes;
  try {
    splitSentences('x');
  } catch (e) {
    if (e instanceof RagwasmError) {
      const code: string = e.code;
      void code;
    }
  }
  const chunk: Chunk = { id: 'a#0', docId: 'a', text: 'One.', start: 0, end: 4, metadata: {} };
  void [loaded, ready, maxBytes, limits, folded, bad, decoded, codes, chunk];
  return sentences.length + again.length;
}

export async function parsing(bytes: Uint8Array): Promise<string> {
  const r: ExtractedText = await extractText({ name: 'a.pdf', data: bytes }, { format: 'pdf' });
  const firstPage = r.pages?.[0]?.page ?? 0;
  return `${r.format}:${firstPage}:${r.text}`;
}

export async function retrieval(): Promise<number> {
  const { Bm25Index, chunk, saveBytes, loadBytes } = await import('../../web/src/index.js');
  const { metrics } = await import('../../web/src/eval.js');
  const doc: Document = createDocument({ id: 'd', text: '# A\nalpha beta.\n\n# B\ngamma delta.' });
  const chunks: Chunk[] = chunk(doc, { strategy: 'markdown-header', chunkSize: 500 });
  const index = Bm25Index.create({ k1: 1.2, b: 0.75 });
  const added: number = index.add(chunks.map((c) => ({ id: c.id, text: c.text, metadata: { section: c.id } }))).added;
  const hits = index.search('gamma', { k: 5, filter: { section: { in: ['d#1'] } }, exact: true });
  const typo = index.search('gama', { fuzzy: 0.2, prefix: (t, i, terms) => i === terms.length - 1, combineWith: 'AND', boost: { text: 2 }, explain: true, filter: (h) => h.score > 0 });
  const kind: 'exact' | 'prefix' | 'fuzzy' | undefined = typo[0]?.matches?.[0]?.kind;
  const completions: Array<{ term: string; df: number }> = index.suggest('ga', { k: 3 });
  void kind; void completions;
  const bytes: Uint8Array = index.toBytes();
  await index.save('example-index-2');
  const again = await Bm25Index.load('example-index-2');
  again.dispose();
  void Bm25Index.fromBytes(bytes).upsert({ id: 'x', text: 'y' }).updated;
  void added;
  await saveBytes('example-index', bytes);
  const back = await loadBytes('example-index');
  index.dispose();
  const r = metrics.evaluateRun({ q: { 'd#1': 1 } }, { q: { [hits[0].id]: hits[0].score } }, { measures: ['ndcg_cut.10'] });
  return r.aggregate['ndcg_cut_10'] + (back ? back.length : 0);
}

export async function collectionJsonl(): Promise<number> {
  const { Collection, JSONL_FORMAT_VERSION } = await import('../../web/src/index.js');
  const embed = async (texts: string[]): Promise<Float32Array[]> => texts.map(() => new Float32Array(4));
  const col = await Collection.create({}, { embedder: embed, dimension: 4, keepVectors: true });
  const text: string = await col.exportJsonl({ vectors: true, header: true, onProgress: ({ done, total }: { done: number; total: number }) => void [done, total] });
  const lines: string[] = [];
  for await (const line of col.exportJsonlLines({ vectors: false, batchSize: 64 })) lines.push(line);
  const again = await Collection.importJsonl(text, { embedder: embed, keepVectors: false, signal: new AbortController().signal });
  const fromLines = await Collection.importJsonl(lines, { config: { indexes: { bm25: {} } }, batchSize: 128 });
  const up: { added: number; updated: number; removed: number; skipped: number; chunks: number } = await fromLines.upsert([{ id: 'a', text: 'x' }], { batchSize: 8 });
  // #14: titles, filters, document level, embedder identity, setEmbedder, zero vectors
  const kinds = { id: 'fixture', dimension: 4, embed: async (texts: string[], o?: { kind?: 'query' | 'document' }) => texts.map(() => new Float32Array(4).fill(o?.kind === 'query' ? 1 : 0.5)) };
  const titled = await Collection.create({ indexes: { bm25: { fields: { text: 1, title: 2 } }, dense: {} } }, { embedder: kinds });
  const added: { added: number; updated: number; documents: number; chunks: number; zeroVectors: string[] } = await titled.add([{ id: 'a', title: 'T', text: 'x', metadata: { lang: 'en', year: 2020 } }]);
  const one: { documents: number } = await titled.add({ id: 'b', text: 'one document, not an array' });
  void one;
  const chunkHits = await titled.search('x', { filter: { lang: 'en', year: { gte: 2019 } } });
  const docHits = await titled.search('x', { level: 'document', k: 3 });
  const best: string = docHits[0].bestChunk;
  const span: number = chunkHits[0].start;
  const info: { id: string; dimension: number } | null = titled.embedderInfo;
  await titled.setEmbedder(kinds, { signal: new AbortController().signal, onProgress: (p: { done: number; total: number }) => void [p.done, p.total] });
  const summary = Collection.inspect(titled.toBytes());
  const savedId: string | undefined = summary.embedder?.id;
  const isCollection: boolean = Collection.isCollectionBytes(titled.toBytes());
  void [added, best, span, info, savedId, isCollection, titled.disposed, titled.zeroVectors.size];
  const header: import('../../web/src/index.js').CollectionJsonlHeader = JSON.parse(text.split('\n')[0]);
  const chunk: import('../../web/src/index.js').CollectionJsonlChunk = JSON.parse(text.split('\n')[1] ?? '{}');
  for (const c of [col, again, fromLines]) c.dispose();
  return JSONL_FORMAT_VERSION + header.chunks + (chunk.vector?.length ?? 0);
}

// ---- doc chat (issue 15): presets, ask(), the answer stage ----
import { ask, isFollowUp, rewriteFollowUp, documentTitle, PRESETS, NO_ANSWER_TEXT, PASSAGES_TEXT, MIN_EVIDENCE, Collection as DocChatCollection } from '../../web/src/index.js';
import { fileToDocument } from '../../web/src/parse.js';
import type { AskResult } from '../../web/src/answer/ask-question.js';
async function docChatTypes(): Promise<void> {
  const col = await DocChatCollection.create(PRESETS.docChatBm25);
  const r: AskResult = await ask(col, 'How many days?', { k: 10, answerChunks: PRESETS.docChatAnswer.answerChunks, threshold: 0.35, history: [{ role: 'user', content: 'PTO?' }] });
  const first: number = r.citations.length ? r.citations[0].start : 0;
  const q: string = isFollowUp('and?', []) ? rewriteFollowUp('and?', []) : documentTitle('# T', 't.md');
  const d = await fileToDocument({ name: 'a.md', data: new Uint8Array(0) });
  void [first, q, d.title, NO_ANSWER_TEXT, r.abstained];
  // issue 27: three outcomes
  const o: 'answer' | 'passages' | 'not-found' = r.outcome;
  const best: number | undefined = r.passages[0]?.best?.start;
  const yn: 'yes' | 'no' | 'unclear' | null = r.polarity;
  const n = await ask(col, 'Who?', { minEvidence: MIN_EVIDENCE, threshold: PRESETS.docChatAnswer.threshold });
  void [o, best, yn, r.evidence + PRESETS.docChatAnswer.minEvidence, PASSAGES_TEXT, n.outcome];
}
void docChatTypes;

// ---- the Worker pool (issue 18): docs/parallel.md ----
import { Bm25Index as PoolBm25Index, Collection as PoolCollection } from '../../web/src/index.js';
import { WorkerPool, ShardedBm25Index, ShardedVectorIndex, createParallelEmbedder, defaultWorkers, MAX_WORKERS } from '../../web/src/parallel.js';
import type { CollectionStats } from '../../web/src/index.js';
import type { ParallelEmbedder } from '../../web/src/parallel.js';
async function parallelTypes(): Promise<void> {
  const pool = await WorkerPool.create({ workers: Math.min(defaultWorkers(), MAX_WORKERS), init: { build: 'release' } });
  const n: number = pool.size;
  const bm25 = await ShardedBm25Index.create({ fields: ['title', 'text'] }, { pool });
  const oneShard: ShardedBm25Index = await ShardedBm25Index.create({}, { pool, shards: 1 });
  const shardCount: number = oneShard.shards;
  await oneShard.dispose();
  await bm25.add([{ id: 'a', text: 'b' }]);
  const hits = await bm25.search('b', { k: 3, filter: { lang: 'en' }, exact: true });
  const many = await bm25.searchMany(['b', 'c'], { k: 2 });
  const stats: CollectionStats = await bm25.collectionStats();
  const one = PoolBm25Index.create();
  one.setGlobalStats(PoolBm25Index.sumStats([one.collectionStats(), stats]));
  const vectors = await ShardedVectorIndex.create({ dimension: 2, storage: 'int8' }, { workers: 2 });
  await vectors.add([{ id: 'v', vector: new Float32Array([1, 0]) }]);
  const near = await vectors.searchMany([[1, 0]], { k: 1 });
  const emb: ParallelEmbedder = await createParallelEmbedder({ pool, batch: 512 });
  const rows: Float32Array[] = await emb.embed(['x'], { kind: 'document' });
  const docRows: Float32Array[] = await emb.embedDocuments([{ id: 'd', title: 't', text: 'x' }], { fields: ['title', 'text'], onProgress: (p) => p.done });
  const col = await PoolCollection.create({}, { workers: 2 });
  const colBytes: Uint8Array = await col.toBytes();
  const reloaded = await PoolCollection.fromBytes(colBytes, { workers: 2 });
  const stored = await PoolCollection.load('x', { workers: 2, dir: '/tmp' });
  const plainBytes: Uint8Array = (await PoolCollection.create({}, { workers: 1 })).toBytes();
  const workersOf: number = col.workers + reloaded.workers + stored.workers;
  const up = await bm25.upsert([{ id: 'a', text: 'c' }]);
  const gone = await bm25.remove(['a'], { ignoreMissing: true });
  const terms: string[] = bm25.analyze('b c');
  await vectors.upsert({ id: 'v', vector: [0, 1] });
  await vectors.remove('v');
  await bm25.compact();
  const vdropped: number = await vectors.compact();
  const { vectorsDropped }: { vectorsDropped: number } = await col.compact();
  void [vdropped, vectorsDropped];
  const filtered = await vectors.search([1, 0], { k: 1, filter: new Set(['v']) });
  const onePool = await WorkerPool.create({ workers: 1, inThread: false });
  await Promise.all([bm25.dispose(), vectors.dispose(), emb.dispose(), pool.terminate(), onePool.terminate()]);
  void [n, hits[0].score, many.length, near[0][0].id, rows.length, docRows.length, bm25.shards, vectors.size, col, plainBytes, workersOf, up.updated, gone.removed, terms, filtered];
}
void parallelTypes;

// #16: one pipeline config for every command (applyConfigOverrides, autotune base, Collection.add chunkContexts).
import { applyConfigOverrides, Collection as Collection16 } from '../../web/src/index.js';
import { autotune as autotune16 } from '../../web/src/eval.js';
import type { ConfigOverrideChange, PipelineConfig } from '../../web/src/index.js';
export async function configOverrides16(): Promise<number> {
  const r = applyConfigOverrides('{"retrieval": {"k": 3}}', [{ path: 'retrieval.k', value: 0, source: '--k' }]);
  const cfg: PipelineConfig = r.config;
  const changed: ConfigOverrideChange[] = r.changed;
  const col = await Collection16.create(cfg);
  await col.add([{ id: 'a', text: 'x' }], { chunkContexts: (doc, chunks) => chunks.map(() => doc.title ?? '') });
  col.dispose();
  const t = await autotune16({ documents: [{ id: 'a', text: 'x' }], queries: [{ id: 'q', text: 'x' }], evidence: { q: ['x'] },
    base: { chunker: { strategy: 'markdown-header' } }, grid: { chunker: [{ strategy: 'markdown-header', chunkSize: 100 }] } });
  return changed.length + t.best.config.retrieval.k;
}

export async function inWorker(): Promise<number> {
  const { WorkerCollection } = await import('../../web/src/worker.js');
  const col = await WorkerCollection.create({}, {}, { init: { wasmUrl: '/ragwasm.wasm' } });
  await col.add([{ id: 'd', text: 'alpha' }], { onProgress: ({ done, total }) => void (done + total), signal: new AbortController().signal });
  const hits = await col.search('alpha', { k: 3, fuzzy: 0.2 });
  const bytes: Uint8Array = await col.toBytes();
  col.dispose();
  return hits.length + bytes.length + col.size;
}
