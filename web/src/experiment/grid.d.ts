// Types of ./grid.js (declared in ./experiment.d.ts).
export { parseExperimentGrid } from './experiment.js';
