import type { EmbedKind } from '../pipeline/collection.js';
export interface EmbedOptions {
  kind?: EmbedKind;
  signal?: AbortSignal;
  onProgress?: (p: { done: number; total: number }) => void;
}
/** The one embedder contract (docs/api.md). */
export interface Embedder {
  /** Vector length, 1..8192. */
  readonly dimension: number;
  /** Stable model identity; saved collections store it and refuse another model. */
  readonly id: string;
  embed(texts: string[], options?: EmbedOptions): Promise<Float32Array[]>;
  /** Optional synchronous fast path. */
  embedSync?(texts: string[], options?: EmbedOptions): Float32Array[];
}
export type EmbedderLike = Embedder
  | { embed(texts: string[], options?: EmbedOptions): Promise<ArrayLike<number>[]>; dimension?: number; dims?: number; id?: string }
  | { embedSync(texts: string[], options?: EmbedOptions): ArrayLike<number>[]; dimension?: number; dims?: number; id?: string }
  | ((texts: string[], options: { kind: EmbedKind; signal?: AbortSignal }) => Promise<ArrayLike<number>[]>);
export declare const MAX_EMBEDDER_DIMENSION: number;
/** Adapts an object or a plain async function to the contract; `dimension` is needed when the value does not say it. */
export declare function asEmbedder(value: EmbedderLike, options?: { dimension?: number; id?: string; name?: string }): Embedder & { source: unknown };
/** Embeds through a contract embedder and checks count, dimension and finiteness. */
export declare function embedTexts(embedder: Embedder, texts: string[], options?: EmbedOptions & { sync?: boolean }): Promise<Float32Array[]>;
