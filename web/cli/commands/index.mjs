// ragwasm index INPUT -o FILE: builds a Bm25Index from BEIR corpus.jsonl (or a BEIR folder) or from a
// folder of .txt/.md files, and writes the saved index.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { Bm25Index } from '../../src/index.js';
import { readBeirCorpus } from '../datasets.mjs';

function num(values, key) {
  const v = values[key];
  if (v === undefined) return undefined;
  return /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : Number.NaN;  // NaN is rejected by Bm25Index.create
}

function walk(dir, out = []) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) walk(p, out);
    else if (['.txt', '.md', '.markdown'].includes(extname(name).toLowerCase())) out.push(p);
  }
  return out;
}

/** Documents from INPUT: a corpus.jsonl, a BEIR folder, or a folder of text/markdown files. */
export function readDocuments(input) {
  const st = statSync(input);
  if (st.isFile()) return readBeirCorpus(input);
  try {
    if (statSync(join(input, 'corpus.jsonl')).isFile()) return readBeirCorpus(join(input, 'corpus.jsonl'));
  } catch { /* not a BEIR folder */ }
  return walk(input).map((p) => {
    const text = readFileSync(p, 'utf8');
    const heading = /^#\s+(.+)$/m.exec(text);
    return { id: relative(input, p), title: extname(p) === '.txt' ? '' : (heading ? heading[1].trim() : ''), text };
  });
}

export default {
  name: 'index',
  summary: 'build a BM25 index from BEIR corpus.jsonl or a folder of .txt/.md files',
  usage: 'index [--scorer lucene] [--k1 0.9] [--b 0.4] [--title-boost 1] [--no-stem] -o OUT INPUT',
  description: 'INPUT is a BEIR corpus.jsonl, a BEIR folder containing one, or a folder searched recursively for '
    + '.txt/.md files (id = relative path, title = first "# " heading of markdown). Fields: title and text. '
    + 'Writes the versioned binary index (load it with Bm25Index.load or `ragwasm search`).',
  options: {
    output: { type: 'string', short: 'o', help: 'output file (required)' },
    scorer: { type: 'string', help: 'lucene, robertson, atire, bm25l or bm25plus (default lucene)' },
    k1: { type: 'string', help: 'BM25 k1 (default 0.9)' },
    b: { type: 'string', help: 'BM25 b (default 0.4)' },
    delta: { type: 'string', help: 'BM25L/BM25+ delta' },
    'title-boost': { type: 'string', help: 'weight of the title field (default 1)' },
    'no-stem': { type: 'boolean', help: 'turn the Porter2 stemmer off' },
    'no-stopwords': { type: 'boolean', help: 'keep stop words' },
  },
  async run(values, positionals, io) {
    if (positionals.length !== 1 || !values.output) {
      io.stderr.write('ragwasm index: expected one INPUT and -o OUT (see --help)\n');
      return 2;
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
    const docs = readDocuments(positionals[0]);
    const idx = Bm25Index.create(options);
    try {
      idx.add(docs);
      const bytes = idx.save();
      writeFileSync(values.output, bytes);
      const s = idx.stats();
      io.stderr.write(`indexed ${s.documents} documents, ${s.terms} terms, ${bytes.length} bytes in ${((performance.now() - t0) / 1000).toFixed(2)} s -> ${values.output}\n`);
    } finally {
      idx.dispose();
    }
    return 0;
  },
};
