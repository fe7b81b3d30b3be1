// Rollup app: the full scenario on the page.
import { init, chunk, Bm25Index, Collection } from 'ragwasm';
import { metrics } from 'ragwasm/eval';
import { fullScenario, report, settle } from './scenario.js';

report(settle(fullScenario({ init, chunk, Bm25Index, Collection, metrics })).then((page) => ({ page })));
