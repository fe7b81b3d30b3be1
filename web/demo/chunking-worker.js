// Module Worker of the chunking playground: chunks a document with each configuration
// (compareChunkings), and for sample-corpus documents with labelled questions, chunks the whole
// corpus, indexes the chunks with BM25 and measures evidence recall@k (evaluateEvidence).
import { init, chunkAsync, createStaticEmbedder, parsePipelineConfig } from '../src/index.js';
import { compareChunkings, metrics } from '../src/eval.js';

const { evaluateEvidence } = metrics;

const MODEL_URL = new URL('../../models/build/static-model.bin', import.meta.url).href;
let corpusPromise = null;
let embedderPromise = null;

/** The semantic strategy embeds sentence groups with the default static model (loaded on first use). */
async function withEmbedders(configs) {
  if (!configs.some((c) => c.strategy === 'semantic')) return configs;
  embedderPromise ??= createStaticEmbedder({ model: MODEL_URL, cache: false }).catch((e) => { embedderPromise = null; throw e; });
  const e = await embedderPromise;
  const embedder = async (texts) => e.embedSync(texts);
  return configs.map((c) => (c.strategy === 'semantic' ? { ...c, embedder } : c));
}
let sparse;  // the BM25 module, or null when the BM25 index is not there

async function loadCorpus(url) {
  corpusPromise ??= fetch(url).then((r) => {
    if (!r.ok) throw new Error(`could not fetch the sample corpus (${r.status})`);
    return r.json();
  });
  return corpusPromise;
}

async function loadSparse() {
  if (sparse === undefined) sparse = await import('../src/index.js').catch(() => null);
  return sparse;
}

const progress = (id, phase, done, total) => self.postMessage({ type: 'progress', id, phase, done, total });

/** BM25 over chunks: returns, per question, the top maxK chunk indexes. */
function bm25TopK(mod, chunks, queries, maxK) {
  const index = mod.Bm25Index.create();
  try {
    const docs = chunks.map((c, i) => ({ id: String(i), text: c.text }));
    index.add(docs);
    return queries.map((q) => index.search(q, { k: maxK }).map((hit) => Number(hit.id)));
  } finally {
    index.dispose?.();
  }
}

async function evidenceCurves(id, data, configs, corpus) {
  const questions = corpus.questions.filter((q) => q.answerable !== false && q.evidence?.length && q.doc_ids?.includes(data.doc.id));
  if (questions.length === 0) return { note: 'This document has no labelled questions.' };
  const mod = await loadSparse();
  if (!mod || !mod.Bm25Index) return { note: 'Evidence recall needs the BM25 module (the BM25 index), which this build does not have yet.' };
  const maxK = data.maxK ?? 20;
  const out = [];
  for (let c = 0; c < configs.length; c++) {
    progress(id, `evidence ${'AB'[c]}: chunking the corpus`, c * 2, configs.length * 2);
    const all = [];
    for (const d of corpus.documents) for (const ch of await chunkAsync(d, configs[c])) all.push({ text: ch.text, docId: d.id, start: ch.start, end: ch.end });
    progress(id, `evidence ${'AB'[c]}: BM25 search`, c * 2 + 1, configs.length * 2);
    const top = bm25TopK(mod, all, questions.map((q) => q.question), maxK);
    const r = evaluateEvidence(questions.map((q, i) => ({
      evidence: q.evidence.map((t) => ({ text: t })),
      chunks: top[i].map((j) => ({ text: all[j].text, docId: all[j].docId })),
    })), { cutoffs: [1, 3, 5, 10], maxK });
    out.push({ curve: Array.from(r.curve), recall: r.recall, mrr: r.mrr, corpusChunks: all.length });
  }
  return { questions: questions.map((q) => ({ id: q.id, question: q.question })), configs: out, maxK };
}

self.onmessage = async ({ data }) => {
  const { id } = data;
  try {
    const t0 = performance.now();
    const loaded = await init();
    if (data.type === 'hello') { self.postMessage({ type: 'ready', id, version: loaded.version, build: loaded.build }); return; }
    // A pipeline config: validated by the library (errors name the JSON path); its normalized chunker section.
    if (data.type === 'config') { self.postMessage({ type: 'config', id, chunker: parsePipelineConfig(data.text).chunker }); return; }
    progress(id, 'chunking', 0, 1);
    const configs0 = await withEmbedders(data.configs);
    const results = await compareChunkings(data.doc, configs0);
    const t1 = performance.now();
    const configs = results.map((r) => {
      const spans = new Uint32Array(r.chunks.length * 2);
      const headerPaths = new Array(r.chunks.length);
      const tokens = new Uint32Array(r.chunks.length);
      r.chunks.forEach((c, i) => { spans[2 * i] = c.start; spans[2 * i + 1] = c.end; headerPaths[i] = c.headerPath; tokens[i] = c.tokenEstimate; });
      return { count: r.chunks.length, spans, headerPaths, tokens, stats: r.stats };
    });
    self.postMessage({ type: 'chunks', id, configs, ms: t1 - t0 }, configs.flatMap((c) => [c.spans.buffer, c.tokens.buffer]));
    let evidence = null;
    if (data.corpusUrl) {
      const corpus = await loadCorpus(data.corpusUrl);
      if (corpus.documents.some((d) => d.id === data.doc.id && d.text === data.doc.text)) {
        evidence = await evidenceCurves(id, data, configs0, corpus);
      }
    }
    self.postMessage({ type: 'done', id, evidence, ms: performance.now() - t0 });
  } catch (e) {
    self.postMessage({ type: 'error', id, error: { code: e.code ?? 'INTERNAL', message: e.message ?? String(e) } });
  }
};
