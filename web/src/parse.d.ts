// Type declarations of the ragwasm/parse entry.
export * from './document/parse.js';
export * from './document/file-document.js';
