// Node side of the hostile-argument harness: a worker thread that loads the package, runs its share
// of calls one at a time (call.mjs classifies each and runs the canary) and reports each outcome. The
// parent (run.mjs) enforces the time limit (a synchronous hang cannot be interrupted from inside)
// and sees crashes as worker exits.
import { parentPort, workerData } from 'node:worker_threads';
import { createRunner } from './call.mjs';
import { loadApi } from './entries.mjs';

const api = await loadApi(new URL('../../../web/src/', import.meta.url).href);
await api.init();
// No network from a hostile call: any fetch fails at once.
globalThis.fetch = async () => { throw new api.RagwasmError('NETWORK', 'ragwasm: hostile harness: network disabled'); };
const runCall = createRunner(api, { asyncLimitMs: workerData.asyncLimitMs });

for (const call of workerData.calls) {
  parentPort.postMessage({ type: 'start', key: call.key });
  const r = await runCall(call);
  parentPort.postMessage({ type: 'done', key: call.key, outcome: r.outcome, code: r.code, detail: r.detail });
  if (r.dead) process.exit(3); // the module is dead; the parent starts a fresh worker for the remaining calls
}
parentPort.postMessage({ type: 'finished' });
