// Type declarations of the ragwasm JS API, one .d.ts per area beside its .js file.
export * from './core/module.js';
export * from './core/errors.js';
export * from './core/info.js';
export * from './document/document.js';
export * from './document/text.js';
export * from './chunk/chunk.js';
export * as metrics from './metrics/metrics.js';
export * from './retrieve/dense.js';
export * from './retrieve/sparse.js';
export * from './core/storage.js';
export * from './retrieve/fusion.js';
export * from './retrieve/leg-check.js';
export * from './context/context.js';
export * from './pipeline/pipeline.js';
export * from './embed/embed.js';
export * from './embed/contract.js';
export * from './pipeline/collection.js';
export * from './pipeline/autotune.js';
