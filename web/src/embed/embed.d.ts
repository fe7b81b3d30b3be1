/** Padded token rows, row-major rows x cols. */
export interface BatchEncoding {
  rows: number;
  /** Tokens per row ('longest'/'max_length'); for padding 'none' the rows are concatenated. */
  cols: number;
  inputIds: Int32Array;
  /** 1 for real tokens, 0 for padding. */
  attentionMask: Int32Array;
  /** 0 for single sequences; pairs: 0 for [CLS] A [SEP], 1 for B [SEP], 0 on padding. */
  tokenTypeIds: Int32Array;
  /** Real tokens per row. */
  lengths: Uint32Array;
}
export interface EncodeOptions {
  /** Tokens per row including [CLS]/[SEP], 1..65536. Default 512. */
  maxLength?: number;
  /** Cut word pieces so a row fits maxLength ([SEP] kept). Default true. */
  truncation?: boolean;
  /** Default 'longest'. */
  padding?: 'none' | 'longest' | 'max_length';
  /** [CLS] ... [SEP]. Default true. */
  addSpecialTokens?: boolean;
}
/** BERT WordPiece tokenizer (same ids as transformers.js). Owns WASM memory: dispose() when done. */
export class Tokenizer {
  static fromTokenizerJson(json: string | Uint8Array | ArrayBuffer | object): Tokenizer;
  static fromVocab(vocab: string | Uint8Array | ArrayBuffer): Tokenizer;
  readonly vocabSize: number;
  readonly specialIds: { cls: number; sep: number; pad: number; unk: number };
  tokenize(text: string): Int32Array;
  encode(text: string, options?: Omit<EncodeOptions, 'padding'>): Int32Array;
  encodeBatch(texts: string[], options?: EncodeOptions): BatchEncoding;
  /** [CLS] A [SEP] B [SEP] rows, 'longest_first' truncation (maxLength >= 3 with special tokens). */
  encodePairs(firsts: string | string[], seconds: string[], options?: EncodeOptions): BatchEncoding;
  normalize(text: string): string;
  tokenToId(token: string): number;
  idToToken(id: number): string;
  dispose(): void;
  readonly disposed: boolean;
}
export interface EmbedRunOptions {
  /** Selects queryPrefix or documentPrefix (ONNX embedder). Default 'document'. */
  kind?: 'query' | 'document';
  signal?: AbortSignal;
  onProgress?: (progress: { done: number; total: number }) => void;
}
/** The default static model (GloVe 100-d, int8, SIF, first component removed). */
export class StaticEmbedder {
  /** Build from the model file's bytes (init() first). */
  static fromBytes(bytes: Uint8Array | ArrayBuffer): StaticEmbedder;
  /** Load model bytes stored under `name` with saveBytes(). */
  static load(name: string, opts?: { dir?: string; backend?: 'node' | 'opfs' | 'indexeddb' }): Promise<StaticEmbedder>;
  /** Vector dimension (the embedder contract). */
  readonly dimension: number;
  /** 'static-<dimension>d-<CRC-32 of the model file>'. */
  readonly id: string;
  readonly vocabSize: number;
  embedSync(texts: string[]): Float32Array[];
  embed(texts: string[], options?: EmbedRunOptions): Promise<Float32Array[]>;
  words(text: string): string[];
  dispose(): void;
  readonly disposed: boolean;
}
export type ModelSource = ArrayBuffer | Uint8Array | Blob | Response | URL | string;
export function createStaticEmbedder(options?: { model?: ModelSource; cache?: boolean }): Promise<StaticEmbedder>;
export function poolEmbeddings(hidden: Float32Array, attentionMask: Int32Array,
  shape: { rows: number; tokens: number; dim: number; pooling?: 'mean' | 'cls' | 'none'; normalize?: boolean }): Float32Array;
