// Types of ./summary.js (declared in ./experiment.d.ts).
export { summarizeExperiment, experimentMarkdown, scoreAnswer } from './experiment.js';

/** @internal The tables of a summary as data plus notes (experimentMarkdown and experimentReportHtml format them). */
export function summaryTables(summary: object): { tables: { title: string; columns: string[]; rows: string[][] }[]; notes: string[] };
