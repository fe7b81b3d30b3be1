export interface PipelineConfig {
  version: 1;
  chunker: {
    strategy: 'fixed' | 'recursive' | 'markdown' | 'markdown-header' | 'sentence' | 'semantic'; chunkSize: number; chunkOverlap: number; unit: string;
    /** indexText = context + separator + text; headerPath: the chunk's markdown header path as its chunk context (Collection) */
    context?: { template?: string; summary?: string; separator?: string; headerPath?: boolean };
    [key: string]: unknown;
  };
  indexes: {
    bm25?: { variant: 'bm25' | 'bm25l' | 'bm25+'; k1: number; b: number; stemmer: 'porter2' | 'none'; stopwords: boolean;
      /** field name -> boost; "text" = the chunk's indexText, others = document fields. Default {text: 1, title: 1}. */
      fields: Record<string, number> };
    dense?: { model: string; metric: 'cosine' | 'dot' | 'l2'; index: 'flat' | 'hnsw'; quantization: 'none' | 'int8';
      hnsw: { m: number; efConstruction: number; efSearch: number } };
  };
  retrieval: {
    retrievers: ('bm25' | 'dense')[];
    k: number;
    candidates: number;
    fusion: { mode: string; normalization: string; weights: number[]; k: number };
  };
  rerank: { enabled: boolean; type: 'cross-encoder' | 'llm' | 'custom'; model?: string; candidates: number; keep: number };
  assembly: { tokenBudget: number; order: 'score' | 'ends'; maxChunks: number; docContext: boolean; tokenCount: 'estimate' | 'wordpiece' };
  /** What answers from the top min(retrieval.k, chunks) chunks (retrieval.k 0 = no retrieval). */
  answerer: { type: 'extractive' | 'llm' | 'none'; chunks: number; threshold: number; maxSentences: number };
}
export function parsePipelineConfig(config: string | object): PipelineConfig;
export function defaultPipelineConfig(): PipelineConfig;
