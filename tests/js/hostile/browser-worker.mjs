// Browser side of the hostile-argument harness: a module Worker that loads the package from
// /web/src/index.js, says 'ready', then runs the calls it is sent (call.mjs classifies each and runs
// the canary). The page (tests/browser/hostile.test.mjs) enforces the time limit by terminating it.
import { createRunner } from './call.mjs';
import { BROWSER_ENTRY_FILES, loadApi } from './entries.mjs';

const api = await loadApi(new URL('/web/src/', self.location.href).href, BROWSER_ENTRY_FILES);
await api.init();
globalThis.fetch = async () => { throw new api.RagwasmError('NETWORK', 'ragwasm: hostile harness: network disabled'); };
let runCall = null;

self.onmessage = async (ev) => {
  const { calls, asyncLimitMs } = ev.data;
  runCall ??= createRunner(api, { asyncLimitMs });
  for (const call of calls) {
    self.postMessage({ type: 'start', key: call.key });
    const r = await runCall(call);
    self.postMessage({ type: 'done', key: call.key, outcome: r.outcome, code: r.code, detail: r.detail });
    if (r.dead) { self.close(); return; }
  }
  self.postMessage({ type: 'finished' });
};
self.postMessage({ type: 'ready' });
