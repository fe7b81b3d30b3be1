// Loaders for the shared evaluation collections, used by the CLI, tests and benchmarks.
//   loadBeir(dir, {split})  BEIR folder: corpus.jsonl, queries.jsonl, qrels/<split>.tsv
//   loadCisi(dir)           CISI original files: CISI.ALL, CISI.QRY, CISI.REL
//   loadDataset(dir, split) either of the two, by the files present
//   readDocuments(input)    corpus.jsonl, a BEIR folder or a folder of .txt/.md/.html/.pdf/.docx files (index, export; async)
//   readQueries(path)       queries.jsonl or qid<TAB>text lines (search)
//   loadEvidenceCorpus(dir) examples/corpus-style folders (manifest.json + questions.jsonl with evidence)
//   loadQaDataset(dir)      the same folders as {documents (with titles), questions as written} (experiment, rag; async:
//                           every document through extractText, so HTML/PDF/DOCX filings are parsed as `ask --docs` parses them)
// Both return {corpus: [{id, title, text}], queries: [{id, text}], qrels: Map<qid, Map<docid, rel>>}
// with exactly the documents and judged queries used by ../shared/data/golden (see its README):
// queries are those with judgments, in the queries file's order.
// Every file inside a dataset folder is read through the one folder reader (openFolder,
// web/src/document/folder.js): paths confined to the folder after symbolic links are resolved,
// regular files only, sizes capped (FILE_LIMITS; the CLI's --max-file-mb / --max-folder-mb). A
// document that cannot be read is reported (options.onError, default: a line on stderr) and the
// others are kept; a malformed data line is a RagwasmError naming file:line (issue #33).
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, sep } from 'node:path';
import { RagwasmError } from '../src/index.js';
import { openFolder } from '../src/parse.js';
import { terminalSafe } from './lib/terminal.mjs';

/** Default per-file failure report of the dataset readers: one line on stderr, control characters shown. */
function defaultOnError(f) {
  process.stderr.write(terminalSafe(`ragwasm: skipped ${f.file} (${f.code}: ${f.message})\n`));
}

/** Default warning of the dataset readers: one line on stderr. */
function defaultOnWarning(message) {
  process.stderr.write(terminalSafe(`ragwasm: warning: ${message}\n`));
}

/**
 * Parses JSON lines; blank lines ignored; a BOM at the start is dropped. A line that is not JSON is a
 * RagwasmError PARSE_ERROR naming `name:line` (a file written as one JSON array is named as such).
 */
export function parseJsonl(text, name) {
  const out = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i].trim();
    if (!l) continue;
    try {
      out.push(JSON.parse(l));
    } catch (e) {
      const hint = /^[[\]]/.test(l) ? '; a .jsonl file holds one JSON object per line, not one JSON array' : '';
      throw new RagwasmError('PARSE_ERROR', `ragwasm: ${name}:${i + 1}: invalid JSON (${e.message})${hint}`);
    }
  }
  return out;
}

/** Parses a JSON lines file (parseJsonl); errors name the file and line. */
export function readJsonl(path) {
  return parseJsonl(readFileSync(path, 'utf8'), path);
}

// The folder reader of a dataset folder; `options.limits` overrides FILE_LIMITS.
function folder(dir, options = {}) {
  return openFolder(dir, options.limits === undefined ? {} : { limits: options.limits });
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
export function readQrelsTsv(path, options = {}) {
  return parseQrelsTsv(readFileSync(path, 'utf8'), path, options);
}

/**
 * readQrelsTsv on text already read. A (query, document) pair judged twice with the same value is a
 * warning (options.onWarning; the row counts once); with two different values a DatasetError naming
 * both lines (no silent last-wins). A BOM at the start is dropped.
 */
export function parseQrelsTsv(text, path, { onWarning = defaultOnWarning } = {}) {
  const qrels = new Map();
  const seenAt = new Map();
  let repeats = 0;
  let firstRepeat = '';
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
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
    const judged = qrels.get(q);
    if (judged.has(d)) {
      const at = seenAt.get(`${q}\t${d}`);
      if (judged.get(d) !== Number(r)) {
        throw new DatasetError(`${path}:${i + 1}: query ${q} document ${d} judged ${r} here and ${judged.get(d)} on line ${at}; one judgment per pair`);
      }
      if (repeats++ === 0) firstRepeat = `line ${i + 1} repeats line ${at} (query ${q}, document ${d})`;
      continue;
    }
    judged.set(d, Number(r));
    seenAt.set(`${q}\t${d}`, i + 1);
  }
  if (qrels.size === 0) throw new DatasetError(`${path}: no judgments (an empty qrels file evaluates every run to 0)`);
  if (repeats > 0) onWarning(`${path}: ${repeats} duplicate judgment row${repeats === 1 ? '' : 's'} counted once (${firstRepeat})`);
  return qrels;
}

/**
 * BEIR corpus.jsonl text -> [{id, title, text}]: each line a JSON object with `_id` (a non-empty string
 * or a number) and optional string `title` and `text`; anything else is a RagwasmError PARSE_ERROR
 * naming `name:line`. An empty corpus is a DatasetError.
 */
export function parseBeirCorpus(text, name) {
  const lines = text.split('\n');
  const docs = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i].trim();
    if (!l) continue;
    let d;
    try {
      d = JSON.parse(l);
    } catch (e) {
      const hint = /^[[\]]/.test(l) ? '; a corpus.jsonl holds one JSON object per line, not one JSON array' : '';
      throw new RagwasmError('PARSE_ERROR', `ragwasm: ${name}:${i + 1}: invalid JSON (${e.message})${hint}`);
    }
    const where = `ragwasm: ${name}:${i + 1}`;
    if (d === null || typeof d !== 'object' || Array.isArray(d)) {
      throw new RagwasmError('PARSE_ERROR', `${where}: expected a JSON object {"_id", "title", "text"} per line, got ${Array.isArray(d) ? 'an array (a corpus.jsonl holds one document per line, not one JSON array)' : JSON.stringify(d)?.slice(0, 40)}`);
    }
    if (!((typeof d._id === 'string' && d._id !== '') || Number.isFinite(d._id))) {
      throw new RagwasmError('PARSE_ERROR', `${where}: "_id": expected a non-empty string or a number, got ${d._id === undefined ? 'no "_id"' : JSON.stringify(d._id)?.slice(0, 40)}`);
    }
    for (const f of ['title', 'text']) {
      if (d[f] !== undefined && d[f] !== null && typeof d[f] !== 'string') throw new RagwasmError('PARSE_ERROR', `${where}: "${f}": expected a string, got ${JSON.stringify(d[f])?.slice(0, 40)}`);
    }
    docs.push({ id: String(d._id), title: d.title ?? '', text: d.text ?? '' });
  }
  if (docs.length === 0) throw new DatasetError(`${name}: empty corpus (no documents)`);
  return docs;
}

/** BEIR corpus.jsonl -> [{id, title, text}] (file order), read through the folder reader of its folder. */
export function readBeirCorpus(path, options = {}) {
  // A corpus file named on the command line is the user's choice: a symbolic link to it is followed
  // (its real folder is the boundary); files inside a dataset folder are confined to that folder.
  const real = realpathSync(path);
  return parseBeirCorpus(folder(dirname(real), options).readText(basename(real)), path);
}

// A BEIR queries.jsonl: [{id, text}]; a line without _id is a PARSE_ERROR naming it.
function parseBeirQueries(text, name) {
  return parseJsonl(text, name).map((q, i) => {
    if (q === null || typeof q !== 'object' || !((typeof q._id === 'string' && q._id !== '') || Number.isFinite(q._id))) {
      throw new RagwasmError('PARSE_ERROR', `ragwasm: ${name}: query ${i + 1}: expected {"_id", "text"}, got ${JSON.stringify(q)?.slice(0, 60)}`);
    }
    return { id: String(q._id), text: typeof q.text === 'string' ? q.text : '' };
  });
}

/**
 * @param {string} dir a BEIR dataset folder
 * @param {{split?: string}} [options] qrels split (default 'test'); queries are limited to it
 * @returns {{corpus: {id: string, title: string, text: string}[], queries: {id: string, text: string}[], qrels: Map<string, Map<string, number>>}}
 */
export function loadBeir(dir, { split = 'test', limits, onWarning } = {}) {
  const reader = folder(dir, { limits });
  const corpus = parseBeirCorpus(reader.readText('corpus.jsonl'), join(dir, 'corpus.jsonl'));
  const qrelsPath = join(dir, 'qrels', `${split}.tsv`);
  if (!existsSync(qrelsPath)) {
    // Evaluating every query against missing judgments would silently report the wrong split.
    const have = existsSync(join(dir, 'qrels')) ? readdirSync(join(dir, 'qrels')).filter((f) => f.endsWith('.tsv')).map((f) => f.slice(0, -4)) : [];
    throw new DatasetError(`${qrelsPath}: no qrels for split "${split}"` + (have.length ? ` (available: ${have.join(', ')})` : ' (no qrels folder)'));
  }
  const qrels = parseQrelsTsv(reader.readText(`qrels/${split}.tsv`), qrelsPath, onWarning ? { onWarning } : {});
  const all = parseBeirQueries(reader.readText('queries.jsonl'), join(dir, 'queries.jsonl'));
  const queries = all.filter((q) => qrels.has(q.id));
  return { corpus, queries, qrels };
}

// CISI tagged records: `.I n` starts a record; `.T`, `.A`, `.W`, `.X`, ... start fields.
function parseCisi(reader, file) {
  const lines = reader.readText(file, 'latin1').split(/\r?\n/);  // the originals use CRLF; LF copies work too
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
export function loadCisi(dir, { limits } = {}) {
  const reader = folder(dir, { limits });
  const corpus = parseCisi(reader, 'CISI.ALL').map(({ id, f }) => ({ id, title: f.T ?? '', text: f.W ?? '' }));
  const qrels = new Map();
  for (const line of reader.readText('CISI.REL', 'latin1').split(/\r?\n/)) {
    const parts = line.trim().split(/\s+/);
    if (parts.length < 2 || !parts[0]) continue;
    if (!qrels.has(parts[0])) qrels.set(parts[0], new Map());
    qrels.get(parts[0]).set(parts[1], 1);
  }
  if (corpus.length === 0) throw new DatasetError(`${join(dir, 'CISI.ALL')}: empty corpus (no documents)`);
  if (qrels.size === 0) throw new DatasetError(`${join(dir, 'CISI.REL')}: no judgments (an empty qrels file evaluates every run to 0)`);
  const queries = parseCisi(reader, 'CISI.QRY').filter(({ id }) => qrels.has(id)).map(({ id, f }) => ({ id, text: f.W ?? '' }));
  return { corpus, queries, qrels };
}

/**
 * A BEIR folder (corpus.jsonl) or a CISI folder (CISI.ALL), by the files present.
 * @throws {DatasetError} neither
 */
export function loadDataset(dir, split = 'test', options = {}) {
  if (existsSync(join(dir, 'corpus.jsonl'))) return loadBeir(dir, { ...options, split });
  if (existsSync(join(dir, 'CISI.ALL'))) return loadCisi(dir, options);
  if (existsSync(join(dir, 'manifest.json')) && existsSync(join(dir, 'questions.jsonl'))) {
    throw new DatasetError(`--dataset: ${dir} is a documents + questions folder (manifest.json, questions.jsonl, as examples/corpus): `
      + 'eval reads relevance judgments (a BEIR folder with corpus.jsonl and qrels, or CISI); '
      + 'for this folder use ragwasm tune, experiment or rag (evidence recall) or ragwasm ask');
  }
  throw new DatasetError(`--dataset: ${dir} has neither corpus.jsonl (BEIR) nor CISI.ALL`);
}

/**
 * Documents from INPUT: a corpus.jsonl, a BEIR folder, or a folder searched recursively for .txt .md
 * .markdown .html .htm .pdf .docx files (id = relative path, title = first "# " heading of markdown),
 * each read with extractText through the folder reader:
 * a file that cannot be read (outside the folder, not a regular file, over a limit) is reported to
 * options.onError and left out.
 * @param {string} input
 * @param {{limits?: object, onError?: (f: {file: string, code: string, message: string}) => void}} [options]
 * @returns {Promise<{id: string, title: string, text: string}[]>}
 */
export async function readDocuments(input, options = {}) {
  const { onError = defaultOnError } = options;
  const st = statSync(input);
  if (st.isFile()) return readBeirCorpus(input, options);
  const reader = folder(input, options);
  try {
    if (statSync(join(input, 'corpus.jsonl')).isFile()) return parseBeirCorpus(reader.readText('corpus.jsonl'), join(input, 'corpus.jsonl'));
  } catch (e) {
    if (e instanceof RagwasmError || e instanceof DatasetError) throw e;  // a BEIR folder whose corpus is unreadable
  }
  const { files, errors } = reader.list({ extensions: ['txt', 'md', 'markdown', 'html', 'htm', 'pdf', 'docx'] });
  errors.forEach(onError);
  const docs = [];
  for (const f of files) {
    try {
      const d = await reader.readDocument(f, { title: '' });
      const heading = /^#\s+(.+)$/m.exec(d.text);
      docs.push({ id: f.split('/').join(sep), title: /^\.(md|markdown)$/i.test(extname(f)) ? (heading ? heading[1].trim() : '') : '', text: d.text });
    } catch (e) {
      if (!(e instanceof RagwasmError)) throw e;
      onError(failure(f, e));
    }
  }
  return docs;
}

function failure(file, e) {
  const prefix = `ragwasm: ${file}: `;
  return { file, code: e.code, message: e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message.replace(/^ragwasm: /, '') };
}

/**
 * Queries from a BEIR queries.jsonl ({_id, text}), a questions.jsonl ({id, question}, as `ragwasm questions`
 * writes) or a TSV file (`qid<TAB>text` per line).
 */
export function readQueries(path) {
  if (/\.jsonl$/i.test(path)) {
    return readJsonl(path).map((q, i) => {
      const id = q?._id ?? q?.id;
      if (!((typeof id === 'string' && id !== '') || Number.isFinite(id))) throw new RagwasmError('PARSE_ERROR', `ragwasm: ${path}: query ${i + 1}: expected {"_id" or "id", "text" or "question"}`);
      return { id: String(id), text: q.text ?? q.question ?? '' };
    });
  }
  return readFileSync(path, 'utf8').replace(/^\uFEFF/, '').split(/\r?\n/).filter((l) => l.trim()).map((l, i) => {
    const tab = l.indexOf('\t');
    if (tab < 0) throw new RagwasmError('PARSE_ERROR', `ragwasm: ${path}:${i + 1}: expected "qid<TAB>query text"`);
    return { id: l.slice(0, tab), text: l.slice(tab + 1) };
  });
}

/**
 * A sample-corpus folder (manifest.json + questions.jsonl with evidence) -> {documents, queries, evidence}.
 * Documents are the manifest's files inside the folder, each read with extractText (.txt .md .html
 * .pdf .docx; metadata kept); one that cannot be read is reported to options.onError and left out.
 * @returns {Promise<{documents: object[], queries: {id: string, text: string}[], evidence: Record<string, string[]>}>}
 */
export async function loadEvidenceCorpus(dir, options = {}) {
  const { onError = defaultOnError } = options;
  const reader = folder(dir, options);
  const documents = (await manifestDocumentsParsed(reader, onError)).map((d) => ({ ...d, title: '' }));
  const queries = [];
  const evidence = {};
  for (const q of parseJsonl(reader.readText('questions.jsonl'), join(dir, 'questions.jsonl'))) {
    if (!Array.isArray(q?.evidence) || q.evidence.length === 0) continue;  // unanswerable: nothing to retrieve
    queries.push({ id: String(q.id), text: q.question });
    evidence[q.id] = q.evidence;
  }
  return { documents, queries, evidence };
}

/** Loads a labelled --dataset (tune, label, questions, clarify): BEIR (train split when qrels/train.tsv exists) or an evidence corpus. */
export async function loadTuneDataset(dir, options = {}) {
  if (existsSync(join(dir, 'corpus.jsonl'))) {
    const split = existsSync(join(dir, 'qrels', 'train.tsv')) ? 'train' : 'test';
    const d = loadBeir(dir, { ...options, split });
    const qrels = {};
    for (const [q, rels] of d.qrels) qrels[q] = Object.fromEntries(rels);
    return { kind: `beir ${split} qrels`, documents: d.corpus, queries: d.queries, qrels };
  }
  if (existsSync(join(dir, 'manifest.json')) && existsSync(join(dir, 'questions.jsonl'))) {
    return { kind: 'evidence', ...(await loadEvidenceCorpus(dir, options)) };
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

// The documents a manifest names, each read with extractText (ragwasm/parse: .txt .md .markdown .html
// .htm .pdf .docx) through `reader` (its confinement and size limits); a manifest entry's `metadata`
// object is kept (what a config's retrieval.filter selects on). Failures to onError (issue #31).
async function manifestDocumentsParsed(reader, onError) {
  const documents = [];
  for (const m of reader.readManifest()) {
    try {
      const d = await reader.readDocument(m.file, { id: m.id, title: m.title ?? '' });
      const metadata = m.metadata !== null && typeof m.metadata === 'object' && !Array.isArray(m.metadata) ? m.metadata : undefined;
      documents.push({ id: d.id, title: d.title, text: d.text, ...(metadata ? { metadata } : {}) });
    } catch (e) {
      if (!(e instanceof RagwasmError)) throw e;
      onError(failure(m.file, e));
    }
  }
  return documents;
}

/**
 * A QA dataset folder as examples/corpus lays it out: manifest.json ([{id, file, title, metadata?}]),
 * the documents, questions.jsonl ({id, question, answer, doc_ids, evidence, answerable}) ->
 * {documents: [{id, title, text, metadata?}], questions} (the questions as written). Each document is
 * read with extractText (HTML, PDF, DOCX, markdown, text: the reader `ragwasm ask --docs` uses) through
 * the folder reader; one that cannot be read is reported to options.onError and left out.
 * @returns {Promise<{documents: {id: string, title: string, text: string, metadata?: object}[], questions: object[]}>}
 */
export async function loadQaDataset(dir, options = {}) {
  const { onError = defaultOnError } = options;
  if (!existsSync(join(dir, 'manifest.json'))) throw new DatasetError(`${dir}: expected manifest.json, questions.jsonl and the documents (as examples/corpus)`);
  const reader = folder(dir, options);
  let documents;
  try {
    documents = await manifestDocumentsParsed(reader, onError);
  } catch (e) {
    if (e instanceof RagwasmError && e.code === 'PARSE_ERROR' && /manifest\.json/.test(e.message)) throw new DatasetError(e.message.replace(/^ragwasm: manifest\.json/, join(dir, 'manifest.json')));
    throw e;
  }
  return { documents, questions: parseJsonl(reader.readText('questions.jsonl'), join(dir, 'questions.jsonl')) };
}
