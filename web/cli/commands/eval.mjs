// ragwasm eval --dataset DIR: chunk -> BM25 index -> retrieve -> trec_eval-exact metrics, end to end.
// Chunk hits are mapped to documents by their best chunk score (qrels are document-level), then the
// document run is evaluated by src/metrics exactly as trec_eval -c would evaluate it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Bm25Index, chunkTexts, metrics } from '../../src/index.js';
import { loadBeir, loadCisi } from '../datasets.mjs';

/** "recursive:1800/300" -> {strategy, chunkSize, chunkOverlap}; "none" -> null (whole documents). */
export function parseChunker(spec) {
  if (spec === 'none') return null;
  const m = /^([a-z-]+)(?::(\d+)(?:\/(\d+))?)?$/.exec(spec);
  if (!m) throw new Error(`--chunker: expected NAME[:SIZE[/OVERLAP]] (e.g. recursive:1800/300) or none, got '${spec}'`);
  const o = { strategy: m[1] };
  if (m[2] !== undefined) o.chunkSize = Number(m[2]);
  if (m[3] !== undefined) o.chunkOverlap = Number(m[3]);
  return o;
}

function loadDataset(dir, split) {
  if (existsSync(join(dir, 'corpus.jsonl'))) return loadBeir(dir, { split });
  if (existsSync(join(dir, 'CISI.ALL'))) return loadCisi(dir);
  throw new Error(`--dataset: ${dir} has neither corpus.jsonl (BEIR) nor CISI.ALL`);
}

/**
 * Runs the pipeline and returns {measures: {name: value}, numQueries, chunks, timings}.
 * @param {{dataset: string, split?: string, chunker?: string, k?: number, chunkK?: number, measures?: string[], maxQueries?: number}} o
 */
export function runEval(o) {
  const t0 = performance.now();
  const data = loadDataset(o.dataset, o.split ?? 'test');
  const queries = o.maxQueries ? data.queries.slice(0, o.maxQueries) : data.queries;
  const chunker = parseChunker(o.chunker ?? 'none');
  const t1 = performance.now();
  const docOf = new Map();
  const items = [];
  for (const d of data.corpus) {
    const text = d.title ? `${d.title} ${d.text}` : d.text;
    const pieces = chunker ? chunkTexts(text, chunker) : [text];
    pieces.forEach((p, i) => {
      const id = chunker ? `${d.id}#${i}` : d.id;
      docOf.set(id, d.id);
      items.push({ id, text: p });
    });
  }
  const t2 = performance.now();
  const index = Bm25Index.create({ fields: ['text'] });
  const judged = {};
  const run = metrics.Run.create({ runId: 'ragwasm-eval' });
  let qrels = null;
  let result;
  let t3;
  let t4;
  try {
    index.add(items);
    t3 = performance.now();
    const k = o.k ?? 100;
    const chunkK = chunker ? (o.chunkK ?? k * 3) : k;
    for (const q of queries) {
      const best = new Map();
      for (const h of index.search(q.text, { k: chunkK })) {
        const doc = docOf.get(h.id);
        if (!best.has(doc) || best.get(doc) < h.score) best.set(doc, h.score);
      }
      const docs = [...best.entries()].sort((a, b) => (b[1] - a[1]) || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).slice(0, k);
      run.addQuery(q.id, docs.map((x) => x[0]), docs.map((x) => x[1]));
    }
    t4 = performance.now();
    const wanted = new Set(queries.map((q) => q.id));
    for (const [qid, rels] of data.qrels) {
      if (!wanted.has(qid)) continue;
      judged[qid] = Object.fromEntries(rels);
    }
    qrels = metrics.Qrels.fromObject(judged);
    result = metrics.evaluateRun(qrels, run, { measures: o.measures ?? ['ndcg_cut.10', 'recall.100', 'recip_rank', 'map'], completeQueries: true });
  } finally {
    index.dispose();
    run.dispose();
    if (qrels) qrels.dispose();
  }
  const t5 = performance.now();
  return {
    dataset: o.dataset,
    chunker: o.chunker ?? 'none',
    documents: data.corpus.length,
    chunks: items.length,
    numQueries: result.numQueries,
    measures: result.aggregate,
    timingsMs: { load: t1 - t0, chunk: t2 - t1, index: t3 - t2, search: t4 - t3, evaluate: t5 - t4 },
  };
}

export default {
  name: 'eval',
  summary: 'chunk -> BM25 -> retrieve -> trec_eval-exact metrics on a BEIR or CISI folder (markdown table)',
  usage: 'eval --dataset DIR [--chunker recursive:1800/300|none] [--retriever bm25] [--k 100] [--metrics ndcg_cut.10,recall.100] [--json]',
  description: 'Chunks are indexed with BM25 (Lucene k1 0.9, b 0.4, field text = title + " " + text); a document '
    + 'scores its best chunk; every judged query is averaged (trec_eval -c). --metrics takes trec_eval -m names '
    + 'separated by commas or semicolons (use ";" between measures that carry cutoff lists, e.g. "P.5,10;map").',
  options: {
    dataset: { type: 'string', help: 'BEIR folder (corpus.jsonl, queries.jsonl, qrels/) or CISI folder' },
    split: { type: 'string', default: 'test', help: 'BEIR qrels split' },
    chunker: { type: 'string', default: 'none', help: 'NAME[:SIZE[/OVERLAP]] of web/src/chunk.js, or none' },
    retriever: { type: 'string', default: 'bm25', help: 'only bm25 for now' },
    k: { type: 'string', default: '100', help: 'documents per query' },
    'chunk-k': { type: 'string', help: 'chunk hits fetched per query before mapping to documents (default 3 x k)' },
    metrics: { type: 'string', default: 'ndcg_cut.10,recall.100,recip_rank,map', help: 'trec_eval measures' },
    'max-queries': { type: 'string', help: 'evaluate only the first N judged queries' },
    json: { type: 'boolean', help: 'print JSON instead of a markdown table' },
  },
  async run(values, positionals, io) {
    if (!values.dataset || positionals.length) {
      io.stderr.write('ragwasm eval: expected --dataset DIR (see --help)\n');
      return 2;
    }
    if (values.retriever !== 'bm25') {
      io.stderr.write(`ragwasm eval: --retriever: only 'bm25' is available, got '${values.retriever}'\n`);
      return 2;
    }
    const int = (v, name) => {
      if (v === undefined) return undefined;
      if (!/^\d+$/.test(v) || Number(v) < 1) throw new Error(`--${name}: expected an integer >= 1, got '${v}'`);
      return Number(v);
    };
    let o;
    try {
      const spec = values.metrics;
      const measures = spec.includes(';') ? spec.split(';') : spec.split(',').map((m) => m.trim()).filter(Boolean);
      o = {
        dataset: values.dataset, split: values.split, chunker: values.chunker, k: int(values.k, 'k'),
        chunkK: int(values['chunk-k'], 'chunk-k'), maxQueries: int(values['max-queries'], 'max-queries'), measures,
      };
      parseChunker(o.chunker);
    } catch (e) {
      io.stderr.write(`ragwasm eval: ${e.message}\n`);
      return 2;
    }
    const r = runEval(o);
    if (values.json) {
      io.stdout.write(JSON.stringify(r, null, 2) + '\n');
      return 0;
    }
    const names = Object.keys(r.measures);
    const lines = [
      `| dataset | chunker | docs | chunks | queries | ${names.join(' | ')} |`,
      `| --- | --- | --- | --- | --- | ${names.map(() => '---').join(' | ')} |`,
      `| ${r.dataset.split('/').filter(Boolean).pop()} | ${r.chunker} | ${r.documents} | ${r.chunks} | ${r.numQueries} | ${names.map((n) => (Number.isInteger(r.measures[n]) ? r.measures[n] : r.measures[n].toFixed(4))).join(' | ')} |`,
      '',
      `timings (ms): ${Object.entries(r.timingsMs).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')}`,
    ];
    io.stdout.write(lines.join('\n') + '\n');
    return 0;
  },
};
