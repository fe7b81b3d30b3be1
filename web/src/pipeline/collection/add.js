// @ts-check
// Collection.add() and upsert(): the documents checked, chunked (with the config's context steps),
// embedded, then written to both legs (legs.js) and to the document store (chunk-store.js).
import { RagwasmError } from '../../core/errors.js';
import { expectArray, expectFunction, expectInteger, expectOptions, expectString, invalid, isPlainObject } from '../../core/validate.js';
import { embedTexts } from '../../embed/contract.js';
import { DocRecord } from '../chunk-store.js';
import { markdownToText } from '../../document/markdown-text.js';
import { documentTitle } from '../../document/title.js';
import { chunkWithContexts, llmContextSteps } from '../llm-steps.js';
import { abortCheck, bm25Doc, chunkOptions, disposedError, extraFields, indexTextOf, isZeroVector, storedChunk } from './parts.js';

// Checks the documents of one add() call before anything is chunked.
function checkDocuments(col, documents) {
  expectArray(documents, 'documents', { maxLength: 10_000_000 });
  const extra = extraFields(col.config);
  const seen = new Set();
  for (let i = 0; i < documents.length; i++) {
    const d = documents[i];
    if (!isPlainObject(d)) throw invalid(`documents[${i}]`, 'a {id, text, title?, metadata?} object', d);
    expectString(d.id, `documents[${i}].id`, { allowEmpty: false, maxLength: 1000 });
    expectString(d.text, `documents[${i}].text`);
    for (const f of new Set(['title', ...extra])) {
      if (d[f] !== undefined && d[f] !== null) expectString(d[f], `documents[${i}].${f}`, { maxLength: 1 << 20 });
    }
    if (d.metadata !== undefined && !isPlainObject(d.metadata)) throw invalid(`documents[${i}].metadata`, 'a plain object', d.metadata);
    if (seen.has(d.id)) throw new RagwasmError('DUPLICATE_ID', `ragwasm: documents[${i}].id: "${d.id}" appears twice`);
    seen.add(d.id);
  }
  return extra;
}

// add() and upsert()'s argument checks: the documents (a copy), their extra fields, the options.
export function prepareAdd(col, documents, options, name) {
  col._alive();
  const o = expectOptions(options, name, ['onProgress', 'signal', 'batchSize', 'chunkContexts']);
  if (isPlainObject(documents)) documents = [documents];  // one document, as the indexes' add takes one item
  const extra = checkDocuments(col, documents);
  if (o.onProgress !== undefined) expectFunction(o.onProgress, 'options.onProgress');
  if (o.chunkContexts !== undefined) expectFunction(o.chunkContexts, 'options.chunkContexts');
  const steps = llmContextSteps(col.config);
  if (steps.length > 0 && !col._llm) {
    throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${steps[0].path}: this collection has no LLM for its context step (a loaded collection: give it to Collection.load / fromBytes as {llm: client})`, { path: steps[0].path });
  }
  if (o.chunkContexts !== undefined && steps.some((st) => st.key === 'llmChunkContext')) {
    throw invalid('options.chunkContexts', 'no chunk contexts (the config\'s chunker.context.llmChunkContext writes them)', o.chunkContexts);
  }
  const batchSize = o.batchSize === undefined ? 64 : expectInteger(o.batchSize, 'options.batchSize', { min: 1, max: 100000 });
  return { documents: documents.slice(), extra, o, batchSize };
}

// add() and upsert(): every batch chunked and embedded first (the signal checked throughout, nothing
// written yet), then written (docs/collection.md "no half-applied adds": an abort before the writes
// leaves the collection exactly as it was; once the writes start the signal is no longer checked). add()
// replaces an id in the collection as its batch is written; upsert() (replaceFirst) removes the ids in
// the collection at once before the first write: the index writes of remove() then add().
// A document without a title gets documentTitle(text, id) (document/title.js) before any step; title: null
// keeps it without one.
// Progress (options.onProgress): `{done, total, unit: 'characters', documents, totalDocuments}`, done /
// total in characters of document text chunked and embedded (slices of PROGRESS_CHUNKS chunks within a
// large document), called at least once per document; the last call ({done: total}) comes after the writes.
export async function addPrepared(col, { documents, extra, o, batchSize }, { replaceFirst = false } = {}) {
  documents = documents.map((d) => (d.title === undefined ? { ...d, title: documentTitle(d.text, d.id) } : d));
  // chunker.preprocess "markdown-to-text": each document's text converted before splitting (the
  // collection keeps the converted text: chunk spans and citations point into it).
  if (col.config.chunker.preprocess === 'markdown-to-text') documents = documents.map((d) => ({ ...d, text: markdownToText(d.text) }));
  const total = documents.reduce((n, d) => n + d.text.length, 0);
  const progress = (done, docsDone) => {
    if (o.onProgress && done < total) o.onProgress({ done, total, unit: 'characters', documents: docsDone, totalDocuments: documents.length });
  };
  const ctx = {
    extra, o, progress,
    copts: chunkOptions(col.config.chunker, col.embedder),
    semantic: col.config.chunker.strategy === 'semantic',
    steps: llmContextSteps(col.config),
    separator: col.config.chunker.context?.separator ?? '\n\n',
    base: 0, docsDone: 0,
  };
  // the write summary of every index (docs/api.md) with the collection's counts: documents in the call,
  // chunks indexed, the chunk ids kept out of the dense leg (all-zero embeddings)
  const updated = documents.filter((d) => col.docs.has(d.id)).length;
  const out = { added: documents.length - updated, updated, removed: 0, skipped: 0, documents: documents.length, chunks: 0, zeroVectors: [] };
  const prepared = [];
  for (let i = 0; i < documents.length; i += batchSize) {
    prepared.push(await prepareBatch(col, documents.slice(i, i + batchSize), ctx));
    await new Promise((r) => setTimeout(r, 0));  // a turn for the page (and an abort posted to a Worker)
    if (col._disposed) throw disposedError();
    abortCheck(o.signal);
  }
  // from here on nothing is aborted: every batch is written
  if (replaceFirst) col._remove(documents.filter((d) => col.docs.has(d.id)).map((d) => d.id));
  for (const p of prepared) {
    await writeBatch(col, p, ctx);
    out.chunks += p.flat.length;
    out.zeroVectors.push(...p.zeroIds);
    await new Promise((r) => setTimeout(r, 0));
    if (col._disposed) throw disposedError();
  }
  if (o.onProgress) o.onProgress({ done: total, total, unit: 'characters', documents: documents.length, totalDocuments: documents.length });
  return out;
}

/** Chunks embedded (and progress reported) per slice within a batch (a call per slice: a large document reports as it goes). */
export const PROGRESS_CHUNKS = 64;

// A batch's chunks (with their context steps) and vectors; nothing is written yet.
async function prepareBatch(col, batch, ctx) {
  const { o, copts, semantic, steps, separator, progress } = ctx;
  abortCheck(o.signal);
  const perDoc = [];
  const ends = [];  // per chunk of the batch: the progress (characters) once it is embedded
  const docEnds = [];  // per chunk: the documents done once it is embedded when it ends its document, else -1
  for (const d of batch) {
    const cs = await chunkWithContexts(d, { copts, semantic, steps, llm: col._llm, chunkContexts: o.chunkContexts, separator, signal: o.signal, alive: () => col._alive() });
    abortCheck(o.signal);
    const stored = cs.map(storedChunk);
    perDoc.push(stored);
    stored.forEach((c, k) => {
      const end = k === stored.length - 1;
      ends.push(end ? ctx.base + d.text.length : ctx.base + c.end);
      docEnds.push(end ? ctx.docsDone + 1 : -1);
    });
    if (stored.length === 0) progress(ctx.base + d.text.length, ctx.docsDone + 1);
    ctx.base += d.text.length;
    ctx.docsDone++;
  }
  if (col._disposed) throw disposedError();
  const flat = perDoc.flat();
  const vectors = col.dense && flat.length > 0 ? [] : null;
  for (let i = 0; i < flat.length; i += PROGRESS_CHUNKS) {
    const slice = flat.slice(i, i + PROGRESS_CHUNKS);
    if (vectors) {
      const v = await embedTexts(col.embedder, slice.map(indexTextOf), { kind: 'document', signal: o.signal });
      for (const x of v) vectors.push(x);
      if (col._disposed) throw disposedError();
      abortCheck(o.signal);
    }
    // a call per document ended in the slice, and one at the slice's end
    const last = i + slice.length - 1;
    for (let k = i; k <= last; k++) if (k === last || docEnds[k] >= 0) progress(ends[k], docEnds[k] >= 0 ? docEnds[k] : ctx.docsDone - countAfter(docEnds, k));
  }
  abortCheck(o.signal);
  const zeroIds = vectors ? flat.filter((c, k) => isZeroVector(vectors[k])).map((c) => c.id) : [];
  return { batch, perDoc, flat, vectors, zeroIds };
}

// The documents of the batch that end after chunk k (their last chunk is past k).
function countAfter(docEnds, k) {
  let n = 0;
  for (let j = k + 1; j < docEnds.length; j++) if (docEnds[j] >= 0) n++;
  return n;
}

// Writes a prepared batch: replaces the batch's ids already in the collection, then indexes it.
async function writeBatch(col, { batch, perDoc, flat, vectors, zeroIds }, { extra }) {
  const existing = batch.filter((d) => col.docs.has(d.id)).map((d) => d.id);
  if (existing.length > 0) col._remove(existing);
  const records = batch.map((d) => {
    const r = { metadata: d.metadata ?? {}, length: d.text.length };
    if (d.title !== undefined && d.title !== null) r.title = d.title;
    const fields = {};
    for (const f of extra) if (f !== 'title' && typeof d[f] === 'string') fields[f] = d[f];
    if (Object.keys(fields).length > 0) r.fields = fields;
    return r;
  });
  const { bm25, dense } = col._legs;
  const writes = [];  // sharded: both legs' writes run in the Workers at once (single legs write now)
  if (bm25 && flat.length > 0) {
    const byDoc = new Map(batch.map((d, j) => [d.id, records[j]]));
    writes.push(bm25.add(flat.map((c) => bm25Doc(c, byDoc.get(c.docId), extra))));
  }
  if (dense && flat.length > 0) {
    const zs = new Set(zeroIds);
    const keep = flat.flatMap((c, k) => (zs.has(c.id) ? [] : [k]));
    if (keep.length > 0) writes.push(dense.add(keep.map((k) => ({ id: flat[k].id, vector: vectors[k] }))));
    for (const id of zeroIds) col.zeroVectors.add(id);
  }
  const pending = writes.filter((w) => w !== undefined);
  if (pending.length > 0) {
    await Promise.all(pending);
    if (col._disposed) throw disposedError();
  }
  if (col._vectors) flat.forEach((c, k) => col._vectors.set(c.id, Float32Array.from(vectors[k])));
  batch.forEach((d, j) => {
    const rec = new DocRecord(d.id, records[j], perDoc[j], { text: d.text });
    col.docs.set(d.id, rec);
    col.chunks.added(rec);
    col.revision++;
  });
}
