// The Worker pool from the installed package: worker_threads load web/src/parallel/worker.js by its
// `new URL('./worker.js', import.meta.url)`; two shards must rank as one Bm25Index. Prints JSON.
import { init, Bm25Index } from 'ragwasm';
import { ShardedBm25Index } from 'ragwasm/parallel';
import { poolScenario } from './scenario.js';

process.stdout.write(JSON.stringify(await poolScenario({ init, Bm25Index, ShardedBm25Index })));
