// Type declarations of the ragwasm/parse entry.
export * from './document/parse.js';
