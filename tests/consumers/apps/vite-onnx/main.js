// Vite app using the optional entries: ragwasm/parse (pdf.js) on a PDF and ragwasm/onnx
// (onnxruntime-web) with a small BERT model, both served from public/.
import { init, chunk, Bm25Index } from 'ragwasm';
import { createOnnxEmbedder } from 'ragwasm/onnx';
import { extractText } from 'ragwasm/parse';
import { onnxScenario, report, settle } from './scenario.js';

async function main() {
  const [tokenizerJson, pdf] = await Promise.all([
    fetch('/tokenizer.json').then((r) => r.text()),
    fetch('/policy.pdf').then((r) => r.arrayBuffer()).then((b) => new Uint8Array(b)),
  ]);
  const model = new URL('/model.onnx', location.href).href;
  return onnxScenario({ init, chunk, Bm25Index, createOnnxEmbedder, extractText }, { model, tokenizerJson, pdf });
}
report(settle(main()).then((page) => ({ page })));
