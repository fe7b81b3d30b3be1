/** Cross-encoder reranking (ONNX Runtime + WASM pair tokenization); see docs/fusion.md. Exported by `ragwasm/onnx`. */
import type { Tokenizer } from '../embed/embed.js';

export interface CrossEncoderScoreOptions {
  signal?: AbortSignal;
  onProgress?: (progress: { done: number; total: number }) => void;
}
export interface CrossEncoderRerankerOptions {
  /** The .onnx model: inputs input_ids (+ attention_mask, token_type_ids), output 'logits' [batch, 1]. */
  model: ArrayBuffer | Uint8Array | Blob | URL | string;
  tokenizer: Tokenizer | { tokenizerJson: string | object | Uint8Array } | { vocab: string | Uint8Array };
  /** Tokens per pair including [CLS] and two [SEP], 3..65536. Default 512 ('longest_first' truncation). */
  maxLength?: number;
  /** Pairs per ONNX Runtime run, 1..4096. Default 16. */
  batchSize?: number;
  /** Applied to the logit. Default 'none'. */
  activation?: 'none' | 'sigmoid';
  /** Keep fetched model bytes in Cache Storage (browsers). Default true. */
  cache?: boolean;
  /** An onnxruntime module (default: import('onnxruntime-web')). */
  ort?: object;
  sessionOptions?: object;
}
/** Items reranker() scores: objects with a `text` string (or plain strings). */
export type RerankItem = { text: string };
export class CrossEncoderReranker {
  readonly maxLength: number;
  readonly activation: 'none' | 'sigmoid';
  /** For rerank() / retrieveAndRerank() / Collection.search({reranker}). */
  readonly reranker: {
    (query: string, items: string[], options?: { signal?: AbortSignal }): Promise<number[]>;
    (query: string, items: RerankItem[], options?: { signal?: AbortSignal }): Promise<number[]>;
  };
  /** One score per passage in input order; higher = more relevant. */
  score(query: string, passages: string[], options?: CrossEncoderScoreOptions): Promise<number[]>;
  dispose(): Promise<void>;
}
export function createCrossEncoderReranker(options: CrossEncoderRerankerOptions): Promise<CrossEncoderReranker>;

