// @ts-check
// What the parts of a Collection share: the config -> index/chunker options, the stored chunk shape,
// the BM25 document of a chunk, metadata filters on stored documents, and the embedder checks.
import { RagwasmError } from '../../core/errors.js';
import { asEmbedder, embedTexts } from '../../embed/contract.js';
import { invalid, isArray, isPlainObject } from '../../core/validate.js';

/** The config's BM25 field names other than "text" (the chunk's indexText): document fields. */
export function extraFields(cfg) {
  return cfg.indexes.bm25 ? cfg.indexes.bm25.fields.map((f) => f.name).filter((n) => n !== 'text') : [];
}

// The config's index sections are the indexes' own options (parsePipelineConfig normalizes them):
// bm25 as it is, dense without the embedder's model name and with the embedder's dimension.
/** @internal A config's dense index section -> VectorIndex options (also autotune's, with a base config). */
export function denseOptions(c, dimension) {
  const { model, dimension: wanted, ...o } = c;  // eslint-disable-line no-unused-vars
  if (wanted !== undefined && wanted !== dimension) {
    throw new RagwasmError('DIMENSION_MISMATCH', `ragwasm: config indexes.dense.dimension is ${wanted}, but the embedder gives vectors of dimension ${dimension}`);
  }
  return { ...o, dimension };
}
// The pipeline config's chunker section -> chunk() options: 'invalidUtf8' applies to bytes only (JS
// strings are always valid), the sentence and semantic strategies have no character overlap, and
// context.headerPath (a Collection option) becomes a per-chunk context: the chunk's header path.
/** @internal The chunk() options of a config's chunker section (also autotune's, with a base config). */
export function chunkOptions(c, embedder) {
  const { invalidUtf8, preprocess, ...o } = c;  // eslint-disable-line no-unused-vars
  if (o.strategy === 'sentence' || o.strategy === 'semantic') delete o.chunkOverlap;
  if (o.strategy === 'semantic') {
    delete o.unit;
    if (o.maxChunkSize !== undefined) delete o.chunkSize;
    o.embedder = (texts) => embedTexts(embedder, texts, { kind: 'document' });
  }
  if (o.context) {
    const { headerPath, llmSummary, llmChunkContext, ...ctx } = o.context;  // eslint-disable-line no-unused-vars
    if (headerPath) ctx.chunkContexts = (ch) => ch.headerPath.join(' > ');
    o.context = ctx;
  }
  return o;
}

// Document metadata -> the part Bm25Index can filter on (strings and finite numbers; booleans and
// null are kept with the document but are not filterable).
function filterableMetadata(metadata) {
  let out = null;
  for (const [k, v] of Object.entries(metadata)) {
    if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) (out ??= {})[k] = v;
  }
  return out;
}

/**
 * Whether a document's metadata passes a filter, with Bm25Index's rule (docs/sparse.md "Filters"):
 * every clause must hold; `{key: v}` / `{key: [v1, v2]}` / `{key: {in: [...]}}` = the value equals
 * one of them (strings with strings, numbers with numbers); `{key: {gte, gt, lte, lt}}` = a numeric
 * value in range; a document without the key does not match.
 * @param {object} metadata
 * @param {object} filter validated with checkFilter
 * @returns {boolean}
 */
export function metadataMatches(metadata, filter) {
  for (const [key, clause] of Object.entries(filter)) {
    const v = metadata[key];
    const isNum = typeof v === 'number' && Number.isFinite(v);
    if (!isNum && typeof v !== 'string') return false;
    let ok;
    if (isArray(clause)) ok = clause.includes(v);
    else if (isPlainObject(clause) && clause.in !== undefined) ok = clause.in.includes(v);
    else if (isPlainObject(clause)) {
      ok = isNum && (clause.gte === undefined || v >= clause.gte) && (clause.gt === undefined || v > clause.gt)
        && (clause.lte === undefined || v <= clause.lte) && (clause.lt === undefined || v < clause.lt);
    } else ok = clause === v;
    if (!ok) return false;
  }
  return true;
}

export function isZeroVector(v) {
  for (let j = 0; j < v.length; j++) if (v[j] !== 0) return false;
  return true;
}

// A stored chunk: what search returns and toBytes() saves. indexText only when it differs from text.
export function storedChunk(c) {
  const s = { id: c.id, docId: c.docId, ordinal: c.ordinal, text: c.text, start: c.start, end: c.end };
  if (c.indexText !== undefined && c.indexText !== c.text) s.indexText = c.indexText;
  return s;
}
export const indexTextOf = (c) => c.indexText ?? c.text;

// The embedder for a dense collection (the contract of embed/contract.js), checked before any index is made.
export function denseEmbedder(embedder, dimension, name = 'options.embedder') {
  if (embedder === undefined) throw invalid(name, 'an embedder (the config enables the dense index)', embedder);
  const o = { name };
  if (dimension !== undefined) o.dimension = dimension;
  return asEmbedder(embedder, o);
}

// The vector dimension an embedder value declares itself, if any.
export function declaredDimension(value) {
  if (value === null || typeof value !== 'object') return undefined;
  return value.dimension ?? value.dims ?? undefined;
}

// The Bm25Index document of a chunk: indexText as "text", the document's other fields, its metadata.
export function bm25Doc(c, record, extra) {
  const doc = { id: c.id, text: indexTextOf(c) };
  for (const f of extra) {
    const v = f === 'title' ? record.title : record.fields?.[f];
    if (typeof v === 'string') doc[f] = v;
  }
  const meta = filterableMetadata(record.metadata ?? {});
  if (meta) doc.metadata = meta;
  return doc;
}

// The fused hits that some leg scored above 0: a hit needs a positive contribution (a dense cosine of
// 0 or below, e.g. "zebra giraffe" against any chunk, says nothing about the query; docs/collection.md).
// The legs' lists are fused whole first, so the normalization and every kept score are unchanged.
export function positive(fused, lists) {
  const ok = new Set();
  for (const l of lists) for (const h of l.hits) if (h.score > 0) ok.add(h.id);
  fused.hits = fused.hits.filter((h) => ok.has(h.id));
  return fused;
}

export function abortCheck(signal) {
  if (signal?.aborted) throw new RagwasmError('ABORTED', 'ragwasm: operation aborted');
}
export function disposedError() {
  return new RagwasmError('DISPOSED', 'ragwasm: this Collection was disposed; load or create a new one');
}
