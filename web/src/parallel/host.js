// @ts-check
// The shard host: the objects one Worker (or, with `workers: 1`, the calling thread) holds for a
// sharded index or a parallel embedder, and the operations the pool sends it. A plain function of
// (op, args) so the Worker script (worker.js) and the in-thread host run the same code.
import { init } from '../core/module.js';
import { Bm25Index } from '../retrieve/sparse.js';
import { VectorIndex } from '../retrieve/dense.js';
import { StaticEmbedder } from '../embed/embed.js';
import { RagwasmError } from '../core/errors.js';

// ids[i] with the vector flat[i*dim ..]: VectorIndex.add / upsert items (views, no copy)
function vectorItems(dim, ids, flat) {
  const items = new Array(ids.length);
  for (let i = 0; i < ids.length; i++) items[i] = { id: ids[i], vector: flat.subarray(i * dim, (i + 1) * dim) };
  return items;
}

// Deterministic text for the warm-up: `count` documents of pseudo-random words from a few syllables.
function warmDocs(count) {
  const syl = ['ka', 'lo', 'mi', 'ren', 'tu', 'sa', 'vek', 'po', 'di', 'nar', 'el', 'qui', 'bro', 'fen', 'ga', 'hu'];
  let x = 18;
  const word = () => {
    let w = '';
    for (let k = 1 + (x & 3); k > 0; k--) {
      x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
      w += syl[x >>> 28];
    }
    return w;
  };
  const docs = [];
  for (let i = 0; i < count; i++) {
    const words = [];
    for (let j = 0; j < 60; j++) words.push(word());
    docs.push({ id: `warm${i}`, title: words.slice(0, 6).join(' '), text: words.join(' ') });
  }
  return docs;
}

/** @internal */
export function createHost() {
  const objects = new Map();
  const get = (handle) => {
    const o = objects.get(handle);
    if (o === undefined) throw new RagwasmError('DISPOSED', `ragwasm: worker shard ${handle} was disposed`);
    return o;
  };
  const ops = {
    async init(options) {
      await init(options ?? {});
      return true;
    },
    // JIT warm-up at pool start (WorkerPool.create({ warm: true })): the code paths of a sharded build
    // (add, statistics out and in, search) and of a flat scan run on throw-away indexes
    warm() {
      const docs = warmDocs(512);
      const bm25 = Bm25Index.create();
      try {
        for (let i = 0; i < docs.length; i += 128) bm25.add(docs.slice(i, i + 128));
        const st = bm25._rawStats();
        bm25._setGlobalDf(st.documents, Array.from(st.fieldLengths), st.df);
        for (const d of docs.slice(0, 32)) bm25.search(d.title, { k: 10 });
      } finally {
        bm25.dispose();
      }
      const dim = 32;
      const vectors = VectorIndex.create({ dimension: dim, metric: 'dot' });
      try {
        const flat = new Float32Array(2048 * dim);
        for (let i = 0; i < flat.length; i++) flat[i] = ((i * 7919) % 1000) / 1000 - 0.5;
        vectors.add(vectorItems(dim, Array.from({ length: 2048 }, (_, i) => `w${i}`), flat));
        vectors.searchMany([flat.subarray(0, dim), flat.subarray(dim, 2 * dim)], { k: 10 });
      } finally {
        vectors.dispose();
      }
      return true;
    },
    'bm25.create'(handle, options) {
      objects.set(handle, { index: Bm25Index.create(options) });
      return true;
    },
    'bm25.load'(handle, bytes) {
      objects.set(handle, { index: Bm25Index.fromBytes(bytes) });
      return get(handle).index.size;
    },
    // every write bumps the shard's version (bm25.setGlobalDf applies only to the version it was computed for)
    'bm25.add'(handle, docs) {
      const shard = get(handle);
      shard.version = (shard.version ?? 0) + 1;
      return shard.index.add(docs);
    },
    'bm25.upsert'(handle, docs) {
      const shard = get(handle);
      shard.version = (shard.version ?? 0) + 1;
      return shard.index.upsert(docs);
    },
    'bm25.remove'(handle, ids, options) {
      const shard = get(handle);
      shard.version = (shard.version ?? 0) + 1;
      return shard.index.remove(ids, options ?? {});
    },
    'bm25.compact'(handle) {
      const shard = get(handle);
      shard.version = (shard.version ?? 0) + 1;
      shard.index.compact();
      return null;
    },
    // the ids of `ids` this shard does not hold
    'bm25.missing'(handle, ids) {
      const { index } = get(handle);
      return ids.filter((id) => !index.has(id));
    },
    'bm25.stats'(handle) {
      const shard = get(handle);
      return { ...shard.index.collectionStats(), version: shard.version ?? 0 };
    },
    // the shard's statistics as typed arrays (terms as one UTF-8 blob with offsets), moved to the caller
    'bm25.rawStats'(handle) {
      const shard = get(handle);
      return { ...shard.index._rawStats(), version: shard.version ?? 0 };
    },
    'bm25.setGlobal'(handle, stats) {
      get(handle).index.setGlobalStats(stats);
      return true;
    },
    // df aligned to this shard's dictionary as bm25.stats returned it at `version`; false (nothing set)
    // when a write came in between
    'bm25.setGlobalDf'(handle, version, documents, fieldLengths, df) {
      const shard = get(handle);
      if ((shard.version ?? 0) !== version) return false;
      shard.index._setGlobalDf(documents, fieldLengths, df);
      return true;
    },
    'bm25.search'(handle, queries, options) {
      const { index } = get(handle);
      return queries.map((q) => index.search(q, options));
    },
    'bm25.toBytes'(handle) {
      return get(handle).index.toBytes();
    },
    'vector.create'(handle, options) {
      objects.set(handle, { index: VectorIndex.create(options), ordinal: new Map() });
      return true;
    },
    // ids[i] with vector flat[i*dim ..] and global insertion ordinal ordinals[i]
    'vector.add'(handle, ids, flat, ordinals) {
      const shard = get(handle);
      const summary = shard.index.add(vectorItems(shard.index.dimension, ids, flat));
      for (let i = 0; i < ids.length; i++) shard.ordinal.set(ids[i], ordinals[i]);
      return summary;
    },
    // as vector.add, replacing ids the shard holds (a replaced id takes its new, newest ordinal)
    'vector.upsert'(handle, ids, flat, ordinals) {
      const shard = get(handle);
      const summary = shard.index.upsert(vectorItems(shard.index.dimension, ids, flat));
      for (let i = 0; i < ids.length; i++) {
        shard.ordinal.delete(ids[i]);  // Map order = insertion order, as the index's
        shard.ordinal.set(ids[i], ordinals[i]);
      }
      return summary;
    },
    'vector.compact'(handle) {
      return get(handle).index.compact();
    },
    'vector.missing'(handle, ids) {
      const { index } = get(handle);
      return ids.filter((id) => !index.has(id));
    },
    // the shard's VectorIndex bytes, and its ids with their global insertion ordinals
    'vector.toBytes'(handle) {
      const shard = get(handle);
      return { bytes: shard.index.toBytes(), ids: [...shard.ordinal.keys()], ordinals: Float64Array.from(shard.ordinal.values()) };
    },
    'vector.load'(handle, bytes, ids, ordinals) {
      const index = VectorIndex.fromBytes(bytes);
      const ordinal = new Map();
      for (let i = 0; i < ids.length; i++) ordinal.set(ids[i], ordinals[i]);
      objects.set(handle, { index, ordinal });
      if (ids.length !== index.size || ids.some((id) => !index.has(id))) {
        throw new RagwasmError('CORRUPT_INDEX', 'ragwasm: sharded vector bytes: a shard\'s ids do not match its vectors');
      }
      return ids.length;
    },
    'vector.dimension'(handle) {
      return get(handle).index.dimension;
    },
    'vector.remove'(handle, ids) {
      const shard = get(handle);
      const summary = shard.index.remove(ids, { ignoreMissing: true });
      for (const id of ids) shard.ordinal.delete(id);
      return summary;
    },
    // queries: Float32Array of n*dim -> {counts: Uint32Array(n), ids: string[], scores: Float64Array,
    // ordinals: Float64Array} (query q's hits at offset counts[0] + ... + counts[q - 1], best first;
    // the typed arrays moved back, not copied) and ms: this Worker's time in the scan (VectorIndex.searchMany)
    'vector.search'(handle, flat, n, options) {
      const shard = get(handle);
      const dim = shard.index.dimension;
      const queries = new Array(n);
      for (let q = 0; q < n; q++) queries[q] = flat.subarray(q * dim, (q + 1) * dim);
      const t0 = performance.now();
      const lists = shard.index.searchMany(queries, options);  // one pass over the shard for all queries
      const ms = performance.now() - t0;
      let total = 0;
      const counts = new Uint32Array(n);
      for (let q = 0; q < n; q++) total += (counts[q] = lists[q].length);
      const ids = new Array(total);
      const scores = new Float64Array(total);
      const ordinals = new Float64Array(total);
      let j = 0;
      for (let q = 0; q < n; q++) {
        for (const h of lists[q]) {
          ids[j] = h.id;
          scores[j] = h.score;
          ordinals[j] = shard.ordinal.get(h.id);
          j++;
        }
      }
      return { counts, ids, scores, ordinals, ms };
    },
    'embed.create'(handle, modelBytes) {
      const embedder = StaticEmbedder.fromBytes(modelBytes);
      objects.set(handle, { embedder });
      return { dimension: embedder.dimension, id: embedder.id };
    },
    // texts -> one Float32Array of texts.length * dimension
    'embed.run'(handle, texts) {
      return get(handle).embedder._embedFlat(texts);  // the embedSync vectors in the one buffer WASM returned (moved back, not copied)
    },
    // texts in parts of k (the fields of documents, embedDocuments): as embed.run of the parts joined by spaces
    'embed.runParts'(handle, parts, k) {
      return get(handle).embedder._embedFlatParts(parts, k);
    },
    dispose(handle) {
      const o = objects.get(handle);
      if (o !== undefined) {
        (o.index ?? o.embedder).dispose();
        objects.delete(handle);
      }
      return true;
    },
  };
  return {
    async call(op, args) {
      const f = ops[op];
      if (f === undefined) throw new RagwasmError('INTERNAL', `ragwasm: worker: unknown operation '${op}'`);
      return f(...args);
    },
  };
}

/** Typed arrays in a reply, moved (not copied) back to the caller. @internal */
export function transferables(value, out = [], depth = 0) {
  if (ArrayBuffer.isView(value)) {
    if (value.byteOffset === 0 && value.byteLength === value.buffer.byteLength && !out.includes(value.buffer)) out.push(value.buffer);
  } else if (depth < 3 && Array.isArray(value) && value.length > 0 && typeof value[0] === 'object') {  // not lists of ids
    for (const v of value) transferables(v, out, depth + 1);
  } else if (depth < 3 && value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) transferables(v, out, depth + 1);
  }
  return out;
}
