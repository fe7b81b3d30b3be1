// webpack 5 app: the full scenario on the page, then ragwasm/worker's WorkerCollection.
import { init, chunk, Bm25Index, Collection } from 'ragwasm';
import { metrics } from 'ragwasm/eval';
import { WorkerCollection, RagwasmError } from 'ragwasm/worker';
import { fullScenario, report, settle, workerScenario } from './scenario.js';

report(settle(fullScenario({ init, chunk, Bm25Index, Collection, metrics })).then(async (page) => ({
  page, workerCollection: await settle(workerScenario({ WorkerCollection, RagwasmError })),
})));
