// Module Worker: the same calls as the page, posted back as {ok, result} or {ok: false, error}.
import { init, chunk, Bm25Index, Collection } from 'ragwasm';
import { metrics } from 'ragwasm/eval';
import { fullScenario, settle } from './scenario.js';

settle(fullScenario({ init, chunk, Bm25Index, Collection, metrics })).then((outcome) => postMessage(outcome));
