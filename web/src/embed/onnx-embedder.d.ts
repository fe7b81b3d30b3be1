/** The ONNX embedder (ONNX Runtime + WASM tokenization/pooling); exported by the `ragwasm/onnx` entry. */
import type { Tokenizer, StaticEmbedder, ModelSource, EmbedRunOptions } from './embed.js';

export interface OnnxEmbedderOptions {
  model: ModelSource;
  /** The model's name (e.g. 'e5-small-v2'): the base of `id`; with `manifest`, its entry gives the defaults. */
  name?: string;
  /** models/manifest.json (parsed) or its `models` map: pooling, normalize, maxLength and prefixes of `name`. */
  manifest?: { models: Record<string, object> } | Record<string, object>;
  tokenizer: Tokenizer | StaticEmbedder | { tokenizerJson: string | Uint8Array | ArrayBuffer | object } | { vocab: string | Uint8Array | ArrayBuffer };
  /** Default 'mean'. 'none' when the model outputs [rows, dim]. */
  pooling?: 'mean' | 'cls' | 'none';
  /** L2-normalize. Default true. */
  normalize?: boolean;
  /** Default 512. */
  maxLength?: number;
  /** Default ''. */
  queryPrefix?: string;
  /** Default ''. */
  documentPrefix?: string;
  /** Texts per ONNX Runtime run. Default 32. */
  batchSize?: number;
  /**
   * How one embed() call is cut into batches: 'length' sorts the texts by token length first (batches of
   * similar lengths carry less padding; results stay in input order), 'input' keeps consecutive texts together.
   * Default 'length'.
   */
  batching?: 'length' | 'input';
  /**
   * With batching 'length': at most this many padded tokens (texts × the longest text's tokens) per ONNX
   * Runtime run, besides at most `batchSize` texts; a text longer than the budget runs alone.
   * 0 = no token budget. Range 0..16777216. Default 0 (2048 sped up a dynamic-int8 MiniLM-L6-shaped model,
   * docs/embed.md). Not allowed (above 0) with batching 'input'.
   */
  batchTokens?: number;
  /** Output to pool. Default 'last_hidden_state' or the first output. */
  outputName?: string;
  /** An onnxruntime module (onnxruntime-web or onnxruntime-node). Default: import('onnxruntime-web'). */
  ort?: unknown;
  sessionOptions?: object;
  /** Keep fetched model bytes in Cache Storage (browsers). Default true. */
  cache?: boolean;
}
export class OnnxEmbedder {
  /** Vector dimension, measured at creation by one probe run (the embedder contract). */
  readonly dimension: number;
  /** 'onnx:<name or crc32-…>:<pooling>[:raw]:<CRC-32 of the prefixes>'. */
  readonly id: string;
  /** The query and document prefixes in use. */
  readonly prefixes: { query: string; document: string };
  embed(texts: string[], options?: EmbedRunOptions): Promise<Float32Array[]>;
  embedQueries(texts: string[], options?: Omit<EmbedRunOptions, 'kind'>): Promise<Float32Array[]>;
  embedDocuments(texts: string[], options?: Omit<EmbedRunOptions, 'kind'>): Promise<Float32Array[]>;
  dispose(): Promise<void>;
}
export function createOnnxEmbedder(options: OnnxEmbedderOptions): Promise<OnnxEmbedder>;
