// ragwasm index INPUT -o FILE: builds a Bm25Index from BEIR corpus.jsonl (or a BEIR folder) or from a
// folder of .txt/.md/.html/.pdf/.docx files, and writes the saved index.
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { Bm25Index, Collection } from '../../src/index.js';
import { readDocuments } from '../datasets.mjs';
import { configChunker, UsageError } from '../lib/options.mjs';
import { datasetOptions, FILE_LIMIT_OPTIONS } from '../lib/files.mjs';
import { embedderFor, retrieverConfig } from '../lib/retrievers.mjs';

function num(values, key) {
  const v = values[key];
  if (v === undefined) return undefined;
  return /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : Number.NaN;  // NaN is rejected by Bm25Index.create
}

/** Writes next to `path`, then renames over it: an interrupted run never leaves a half-written index. */
function writeAtomically(path, bytes) {
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    const fd = openSync(tmp, 'w');
    try {
      writeFileSync(fd, bytes);
      fsyncSync(fd);  // on disk before the rename makes it the index
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

export default {
  name: 'index',
  summary: 'build a BM25 index from BEIR corpus.jsonl or a folder of .txt/.md/.html/.pdf/.docx files',
  usage: 'index [--scorer lucene] [--k1 0.9] [--b 0.4] [--title-boost 1] [--no-stem] [--retriever bm25|dense|hybrid | --config FILE] [--model FILE] [--chunker SPEC] -o OUT INPUT',
  description: 'INPUT is a BEIR corpus.jsonl, a BEIR folder containing one, or a folder searched recursively for '
    + '.txt/.md/.html/.pdf/.docx files, each read with extractText (id = relative path, title = first "# " heading of markdown). Fields: title and text. '
    + 'Writes the versioned binary index (load it with Bm25Index.load or `ragwasm search`). With --retriever dense|hybrid '
    + 'or --config FILE it writes a Collection instead (pipeline config: chunker -> BM25 and/or dense index; text = '
    + 'title + " " + text; the BM25 options above then belong in the config file), searchable with `ragwasm search`.',
  options: {
    ...FILE_LIMIT_OPTIONS,
    output: { type: 'string', short: 'o', help: 'output file (required)' },
    scorer: { type: 'string', help: 'lucene, robertson, atire, bm25l or bm25plus (default lucene)' },
    k1: { type: 'string', help: 'BM25 k1 (default 0.9)' },
    b: { type: 'string', help: 'BM25 b (default 0.4)' },
    delta: { type: 'string', help: 'BM25L/BM25+ delta' },
    'title-boost': { type: 'string', help: 'weight of the title field (default 1)' },
    'no-stem': { type: 'boolean', help: 'turn the Porter2 stemmer off' },
    'no-stopwords': { type: 'boolean', help: 'keep stop words' },
    retriever: { type: 'string', help: 'bm25 (default: a plain BM25 index), dense or hybrid (a Collection)' },
    config: { type: 'string', help: 'pipeline config JSON file: build a Collection' },
    model: { type: 'string', help: 'static model file for the dense index (default: the ragwasm-static-model package)' },
    chunker: { type: 'string', help: 'Collection only: NAME[:SIZE[/OVERLAP]] or none (default: the config\'s chunker)' },
  },
  async run(values, positionals, io) {
    if (positionals.length !== 1 || !values.output) {
      io.stderr.write('ragwasm index: expected one INPUT and -o OUT (see --help)\n');
      return 2;
    }
    let config;
    let embedder;
    try {
      config = retrieverConfig(values);
      if (config === null && values.chunker !== undefined) throw new UsageError('--chunker: only with --retriever dense|hybrid or --config (a plain BM25 index holds whole documents)');
      if (config !== null) {
        const bm25Flags = ['scorer', 'k1', 'b', 'delta', 'title-boost', 'no-stem', 'no-stopwords'].filter((f) => values[f] !== undefined);
        if (bm25Flags.length) throw new UsageError(`--${bm25Flags[0]}: not with --retriever/--config (set indexes.bm25 in a config file)`);
        if (values.chunker !== undefined) config.chunker = configChunker(values.chunker);
        embedder = await embedderFor(config, values.model);
      }
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      io.stderr.write(`ragwasm index: ${e.message}\n`);
      return 2;
    }
    if (config !== null) {
      const t0 = performance.now();
      const docs = await readDocuments(positionals[0], datasetOptions(values, io, 'index', UsageError));
      let col;
      try {
        col = await Collection.create(config, embedder ? { embedder } : {});
        const r = await col.add(docs.map((d) => ({ id: d.id, text: d.title ? `${d.title} ${d.text}` : d.text })), { batchSize: 256 });
        const bytes = col.toBytes();
        writeAtomically(values.output, bytes);
        io.stderr.write(`indexed ${r.documents} documents, ${r.chunks} chunks (${col.config.retrieval.retrievers.join(' + ')}), ${bytes.length} bytes in ${((performance.now() - t0) / 1000).toFixed(2)} s -> ${values.output}\n`);
      } finally {
        col?.dispose();
        embedder?.dispose();
      }
      return 0;
    }
    const options = {};
    if (values.scorer !== undefined) options.scorer = values.scorer;
    for (const k of ['k1', 'b', 'delta']) if (values[k] !== undefined) options[k] = num(values, k);
    if (values['title-boost'] !== undefined) options.fields = [{ name: 'title', boost: num(values, 'title-boost') }, 'text'];
    const analyzer = {};
    if (values['no-stem']) analyzer.stemmer = 'none';
    if (values['no-stopwords']) analyzer.stopwords = false;
    if (Object.keys(analyzer).length) options.analyzer = analyzer;
    const t0 = performance.now();
    const docs = await readDocuments(positionals[0], datasetOptions(values, io, 'index', UsageError));
    const idx = Bm25Index.create(options);
    try {
      idx.add(docs);
      const bytes = idx.toBytes();
      writeAtomically(values.output, bytes);
      const s = idx.stats();
      io.stderr.write(`indexed ${s.documents} documents, ${s.terms} terms, ${bytes.length} bytes in ${((performance.now() - t0) / 1000).toFixed(2)} s -> ${values.output}\n`);
    } finally {
      idx.dispose();
    }
    return 0;
  },
};
