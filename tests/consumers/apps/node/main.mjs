// Node ESM app: the full scenario from the installed package; prints {ok, result} as JSON.
import { init, chunk, Bm25Index, Collection } from 'ragwasm';
import { metrics } from 'ragwasm/eval';
import { fullScenario, settle } from './scenario.js';

const outcome = await settle(fullScenario({ init, chunk, Bm25Index, Collection, metrics }));
process.stdout.write(JSON.stringify(outcome));
