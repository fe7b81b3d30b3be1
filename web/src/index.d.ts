// Type declarations of the ragwasm JS API, one .d.ts per area beside its .js file.
export * from './module.js';
export * from './errors.js';
export * from './info.js';
export * from './document.js';
export * from './text.js';
export * from './chunk.js';
export * from './parse.js';
export * from './llm.js';
export * as metrics from './metrics.js';
export * from './dense.js';
export * from './sparse.js';
export * from './storage.js';
export * from './fusion.js';
export * from './context.js';
export * from './pipeline.js';
export * from './embed.js';
export * from './collection.js';
export * from './autotune.js';
