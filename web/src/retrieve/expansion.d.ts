/** Defaults of `retrieval.expansion` and the Bm25Index search option `expansion`. */
export declare const EXPANSION_DEFAULTS: Readonly<{ perTerm: number; minSimilarity: number; weight: number; maxWords: number }>;

/** A static model's word vectors as a nearest-word table (exact cosine, ties by word rank). */
export declare class WordNeighbours {
  static fromBytes(bytes: Uint8Array | ArrayBuffer, options?: { maxWords?: number }): WordNeighbours;
  /** Words in the table. */
  readonly size: number;
  /** Vector dimension. */
  readonly dimension: number;
  similar(word: string, options?: { minSimilarity?: number; k?: number }): Array<{ word: string; similarity: number }>;
  readonly disposed: boolean;
  dispose(): void;
}

/** Loads the word table from a static model (default: the ragwasm-static-model package's). */
export declare function createWordNeighbours(options?: {
  model?: ArrayBuffer | Uint8Array | Blob | Response | URL | string;
  maxWords?: number;
  cache?: boolean;
}): Promise<WordNeighbours>;
