// JS heap a bm25-only Collection holds per chunk in Node (issue #18, docs/scale.md "Memory of the 1M
// tab"): builds N chunks of the million corpus, then heapUsed (after gc) before minus after dispose.
// The corpus texts stay alive in both measurements, so the bytes are the collection's own records.
//   node --expose-gc tests/bench/lib/collection-heap.mjs [N=100000]
import { existsSync } from 'node:fs';
import { init, Collection } from '../../../web/src/index.js';
import { buildBigCorpus } from './big-corpus.mjs';
import { repeatedDocs } from './million-corpus.mjs';

await init();
const root = process.env.RAGWASM_SHARED ?? new URL('../../../../shared', import.meta.url).pathname;
const shared = (rel) => (existsSync(`${root}/${rel}`) ? `${root}/${rel}` : null);
const { docs: base } = buildBigCorpus(shared);
const n = Number(process.argv[2] ?? 100000);
const heap = () => { globalThis.gc(); globalThis.gc(); return process.memoryUsage().heapUsed; };
let col = await Collection.create({ indexes: { bm25: {} } });
for (let s = 0; s < n; s += 10000) await col.add(repeatedDocs(base, s, Math.min(10000, n - s)), { batchSize: 1000 });
const held = heap();
const chunks = col.chunks.size;
col.dispose();
col = null;
const bytes = held - heap();
console.log(JSON.stringify({ chunks, heldMB: +(bytes / 2 ** 20).toFixed(1), bytesPerChunk: Math.round(bytes / chunks) }));
