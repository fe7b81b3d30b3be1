// @ts-check
// ragwasm/worker: a Collection in a module Worker behind the same async API (docs/install.md, "A module
// Worker"). The Worker script is web/src/worker/collection-worker.js, reached by new URL(..., import.meta.url).
export { WorkerCollection } from './worker/client.js';
export { RagwasmError } from './core/errors.js';
