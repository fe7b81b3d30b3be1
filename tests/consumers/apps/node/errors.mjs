// Errors at the package boundary in Node: a wrong wasmUrl, a missing model file, a 404 for a model
// URL (argv[2], served by the test on 127.0.0.1), and ragwasm/onnx without onnxruntime-web installed.
// Then init() with the defaults and a chunk() call show nothing was lost. Prints JSON.
import { pathToFileURL } from 'node:url';
import { init, chunk, createStaticEmbedder } from 'ragwasm';
import { attempt } from './scenario.js';

const wasmPath = '/nonexistent/ragwasm.wasm';
const wasmUrl = pathToFileURL(wasmPath).href;
const modelPath = '/nonexistent/static-model.bin';
const modelUrl = process.argv[2];
const out = { wasmUrl, wasmPath, modelPath, modelUrl };
out.wrongWasmUrl = await attempt(() => init({ wasmUrl }));
out.initAfter = await attempt(() => init());
out.chunksAfter = out.initAfter.threw ? null : chunk({ id: 'd', text: 'One. Two.' }, { strategy: 'sentence', chunkSize: 5 }).length;
out.missingModelFile = await attempt(() => createStaticEmbedder({ model: modelPath }));
out.missingModel = await attempt(() => createStaticEmbedder({ model: modelUrl }));
out.missingOrt = await attempt(async () => {
  const onnx = await import('ragwasm/onnx');
  await onnx.createOnnxEmbedder({ model: new Uint8Array(8), tokenizer: { vocab: '[PAD]\n[UNK]\n[CLS]\n[SEP]\na\n' } });
});
process.stdout.write(JSON.stringify(out));
