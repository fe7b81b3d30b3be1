// No bundler: bare specifiers resolved by the page's import map to a CDN-like second origin.
import { init, chunk, Bm25Index, Collection } from 'ragwasm';
import { metrics } from 'ragwasm/eval';
import { fullScenario, report, settle } from './scenario.js';

report(settle(fullScenario({ init, chunk, Bm25Index, Collection, metrics })).then((page) => ({ page })));
