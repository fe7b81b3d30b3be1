import type { Chunk, MetadataValue } from '../document/document.js';

export type ChunkStrategy = 'fixed' | 'recursive' | 'markdown' | 'markdown-header' | 'sentence' | 'semantic';
export type ChunkUnit = 'utf16' | 'codepoints' | 'bytes' | 'tokens';
export type BreakpointMethod = 'percentile' | 'standard_deviation' | 'interquartile' | 'gradient';

export const CHUNK_STRATEGIES: readonly ChunkStrategy[];
export const CHUNK_UNITS: readonly ChunkUnit[];
export const BREAKPOINT_METHODS: readonly BreakpointMethod[];
/** LangChain.js RecursiveCharacterTextSplitter's default separators. */
export const DEFAULT_SEPARATORS: readonly string[];
/** LangChain.js getSeparatorsForLanguage('markdown'). */
export const MARKDOWN_SEPARATORS: readonly string[];

export interface ChunkContextOptions {
  /** `{key}` is replaced by document.metadata[key], `{summary}` by `summary`; a line whose placeholders are all missing is dropped. */
  template?: string;
  /** Caller-written (e.g. LLM) document summary; the document context itself when there is no template. */
  summary?: string;
  /** Per-chunk context: one string per chunk, or a function of the chunk. Never counted in chunkSize. */
  chunkContexts?: string[] | ((chunk: DocumentChunk) => string);
  /** Joins document context, chunk context and text in `indexText`. Default '\n\n'. */
  separator?: string;
}

export interface ChunkOptions {
  /** Default 'recursive'. */
  strategy?: ChunkStrategy;
  /** Max chunk length in `unit`. Defaults: 1000 (fixed, recursive, markdown, sentence), 2000 (markdown-header); semantic: alias of maxChunkSize. */
  chunkSize?: number;
  /** In `unit`, < chunkSize. Default min(200, chunkSize / 5); markdown-header 0. */
  chunkOverlap?: number;
  /** Default 'utf16' (JavaScript string length, LangChain.js's default). */
  unit?: ChunkUnit;
  /** recursive/markdown separators (strings only). */
  separators?: string[];
  /** Only `true` is supported (separator kept at the start of the following piece). */
  keepSeparator?: true;
  /** recursive/markdown/sentence: every chunk <= chunkSize (see docs/chunk.md for the differences from parity mode). */
  strict?: boolean;
  /** recursive/markdown/fixed: the caller's synchronous length function, e.g. a tokenizer count (runs the JS path). */
  lengthFunction?: (text: string) => number;
  /** markdown-header: h1..hN start sections. Default 6. */
  splitLevels?: number;
  /** markdown-header: leave header lines out of chunk texts. Default false. */
  stripHeaders?: boolean;
  /** sentence: sentences repeated at the start of the next chunk. Default 0. */
  overlapSentences?: number;
  /** sentence/semantic: every line break ends a sentence. Default false. */
  newlineBreaks?: boolean;
  /** semantic: an embedder (docs/api.md) or an async batch function, one vector per text; called with kind 'document'. */
  embedder?: ((texts: string[], options: { kind: 'query' | 'document' }) => Promise<ArrayLike<number>[]> | ArrayLike<number>[])
    | { embed(texts: string[], options?: { kind?: 'query' | 'document' }): Promise<ArrayLike<number>[]> }
    | { embedSync(texts: string[]): ArrayLike<number>[] };
  /** semantic: default 'percentile'. */
  breakpoint?: BreakpointMethod;
  /** semantic: percentile (95) for percentile/gradient, multiplier for standard_deviation (3) / interquartile (1.5). */
  breakpointAmount?: number;
  /** semantic: no break before a chunk reaches this size (in `unit`). Default 0. */
  minChunkSize?: number;
  /** semantic: forced break before exceeding this size; 0 = unlimited. Default chunkSize or 0. */
  maxChunkSize?: number;
  /** semantic: sentences on each side embedded with each sentence. Default 1. */
  bufferSize?: number;
  /** semantic: texts per embedder call. Default 32. */
  batchSize?: number;
  context?: ChunkContextOptions;
  /** chunkSize also counts the document-level context + separator. Default false. */
  sizeIncludesContext?: boolean;
}

/** A chunk as returned by chunk(): the base Chunk of document.d.ts plus enrichment fields. */
export interface DocumentChunk extends Chunk {
  /** `${docId}#${ordinal}` */
  id: string;
  docId: string;
  ordinal: number;
  /** `document.text.slice(start, end)`: the original span, never modified. */
  text: string;
  /** UTF-16 offset into the document text, inclusive. */
  start: number;
  /** UTF-16 offset, exclusive. */
  end: number;
  /** Heuristic token count of `text` (see estimateTokens). */
  tokenEstimate: number;
  /** Enclosing headers, outermost first (markdown-header strategy), else []. */
  headerPath: string[];
  prevId: string | null;
  nextId: string | null;
  /** Document context + chunk context ('' without context options). */
  context: string;
  /** What to embed and index: context + separator + text. */
  indexText: string;
  /** Document metadata plus h1..h6 and path for markdown-header chunks. */
  metadata: Record<string, MetadataValue>;
}

export interface ChunkStats {
  count: number;
  meanSize: number;
  minSize: number;
  maxSize: number;
  /** Size buckets in UTF-16 units; the last bucket is open (max null). */
  histogram: { min: number; max: number | null; count: number }[];
  /** Overlapping units between consecutive chunks / total chunk units. */
  overlapRatio: number;
  /** Share of the text inside at least one chunk. */
  coverage: number;
  /** Share of chunks ending on a sentence end (null when not computed). */
  sentenceEndShare: number | null;
  /** Share of chunks starting on a markdown header line (null when not computed). */
  headerStartShare: number | null;
}

export interface ChunkDocumentInput {
  id: string;
  text: string;
  metadata?: Record<string, MetadataValue>;
}

export function normalizeChunkOptions(options?: ChunkOptions): ChunkOptions;
export function renderContext(document: { metadata?: Record<string, MetadataValue> }, context?: ChunkContextOptions | null): string;
export function estimateTokens(text: string): number;
export function chunk(document: ChunkDocumentInput, options?: ChunkOptions): DocumentChunk[];
export function chunkAsync(document: ChunkDocumentInput, options?: ChunkOptions): Promise<DocumentChunk[]>;
export function chunkTexts(text: string, options?: ChunkOptions): string[];
export function markdownHeaders(text: string): { start: number; end: number; level: number; text: string }[];
export function chunkStats(text: string, chunks: { start: number; end: number }[],
  marks?: { sentenceEnds?: Set<number>; headerStarts?: Set<number> }): ChunkStats;
export function compareChunkings(document: ChunkDocumentInput, optionsList: ChunkOptions[]):
  Promise<{ options: ChunkOptions; chunks: DocumentChunk[]; stats: ChunkStats }[]>;
