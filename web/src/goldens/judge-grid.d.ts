import type { CalibrationReport, LabelledItem, LlmClient, PromptTemplate } from '../llm.js';
export interface PercentError {
  n: number;
  /** mean |predicted% - gold%| per item */
  meanAbsoluteError: number | null;
  predictedMean: number | null;
  goldMean: number | null;
  /** |mean predicted% - mean gold%| over the set */
  setError: number | null;
}
export function percentError(rows: Array<{ label: number; prediction: number | null }>, bias?: number): PercentError;
export interface JudgeGridCell {
  model: string;
  prompt: string;
  /** agreement on the test half */
  test: CalibrationReport;
  /** agreement on the validation part (options.validationFraction) */
  validation?: CalibrationReport;
  /** percentage judges only */
  percent: PercentError | null;
  /** with the train-half bias subtracted (options.calibrate) */
  calibrated: PercentError | null;
  bias: number | null;
}
export function judgeGrid(input: { models: Array<{ name: string; client: LlmClient }>; prompts: Array<{ name: string; prompt?: PromptTemplate }>;
  items: LabelledItem[] }, options: { judge: 'context_relevance' | 'answer_relevance' | 'answer_correctness' | 'groundedness';
  seed?: number; trainFraction?: number; validationFraction?: number; fewShot?: number; calibrate?: boolean; samples?: number; aggregate?: 'mean' | 'majority';
  signal?: AbortSignal; onProgress?: (progress: { cell: string; done: number; total: number }) => void }):
  Promise<{ judge: string; split: { seed: number; train: number; validation?: number; test: number };
    examples: Array<{ question: string; passage: string; score: number }>; cells: JudgeGridCell[];
    /** with validationFraction: each model's prompt chosen on validation, reported on test */
    selection?: Array<{ model: string; prompt: string; metric: 'kappaQuadratic' | 'meanAbsoluteError'; validationValue: number | null; test: CalibrationReport }> }>;
