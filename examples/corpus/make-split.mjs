#!/usr/bin/env node
// Writes examples/corpus/split.json: the questions of questions.jsonl split into a tuning half (choose
// presets and thresholds on these only) and a reporting half (the numbers we publish). Seeded
// Fisher-Yates shuffle (mulberry32, seed 15 = issue 15), stratified by `answerable` so both halves
// hold answerable and unanswerable questions; the first ceil(n/2) of each shuffled stratum tune.
// Re-running it gives the same split; adding questions changes it (commit the new split.json).
// A question with "split": "tuning" (added later to the tuning half only, so that the reporting half
// stays the same questions) goes to the tuning half and does not take part in the shuffle.
// Usage: node examples/corpus/make-split.mjs [OUT.json]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '../../tests/js/helpers.mjs';

const SEED = 15;
const here = dirname(fileURLToPath(import.meta.url));

const questions = readFileSync(join(here, 'questions.jsonl'), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
for (const q of questions) {
  if (q.split !== undefined && q.split !== 'tuning') throw new Error(`${q.id}: "split" may only be "tuning", got ${JSON.stringify(q.split)}`);
}
const rand = seededRandom(SEED);  // mulberry32
const tuning = questions.filter((q) => q.split === 'tuning').map((q) => q.id);
const reporting = [];
for (const answerable of [true, false]) {
  const ids = questions.filter((q) => q.answerable === answerable && q.split === undefined).map((q) => q.id);
  for (let i = ids.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [ids[i], ids[j]] = [ids[j], ids[i]];
  }
  const half = Math.ceil(ids.length / 2);
  tuning.push(...ids.slice(0, half));
  reporting.push(...ids.slice(half));
}
const byId = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const out = { seed: SEED, method: 'mulberry32 Fisher-Yates per answerable stratum; first ceil(n/2) tune', tuning: tuning.sort(byId), reporting: reporting.sort(byId) };
writeFileSync(process.argv[2] ?? join(here, 'split.json'), JSON.stringify(out, null, 2) + '\n');  // argv[2]: another output path (tests)
console.log(`tuning ${out.tuning.length}, reporting ${out.reporting.length}`);
