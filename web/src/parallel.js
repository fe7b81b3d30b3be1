// @ts-check
// ragwasm/parallel: every core at once (docs/parallel.md). A pool of Workers, BM25 and vector indexes
// sharded across it (bit for bit the scores of one index) and an embedder that splits batches over it.
// Collection.create(config, {workers}) uses the same parts without importing this entry.
export { WorkerPool, defaultWorkers, MAX_WORKERS } from './parallel/pool.js';
export { ShardedBm25Index, ShardedVectorIndex, createParallelEmbedder, SHARDED_BM25_FORMAT_VERSION, SHARDED_VECTOR_FORMAT_VERSION } from './parallel/sharded.js';
