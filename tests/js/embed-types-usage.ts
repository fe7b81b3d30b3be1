// Type-checked usage of the embed API (tsc --noEmit -p tests/js/tsconfig.json); never executed.
import { init, Tokenizer, StaticEmbedder, createStaticEmbedder, poolEmbeddings, asEmbedder, embedTexts, VectorIndex, type Embedder } from '../../web/src/index.js';
import { vectorLeg } from '../../web/src/eval.js';
import { createOnnxEmbedder, fetchModelFiles, modelDownloadBytes, MODEL_MANIFEST } from '../../web/src/onnx.js';
async function f() {
  await init();
  const t = Tokenizer.fromTokenizerJson('{}');
  const b = t.encodeBatch(['a'], { padding: 'max_length', maxLength: 8 });
  const n: number = b.cols;
  const s = await createStaticEmbedder({ model: new Uint8Array(1) });
  const v: Float32Array[] = await s.embed(['x'], { onProgress: (p) => p.done });
  const o = await createOnnxEmbedder({ model: 'https://x/model.onnx', tokenizer: t, pooling: 'cls', queryPrefix: 'q: ' });
  await o.embedQueries(['x']);
  const named = await createOnnxEmbedder({ model: new Uint8Array(1), tokenizer: t, name: 'e5-small-v2', manifest: { models: { 'e5-small-v2': { queryPrefix: 'query: ' } } } });
  const byName = await createOnnxEmbedder('bge-small-en-v1.5', { hubUrl: 'http://127.0.0.1:8080', cacheDir: '/tmp/c', onProgress: (p) => p.loaded + (p.total ?? 0), batchSize: 8 });
  const files = await fetchModelFiles('e5-small-v2', { remoteHost: 'https://huggingface.co', revision: 'main', cache: false });
  const mb: number | null = modelDownloadBytes(MODEL_MANIFEST.models['e5-small-v2']);
  void [byName.dimension, files.files['model.onnx'].length, files.downloaded, mb];
  const contract: Embedder[] = [s, o, named, StaticEmbedder.fromBytes(new Uint8Array(1)), await StaticEmbedder.load('model')];
  const dims: number = s.dimension + o.dimension + contract.length;
  const ids: string = s.id + o.id + o.prefixes.query;
  const fn = asEmbedder(async (texts, { kind }) => texts.map(() => new Float32Array(kind === 'query' ? [1, 0] : [0, 1])), { dimension: 2, id: 'mine' });
  const q: Float32Array[] = await embedTexts(fn, ['x'], { kind: 'query' });
  const leg = vectorLeg('dense', VectorIndex.create({ dimension: 2 }), fn);
  void [dims, ids, q, leg];
  poolEmbeddings(new Float32Array(2), new Int32Array(1), { rows: 1, tokens: 1, dim: 2 });
  return [n, v];
}
void f;
