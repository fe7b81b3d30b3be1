// Issue 27, offline tier: BM25 query expansion from the static model's word neighbours, measured on
// the two doc-chat question sets (examples/corpus/questions.jsonl + split.json, and the own-words set
// examples/corpus/own-words.jsonl + own-words-split.json written apart from the first), per half, per
// question type and paraphrased vs not: evidence hit@1 / hit@5 / MRR@10 of ask()'s hits for BM25 only
// (PRESETS.docChatBm25), BM25 + expansion, and the static-model hybrid. The expansion parameters are
// chosen on the TUNING halves of both sets only (chooseExpansion); both halves are reported.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ask, PRESETS } from '../../../web/src/index.js';
import { metrics } from '../../../web/src/eval.js';

/** The grid the expansion parameters are chosen from (tuning halves only). Earlier = simpler on a tie. */
export const EXPANSION_GRID = (() => {
  const g = [];
  for (const unmatchedOnly of [false, true]) {
    for (const perTerm of [1, 2, 3]) {
      for (const minSimilarity of [0.75, 0.7, 0.65, 0.6, 0.55]) {
        for (const weight of [0.2, 0.3, 0.5, 0.7, 1]) g.push({ unmatchedOnly, perTerm, minSimilarity, weight });
      }
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

// The hybrid that was PRESETS.docChat before issue 27 (BM25 + the static model's dense leg, safe
// hybrid fusion with the leg check): PRESETS.docChatHybrid, the comparison row.
const HYBRID = PRESETS.docChatHybrid;

function withExpansion(config, params) {
  return { ...config, retrieval: { ...config.retrieval, expansion: { source: 'static', ...params } } };
}

/**
 * The expansion section of `npm run bench -- docchat`: chooses the parameters on the tuning halves,
 * then reports BM25 only, BM25 + expansion and the hybrid on both sets, both halves, per group.
 * @param {object} ctx the bench context
 * @param {object[]} documents examples/corpus documents
 * @returns {Promise<{params: object}>} the chosen parameters
 */
export async function expansionStudy(ctx, documents) {
  const { Collection } = await import('../../../web/src/index.js');
  const sets = questionSets(ctx.repoRoot);
  if (sets.length < 2) process.stdout.write('\n(own-words set not found: examples/corpus/own-words.jsonl or $RAGWASM_OWN_WORDS_DIR; first set only)\n');
  const allQs = sets.flatMap((s) => s.questions);
  const tuningQs = sets.flatMap((s) => s.questions.filter((q) => s.halves.tuning.has(q.id)));
  const base = PRESETS.docChatBm25;

  const col = await Collection.create(base);
  await col.add(documents);
  const grid = await chooseExpansion(sets, async (params) => {
    const c = await Collection.create(withExpansion(base, params));
    await c.add(documents);
    const r = await evidenceRanks(c, tuningQs);
    c.dispose();
    return r;
  });
  col.dispose();
  const noExp = await (async () => {
    const c = await Collection.create(base);
    await c.add(documents);
    const r = await evidenceRanks(c, tuningQs);
    c.dispose();
    return r;
  })();
  const tuningIds = tuningQs.map((q) => q.id);
  const paraIds = tuningQs.filter((q) => q.paraphrased === true).map((q) => q.id);
  const b0 = rankSummary(noExp, tuningIds), p0 = rankSummary(noExp, paraIds);
  const sorted = [...grid.rows].sort((a, b) => b.all.mrr10 - a.all.mrr10 || (b.para.hit5 ?? 0) - (a.para.hit5 ?? 0));
  ctx.table(`Expansion parameters on the TUNING halves of ${sets.map((s) => s.name).join(' + ')} (${b0.n} questions with evidence, ${p0.n} paraphrased): the 12 best of ${grid.rows.length} by MRR@10, then paraphrased hit@5`,
    ['unmatchedOnly', 'perTerm', 'minSimilarity', 'weight', 'hit@1', 'hit@5', 'MRR@10', 'paraphrased hit@5', 'paraphrased MRR@10'],
    [['(none: BM25 only)', '', '', '', b0.hit1, b0.hit5, b0.mrr10, p0.hit5, p0.mrr10],
      ...sorted.slice(0, 12).map((r) => [String(r.params.unmatchedOnly), r.params.perTerm, r.params.minSimilarity, r.params.weight, r.all.hit1, r.all.hit5, r.all.mrr10, r.para.hit5, r.para.mrr10])]);
  const params = grid.best.params;
  const preset = PRESETS.docChatExpansion.retrieval.expansion;
  const same = Object.entries(params).every(([k, v]) => preset[k] === v);
  process.stdout.write(`\nPRESETS.docChatExpansion ${same ? 'holds these parameters' : `differs: ${JSON.stringify(preset)} (update web/src/pipeline/presets.js)`}\n`);
  process.stdout.write(`\nexpansion chosen on the tuning halves: unmatchedOnly ${params.unmatchedOnly}, perTerm ${params.perTerm}, minSimilarity ${params.minSimilarity}, weight ${params.weight}\n`);

  const configs = [
    { name: 'BM25 only', config: base },
    { name: 'BM25 + expansion', config: withExpansion(base, params) },
    { name: 'hybrid + static model', config: HYBRID },
  ];
  const ranks = [];
  for (const c of configs) {
    const colc = await Collection.create(c.config);
    await colc.add(documents);
    ranks.push(await evidenceRanks(colc, allQs));
    colc.dispose();
  }
  const rows = [];
  for (const s of sets) {
    for (const half of ['tuning', 'reporting']) {
      for (const [group, ids] of groups(s.questions, s.halves[half])) {
        const row = [s.name, half, group, ids.length];
        for (const r of ranks) {
          const x = rankSummary(r, ids);
          row.push(x.hit1, x.hit5, x.mrr10);
        }
        rows.push(row);
      }
    }
  }
  ctx.table('Evidence retrieval through ask() (k 10, PRESETS.docChatAnswer options): BM25 only (PRESETS.docChatBm25) | BM25 + expansion (chosen above) | hybrid + static model (docChatHybrid, docChat before #27)',
    ['set', 'half', 'questions', 'n', ...configs.flatMap((c) => [`${c.name} hit@1`, 'hit@5', 'MRR@10'])], rows);
  ctx.record('expansion', { chosen: params, grid: grid.rows.map((r) => ({ ...r.params, tuning: r.all, tuningParaphrased: r.para })), rows });
  return { params };
}
