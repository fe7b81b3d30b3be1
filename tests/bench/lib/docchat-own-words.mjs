// Issue 27: doc chat on examples/corpus/own-words.jsonl (the question set written apart from questions.jsonl),
// per half of own-words-split.json and per question type, paraphrased vs own-terms questions, and Yes/No
// polarity. One configuration: PRESETS.docChatBm25 answered with PRESETS.docChatAnswer through ask() (the
// code path of the demo and `ragwasm ask`), scored as the docchat suite scores (score() in
// tests/bench/suites/docchat.mjs). A baseline to measure semantic matching against; it chooses nothing.
// Usage (needs web/dist/ragwasm.{mjs,wasm}): node tests/bench/lib/docchat-own-words.mjs [tuning|reporting|all ...]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Collection, init, PRESETS } from '../../../web/src/index.js';
import { loadCorpus, runQuestions, score } from '../suites/docchat.mjs';

const TYPES = ['lookup', 'yes-no', 'who', 'when', 'numeric', 'table', 'multi-hop', 'unanswerable'];

/** Loads own-words.jsonl and its split from examples/corpus under `root`. */
export function loadOwnWords(root) {
  const dir = join(root, 'examples/corpus');
  const questions = readFileSync(join(dir, 'own-words.jsonl'), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  const split = JSON.parse(readFileSync(join(dir, 'own-words-split.json'), 'utf8'));
  return { questions, split };
}

/** 'yes' / 'no' when the answer opens with that word, else null. */
export function saidPolarity(answer) {
  const m = /^(Yes|No)\b/.exec(answer ?? '');
  return m ? m[1].toLowerCase() : null;
}

/** Rows [group, n, hit@1, hit@5, token F1, unanswerable abstained, answerable abstained] for runs of one half. */
export function breakdown(runs) {
  const groups = [
    ['all', runs],
    ['answerable, paraphrased', runs.filter(({ q }) => q.answerable && q.paraphrased)],
    ['answerable, own terms', runs.filter(({ q }) => q.answerable && !q.paraphrased)],
    ...TYPES.map((t) => [t, runs.filter(({ q }) => q.type === t)]),
  ];
  return groups.filter(([, rs]) => rs.length > 0).map(([name, rs]) => {
    const s = score(rs);
    return [name, rs.length, s.hit1, s.hit5, s.tokenF1, `${s.abstainedUnanswerable}/${s.unanswerable}`, `${s.wrongAbstentions}/${s.answerable}`];
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
  const halves = process.argv.length > 2 ? process.argv.slice(2) : ['tuning', 'reporting'];
  await init();
  const { documents } = loadCorpus(root);
  const { questions, split } = loadOwnWords(root);
  const col = await Collection.create(PRESETS.docChatBm25);
  await col.add(documents);
  const runs = await runQuestions(col, questions, PRESETS.docChatAnswer);
  col.dispose();
  const f = (x, i) => (typeof x === 'number' && i >= 2 ? x.toFixed(3) : String(x));  // columns 2..4 are rates
  for (const half of halves) {
    if (half !== 'all' && !split[half]) throw new Error(`unknown half ${JSON.stringify(half)}: tuning, reporting or all`);
    const ids = half === 'all' ? null : new Set(split[half]);
    const h = runs.filter(({ q }) => !ids || ids.has(q.id));
    console.log(`\n${half} (PRESETS.docChatBm25 + docChatAnswer)\n| group | n | hit@1 | hit@5 | token F1 | unanswerable abstained | answerable abstained |\n|---|--:|--:|--:|--:|--:|--:|`);
    for (const row of breakdown(h)) console.log(`| ${row.map(f).join(' | ')} |`);
    const yn = h.filter(({ q }) => q.type === 'yes-no');
    const wrong = yn.filter(({ q, r }) => saidPolarity(r.answer) !== null && saidPolarity(r.answer) !== q.polarity).map(({ q }) => q.id);
    const right = yn.filter(({ q, r }) => saidPolarity(r.answer) === q.polarity).length;
    console.log(`yes-no: right polarity ${right}/${yn.length}, wrong polarity ${wrong.length}/${yn.length}${wrong.length ? ` (${wrong.join(', ')})` : ''}`);
  }
}
