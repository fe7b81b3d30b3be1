export interface PipelineConfig {
  version: 1;
  chunker: { strategy: string; chunkSize: number; chunkOverlap: number; unit: string; [key: string]: unknown };
  indexes: {
    bm25?: { variant: 'bm25' | 'bm25l' | 'bm25+'; k1: number; b: number; stemmer: 'porter2' | 'none'; stopwords: boolean };
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
}
export function parsePipelineConfig(config: string | object): PipelineConfig;
export function defaultPipelineConfig(): PipelineConfig;
