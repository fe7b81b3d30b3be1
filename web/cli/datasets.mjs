// Loaders for the shared evaluation collections, used by the CLI, tests and benchmarks.
//   loadBeir(dir, {split})  BEIR folder: corpus.jsonl, queries.jsonl, qrels/<split>.tsv
//   loadCisi(dir)           CISI original files: CISI.ALL, CISI.QRY, CISI.REL
// Both return {corpus: [{id, title, text}], queries: [{id, text}], qrels: Map<qid, Map<docid, rel>>}
// with exactly the documents and judged queries used by ../shared/data/golden (see its README):
// queries are those with judgments, in the queries file's order.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Parses JSON lines; blank lines ignored; errors name the file and line. */
export function readJsonl(path) {
  const out = [];
  const lines = readFileSync(path, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i].trim();
    if (!l) continue;
    try {
      out.push(JSON.parse(l));
    } catch (e) {
      throw new Error(`${path}:${i + 1}: invalid JSON (${e.message})`);
    }
  }
  return out;
}

/** A dataset folder that cannot be used as asked (the CLI prints the message, exit code 2). */
export class DatasetError extends Error {
  constructor(message) {
    super(message);
    this.name = 'DatasetError';
  }
}

/**
 * BEIR qrels TSV (header row `query-id corpus-id score`) -> Map<qid, Map<docid, rel>>, file order kept.
 * A row without 3 fields or with a non-integer score is a DatasetError naming `file:line` (never a
 * dropped or NaN judgment); only a first row whose score field is `score` is taken as the header. A
 * file without judgments is a DatasetError too: it would evaluate every run to 0.
 */
export function readQrelsTsv(path) {
  const qrels = new Map();
  const lines = readFileSync(path, 'utf8').split(/\r?\n/);
  let first = true;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i].trim();
    if (!l) continue;
    const fields = l.split(/\s+/);
    const wasFirst = first;
    first = false;
    if (wasFirst && fields[2] === 'score') continue;  // header
    if (fields.length !== 3) {
      throw new DatasetError(`${path}:${i + 1}: expected 3 fields 'query-id corpus-id score', got ${fields.length}: '${l.slice(0, 80)}'`);
    }
    const [q, d, r] = fields;
    if (!/^[+-]?\d+$/.test(r) || !Number.isSafeInteger(Number(r))) {
      throw new DatasetError(`${path}:${i + 1}: score: expected an integer, got '${r.slice(0, 40)}'`);
    }
    if (!qrels.has(q)) qrels.set(q, new Map());
    qrels.get(q).set(d, Number(r));
  }
  if (qrels.size === 0) throw new DatasetError(`${path}: no judgments (an empty qrels file evaluates every run to 0)`);
  return qrels;
}

/** BEIR corpus.jsonl -> [{id, title, text}] (file order); an empty corpus is a DatasetError. */
export function readBeirCorpus(path) {
  const docs = readJsonl(path).map((d) => ({ id: String(d._id), title: d.title ?? '', text: d.text ?? '' }));
  if (docs.length === 0) throw new DatasetError(`${path}: empty corpus (no documents)`);
  return docs;
}

/**
 * @param {string} dir a BEIR dataset folder
 * @param {{split?: string}} [options] qrels split (default 'test'); queries are limited to it
 * @returns {{corpus: {id: string, title: string, text: string}[], queries: {id: string, text: string}[], qrels: Map<string, Map<string, number>>}}
 */
export function loadBeir(dir, { split = 'test' } = {}) {
  const corpus = readBeirCorpus(join(dir, 'corpus.jsonl'));
  const qrelsPath = join(dir, 'qrels', `${split}.tsv`);
  if (!existsSync(qrelsPath)) {
    // Evaluating every query against missing judgments would silently report the wrong split.
    const have = existsSync(join(dir, 'qrels')) ? readdirSync(join(dir, 'qrels')).filter((f) => f.endsWith('.tsv')).map((f) => f.slice(0, -4)) : [];
    throw new DatasetError(`${qrelsPath}: no qrels for split "${split}"` + (have.length ? ` (available: ${have.join(', ')})` : ' (no qrels folder)'));
  }
  const qrels = readQrelsTsv(qrelsPath);
  const all = readJsonl(join(dir, 'queries.jsonl')).map((q) => ({ id: String(q._id), text: q.text ?? '' }));
  const queries = all.filter((q) => qrels.has(q.id));
  return { corpus, queries, qrels };
}

// CISI tagged records: `.I n` starts a record; `.T`, `.A`, `.W`, `.X`, ... start fields.
function parseCisi(path) {
  const lines = readFileSync(path, 'latin1').split(/\r?\n/);  // the originals use CRLF; LF copies work too
  const records = [];
  let cur = null;
  let field = null;
  for (const line of lines) {
    const m = /^\.([A-Z])( +\d+)? *$/.exec(line);
    if (m) {
      if (m[1] === 'I') {
        cur = { id: m[2].trim(), fields: {} };
        records.push(cur);
        field = null;
      } else {
        field = m[1];
        if (cur && !(field in cur.fields)) cur.fields[field] = [];
      }
      continue;
    }
    if (cur && field) cur.fields[field].push(line);
  }
  return records.map((r) => {
    const f = {};
    for (const [k, v] of Object.entries(r.fields)) f[k] = v.join('\n').trim();
    return { id: r.id, f };
  });
}

/**
 * @param {string} dir the CISI folder (CISI.ALL, CISI.QRY, CISI.REL)
 * @returns {{corpus: {id: string, title: string, text: string}[], queries: {id: string, text: string}[], qrels: Map<string, Map<string, number>>}}
 */
export function loadCisi(dir) {
  const corpus = parseCisi(join(dir, 'CISI.ALL')).map(({ id, f }) => ({ id, title: f.T ?? '', text: f.W ?? '' }));
  const qrels = new Map();
  for (const line of readFileSync(join(dir, 'CISI.REL'), 'latin1').split(/\r?\n/)) {
    const parts = line.trim().split(/\s+/);
    if (parts.length < 2 || !parts[0]) continue;
    if (!qrels.has(parts[0])) qrels.set(parts[0], new Map());
    qrels.get(parts[0]).set(parts[1], 1);
  }
  if (corpus.length === 0) throw new DatasetError(`${join(dir, 'CISI.ALL')}: empty corpus (no documents)`);
  if (qrels.size === 0) throw new DatasetError(`${join(dir, 'CISI.REL')}: no judgments (an empty qrels file evaluates every run to 0)`);
  const queries = parseCisi(join(dir, 'CISI.QRY')).filter(({ id }) => qrels.has(id)).map(({ id, f }) => ({ id, text: f.W ?? '' }));
  return { corpus, queries, qrels };
}

/**
 * nDCG@k with trec_eval's rules: the run is re-sorted by score descending, ties by doc id in
 * DESCENDING strcmp order; gain = qrels value; every judged query averaged (missing run = 0).
 * A small local helper for tests and benchmarks (the metrics module has the full trec_eval set).
 * @param {Map<string, {id: string, score: number}[]>} run
 * @param {Map<string, Map<string, number>>} qrels
 * @param {number} [k=10]
 * @returns {number}
 */
export function ndcgAt(run, qrels, k = 10) {
  let sum = 0;
  for (const [q, rels] of qrels) {
    const hits = [...(run.get(q) ?? [])].sort((a, b) => (b.score - a.score) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    let dcg = 0;
    for (let i = 0; i < Math.min(k, hits.length); i++) {
      const g = rels.get(hits[i].id) ?? 0;
      if (g > 0) dcg += g / Math.log2(i + 2);
    }
    const ideal = [...rels.values()].filter((g) => g > 0).sort((a, b) => b - a);
    let idcg = 0;
    for (let i = 0; i < Math.min(k, ideal.length); i++) idcg += ideal[i] / Math.log2(i + 2);
    sum += idcg > 0 ? dcg / idcg : 0;
  }
  return qrels.size ? sum / qrels.size : 0;
}

/** TREC run lines `qid Q0 docid rank score tag` for one query's hits (best first). */
export function trecLines(qid, hits, tag = 'ragwasm') {
  return hits.map((h, i) => `${qid} Q0 ${h.id} ${i + 1} ${h.score} ${tag}`);
}
