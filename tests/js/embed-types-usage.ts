// Type-checked usage of the embed API (tsc --noEmit -p tests/js/tsconfig.json); never executed.
import { init, Tokenizer, createStaticEmbedder, poolEmbeddings } from '../../web/src/index.js';
import { createOnnxEmbedder } from '../../web/src/onnx.js';
async function f() {
  await init();
  const t = Tokenizer.fromTokenizerJson('{}');
  const b = t.encodeBatch(['a'], { padding: 'max_length', maxLength: 8 });
  const n: number = b.cols;
  const s = await createStaticEmbedder({ model: new Uint8Array(1) });
  const v: Float32Array[] = await s.embed(['x'], { onProgress: (p) => p.done });
  const o = await createOnnxEmbedder({ model: 'https://x/model.onnx', tokenizer: t, pooling: 'cls', queryPrefix: 'q: ' });
  await o.embedQueries(['x']);
  poolEmbeddings(new Float32Array(2), new Int32Array(1), { rows: 1, tokens: 1, dim: 2 });
  return [n, v];
}
void f;
