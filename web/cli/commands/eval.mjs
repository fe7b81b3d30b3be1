// ragwasm eval --dataset DIR: chunk -> BM25 index -> retrieve -> trec_eval-exact metrics, end to end.
// Chunk hits are mapped to documents by their best chunk score (qrels are document-level), then the
// document run is evaluated by src/metrics exactly as trec_eval -c would evaluate it.
import { writeFileSync } from 'node:fs';
import { applyConfigOverrides, Bm25Index, chunkTexts, Collection, llmContextSteps } from '../../src/index.js';
import { metrics } from '../../src/eval.js';
import { llmChunkContexts } from '../../src/llm.js';
import { loadDataset } from '../datasets.mjs';
import { engineUrl, openEngine } from '../lib/engine.mjs';
import { commandConfig, configFileBase, configOptions, configReranker, CONFIG_FLAGS, CONTEXT_ENDPOINT_OPTIONS, contextClient, contextStep } from '../lib/config.mjs';
import { intOption, parseChunker, UsageError } from '../lib/options.mjs';
import { datasetOptions, FILE_LIMIT_OPTIONS } from '../lib/files.mjs';
import { documentRanking, embedderFor, rankQueries, RETRIEVERS } from '../lib/retrievers.mjs';

// The flags of eval that are pipeline-config paths (web/cli/lib/config.mjs).
const CONFIG_FLAG_NAMES = ['chunker', 'retriever', 'rerank-model'];
// eval's own config when no --config is given (with --retriever dense|hybrid or --rerank-model): whole
// documents, each indexed as "title text" (the chunk context template {title}), BM25 on that one field.
export const EVAL_BASE_CONFIG = Object.freeze({
  chunker: { strategy: 'recursive', chunkSize: 100000000, chunkOverlap: 0, context: { template: '{title}', separator: ' ' } },
  indexes: { bm25: { fields: { text: 1 } } },
});

/** trec_eval measures of document rankings ({id, docs}) over the judged `queries` (trec_eval -c). */
function evaluateRankings(rankings, allQrels, queries, measures) {
  const run = metrics.Run.create({ runId: 'ragwasm-eval' });
  let qrels = null;
  try {
    for (const r of rankings) run.addQuery(r.id, r.docs.map((x) => x.id), r.docs.map((x) => x.score));
    const wanted = new Set(queries.map((q) => q.id));
    const judged = {};
    for (const [qid, rels] of allQrels) if (wanted.has(qid)) judged[qid] = Object.fromEntries(rels);
    qrels = metrics.Qrels.fromObject(judged);
    return metrics.evaluateRun(qrels, run, { measures: measures ?? ['ndcg_cut.10', 'recall.100', 'recip_rank', 'map'], completeQueries: true });
  } finally {
    run.dispose();
    qrels?.dispose();
  }
}

/**
 * Runs the pipeline and returns {measures: {name: value}, numQueries, chunks, timings}.
 * @param {{dataset: string, split?: string, chunker?: string, k?: number, chunkK?: number, measures?: string[], maxQueries?: number}} o
 */
export function runEval(o) {
  const t0 = performance.now();
  const data = loadDataset(o.dataset, o.split ?? 'test', o.datasetOptions);
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
  let result;
  let t3;
  let t4;
  try {
    index.add(items);
    t3 = performance.now();
    const k = o.k ?? 100;
    const chunkK = chunker ? (o.chunkK ?? k * 3) : k;
    const rankings = queries.map((q) => ({
      id: q.id,
      docs: documentRanking(index.search(q.text, { k: chunkK }).map((h) => ({ id: h.id, docId: docOf.get(h.id), score: h.score })), k),
    }));
    t4 = performance.now();
    result = evaluateRankings(rankings, data.qrels, queries, o.measures);
  } finally {
    index.dispose();
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

/**
 * The same evaluation through a Collection built from a pipeline config (--config FILE, --retriever
 * dense|hybrid, --rerank-model): chunks, indexes and retrieves as the config says (documents are given
 * as {id, title, text}: the config's fields and chunk context decide where the title goes), reranks
 * when its rerank section is on (o.reranker), maps chunk hits to documents by their best chunk.
 * A query the config cannot search (e.g. only stopwords with a BM25 leg) gets an empty ranking (scores 0).
 * @param {{dataset: string, config: object, chunker?: string, embedder?: object, reranker?: Function, chunkContexts?: Function, llm?: object, split?: string, k?: number,
 *   chunkK?: number, measures?: string[], maxQueries?: number, hits?: (queryId: string, hits: object[]) => void}} o
 *   hits: called with each query's chunk hits (the first retrieval.k), e.g. to compare commands
 */
export async function runPipelineEval(o) {
  const t0 = performance.now();
  const data = loadDataset(o.dataset, o.split ?? 'test', o.datasetOptions);
  const queries = o.maxQueries ? data.queries.slice(0, o.maxQueries) : data.queries;
  // o.config: a pipeline config (raw or normalized); o.chunker: a --chunker spec overriding its chunker.
  const overrides = o.chunker === undefined ? [] : CONFIG_FLAGS.chunker.paths(o.chunker).map(([path, value]) => ({ path, value, source: '--chunker' }));
  const cfg = applyConfigOverrides(o.config, overrides).config;
  const t1 = performance.now();
  const copts = o.embedder ? { embedder: o.embedder } : {};
  if (o.llm) copts.llm = o.llm;  // the config's LLM context steps (chunker.context.llmSummary / llmChunkContext)
  const col = await Collection.create(cfg, copts);
  let result;
  let t2;
  let t3;
  let chunks;
  let skipped = 0;
  try {
    const addOpts = { batchSize: 256 };
    if (o.chunkContexts) addOpts.chunkContexts = o.chunkContexts;
    chunks = (await col.add(data.corpus.map((d) => (d.title ? { id: d.id, title: d.title, text: d.text } : { id: d.id, text: d.text })), addOpts)).chunks;
    t2 = performance.now();
    const k = o.k ?? 100;
    const chunkK = o.chunkK ?? (chunks > data.corpus.length ? k * 3 : k);
    const search = async (text, id) => {
      const hits = await col.search(text, o.reranker ? { k: chunkK, reranker: o.reranker } : { k: chunkK });
      o.hits?.(id, hits.slice(0, cfg.retrieval.k));
      // Reranked hits rank by the reranker's score (their order); a document scores its best chunk by it.
      return hits.map((h) => (h.rerankScore === undefined ? h : { ...h, score: h.rerankScore }));
    };
    const rankings = [];
    for (const q of queries) {
      rankings.push(...await rankQueries([q], (text) => search(text, q.id), k, () => ++skipped));
    }
    t3 = performance.now();
    result = evaluateRankings(rankings, data.qrels, queries, o.measures);
  } finally {
    col.dispose();
  }
  const t4 = performance.now();
  const f = col.config.retrieval.fusion;
  const leg = col.legReport;
  const legNote = !leg ? '' : leg.weak.length > 0
    ? `; leg check: ${leg.weak.join(',')} benched, self-retrieval MRR@10 ${leg.legs.map((l) => `${l.retriever} ${l.mrr.toFixed(3)}`).join(' / ')}`
    : `; leg check: no weak leg${leg.decided ? '' : ' (too few probes)'}`;
  const rr = cfg.rerank.enabled && o.reranker ? ` + rerank ${cfg.rerank.type} (${cfg.rerank.candidates} -> ${cfg.rerank.keep})` : '';
  const ch = cfg.chunker;
  return {
    dataset: o.dataset,
    retriever: (col.config.retrieval.retrievers.length > 1 ? `hybrid (${f.mode} ${f.normalization} ${f.weights.join('/')}${legNote})` : col.config.retrieval.retrievers[0]) + rr,
    legCheck: leg ?? null,
    chunker: (ch.chunkSize >= 100000000 ? 'none' : `${ch.strategy}:${ch.chunkSize}/${ch.chunkOverlap}`) + (o.chunkContexts ? ' + LLM chunk context' : '')
      + llmContextSteps(cfg).map((st) => ` + ${st.key}`).join(''),
    chunkContextCalls: o.chunkContexts ? o.chunkContexts.stats.chunks : (o.llm?.stats?.calls ?? 0),
    // What the indexing LLM calls cost (the client's stats: null = unknown, a call had no price); 0 without LLM steps.
    indexingCost: o.chunkContexts ? o.chunkContexts.stats.cost : (o.llm?.stats ? o.llm.stats.cost : 0),
    documents: data.corpus.length,
    chunks,
    numQueries: result.numQueries,
    unsearchableQueries: skipped,
    measures: result.aggregate,
    timingsMs: { load: t1 - t0, index: t2 - t1, search: t3 - t2, evaluate: t4 - t3 },
  };
}

/**
 * The evaluation of a collection exported to PostgreSQL (`ragwasm export`): the same queries and
 * qrels as runPipelineEval, searched in the engine (PostgresRetriever), chunk hits mapped to documents
 * by their best chunk. The corpus file is not read: the documents are in the database.
 * @param {{dataset: string, engine: string, schema?: string, retriever?: string, model?: string, split?: string,
 *   k?: number, chunkK?: number, measures?: string[], maxQueries?: number}} o
 */
export async function runEngineEval(o) {
  const t0 = performance.now();
  const data = loadDataset(o.dataset, o.split ?? 'test', o.datasetOptions);
  const queries = o.maxQueries ? data.queries.slice(0, o.maxQueries) : data.queries;
  const t1 = performance.now();
  const { client, retriever, embedder, label } = await openEngine(o.engine, { schema: o.schema, modelPath: o.model });
  let result;
  let skipped = 0;
  let t2;
  const counts = retriever.meta.counts ?? { documents: 0, chunks: 0 };
  const legs = retriever.config.retrieval.retrievers;
  const which = o.retriever ?? (legs.length > 1 ? 'hybrid' : legs[0]);
  try {
    const k = o.k ?? 100;
    const chunkK = o.chunkK ?? (counts.chunks > counts.documents ? k * 3 : k);
    const rankings = await rankQueries(queries, (text) => retriever.search(text, { k: chunkK, retriever: which }), k, () => ++skipped);
    t2 = performance.now();
    result = evaluateRankings(rankings, data.qrels, queries, o.measures);
  } finally {
    retriever.dispose();
    embedder?.dispose();
    await client.end().catch(() => {});
  }
  const t3 = performance.now();
  return {
    dataset: o.dataset,
    engine: label,
    retriever: `${which} (postgres)`,
    chunker: `${retriever.config.chunker.strategy}:${retriever.config.chunker.chunkSize}/${retriever.config.chunker.chunkOverlap}`,
    documents: counts.documents,
    chunks: counts.chunks,
    numQueries: result.numQueries,
    unsearchableQueries: skipped,
    measures: result.aggregate,
    timingsMs: { load: t1 - t0, search: t2 - t1, evaluate: t3 - t2 },
  };
}

export default {
  name: 'eval',
  summary: 'chunk -> retrieve (BM25, dense, hybrid, + rerank: a pipeline config) -> trec_eval-exact metrics on a BEIR or CISI folder (markdown table)',
  usage: 'eval --dataset DIR [--config FILE] [--chunker recursive:1800/300|none] [--retriever bm25|dense|hybrid] [--rerank-model FILE] [--context-url URL] [--engine postgres://… [--schema S]] [--model FILE] [--k 100] [--metrics ndcg_cut.10,recall.100] [--hits FILE] [--json]',
  description: 'Without --config and with --retriever bm25 (the default), chunks are indexed with BM25 (Lucene k1 0.9, b 0.4, '
    + 'field text = title + " " + text). --config FILE is a pipeline JSON (parsePipelineConfig, the same file as for '
    + '`rag`, `tune`, `experiment` and Collection.create): its chunker, chunk context, indexes, retrievers, fusion and rerank '
    + 'section apply; --chunker, --retriever and --rerank-model override its paths (chunker.*, retrieval.retrievers, '
    + 'rerank.*; a replaced value is said on stderr). Without --config, --retriever dense|hybrid and --rerank-model start from '
    + 'whole documents indexed as "title text". A document scores its best chunk; every judged query is averaged '
    + '(trec_eval -c). --k is the evaluation depth (documents per query, from --chunk-k chunk hits), not retrieval.k. '
    + '--metrics takes trec_eval -m names separated by commas or semicolons (use ";" between measures that carry cutoff '
    + 'lists, e.g. "P.5,10;map"). --retriever dense uses the offline static model (--model FILE for another static model '
    + 'file); hybrid is the default hybrid pipeline (convex min-max, BM25 0.7 / dense 0.3; a leg the label-free leg check '
    + 'finds much weaker is benched, docs/fusion.md). A rerank section of type cross-encoder needs rerank.model (an .onnx '
    + 'file, tokenizer.json beside it or in its parent folder, or --rerank-tokenizer).',
  options: {
    ...FILE_LIMIT_OPTIONS,
    dataset: { type: 'string', help: 'BEIR folder (corpus.jsonl, queries.jsonl, qrels/) or CISI folder' },
    split: { type: 'string', default: 'test', help: 'BEIR qrels split' },
    ...configOptions(CONFIG_FLAG_NAMES, { chunker: 'default none', retriever: 'default bm25' }),
    'rerank-tokenizer': { type: 'string', help: 'tokenizer.json of the cross-encoder (default: found beside rerank.model)' },
    ...CONTEXT_ENDPOINT_OPTIONS,
    'context-url': { ...CONTEXT_ENDPOINT_OPTIONS['context-url'], help: `${CONTEXT_ENDPOINT_OPTIONS['context-url'].help}; without such steps in the config: contextual retrieval, each chunk's context written by it (llmChunkContexts) and indexed before the chunk text` },
    model: { type: 'string', help: 'static model file for the dense leg (default: the ragwasm-static-model package)' },
    k: { type: 'string', default: '100', help: 'documents per query (the evaluation depth)' },
    'chunk-k': { type: 'string', help: 'chunk hits fetched per query before mapping to documents (default 3 x k)' },
    metrics: { type: 'string', default: 'ndcg_cut.10,recall.100,recip_rank,map', help: 'trec_eval measures' },
    'max-queries': { type: 'string', help: 'evaluate only the first N judged queries' },
    hits: { type: 'string', help: 'write each query\'s first retrieval.k chunk hits as JSONL {queryId, hits: [{id, docId, score}]} (pipeline path)' },
    json: { type: 'boolean', help: 'print JSON instead of a markdown table' },
    engine: { type: 'string', help: 'postgres:// URL of a collection exported by `ragwasm export`: search it there' },
    schema: { type: 'string', default: 'ragwasm', help: 'with --engine: the PostgreSQL schema' },
  },
  async run(values, positionals, io) {
    if (!values.dataset || positionals.length) {
      io.stderr.write('ragwasm eval: expected --dataset DIR (see --help)\n');
      return 2;
    }
    let config;
    let embedder;
    let rerank;
    try {
      if (values.retriever !== undefined && !RETRIEVERS.includes(values.retriever)) {
        throw new UsageError(`--retriever: expected one of ${RETRIEVERS.join(', ')}, got '${values.retriever}'`);
      }
      if (values.chunker !== undefined) CONFIG_FLAGS.chunker.paths(values.chunker);
      if (values.engine !== undefined) {
        engineUrl(values.engine, '--engine');
        if (values.config !== undefined || values.chunker !== undefined) throw new UsageError('--config / --chunker: not with --engine (the exported collection has its config)');
      } else if (values.config !== undefined || (values.retriever ?? 'bm25') !== 'bm25' || values['rerank-model'] !== undefined || values.hits !== undefined || values['context-url'] !== undefined) {
        config = commandConfig(values, CONFIG_FLAG_NAMES, { base: EVAL_BASE_CONFIG, stderr: io.stderr, command: 'ragwasm eval' }).config;
        embedder = await embedderFor(config, values.model);
        rerank = await configReranker(config, { tokenizer: values['rerank-tokenizer'], baseDir: configFileBase(values, values.config) });
        contextStep(values, config);
      }
    } catch (e) {
      embedder?.dispose();
      if (!(e instanceof UsageError)) throw e;
      io.stderr.write(`ragwasm eval: ${e.message}\n`);
      return 2;
    }
    let o;
    try {
      const spec = values.metrics;
      const measures = spec.includes(';') ? spec.split(';') : spec.split(',').map((m) => m.trim()).filter(Boolean);
      o = {
        dataset: values.dataset, split: values.split, chunker: values.chunker ?? 'none', k: intOption(values.k, 'k'),
        chunkK: intOption(values['chunk-k'], 'chunk-k'), maxQueries: intOption(values['max-queries'], 'max-queries'), measures,
        datasetOptions: datasetOptions(values, io, 'eval'),
      };
    } catch (e) {
      embedder?.dispose();
      await rerank?.dispose();
      io.stderr.write(`ragwasm eval: ${e.message}\n`);
      return 2;
    }
    let r;
    const hitLines = [];
    try {
      if (values.engine !== undefined) {
        r = await runEngineEval({ ...o, engine: values.engine, schema: values.schema, retriever: values.retriever, model: values.model });
      } else if (config) {
        const client = contextClient(values);
        // A config with LLM context steps (chunker.context.llmSummary / llmChunkContext) runs them through
        // --context-url; without such keys --context-url is the chunk-context step (llmChunkContexts).
        const steps = llmContextSteps(config);
        const llm = steps.length > 0 ? client : undefined;
        const chunkContexts = steps.length === 0 && client ? llmChunkContexts(client) : undefined;
        r = await runPipelineEval({ ...o, chunker: undefined, config, embedder, reranker: rerank?.reranker, chunkContexts, llm,
          hits: values.hits ? (queryId, hits) => hitLines.push(JSON.stringify({ queryId, hits: hits.map((h) => (h.rerankScore === undefined
          ? { id: h.id, docId: h.docId, score: h.score } : { id: h.id, docId: h.docId, score: h.score, rerankScore: h.rerankScore })) })) : undefined });
      } else {
        r = runEval(o);
      }
    } finally {
      embedder?.dispose();
      await rerank?.dispose();
    }
    if (values.hits) writeFileSync(values.hits, hitLines.length ? `${hitLines.join('\n')}\n` : '');
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
      `retriever: ${r.retriever ?? 'bm25'}${r.chunkContextCalls ? `; ${r.chunkContextCalls} chunk-context LLM calls, indexing cost ${r.indexingCost === null ? 'unknown (no price)' : r.indexingCost.toFixed(6)}` : ''}${r.unsearchableQueries ? ` (${r.unsearchableQueries} queries had no searchable term: empty ranking)` : ''}`,
      `timings (ms): ${Object.entries(r.timingsMs).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')}`,
    ];
    io.stdout.write(lines.join('\n') + '\n');
    return 0;
  },
};
