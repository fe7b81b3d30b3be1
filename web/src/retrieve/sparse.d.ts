import type { StorageOptions } from '../core/storage.js';
export type Bm25Scorer = 'lucene' | 'robertson' | 'atire' | 'bm25l' | 'bm25plus';
export interface Bm25AnalyzerOptions {
  /** Default true. */
  lowercase?: boolean;
  /** Default true ("café" -> "cafe"). */
  foldAccents?: boolean;
  /** Default 'lucene' (Lucene's 33 English stop words); false for none; or your own list. */
  stopwords?: 'lucene' | false | string[];
  /** Default 'porter2' (Snowball English). */
  stemmer?: 'porter2' | 'none';
  /** CJK runs as overlapping bigrams. Default true. */
  cjkBigrams?: boolean;
  /** Also index joined identifiers such as "ts-999" besides their parts. Default true. */
  identifiers?: boolean;
  /** Longer tokens are dropped. Default 255, range 1–4096. */
  maxTokenBytes?: number;
}
export interface Bm25IndexOptions {
  /** Default ['title', 'text']; boosts default 1. */
  fields?: Array<string | { name: string; boost?: number }>;
  /** Default 'lucene'. */
  scorer?: Bm25Scorer;
  /** Default 0.9. */
  k1?: number;
  /** Default 0.4. */
  b?: number;
  /** BM25L default 0.5, BM25+ default 1. */
  delta?: number;
  analyzer?: Bm25AnalyzerOptions;
}
export type Bm25MetadataValue = string | number | Array<string | number>;
/** One batch of Bm25Index.impacts(): rows rowStart[i]..rowStart[i+1]-1 belong to terms[i]; docs index ids. */
export interface Bm25ImpactBatch {
  ids: string[];
  terms: string[];
  rowStart: Uint32Array;
  docs: Uint32Array;
  impacts: Float64Array;
}
export interface Bm25Document {
  id: string;
  metadata?: Record<string, Bm25MetadataValue> | null;
  [field: string]: unknown;
}
export type Bm25FilterValue = string | number | Array<string | number> | { in: Array<string | number> } |
  { gte?: number; gt?: number; lte?: number; lt?: number };
export interface Bm25SearchOptions {
  /** Default 10. */
  k?: number;
  /** Metadata predicates (all must hold), or a callback over ranked hits (falsy drops the hit). */
  filter?: Record<string, Bm25FilterValue> | null | ((hit: Bm25Hit) => unknown);
  /** Also match index terms each query term starts; weight 0.375·|t|/(|t|+0.3·(|t|−|q|)). Default false. */
  prefix?: boolean | ((term: string, i: number, terms: string[]) => boolean);
  /** Edit distance: a fraction of the term length in [0, 1) (rounded, at most maxFuzzy), an integer in [1, 16], or true (0.2); weight 0.45·|t|/(|t|+d). */
  fuzzy?: number | boolean | ((term: string, i: number, terms: string[]) => number | boolean | null);
  /** Cap of a fractional fuzzy distance. Default 6. */
  maxFuzzy?: number;
  /** Expansion weights. Defaults prefix 0.375, fuzzy 0.45. */
  weights?: { prefix?: number; fuzzy?: number };
  /** AND: every query term (or an expansion of it) must match. Default 'OR'. */
  combineWith?: 'AND' | 'OR' | 'and' | 'or';
  /** Per-query field boosts (multiply the index's tf weights). */
  boost?: Record<string, number>;
  /** Add `matches` to each hit. Default false. */
  explain?: boolean;
  /** RM3 feedback; defaults fbDocs 3, fbTerms 10, originalWeight 0.9 (chosen on SciFact train). Default off. */
  rm3?: boolean | { fbDocs?: number; fbTerms?: number; originalWeight?: number };
  /** Score every matching document (the oracle). Default false. */
  exact?: boolean;
  /** Query expansion from word neighbours (createWordNeighbours()); not with rm3. */
  expansion?: Bm25ExpansionOption;
}
/** The expansion search option: defaults perTerm 2, minSimilarity 0.7, weight 0.3 (EXPANSION_DEFAULTS). */
export interface Bm25ExpansionOption {
  words: import('./expansion.js').WordNeighbours;
  perTerm?: number;
  minSimilarity?: number;
  weight?: number;
  /** Expand only the query words whose term no live document holds. Default false. */
  unmatchedOnly?: boolean;
}
/** One expansion term: the analyzed term, the query word it came from, the neighbour word, similarity and weight. */
export interface Bm25ExpansionTerm {
  term: string;
  from: string;
  word: string;
  similarity: number;
  weight: number;
}
/** What add, upsert and remove return on every index (docs/api.md). */
export interface WriteSummary {
  added: number;
  updated: number;
  removed: number;
  skipped: number;
}

export interface Bm25TermMatch {
  /** The analyzed query term. */
  query: string;
  /** The index term that matched. */
  term: string;
  kind: 'exact' | 'prefix' | 'fuzzy';
  /** prefix: extra bytes; fuzzy: edit distance; exact: 0. */
  distance: number;
  weight: number;
  /** weight × the term's BM25 score in this document. */
  score: number;
}
export interface Bm25Hit {
  id: string;
  score: number;
  /** With explain: true. */
  matches?: Bm25TermMatch[];
}
export interface Bm25Stats {
  documents: number;
  deleted: number;
  terms: number;
  avgLength: number;
  postingsBytes: number;
  memoryBytes: number;
}
/** The statistics BM25 scores depend on: live documents, per-field token totals, df per term. */
export interface CollectionStats {
  documents: number;
  fieldLengths: number[];
  terms: string[];
  /** df[i] is the document frequency of terms[i] */
  df: Uint32Array;
}

export class Bm25Index {
  /** Not constructible: use the static factories (new throws INVALID_ARGUMENT at run time). */
  private constructor(native: object);
  static create(options?: Bm25IndexOptions): Bm25Index;
  static fromBytes(bytes: Uint8Array | ArrayBuffer): Bm25Index;
  /** @internal Collection.save()'s check of a saved section without building the index. */
  static _checkBytes(bytes: Uint8Array | object, onIds: (ids: string[]) => void): { fields: string[]; size: number };
  /** @internal The sharded index's statistics sync: every shard's _rawStats() summed, per shard the df of its own terms. */
  static _globalDf(items: Array<{ documents: number; fieldLengths: ArrayLike<number>; df: Uint32Array; terms: Uint8Array; termOffsets: Uint32Array }>):
    { documents: number; fieldLengths: number[]; df: Uint32Array[] };
  /** @internal collectionStats() before the terms are decoded (typed arrays a Worker can move). */
  _rawStats(): { documents: number; fieldLengths: Float64Array; df: Uint32Array; terms: Uint8Array; termOffsets: Uint32Array };
  /** @internal setGlobalStats() with df aligned to this index's own dictionary. */
  _setGlobalDf(documents: number, fieldLengths: number[], df: Uint32Array): void;
  /** @internal The first item whose analyzed texts do not give exactly the terms held for its id (saved-check.js), or null. */
  _termMismatch(pieces: string[], textsPerItem: number): { item: number; analyzed: number; held: number } | null;
  static load(name: string, opts?: StorageOptions): Promise<Bm25Index>;
  readonly fields: string[];
  readonly size: number;
  add(docs: Bm25Document | Bm25Document[]): WriteSummary;
  upsert(docs: Bm25Document | Bm25Document[]): WriteSummary;
  remove(ids: string | string[], options?: { ignoreMissing?: boolean }): WriteSummary;
  search(query: string, options?: Bm25SearchOptions): Bm25Hit[];
  expandQuery(query: string, options?: Bm25SearchOptions): Array<{ term: string; weight: number }>;
  /** Index terms starting with the last analyzed term of prefix, by document frequency. */
  suggest(prefix: string, options?: { k?: number }): Array<{ term: string; df: number }>;
  /** The expansion terms search(query, {expansion}) adds, in scoring order. */
  expansionTerms(query: string, options: { expansion: Bm25ExpansionOption }): Bm25ExpansionTerm[];
  analyze(text: string): string[];
  queryTerms(query: string): { term: string; weight: number }[];
  impacts(options?: { batchTerms?: number; batchRows?: number }): Generator<Bm25ImpactBatch>;
  has(id: string): boolean;
  documentFrequency(term: string): number;
  /** Exact statistics of this index, for summing over shards (docs/parallel.md). */
  collectionStats(): CollectionStats;
  /** Sums collectionStats() of indexes over disjoint documents, term by term. */
  static sumStats(list: CollectionStats[]): CollectionStats;
  /** Scores with collection-wide statistics until the next write (docs/parallel.md). */
  setGlobalStats(stats: CollectionStats): void;
  compact(): void;
  stats(): Bm25Stats;
  toBytes(): Uint8Array;
  save(name: string, opts?: StorageOptions): Promise<void>;
  dispose(): void;
  readonly disposed: boolean;
}
/** @internal Checks a metadata filter (Bm25Index's language); INVALID_ARGUMENT naming `name`. */
export function checkFilter(filter: unknown, name: string): void;
