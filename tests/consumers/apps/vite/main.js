// Vite app: the full scenario on the page and, at the same time, in a module Worker.
import { init, chunk, Bm25Index, Collection, metrics } from 'ragwasm';
import { fullScenario, report, settle } from './scenario.js';

const inWorker = new Promise((resolve) => {
  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = (e) => resolve(e.data);
  worker.onerror = (e) => resolve({ ok: false, error: { name: 'WorkerError', code: null, message: e.message ?? 'worker failed to load' } });
});
const onPage = settle(fullScenario({ init, chunk, Bm25Index, Collection, metrics }));
report(Promise.all([onPage, inWorker]).then(([page, worker]) => ({ page, worker })));
