// Vite app with no config (the default 'iife' worker format): ragwasm/worker's WorkerCollection runs a
// Collection in the package's own module Worker.
import { WorkerCollection, RagwasmError } from 'ragwasm/worker';
import { report, settle, workerScenario } from './scenario.js';

report(settle(workerScenario({ WorkerCollection, RagwasmError })).then((page) => ({ page })));
