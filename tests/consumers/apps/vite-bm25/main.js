// Vite app using only init, chunk and Bm25Index: what a BM25-only app ships (the size target).
import { init, chunk, Bm25Index } from 'ragwasm';
import { bm25Scenario, report, settle } from './scenario.js';

report(settle(bm25Scenario({ init, chunk, Bm25Index })).then((page) => ({ page })));
