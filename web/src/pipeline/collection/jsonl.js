// @ts-check
// JSONL export / import of a collection (docs/collection.md "JSONL"): chunks + vectors + metadata, one
// JSON object per line, for server-side engines (web/src/server/) and for importJsonl().
import { RagwasmError } from '../../core/errors.js';
import { describe, hasMethod, invalid, isArray, isObject, isPlainObject, expectBoolean, expectFunction, expectInteger, expectOptions } from '../../core/validate.js';
import { embedTexts } from '../../embed/contract.js';
import { parsePipelineConfig, readPipelineConfig } from '../pipeline.js';
import { DocRecord } from '../chunk-store.js';
import { abortCheck, bm25Doc, declaredDimension, denseEmbedder, extraFields, indexTextOf, isZeroVector } from './parts.js';

/** The JSONL export format version (the header line's "version") this build writes; it reads 1 and 2
 * (2 added the optional `embedder`, `fields` and `indexText`). */
export const JSONL_FORMAT_VERSION = 2;
const JSONL_HEADER = 'ragwasm.collection';
const JSONL_DOCUMENT = 'ragwasm.document';
const CHUNK_FIELDS = ['id', 'docId', 'ordinal', 'text', 'start', 'end', 'metadata', 'vector', 'indexText', 'fields'];
const HEADER_FIELDS = ['type', 'version', 'config', 'dimension', 'documents', 'chunks', 'vectors', 'embedder'];
const DOCUMENT_FIELDS = ['type', 'id', 'metadata', 'fields'];

/** Collection.exportJsonlLines(): the lines of `col` (see there). */
export async function* exportLines(col, options = {}) {
  col._alive();
  const o = expectOptions(options, 'exportJsonl options', ['vectors', 'header', 'batchSize', 'signal', 'onProgress']);
  const withVectors = o.vectors === undefined ? false : expectBoolean(o.vectors, 'options.vectors');
  const header = o.header === undefined ? true : expectBoolean(o.header, 'options.header');
  const batchSize = o.batchSize === undefined ? 256 : expectInteger(o.batchSize, 'options.batchSize', { min: 1, max: 100000 });
  if (o.onProgress !== undefined) expectFunction(o.onProgress, 'options.onProgress');
  if (withVectors && !col.config.indexes.dense) throw invalid('options.vectors', 'false (the config has no dense index)', true);
  const docs = [...col.docs.entries()];
  const total = docs.reduce((s, [, d]) => s + d.chunkCount, 0);
  if (header) {
    const line = { type: JSONL_HEADER, version: JSONL_FORMAT_VERSION, config: col.config,
      dimension: col.config.indexes.dense ? col.dimension : null, documents: docs.length, chunks: total, vectors: withVectors };
    if (col.embedder) line.embedder = { id: col.embedder.id, dimension: col.embedder.dimension };
    yield JSON.stringify(line);
  }
  const embedder = col.embedder;
  const kept = col._vectors;
  let pending = [];  // [chunk, metadata]
  let done = 0;
  const flush = async () => {
    abortCheck(o.signal);
    let vectors = null;
    if (withVectors) {
      vectors = pending.map(([c]) => kept?.get(c.id) ?? null);
      const missing = vectors.flatMap((v, i) => (v === null ? [i] : []));
      if (missing.length > 0) {
        const out = await embedTexts(embedder, missing.map((i) => indexTextOf(pending[i][0])), { kind: 'document', signal: o.signal });
        abortCheck(o.signal);
        missing.forEach((i, j) => {
          vectors[i] = Float32Array.from(out[j]);
          if (kept && col.docs.get(pending[i][0].docId) === pending[i][1]) kept.set(pending[i][0].id, vectors[i]);
        });
      }
    }
    const lines = pending.map(([c, d], i) => chunkLine(c, d, vectors?.[i]));
    done += pending.length;
    pending = [];
    o.onProgress?.({ done, total });
    return lines;
  };
  for (const [id, d] of docs) {
    if (d.chunkCount === 0) {
      if (pending.length > 0) yield* await flush();
      const line = { type: JSONL_DOCUMENT, id, metadata: d.metadata ?? {} };
      const fields = docFields(d);
      if (fields) line.fields = fields;
      yield JSON.stringify(line);
      continue;
    }
    for (const c of d.chunkList()) {
      pending.push([c, d]);
      if (pending.length >= batchSize) yield* await flush();
    }
  }
  if (pending.length > 0) yield* await flush();
}

/**
 * Indexes parsed JSONL (parseJsonl) into a new, empty collection (Collection.importJsonl): chunks
 * grouped by document in first-seen order, in batches of `batchSize`; vectors from the lines, the
 * others embedded. The caller disposes the collection when this throws.
 */
export async function indexJsonl(col, { cfg, docs }, o, batchSize) {
  const all = [];
  const records = new Map();
  for (const [id, d] of docs) {
    const r = { metadata: d.metadata, length: 0 };
    if (d.fields) {
      const { title, ...rest } = d.fields;
      if (title !== undefined) r.title = title;
      if (Object.keys(rest).length > 0) r.fields = rest;
    }
    for (const x of d.chunks) {
      all.push(x);
      r.length = Math.max(r.length, x.chunk.end);
    }
    records.set(id, r);
  }
  const extra = extraFields(cfg);
  for (let i = 0; i < all.length; i += batchSize) {
    abortCheck(o.signal);
    const batch = all.slice(i, i + batchSize);
    if (col._legs.dense) {
      const missing = batch.filter((x) => x.vector === null);
      if (missing.length > 0) {
        const out = await embedTexts(col.embedder, missing.map((x) => indexTextOf(x.chunk)), { kind: 'document', signal: o.signal });
        missing.forEach((x, j) => { x.vector = out[j]; });
        abortCheck(o.signal);
      }
      const keep = batch.filter((x) => !isZeroVector(x.vector));
      if (keep.length > 0) col._legs.dense.add(keep.map((x) => ({ id: x.chunk.id, vector: x.vector })));
      for (const x of batch) if (isZeroVector(x.vector)) col.zeroVectors.add(x.chunk.id);
      if (col._vectors) for (const x of batch) col._vectors.set(x.chunk.id, x.vector);
    }
    if (col._legs.bm25) col._legs.bm25.add(batch.map((x) => bm25Doc(x.chunk, records.get(x.chunk.docId), extra)));
    o.onProgress?.({ done: Math.min(i + batchSize, all.length), total: all.length });
    await new Promise((r) => setTimeout(r, 0));
  }
  for (const [id, d] of docs) {
    const rec = new DocRecord(id, records.get(id), d.chunks.map((x) => x.chunk));
    col.docs.set(id, rec);
    col.chunks.added(rec);
  }
}

// One chunk line; `vector` (a Float32Array) widened to doubles, so JSON holds the exact float32 values.
function chunkLine(c, d, vector) {
  const o = { id: c.id, docId: c.docId, ordinal: c.ordinal, text: c.text, start: c.start, end: c.end, metadata: d.metadata ?? {} };
  if (c.indexText !== undefined) o.indexText = c.indexText;
  const fields = docFields(d);
  if (fields) o.fields = fields;
  if (vector) o.vector = Array.from(vector);
  return JSON.stringify(o);
}

// A document's BM25 fields other than the chunk text ({title, ...fields}), or null.
function docFields(d) {
  if (d.title === undefined && d.fields === undefined) return null;
  return d.title === undefined ? { ...d.fields } : { title: d.title, ...d.fields };
}

function lineFields(v, n) {
  if (v === undefined) return null;
  if (!isPlainObject(v)) throw lineError('INVALID_ARGUMENT', n, 'fields', `expected an object of strings, got ${describe(v)}`);
  for (const [k, x] of Object.entries(v)) {
    if (typeof x !== 'string') throw lineError('INVALID_ARGUMENT', n, `fields.${k}`, `expected a string, got ${describe(x)}`);
  }
  return v;
}

// [line number (1-based), text] for every line of a string or of an (async) iterable of lines.
async function* numberedLines(input) {
  let n = 0;
  const split = (text) => {
    const parts = text.split('\n');
    if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
    return parts.map((p) => [++n, p.endsWith('\r') ? p.slice(0, -1) : p]);
  };
  if (typeof input === 'string') {
    yield* split(input);
    return;
  }
  if (!isObject(input) || (!hasMethod(input, Symbol.iterator) && !hasMethod(input, Symbol.asyncIterator))) {
    throw invalid('input', 'a JSONL string or an (async) iterable of lines', input);
  }
  let item = 0;
  for await (const text of input) {
    if (typeof text !== 'string') throw invalid(`input item ${item}`, 'a string (one or more whole JSONL lines)', text);
    item++;
    yield* split(text);
  }
}

function lineError(code, n, field, message) {
  return new RagwasmError(code, `ragwasm: line ${n}: ${field ? `${field}: ` : ''}${message}`, { line: n, field: field ?? null });
}

function expectLineFields(obj, known, n) {
  for (const key of Object.keys(obj)) {
    if (!known.includes(key)) throw lineError('INVALID_ARGUMENT', n, key, `unknown field (known: ${known.join(', ')})`);
  }
}

function lineString(v, n, field, allowEmpty) {
  if (typeof v !== 'string' || (!allowEmpty && v === '')) {
    throw lineError('INVALID_ARGUMENT', n, field, `expected a ${allowEmpty ? '' : 'non-empty '}string, got ${describe(v)}`);
  }
  return v;
}

function lineCount(v, n, field) {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw lineError('INVALID_ARGUMENT', n, field, `expected an integer >= 0, got ${describe(v)}`);
  return v;
}

function lineMetadata(v, n) {
  if (v === undefined) return {};
  if (!isPlainObject(v)) throw lineError('INVALID_ARGUMENT', n, 'metadata', `expected an object, got ${describe(v)}`);
  for (const [k, x] of Object.entries(v)) {  // add()'s rule (createDocument): flat values
    const t = typeof x;
    if (!(x === null || t === 'string' || t === 'boolean' || (t === 'number' && Number.isFinite(x)))) {
      throw lineError('INVALID_ARGUMENT', n, `metadata.${k}`, `expected a string, finite number, boolean or null, got ${describe(x)}`);
    }
  }
  return v;
}

// A vector field -> Float32Array (same rule as VectorIndex.add: finite with |x| <= 1e15).
function lineVector(v, n, dimension) {
  if (!isArray(v)) throw lineError('INVALID_ARGUMENT', n, 'vector', `expected an array of ${dimension} numbers, got ${describe(v)}`);
  if (v.length !== dimension) throw lineError('DIMENSION_MISMATCH', n, 'vector', `expected ${dimension} numbers, got ${v.length}`);
  const out = new Float32Array(dimension);
  for (let j = 0; j < dimension; j++) {
    const x = v[j];
    if (typeof x !== 'number' || !(Math.abs(x) <= 1e15)) {
      throw lineError('INVALID_ARGUMENT', n, `vector[${j}]`, `expected a finite number with |x| <= 1e15, got ${describe(x)}`);
    }
    out[j] = x;
  }
  return out;
}

// Reads and checks every line (nothing is allocated in WASM here).
// -> {cfg, dimension, embedder, docs: Map<docId, {metadata, fields, line, chunks: {chunk, vector: Float32Array|null}[]}>}
export async function parseJsonl(input, o) {
  let cfg = o.config === undefined ? undefined : parsePipelineConfig(o.config);
  let dimension;
  let embedder;
  let header = null;
  let started = false;
  const docs = new Map();
  const chunkLines = new Map();  // chunk id -> line
  let chunkCount = 0;
  let lines = 0;
  // After the first line: the config and the dense index's dimension are fixed.
  const setup = (n) => {
    started = true;
    if (cfg === undefined) {
      try {
        cfg = readPipelineConfig(header?.config ?? {}).config;  // exported data: old names load quietly
      } catch (e) {
        if (!(e instanceof RagwasmError)) throw e;
        throw lineError(e.code, n, 'config', e.message.replace(/^ragwasm: /, ''));
      }
    }
    if (!cfg.indexes.dense && cfg.chunker.strategy !== 'semantic') return;
    const fromHeader = typeof header?.dimension === 'number' ? header.dimension : undefined;
    embedder = denseEmbedder(o.embedder, o.dimension ?? (declaredDimension(o.embedder) === undefined ? fromHeader : undefined));
    if (!cfg.indexes.dense) return;
    dimension = embedder.dimension;
    if (fromHeader !== undefined && fromHeader !== dimension) {
      throw lineError('DIMENSION_MISMATCH', n, 'dimension', `expected ${dimension} (the embedder's), got ${fromHeader}`);
    }
    // Vectors made by one model are not searched with another (as fromBytes).
    const saved = header?.embedder;
    if (isPlainObject(saved) && typeof saved.id === 'string' && header.vectors === true && saved.id !== embedder.id) {
      throw lineError('INVALID_ARGUMENT', n, 'embedder', `the vectors were made by the embedder '${saved.id}', got '${embedder.id}'`);
    }
  };
  for await (const [n, text] of numberedLines(input)) {
    if ((++lines & 1023) === 0) abortCheck(o.signal);
    if (text.trim() === '') continue;
    let obj;
    try {
      obj = JSON.parse(text);
    } catch (e) {
      throw lineError('INVALID_ARGUMENT', n, null, `not valid JSON (${e.message})`);
    }
    if (!isPlainObject(obj)) throw lineError('INVALID_ARGUMENT', n, null, `expected a JSON object, got ${describe(obj)}`);
    if (obj.type === JSONL_HEADER) {
      if (started) throw lineError('INVALID_ARGUMENT', n, 'type', `the "${JSONL_HEADER}" header must be the first line`);
      expectLineFields(obj, HEADER_FIELDS, n);
      if (typeof obj.version !== 'number' || !Number.isInteger(obj.version) || obj.version < 1) {
        throw lineError('INVALID_ARGUMENT', n, 'version', `expected an integer >= 1, got ${describe(obj.version)}`);
      }
      if (obj.version > JSONL_FORMAT_VERSION) {
        throw lineError('UNSUPPORTED_VERSION', n, 'version', `format version ${obj.version}; this build reads version ${JSONL_FORMAT_VERSION}`);
      }
      if (obj.dimension !== undefined && obj.dimension !== null) {
        if (typeof obj.dimension !== 'number' || !Number.isInteger(obj.dimension) || obj.dimension < 1 || obj.dimension > 8192) {
          throw lineError('INVALID_ARGUMENT', n, 'dimension', `expected an integer in [1, 8192] or null, got ${describe(obj.dimension)}`);
        }
      }
      for (const f of ['documents', 'chunks']) if (obj[f] !== undefined) lineCount(obj[f], n, f);
      if (obj.vectors !== undefined && typeof obj.vectors !== 'boolean') {
        throw lineError('INVALID_ARGUMENT', n, 'vectors', `expected true or false, got ${describe(obj.vectors)}`);
      }
      header = { ...obj, line: n };
      setup(n);
      continue;
    }
    if (!started) setup(n);
    if (obj.type === JSONL_DOCUMENT) {
      expectLineFields(obj, DOCUMENT_FIELDS, n);
      const id = lineString(obj.id, n, 'id', false);
      if (docs.has(id)) throw lineError('DUPLICATE_ID', n, 'id', `document "${id}" already appeared on line ${docs.get(id).line}`);
      docs.set(id, { metadata: lineMetadata(obj.metadata, n), fields: lineFields(obj.fields, n), line: n, chunks: [], documentLine: true });
      continue;
    }
    if (obj.type !== undefined) {
      throw lineError('INVALID_ARGUMENT', n, 'type', `expected "${JSONL_HEADER}" (first line) or "${JSONL_DOCUMENT}" (chunk lines have no type), got ${describe(obj.type)}`);
    }
    expectLineFields(obj, CHUNK_FIELDS, n);
    const id = lineString(obj.id, n, 'id', false);
    const docId = lineString(obj.docId, n, 'docId', false);
    const ordinal = lineCount(obj.ordinal, n, 'ordinal');
    const chunkText = lineString(obj.text, n, 'text', true);
    const start = lineCount(obj.start, n, 'start');
    const end = lineCount(obj.end, n, 'end');
    if (end < start) throw lineError('INVALID_ARGUMENT', n, 'end', `expected an integer >= start (${start}), got ${end}`);
    const metadata = lineMetadata(obj.metadata, n);
    const fields = lineFields(obj.fields, n);
    if (obj.indexText !== undefined && (typeof obj.indexText !== 'string' || !obj.indexText.endsWith(chunkText))) {
      throw lineError('INVALID_ARGUMENT', n, 'indexText', `expected a string ending with the chunk text, got ${describe(obj.indexText)}`);
    }
    if (end - start !== chunkText.length) {
      throw lineError('INVALID_ARGUMENT', n, 'text', `has ${chunkText.length} UTF-16 units, but start..end (${start}..${end}) spans ${end - start}`);
    }
    // Chunk ids are `docId#ordinal` everywhere else (chunk(), add(), remove()): an import must keep that.
    if (id !== `${docId}#${ordinal}`) throw lineError('INVALID_ARGUMENT', n, 'id', `expected "${docId}#${ordinal}" (docId#ordinal), got "${id}"`);
    if (chunkLines.has(id)) throw lineError('DUPLICATE_ID', n, 'id', `chunk "${id}" already appeared on line ${chunkLines.get(id)}`);
    const vector = dimension !== undefined && obj.vector !== undefined ? lineVector(obj.vector, n, dimension) : null;
    let d = docs.get(docId);
    if (d === undefined) {
      d = { metadata, fields, line: n, chunks: [] };
      docs.set(docId, d);
    } else if (d.documentLine) {
      throw lineError('DUPLICATE_ID', n, 'docId', `document "${docId}" was declared without chunks on line ${d.line}`);
    } else if (JSON.stringify(metadata) !== JSON.stringify(d.metadata)) {
      throw lineError('INVALID_ARGUMENT', n, 'metadata', `differs from the metadata of document "${docId}" on line ${d.line} (chunks of one document share it)`);
    } else if (JSON.stringify(fields) !== JSON.stringify(d.fields)) {
      throw lineError('INVALID_ARGUMENT', n, 'fields', `differs from the fields of document "${docId}" on line ${d.line} (chunks of one document share them)`);
    }
    chunkLines.set(id, n);
    const c = { id, docId, ordinal, text: chunkText, start, end };
    if (obj.indexText !== undefined && obj.indexText !== chunkText) c.indexText = obj.indexText;
    d.chunks.push({ chunk: c, vector });
    chunkCount++;
  }
  if (!started) setup(lines + 1);
  if (header) {
    if (header.chunks !== undefined && header.chunks !== chunkCount) {
      throw lineError('INVALID_ARGUMENT', header.line, 'chunks', `the header announces ${header.chunks} chunks, the input has ${chunkCount} (truncated?)`);
    }
    if (header.documents !== undefined && header.documents !== docs.size) {
      throw lineError('INVALID_ARGUMENT', header.line, 'documents', `the header announces ${header.documents} documents, the input has ${docs.size} (truncated?)`);
    }
  }
  for (const d of docs.values()) {
    delete d.line;
    delete d.documentLine;
  }
  return { cfg, dimension, embedder, docs };
}
