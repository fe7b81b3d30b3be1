export interface ContextChunkInput {
  chunkId: string;
  /** Defaults to chunkId. */
  docId?: string;
  text: string;
  /** Default 0. */
  score?: number;
  start?: number;
  end?: number;
  /** Exact token count of text (e.g. WordPiece); default: ceil(code points / 4). */
  tokens?: number;
}
export interface ContextSource {
  n: number;
  chunkId: string;
  docId: string;
  start: number | null;
  end: number | null;
  score: number;
  tokens: number;
}
export interface AssembledContext {
  contextText: string;
  sources: ContextSource[];
  tokensUsed: number;
  dropped: string[];
}
export interface AssembleOptions {
  /** Default 2000. */
  tokenBudget?: number;
  /** Default 'score'. */
  order?: 'score' | 'ends';
  /** 0 = no limit (default). */
  maxChunks?: number;
  docContext?: Record<string, string>;
}
export function assembleContext(chunks: ContextChunkInput[], options?: AssembleOptions): AssembledContext;
export function estimateContextTokens(text: string): number;
