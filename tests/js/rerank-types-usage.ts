// Type-checked usage of the cross-encoder reranker API (tsc --noEmit -p tests/js/tsconfig.json); never executed.
import { init, Tokenizer, rerank, retrieveAndRerank, Collection } from '../../web/src/index.js';
import { createCrossEncoderReranker, CrossEncoderReranker } from '../../web/src/onnx.js';
import { createLlmClient, createLlmReranker } from '../../web/src/llm.js';
import type { BatchEncoding, CollectionHit } from '../../web/src/index.js';
import type { CrossEncoderRerankerOptions } from '../../web/src/onnx.js';
import type { LlmRerankerStats } from '../../web/src/llm.js';

async function f(): Promise<number> {
  await init();
  const t = Tokenizer.fromTokenizerJson('{}');
  const pairs: BatchEncoding = t.encodePairs('query', ['passage one', 'passage two'], { maxLength: 128, padding: 'longest' });
  const many: BatchEncoding = t.encodePairs(['q1', 'q2'], ['p1', 'p2']);
  const options: CrossEncoderRerankerOptions = { model: 'https://x/model.onnx', tokenizer: t, maxLength: 512, batchSize: 16, activation: 'sigmoid', cache: false };
  const ce: CrossEncoderReranker = await createCrossEncoderReranker(options);
  const other = await createCrossEncoderReranker({ model: new Uint8Array(1), tokenizer: { tokenizerJson: '{}' } });
  const scores: number[] = await ce.score('q', ['a', 'b'], { signal: new AbortController().signal, onProgress: (p) => p.done / p.total });
  const ranked = await rerank('q', [{ id: 'a', text: 'x' }], ce.reranker, { keep: 1 });
  const id: string = ranked[0].id;
  const r: number = ranked[0].rerankScore;
  const viaRetrieve = await retrieveAndRerank('q', async (_q, n) => [{ id: 'a', text: 'x', n }], ce.reranker, { candidates: 20, keep: 5 });
  const col = await Collection.create({ indexes: { bm25: {} }, rerank: { type: 'cross-encoder', candidates: 20, keep: 10 } });
  const hits: CollectionHit[] = await col.search('q', { k: 5, reranker: ce.reranker });
  const act: 'none' | 'sigmoid' = ce.activation;
  const direct: number[] = await ce.reranker('q', ['plain', 'strings']);
  const typed = await retrieveAndRerank('q', (_q: string, n: number) => hits.slice(0, n), ce.reranker);
  const chunkId: string = typed[0].docId;
  await ce.dispose();
  await other.dispose();
  return pairs.rows + many.cols + scores.length + id.length + r + viaRetrieve.length + hits.length + act.length + ce.maxLength + direct.length + chunkId.length;
}
void f;

// LLM reranker: the context-relevance judge through an LlmClient.
async function llm(): Promise<number[]> {
  const client = createLlmClient({ provider: 'openai', baseUrl: 'http://127.0.0.1:1/v1', model: 'm' });
  const { reranker, stats }: { reranker: (q: string, items: (string | { text: string })[]) => Promise<number[]>; stats: LlmRerankerStats } =
    createLlmReranker(client, { samples: 3, unparsedScore: -1 });
  const kept = await retrieveAndRerank('q', async () => [{ id: 'a', text: 'x' }], reranker, { candidates: 10, keep: 3 });
  void kept;
  return [stats.pairs, stats.unparsed, ...(await reranker('q', ['a', { text: 'b' }]))];
}
void llm;
