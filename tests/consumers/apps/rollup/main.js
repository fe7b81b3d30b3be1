// Rollup app: the full scenario on the page.
import { init, chunk, Bm25Index, Collection, metrics } from 'ragwasm';
import { fullScenario, report, settle } from './scenario.js';

report(settle(fullScenario({ init, chunk, Bm25Index, Collection, metrics })).then((page) => ({ page })));
