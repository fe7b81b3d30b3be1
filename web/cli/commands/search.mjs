// ragwasm search INDEX (--query TEXT | --queries FILE): TREC run lines `qid Q0 docid rank score tag`.
import { readFileSync, writeFileSync } from 'node:fs';
import { Bm25Index, Collection, parsePipelineConfig } from '../../src/index.js';
import { readQrelsTsv, readQueries, trecLines } from '../datasets.mjs';
import { engineUrl, openEngine } from '../lib/engine.mjs';
import { UsageError } from '../lib/options.mjs';
import { embedderFor, rankQueries, retrieverConfig } from '../lib/retrievers.mjs';

/** The retrieval section to search a loaded collection with (--retriever / --config), or null (its own). */
function retrievalFor(values, colConfig) {
  if (values.retriever === undefined && values.config === undefined) return null;
  const wanted = retrieverConfig(values, { bm25Plain: false });
  const retrieval = values.config !== undefined ? wanted.retrieval
    : { ...colConfig.retrieval, retrievers: wanted.retrieval.retrievers, fusion: wanted.retrieval.fusion };
  for (const r of retrieval.retrievers) {
    if (!colConfig.indexes[r]) throw new UsageError(`${values.config !== undefined ? `--config ${values.config}: retrieval.retrievers` : '--retriever'}: the collection has no ${r} index (it has ${Object.keys(colConfig.indexes).join(', ')})`);
  }
  return retrieval;
}

export default {
  name: 'search',
  summary: 'search a saved BM25 index or collection; writes a TREC run (qid Q0 docid rank score tag)',
  usage: 'search (INDEX | --engine postgres://… [--schema S]) (--query TEXT [--qid ID] | --queries FILE [--qrels-only FILE]) [-k 10] [-o RUN] [--retriever bm25|dense|hybrid | --config FILE] [--model FILE]',
  description: 'FILE is a BEIR queries.jsonl or a TSV of qid<TAB>text lines. Ties are broken by doc id ascending. '
    + '--filter takes JSON such as \'{"lang":"en","year":{"gte":2020}}\'. INDEX may be a collection written by '
    + '`ragwasm index --retriever dense|hybrid` or `--config`: it is searched with its own pipeline config, or with '
    + '--retriever (hybrid = the default hybrid fusion) / the retrieval section of --config FILE; chunk hits are '
    + 'mapped to documents by their best chunk. A plain BM25 index accepts only --retriever bm25. --engine searches a collection '
    + 'exported to PostgreSQL (BM25 in SQL with the same scores, dense with pgvector, hybrid fused by ragwasm; docs/postgres.md).',
  options: {
    query: { type: 'string', help: 'one query text' },
    qid: { type: 'string', help: 'query id for --query (default 1)' },
    queries: { type: 'string', help: 'query file (.jsonl or .tsv)' },
    'qrels-only': { type: 'string', help: 'BEIR qrels TSV: run only the queries judged there' },
    k: { type: 'string', short: 'k', default: '10', help: 'results per query' },
    output: { type: 'string', short: 'o', help: 'write the run here instead of stdout' },
    tag: { type: 'string', default: 'ragwasm', help: 'run tag (last column)' },
    rm3: { type: 'boolean', help: 'RM3 pseudo-relevance feedback' },
    filter: { type: 'string', help: 'metadata filter as JSON' },
    retriever: { type: 'string', help: 'bm25, dense or hybrid (collections; default: the collection\'s config)' },
    config: { type: 'string', help: 'pipeline config JSON file whose retrieval section is used (collections)' },
    model: { type: 'string', help: 'static model file for a dense index (default: the ragwasm-static-model package)' },
    engine: { type: 'string', help: 'postgres:// URL of a collection exported by `ragwasm export` (instead of INDEX)' },
    schema: { type: 'string', default: 'ragwasm', help: 'with --engine: the PostgreSQL schema' },
  },
  async run(values, positionals, io) {
    if (values.engine !== undefined) return searchEngine(values, positionals, io);
    if (positionals.length !== 1 || (values.query === undefined) === (values.queries === undefined)) {
      io.stderr.write('ragwasm search: expected INDEX and exactly one of --query / --queries (see --help)\n');
      return 2;
    }
    try {
      retrieverConfig(values);  // validates --retriever / --config before any file is read
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      io.stderr.write(`ragwasm search: ${e.message}\n`);
      return 2;
    }
    const k = /^\d+$/.test(values.k) ? Number(values.k) : Number.NaN;
    const options = { k };
    if (values.rm3) options.rm3 = true;
    if (values.filter !== undefined) {
      try {
        options.filter = JSON.parse(values.filter);
      } catch (e) {
        io.stderr.write(`ragwasm search: --filter is not valid JSON (${e.message})\n`);
        return 2;
      }
    }
    const queries = queriesOf(values);
    const bytes = readFileSync(positionals[0]);
    if (Collection.isCollectionBytes(bytes)) {
      return searchCollection(bytes, queries, values, k, io);
    }
    try {
      retrieverConfig(values);  // validates --retriever / --config
      if (values.config !== undefined || (values.retriever !== undefined && values.retriever !== 'bm25')) {
        throw new UsageError(`${positionals[0]} is a plain BM25 index: only --retriever bm25 (build a collection with \`ragwasm index --retriever hybrid\` for dense/hybrid/--config)`);
      }
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      io.stderr.write(`ragwasm search: ${e.message}\n`);
      return 2;
    }
    const idx = Bm25Index.fromBytes(bytes);
    let rankings;
    try {
      rankings = queries.map((q) => ({ id: q.id, docs: idx.search(q.text, options) }));
    } finally {
      idx.dispose();
    }
    writeRun(rankings, values, io);
    return 0;
  },
};

async function searchCollection(bytes, queries, values, k, io) {
  let embedder;
  let col;
  try {
    if (values.rm3 || values.filter !== undefined) throw new UsageError('--rm3 / --filter: only for plain BM25 indexes');
    if (!Number.isInteger(k) || k < 1) throw new UsageError(`-k: expected an integer >= 1, got '${values.k}'`);
    const header = Collection.inspect(bytes).config;
    const retrieval = retrievalFor(values, header);
    embedder = await embedderFor(header, values.model);
    col = Collection.fromBytes(bytes, embedder ? { embedder } : {});
    if (retrieval) col.config = parsePipelineConfig({ ...col.config, retrieval });
  } catch (e) {
    embedder?.dispose();
    col?.dispose();
    if (!(e instanceof UsageError)) throw e;
    io.stderr.write(`ragwasm search: ${e.message}\n`);
    return 2;
  }
  let rankings;
  try {
    const chunkK = col.chunks.size > col.size ? k * 3 : k;
    rankings = await rankQueries(queries, (text) => col.search(text, { k: chunkK }), k, skipNote(queries, io));
  } finally {
    col.dispose();
    embedder?.dispose();
  }
  writeRun(rankings, values, io);
  return 0;
}

/** With several queries, one that cannot be searched is skipped with a note (a single one fails). */
function skipNote(queries, io) {
  return (q, e) => {
    if (queries.length === 1) return false;
    io.stderr.write(`ragwasm search: query ${q.id} skipped: ${e.message}\n`);
    return true;
  };
}

/** TREC run lines of the rankings to -o FILE or stdout. */
function writeRun(rankings, values, io) {
  const lines = rankings.flatMap((r) => trecLines(r.id, r.docs, values.tag));
  const out = lines.join('\n') + (lines.length ? '\n' : '');
  if (values.output) writeFileSync(values.output, out);
  else io.stdout.write(out);
}

/** The queries of --query / --queries (+ --qrels-only). */
function queriesOf(values) {
  let queries = values.query !== undefined ? [{ id: values.qid ?? '1', text: values.query }] : readQueries(values.queries);
  if (values['qrels-only']) {
    const judged = new Set(readQrelsTsv(values['qrels-only']).keys());
    queries = queries.filter((q) => judged.has(q.id));
  }
  return queries;
}

async function searchEngine(values, positionals, io) {
  let k;
  try {
    if (positionals.length !== 0) throw new UsageError('--engine: no INDEX (the collection is in the database)');
    if ((values.query === undefined) === (values.queries === undefined)) throw new UsageError('expected exactly one of --query / --queries');
    if (values.config !== undefined || values.rm3 || values.filter !== undefined) throw new UsageError('--config / --rm3 / --filter: not with --engine (use --retriever)');
    if (values.retriever !== undefined) retrieverConfig(values);
    engineUrl(values.engine, '--engine');
    k = /^\d+$/.test(values.k) && Number(values.k) >= 1 ? Number(values.k) : Number.NaN;
    if (!Number.isInteger(k)) throw new UsageError(`-k: expected an integer >= 1, got '${values.k}'`);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr.write(`ragwasm search: ${e.message}\n`);
    return 2;
  }
  const queries = queriesOf(values);
  const { client, retriever, embedder } = await openEngine(values.engine, { schema: values.schema, modelPath: values.model });
  let rankings;
  try {
    const counts = retriever.meta.counts ?? { documents: 0, chunks: 0 };
    const chunkK = counts.chunks > counts.documents ? k * 3 : k;
    const which = values.retriever ? { retriever: values.retriever } : {};
    rankings = await rankQueries(queries, (text) => retriever.search(text, { k: chunkK, ...which }), k, skipNote(queries, io));
  } finally {
    retriever.dispose();
    embedder?.dispose();
    await client.end().catch(() => {});
  }
  writeRun(rankings, values, io);
  return 0;
}
