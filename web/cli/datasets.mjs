// Loaders for the shared evaluation collections, used by the CLI, tests and benchmarks.
//   loadBeir(dir, {split})  BEIR folder: corpus.jsonl, queries.jsonl, qrels/<split>.tsv
//   loadCisi(dir)           CISI original files: CISI.ALL, CISI.QRY, CISI.REL
//   loadDataset(dir, split) either of the two, by the files present
//   readDocuments(input)    corpus.jsonl, a BEIR folder or a folder of .txt/.md files (index, export)
//   readQueries(path)       queries.jsonl or qid<TAB>text lines (search)
//   loadEvidenceCorpus(dir) examples/corpus-style folders (manifest.json + questions.jsonl with evidence)
//   loadQaDataset(dir)      the same folders as {documents (with titles), questions as written} (experiment)
// Both return {corpus: [{id, title, text}], queries: [{id, text}], qrels: Map<qid, Map<docid, rel>>}
// with exactly the documents and judged queries used by ../shared/data/golden (see its README):
// queries are those with judgments, in the queries file's order.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';

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
 * BEIR qrels TSV (header row `query-id corpus-id score`) or TREC qrels (`qid iter docid rel`, as
 * `ragwasm label` writes) -> Map<qid, Map<docid, rel>>, file order kept.
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
    if (wasFirst && fields[fields.length - 1] === 'score') continue;  // header
    if (fields.length !== 3 && fields.length !== 4) {
      throw new DatasetError(`${path}:${i + 1}: expected 3 fields 'query-id corpus-id score' (BEIR) or 4 'qid iter docid rel' (TREC), got ${fields.length}: '${l.slice(0, 80)}'`);
    }
    const [q, d, r] = fields.length === 4 ? [fields[0], fields[2], fields[3]] : fields;
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
 * A BEIR folder (corpus.jsonl) or a CISI folder (CISI.ALL), by the files present.
 * @throws {DatasetError} neither
 */
export function loadDataset(dir, split = 'test') {
  if (existsSync(join(dir, 'corpus.jsonl'))) return loadBeir(dir, { split });
  if (existsSync(join(dir, 'CISI.ALL'))) return loadCisi(dir);
  if (existsSync(join(dir, 'manifest.json')) && existsSync(join(dir, 'questions.jsonl'))) {
    throw new DatasetError(`--dataset: ${dir} is a documents + questions folder (manifest.json, questions.jsonl, as examples/corpus): `
      + 'eval reads relevance judgments (a BEIR folder with corpus.jsonl and qrels, or CISI); '
      + 'for this folder use ragwasm tune, experiment or rag (evidence recall) or ragwasm ask');
  }
  throw new DatasetError(`--dataset: ${dir} has neither corpus.jsonl (BEIR) nor CISI.ALL`);
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

/**
 * Documents from INPUT: a corpus.jsonl, a BEIR folder, or a folder searched recursively for .txt/.md
 * files (id = relative path, title = first "# " heading of markdown).
 * @returns {{id: string, title: string, text: string}[]}
 */
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

/**
 * Queries from a BEIR queries.jsonl ({_id, text}), a questions.jsonl ({id, question}, as `ragwasm questions`
 * writes) or a TSV file (`qid<TAB>text` per line).
 */
export function readQueries(path) {
  if (/\.jsonl$/i.test(path)) return readJsonl(path).map((q) => ({ id: String(q._id ?? q.id), text: q.text ?? q.question ?? '' }));
  return readFileSync(path, 'utf8').split(/\r?\n/).filter((l) => l.trim()).map((l, i) => {
    const tab = l.indexOf('\t');
    if (tab < 0) throw new Error(`${path}:${i + 1}: expected "qid<TAB>query text"`);
    return { id: l.slice(0, tab), text: l.slice(tab + 1) };
  });
}

/** A sample-corpus folder (manifest.json + questions.jsonl with evidence) -> {documents, queries, evidence}. */
export function loadEvidenceCorpus(dir) {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  const documents = manifest.map((d) => ({ id: d.id, title: '', text: readFileSync(join(dir, d.file), 'utf8') }));
  const queries = [];
  const evidence = {};
  for (const q of readJsonl(join(dir, 'questions.jsonl'))) {
    if (!Array.isArray(q.evidence) || q.evidence.length === 0) continue;  // unanswerable: nothing to retrieve
    queries.push({ id: String(q.id), text: q.question });
    evidence[q.id] = q.evidence;
  }
  return { documents, queries, evidence };
}

/** Loads a labelled --dataset (tune, label): BEIR (train split when qrels/train.tsv exists) or an evidence corpus. */
export function loadTuneDataset(dir) {
  if (existsSync(join(dir, 'corpus.jsonl'))) {
    const split = existsSync(join(dir, 'qrels', 'train.tsv')) ? 'train' : 'test';
    const d = loadBeir(dir, { split });
    const qrels = {};
    for (const [q, rels] of d.qrels) qrels[q] = Object.fromEntries(rels);
    return { kind: `beir ${split} qrels`, documents: d.corpus, queries: d.queries, qrels };
  }
  if (existsSync(join(dir, 'manifest.json')) && existsSync(join(dir, 'questions.jsonl'))) {
    return { kind: 'evidence', ...loadEvidenceCorpus(dir) };
  }
  throw new DatasetError(`--dataset: ${dir} has neither corpus.jsonl (BEIR) nor manifest.json + questions.jsonl`);
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

/**
 * A QA dataset folder as examples/corpus lays it out: manifest.json ([{id, file, title}]), the
 * documents, questions.jsonl ({id, question, answer, doc_ids, evidence, answerable}) ->
 * {documents: [{id, title, text}], questions} (the questions as written).
 */
export function loadQaDataset(dir) {
  const manifestPath = join(dir, 'manifest.json');
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  } catch (e) {
    if (e.code === 'ENOENT') throw new DatasetError(`${dir}: expected manifest.json, questions.jsonl and the documents (as examples/corpus)`);
    throw new DatasetError(`${manifestPath}: ${e.message}`);
  }
  if (!Array.isArray(manifest)) throw new DatasetError(`${manifestPath}: expected an array of {id, file, title}`);
  const documents = manifest.map((d, i) => {
    if (!d || typeof d.id !== 'string' || typeof d.file !== 'string') throw new DatasetError(`${manifestPath}: [${i}]: expected {id, file, title}`);
    return { id: d.id, title: typeof d.title === 'string' ? d.title : '', text: readFileSync(join(dir, d.file), 'utf8') };
  });
  return { documents, questions: readJsonl(join(dir, 'questions.jsonl')) };
}
