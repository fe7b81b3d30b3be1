import { init, VectorIndex, denseSimdEnabled, VECTOR_MAX_K, RagwasmError, type WriteSummary } from '../../web/src/index.js';
export async function main() {
  await init();
  const ix: VectorIndex = VectorIndex.create({ dimension: 3, metric: 'cosine', storage: 'int8', index: 'hnsw', hnsw: { M: 8, efConstruction: 100, efSearch: 32, seed: 1 } });
  const summary: WriteSummary = ix.add([{ id: 'a', vector: new Float32Array([1, 0, 0]) }, { id: 'b', vector: [0, 1, 0] }]);
  const n: number = summary.added + ix.upsert({ id: 'c', vector: [0, 0, 1] }).updated;
  // @ts-expect-error the positional add(ids, vectors) of before 0.1.0 is gone (#28)
  ix.add(['d'], new Float32Array([0, 1, 1]));
  const hits = ix.search([1, 0, 0], { k: 2, filter: (id: string) => id !== 'b', efSearch: 16, rescore: 4, exact: false });
  const s: string = hits[0].id; const sc: number = hits[0].score;
  ix.search(new Float32Array(3), { filter: new Set(['a']) });
  const bytes: Uint8Array = ix.toBytes();
  const back = VectorIndex.fromBytes(bytes);
  await ix.save('vectors', { dir: '/tmp/x' });
  const named: VectorIndex = await VectorIndex.load('vectors', { dir: '/tmp/x' });
  const dim: number = back.dimension + back.size + back.options.hnsw.M;
  const ok: boolean = denseSimdEnabled() && ix.has('a') && !ix.disposed;
  const removed: number = ix.remove(['a', 'zz'], { ignoreMissing: true }).skipped + ix.remove('b').removed;
  ix.dispose();
  console.log(n, s, sc, dim, ok, removed, named, VECTOR_MAX_K, RagwasmError);
}
void main;

// compact(): the tombstones dropped
declare const compacting: import('../../web/src/retrieve/dense.js').VectorIndex;
const droppedCount: number = compacting.compact();
void droppedCount;
