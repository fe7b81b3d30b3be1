// Browser half of the `onnx` bench (tests/bench/suites/onnx.mjs): the same comparison as in Node, in
// Chromium: ragwasm/onnx vs transformers.js's feature-extraction pipeline on ONE onnxruntime-web module.
import * as ortNs from 'onnxruntime-web';
import { init, Tokenizer } from '../../../web/src/index.js';
import { createOnnxEmbedder } from '../../../web/src/onnx.js';

const ort = ortNs.default ?? ortNs;

window.runOnnxBench = async ({ texts, threads, batch, maxLength, reps, modelDir, modelName, skip, keys, int8BatchTokens }) => {
  const skipped = new Set(skip);  // passages cut at maxLength (see maxAbsDiff in suites/onnx.mjs)
  ort.env.wasm.numThreads = threads;
  ort.env.wasm.wasmPaths = '/node_modules/onnxruntime-web/dist/';
  globalThis[Symbol.for('onnxruntime')] = ort;
  const tf = await import('/node_modules/@huggingface/transformers/dist/transformers.web.js');
  ort.env.wasm.wasmPaths = '/node_modules/onnxruntime-web/dist/';  // transformers.js points it at a CDN
  tf.env.allowRemoteModels = false;
  tf.env.allowLocalModels = true;
  tf.env.localModelPath = modelDir;
  tf.env.useBrowserCache = false;
  await init();
  const tokenizerJson = await (await fetch(`${modelDir}${modelName}/tokenizer.json`)).text();
  const tokenizer = Tokenizer.fromTokenizerJson(tokenizerJson);
  const ours = (file, batching, extra = {}) => createOnnxEmbedder({ model: `${modelDir}${modelName}/onnx/${file}`, tokenizer, ort, batchSize: batch, maxLength, batching, cache: false, ...extra });
  const theirs = async (dtype) => {
    const ex = await tf.pipeline('feature-extraction', modelName, { dtype, device: 'auto' });
    return {
      embed: async (list) => {
        const out = [];
        for (let i = 0; i < list.length; i += batch) {
          const r = await ex(list.slice(i, i + batch), { pooling: 'mean', normalize: true });
          const [rows, dim] = r.dims;
          for (let k = 0; k < rows; k++) out.push(r.data.slice(k * dim, (k + 1) * dim));
        }
        return out;
      },
      dispose: () => ex.dispose(),
    };
  };
  const variants = [  // the suite picks which run (`keys`: the headline four, or all six)
    { key: 'ragwasm-fp32-length', make: () => ours('model.onnx', 'length') },
    { key: 'ragwasm-fp32-input', make: () => ours('model.onnx', 'input') },
    { key: 'tjs-fp32', make: () => theirs('fp32') },
    { key: 'ragwasm-int8-length', make: () => ours('model_quantized.onnx', 'length', { batchTokens: int8BatchTokens }) },
    { key: 'ragwasm-int8-length32', make: () => ours('model_quantized.onnx', 'length') },
    { key: 'ragwasm-fp32-length32', make: () => ours('model.onnx', 'length') },
    { key: 'ragwasm-int8-input', make: () => ours('model_quantized.onnx', 'input') },
    { key: 'tjs-int8', make: () => theirs('q8') },
  ].filter((v) => !keys || keys.includes(v.key));
  for (const v of variants) {
    v.impl = await v.make();
    await v.impl.embed(texts.slice(0, 8));
    v.samples = [];
  }
  for (let r = 0; r < reps; r++) {
    for (const v of variants) {
      const t0 = performance.now();
      const out = await v.impl.embed(texts);
      v.samples.push(performance.now() - t0);
      console.log(`onnx bench: Chromium ${v.key} run ${r + 1}/${reps}: ${(v.samples.at(-1) / 1000).toFixed(1)} s`);
      if (r === 0) v.vectors = out;
    }
  }
  const byKey = Object.fromEntries(variants.map((v) => [v.key, v]));
  const maxAbsDiff = (a, b) => {
    let m = 0;
    for (let i = 0; i < a.length; i++) if (!skipped.has(i)) for (let k = 0; k < a[i].length; k++) m = Math.max(m, Math.abs(a[i][k] - b[i][k]));
    return m;
  };
  const peers = { 'ragwasm-fp32-length': 'tjs-fp32', 'ragwasm-fp32-length32': 'tjs-fp32', 'ragwasm-fp32-input': 'tjs-fp32', 'ragwasm-int8-length': 'tjs-int8', 'ragwasm-int8-length32': 'tjs-int8', 'ragwasm-int8-input': 'tjs-int8' };
  for (const v of variants) await v.impl.dispose();
  tokenizer.dispose();
  return { ortVersion: ort.env.versions.web, tfOrt: tf.env.backends.onnx?.versions ?? null, userAgent: navigator.userAgent,
    variants: variants.map((v) => ({ key: v.key, samples: v.samples, maxAbsDiff: peers[v.key] ? maxAbsDiff(v.vectors, byKey[peers[v.key]].vectors) : null })) };
};
document.getElementById('status').textContent = 'ready';
