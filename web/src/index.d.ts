// Type declarations of the ragwasm JS API, one .d.ts per area beside its .js file.
export * from './module.js';
export * from './errors.js';
export * from './info.js';
export * from './document.js';
export * from './text.js';
export * from './parse.js';
