// Types of ./run.js (declared in ./experiment.d.ts).
export { planExperiment, runExperiment } from './experiment.js';
