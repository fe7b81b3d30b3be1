// ragwasm tune --dataset DIR: autotune (web/src/pipeline/autotune.js) on a BEIR folder (train qrels when present,
// else test) or on examples/corpus-style folders (manifest.json + questions.jsonl with evidence).
import { readFileSync } from 'node:fs';
import { autotune, memoizeContextSteps } from '../../src/eval.js';
import { DatasetError, loadTuneDataset, readDocuments, readQrelsTsv, readQueries } from '../datasets.mjs';
import { tuneAgreement } from '../../src/llm.js';
import { commandConfig, CONTEXT_ENDPOINT_OPTIONS, contextClient, contextStep } from '../lib/config.mjs';
import { UsageError } from '../lib/options.mjs';
import { datasetOptions, FILE_LIMIT_OPTIONS } from '../lib/files.mjs';
import { embedderFor } from '../lib/retrievers.mjs';

const fmt = (v) => (Number.isInteger(v) ? String(v) : v.toFixed(4));

/** The autotune table as markdown, best row marked. */
export function tuneTable(r) {
  const lines = [
    `| # | chunk size/overlap | bm25 k1/b | fusion | k | ${r.metric} |`,
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const row of r.table) {
    const mark = row.index === r.best.index ? ' **best**' : '';
    lines.push(`| ${row.index} | ${row.chunker.chunkSize}/${row.chunker.chunkOverlap} | ${row.bm25.k1}/${row.bm25.b} | ${row.fusionLabel} | ${row.k} | ${fmt(row.value)}${mark} |`);
  }
  return lines.join('\n');
}

export default {
  name: 'tune',
  summary: 'autotune chunking, BM25 k1/b, fusion and k on labelled queries (markdown table of every setting)',
  usage: 'tune --dataset DIR [--config FILE [--context-url URL]] [--grid FILE] [--metric ndcg_cut.10] [--model FILE] [--max-queries N] [--qrels FILE [--queries FILE]] [--json]',
  description: 'DIR is a BEIR folder (tuned on qrels/train.tsv when present, else qrels/test.tsv) or a folder like '
    + 'examples/corpus (manifest.json + questions.jsonl; labels = evidence excerpts, metric recall|precision|mrr at k). '
    + 'FILE is JSON {chunker: [{chunkSize, chunkOverlap}], bm25: [{k1, b}], fusion: [{retriever} | {mode, normalization, '
    + 'weights, k}], k: [..]}; missing keys keep the default grid. --config FILE is the pipeline config the grid varies (the same '
    + 'file as for `eval`, `rag`, `experiment` and Collection.create): everything the grid does not vary (chunk strategy, chunk '
    + 'context, BM25 fields and analyzer, dense index options, candidates) is the config\'s (autotune options.base). The best '
    + 'row prints as a pipeline config usable with --config. A config with LLM context steps (chunker.context.llmSummary / '
    + 'llmChunkContext) runs them through --context-url: a summary per document, a context per chunk of each distinct chunking of a document, asked once (with --qrels, once for both label sets).',
  options: {
    ...FILE_LIMIT_OPTIONS,
    dataset: { type: 'string', help: 'BEIR folder or sample-corpus folder' },
    config: { type: 'string', help: 'pipeline config JSON file the grid varies (autotune base; docs/fusion.md)' },
    ...CONTEXT_ENDPOINT_OPTIONS,
    grid: { type: 'string', help: 'grid JSON file (default: 2 chunkers x 2 BM25 x 4 fusion x 2 k = 32 rows)' },
    metric: { type: 'string', help: 'qrels: a trec_eval measure (default ndcg_cut.10); evidence: recall (default), precision, mrr' },
    model: { type: 'string', help: 'static model file for the dense leg (default models/build/static-model.bin)' },
    'max-queries': { type: 'string', help: 'tune on the first N labelled queries only' },
    bootstrap: { type: 'string', default: '2000', help: 'bootstrap samples for the confidence interval (0 = none)' },
    json: { type: 'boolean', help: 'print the full result as JSON' },
    qrels: { type: 'string', help: 'tune on these qrels instead (e.g. LLM labels from `ragwasm label`), then report the chosen setting on the dataset\'s human labels' },
    queries: { type: 'string', help: 'with --qrels: the questions they judge (JSONL {id, question} or {_id, text}; default the dataset\'s)' },
    'human-metric': { type: 'string', help: 'with --qrels: the metric on the human labels (default as --metric\'s default for their kind)' },
  },
  async run(values, positionals, io) {
    let data;
    let grid;
    let embedder;
    let maxQueries;
    let samples;
    let base;
    let llm;
    try {
      if (values.config !== undefined) base = commandConfig(values, [], { stderr: io.stderr, command: 'ragwasm tune' }).config;
      const step = base ? contextStep(values, base) : undefined;
      if (!step && values['context-url'] !== undefined) throw new UsageError('--context-url: the config (--config) has no LLM context step (chunker.context.llmSummary / llmChunkContext) to send to it');
      if (step) llm = contextClient(values);
      if (!values.dataset || positionals.length) throw new UsageError('expected --dataset DIR (see --help)');
      if (values['max-queries'] !== undefined) {
        if (!/^\d+$/.test(values['max-queries']) || Number(values['max-queries']) < 1) throw new UsageError(`--max-queries: expected an integer >= 1, got '${values['max-queries']}'`);
        maxQueries = Number(values['max-queries']);
      }
      if (!/^\d+$/.test(values.bootstrap)) throw new UsageError(`--bootstrap: expected an integer >= 0, got '${values.bootstrap}'`);
      samples = Number(values.bootstrap);
      if (values.grid !== undefined) {
        try {
          grid = JSON.parse(readFileSync(values.grid, 'utf8'));
        } catch (e) {
          if (e.code === 'ENOENT') throw e;
          throw new UsageError(`--grid ${values.grid}: not valid JSON (${e.message})`);
        }
      }
      if (values.queries !== undefined && values.qrels === undefined) throw new UsageError('--queries goes with --qrels');
      try {
        data = await loadTuneDataset(values.dataset, datasetOptions(values, io, 'tune', UsageError));
      } catch (e) {
        // --qrels brings its own labels: a folder of documents without human labels is enough.
        if (!(e instanceof DatasetError) || values.qrels === undefined) throw e;
        data = { kind: 'no human labels', documents: await readDocuments(values.dataset, datasetOptions(values, io, 'tune', UsageError)), queries: [] };
      }
      if (values.qrels !== undefined) {
        const llm = {};
        for (const [q, rels] of readQrelsTsv(values.qrels, datasetOptions(values, io, 'tune', UsageError))) llm[q] = Object.fromEntries(rels);
        const pool = values.queries !== undefined ? readQueries(values.queries) : data.queries;
        data.llm = { qrels: llm, queries: pool.filter((q) => llm[q.id] !== undefined && q.text.trim()) };
        if (data.llm.queries.length === 0) throw new UsageError(`--qrels ${values.qrels}: none of its question ids has a question text (give --queries FILE)`);
      }
      const usesDense = !grid?.fusion || grid.fusion.some((f) => f?.retriever !== 'bm25');
      if (usesDense || base?.chunker.strategy === 'semantic') embedder = await embedderFor({ indexes: { dense: {} } }, values.model);
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      io.stderr.write(`ragwasm tune: ${e.message}\n`);
      return 2;
    }
    if (data.llm) {
      // Two autotune runs (LLM labels, human labels) over the same documents and grid: one LLM call per
      // document summary / chunk context, shared by both.
      if (llm) llm = memoizeContextSteps(llm);
      try {
        return await tuneOnQrels(values, data, { grid, embedder, samples, maxQueries, io, base, llm });
      } finally {
        embedder?.dispose?.();
      }
    }
    const queries = maxQueries ? data.queries.slice(0, maxQueries) : data.queries;
    const opts = { documents: data.documents, queries, grid, embedder, bootstrap: samples === 0 ? false : { samples } };
    if (base) opts.base = base;
    if (llm) opts.llm = llm;
    if (values.metric !== undefined) opts.metric = values.metric;
    if (data.qrels) opts.qrels = data.qrels;
    else opts.evidence = data.evidence;
    const t0 = performance.now();
    let r;
    try {
      r = await autotune(opts);
    } finally {
      embedder?.dispose?.();
    }
    const seconds = (performance.now() - t0) / 1000;
    if (values.json) {
      io.stdout.write(JSON.stringify({ dataset: values.dataset, source: data.kind, seconds, ...r }, null, 2) + '\n');
      return 0;
    }
    const b = r.best;
    const lines = [
      `dataset ${values.dataset} (${data.kind}), ${r.queries} queries, ${r.table.length} settings, ${seconds.toFixed(1)} s`,
      '',
      tuneTable(r),
      '',
      `best: #${b.index} chunk ${b.chunker.chunkSize}/${b.chunker.chunkOverlap}, bm25 k1 ${b.bm25.k1} b ${b.bm25.b}, ${b.fusionLabel}, k ${b.k}: ${r.metric} ${fmt(b.value)}`
        + (r.ci ? ` (${Math.round((1 - r.ci.alpha) * 100)}% bootstrap CI ${fmt(r.ci.low)}..${fmt(r.ci.high)}; vs #0 ${fmt(r.vsBaseline.meanDifference)} [${fmt(r.vsBaseline.low)}, ${fmt(r.vsBaseline.high)}])` : ''),
      `best as a pipeline config (--config): ${bestConfigJson(b, base)}`,
    ];
    if (r.llmCalls) lines.push(`LLM context steps: ${r.llmCalls.summaries} documents summarized, ${r.llmCalls.chunkContexts} chunk contexts written`);
    io.stdout.write(lines.join('\n') + '\n');
    return 0;
  },
};

// The best row's config: the whole config with --config (the base with the row), else its retrieval part.
function bestConfigJson(b, base) {
  return JSON.stringify(base ? b.config : { chunker: b.config.chunker, indexes: b.config.indexes, retrieval: b.config.retrieval });
}

// tune --qrels: tune on the given (LLM) labels; then, where the dataset has human labels, run the same
// grid on them and report how the chosen setting does there (tuneAgreement in web/src/goldens/label-pool.js).
async function tuneOnQrels(values, data, { grid, embedder, samples, maxQueries, io, base, llm: client }) {
  const bootstrap = samples === 0 ? false : { samples };
  const cut = (list) => (maxQueries ? list.slice(0, maxQueries) : list);
  const t0 = performance.now();
  const llmOpts = { documents: data.documents, queries: cut(data.llm.queries), qrels: data.llm.qrels, grid, embedder, bootstrap };
  if (base) llmOpts.base = base;
  if (client) llmOpts.llm = client;
  if (values.metric !== undefined) llmOpts.metric = values.metric;
  const llm = await autotune(llmOpts);
  let human = null;
  // The human-label run indexes the same chunks: it reuses the context steps' answers (memoizeContextSteps in run()).
  if (data.qrels || data.evidence) {
    const hOpts = { documents: data.documents, queries: cut(data.queries), grid, embedder, bootstrap: false };
    if (base) hOpts.base = base;
    if (client) hOpts.llm = client;
    if (data.qrels) hOpts.qrels = data.qrels;
    else hOpts.evidence = data.evidence;
    if (values['human-metric'] !== undefined) hOpts.metric = values['human-metric'];
    human = await autotune(hOpts);
  }
  const agreement = human ? tuneAgreement(llm, human) : null;
  const seconds = (performance.now() - t0) / 1000;
  if (values.json) {
    const contextCalls = client ? { summaries: client.stats.summaries, chunkContexts: client.stats.chunkContexts } : undefined;
    io.stdout.write(JSON.stringify({ dataset: values.dataset, qrels: values.qrels, seconds, llm, human, agreement, llmCalls: contextCalls }, null, 2) + '\n');
    return 0;
  }
  const b = llm.best;
  const lines = [
    `tuned on ${values.qrels}: ${llm.queries} queries, ${llm.table.length} settings, ${seconds.toFixed(1)} s`,
    '',
    tuneTable(llm),
    '',
    `best on these labels: #${b.index} chunk ${b.chunker.chunkSize}/${b.chunker.chunkOverlap}, bm25 k1 ${b.bm25.k1} b ${b.bm25.b}, ${b.fusionLabel}, k ${b.k}: ${llm.metric} ${fmt(b.value)}`,
    `best as a pipeline config (--config): ${bestConfigJson(b, base)}`,
  ];
  if (agreement) {
    const a = agreement;
    lines.push('', `on the human labels of ${values.dataset} (${data.kind}, ${human.queries} queries, ${a.humanMetric}):`,
      `  the setting chosen on ${values.qrels} (#${a.picked.index}) scores ${fmt(a.picked.humanValue)}; the best on human labels (#${a.humanBest.index}) ${fmt(a.humanBest.value)}; regret ${fmt(a.regret)}`,
      `  rank agreement of the ${a.rows} settings: spearman ${a.spearman === null ? 'n/a' : fmt(a.spearman)}, kendall ${a.kendall === null ? 'n/a' : fmt(a.kendall)}`);
  } else {
    lines.push('', `${values.dataset} has no human labels: nothing to verify the chosen setting on`);
  }
  if (client) lines.push('', `LLM context steps: ${client.stats.summaries} documents summarized, ${client.stats.chunkContexts} chunk contexts written (each once, shared by the runs on both label sets)`);
  io.stdout.write(lines.join('\n') + '\n');
  return 0;
}
