// ragwasm search INDEX (--query TEXT | --queries FILE): TREC run lines `qid Q0 docid rank score tag`.
import { readFileSync, writeFileSync } from 'node:fs';
import { Bm25Index } from '../../src/index.js';
import { readJsonl, trecLines } from '../datasets.mjs';

/** Queries from a BEIR queries.jsonl ({_id, text}) or a TSV file (`qid<TAB>text` per line). */
export function readQueries(path) {
  if (/\.jsonl$/i.test(path)) return readJsonl(path).map((q) => ({ id: String(q._id ?? q.id), text: q.text ?? '' }));
  return readFileSync(path, 'utf8').split(/\r?\n/).filter((l) => l.trim()).map((l, i) => {
    const tab = l.indexOf('\t');
    if (tab < 0) throw new Error(`${path}:${i + 1}: expected "qid<TAB>query text"`);
    return { id: l.slice(0, tab), text: l.slice(tab + 1) };
  });
}

export default {
  name: 'search',
  summary: 'search a saved BM25 index; writes a TREC run (qid Q0 docid rank score tag)',
  usage: 'search INDEX (--query TEXT [--qid ID] | --queries FILE [--qrels-only FILE]) [-k 10] [-o RUN]',
  description: 'FILE is a BEIR queries.jsonl or a TSV of qid<TAB>text lines. Ties are broken by doc id ascending. '
    + '--filter takes JSON such as \'{"lang":"en","year":{"gte":2020}}\'.',
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
  },
  async run(values, positionals, io) {
    if (positionals.length !== 1 || (values.query === undefined) === (values.queries === undefined)) {
      io.stderr.write('ragwasm search: expected INDEX and exactly one of --query / --queries (see --help)\n');
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
    let queries = values.query !== undefined ? [{ id: values.qid ?? '1', text: values.query }] : readQueries(values.queries);
    if (values['qrels-only']) {
      const judged = new Set(readFileSync(values['qrels-only'], 'utf8').split(/\r?\n/).slice(1).map((l) => l.split(/\s+/)[0]).filter(Boolean));
      queries = queries.filter((q) => judged.has(q.id));
    }
    const idx = Bm25Index.load(readFileSync(positionals[0]));
    const lines = [];
    try {
      for (const q of queries) lines.push(...trecLines(q.id, idx.search(q.text, options), values.tag));
    } finally {
      idx.dispose();
    }
    const out = lines.join('\n') + (lines.length ? '\n' : '');
    if (values.output) writeFileSync(values.output, out);
    else io.stdout.write(out);
    return 0;
  },
};
