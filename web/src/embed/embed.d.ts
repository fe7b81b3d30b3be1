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
  /** @internal Word-id rows for the ONNX export of the table. */
  _encodeBatch(bytes: Uint8Array, offsets: Uint32Array, maxLength: number, padding: 'none' | 'longest'): { ids: Int32Array; lengths: Int32Array; rows: number; tokens: number };
  dispose(): void;
  readonly disposed: boolean;
}
export type ModelSource = ArrayBuffer | Uint8Array | Blob | Response | URL | string;
export function createStaticEmbedder(options?: { model?: ModelSource; cache?: boolean }): Promise<StaticEmbedder>;
export function poolEmbeddings(hidden: Float32Array, attentionMask: Int32Array,
  shape: { rows: number; tokens: number; dim: number; pooling?: 'mean' | 'cls' | 'none'; normalize?: boolean }): Float32Array;

/** @internal Most texts one embed call takes. */
export const MAX_BATCH_TEXTS: number;
/** @internal The URL of ragwasm-static-model's model file, resolved only when asked for. */
export function defaultStaticModelUrl(): Promise<string | URL>;
/** @internal ABORTED when the signal is aborted. */
export function checkAbort(signal: AbortSignal | undefined): void;
/** @internal The embed() run options, checked. */
export function embedRunOptions(options: unknown, name: string): { signal?: AbortSignal; onProgress?: (progress: { done: number; total: number }) => void; kind: 'query' | 'document' };
/** @internal Views of rows of `dims` values over one flat array. */
export function splitRows(flat: Float32Array, rows: number, dims: number): Float32Array[];
/** @internal The `tokenizer` option of the ONNX model factories: a caller's Tokenizer (or StaticEmbedder) or one it owns. */
export function tokenizerOption(value: unknown, name: string, options?: { allowStatic?: boolean }): { tokenizer: Tokenizer | StaticEmbedder; owns: boolean };
/** @internal Texts packed into one UTF-8 buffer plus n+1 byte offsets (the form the WASM side reads). */
export function packTexts(texts: string[], name?: string): { bytes: Uint8Array; offsets: Uint32Array };
