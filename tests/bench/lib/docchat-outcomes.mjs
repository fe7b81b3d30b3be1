// Issue 27: ask()'s three outcomes (answer / passages / not-found) on the sample corpus, per question set and half:
//   node tests/bench/lib/docchat-outcomes.mjs            the goals with PRESETS.docChatAnswer (both sets, both halves)
//   node tests/bench/lib/docchat-outcomes.mjs --sweep    the calibration sweep, on the TUNING halves only (chooseOutcomeBars)
//   node tests/bench/lib/docchat-outcomes.mjs --list     every question's outcome (reporting halves included)
// Goals (issue 27): false not-found on answerable <= 5 %; unanswerable questions without an *answer* outcome >= 7 of 8;
// Yes/No of the wrong polarity 0; token F1 of *answer* outcomes >= 0.50. Every answer goes through ask() with
// PRESETS.docChatAnswer on PRESETS.docChatBm25, the demo's and `ragwasm ask`'s code path.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ask, Collection, createWordNeighbours, init, PRESETS, suggestWords } from '../../../web/src/index.js';
import { metrics } from '../../../web/src/eval.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const stripMarkers = (s) => s.replace(/\s*\[\d+\]/g, '').trim();
const readJsonl = (p) => readFileSync(p, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));

/** The sample corpus and its question sets ({name, questions, split}); own-words only when present. */
export function loadSets(root = repoRoot) {
  const dir = join(root, 'examples/corpus');
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  const documents = manifest.map((m) => ({ id: m.id, title: m.title, text: readFileSync(join(dir, m.file), 'utf8') }));
  const sets = [{ name: 'questions', questions: readJsonl(join(dir, 'questions.jsonl')), split: JSON.parse(readFileSync(join(dir, 'split.json'), 'utf8')) }];
  if (existsSync(join(dir, 'own-words.jsonl'))) {
    sets.push({ name: 'own-words', questions: readJsonl(join(dir, 'own-words.jsonl')), split: JSON.parse(readFileSync(join(dir, 'own-words-split.json'), 'utf8')) });
  }
  // Near-miss unanswerable questions (issue 27): tuning only, no reporting half.
  if (existsSync(join(dir, 'near-miss.jsonl'))) {
    const questions = readJsonl(join(dir, 'near-miss.jsonl'));
    sets.push({ name: 'near-miss', questions, split: { tuning: questions.map((q) => q.id), reporting: [] } });
  }
  // The probe set (issue 27, 2026-12-07): questions in the user's words on documents the other sets ask little about,
  // reporting only: nothing is chosen on it.
  if (existsSync(join(dir, 'probe.jsonl'))) {
    const questions = readJsonl(join(dir, 'probe.jsonl'));
    sets.push({ name: 'probe', questions, split: { tuning: [], reporting: questions.map((q) => q.id) } });
  }
  return { documents, sets };
}

/** The gold polarity of a yes/no question: its `polarity` field, else its answer's first word ("Yes."/"No."), else null. */
export function goldPolarity(q) {
  if (q.polarity === 'yes' || q.polarity === 'no') return q.polarity;
  const m = /^(yes|no)\b/i.exec(q.answer ?? '');
  return m ? m[1].toLowerCase() : null;
}

/** The polarity an answer states in words: its first word "Yes."/"No.", else null. */
export function statedPolarity(answer) {
  const m = /^(Yes|No)\./.exec(answer);
  return m ? m[1].toLowerCase() : null;
}

/** One record per question: outcome, F1 (answer outcomes), polarity stated vs gold, evidence. */
export function record(q, r) {
  const rec = { id: q.id, answerable: q.answerable, type: q.type, paraphrased: !!q.paraphrased, outcome: r.outcome, evidence: r.evidence, f1: null,
    stated: r.outcome === 'answer' ? statedPolarity(r.answer) : null, gold: goldPolarity(q), answer: r.answer, unmatched: r.unmatched ?? null };
  if (q.answerable && r.outcome === 'answer') rec.f1 = metrics.tokenF1(stripMarkers(r.answer), [q.answer]);
  return rec;
}

/** The goal quantities of a list of records. */
export function summarizeOutcomes(recs) {
  const ans = recs.filter((r) => r.answerable);
  const un = recs.filter((r) => !r.answerable);
  const answered = ans.filter((r) => r.outcome === 'answer');
  const wrongPolarity = recs.filter((r) => r.stated !== null && (r.gold === null ? !r.answerable : r.stated !== r.gold));
  return {
    answerable: ans.length, unanswerable: un.length,
    answer: answered.length, passages: ans.filter((r) => r.outcome === 'passages').length, notFound: ans.filter((r) => r.outcome === 'not-found').length,
    falseNotFoundRate: ans.filter((r) => r.outcome === 'not-found').length / Math.max(1, ans.length),
    unansweredUnanswerable: un.filter((r) => r.outcome !== 'answer').length,
    unanswerableNotFound: un.filter((r) => r.outcome === 'not-found').length,
    wrongPolarity: wrongPolarity.length, wrongPolarityIds: wrongPolarity.map((r) => r.id),
    // questions without an answer outcome, and of them those told which of their words no document uses (r.unmatched)
    withoutAnswer: recs.filter((r) => r.outcome !== 'answer').length,
    namedUnmatched: recs.filter((r) => r.outcome !== 'answer' && r.unmatched?.length > 0).length,
    paraphrasedWithoutAnswer: recs.filter((r) => r.paraphrased && r.outcome !== 'answer').length,
    paraphrasedNamedUnmatched: recs.filter((r) => r.paraphrased && r.outcome !== 'answer' && r.unmatched?.length > 0).length,
    yesNoSaid: recs.filter((r) => r.stated !== null).length,
    answerF1: answered.length ? answered.reduce((s, r) => s + r.f1, 0) / answered.length : null,
    // answerable questions: F1 of the answer, 0 for passages / not-found (how much the answer outcome delivers overall)
    allF1: ans.reduce((s, r) => s + (r.f1 ?? 0), 0) / Math.max(1, ans.length),
  };
}

/** ask() over every question of every set with `options` (a collection per call of the caller). */
export async function runAll(col, sets, options) {
  const out = [];
  for (const set of sets) {
    for (const q of set.questions) out.push({ set: set.name, half: set.split.tuning.includes(q.id) ? 'tuning' : 'reporting', rec: record(q, await ask(col, q.question, options)) });
  }
  return out;
}

export const MIN_EVIDENCE_GRID = [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5];
export const THRESHOLD_GRID = [0.22, 0.25, 0.28, 0.3, 0.32, 0.35, 0.4, 0.45, 0.5];

/**
 * minEvidence, chosen on tuning records only (Map minEvidence -> records at the preset's threshold): half the largest grid
 * value at which no tuning answerable question is not-found (a margin: paraphrased questions of questions never seen may
 * match fewer words than the tuning ones).
 */
export function chooseMinEvidence(byMinEvidence) {
  const clean = MIN_EVIDENCE_GRID.filter((me) => summarizeOutcomes(byMinEvidence.get(me)).notFound === 0);
  const largest = Math.max(...clean);
  return { minEvidence: largest / 2, largestClean: largest };
}

/**
 * The answer bar (threshold), chosen on tuning records only (Map threshold -> records at the chosen minEvidence, each
 * with its `set`): the lowest grid value with no unanswerable question of the two sets' tuning halves answered, at least
 * 7 of 8 of the near-miss set's questions (written to look answerable: a real product, office or policy, a detail the
 * documents do not state) without an answer, no Yes/No of the wrong polarity and a token F1 of answer outcomes of at
 * least 0.50 (the lowest, so that as many answerable questions as possible get an answer); the highest grid value if
 * none. No tuning-half unanswerable answered, not the goal's 1 in 8: a margin, as for minEvidence, since questions never
 * seen are answered wrongly more often than the tuning ones (issue 27, round 2); the near-miss set is the harder case
 * that margin is for, held to the goal itself.
 */
export function chooseThreshold(byThreshold) {
  const ok = THRESHOLD_GRID.filter((th) => {
    const recs = byThreshold.get(th);
    const s = summarizeOutcomes(recs.filter((r) => r.set !== 'near-miss'));
    const near = recs.filter((r) => r.set === 'near-miss');
    const n = summarizeOutcomes(near);
    const nearOk = near.length === 0 || n.unansweredUnanswerable * 8 >= n.unanswerable * 7;
    return s.unansweredUnanswerable === s.unanswerable && nearOk && s.wrongPolarity === 0 && (s.answerF1 ?? 0) >= 0.5;
  });
  return ok.length ? ok[0] : THRESHOLD_GRID.at(-1);
}

/**
 * Whether suggestWords offers the documents' own word for a paraphrased question without an answer: the
 * question's `note` maps its words to the documents' ("upkeep=maintenance; ill=sick"); true when a suggestion
 * analyzes to a term of a mapped-to word, false when none does, null when the question has no note, an answer,
 * or no word no document uses.
 */
export function suggestionHit(col, words, q, r) {
  if (!q.paraphrased || !q.note || r.outcome === 'answer' || !r.unmatched?.length) return null;
  const targets = new Set(q.note.split(';').map((p) => p.split('=')[1] ?? '').flatMap((w) => col.bm25.analyze(w)));
  return suggestWords(col, r.query, { words }).some((x) => x.suggestions.some((y) => col.bm25.analyze(y.word).some((t) => targets.has(t))));
}

/** Evidence hit@5 of ask()'s hits for an answerable question with evidence excerpts (null otherwise). */
export function evidenceHit5(q, r) {
  if (!q.answerable || !q.evidence?.length) return null;
  const [pq] = metrics.evaluateEvidence([{ evidence: q.evidence.map((text) => ({ text })), chunks: r.hits.slice(0, 10).map((h) => ({ text: h.text })) }],
    { cutoffs: [5], maxK: 10 }).perQuestion;
  const first = pq.relevant.indexOf(true);
  return first >= 0 && first < 5;
}

/**
 * The outcome section of `npm run bench -- docchat` (issue 27): per tier, question set and half, ask() with
 * PRESETS.docChatAnswer: answerable questions by outcome, false not-found, unanswerable questions without an
 * answer outcome, Yes/No of the wrong polarity, token F1 of answer outcomes, evidence hit@5.
 * @param {object} ctx the bench context (table, record)
 * @param {{name: string, key: string|null, make: () => Promise<object>}[]} [tiers] make: a new empty Collection;
 *   the first is the offline default (PRESETS.docChat), recorded as 'outcomes', the others as 'outcomes: <key>'
 * @returns {Promise<object>} the offline tier's summaries by `${set} ${half}`
 */
export async function outcomesStudy(ctx, tiers = [{ name: 'offline: PRESETS.docChat (BM25 only)', key: null, make: () => Collection.create(PRESETS.docChat) }]) {
  const { documents, sets } = loadSets(ctx.repoRoot);
  const words = await createWordNeighbours();
  const rows = [];
  const all = {};
  for (const tier of tiers) {
    const col = await tier.make();
    await col.add(documents);
    const out = {};
    all[tier.key ?? 'offline'] = out;
    await tierOutcomes(col, sets, words, (set, half, s) => {
      out[`${set.name} ${half}`] = s;
      rows.push([tier.name, set.name, half, `${s.answer} / ${s.passages} / ${s.notFound} of ${s.answerable}`, s.falseNotFoundRate,
        `${s.unansweredUnanswerable}/${s.unanswerable}`, s.wrongPolarity, s.answerF1 ?? '-', s.evidenceQuestions ? s.hit5 : '-',
        `${s.namedUnmatched} of ${s.withoutAnswer}${s.paraphrasedWithoutAnswer ? ` (paraphrased: ${s.paraphrasedNamedUnmatched} of ${s.paraphrasedWithoutAnswer})` : ''}`,
        s.suggestionQuestions ? `${s.suggestionHits} of ${s.suggestionQuestions}` : '-']);
    });
    col.dispose();
    ctx.record(tier.key ? `outcomes: ${tier.key}` : 'outcomes', out);
  }
  ctx.table(`Three outcomes of ask() (PRESETS.docChatAnswer) per tier, question set and half (issue 27 goals: false not-found <= 5 %, unanswerable without an answer >= 7 of 8, wrong Yes/No 0, F1 of answers >= 0.50)`,
    ['tier', 'set', 'half', 'answerable: answer / passages / not-found', 'false not-found', 'unanswerable without an answer', 'wrong Yes/No', 'token F1 of answers', 'evidence hit@5',
      'without an answer: told a word no document uses', 'paraphrased, told: suggestWords offers the documents\' word'], rows);
  words.dispose();
  return all.offline;
}

async function tierOutcomes(col, sets, words, report) {
  for (const set of sets) {
    for (const half of ['tuning', 'reporting']) {
      const inHalf = (q) => (half === 'tuning') === set.split.tuning.includes(q.id);
      if (!set.questions.some(inHalf)) continue;
      const recs = [];
      const hits = [];
      const paraHits = [];
      const offered = [];
      for (const q of set.questions.filter(inHalf)) {
        const r = await ask(col, q.question, PRESETS.docChatAnswer);
        recs.push(record(q, r));
        const h = evidenceHit5(q, r);
        if (h !== null) hits.push(h);
        if (h !== null && q.paraphrased) paraHits.push(h);
        const o = suggestionHit(col, words, q, r);
        if (o !== null) offered.push(o);
      }
      report(set, half, { ...summarizeOutcomes(recs), hit5: hits.filter(Boolean).length / Math.max(1, hits.length), evidenceQuestions: hits.length,
        paraphrasedHit5: paraHits.length ? paraHits.filter(Boolean).length / paraHits.length : null, paraphrasedQuestions: paraHits.length,
        suggestionHits: offered.filter(Boolean).length, suggestionQuestions: offered.length });
    }
  }
}

const fmt = (x) => (x === null ? '-' : typeof x === 'number' && !Number.isInteger(x) ? x.toFixed(3) : String(x));

function printRow(label, s) {
  process.stdout.write(`${label.padEnd(28)} answer ${s.answer}/${s.answerable}, passages ${s.passages}, not-found ${s.notFound} (false not-found ${(100 * s.falseNotFoundRate).toFixed(1)} %)`
    + ` | unanswerable without an answer ${s.unansweredUnanswerable}/${s.unanswerable} (not-found ${s.unanswerableNotFound})`
    + ` | Yes/No said ${s.yesNoSaid}, wrong ${s.wrongPolarity}${s.wrongPolarity ? ` [${s.wrongPolarityIds.join(' ')}]` : ''}`
    + ` | F1 of answers ${fmt(s.answerF1)}, over answerable ${fmt(s.allF1)}`
    + ` | without an answer, told a word no document uses: ${s.namedUnmatched} of ${s.withoutAnswer}\n`);
}

async function main() {
  await init();
  const { documents, sets } = loadSets();
  const col = await Collection.create(PRESETS.docChatBm25);
  await col.add(documents);
  const args = process.argv.slice(2);
  if (args.includes('--sweep')) {
    const tuningSets = sets.map((s) => ({ ...s, questions: s.questions.filter((q) => s.split.tuning.includes(q.id)) }));
    const tuning = async (options) => (await runAll(col, tuningSets, { ...PRESETS.docChatAnswer, ...options })).map((x) => ({ ...x.rec, set: x.set }));
    const byMe = new Map();
    for (const me of MIN_EVIDENCE_GRID) {
      byMe.set(me, await tuning({ minEvidence: me }));
      printRow(`tuning minEvidence ${me}`, summarizeOutcomes(byMe.get(me)));
    }
    const { minEvidence, largestClean } = chooseMinEvidence(byMe);
    const byTh = new Map();
    for (const th of THRESHOLD_GRID) {
      byTh.set(th, await tuning({ minEvidence, threshold: th }));
      printRow(`tuning threshold ${th}`, summarizeOutcomes(byTh.get(th).filter((r) => r.set !== 'near-miss')));
      printRow('  near-miss set', summarizeOutcomes(byTh.get(th).filter((r) => r.set === 'near-miss')));
    }
    const threshold = chooseThreshold(byTh);
    process.stdout.write(`chosen on the tuning halves: minEvidence ${minEvidence} (half of ${largestClean}, the largest with no false not-found), threshold ${threshold}\n`);
    col.dispose();
    return;
  }
  const all = await runAll(col, sets, PRESETS.docChatAnswer);
  process.stdout.write(`PRESETS.docChatAnswer: ${JSON.stringify(PRESETS.docChatAnswer)}\n`);
  for (const set of sets) {
    for (const half of ['tuning', 'reporting']) {
      const recs = all.filter((x) => x.set === set.name && x.half === half).map((x) => x.rec);
      if (recs.length === 0) continue;
      printRow(`${set.name} ${half}`, summarizeOutcomes(recs));
      if (set.name === 'own-words') {
        for (const type of [...new Set(recs.map((r) => r.type))].sort()) printRow(`  ${type}`, summarizeOutcomes(recs.filter((r) => r.type === type)));
        printRow('  paraphrased', summarizeOutcomes(recs.filter((r) => r.paraphrased)));
      }
    }
  }
  if (args.includes('--list')) {
    for (const { set, half, rec } of all) {
      process.stdout.write(`${set} ${half} ${rec.id} ${rec.answerable ? 'A' : 'U'} ${rec.outcome} ev ${rec.evidence.toFixed(3)} f1 ${fmt(rec.f1)} gold ${rec.gold ?? '-'} said ${rec.stated ?? '-'} :: ${rec.answer.slice(0, 110)}\n`);
    }
  }
  col.dispose();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
