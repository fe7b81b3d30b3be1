import { init, VectorIndex, denseSimdEnabled, VECTOR_MAX_K, RagwasmError } from '../../web/src/index.js';
export async function main() {
  await init();
  const ix: VectorIndex = VectorIndex.create({ dimension: 3, metric: 'cosine', storage: 'int8', index: 'hnsw', hnsw: { M: 8, efConstruction: 100, efSearch: 32, seed: 1 } });
  const n: number = ix.add(['a', 'b'], [new Float32Array([1, 0, 0]), [0, 1, 0]]);
  ix.add(['c'], new Float32Array([0, 0, 1]));
  const hits = ix.search([1, 0, 0], { k: 2, filter: (id: string) => id !== 'b', efSearch: 16, rescore: 4, exact: false });
  const s: string = hits[0].id; const sc: number = hits[0].score;
  ix.search(new Float32Array(3), { filter: new Set(['a']) });
  const bytes: Uint8Array = ix.save();
  const back = VectorIndex.load(bytes);
  const dim: number = back.dimension + back.size + back.options.hnsw.M;
  const ok: boolean = denseSimdEnabled() && ix.has('a') && !ix.disposed;
  ix.remove(['a']);
  ix.dispose();
  console.log(n, s, sc, dim, ok, VECTOR_MAX_K, RagwasmError);
}
void main;
