// @ts-check
// ragwasm/eval: measuring a pipeline (docs/metrics.md, docs/autotune.md, docs/experiments.md). trec_eval-exact
// metrics, autotune and fusion tuning on labels, the label-free leg check, chunking comparison,
// experiment grids (run, summary, report), train/test splits and human-graded pools. What calls an LLM
// judge or writes goldens with one (labelPool, generateQuestions, judgeGrid, calibrateJudge) is ragwasm/llm.
export * as metrics from './metrics/metrics.js';
export { autotune, DEFAULT_AUTOTUNE_GRID } from './pipeline/autotune.js';
export { memoizeContextSteps } from './pipeline/collection.js';
export { tuneFusion, defaultFusionGrid } from './retrieve/fusion.js';
export { checkLegs, vectorLeg, pickProbes, weightsAfterLegCheck, LEG_CHECK_DEFAULTS } from './retrieve/leg-check.js';
export { compareChunkings, chunkStats } from './chunk/chunk.js';
// Experiments (issue 16): grids of pipeline configs x answer models x prompts, run, summarized and reported.
export { parseExperimentGrid } from './experiment/grid.js';
export { planExperiment, runExperiment } from './experiment/run.js';
export { summarizeExperiment, experimentMarkdown, scoreAnswer } from './experiment/summary.js';
export { experimentReportHtml } from './experiment/report.js';
export { failureColumns, failureMarkdown, relativeReduction } from './experiment/columns.js';
export { FileReplyCache } from './experiment/reply-cache.js';
// Goldens: seeded splits and human grades of pooled candidates (web/src/goldens/).
export { seededShuffle, splitTrainTest, splitTrainValidationTest } from './goldens/split.js';
export { pairKey, formatPool, parsePool, gradedQrels, gradedLabels, poolLabels } from './goldens/human.js';
