// ragwasm export INPUT --to postgres://…|FILE.sql: a saved collection, or documents indexed with a
// pipeline config, written into PostgreSQL (+ pgvector) with the versioned schema of docs/postgres.md.
import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Collection } from '../../src/index.js';
import { checkExport, connectPostgres, csvFilesClient, exportToPostgres, maskSecrets, maskUrl, RagwasmError, sqlFileClient } from '../../src/postgres.js';
import { readDocuments } from '../datasets.mjs';
import { engineUrl, loadCollection } from '../lib/engine.mjs';
import { configChunker, intOption, UsageError } from '../lib/options.mjs';
import { datasetOptions, FILE_LIMIT_OPTIONS } from '../lib/files.mjs';
import { embedderFor, retrieverConfig } from '../lib/retrievers.mjs';

function progressBar(io) {
  let last = '';
  return {
    update({ phase, done, total }) {
      const pct = total > 0 ? Math.floor((100 * done) / total) : 100;
      const line = `${phase.padEnd(9)} [${'#'.repeat(Math.floor(pct / 5)).padEnd(20)}] ${done}/${total}`;
      if (line !== last) io.stderr.redraw ? io.stderr.redraw(line) : io.stderr.write(`\r${line}`);
      last = line;
    },
    end() {
      if (last) io.stderr.write('\n');
      last = '';
    },
  };
}

async function runCheck(col, embedder, values, target, io) {
  let client;
  try {
    client = await connectPostgres(target.url);
    const r = await checkExport(col, client, { schema: values.schema });
    const c = r.counts;
    io.stdout.write(`${maskUrl(target.url)} schema ${values.schema}: ${c.documents} documents, ${c.chunks} chunks, ${c.impacts} BM25 impacts`
      + `${c.embeddings === null ? '' : `, ${c.embeddings} embeddings`}: ${r.ok ? 'matches the collection' : `${r.problems.length} differences`}\n`);
    for (const p of r.problems) io.stdout.write(`  ${p}\n`);
    return r.ok ? 0 : 1;
  } catch (e) {
    if (e instanceof RagwasmError) throw e;
    io.stderr.write(`ragwasm export --check: ${maskSecrets(e.message, target.url)}\n`);
    return 1;
  } finally {
    await client?.end().catch(() => {});
    col.dispose();
    embedder?.dispose();
  }
}

export default {
  name: 'export',
  summary: 'export a collection to PostgreSQL + pgvector (or an SQL file): documents, chunks, BM25 impacts, embeddings',
  usage: 'export INPUT --to postgres://USER@HOST:PORT/DB|FILE.sql|DIR --format csv [--schema ragwasm] [--retriever bm25|dense|hybrid | --config FILE] [--chunker SPEC] [--model FILE] [--batch-size 2000] [--no-vectors] [--vector-type vector|halfvec] [--no-hnsw] [--force] [--check]',
  description: 'INPUT is a collection saved by `ragwasm index --retriever/--config`, or documents (BEIR corpus.jsonl, a BEIR folder, '
    + 'a folder of .txt/.md/.html/.pdf/.docx files, read with extractText) indexed first with --config FILE or --retriever (default hybrid). The schema is versioned '
    + '(docs/postgres.md); re-running upserts changed documents, deletes removed ones and rebuilds the BM25 impact table only '
    + 'when the collection statistics changed. The export is one transaction: readers see the old or the new collection, and '
    + 'after a failure nothing changed (run the same command again). A schema holding tables export did not create is refused '
    + '(--force adopts it). --check compares the schema at --to with INPUT (row counts, analyzer, statistics) and writes nothing. '
    + 'Credentials come from the URL or PGUSER/PGPASSWORD/PGHOST/PGPORT/PGDATABASE and are never printed. --to FILE.sql '
    + 'writes the statements instead (load with psql -f FILE.sql into a server with pgvector, or use --no-vectors); --format csv '
    + 'writes one CSV file per table (+ a .tsv in COPY text format for rows psql cannot read from CSV) and a load.sql that creates the schema and \\copy-loads them.',
  options: {
    ...FILE_LIMIT_OPTIONS,
    to: { type: 'string', help: 'postgres:// URL, a .sql file, or a folder with --format csv (required)' },
    format: { type: 'string', help: 'csv: one CSV file per table + load.sql (psql \\copy) in the --to folder' },
    schema: { type: 'string', default: 'ragwasm', help: 'PostgreSQL schema to write' },
    retriever: { type: 'string', help: 'documents INPUT: bm25, dense or hybrid (default hybrid)' },
    config: { type: 'string', help: 'documents INPUT: pipeline config JSON file' },
    chunker: { type: 'string', help: 'documents INPUT: NAME[:SIZE[/OVERLAP]] or none' },
    model: { type: 'string', help: 'static model file (default models/build/static-model.bin)' },
    'batch-size': { type: 'string', default: '2000', help: 'chunks per transaction' },
    'no-vectors': { type: 'boolean', help: 'do not export embeddings' },
    'vector-type': { type: 'string', help: 'vector (default) or halfvec' },
    'no-hnsw': { type: 'boolean', help: 'no HNSW index on the embeddings' },
    force: { type: 'boolean', help: 'write into a schema that holds tables export did not create (they are overwritten)' },
    check: { type: 'boolean', help: 'compare the export at --to postgres://… with INPUT; exit 1 when they differ' },
  },
  async run(values, positionals, io) {
    let target;
    let batchSize;
    try {
      if (positionals.length !== 1 || !values.to) throw new UsageError('expected one INPUT and --to postgres://…|FILE.sql (see --help)');
      if (values.format !== undefined && values.format !== 'csv') throw new UsageError(`--format: expected csv, got '${values.format}'`);
      if (values.format === 'csv') {
        if (existsSync(values.to) && (!statSync(values.to).isDirectory() || readdirSync(values.to).length > 0)) throw new UsageError(`--to: with --format csv, a new or empty folder, got '${values.to}'`);
        target = { dir: values.to };
      } else {
        target = /^[a-z][a-z0-9+.-]*:\/\//i.test(values.to) || /^postgres(ql)?:/i.test(values.to) ? { url: engineUrl(values.to, '--to') } : { file: values.to };
        if (target.file && !/\.sql$/i.test(target.file)) throw new UsageError(`--to: expected a postgres:// URL or a file ending in .sql (or a folder with --format csv), got '${target.file}'`);
      }
      if (values.check && !target.url) throw new UsageError('--check: needs --to postgres://… (the export to compare with INPUT)');
      batchSize = intOption(values['batch-size'], 'batch-size');
      if (values['vector-type'] !== undefined && !['vector', 'halfvec'].includes(values['vector-type'])) throw new UsageError(`--vector-type: expected vector or halfvec, got '${values['vector-type']}'`);
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      io.stderr.write(`ragwasm export: ${e.message}\n`);
      return 2;
    }
    const t0 = performance.now();
    let col;
    let embedder;
    try {
      if (statSync(positionals[0]).isFile() && Collection.isCollectionBytes(readFileSync(positionals[0]))) {
        if (values.config !== undefined || values.retriever !== undefined || values.chunker !== undefined) {
          throw new UsageError('--config/--retriever/--chunker: not with a saved collection (it has its own config)');
        }
        ({ col, embedder } = await loadCollection(readFileSync(positionals[0]), values.model));
      } else {
        const config = retrieverConfig({ ...values, retriever: values.config === undefined ? (values.retriever ?? 'hybrid') : undefined }, { bm25Plain: false });
        if (values.chunker !== undefined) config.chunker = configChunker(values.chunker);
        embedder = await embedderFor(config, values.model);
        col = await Collection.create(config, embedder ? { embedder, keepVectors: true } : {});
        const docs = await readDocuments(positionals[0], datasetOptions(values, io, 'export', UsageError));
        await col.add(docs.map((d) => ({ id: d.id, text: d.title ? `${d.title} ${d.text}` : d.text })), { batchSize: 256 });
      }
    } catch (e) {
      col?.dispose();
      embedder?.dispose();
      if (!(e instanceof UsageError)) throw e;
      io.stderr.write(`ragwasm export: ${e.message}\n`);
      return 2;
    }
    const t1 = performance.now();
    const bar = progressBar(io);
    if (values.check) return runCheck(col, embedder, values, target, io);
    const options = { schema: values.schema, batchSize, onProgress: (p) => bar.update(p), hnsw: !values['no-hnsw'] };
    if (values.force) options.force = true;
    if (values['no-vectors']) options.vectors = false;
    if (values['vector-type']) options.vectorType = values['vector-type'];
    let r;
    let client;
    let tmp;
    try {
      if (target.url) {
        client = await connectPostgres(target.url);
        r = await exportToPostgres(col, client, options);
      } else if (target.dir) {
        mkdirSync(target.dir, { recursive: true });
        const script = join(target.dir, 'load.sql');
        appendFileSync(script, `-- ragwasm export (schema "${values.schema}"): in this folder run psql -v ON_ERROR_STOP=1 -f load.sql\n`);
        r = await exportToPostgres(col, csvFilesClient((sql) => appendFileSync(script, sql), (table, data, format) => appendFileSync(join(target.dir, `${table}.${format === 'text' ? 'tsv' : 'csv'}`), data),
          { vectors: !values['no-vectors'] }), options);
      } else {
        tmp = `${target.file}.tmp-${process.pid}`;
        const fd = openSync(tmp, 'w');
        try {
          writeSync(fd, `-- ragwasm export (schema "${values.schema}"): load with psql -v ON_ERROR_STOP=1 -f ${target.file}\n`);
          r = await exportToPostgres(col, sqlFileClient((s) => { writeSync(fd, s); }, { vectors: !values['no-vectors'] }), options);
        } finally {
          closeSync(fd);
        }
        renameSync(tmp, target.file);
        tmp = undefined;
      }
    } catch (e) {
      if (e instanceof RagwasmError) throw e;
      // A driver error (e.g. the connection dropped): the export is one transaction, rolled back.
      bar.end();
      io.stderr.write(`ragwasm export: ${maskSecrets(e.message, target.url)}; nothing was changed (the export is one transaction): run the same command again\n`);
      return 1;
    } finally {
      bar.end();
      if (tmp) rmSync(tmp, { force: true });
      await client?.end().catch(() => {});
      col.dispose();
      embedder?.dispose();
    }
    for (const w of r.warnings) io.stderr.write(`ragwasm export: warning: ${w}\n`);
    const where = target.url ? maskUrl(target.url) : target.file ?? `${target.dir}/ (CSV + load.sql)`;
    io.stderr.write(`exported ${r.documents} documents (${r.upserted} written, ${r.removed} removed), ${r.chunks} chunks, `
      + `${r.impacts === null ? 'BM25 impacts unchanged' : `${r.impacts} BM25 impacts`}, ${r.vectors ? 'embeddings' : 'no embeddings'} `
      + `to ${where} schema ${values.schema} in ${((performance.now() - t1) / 1000).toFixed(2)} s (collection ${((t1 - t0) / 1000).toFixed(2)} s)\n`);
    return 0;
  },
};
