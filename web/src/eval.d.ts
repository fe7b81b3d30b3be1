// Type declarations of the ragwasm/eval entry.
export * as metrics from './metrics/metrics.js';
export * from './pipeline/autotune.js';
export { memoizeContextSteps } from './pipeline/collection.js';
export { tuneFusion, defaultFusionGrid, FusionConfig, LabelledQuery, Qrels, TuneOptions, TuneResult } from './retrieve/fusion.js';
export * from './retrieve/leg-check.js';
export { compareChunkings, chunkStats, ChunkStats } from './chunk/chunk.js';
export * from './experiment/experiment.js';
// explicit: ./experiment/columns.d.ts also declares @internal names for the library's own modules
export { FailureCI, failureColumns, failureMarkdown, relativeReduction } from './experiment/columns.js';
export * from './goldens/split.js';
export * from './goldens/human.js';
