/** Defaults of checkLegs(). */
export declare const LEG_CHECK_DEFAULTS: Readonly<{ sample: number; minProbes: number; ratio: number; k: number; minWords: number; maxWords: number; windowWords: number; maxShare: number }>;

/** One retriever for the leg check: batch search returning ranked ids per query (best first). */
export interface LegCheckLeg {
  retriever: string;
  search(queries: string[], k: number): string[][] | Promise<string[][]>;
}

export interface LegCheckReport {
  /** Probe sentences searched. */
  probes: number;
  /** Depth of the reciprocal rank (MRR@k). */
  k: number;
  /** A leg is weak when its MRR < ratio x the best leg's MRR. */
  ratio: number;
  /** At least minProbes probes were found (otherwise no leg is called weak). */
  decided: boolean;
  legs: { retriever: string; mrr: number }[];
  /** Retrievers found much weaker; the default hybrid gives them weight 0. */
  weak: string[];
  /** Human-readable explanation when a leg is weak, else null. */
  warning: string | null;
}

export interface LegCheckOptions {
  sample?: number;
  minProbes?: number;
  ratio?: number;
  k?: number;
  signal?: AbortSignal;
}

/** Probe sentences: passages sorted by id, evenly spaced, the middle sentence of 6..60 words and at most half the passage (else the middle 12 words within that half). */
export declare function pickProbes(passages: { id: string; text: string }[], options?: Partial<typeof LEG_CHECK_DEFAULTS>): { id: string; query: string }[];

/** Label-free leg check: self-retrieval MRR of probe sentences per leg (docs/fusion.md "Leg check"). */
export declare function checkLegs(legs: LegCheckLeg[], passages: { id: string; text: string }[], options?: LegCheckOptions): Promise<LegCheckReport>;

/** A dense leg whose probes are embedded with kind 'query' and searched in a VectorIndex. */
export declare function vectorLeg(retriever: string, index: { search(query: Float32Array, options: { k: number }): { id: string }[] },
  embedder: object | ((texts: string[], options: { kind: 'query' | 'document' }) => Promise<ArrayLike<number>[]>),
  options?: { dimension?: number; signal?: AbortSignal }): LegCheckLeg;

/** Weights with the weak legs of `report` set to 0 (unchanged when none is weak or all would be 0). */
export declare function weightsAfterLegCheck(weights: number[], retrievers: string[], report: { weak: string[] } | null): number[];
