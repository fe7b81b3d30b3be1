/** Defaults of `retrieval.expansion` and the Bm25Index search option `expansion`. */
export declare const EXPANSION_DEFAULTS: Readonly<{ perTerm: number; minSimilarity: number; weight: number; unmatchedOnly: boolean; maxWords: number }>;

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
  /** @internal The WASM table (Bm25Index search with expansion). */
  readonly native: unknown;
}

/** Loads the word table from a static model (default: the ragwasm-static-model package's). */
export declare function createWordNeighbours(options?: {
  model?: ArrayBuffer | Uint8Array | Blob | Response | URL | string;
  maxWords?: number;
  cache?: boolean;
}): Promise<WordNeighbours>;

/** @internal Checks a Bm25Index search option `expansion`: the word table and the numbers of the request. */
export declare function checkExpansionOption(value: unknown, name?: string): { words: WordNeighbours; json: { perTerm: number; minSimilarity: number; weight: number; unmatchedOnly: boolean } };
/** @internal The search option of a config's `retrieval.expansion` (the word table loaded once per model), or null. */
export declare function configExpansion(retrieval: unknown, sharded?: boolean): Promise<{ words: WordNeighbours; perTerm: number; minSimilarity: number; weight: number; unmatchedOnly: boolean } | null>;
