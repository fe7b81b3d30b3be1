// esbuild app: the full scenario on the page, then ragwasm/worker's WorkerCollection; ragwasm.wasm and
// the Worker script are served next to the bundle (build.mjs).
import { init as initRagwasm, chunk, Bm25Index, Collection } from 'ragwasm';
import { metrics } from 'ragwasm/eval';
import { WorkerCollection, RagwasmError } from 'ragwasm/worker';
import { fullScenario, report, settle, workerScenario } from './scenario.js';

const wasmUrl = new URL('./ragwasm.wasm', import.meta.url);
const init = () => initRagwasm({ wasmUrl });
report(settle(fullScenario({ init, chunk, Bm25Index, Collection, metrics })).then(async (page) => ({
  page, workerCollection: await settle(workerScenario({ WorkerCollection, RagwasmError }, { init: { wasmUrl: wasmUrl.href } })),
})));
