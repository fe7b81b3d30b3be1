// @ts-check
// The saved header's checks: every field of a saved collection's JSON header, and the header against
// the index sections it describes. Every failure is CORRUPT_INDEX naming the field (docs/collection.md).
import { RagwasmError } from '../../core/errors.js';
import { describe, isArray, isPlainObject } from '../../core/validate.js';
import { readPipelineConfig } from '../pipeline.js';
import { DocRecord } from '../chunk-store.js';
import { storedChunk } from './parts.js';
import { checkJsonDepth } from '../saved-check.js';

const STORED_CHUNK_KEYS = ['id', 'docId', 'ordinal', 'text', 'start', 'end', 'indexText'];
const STORED_DOC_KEYS = ['id', 'title', 'fields', 'metadata', 'length', 'chunks'];

// Checks a saved header field by field; every failure is CORRUPT_INDEX naming the field.
// doc(d, i, streamed): checks one element of header.docs (and keeps its record when `keep`); all(header):
// checks the rest (docs already given to doc() one by one are not checked again)
// -> {cfg, embedder: {id, dimension}|null, docs: Map, chunkIds: Set, zeroVectors: string[]}; without
// `keep`, chunkIds is a Map chunk id -> its position (save()'s check marks the sections' ids against it)
// and the documents' ids are not kept: a document's chunk ids are "id#0", "id#1", ... (checked), so an id
// seen before is its chunk "id#0" seen before, or for a document without chunks one in `empty`.
export function headerChecker(version, corrupt, keep) {
  const docs = new Map();
  const empty = new Set();
  /** @type {any} a Set of chunk ids, or (not keep) a Map chunk id -> position */
  const chunkIds = keep ? new Set() : new Map();
  const addChunk = keep ? (id) => chunkIds.add(id) : (id) => chunkIds.set(id, chunkIds.size);
  let streamed = false;
  const doc = (d, i, fromStream = false) => {
    streamed ||= fromStream;
    const p = `header docs[${i}]`;
    if (!isPlainObject(d)) throw corrupt(`${p}: expected an object, got ${describe(d)}`);
    for (const key of Object.keys(d)) if (!STORED_DOC_KEYS.includes(key)) throw corrupt(`${p}.${key}: unknown field`);
    if (typeof d.id !== 'string' || d.id === '') throw corrupt(`${p}.id: expected a non-empty string, got ${describe(d.id)}`);
    if (keep ? docs.has(d.id) : chunkIds.has(`${d.id}#0`) || empty.has(d.id)) throw corrupt(`${p}.id: document "${d.id}" appears twice`);
    if (!isArray(d.chunks)) throw corrupt(`${p}.chunks: expected an array, got ${describe(d.chunks)}`);
    const metadata = d.metadata === undefined ? {} : d.metadata;
    if (!isPlainObject(metadata)) throw corrupt(`${p}.metadata: expected an object, got ${describe(metadata)}`);
    for (const [k, v] of Object.entries(metadata)) {
      if (!(v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)))) {
        throw corrupt(`${p}.metadata.${k}: expected a string, finite number, boolean or null, got ${describe(v)}`);
      }
    }
    if (d.title !== undefined && typeof d.title !== 'string') throw corrupt(`${p}.title: expected a string, got ${describe(d.title)}`);
    if (d.fields !== undefined && !(isPlainObject(d.fields) && Object.values(d.fields).every((v) => typeof v === 'string'))) {
      throw corrupt(`${p}.fields: expected an object of strings, got ${describe(d.fields)}`);
    }
    let length;
    if (version >= 2 || d.length !== undefined) {
      if (!Number.isInteger(d.length) || d.length < 0) throw corrupt(`${p}.length: expected an integer >= 0, got ${describe(d.length)}`);
      length = d.length;
    }
    const chunks = d.chunks.map((c, j) => {
      const cp = `${p}.chunks[${j}]`;
      if (!isPlainObject(c)) throw corrupt(`${cp}: expected an object, got ${describe(c)}`);
      for (const key of Object.keys(c)) if (!STORED_CHUNK_KEYS.includes(key)) throw corrupt(`${cp}.${key}: unknown field`);
      if (typeof c.text !== 'string') throw corrupt(`${cp}.text: expected a string, got ${describe(c.text)}`);
      if (c.docId !== d.id) throw corrupt(`${cp}.docId: expected "${d.id}" (its document), got ${describe(c.docId)}`);
      if (c.ordinal !== j) throw corrupt(`${cp}.ordinal: expected ${j} (its place), got ${describe(c.ordinal)}`);
      if (c.id !== `${d.id}#${j}`) throw corrupt(`${cp}.id: expected "${d.id}#${j}" (docId#ordinal), got ${describe(c.id)}`);
      if (chunkIds.has(c.id)) throw corrupt(`${cp}.id: chunk "${c.id}" appears twice`);
      addChunk(c.id);
      if (!Number.isInteger(c.start) || c.start < 0) throw corrupt(`${cp}.start: expected an integer >= 0, got ${describe(c.start)}`);
      if (!Number.isInteger(c.end) || c.end < c.start) throw corrupt(`${cp}.end: expected an integer >= start (${c.start}), got ${describe(c.end)}`);
      if (length !== undefined && c.end > length) throw corrupt(`${cp}.end: ${c.end} lies past the end of the document (length ${length})`);
      if (c.end - c.start !== c.text.length) {
        throw corrupt(`${cp}.text: has ${c.text.length} UTF-16 units, but start..end (${c.start}..${c.end}) spans ${c.end - c.start}`);
      }
      if (c.indexText !== undefined && (typeof c.indexText !== 'string' || !c.indexText.endsWith(c.text))) {
        throw corrupt(`${cp}.indexText: expected a string ending with the chunk text, got ${describe(c.indexText)}`);
      }
      if (j > 0) {
        // Overlapping neighbours are two slices of one document: the shared span must read the same.
        const prev = d.chunks[j - 1];
        const from = Math.max(prev.start, c.start);
        const to = Math.min(prev.end, c.end);
        if (to > from && prev.text.slice(from - prev.start, to - prev.start) !== c.text.slice(from - c.start, to - c.start)) {
          throw corrupt(`${cp}.text: differs from chunk ${j - 1} on the document span ${from}..${to} they share`);
        }
      }
      return keep ? storedChunk(c) : null;
    });
    if (!keep) {
      if (d.chunks.length === 0) empty.add(d.id);
      return;
    }
    // Format 1 did not save the document length: its last chunk end is the best lower bound.
    const record = { metadata, length: length ?? chunks.reduce((m, c) => Math.max(m, c.end), 0) };
    if (d.title !== undefined) record.title = d.title;
    if (d.fields !== undefined) record.fields = d.fields;
    docs.set(d.id, new DocRecord(d.id, record, chunks, { loaded: true }));
  };
  const all = (header) => {
    const out = checkTop(header, version, corrupt);
    if (!streamed) header.docs.forEach((d, i) => doc(d, i));
    out.docs = docs;
    out.chunkIds = chunkIds;
    out.zeroVectors = checkZeroVectors(header, chunkIds, corrupt);
    return out;
  };
  return { doc, all };
}

// the header's config and embedder -> {cfg, embedder}
function checkTop(header, version, corrupt) {
  if (!isPlainObject(header) || !isArray(header.docs)) throw corrupt('header does not hold {config, docs: [{id, chunks: [{id, text, ...}]}]}');
  checkJsonDepth(header.config, 'header config', corrupt);  // before structuredClone recurses (#30 F-3)
  const config = isPlainObject(header.config) ? structuredClone(header.config) : header.config;
  // Version 1 indexed the chunk text only: its BM25 section has the one field "text".
  if (version === 1 && isPlainObject(config?.indexes?.bm25) && config.indexes.bm25.fields === undefined) config.indexes.bm25.fields = { text: 1 };
  let cfg;
  try {
    cfg = readPipelineConfig(config).config;  // old names in saved bytes load without a warning
  } catch (e) {
    if (!(e instanceof RagwasmError)) throw e;
    throw corrupt(`header config: ${e.message.replace(/^ragwasm: /, '')}`);
  }
  let embedder = null;
  if (version >= 2) {
    const em = header.embedder;
    if (em !== null && !(isPlainObject(em) && typeof em.id === 'string' && Number.isInteger(em.dimension) && em.dimension >= 1 && em.dimension <= 8192)) {
      throw corrupt(`header embedder: expected null or {id: string, dimension: 1..8192}, got ${describe(em)}`);
    }
    if (em === null && cfg.indexes.dense) throw corrupt('header embedder: null, but the config has a dense index');
    embedder = em;
  }
  return { cfg, embedder };
}

// header.zeroVectors checked against the chunk ids -> the list
function checkZeroVectors(header, chunkIds, corrupt) {
  const zeroVectors = header.zeroVectors === undefined ? [] : header.zeroVectors;
  if (!isArray(zeroVectors)) throw corrupt(`header zeroVectors: expected an array of chunk ids, got ${describe(zeroVectors)}`);
  const zs = new Set();
  zeroVectors.forEach((id, i) => {
    if (!chunkIds.has(id)) throw corrupt(`header zeroVectors[${i}]: ${describe(id)} is not a chunk of this collection`);
    if (zs.has(id)) throw corrupt(`header zeroVectors[${i}]: "${id}" appears twice`);
    zs.add(id);
  });
  return zeroVectors;
}

// Checks the loaded index sections against the header: fields, sizes, every chunk id, dimension.
// bm25 / dense: the loaded indexes, or what the check read of a section ({fields, size, has(id)})
export function checkSections(h, bm25, dense, corrupt) {
  const count = h.chunkIds.size;
  if (bm25) {
    const want = h.cfg.indexes.bm25.fields.map((f) => f.name).sort().join(', ');
    const got = bm25.fields.slice().sort().join(', ');
    if (want !== got) throw corrupt(`header config indexes.bm25.fields (${want}) differ from the BM25 section's fields (${got})`);
    if (bm25.size !== count) throw corrupt(`header docs: ${count} chunks, but the BM25 section holds ${bm25.size} documents`);
    for (const id of h.chunkIds.keys()) if (!bm25.has(id)) throw corrupt(`header docs: chunk "${id}" is missing from the BM25 section`);
  }
  if (dense) {
    if (h.embedder && h.embedder.dimension !== dense.dimension) {
      throw corrupt(`header embedder.dimension: ${h.embedder.dimension}, but the vector section has dimension ${dense.dimension}`);
    }
    const zs = new Set(h.zeroVectors);
    if (dense.size !== count - zs.size) {
      throw corrupt(`header docs: ${count} chunks (${zs.size} zero vectors), but the vector section holds ${dense.size} vectors`);
    }
    for (const id of h.chunkIds.keys()) {
      if (dense.has(id) === zs.has(id)) throw corrupt(`header ${zs.has(id) ? 'zeroVectors' : 'docs'}: chunk "${id}" is ${zs.has(id) ? 'in' : 'missing from'} the vector section`);
    }
  }
}
