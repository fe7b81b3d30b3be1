// Errors at the package boundary, each caught and reported: a wrong wasmUrl, a 404 for a model, and
// ragwasm/onnx without onnxruntime-web (the import map has no entry for it). Then init() with the
// defaults and a chunk() call show nothing was lost.
import { init, chunk, createStaticEmbedder } from 'ragwasm';
import { attempt, errorInfo, report } from './scenario.js';

async function main() {
  const wasmUrl = new URL('/missing/ragwasm.wasm', location.href).href;
  const modelUrl = new URL('/missing/static-model.bin', location.href).href;
  const out = { wasmUrl, modelUrl };
  out.wrongWasmUrl = await attempt(() => init({ wasmUrl }));
  out.initAfter = await attempt(() => init());
  out.chunksAfter = out.initAfter.threw ? null : chunk({ id: 'd', text: 'One. Two.' }, { strategy: 'sentence', chunkSize: 5 }).length;
  out.missingModel = await attempt(() => createStaticEmbedder({ model: modelUrl }));
  out.missingOrt = await attempt(async () => {
    const onnx = await import('ragwasm/onnx');
    await onnx.createOnnxEmbedder({ model: new Uint8Array(8), tokenizer: { vocab: '[PAD]\n[UNK]\n[CLS]\n[SEP]\na\n' } });
  });
  return out;
}
report(main().then((result) => ({ page: { ok: true, result } }), (e) => ({ page: { ok: false, error: errorInfo(e) } })));
