// Vite app: the full scenario on the page and, at the same time, in a module Worker; then the
// package's own Worker pool (two shards of a BM25 index).
import { init, chunk, Bm25Index, Collection } from 'ragwasm';
import { metrics } from 'ragwasm/eval';
import { ShardedBm25Index } from 'ragwasm/parallel';
import { fullScenario, poolScenario, report, settle } from './scenario.js';

const inWorker = new Promise((resolve) => {
  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = (e) => resolve(e.data);
  worker.onerror = (e) => resolve({ ok: false, error: { name: 'WorkerError', code: null, message: e.message ?? 'worker failed to load' } });
});
const onPage = settle(fullScenario({ init, chunk, Bm25Index, Collection, metrics }));
report(Promise.all([onPage, inWorker]).then(async ([page, worker]) => ({
  page, worker, pool: await settle(poolScenario({ init, Bm25Index, ShardedBm25Index })),
})));
