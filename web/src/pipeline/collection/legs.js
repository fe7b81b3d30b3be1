// @ts-check
// A Collection's retrieval legs: the BM25 leg and the dense leg, each single (an index in this thread)
// or sharded (ShardedBm25Index / ShardedVectorIndex across a WorkerPool, docs/parallel.md), behind one
// interface, so the Collection composes them without asking which (docs/collection.md).
//
// The leg interface (both legs):
//   leg.index                 the index itself (Bm25Index | VectorIndex | ShardedBm25Index | ShardedVectorIndex)
//   leg.add(items)            -> undefined (single: written now) | Promise<void> (sharded: written in the Workers)
//   leg.remove(ids)           removes now (sharded: posted now, in order before any later call; a failure
//                             surfaces at the next legs.settled())
//   leg.compact()             -> number | Promise<number> (dense: tombstones dropped; BM25: 0)
//   leg.dispose()
// The BM25 leg:
//   leg.analyze(text)         -> the query terms (an empty list: nothing searchable)
//   leg.search(query, {k, filter?}) -> Promise<{id, score}[]>: the one place a Collection searches BM25
//                             with a query (Collection.search); the query has at least one term
//   leg.searchMany(queries, {k}) -> Promise<{id, score}[][]>: the leg check's probes ([] for a query without terms)
// The dense leg:
//   leg.size                  live vectors
//   leg.searchMany(vectors, k, allowed) -> Promise<{id, score}[][]>: k nearest of each vector among the chunk
//                             ids in `allowed` (a Set, or null: all); an all-zero vector matches nothing
// The legs (createLegs / shardedLegs): {bm25, dense, workers, settled(), toBytes(collection), save(collection,
// name, opts), dispose()}: what differs between one thread and a pool besides the legs themselves.
import { Bm25Index } from '../../retrieve/sparse.js';
import { VectorIndex } from '../../retrieve/dense.js';
import { ShardedBm25Index, ShardedVectorIndex, createParallelEmbedder } from '../../parallel/sharded.js';
import { WorkerPool } from '../../parallel/pool.js';
import { embedTexts } from '../../embed/contract.js';
import { saveBytes } from '../../core/storage.js';
import { invalid } from '../../core/validate.js';
import { bm25Doc, denseOptions, extraFields, indexTextOf, isZeroVector } from './parts.js';
import { checkCollectionBytes, packCollection } from './saved.js';
import { saveStreaming } from './save.js';

class Bm25Leg {
  constructor(index) { this.index = index; }
  add(docs) { this.index.add(docs); }
  remove(ids) { this.index.remove(ids, { ignoreMissing: true }); }
  compact() { this.index.compact(); return 0; }
  analyze(text) { return this.index.analyze(text); }
  async search(query, options) { return this.index.search(query, options); }
  async searchMany(queries, { k }) {
    return queries.map((q) => (this.index.analyze(q).length === 0 ? [] : this.index.search(q, { k })));
  }
  dispose() { this.index.dispose(); }
}

class DenseLeg {
  constructor(index) { this.index = index; }
  get size() { return this.index.size; }
  add(items) { this.index.add(items); }
  remove(ids) { this.index.remove(ids); }
  compact() { return this.index.compact(); }
  async searchMany(vectors, k, allowed) {
    const live = this.index.size;
    return vectors.map((v) => {
      const n = Math.min(k, allowed ? allowed.size : live);
      if (n === 0 || isZeroVector(v)) return [];
      return this.index.search(v, allowed ? { k: n, filter: allowed } : { k: n });
    });
  }
  dispose() { this.index.dispose(); }
}

// Sharded legs share the pool's removal tracker: removals are posted at once, awaited by settled().
class ShardedBm25Leg {
  constructor(index, legs) { this.index = index; this.legs = legs; }
  add(docs) { return this.index.add(docs); }
  remove(ids) { this.legs.track(this.index.remove(ids, { ignoreMissing: true })); }
  async compact() { await this.index.compact(); return 0; }
  analyze(text) { return this.index.analyze(text); }
  async search(query, options) {
    return (await this.#many([query], options))[0];
  }
  async searchMany(queries, { k }) {
    const ask = queries.flatMap((q, i) => (this.index.analyze(q).length === 0 ? [] : [i]));
    const found = await this.#many(ask.map((i) => queries[i]), { k });
    const out = queries.map(() => []);
    ask.forEach((i, j) => { out[i] = found[j]; });
    return out;
  }
  // the hits of several queries, after the removals in flight
  async #many(queries, options) {
    await this.legs.settled();
    return this.index.searchMany(queries, options);
  }
  dispose() { this.index.dispose().catch(() => {}); }
}

class ShardedDenseLeg {
  constructor(index, legs) { this.index = index; this.legs = legs; }
  get size() { return this.index.size; }
  add(items) { return this.index.add(items); }
  remove(ids) { this.legs.track(this.index.remove(ids, { ignoreMissing: true })); }
  compact() { return this.index.compact(); }
  async searchMany(vectors, k, allowed) {
    await this.legs.settled();
    const n = Math.min(k, allowed ? allowed.size : this.index.size);
    const ask = n === 0 ? [] : vectors.flatMap((v, i) => (isZeroVector(v) ? [] : [i]));
    const found = ask.length === 0 ? [] : await this.index.searchMany(ask.map((i) => vectors[i]), allowed ? { k: n, filter: allowed } : { k: n });
    const out = vectors.map(() => []);
    ask.forEach((i, j) => { out[i] = found[j]; });
    return out;
  }
  dispose() { this.index.dispose().catch(() => {}); }
}

/** The legs of a collection in this thread: the given indexes, or new ones from the config. */
export function createLegs(cfg, dimension, bm25 = null, dense = null) {
  return {
    workers: 1,
    bm25: cfg.indexes.bm25 ? new Bm25Leg(bm25 ?? Bm25Index.create(cfg.indexes.bm25)) : null,
    dense: cfg.indexes.dense ? new DenseLeg(dense ?? VectorIndex.create(denseOptions(cfg.indexes.dense, dimension))) : null,
    settled: async () => {},
    newDense(index) { return new DenseLeg(index); },
    toBytes(col) {
      return packCollection(col._headerBytes(), this.bm25 ? this.bm25.index.toBytes() : null, this.dense ? this.dense.index.toBytes() : null);
    },
    save: saveStreaming,
    dispose() {
      this.bm25?.dispose();
      this.dense?.dispose();
    },
  };
}

// workers > 1 needs legs that shard exactly: the dense leg flat (f32 / int8) with the default static
// model (a given embedder runs where it was made, in this thread).
export function checkShardable(cfg, defaultModel, name, workers) {
  if (!cfg.indexes.dense) return;
  if (!defaultModel) throw invalid(name, 'workers with the default static model (a given embedder runs where it was made)', workers);
  const d = cfg.indexes.dense;
  if ((d.index ?? 'flat') !== 'flat' || d.storage === 'binary') {
    throw invalid(name, `workers with a flat f32 or int8 dense index (a sharded HNSW graph or binary candidate list would not return one index's hits; the config has index '${d.index}', storage '${d.storage}')`, workers);
  }
}

/**
 * Legs sharded across a new pool of `workers` (docs/parallel.md): the dense leg embeds with the default
 * static model in every Worker (the returned `embedder`, or the given one without a dense leg).
 * @returns {Promise<{legs: object, embedder: object|undefined}>}
 */
export async function shardedLegs(cfg, workers, embedder) {
  const pool = await WorkerPool.create({ workers });
  const pending = new Set();
  const legs = {
    workers: pool.size,
    pool,
    bm25: null,
    dense: null,
    // removals posted to the Workers at once (so later calls see them) and awaited by settled()
    track(promise) {
      const t = promise.then(() => null, (e) => e);
      pending.add(t);
      t.then(() => pending.delete(t));
    },
    async settled() {
      if (pending.size === 0) return;
      const errors = await Promise.all([...pending]);
      const e = errors.find((x) => x !== null);
      if (e) throw e;
    },
    toBytes: shardedToBytes,
    async save(col, name, opts) {
      const bytes = await col.toBytes();
      checkCollectionBytes(bytes, col.embedder ? { keepVectors: false, embedder: col.embedder } : { keepVectors: false });
      col._alive();
      await saveBytes(name, bytes, opts);
    },
    dispose() {
      // the sharded legs live in the pool's Workers (and the BM25 analyzer in this thread)
      this.bm25?.dispose();
      this.dense?.dispose();
      pool.terminate().catch(() => {});
    },
  };
  try {
    const e = cfg.indexes.dense ? await createParallelEmbedder({ pool }) : embedder;
    if (cfg.indexes.bm25) legs.bm25 = new ShardedBm25Leg(await ShardedBm25Index.create(cfg.indexes.bm25, { pool }), legs);
    if (cfg.indexes.dense) legs.dense = new ShardedDenseLeg(await ShardedVectorIndex.create(denseOptions(cfg.indexes.dense, e.dimension), { pool }), legs);
    return { legs, embedder: e };
  } catch (err) {
    legs.bm25?.dispose();
    await pool.terminate();
    throw err;
  }
}

// toBytes() of sharded legs: the same bytes as workers: 1. The chunks are indexed once more into one
// Bm25Index and one VectorIndex in this thread (the dense leg's chunks embedded again across the
// Workers, or the kept vectors), in the order one index received them (docs/parallel.md).
async function shardedToBytes(col) {
  await this.settled();
  // a snapshot: writes that land while the dense chunks are embedded are not in these bytes
  const header = col._headerBytes();
  const { chunks, records } = col._chunksInOrder();
  const zero = new Set(col.zeroVectors);
  const kept = col._vectors;
  const cfg = col.config;
  let bm25 = null;
  let dense = null;
  try {
    bm25 = cfg.indexes.bm25 ? Bm25Index.create(cfg.indexes.bm25) : null;
    dense = cfg.indexes.dense ? VectorIndex.create(denseOptions(cfg.indexes.dense, col.dimension)) : null;
    if (bm25 && chunks.length > 0) {
      const extra = extraFields(cfg);
      bm25.add(chunks.map((c, i) => bm25Doc(c, records[i], extra)));
    }
    const keep = dense ? chunks.filter((c) => !zero.has(c.id)) : [];
    const step = 8192;
    for (let i = 0; i < keep.length; i += step) {
      const part = keep.slice(i, i + step);
      const missing = part.filter((c) => !kept?.has(c.id));
      const fresh = missing.length === 0 ? [] : await embedTexts(col.embedder, missing.map(indexTextOf), { kind: 'document' });
      col._alive();
      const byId = new Map(missing.map((c, j) => [c.id, fresh[j]]));
      dense.add(part.map((c) => ({ id: c.id, vector: byId.get(c.id) ?? kept.get(c.id) })));
    }
    return packCollection(header, bm25 ? bm25.toBytes() : null, dense ? dense.toBytes() : null);
  } finally {
    bm25?.dispose();
    dense?.dispose();
  }
}
