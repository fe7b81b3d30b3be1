export interface PipelineConfig {
  version: 1;
  chunker: {
    strategy: 'fixed' | 'recursive' | 'markdown' | 'markdown-header' | 'sentence' | 'semantic'; chunkSize: number; chunkOverlap: number; unit: string;
    /** indexText = context + separator + text; headerPath: the chunk's markdown header path as its chunk context (Collection) */
    /** llmSummary: an LLM summary per document as the context's {summary}; llmChunkContext: an LLM note per chunk
     *  (both run by Collection.add with Collection.create's `llm` option; prompt: a PromptTemplate object) */
    context?: { template?: string; summary?: string; separator?: string; headerPath?: boolean;
      llmSummary?: { prompt?: object; maxTokens?: number }; llmChunkContext?: { prompt?: object; maxTokens?: number } };
    [key: string]: unknown;
  };
  indexes: {
    /** Bm25Index options (normalized): pass as they are to Bm25Index.create. */
    bm25?: { scorer: 'lucene' | 'robertson' | 'atire' | 'bm25l' | 'bm25plus'; k1: number; b: number; delta?: number;
      analyzer: { stemmer: 'porter2' | 'none'; stopwords: 'lucene' | false | string[]; lowercase?: boolean; foldAccents?: boolean;
        cjkBigrams?: boolean; identifiers?: boolean; maxTokenBytes?: number };
      /** "text" = the chunk's indexText, others = document fields. Default text and title, boost 1 each. */
      fields: { name: string; boost: number }[] };
    /** VectorIndex options (normalized) + the embedder's model name; dimension only when the config sets it. */
    dense?: { model: string; dimension?: number; metric: 'cosine' | 'dot' | 'l2'; index: 'flat' | 'hnsw'; storage: 'f32' | 'int8' | 'binary';
      binaryRescore: 'int8' | 'f32'; hnsw: { M: number; efConstruction: number; efSearch: number; seed: number } };
  };
  retrieval: {
    retrievers: ('bm25' | 'dense')[];
    /** hits returned */
    k: number;
    candidates: number;
    /** rrfK: the RRF constant */
    fusion: { mode: string; normalization: string; weights: number[]; rrfK: number; legCheck: boolean };
    /** LLM query expansion at ask() time (needs ask's llm); only when the config gives it ("hyde" / "query2doc" is shorthand) */
    llmExpansion?: { mode: 'hyde' | 'query2doc'; maxTokens: number };
  };
  rerank: { enabled: boolean; type: 'cross-encoder' | 'llm' | 'custom'; model?: string; candidates: number; keep: number };
  assembly: { tokenBudget: number; order: 'score' | 'ends'; maxChunks: number; /** normalized: 'chunker' as true, 'none' as false (saved format 3) */ docContext: boolean | 'title'; tokenCount: 'estimate' | 'wordpiece' };
  /** What answers from the top min(retrieval.k, chunks) chunks (retrieval.k 0 = no retrieval). */
  answerer: { type: 'extractive' | 'llm' | 'none'; chunks: number; threshold: number; maxSentences: number };
  /** Judges the answering commands run besides correctness (rag, experiment); only when the config gives the section. */
  judges?: { triad: boolean };
}
export function parsePipelineConfig(config: string | object): PipelineConfig;
export function defaultPipelineConfig(): PipelineConfig;
/** @internal parsePipelineConfig for saved configs: the old names read quietly and listed. */
export function readPipelineConfig(config: string | object): { config: PipelineConfig; deprecations: { path: string; old: string; new: string }[] };
