// Issue 27, offline tier: BM25 query expansion from the static model's word neighbours, measured on
// the two doc-chat question sets (examples/corpus/questions.jsonl + split.json, and the own-words set
// examples/corpus/own-words.jsonl + own-words-split.json written apart from the first), per half, per
// question type and paraphrased vs not: evidence hit@1 / hit@5 / MRR@10 of ask()'s hits for BM25 only
// (PRESETS.docChatBm25), BM25 + expansion, and the static-model hybrid. The expansion parameters are
// chosen on the TUNING halves of both sets only (chooseExpansion); both halves are reported.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ask, metrics, PRESETS } from '../../../web/src/index.js';

/** The grid the expansion parameters are chosen from (tuning halves only). Earlier = simpler on a tie. */
export const EXPANSION_GRID = (() => {
  const g = [];
  for (const perTerm of [1, 2, 3]) {
    for (const minSimilarity of [0.75, 0.7, 0.65, 0.6, 0.55]) {
      for (const weight of [0.2, 0.3, 0.4, 0.5]) g.push({ perTerm, minSimilarity, weight });
    }
  }
  return g;
})();

function readJsonl(path) {
  return readFileSync(path, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}

/**
 * The question sets: the first (questions.jsonl, split.json) and, when present, the own-words set
 * (own-words.jsonl, own-words-split.json) from examples/corpus or $RAGWASM_OWN_WORDS_DIR.
 * @returns {Array<{name: string, questions: object[], halves: {tuning: Set<string>, reporting: Set<string>}}>}
 */
export function questionSets(root) {
  const dir = join(root, 'examples/corpus');
  const sets = [];
  const split = JSON.parse(readFileSync(join(dir, 'split.json'), 'utf8'));
  sets.push({ name: 'first set', questions: readJsonl(join(dir, 'questions.jsonl')), halves: { tuning: new Set(split.tuning), reporting: new Set(split.reporting) } });
  const ownDir = [process.env.RAGWASM_OWN_WORDS_DIR, dir].find((d) => d && existsSync(join(d, 'own-words.jsonl')) && existsSync(join(d, 'own-words-split.json')));
  if (ownDir) {
    const s = JSON.parse(readFileSync(join(ownDir, 'own-words-split.json'), 'utf8'));
    sets.push({ name: 'own-words set', questions: readJsonl(join(ownDir, 'own-words.jsonl')), halves: { tuning: new Set(s.tuning), reporting: new Set(s.reporting) } });
  }
  return sets;
}

/** Evidence rank of each answerable question with evidence (null = not in the top 10), through ask(). */
export async function evidenceRanks(collection, questions) {
  const { threshold, ...answerOptions } = PRESETS.docChatAnswer;
  const out = new Map();
  for (const q of questions) {
    if (!q.answerable || !q.evidence?.length) continue;
    const r = await ask(collection, q.question, { ...answerOptions, threshold });
    const [pq] = metrics.evaluateEvidence([{ evidence: q.evidence.map((text) => ({ text })), chunks: r.hits.slice(0, 10).map((h) => ({ text: h.text })) }],
      { cutoffs: [1], maxK: 10 }).perQuestion;
    const first = pq.relevant.indexOf(true);
    out.set(q.id, first >= 0 ? first : null);
  }
  return out;
}

/** hit@1, hit@5, MRR@10 over the ranks of `ids` (those with a rank). */
export function rankSummary(ranks, ids) {
  const rs = ids.filter((id) => ranks.has(id)).map((id) => ranks.get(id));
  const n = rs.length;
  if (n === 0) return { n: 0, hit1: null, hit5: null, mrr10: null };
  return {
    n,
    hit1: rs.filter((r) => r === 0).length / n,
    hit5: rs.filter((r) => r !== null && r < 5).length / n,
    mrr10: rs.reduce((s, r) => s + (r !== null && r < 10 ? 1 / (r + 1) : 0), 0) / n,
  };
}

/** The groups a table reports: all, paraphrased, not paraphrased, then each question type. */
export function groups(questions, ids) {
  const qs = questions.filter((q) => ids.has(q.id) && q.answerable && q.evidence?.length);
  const out = [['all', qs], ['paraphrased', qs.filter((q) => q.paraphrased === true)], ['not paraphrased', qs.filter((q) => q.paraphrased !== true)]];
  const types = [...new Set(qs.map((q) => q.type))].sort();
  for (const t of types) out.push([`type ${t}`, qs.filter((q) => q.type === t)]);
  return out.filter(([, g]) => g.length > 0).map(([name, g]) => [name, g.map((q) => q.id)]);
}

/**
 * Chooses the expansion parameters on the tuning halves: the highest MRR@10 over the tuning
 * questions of every set together, then hit@5 on their paraphrased questions, then the earlier grid
 * row. `rankOf(params)` returns a Map id -> rank over every question of every set.
 */
export async function chooseExpansion(sets, rankOf, grid = EXPANSION_GRID) {
  const tuningIds = sets.flatMap((s) => [...s.halves.tuning]);
  const paraIds = sets.flatMap((s) => s.questions.filter((q) => s.halves.tuning.has(q.id) && q.paraphrased === true).map((q) => q.id));
  const rows = [];
  for (const params of grid) {
    const ranks = await rankOf(params);
    const all = rankSummary(ranks, tuningIds);
    const para = rankSummary(ranks, paraIds);
    rows.push({ params, all, para });
  }
  let best = rows[0];
  for (const r of rows) {
    if (r.all.mrr10 > best.all.mrr10 + 1e-12 || (Math.abs(r.all.mrr10 - best.all.mrr10) <= 1e-12 && (r.para.hit5 ?? 0) > (best.para.hit5 ?? 0) + 1e-12)) best = r;
  }
  return { rows, best };
}
