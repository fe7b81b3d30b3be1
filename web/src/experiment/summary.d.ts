// Types of ./summary.js (declared in ./experiment.d.ts).
export { summarizeExperiment, experimentMarkdown, scoreAnswer } from './experiment.js';
