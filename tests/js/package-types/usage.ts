// Compiled by tsc with moduleResolution "bundler" and "node16" (tsconfig.bundler.json, tsconfig.node16.json):
// an app's imports of the package entry points, resolved through package.json "exports".
import { init, chunk, Bm25Index, Collection, createStaticEmbedder, RagwasmError } from 'ragwasm';
import { metrics, autotune, runExperiment } from 'ragwasm/eval';
import { WorkerPool, ShardedBm25Index } from 'ragwasm/parallel';
import { createOnnxEmbedder, createCrossEncoderReranker } from 'ragwasm/onnx';
import { extractText, SUPPORTED_FORMATS } from 'ragwasm/parse';
import { createLlmClient, loadPrompt, createLlmReranker } from 'ragwasm/llm';
import { modelUrl } from 'ragwasm-static-model';

export async function app(): Promise<number> {
  const loaded: { version: string; build: string } = await init({ wasmUrl: new URL('./ragwasm.wasm', 'https://cdn.example/') });
  const chunks = chunk({ id: 'd', text: 'One. Two.' }, { strategy: 'sentence', chunkSize: 40 });
  const bm = Bm25Index.create();
  bm.add(chunks.map((c) => ({ id: c.id, text: c.text })));
  const embedder = await createStaticEmbedder();
  const col = await Collection.create();
  const ev = metrics.evaluateRun({ q: { a: 1 } }, { q: { a: 1 } });
  const pool: WorkerPool = await WorkerPool.create({ workers: 2 });
  const sharded: ShardedBm25Index = await ShardedBm25Index.create({}, { pool });
  const tune: typeof autotune = autotune;
  const experiment: typeof runExperiment = runExperiment;
  const onnx: typeof createOnnxEmbedder = createOnnxEmbedder;
  const ce: typeof createCrossEncoderReranker = createCrossEncoderReranker;
  const formats: typeof SUPPORTED_FORMATS = SUPPORTED_FORMATS;
  const text: typeof extractText = extractText;
  const client: typeof createLlmClient = createLlmClient;
  const prompt = await loadPrompt('answer_grounded');
  const rr: typeof createLlmReranker = createLlmReranker;
  const url: URL = modelUrl;
  void [loaded, embedder, col, ev, sharded, tune, experiment, onnx, ce, formats, text, client, prompt, rr, url, RagwasmError];
  return chunks.length;
}
