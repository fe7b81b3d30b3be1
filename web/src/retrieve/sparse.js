// @ts-check
// Lexical retrieval: Bm25Index (Lucene BM25 and variants over compressed postings, exact MaxScore
// top-k, metadata filters, updates, RM3 feedback, versioned save/load). Scores and ties are exact:
// the same ranking as the exhaustive scorer, ties broken by document id ascending.
import { callWasm, RagwasmError } from '../core/errors.js';
import { SavedIndex, checkSaved, loadSaved, loadStored } from '../core/saved-index.js';
import { MAX_TEXT_BYTES } from '../core/limits.js';
import { wasm } from '../core/module.js';
import { encodeText, encodeTransient } from '../core/encode.js';
import { EXPANSION_KEYS, filterHits, resolveExpansion } from './sparse-expand.js';
import { removalPlan, writeSummary } from '../core/write-policy.js';
import { checkExpansionOption } from './expansion.js';
import {
  expectArray, expectBoolean, expectEnum, expectInteger, expectNumber, expectOptions, expectString, invalid, isArray, isInstance, isPlainObject,
  expectSearchK,
} from '../core/validate.js';

const encoder = new TextEncoder();
const SCORERS = ['lucene', 'robertson', 'atire', 'bm25l', 'bm25plus'];
const BATCH_BYTES = 16 * 1024 * 1024;

/** Most ids one remove() call takes. */
const MAX_REMOVE_IDS = 10_000_000;

function expectId(v, name) {
  if (typeof v !== 'string' || v.length === 0) throw invalid(name, 'a non-empty string id', v);
  if (v.length > 1024) throw invalid(name, 'an id of at most 1024 bytes', v);
  if (typeof v.isWellFormed === 'function' && !v.isWellFormed()) throw invalid(name, 'a string without lone surrogates', v);
  return v;
}

// Packs strings into one UTF-8 blob + Uint32Array offsets (offsets[i]..offsets[i+1] = piece i).
function pack(pieces) {
  const enc = pieces.map((p) => encoder.encode(p));
  let total = 0;
  for (const e of enc) total += e.length;
  if (total > 0xFFFFFFFF) throw new RagwasmError('LIMIT_EXCEEDED', 'ragwasm: documents: more than 4 GiB of text in one call');
  const blob = new Uint8Array(total);
  const offsets = new Uint32Array(enc.length + 1);
  let at = 0;
  for (let i = 0; i < enc.length; i++) {
    blob.set(enc[i], at);
    at += enc[i].length;
    offsets[i + 1] = at;
  }
  return { blob, offsets };
}

// Packed pieces written as UTF-8 straight into the WASM heap (TextEncoder.encodeInto) and passed to
// call(ptr, bytes, offsets) by pointer, which skips a JS copy loop in Embind's std::string conversion
// (about 30 ms of a 380 ms SciFact build). At most 3 bytes per UTF-16 unit; lone surrogates become
// U+FFFD, as TextEncoder.encode does. `what` (plural) names the text in errors.
function withHeapPieces(pieces, what, call) {
  const m = wasm();
  let units = 0;
  for (const p of pieces) units += p.length;
  const cap = Math.max(1, units * 3);
  if (cap > 0xFFFFFFFF) throw new RagwasmError('LIMIT_EXCEEDED', `ragwasm: ${what}: more than 4 GiB of text in one call`);
  const ptr = m._malloc(cap) >>> 0;  // unsigned: heap addresses pass 2 GiB (MAXIMUM_MEMORY=4GB)
  if (!ptr) throw new RagwasmError('OUT_OF_MEMORY', `ragwasm: out of memory allocating ${cap} bytes for the ${what}' UTF-8`);
  try {
    const heap = m.HEAPU8;  // read after malloc: a memory growth replaces the buffer
    const offsets = new Uint32Array(pieces.length + 1);
    let at = 0;
    for (let i = 0; i < pieces.length; i++) {
      at += encoder.encodeInto(pieces[i], heap.subarray(ptr + at, ptr + cap)).written;
      offsets[i + 1] = at;
    }
    return callWasm(() => call(ptr, at, offsets));
  } finally {
    m._free(ptr);
  }
}

function addPieces(native, pieces, fieldsPerDoc, metaJson, mode) {
  return withHeapPieces(pieces, 'documents', (ptr, n, offsets) => native.addAt(ptr, n, offsets, fieldsPerDoc, metaJson, mode));
}

function checkAnalyzer(a) {
  const o = expectOptions(a, 'options.analyzer', ['lowercase', 'foldAccents', 'stopwords', 'stemmer', 'cjkBigrams', 'identifiers', 'maxTokenBytes']);
  for (const k of ['lowercase', 'foldAccents', 'cjkBigrams', 'identifiers']) if (o[k] !== undefined) expectBoolean(o[k], `options.analyzer.${k}`);
  if (o.stemmer !== undefined) expectEnum(o.stemmer, 'options.analyzer.stemmer', ['porter2', 'none']);
  if (o.maxTokenBytes !== undefined) expectInteger(o.maxTokenBytes, 'options.analyzer.maxTokenBytes', { min: 1, max: 4096 });
  if (o.stopwords !== undefined && o.stopwords !== false && o.stopwords !== 'lucene') {
    expectArray(o.stopwords, 'options.analyzer.stopwords', { maxLength: 100000, item: (v, n) => expectString(v, n, { maxLength: 1024 }) });
  }
}

export function checkFilter(filter, name) {
  if (filter === undefined || filter === null) return;
  if (!isPlainObject(filter)) throw invalid(name, 'an object {key: value | [values] | {gte, gt, lte, lt}}', filter);
  const scalar = (v, n) => {
    if (typeof v === 'string') return;
    if (typeof v === 'number' && Number.isFinite(v)) return;
    throw invalid(n, 'a string or a finite number', v);
  };
  for (const [key, v] of Object.entries(filter)) {
    const n = `${name}.${key}`;
    if (isArray(v)) v.forEach((x, i) => scalar(x, `${n}[${i}]`));
    else if (isPlainObject(v)) {
      const r = expectOptions(v, n, ['gte', 'gt', 'lte', 'lt', 'in']);
      if (r.in !== undefined) expectArray(r.in, `${n}.in`, { item: scalar });
      for (const b of ['gte', 'gt', 'lte', 'lt']) if (r[b] !== undefined) expectNumber(r[b], `${n}.${b}`);
    } else scalar(v, n);
  }
}

// `exact` is the oracle switch's name on every index (docs/api.md); the C++ request calls it `exhaustive`.
function checkSearchOptions(options) {
  // a copy: the caller's object is not rewritten (exact -> exhaustive below)
  const o = { ...expectOptions(options, 'search options', ['k', 'filter', 'rm3', 'exact', 'expansion', ...EXPANSION_KEYS]) };
  if (o.k !== undefined) expectSearchK(o.k);
  if (o.exact !== undefined) {
    expectBoolean(o.exact, 'options.exact');
    o.exhaustive = o.exact;
    delete o.exact;
  }
  if (typeof o.filter !== 'function') checkFilter(o.filter, 'options.filter');
  if (o.expansion !== undefined) {
    // the word table crosses as a handle, the numbers in the JSON request
    const { words, json } = checkExpansionOption(o.expansion);
    Object.defineProperty(o, 'expansion', { value: json, enumerable: true });
    Object.defineProperty(o, 'words', { value: words, enumerable: false });
    if (o.rm3 !== undefined && o.rm3 !== false) throw invalid('options.rm3', 'false or nothing with options.expansion (one query expansion at a time)', o.rm3);
  }
  if (o.rm3 !== undefined && typeof o.rm3 !== 'boolean') {
    const r = expectOptions(o.rm3, 'options.rm3', ['fbDocs', 'fbTerms', 'originalWeight']);
    if (r.fbDocs !== undefined) expectInteger(r.fbDocs, 'options.rm3.fbDocs', { min: 1, max: 1000 });
    if (r.fbTerms !== undefined) expectInteger(r.fbTerms, 'options.rm3.fbTerms', { min: 1, max: 1000 });
    if (r.originalWeight !== undefined) expectNumber(r.originalWeight, 'options.rm3.originalWeight', { min: 0, max: 1 });
  }
  return o;
}

const utf8 = new TextDecoder();

// A CollectionStats value, validated (terms unique strings, counts non-negative safe integers).
function checkStats(v, n) {
  const s = expectOptions(v, n, ['documents', 'fieldLengths', 'terms', 'df']);
  if (v === undefined) throw invalid(n, 'collection statistics {documents, fieldLengths, terms, df}', v);
  const documents = expectInteger(s.documents, `${n}.documents`, { min: 0, max: Number.MAX_SAFE_INTEGER });
  const fieldLengths = expectArray(s.fieldLengths, `${n}.fieldLengths`, {
    maxLength: 16, item: (x, m) => expectInteger(x, m, { min: 0, max: Number.MAX_SAFE_INTEGER }),
  });
  const terms = expectArray(s.terms, `${n}.terms`, { maxLength: 0x7FFFFFFF, item: (x, m) => expectString(x, m, { maxLength: 4096 }) });
  let df = s.df;
  if (!isInstance(df, Uint32Array)) {
    df = Uint32Array.from(expectArray(df, `${n}.df`, { maxLength: 0x7FFFFFFF, item: (x, m) => expectInteger(x, m, { min: 0, max: 0xFFFFFFFF }) }));
  }
  if (df.length !== terms.length) throw invalid(`${n}.df`, `${terms.length} counts (one per term)`, s.df);
  return { documents, fieldLengths, terms, df };
}

function toHits(r) {
  const out = new Array(r.ids.length);
  for (let i = 0; i < out.length; i++) out[i] = { id: r.ids[i], score: r.scores[i] };
  return out;
}

/**
 * @typedef {object} Bm25Hit
 * @property {string} id document id
 * @property {number} score BM25 score (higher is better)
 */

// The terms of collectionStats(): a UTF-8 blob cut at byte offsets (one decode when it is all ASCII,
// since byte offsets are then UTF-16 offsets).
function decodeTerms(blob, offsets) {
  const terms = new Array(offsets.length - 1);
  let ascii = true;
  for (let i = 0; i < blob.length; i++) if (blob[i] > 0x7F) { ascii = false; break; }
  if (ascii) {
    const all = utf8.decode(blob);
    for (let i = 0; i < terms.length; i++) terms[i] = all.slice(offsets[i], offsets[i + 1]);
  } else {
    for (let i = 0; i < terms.length; i++) terms[i] = utf8.decode(blob.subarray(offsets[i], offsets[i + 1]));
  }
  return terms;
}

// The term-by-term sum behind Bm25Index.sumStats, over checked statistics.
function sumCheckedStats(items) {
  const index = new Map();
  const terms = [];
  const df = [];
  const { documents, fieldLengths } = sumCounts(items);
  items.forEach((s) => {
    for (let t = 0; t < s.terms.length; t++) {
      const at = index.get(s.terms[t]);
      if (at === undefined) {
        index.set(s.terms[t], terms.length);
        terms.push(s.terms[t]);
        df.push(s.df[t]);
      } else {
        df[at] += s.df[t];
      }
    }
  });
  if (df.some((v) => v > 0xFFFFFFFF)) throw dfOverflow();
  return { documents, fieldLengths, terms, df: Uint32Array.from(df) };
}

// The summed document count and field lengths of statistics over disjoint documents (the same field
// count in every item), checked to stay exact.
function sumCounts(items) {
  let documents = 0;
  let fieldLengths = null;
  items.forEach((s, i) => {
    if (fieldLengths === null) fieldLengths = Array.from(s.fieldLengths, () => 0);
    if (s.fieldLengths.length !== fieldLengths.length) {
      throw invalid(`stats[${i}].fieldLengths`, `${fieldLengths.length} values (the field count of stats[0])`, s.fieldLengths);
    }
    documents += s.documents;
    for (let f = 0; f < fieldLengths.length; f++) fieldLengths[f] += s.fieldLengths[f];
  });
  for (const v of [documents, ...(fieldLengths ?? [])]) {
    if (!Number.isSafeInteger(v)) throw new RagwasmError('LIMIT_EXCEEDED', 'ragwasm: stats: a summed count exceeds 2^53');
  }
  return { documents, fieldLengths: fieldLengths ?? [] };
}

const dfOverflow = () => new RagwasmError('LIMIT_EXCEEDED', 'ragwasm: stats: a summed document frequency exceeds 2^32-1');

/**
 * A BM25 index in WASM memory. Documents are objects `{id, <field>: string, ..., metadata?}` with the
 * index's fields (default `title` and `text`, both boost 1: equal to indexing `title + " " + text`).
 *
 * @example
 * const idx = Bm25Index.create();
 * idx.add([{ id: 'd1', title: 'Apples', text: 'Apple pie recipes', metadata: { lang: 'en', year: 2020 } }]);
 * idx.search('apple', { k: 5, filter: { lang: 'en', year: { gte: 2019 } } }); // [{id: 'd1', score: …}]
 * const bytes = idx.toBytes(); const again = Bm25Index.fromBytes(bytes);
 * idx.dispose(); again.dispose();
 */
export class Bm25Index extends SavedIndex {
  /**
   * @param {object} [options]
   * @param {Array<string|{name: string, boost?: number}>} [options.fields=['title','text']] 1–16 fields;
   *   boost (default 1) multiplies the field's term frequencies and length (simple BM25F)
   * @param {'lucene'|'robertson'|'atire'|'bm25l'|'bm25plus'} [options.scorer='lucene']
   * @param {number} [options.k1=0.9] in [0, 100]
   * @param {number} [options.b=0.4] in [0, 1]
   * @param {number} [options.delta] BM25L (default 0.5) / BM25+ (default 1) delta, in [0, 100]
   * @param {object} [options.analyzer] `{lowercase=true, foldAccents=true, stopwords='lucene'|false|string[],
   *   stemmer='porter2'|'none', cjkBigrams=true, identifiers=true, maxTokenBytes=255}`
   * @returns {Bm25Index}
   * @throws {RagwasmError} INVALID_ARGUMENT
   */
  static create(options = {}) {
    const o = expectOptions(options, 'Bm25Index options', ['fields', 'scorer', 'k1', 'b', 'delta', 'analyzer']);
    if (o.fields !== undefined) {
      expectArray(o.fields, 'options.fields', { maxLength: 16 });
      if (o.fields.length === 0) throw invalid('options.fields', 'at least one field', o.fields);
      o.fields.forEach((f, i) => {
        if (typeof f === 'string') return expectString(f, `options.fields[${i}]`, { allowEmpty: false, maxLength: 256 });
        const fo = expectOptions(f, `options.fields[${i}]`, ['name', 'boost']);
        expectString(fo.name, `options.fields[${i}].name`, { allowEmpty: false, maxLength: 256 });
        if (fo.boost !== undefined) expectNumber(fo.boost, `options.fields[${i}].boost`, { min: 1e-9, max: 1e6 });
        return f;
      });
      const names = o.fields.map((f) => (typeof f === 'string' ? f : f.name));
      for (const n of names) {
        if (n === 'id' || n === 'metadata') throw invalid('options.fields', "field names other than 'id' and 'metadata'", n);
      }
      if (new Set(names).size !== names.length) throw invalid('options.fields', 'unique field names', names.join(','));
    }
    if (o.scorer !== undefined) expectEnum(o.scorer, 'options.scorer', SCORERS);
    if (o.k1 !== undefined) expectNumber(o.k1, 'options.k1', { min: 0, max: 100 });
    if (o.b !== undefined) expectNumber(o.b, 'options.b', { min: 0, max: 1 });
    if (o.delta !== undefined) expectNumber(o.delta, 'options.delta', { min: 0, max: 100 });
    if (o.analyzer !== undefined) checkAnalyzer(o.analyzer);
    const m = wasm();
    return new Bm25Index(callWasm(() => m.sparse_createIndex(JSON.stringify(o))));
  }

  /**
   * Rebuilds an index from toBytes() output.
   * @param {Uint8Array|ArrayBuffer} bytes
   * @returns {Bm25Index}
   * @throws {RagwasmError} CORRUPT_INDEX (truncated, changed or not an index), UNSUPPORTED_VERSION
   */
  static fromBytes(bytes) {
    return loadSaved(Bm25Index, bytes, 'sparse_loadIndex');
  }

  /**
   * @internal Every check of fromBytes() without building the index (Collection.save()'s check: a
   * second index in the WASM heap would stay as heap, docs/scale.md), except duplicate ids: each
   * saved id is handed to `onIds` (arrays of ids in saved order, in batches) for the caller to compare.
   * @param {Uint8Array|import('../core/heap-bytes.js').HeapBytes} bytes toBytes() output, or _heapBytes() output (checked in place in the heap)
   * @param {(ids: string[]) => void} onIds must not throw
   * @returns {{fields: string[], size: number}} the field names and the document count
   * @throws {RagwasmError} as fromBytes()
   */
  static _checkBytes(bytes, onIds) {
    const r = checkSaved(bytes, onIds, 'sparse_checkSection', 'sparse_checkSaved');
    return { fields: r.fields, size: r.documents };
  }

  /**
   * Loads an index stored with save(name) (storage.js: OPFS / IndexedDB / Node file).
   * @param {string} name
   * @param {{dir?: string, backend?: 'node'|'opfs'|'indexeddb'}} [opts]
   * @returns {Promise<Bm25Index>}
   * @throws {RagwasmError} NOT_FOUND (nothing stored under name), as fromBytes(), storage errors
   */
  static load(name, opts) {
    return loadStored(Bm25Index, 'Bm25Index', name, opts);
  }

  /** @param {object} native */
  constructor(native) {
    super(native);
    this._fields = callWasm(() => native.fieldNames());
  }

  /** Field names, in order. @returns {string[]} */
  get fields() {
    return [...this._fields];
  }

  // One document -> its id and field texts (in field order) and its metadata (or null), validated.
  _entry(doc, n) {
    const fields = this._fields;
    if (!isPlainObject(doc)) throw invalid(n, 'a document object {id, ...fields, metadata?}', doc);
    const d = expectOptions(doc, n, ['id', 'metadata', ...fields]);
    const pieces = [expectId(d.id, `${n}.id`)];
    let bytes = 0;
    for (const f of fields) {
      const t = d[f] === undefined || d[f] === null ? '' : expectString(d[f], `${n}.${f}`);
      bytes += t.length;
      if (t.length > MAX_TEXT_BYTES) throw new RagwasmError('LIMIT_EXCEEDED', `ragwasm: ${n}.${f}: text is ${t.length} characters, the limit is ${MAX_TEXT_BYTES} bytes`);
      pieces.push(t);
    }
    let meta = null;
    if (d.metadata !== undefined && d.metadata !== null) {
      if (!isPlainObject(d.metadata)) throw invalid(`${n}.metadata`, 'an object of strings, numbers or arrays of those', d.metadata);
      checkFilter(d.metadata, `${n}.metadata`);
      for (const [k, v] of Object.entries(d.metadata)) if (isPlainObject(v)) throw invalid(`${n}.metadata.${k}`, 'a string, a number or an array', v);
      meta = d.metadata;
    }
    return { id: pieces[0], pieces, meta, bytes };
  }

  // Writes validated entries in batches of about 16 MiB of text.
  _write(entries, mode) {
    const fields = this._fields;
    let start = 0;
    while (start < entries.length) {
      const pieces = [];
      const metas = [];
      let anyMeta = false;
      let bytes = 0;
      let i = start;
      for (; i < entries.length && (i === start || bytes < BATCH_BYTES); i++) {
        pieces.push(...entries[i].pieces);
        bytes += entries[i].bytes;
        metas.push(entries[i].meta);
        if (entries[i].meta !== null) anyMeta = true;
      }
      const native = this.native;
      addPieces(native, pieces, fields.length, anyMeta ? JSON.stringify(metas) : '', mode);
      start = i;
    }
  }

  // Validates every document and id before anything is written: one policy for every index
  // (docs/api.md): an id twice in one batch is DUPLICATE_ID; add() refuses ids already indexed.
  _writeAll(docs, mode) {
    const list = isArray(docs) ? expectArray(docs, 'docs', { maxLength: MAX_REMOVE_IDS }) : [docs];
    const seen = new Set();
    let existing = 0;
    const entries = list.map((d, i) => {
      const n = isArray(docs) ? `docs[${i}]` : 'docs';
      const e = this._entry(d, n);
      if (seen.has(e.id)) throw new RagwasmError('DUPLICATE_ID', `ragwasm: ${n}.id: '${e.id}' appears twice in this batch`);
      seen.add(e.id);
      if (this.has(e.id)) {
        if (mode === 0) throw new RagwasmError('DUPLICATE_ID', `ragwasm: ${n}.id: '${e.id}' is already indexed (use upsert to replace it); nothing was added`);
        existing++;
      }
      return e;
    });
    this._write(entries, mode);
    return writeSummary({ added: list.length - existing, updated: existing });
  }

  /**
   * Adds documents; all or nothing when an id is bad or already indexed.
   * @example idx.add([{ id: 'd1', title: 'Apples', text: 'Apple pie', metadata: { year: 2020 } }]); // {added: 1, updated: 0, removed: 0, skipped: 0}
   * @param {object|object[]} docs `{id, title?, text?, ...fields, metadata?: {key: string|number|Array}}`
   * @returns {{added: number, updated: number, removed: number, skipped: number}} the write summary
   *   every index returns (docs/api.md)
   * @throws {RagwasmError} INVALID_ARGUMENT, DUPLICATE_ID (already indexed: use upsert; or twice in the
   *   batch), LIMIT_EXCEEDED, DISPOSED
   */
  add(docs) {
    return this._writeAll(docs, 0);
  }

  /**
   * Adds or replaces documents by id (collection statistics stay exact).
   * @param {object|object[]} docs
   * @returns {{added: number, updated: number, removed: number, skipped: number}} updated = ids that were indexed
   * @throws {RagwasmError} as add(), except that an indexed id is replaced
   */
  upsert(docs) {
    return this._writeAll(docs, 1);
  }

  /**
   * Deletes documents by id. Space is reclaimed by compact(); statistics are exact at once.
   * @param {string|string[]} ids
   * @param {{ignoreMissing?: boolean}} [options] default false: an unknown id throws NOT_FOUND and
   *   nothing is removed; true: unknown ids are skipped (counted in `skipped`)
   * @returns {{added: number, updated: number, removed: number, skipped: number}}
   * @throws {RagwasmError} INVALID_ARGUMENT, NOT_FOUND, DISPOSED
   */
  remove(ids, options = {}) {
    const list = isArray(ids) ? expectArray(ids, 'ids', { maxLength: MAX_REMOVE_IDS, item: expectId }) : [expectId(ids, 'id')];
    const { present, skipped } = removalPlan(list, (id) => this.has(id), options);
    if (present.length === 0) return writeSummary({ skipped });
    const { blob, offsets } = pack(present);
    const native = this.native;
    const removed = callWasm(() => native.remove(blob, offsets, true));
    return writeSummary({ removed, skipped });
  }

  /**
   * Ranks documents for a query.
   * @param {string} query
   * @param {object} [options]
   * @param {number} [options.k=10] results wanted, an integer in [1, 100000] (MAX_SEARCH_K, the rule of every search)
   * @param {object|((hit: Bm25Hit) => unknown)} [options.filter] metadata predicates, all must hold: `{lang: 'en'}`,
   *   `{tag: ['a', 'b']}` (any of), `{year: {gte: 2000, lt: 2010}}`; applied during the search, so k
   *   results come back whenever at least k matching documents contain a query term. Or a function of each
   *   ranked hit: hits it returns falsy for are dropped (more are fetched until k pass or none are left)
   * @param {boolean|{fbDocs?: number, fbTerms?: number, originalWeight?: number}} [options.rm3=false]
   *   RM3 pseudo-relevance feedback (defaults 3 docs, 10 terms, original weight 0.9, chosen on SciFact train)
   * @param {boolean} [options.exact=false] score every matching document (the test oracle)
   * @param {boolean|((term: string, i: number, terms: string[]) => boolean)} [options.prefix=false] also match
   *   index terms each analyzed query term starts ("warr" finds "warranti"), weight 0.375·|t|/(|t|+0.3·(|t|−|q|))
   * @param {number|boolean|((term: string, i: number, terms: string[]) => number|boolean|null)} [options.fuzzy=false]
   *   also match terms within an edit distance: a fraction of the term length in [0, 1) (round(f·|q|), at most
   *   maxFuzzy), an integer distance in [1, 16], or true (0.2); weight 0.45·|t|/(|t|+d). MiniSearch's definitions
   * @param {number} [options.maxFuzzy=6] cap of a fractional fuzzy distance
   * @param {{prefix?: number, fuzzy?: number}} [options.weights] expansion weights (defaults 0.375, 0.45)
   * @param {'OR'|'AND'} [options.combineWith='OR'] AND: a hit holds every query term (or an expansion of it)
   * @param {Object<string, number>} [options.boost] per-query field boosts, multiplying the index's tf weights
   *   (document lengths keep the index's boosts); scored by the exact oracle
   * @param {boolean} [options.explain=false] add `matches` to each hit: [{query, term, kind: 'exact'|'prefix'|'fuzzy',
   *   distance, weight, score}]
   * @param {{words: import('./expansion.js').WordNeighbours, perTerm?: number, minSimilarity?: number, weight?: number}} [options.expansion]
   *   query expansion from word neighbours (createWordNeighbours()): each query word that is not a stop word,
   *   number, identifier part or all-caps acronym adds at most perTerm (1..16, default 2) of its nearest words
   *   with similarity >= minSimilarity (default 0.7) that analyze to a term of this index other than the
   *   query's own, scored at weight (default 0.3) x similarity; the query's own terms keep weight 1 per
   *   occurrence (expansionTerms() lists them; docs/sparse.md "Query expansion"). Not with rm3.
   * @returns {Bm25Hit[]} best first; ties by id ascending
   */
  search(query, options) {
    const bytes = encodeText(query, 'query');
    const native = this.native;
    if (options === undefined) return toHits(callWasm(() => native.searchK(bytes, 10)));
    const o = checkSearchOptions(options);
    const keys = Object.keys(o);
    if (keys.length === 0 || (keys.length === 1 && o.k !== undefined)) {
      const k = o.k ?? 10;
      return toHits(callWasm(() => native.searchK(bytes, k)));
    }
    const keep = resolveExpansion(o, () => this.analyze(query));
    const explain = o.explain === true;
    const words = o.words ? o.words.native : null;  // retrieval expansion from word neighbours (expansion.js)
    const run = (k) => {
      const json = JSON.stringify({ ...o, k });
      if (words) return toHits(callWasm(() => native.searchExpanded(bytes, json, words)));
      if (!explain) return toHits(callWasm(() => native.search(bytes, json)));
      const r = callWasm(() => native.searchExplain(bytes, json));
      return toHits(r).map((h, i) => ({ ...h, matches: r.matches[i] }));
    };
    return keep === null ? run(o.k ?? 10) : filterHits(o.k ?? 10, run, keep);
  }

  /**
   * Completions for type-ahead: index terms that start with the last analyzed term of `prefix`, by the
   * number of live documents holding them (descending), then bytewise. Terms are as indexed (lowercased,
   * folded and, with the default analyzer, stemmed: "warranty" is "warranti").
   * @example idx.suggest('warr'); // [{term: 'warranti', df: 3}, …]
   * @param {string} prefix
   * @param {{k?: number}} [options] k: completions wanted, [1, 100000], default 10
   * @returns {{term: string, df: number}[]}
   * @throws {RagwasmError} INVALID_ARGUMENT, DISPOSED
   */
  suggest(prefix, options = {}) {
    const o = expectOptions(options, 'suggest options', ['k']);
    const k = o.k === undefined ? 10 : expectSearchK(o.k, 'options.k');
    const bytes = encodeText(prefix, 'prefix');
    const native = this.native;
    return callWasm(() => native.suggest(bytes, k));
  }

  /**
   * The expansion terms search(query, {expansion}) adds, in scoring order.
   * @example idx.expansionTerms('physician on call', { expansion: { words } })
   * // [{term: 'doctor', from: 'physician', word: 'doctor', similarity: 0.80.., weight: 0.24..}]
   * @param {string} query
   * @param {{expansion: object}} options search()'s expansion option (required)
   * @returns {{term: string, from: string, word: string, similarity: number, weight: number}[]}
   * @throws {RagwasmError} INVALID_ARGUMENT, DISPOSED
   */
  expansionTerms(query, options) {
    const o = expectOptions(options, 'expansionTerms options', ['expansion']);
    if (options === undefined || o.expansion === undefined) throw invalid('options.expansion', 'an expansion option {words, ...}', undefined);
    const { words, json } = checkExpansionOption(o.expansion);
    const bytes = encodeText(query, 'query');
    const native = this.native;
    const w = words.native;
    return callWasm(() => native.expansionTerms(bytes, JSON.stringify({ expansion: json }), w));
  }

  /**
   * The weighted query RM3 would run: the original terms plus expansion terms (weights sum to 1).
   * @param {string} query
   * @param {object} [options] as search(); rm3 settings apply
   * @returns {{term: string, weight: number}[]}
   */
  expandQuery(query, options = {}) {
    const o = checkSearchOptions(options);
    const bytes = encodeText(query, 'query');
    const native = this.native;
    return callWasm(() => native.expandQuery(bytes, JSON.stringify(o)));
  }

  /** Terms the index's analyzer produces for `text`. @param {string} text @returns {string[]} */
  analyze(text) {
    const bytes = encodeText(text, 'text');
    const native = this.native;
    return callWasm(() => native.analyze(bytes));
  }

  /**
   * Internal (#30 F-2, web/src/pipeline/saved-check.js): the first item whose texts, analyzed by this
   * index's analyzer as add() does, do not give exactly the distinct terms the index holds for its id
   * (none when the id is not indexed). Analysis and comparison run in WASM (src/sparse/index_verify.cpp).
   * @param {string[]} pieces per item: its id, then `textsPerItem` texts ('' = none), in any field order
   * @param {number} textsPerItem
   * @returns {{item: number, analyzed: number, held: number}|null} the item's index and term counts, or null
   */
  _termMismatch(pieces, textsPerItem) {
    const native = this.native;
    return withHeapPieces(pieces, 'checked texts', (ptr, n, offsets) => native.termMismatchAt(ptr, n, offsets, textsPerItem));
  }

  /**
   * The weighted terms search(query) scores: analyzed terms in order of first appearance, weight =
   * occurrences in the query (terms no document holds are kept: they have no impacts). Works on an empty index with the same analyzer. A server engine scores the
   * query as the sum over these terms of weight x impact (see impacts(), docs/postgres.md).
   * @param {string} query
   * @returns {{term: string, weight: number}[]}
   */
  queryTerms(query) {
    const bytes = encodeText(query, 'query');
    const native = this.native;
    return callWasm(() => native.queryTerms(bytes));
  }

  /**
   * The BM25 impact table, streamed in batches: impact = the exact score (a double) a one-term query
   * gives the document, from the index's analyzer, scorer, k1, b, delta and field boosts. Summed
   * over queryTerms() in their order (weight x impact) it equals search()'s score bit for bit.
   * Rows of batch term `terms[i]` are `rowStart[i] .. rowStart[i+1]-1`; `docs[r]` is an index into
   * `ids` (live documents in insertion order, the same array in every batch), sorted ascending.
   * @example for (const b of index.impacts()) for (let i = 0; i < b.terms.length; i++) ...
   * @param {{batchTerms?: number, batchRows?: number}} [options] at most batchTerms terms (default
   *   4096) or about batchRows rows (default 262144, at least one term) per batch
   * @returns {Generator<{ids: string[], terms: string[], rowStart: Uint32Array, docs: Uint32Array, impacts: Float64Array}>}
   * @throws {RagwasmError} INVALID_ARGUMENT (bad option), DISPOSED, ABORTED (the index changed
   *   between two batches: restart the export)
   */
  *impacts(options = {}) {
    const o = expectOptions(options, 'impacts options', ['batchTerms', 'batchRows']);
    const batchTerms = o.batchTerms === undefined ? 4096 : expectInteger(o.batchTerms, 'options.batchTerms', { min: 1, max: 1_000_000 });
    const batchRows = o.batchRows === undefined ? 262144 : expectInteger(o.batchRows, 'options.batchRows', { min: 1, max: 100_000_000 });
    const shape = () => { const s = this.stats(); return `${s.documents}/${s.deleted}/${s.terms}`; };
    const start = shape();
    const reader = callWasm(() => this.native.impactReader());
    try {
      const ids = callWasm(() => reader.ids());
      const count = callWasm(() => reader.termCount());
      for (let t = 0; t < count;) {
        if (shape() !== start) throw new RagwasmError('ABORTED', 'ragwasm: impacts: the index changed while its impacts were read; read them again');
        const b = callWasm(() => reader.read(t, batchTerms, batchRows));
        t = b.next;
        if (b.terms.length > 0) yield { ids, terms: b.terms, rowStart: b.rowStart, docs: b.docs, impacts: b.impacts };
      }
    } finally {
      reader.delete();
    }
  }

  /** @param {string} id @returns {boolean} */
  has(id) {
    expectId(id, 'id');
    const native = this.native;
    return callWasm(() => native.has(encodeTransient(id)));
  }

  /** Live documents containing an analyzed term. @param {string} term @returns {number} */
  documentFrequency(term) {
    const bytes = encodeText(term, 'term');
    const native = this.native;
    return callWasm(() => native.documentFrequency(bytes));
  }

  /**
   * The statistics BM25 scores depend on, as exact integers, so the statistics of indexes over
   * disjoint documents (shards) can be summed with Bm25Index.sumStats() and handed back to each with
   * setGlobalStats() (docs/parallel.md).
   * @returns {import('./sparse.js').CollectionStats} `{documents, fieldLengths, terms, df}`: live documents, per-field token
   *   totals (unboosted, in field order), every dictionary term and its document frequency (df[i] for terms[i])
   * @throws {RagwasmError} DISPOSED
   */
  collectionStats() {
    const r = this._rawStats();
    return { documents: r.documents, fieldLengths: Array.from(r.fieldLengths), terms: decodeTerms(r.terms, r.termOffsets), df: r.df };
  }

  /**
   * collectionStats() before the terms are decoded: `{documents, fieldLengths: Float64Array, df:
   * Uint32Array, terms: Uint8Array (the UTF-8 of every term, concatenated), termOffsets: Uint32Array}`,
   * all typed arrays a Worker can move to the caller (the sharded index's statistics sync). @internal
   */
  _rawStats() {
    const native = this.native;
    return callWasm(() => native.collectionStats());
  }

  /**
   * The statistics sync of a sharded index in one pass: the _rawStats() of every shard summed exactly
   * as sumStats() sums them (integer sums, the same overflow checks), and for each shard the summed df
   * of its own terms, aligned to its dictionary (what _setGlobalDf takes). @internal
   * @param {Array<{documents: number, fieldLengths: ArrayLike<number>, df: Uint32Array, terms: Uint8Array, termOffsets: Uint32Array}>} items
   * @returns {{documents: number, fieldLengths: number[], df: Uint32Array[]}}
   */
  static _globalDf(items) {
    // terms are matched as UTF-8 byte strings in an open-addressing table (FNV-1a over the bytes), with
    // no JS string made: slot -> the shard and term index of its first occurrence, and its global number
    let count = 0;
    for (const s of items) count += s.termOffsets.length - 1;
    let cap = 16;
    while (cap < count * 2) cap *= 2;
    const mask = cap - 1;
    const slotShard = new Int32Array(cap).fill(-1);
    const slotTerm = new Int32Array(cap);
    const slotGlobal = new Int32Array(cap);
    const total = new Float64Array(count);  // exact: sums of at most 4096 u32 values
    let globals = 0;
    const { documents, fieldLengths } = sumCounts(items);
    const at = items.map((s, i) => {
      const blob = s.terms;
      const off = s.termOffsets;
      const pos = new Uint32Array(off.length - 1);
      for (let t = 0; t < pos.length; t++) {
        const a = off[t];
        const b = off[t + 1];
        let h = 0x811C9DC5;
        for (let k = a; k < b; k++) h = Math.imul(h ^ blob[k], 0x01000193);
        let slot = h & mask;
        for (;;) {
          const ss = slotShard[slot];
          if (ss === -1) {
            slotShard[slot] = i;
            slotTerm[slot] = t;
            slotGlobal[slot] = globals;
            total[globals] = s.df[t];
            pos[t] = globals++;
            break;
          }
          const other = items[ss];
          const oa = other.termOffsets[slotTerm[slot]];
          if (other.termOffsets[slotTerm[slot] + 1] - oa === b - a) {
            const ob = other.terms;
            let k = 0;
            while (k < b - a && ob[oa + k] === blob[a + k]) k++;
            if (k === b - a) {
              const g = slotGlobal[slot];
              total[g] += s.df[t];
              pos[t] = g;
              break;
            }
          }
          slot = (slot + 1) & mask;
        }
      }
      return pos;
    });
    for (let g = 0; g < globals; g++) if (total[g] > 0xFFFFFFFF) throw dfOverflow();
    return {
      documents,
      fieldLengths,
      df: at.map((pos) => {
        const df = new Uint32Array(pos.length);
        for (let t = 0; t < pos.length; t++) df[t] = total[pos[t]];
        return df;
      }),
    };
  }

  /**
   * Sums collectionStats() of indexes over disjoint documents (same fields), term by term.
   * @param {import('./sparse.js').CollectionStats[]} list
   * @returns {import('./sparse.js').CollectionStats} terms in order of first appearance across the list
   * @throws {RagwasmError} INVALID_ARGUMENT (not stats, field counts differ, a count out of range)
   */
  static sumStats(list) {
    return sumCheckedStats(expectArray(list, 'stats', { maxLength: 4096 }).map((v, i) => checkStats(v, `stats[${i}]`)));
  }

  /**
   * Scores with collection-wide statistics (Bm25Index.sumStats() of every shard's collectionStats()):
   * N, the average document length and each term's document frequency then come from `stats`, so
   * this index scores its documents bit for bit as one index over the whole collection would. Holds
   * until the next add/upsert/remove/compact, which restore this index's own statistics; RM3 and
   * stats() keep using local statistics. Not saved by toBytes().
   * @param {import('./sparse.js').CollectionStats} stats must cover this index: every term of its dictionary, counts >= its own
   * @throws {RagwasmError} INVALID_ARGUMENT (a term of this index missing, a count below this index's
   *   own, field count differs), DISPOSED
   */
  setGlobalStats(stats) {
    const s = checkStats(stats, 'stats');
    const index = new Map();
    for (let t = 0; t < s.terms.length; t++) index.set(s.terms[t], t);
    const own = this.collectionStats();
    const df = new Uint32Array(own.terms.length);
    for (let t = 0; t < own.terms.length; t++) {
      const at = index.get(own.terms[t]);
      if (at === undefined) {
        if (own.df[t] > 0) throw invalid('stats.terms', `every term of this index (missing '${own.terms[t]}')`, s.terms);
        continue;  // a term only in removed documents: df 0 here, unused by scoring
      }
      df[t] = s.df[at];
    }
    const native = this.native;
    callWasm(() => native.setGlobalStats(s.documents, Float64Array.from(s.fieldLengths), df));
  }

  /**
   * setGlobalStats() with the document frequencies already aligned to this index's own dictionary
   * (df[i] for collectionStats().terms[i]), as the sharded index computes them in the calling thread,
   * so the whole term list is not sent back to every shard. @internal
   * @param {number} documents
   * @param {number[]} fieldLengths
   * @param {Uint32Array} df
   */
  _setGlobalDf(documents, fieldLengths, df) {
    const n = expectInteger(documents, 'stats.documents', { min: 0, max: Number.MAX_SAFE_INTEGER });
    const lens = expectArray(fieldLengths, 'stats.fieldLengths', { maxLength: 16, item: (x, m) => expectInteger(x, m, { min: 0, max: Number.MAX_SAFE_INTEGER }) });
    if (!isInstance(df, Uint32Array)) throw invalid('stats.df', 'a Uint32Array', df);
    const native = this.native;
    callWasm(() => native.setGlobalStats(n, Float64Array.from(lens), df));
  }

  /** Rewrites postings without deleted documents. */
  compact() {
    const native = this.native;
    callWasm(() => native.compact());
  }

  /**
   * @returns {{documents: number, deleted: number, terms: number, avgLength: number, postingsBytes: number, memoryBytes: number}}
   */
  stats() {
    const native = this.native;
    return callWasm(() => native.stats());
  }

  /** Number of live documents. */
  get size() {
    return this.stats().documents;
  }

}
