/** A failure rate (1 − recall) with the CI of its recall turned around. */
export interface FailureCI { mean: number; low: number | null; high: number | null; n: number }
/** (baseline − cell) / baseline; null when the baseline has no failures or a value is missing. */
export function relativeReduction(cell: number | null, baseline: number | null): number | null;
/** Failure-rate columns (1 − recall@k, 1 − recall@c) and relative reductions vs the baseline cell. */
export function failureColumns(cells: object[], options?: { baseline?: string | null }): {
  baseline: string | null;
  cutoffs: number[];
  cells: Array<{ name: string; k: number; failureAtK: FailureCI | null; reductionAtK: number | null; failure: Record<string, number>; reduction: Record<string, number | null> }>;
};
/** The failure columns as a markdown table. */
export function failureMarkdown(columns: ReturnType<typeof failureColumns>): string;
/** @internal The failure columns as a table: what failureMarkdown prints and the experiment report shows. */
export function failureTable(columns: ReturnType<typeof failureColumns>): { columns: string[]; rows: string[][] };
