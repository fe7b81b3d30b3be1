// @ts-check
// Indexes sharded by document across a WorkerPool, with results identical to one index:
//   ShardedBm25Index: every shard scores with the collection-wide statistics (Bm25Index.sumStats of
//     each shard's collectionStats(), injected by setGlobalStats), so each document's score is the
//     unsharded score bit for bit; the shards' top-k lists merge by score descending, then id
//     ascending (bytewise UTF-8), the ranking rule of src/common/ranking.h.
//   ShardedVectorIndex (flat f32 / int8): per-vector scores do not depend on the other vectors; the
//     top-k lists merge by score descending, then global insertion order, VectorIndex's tie rule.
//   createParallelEmbedder: the static model in every Worker, texts embedded in batches across them.
// Documents go to shard fnv1a(id) mod N, so an id always lands in the same shard (duplicate ids are
// caught there). A write is all or nothing: when one shard refuses its part, the parts other shards
// took are removed again before the error is thrown.
// The parts: sharded-common.js (format, route, pool, writes), sharded-bm25.js, sharded-vector.js,
// parallel-embedder.js.
export { SHARDED_BM25_FORMAT_VERSION, SHARDED_VECTOR_FORMAT_VERSION, shardOf, compareUtf8 } from './sharded-common.js';
export { ShardedBm25Index } from './sharded-bm25.js';
export { ShardedVectorIndex } from './sharded-vector.js';
export { createParallelEmbedder } from './parallel-embedder.js';
