#!/usr/bin/env node
// Writes the tuning / reporting split of a question set. Re-running it gives the same split; adding
// questions changes it (commit the new split file).
//
// --set questions (default): examples/corpus/split.json from questions.jsonl. Seeded Fisher-Yates
// shuffle (mulberry32, seed 15 = issue 15), stratified by `answerable` so both halves hold answerable
// and unanswerable questions; the first ceil(n/2) of each shuffled stratum tune. A question with
// "split": "tuning" (added later to the tuning half only, so that the reporting half stays the same
// questions) goes to the tuning half and does not take part in the shuffle.
//
// --set own-words: examples/corpus/own-words-split.json from own-words.jsonl (issue 27's set written
// apart from the first). Seeded Fisher-Yates shuffle (mulberry32, seed 27 = issue 27), stratified by
// `type` and `paraphrased`; strata in sorted key order, the first floor(n/2) of each shuffled stratum
// tune, the second half reports, and the middle question of an odd stratum goes to the two halves in
// turn (tuning first), so the halves differ by at most one question.
//
// Usage: node examples/corpus/make-split.mjs [--set questions|own-words] [OUT.json]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '../../tests/js/helpers.mjs';

const here = dirname(fileURLToPath(import.meta.url));

const SETS = {
  questions: { file: 'questions.jsonl', out: 'split.json', seed: 15, split: splitQuestions },
  'own-words': { file: 'own-words.jsonl', out: 'own-words-split.json', seed: 27, split: splitOwnWords },
};

function shuffle(ids, rand) {
  for (let i = ids.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [ids[i], ids[j]] = [ids[j], ids[i]];
  }
  return ids;
}

function splitQuestions(questions, rand) {
  for (const q of questions) {
    if (q.split !== undefined && q.split !== 'tuning') throw new Error(`${q.id}: "split" may only be "tuning", got ${JSON.stringify(q.split)}`);
  }
  const tuning = questions.filter((q) => q.split === 'tuning').map((q) => q.id);
  const reporting = [];
  for (const answerable of [true, false]) {
    const ids = shuffle(questions.filter((q) => q.answerable === answerable && q.split === undefined).map((q) => q.id), rand);
    const half = Math.ceil(ids.length / 2);
    tuning.push(...ids.slice(0, half));
    reporting.push(...ids.slice(half));
  }
  return { method: 'mulberry32 Fisher-Yates per answerable stratum; first ceil(n/2) tune', tuning, reporting };
}

function splitOwnWords(questions, rand) {
  const strata = new Map();
  for (const q of questions) {
    if (typeof q.type !== 'string' || typeof q.paraphrased !== 'boolean') throw new Error(`${q.id}: needs a string "type" and a boolean "paraphrased"`);
    const key = `${q.type}/${q.paraphrased ? 'paraphrased' : 'own-terms'}`;
    if (!strata.has(key)) strata.set(key, []);
    strata.get(key).push(q.id);
  }
  const tuning = [];
  const reporting = [];
  let oddToTuning = true;
  for (const key of [...strata.keys()].sort()) {
    const ids = shuffle(strata.get(key), rand);
    const half = Math.floor(ids.length / 2);
    tuning.push(...ids.slice(0, half));
    reporting.push(...ids.slice(ids.length - half));
    if (ids.length % 2 === 1) {
      (oddToTuning ? tuning : reporting).push(ids[half]);
      oddToTuning = !oddToTuning;
    }
  }
  return {
    method: 'mulberry32 Fisher-Yates per (type, paraphrased) stratum, strata in sorted key order; first floor(n/2) tune, last floor(n/2) report, the middle question of an odd stratum alternates (tuning first)',
    tuning, reporting,
  };
}

const args = process.argv.slice(2);
let setName = 'questions';
const setAt = args.indexOf('--set');
if (setAt !== -1) {
  setName = args[setAt + 1];
  args.splice(setAt, 2);
}
const set = SETS[setName];
if (!set) throw new Error(`--set must be one of ${Object.keys(SETS).join(', ')}, got ${JSON.stringify(setName)}`);

const questions = readFileSync(join(here, set.file), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
const { method, tuning, reporting } = set.split(questions, seededRandom(set.seed));
const byId = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const out = { seed: set.seed, method, tuning: tuning.sort(byId), reporting: reporting.sort(byId) };
writeFileSync(args[0] ?? join(here, set.out), JSON.stringify(out, null, 2) + '\n');  // args[0]: another output path (tests)
console.log(`${set.file}: tuning ${out.tuning.length}, reporting ${out.reporting.length}`);
