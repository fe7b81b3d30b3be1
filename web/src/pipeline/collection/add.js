// @ts-check
// Collection.add() and upsert(): the documents checked, chunked (with the config's context steps),
// embedded, then written to both legs (legs.js) and to the document store (chunk-store.js).
import { RagwasmError } from '../../core/errors.js';
import { expectArray, expectFunction, expectInteger, expectOptions, expectString, invalid, isPlainObject } from '../../core/validate.js';
import { embedTexts } from '../../embed/contract.js';
import { DocRecord } from '../chunk-store.js';
import { markdownToText } from '../../document/markdown-text.js';
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

// add(): each batch chunked and embedded, then written (an id in the collection is replaced as its
// batch is written). upsert() (replaceFirst): every batch chunked and embedded first, then the ids in
// the collection removed at once and the batches written: the index writes of remove() then add().
export async function addPrepared(col, { documents, extra, o, batchSize }, { replaceFirst = false } = {}) {
  // chunker.preprocess "markdown-to-text": each document's text converted before splitting (the
  // collection keeps the converted text: chunk spans and citations point into it).
  if (col.config.chunker.preprocess === 'markdown-to-text') documents = documents.map((d) => ({ ...d, text: markdownToText(d.text) }));
  const ctx = {
    extra, o,
    copts: chunkOptions(col.config.chunker, col.embedder),
    semantic: col.config.chunker.strategy === 'semantic',
    steps: llmContextSteps(col.config),
    separator: col.config.chunker.context?.separator ?? '\n\n',
  };
  // the write summary of every index (docs/api.md) with the collection's counts: documents in the call,
  // chunks indexed, the chunk ids kept out of the dense leg (all-zero embeddings)
  const updated = documents.filter((d) => col.docs.has(d.id)).length;
  const out = { added: documents.length - updated, updated, removed: 0, skipped: 0, documents: documents.length, chunks: 0, zeroVectors: [] };
  const batches = [];
  for (let i = 0; i < documents.length; i += batchSize) batches.push(documents.slice(i, i + batchSize));
  const write = async (p, done) => {
    await writeBatch(col, p, ctx);
    out.chunks += p.flat.length;
    out.zeroVectors.push(...p.zeroIds);
    o.onProgress?.({ done, total: documents.length });
    await new Promise((r) => setTimeout(r, 0));
    if (col._disposed) throw disposedError();
  };
  if (replaceFirst) {
    const prepared = [];
    for (const batch of batches) prepared.push(await prepareBatch(col, batch, ctx));
    col._remove(documents.filter((d) => col.docs.has(d.id)).map((d) => d.id));
    let done = 0;
    for (const p of prepared) await write(p, (done += p.batch.length));
    return out;
  }
  let done = 0;
  for (const batch of batches) {
    const p = await prepareBatch(col, batch, ctx);
    await write(p, (done += batch.length));
  }
  return out;
}

// A batch's chunks (with their context steps) and vectors; nothing is written yet.
async function prepareBatch(col, batch, { o, copts, semantic, steps, separator }) {
  abortCheck(o.signal);
  const perDoc = [];
  for (const d of batch) {
    const cs = await chunkWithContexts(d, { copts, semantic, steps, llm: col._llm, chunkContexts: o.chunkContexts, separator, signal: o.signal, alive: () => col._alive() });
    perDoc.push(cs.map(storedChunk));
  }
  if (col._disposed) throw disposedError();
  const flat = perDoc.flat();
  const vectors = col.dense && flat.length > 0
    ? await embedTexts(col.embedder, flat.map(indexTextOf), { kind: 'document', signal: o.signal }) : null;
  if (col._disposed) throw disposedError();
  abortCheck(o.signal);
  const zeroIds = vectors ? flat.filter((c, k) => isZeroVector(vectors[k])).map((c) => c.id) : [];
  return { batch, perDoc, flat, vectors, zeroIds };
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
