// Types of ./report.js (declared in ./experiment.d.ts).
export { experimentReportHtml } from './experiment.js';
