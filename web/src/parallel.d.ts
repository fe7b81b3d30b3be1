// Type declarations of the ragwasm/parallel entry.
export * from './parallel/pool.js';
export * from './parallel/sharded.js';
