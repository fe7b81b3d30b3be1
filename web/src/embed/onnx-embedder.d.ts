/** The ONNX embedder (ONNX Runtime + WASM tokenization/pooling); exported by the `ragwasm/onnx` entry. */
import type { Tokenizer, StaticEmbedder, ModelSource, EmbedRunOptions } from './embed.js';

export interface OnnxEmbedderOptions extends Partial<HubOptions> {
  /** Left out with `name`: model.onnx (and tokenizer.json unless `tokenizer` is given) come from the model hub. */
  model?: ModelSource;
  /** The model's name (e.g. 'e5-small-v2'): the base of `id`; with `manifest`, its entry gives the defaults. */
  name?: string;
  /** models/manifest.json (parsed) or its `models` map: pooling, normalize, maxLength and prefixes of `name`. */
  manifest?: { models: Record<string, object> } | Record<string, object>;
  tokenizer?: Tokenizer | StaticEmbedder | { tokenizerJson: string | Uint8Array | ArrayBuffer | object } | { vocab: string | Uint8Array | ArrayBuffer };
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
  /** Keep fetched model bytes in Cache Storage (browsers; by name also the Node cache folder). Default true. */
  cache?: boolean;
}
/** Download progress of one model file (once per cached file, with cached true). */
export interface ModelFileProgress { file: string; loaded: number; total: number | null; cached: boolean }
/** Where and how model files are fetched by name. */
export interface HubOptions {
  /** The hub's base URL (files at <hubUrl>/<repo>/resolve/<revision>/<path>) or a template with {repo}, {revision}, {path}. Default https://huggingface.co. */
  hubUrl: string;
  /** The same as hubUrl (transformers.js's name). */
  remoteHost: string;
  /** Overrides the manifest entry's revision (default 'main'). */
  revision: string;
  /** Node: the cache folder. Default $RAGWASM_CACHE, else ~/.cache/ragwasm. */
  cacheDir: string;
  onProgress: (p: ModelFileProgress) => void;
  signal: AbortSignal;
  fetch: typeof fetch;
}
/** The files of a models/manifest.json model from the cache or the hub; size and sha256 checked when pinned (INTEGRITY otherwise). */
export function fetchModelFiles(name: string, options?: Partial<HubOptions> & {
  manifest?: { models: Record<string, object> } | Record<string, object>; cache?: boolean;
}): Promise<{ entry: object; files: Record<string, Uint8Array>; downloaded: string[]; cached: string[] }>;
/** Total bytes the manifest pins for a model entry's files, or null when a size is not pinned. */
export function modelDownloadBytes(entry: object): number | null;
export const DEFAULT_HUB_URL: string;
/** models/manifest.json as shipped with the library. */
export const MODEL_MANIFEST: { version: number; models: Record<string, object>; rerankers: Record<string, object> };
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
/** By name: a model of models/manifest.json, downloaded from the hub and cached (e.g. 'bge-small-en-v1.5'). */
export function createOnnxEmbedder(name: string, options?: Omit<OnnxEmbedderOptions, 'name'>): Promise<OnnxEmbedder>;
