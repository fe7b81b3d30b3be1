// @ts-check
// The saved collection format (docs/formats.md): the one container, magic "RWCOLLEC", version 3,
// sections 1 JSON header, 2 BM25 index, 3 vector index (each index section only when that leg is on),
// written and checked by the C++ container (core/container.js); versions 1 and 2 (magic "RAGWCOL1",
// checksum.js unpackSections, CRC-32) are still read. Reading: the container split, the header parsed
// (header.js) and checked field by field (header-check.js), the index sections loaded or only checked
// (save()'s load-back check, without a second index in the WASM heap: docs/scale.md).
import { RagwasmError } from '../../core/errors.js';
import { unpackSections } from '../../core/checksum.js';
import { containerStream, packContainer, unpackContainer } from '../../core/container.js';
import { invalid, isArray, isInstance } from '../../core/validate.js';
import { Bm25Index } from '../../retrieve/sparse.js';
import { VectorIndex } from '../../retrieve/dense.js';
import { parseHeaderBytes, parseHeaderPieces, parseLargeHeader } from './header.js';
import { checkSections, headerChecker } from './header-check.js';
import { checkSavedCollection } from '../saved-check.js';
import { declaredDimension, denseEmbedder } from './parts.js';
import { createStaticEmbedder } from '../../embed/embed.js';

const MAGIC = 'RWCOLLEC';
/** Magic of collection format versions 1 and 2 (their own framing, CRC-32): read only. */
const LEGACY_MAGIC = 'RAGWCOL1';
/** The collection format version this build writes, in the one container (it reads 1, 2 and 3). */
export const COLLECTION_FORMAT_VERSION = 3;
const HEADER_TAG = 1;
const BM25_TAG = 2;
const DENSE_TAG = 3;

// header: its pieces, or [an iterator of them, their total length]; bm25 / dense: bytes, or
// {pieces, length} (save(): an iterator that makes the section when its turn comes, copied out of the
// WASM heap in pieces as they are written), or null when that leg is off (its section is then absent)
function sectionsOf(header, bm25, dense) {
  const sections = [isArray(header) && !isInstance(header[0], Uint8Array)
    ? { tag: HEADER_TAG, bytes: header[0], length: header[1] } : { tag: HEADER_TAG, bytes: header }];
  const index = (tag, b) => (isInstance(b, Uint8Array) ? { tag, bytes: b } : { tag, bytes: b.pieces, length: b.length });
  if (bm25) sections.push(index(BM25_TAG, bm25));
  if (dense) sections.push(index(DENSE_TAG, dense));
  return sections;
}

/** The saved bytes of a header (its pieces) and each leg's index bytes (null when off). */
export function packCollection(header, bm25, dense) {
  return packContainer(MAGIC, COLLECTION_FORMAT_VERSION, sectionsOf(header, bm25, dense));
}

/** packCollection() as a stream of pieces (save(): nothing joined), sections as sectionsOf() takes them. */
export function collectionStream(header, bm25, dense) {
  return containerStream(MAGIC, COLLECTION_FORMAT_VERSION, sectionsOf(header, bm25, dense));
}

/** True when `bytes` start with a collection magic (any format version). */
export function isCollectionBytes(bytes) {
  if (!isInstance(bytes, Uint8Array) || bytes.length < 8) return false;
  const magic = String.fromCharCode(...bytes.subarray(0, 8));
  return magic === MAGIC || magic === LEGACY_MAGIC;
}

/** Unpacks saved bytes and checks their header (not yet the index sections). */
export function readHeader(bytes) {
  const { version, sections } = unpackCollection(bytes);
  return headerOf(version, sections);
}

const COLLECTION_LABEL = 'ragwasm: collection bytes';

// The container checked and split: {version, sections: [header, bm25, dense]} (empty when absent).
export function unpackCollection(bytes) {
  if (!(isInstance(bytes, Uint8Array))) throw invalid('bytes', 'a Uint8Array', bytes);
  const label = COLLECTION_LABEL;
  let version;
  let sections;
  if (bytes.length >= 8 && new TextDecoder().decode(bytes.subarray(0, 8)) === LEGACY_MAGIC) {
    ({ version, sections } = unpackSections(bytes, LEGACY_MAGIC, { count: 3, maxVersion: 2, label, what: 'a ragwasm collection' }));
  } else {
    const c = unpackContainer(bytes, MAGIC, { minVersion: 1, maxVersion: COLLECTION_FORMAT_VERSION, what: 'collection', label });
    if (c.version < 3) throw new RagwasmError('CORRUPT_INDEX', `${label}: version ${c.version} in the "${MAGIC}" container (versions 1 and 2 were written as "${LEGACY_MAGIC}")`);
    if (!c.sections.has(HEADER_TAG)) throw new RagwasmError('CORRUPT_INDEX', `${label}: the header section (1) is missing`);
    version = c.version;
    sections = [c.sections.get(HEADER_TAG), c.sections.get(BM25_TAG) ?? new Uint8Array(0), c.sections.get(DENSE_TAG) ?? new Uint8Array(0)];
  }
  return { version, sections };
}

// The header section parsed and checked against the format version. checkOnly (save()'s load-back
// check): every document is checked as it is parsed and then dropped (h.docs is empty; h.chunkIds,
// h.zeroVectors, h.cfg, h.embedder as always): a 1M-chunk header parsed whole into objects took the
// tab's RSS past 4 GB (issue #18, docs/scale.md).
export function headerOf(version, sections, { checkOnly = false } = {}) {
  const label = COLLECTION_LABEL;
  const corrupt = (why) => new RagwasmError('CORRUPT_INDEX', `${label}: ${why}`);
  const check = headerChecker(version, corrupt, !checkOnly);
  let header;
  try {
    const onDoc = (d, i) => check.doc(d, i, true);
    if (!isInstance(sections[0], Uint8Array)) header = parseHeaderPieces(sections[0], onDoc);
    else header = checkOnly ? parseLargeHeader(sections[0], onDoc) : parseHeaderBytes(sections[0]);
  } catch (e) {
    if (e instanceof RagwasmError) throw e;
    throw corrupt('header is not valid JSON');
  }
  // The checksum only proves the bytes are unchanged since save(); a crafted header must still give
  // CORRUPT_INDEX instead of a TypeError here or in a later search.
  return { h: check.all(header), version, sections, corrupt };
}


// The embedder for a loaded collection: present, and the model the collection was built with.
export function checkEmbedder(o, saved, denseDimension) {
  if (o.embedder === undefined) {
    const need = saved ? ` (this collection was built with the embedder '${saved.id}', ${saved.dimension} dimensions)` : '';
    throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: options.embedder: expected an embedder${need}, got undefined`);
  }
  const fallback = saved?.dimension ?? denseDimension;
  const e = denseEmbedder(o.embedder, o.dimension ?? (declaredDimension(o.embedder) === undefined ? fallback : undefined));
  // 'custom' is the id of an unnamed embedder: before StaticEmbedder and OnnxEmbedder had ids (docs/api.md),
  // collections built with them saved 'custom', and they still load with the model that has an id now.
  if (saved && e.id !== saved.id && saved.id !== 'custom') {
    throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: options.embedder: this collection was built with the embedder '${saved.id}' `
      + `(${saved.dimension} dimensions), got '${e.id}'; load it with '${saved.id}', then setEmbedder() can switch models`,
    { expected: saved.id, got: e.id });
  }
  const need = saved?.dimension ?? denseDimension;
  if (need !== undefined && e.dimension !== need) {
    throw new RagwasmError('DIMENSION_MISMATCH', `ragwasm: options.embedder: has ${e.dimension} dimensions, the collection's vectors have ${need}`);
  }
  return e;
}

// Collection.fromBytes / load without an embedder (nor a dimension): a dense collection saved with a
// static model may be the default one (createStaticEmbedder()); withDefaultModel() checks its id.
export function needsDefaultModel(h, o) {
  return o.embedder === undefined && o.dimension === undefined && Boolean(h.cfg.indexes.dense)
    && typeof h.embedder?.id === 'string' && h.embedder.id.startsWith('static-');
}

// open(embedder) with the default static model when its id is the saved one; else the error of a
// missing embedder, naming the saved one (as checkEmbedder).
export async function withDefaultModel(h, open) {
  let e;
  try {
    e = await createStaticEmbedder();
  } catch (err) {
    if (!(err instanceof RagwasmError)) throw err;
    checkEmbedder({}, h.embedder);  // throws: no embedder given and no default model to try
  }
  if (e.id !== h.embedder.id) {
    e.dispose();
    checkEmbedder({}, h.embedder);  // throws, naming the saved model
  }
  try {
    return open(e);
  } catch (err) {
    e.dispose();
    throw err;
  }
}

/**
 * The indexes of checked sections, loaded and compared with the header `h` (readHeader), and the
 * embedder checked against the saved one (fromBytes). Frees what it loaded when a check fails.
 * @returns {{bm25: Bm25Index|null, dense: VectorIndex|null, embedder: object|undefined, needs: boolean}} needs: the collection needs an embedder
 */
export function loadSections(h, sections, corrupt, o) {
  if (h.cfg.indexes.bm25 && sections[1].length === 0) throw corrupt('the config has a BM25 index, but its section is missing or empty');
  if (h.cfg.indexes.dense && sections[2].length === 0) throw corrupt('the config has a vector index, but its section is missing or empty');
  let bm25 = null;
  let dense = null;
  try {
    bm25 = h.cfg.indexes.bm25 ? Bm25Index.fromBytes(sections[1]) : null;
    dense = h.cfg.indexes.dense ? VectorIndex.fromBytes(sections[2]) : null;
    checkSections(h, bm25, dense, corrupt);
    checkSavedCollection(h.docs, bm25, bm25 ? h.cfg.indexes.bm25.fields.map((f) => f.name) : [], corrupt);  // #30 F-2, F-4
    const needs = h.cfg.indexes.dense || h.cfg.chunker.strategy === 'semantic';
    const embedder = needs ? checkEmbedder(o, h.embedder, dense?.dimension) : o.embedder;
    return { bm25, dense, embedder, needs };
  } catch (e) {
    // e.g. a header that disagrees with an index: free the indexes already loaded
    bm25?.dispose();
    dense?.dispose();
    throw e;
  }
}

// save()'s load-back check: the checks of fromBytes (header, both sections checked and compared with
// it, the embedder), without building a second index: the live collection's indexes are in the same
// WASM heap, which never shrinks (issue #18, docs/scale.md).
export function checkCollectionBytes(bytes, o) {
  const { version, sections } = unpackCollection(bytes);
  checkSavedSections(version, sections, o);
}

// the checks of checkCollectionBytes on the sections [header, bm25, dense] (an empty array for an absent one).
// An index section may be given as a function `(use) => ...` that makes it, hands it to use() (its
// check) and frees it, called once the header is checked: then the vector section (the larger) is
// checked first and the BM25 section after it, so save() holds one of them at a time (docs/scale.md).
// step(label): the save observer's (save.js), or null.
export function checkSavedSections(version, sections, o, step = null) {
  const { h, corrupt } = headerOf(version, sections, { checkOnly: true });
  step?.('header checked');
  const made = sections.some((s) => typeof s === 'function');
  const withSection = (i, use) => (typeof sections[i] === 'function' ? sections[i](use) : use(sections[i]));
  // Each index section is checked without building an index (Bm25Index/VectorIndex._checkBytes): its
  // ids are marked against each header chunk's position, then compared as checkSections compares
  // a loaded index. An id twice in a section is refused as fromBytes refuses it.
  const at = h.chunkIds;  // checkOnly: a Map chunk id -> its position in the header (the one id structure)
  const marked = (check, bytes, what) => {
    const held = new Uint8Array(at.size);
    let twice = false;
    const r = check(bytes, (ids) => {
      for (const id of ids) {
        const i = at.get(id);
        if (i === undefined) continue;  // then a header chunk is missing (the counts are compared)
        if (held[i] === 1) twice = true;
        held[i] = 1;
      }
    });
    if (twice) throw new RagwasmError('CORRUPT_INDEX', `ragwasm: ${what}`);
    return { ...r, has: (id) => held[at.get(id)] === 1 };
  };
  const bm25 = () => withSection(1, (bytes) => {
    if (h.cfg.indexes.bm25 && bytes.length === 0) throw corrupt('the config has a BM25 index, but its section is missing or empty');
    if (h.cfg.indexes.bm25) checkSections(h, marked(Bm25Index._checkBytes, bytes, 'bytes: not a valid saved Bm25Index (documents: id)'), null, corrupt);
  });
  let dimension;
  const dense = () => withSection(2, (bytes) => {
    if (h.cfg.indexes.dense && bytes.length === 0) throw corrupt('the config has a vector index, but its section is missing or empty');
    if (!h.cfg.indexes.dense) return;
    const d = marked(VectorIndex._checkBytes, bytes, 'vector index bytes are corrupt: duplicate id (the file was truncated or modified; save it again)');
    checkSections(h, null, d, corrupt);
    dimension = d.dimension;
  });
  if (made) {
    dense();
    bm25();
  } else {
    // (both "missing" checks first, as fromBytes)
    if (h.cfg.indexes.bm25 && sections[1].length === 0) throw corrupt('the config has a BM25 index, but its section is missing or empty');
    if (h.cfg.indexes.dense && sections[2].length === 0) throw corrupt('the config has a vector index, but its section is missing or empty');
    bm25();
    dense();
  }
  if (h.cfg.indexes.dense || h.cfg.chunker.strategy === 'semantic') checkEmbedder(o, h.embedder, dimension);
}
