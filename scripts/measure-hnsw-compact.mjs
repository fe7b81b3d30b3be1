// Times VectorIndex.compact() against the HNSW build it replaces (docs/dense.md "Deletion"): 20,000 x 64
// seeded random vectors, half removed. Usage: node scripts/measure-hnsw-compact.mjs (release WASM in web/dist).
import { init, VectorIndex } from '../web/src/index.js';
await init();
const n = 20000, dim = 64;
let s = 1; const r = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648) - 0.5;
const data = new Float32Array(n * dim).map(r);
const items = Array.from({ length: n }, (_, i) => ({ id: `d${i}`, vector: data.subarray(i * dim, (i + 1) * dim) }));
const ix = VectorIndex.create({ dimension: dim, index: 'hnsw' });
let t = performance.now(); ix.add(items); const build = performance.now() - t;
ix.remove(items.filter((_, i) => i % 2).map((x) => x.id));
const before = ix.toBytes().length;
t = performance.now(); const dropped = ix.compact(); const comp = performance.now() - t;
console.log(JSON.stringify({ n, dim, buildMs: Math.round(build), compactMs: Math.round(comp), dropped, bytesBefore: before, bytesAfter: ix.toBytes().length }));
