// @ts-check
// Experiment summaries (issue 16): per cell means with percentile-bootstrap CIs, recall-vs-cutoff with
// the recommended cutoff, latency percentiles per stage, LLM calls and cost per question, and paired
// tests against the baseline cell — all computed by the metrics module (bootstrapCI,
// randomizationTest, summarize, recommendCutoff); this file only groups the records and formats.
import { anls, bootstrapCI, exactMatch, randomizationTest, recommendCutoff, rougeL, summarize, tokenF1 } from '../metrics/metrics.js';
import { holmAdjust } from './stats.js';
import { failureColumns, failureTable } from './columns.js';
import { expectArray, expectBoolean, expectOptions, expectString, invalid, isArray, isPlainObject } from '../core/validate.js';

const stripMarkers = (s) => s.replace(/\s*\[\d{1,3}\](\s*\[\d{1,3}\])*/g, '').trim();

/**
 * Answer scores of one answer against the reference: token F1, exact match, ANLS, ROUGE-L (SQuAD
 * normalization, citation markers removed; 0 when the answerer abstained on an answerable question)
 * and, for an unanswerable question, whether it abstained.
 * @param {string} text
 * @param {boolean} abstained
 * @param {string|null} reference
 * @param {boolean} answerable
 * @returns {{f1: number|null, em: number|null, anls: number|null, rougeL: number|null, abstainedCorrectly: number|null}}
 */
export function scoreAnswer(text, abstained, reference, answerable) {
  expectString(text, 'text');
  expectBoolean(abstained, 'abstained');
  if (reference !== null) expectString(reference, 'reference');
  expectBoolean(answerable, 'answerable');
  if (!answerable) return { f1: null, em: null, anls: null, rougeL: null, abstainedCorrectly: abstained ? 1 : 0 };
  if (abstained || reference === null) return { f1: reference === null ? null : 0, em: reference === null ? null : 0, anls: reference === null ? null : 0, rougeL: reference === null ? null : 0, abstainedCorrectly: null };
  const p = stripMarkers(text);
  return { f1: tokenF1(p, reference), em: exactMatch(p, reference), anls: anls(p, reference), rougeL: rougeL(p, reference), abstainedCorrectly: null };
}

// Mean with a percentile-bootstrap CI (bootstrapCI of the values against zeros = CI of the mean).
function meanCI(values, ev) {
  if (values.length === 0) return null;
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  if (values.length < 2) return { mean, low: null, high: null, n: values.length };
  const b = bootstrapCI(values, values.map(() => 0), { samples: ev.samples, seed: ev.seed });
  return { mean, low: b.low, high: b.high, n: values.length };
}
const mean = (v) => (v.length ? v.reduce((s, x) => s + x, 0) / v.length : null);
const pick = (records, f) => records.map(f).filter((v) => v !== null && v !== undefined && Number.isFinite(v));

function percentiles(values) {
  if (values.length === 0) return null;
  const s = summarize(values);
  return { p50: s.p50, p90: s.p90, p95: s.p95, mean: s.mean };
}

// The measures compared against the baseline, per question: [name, value of a record or null].
/** @type {[import('./experiment.js').ExperimentComparison['measure'], (record: import('./experiment.js').ExperimentRecord & {_k?: number}) => number|null][]} */
const PAIRED = [
  ['f1', (r) => r.scores?.f1 ?? null],
  ['anls', (r) => r.scores?.anls ?? null],
  ['correctness', (r) => r.scores?.correctness ?? null],
  ['accuracy', (r) => r.scores?.correct ?? null],
  ['recall@k', (r) => (r.retrieval?.recall ? r.retrieval.recall[String(kOf(r))] ?? null : null)],
];
const kOf = (r) => r._k;

function cellSummary(cell, ev) {
  const recs = cell.records.map((r) => ({ ...r, _k: cell.k }));
  const withEv = recs.filter((r) => r.retrieval?.recall);
  const retrieval = withEv.length === 0 ? null : (() => {
    const cutoffs = Object.keys(withEv[0].retrieval.recall).map(Number).sort((a, b) => a - b);
    /** @type {Record<number, number>} */
    const recall = {};
    /** @type {Record<number, number>} */
    const precision = {};
    for (const c of cutoffs) {
      recall[c] = mean(withEv.map((r) => r.retrieval.recall[c] ?? 0));
      precision[c] = mean(withEv.map((r) => r.retrieval.precision[c] ?? 0));
    }
    const len = Math.min(...withEv.map((r) => r.retrieval.curve.length));
    const curve = Array.from({ length: len }, (_, i) => mean(withEv.map((r) => r.retrieval.curve[i])));
    return { questions: withEv.length, recall, precision, mrr: mean(withEv.map((r) => r.retrieval.rr)),
      recallAtK: cell.k > 0 ? meanCI(withEv.map((r) => r.retrieval.recall[cell.k]), ev) : null,
      curve, recommendedCutoff: curve.length ? recommendCutoff(curve, { minGain: ev.minGain }) : null };
  })();
  const withRef = recs.filter((r) => r.answerable && r.retrieval);
  const ranks = pick(withRef, (r) => r.retrieval.refRank);
  const answered = recs.filter((r) => r.scores);
  const ans = answered.filter((r) => r.answerable);
  const unans = answered.filter((r) => !r.answerable);
  const cost = recs.map((r) => r.llm?.cost ?? null);
  const questionsCost = addCosts(cost);
  const indexingCost = cell.indexLlm ? cell.indexLlm.cost : 0;
  return {
    name: cell.name, id: cell.id, kind: cell.kind, answerer: cell.answerer, model: cell.model, prompt: cell.prompt, k: cell.k,
    settings: cell.settings, status: cell.status, error: cell.error, questions: recs.length,
    // LLM calls of the chunker's context steps (chunker.context.llmSummary / llmChunkContext) while this cell built its collection.
    indexLlm: cell.indexLlm ?? null,
    retrieval,
    referenceRank: { found: ranks.length, questions: withRef.length, p50: ranks.length ? summarize(ranks).p50 : null, mean: mean(ranks) },
    answers: answered.length === 0 ? null : {
      answerable: ans.length, unanswerable: unans.length,
      f1: meanCI(pick(ans, (r) => r.scores.f1), ev), em: meanCI(pick(ans, (r) => r.scores.em), ev), anls: meanCI(pick(ans, (r) => r.scores.anls), ev),
      rougeL: meanCI(pick(ans, (r) => r.scores.rougeL), ev),
      correctness: meanCI(pick(ans, (r) => r.scores.correctness), ev), accuracy: meanCI(pick(ans, (r) => r.scores.correct), ev),
      citationPrecision: meanCI(pick(ans, (r) => r.scores.citationPrecision), ev), citationRecall: meanCI(pick(ans, (r) => r.scores.citationRecall), ev),
      // The RAG triad (judges.triad) over every answered question, answerable or not.
      contextRelevance: meanCI(pick(answered, (r) => r.scores.contextRelevance), ev), answerRelevance: meanCI(pick(answered, (r) => r.scores.answerRelevance), ev),
      groundedness: meanCI(pick(answered, (r) => r.scores.groundedness), ev),
      abstainedUnanswerable: meanCI(pick(unans, (r) => r.scores.abstainedCorrectly), ev),
      wrongAbstentions: ans.filter((r) => r.answer?.abstained).length,
    },
    // Answer latency over answered questions, judge latency over judged ones.
    // one entry per listed stage (fromEntries types its keys as string)
    latencyMs: /** @type {import('./experiment.js').ExperimentCellSummary['latencyMs']} */ (Object.fromEntries(['retrieve', 'answer', 'judge', 'total'].map((s) => [s, percentiles(pick(
      recs.filter((r) => (s === 'answer' ? r.answer : s === 'judge' ? r.judge : true)), (r) => r.latencyMs?.[s]))]))),
    llm: {
      callsPerQuestion: recs.length ? mean(recs.map((r) => r.llm?.calls ?? 0)) : 0,
      cachedCalls: recs.reduce((s, r) => s + (r.llm?.cachedCalls ?? 0), 0),
      retries: recs.reduce((s, r) => s + (r.llm?.retries ?? 0), 0),
      costPerQuestion: cost.some((c) => c === null) ? null : (recs.length ? mean(cost) : 0),
      cost: questionsCost,
      // The cell's collection build (LLM context steps; 0 without them or when an earlier cell built the
      // shared collection) and the cell's whole cost: indexing + its questions (answering, judging, LLM rerank).
      indexingCost,
      totalCost: addCosts([indexingCost, questionsCost]),
      // From the cell's own calls (issue 32): every call its questions made (answer, judge, its searches' LLM rerank),
      // sent or served from the cache, at what it cost and took when sent; so they do not depend on cell order.
      // cachedCalls: how many of them the cache answered (order-dependent: shown apart).
      fromCalls: fromCallsSummary(recs),
      // The build of the cell's collection (LLM context steps), whichever cell built it.
      indexFromCalls: cell.indexFromCalls ?? null,
    },
  };
}

function fromCallsSummary(recs) {
  const withCalls = recs.filter((r) => r.llm?.fromCalls);
  if (withCalls.length === 0) return null;
  const f = withCalls.map((r) => r.llm.fromCalls);
  const cost = addCosts(f.map((x) => x.cost));
  return { questions: withCalls.length, calls: f.reduce((a, x) => a + x.calls, 0), cachedCalls: f.reduce((a, x) => a + x.cachedCalls, 0),
    cost, costPerQuestion: cost === null ? null : cost / withCalls.length, latencyMs: percentiles(f.map((x) => x.latencyMs)) };
}

// A cell summary's indexing cost (summaries written before indexingCost existed: from indexLlm).
function indexingCostOf(c) {
  if (c.llm.indexingCost !== undefined) return c.llm.indexingCost;
  return c.indexLlm ? c.indexLlm.cost : 0;
}

// A sum of costs, null (unknown) when any is.
function addCosts(list) {
  return list.some((c) => c === null || c === undefined) ? null : list.reduce((s, c) => s + c, 0);
}

/**
 * Summarizes the records of an experiment: one entry per cell (see docs/experiments.md "Results")
 * and, when a baseline cell is named, paired tests of every other cell against it on token F1,
 * judged correctness and evidence recall@k over the questions both have (randomizationTest: p-value;
 * bootstrapCI: CI of the mean difference).
 * @param {{cells: Array<{name: string, id: string, kind: string, answerer: string, k: number, status: string,
 *   records: object[]}>, baseline?: string|null, evaluation?: object}} run what runExperiment collected
 * @returns {import('./experiment.js').ExperimentSummary}
 * @throws {RagwasmError} INVALID_ARGUMENT (malformed input)
 */
export function summarizeExperiment(run) {
  const o = expectOptions(run, 'run', ['cells', 'baseline', 'pairs', 'evaluation']);
  const cells = expectArray(o.cells, 'run.cells', { maxLength: 100000 });
  cells.forEach((c, i) => {
    if (!isPlainObject(c) || typeof c.name !== 'string' || !isArray(c.records)) throw invalid(`run.cells[${i}]`, 'a cell {name, records, ...}', c);
    expectArray(c.records, `run.cells[${i}].records`, { maxLength: 100000000, item: (r, n) => { if (!isPlainObject(r)) throw invalid(n, 'a record (runExperiment)', r); } });
  });
  if (o.evaluation !== undefined && !isPlainObject(o.evaluation)) throw invalid('run.evaluation', 'an object {samples, trials, seed, minGain}', o.evaluation);
  const ev = { samples: 2000, seed: 42, trials: 2000, minGain: 0.01, ...(o.evaluation ?? {}) };
  const out = cells.map((c) => cellSummary(c, ev));
  const baseline = o.baseline ?? null;
  if (baseline !== null && typeof baseline !== 'string') throw invalid('run.baseline', 'a cell name or null', baseline);
  const byName = new Map(cells.map((c) => [c.name, c]));
  // Pairs (cell, its baseline): given, or every cell against the one named baseline.
  const pairs = o.pairs !== undefined
    ? expectArray(o.pairs, 'run.pairs', { item: (p, n) => { if (!isPlainObject(p) || !byName.has(p.cell) || !byName.has(p.baseline)) throw invalid(n, 'a pair {cell, baseline} of cell names', p); } })
    : baseline !== null && byName.has(baseline) ? cells.filter((c) => c.name !== baseline).map((c) => ({ cell: c.name, baseline })) : [];
  /** @type {import('./experiment.js').ExperimentComparison[]} */
  const comparisons = [];
  {
    const byQ = (c) => new Map(c.records.map((r) => [r.questionId, { ...r, _k: c.k }]));
    for (const pair of pairs) {
      const c = byName.get(pair.cell);
      const b = byQ(byName.get(pair.baseline));
      const a = byQ(c);
      for (const [measure, f] of PAIRED) {
        const x = [];
        const y = [];
        for (const [qid, r] of a) {
          const other = b.get(qid);
          if (!other) continue;
          // recall@k compares each cell at its own k (the cutoff it hands the answerer).
          const va = f(r);
          const vb = f(other);
          if (va === null || vb === null) continue;
          x.push(va);
          y.push(vb);
        }
        if (x.length < 2) continue;
        const t = randomizationTest(x, y, { trials: ev.trials, seed: ev.seed });
        const ci = bootstrapCI(x, y, { samples: ev.samples, seed: ev.seed });
        comparisons.push({ cell: c.name, baseline: pair.baseline, measure, questions: x.length, meanA: mean(x), meanB: mean(y),
          difference: t.meanDifference, low: ci.low, high: ci.high, pValue: t.pValue, pHolm: t.pValue, tests: 1 });  // pHolm, tests: set below
      }
    }
  }
  // Holm's step-down correction over every paired test of this summary (the family of one report).
  holmAdjust(comparisons.map((c) => c.pValue)).forEach((p, i) => { comparisons[i].pHolm = p; comparisons[i].tests = comparisons.length; });
  // 1 − recall@k per cell and its relative reduction against the baseline cell (columns.js; #31)
  const failures = out.some((c) => c.retrieval) ? failureColumns(out, { baseline: baseline !== null && byName.has(baseline) ? baseline : null }) : null;
  return { cells: out, baseline, comparisons, cost: studyCost(out), failures };
}

// The study's LLM cost as one number: indexing (every collection built) + questions (answering, judging,
// LLM rerank) of every cell; each part null (unknown) when a call in it had no price.
function studyCost(cells) {
  const indexing = addCosts(cells.map(indexingCostOf));
  const questions = addCosts(cells.map((c) => c.llm.cost));
  return { indexing, questions, total: addCosts([indexing, questions]) };
}

const fmt = (v, d = 3) => (v === null || v === undefined ? 'n/a' : Number(v).toFixed(d));
const fmtCI = (m, d = 3) => (m === null || m === undefined ? 'n/a' : m.low === null ? fmt(m.mean, d) : `${fmt(m.mean, d)} [${fmt(m.low, d)}, ${fmt(m.high, d)}]`);
const cellEsc = (s) => String(s).replace(/\|/g, '\\|');

/**
 * Markdown tables of a summary (runExperiment / summarizeExperiment): retrieval, answers, latency and
 * cost, and the paired comparisons against the baseline.
 * @param {{cells: object[], comparisons?: object[], baseline?: string|null}} summary
 * @returns {string}
 */
export function experimentMarkdown(summary) {
  const md = ({ title, columns, rows }) => [`### ${title}`, '', `| ${columns.join(' | ')} |`, `|${columns.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map(cellEsc).join(' | ')} |`)].join('\n');
  const { tables, notes } = summaryTables(summary);
  return [...tables.map(md), ...notes.map((n) => `**${n}**`)].join('\n\n') + '\n';
}

/**
 * The tables of a summary as data ({title, columns, rows: string[][]}) plus notes; experimentMarkdown
 * and experimentReportHtml format the same tables.
 * @internal
 */
export function summaryTables(summary) {
  const o = expectOptions(summary, 'summary', ['cells', 'comparisons', 'baseline', 'stopped', 'spent', 'cost', 'failures']);
  const table = (title, columns, rows) => ({ title, columns, rows });
  const cells = expectArray(o.cells, 'summary.cells', { maxLength: 100000, item: (c, n) => {
    if (!isPlainObject(c) || typeof c.name !== 'string' || !isPlainObject(c.latencyMs) || !isPlainObject(c.llm) || !isPlainObject(c.referenceRank)) {
      throw invalid(n, 'a cell summary (runExperiment / summarizeExperiment)', c);
    }
  } });
  if (o.comparisons !== undefined) expectArray(o.comparisons, 'summary.comparisons', { item: (c, n) => { if (!isPlainObject(c)) throw invalid(n, 'a comparison', c); } });
  if (o.stopped !== undefined && o.stopped !== null && !isPlainObject(o.stopped)) throw invalid('summary.stopped', 'null or {reason, cell, question, spent, budget}', o.stopped);
  const cutoffs = [...new Set(cells.flatMap((c) => (c.retrieval ? Object.keys(c.retrieval.recall).map(Number) : [])))].sort((a, b) => a - b);
  const parts = [];
  parts.push(table('retrieval (evidence found in the retrieved chunks; answerable questions with evidence)',
    ['cell', 'k', 'questions', 'recall@k [95% CI]', ...cutoffs.map((c) => `recall@${c}`), 'precision@k', 'MRR', 'recommended cutoff', 'reference doc rank p50 (found)'],
    cells.map((c) => {
      const r = c.retrieval;
      return [c.name, String(c.k), String(r?.questions ?? 0), r ? fmtCI(r.recallAtK) : 'n/a', ...cutoffs.map((k) => (r && r.recall[k] !== undefined ? fmt(r.recall[k]) : 'n/a')),
        r && c.k > 0 ? fmt(r.precision[c.k]) : 'n/a', r ? fmt(r.mrr) : 'n/a', r ? String(r.recommendedCutoff) : 'n/a',
        `${fmt(c.referenceRank.p50, 0)} (${c.referenceRank.found}/${c.referenceRank.questions})`];
    })));
  // The recall-vs-cutoff curve of each cell (mean evidence recall within the top n chunks), the recommended cutoff marked *.
  const curveLen = Math.max(0, ...cells.map((c) => c.retrieval?.curve?.length ?? 0));
  if (curveLen > 0) {
    parts.push(table('recall vs cutoff (evidence recall within the top n chunks; * = recommended cutoff: one more chunk adds less than minGain)',
      ['cell', ...Array.from({ length: curveLen }, (_, i) => `n=${i + 1}`)],
      cells.filter((c) => c.retrieval?.curve?.length).map((c) => [c.name, ...Array.from({ length: curveLen }, (_, i) => {
        const v = c.retrieval.curve[i];
        return v === undefined ? 'n/a' : `${fmt(v)}${c.retrieval.recommendedCutoff === i + 1 ? '*' : ''}`;
      })])));
  }
  if (o.failures) {
    const f = failureTable(o.failures);
    parts.push(table('retrieval failures (1 − recall; relative reduction against the baseline cell)', f.columns, f.rows));
  }
  parts.push(table('answers (answerable questions; an abstention scores 0)',
    ['cell', 'answerer', 'token F1 [95% CI]', 'EM [95% CI]', 'ANLS [95% CI]', 'ROUGE-L [95% CI]', 'correctness [95% CI]', 'accuracy [95% CI]', 'citation P', 'citation R', 'abstained on unanswerable', 'wrong abstentions'],
    cells.map((c) => {
      const a = c.answers;
      if (!a) return [c.name, c.answerer, 'n/a', 'n/a', 'n/a', 'n/a', 'n/a', 'n/a', 'n/a', 'n/a', 'n/a', 'n/a'];
      return [c.name, c.model ? `${c.answerer} (${c.model}${c.prompt && c.prompt !== 'built-in' ? `, ${c.prompt}` : ''})` : c.answerer, fmtCI(a.f1), fmtCI(a.em), fmtCI(a.anls), fmtCI(a.rougeL),
        fmtCI(a.correctness, 1), fmtCI(a.accuracy), fmtCI(a.citationPrecision), fmtCI(a.citationRecall), fmtCI(a.abstainedUnanswerable), `${a.wrongAbstentions}/${a.answerable}`];
    })));
  if (cells.some((c) => c.answers?.contextRelevance || c.answers?.answerRelevance || c.answers?.groundedness)) {
    parts.push(table('RAG triad (LLM judge, 0-1, every answered question; judges.triad)', ['cell', 'context relevance [95% CI]', 'answer relevance [95% CI]', 'groundedness [95% CI]'],
      cells.map((c) => [c.name, ...['contextRelevance', 'answerRelevance', 'groundedness'].map((k) => (c.answers?.[k] ? fmtCI(c.answers[k]) : 'n/a'))])));
  }
  const money = (v) => (v === null ? 'unknown (no price)' : fmt(v, 6));
  const lat = (c, s) => (c.latencyMs[s] ? `${fmt(c.latencyMs[s].p50, 1)} / ${fmt(c.latencyMs[s].p90, 1)} / ${fmt(c.latencyMs[s].p95, 1)}` : 'n/a');
  parts.push(table('latency p50 / p90 / p95 (ms, wall clock of this run: a cache hit takes ~0) and LLM use', ['cell', 'retrieve', 'answer', 'judge', 'total', 'LLM calls / question', 'cached calls', 'retries', 'cost / question', 'status'],
    cells.map((c) => [c.name, lat(c, 'retrieve'), lat(c, 'answer'), lat(c, 'judge'), lat(c, 'total'), fmt(c.llm.callsPerQuestion, 2), String(c.llm.cachedCalls),
      String(c.llm.retries), c.llm.costPerQuestion === null ? 'unknown (no price)' : fmt(c.llm.costPerQuestion, 6), c.status === 'ok' ? 'ok' : `${c.status === 'failed' ? 'FAILED' : c.status}: ${c.error}`])));
  if (cells.some((c) => c.llm.fromCalls || c.llm.indexFromCalls)) {
    const fc = (x) => (x ? [String(x.calls), String(x.cachedCalls), money(x.cost)] : ['0', '0', money(0)]);
    parts.push(table('LLM calls of each cell (its own calls, sent or served from the cache, at the cost and latency they had when sent: independent of cell order; judge and rerank calls count for the cell they serve)',
      ['cell', 'question calls', 'of them cache hits', 'cost', 'cost / question', 'LLM latency / question p50 / p90 / p95 (ms)', 'indexing calls', 'of them cache hits', 'indexing cost'],
      cells.map((c) => {
        const f = c.llm.fromCalls;
        const l = f?.latencyMs;
        return [c.name, ...fc(f), f ? money(f.costPerQuestion) : 'n/a', l ? `${fmt(l.p50, 1)} / ${fmt(l.p90, 1)} / ${fmt(l.p95, 1)}` : 'n/a', ...fc(c.llm.indexFromCalls)];
      })));
  }
  const study = studyCost(cells);
  parts.push(table('LLM cost (indexing: the collection\'s LLM context steps; questions: answering, judging, LLM rerank)', ['cell', 'indexing', 'questions', 'total'],
    [...cells.map((c) => {
      const indexing = indexingCostOf(c);
      return [c.name, money(indexing), money(c.llm.cost), money(addCosts([indexing, c.llm.cost]))];
    }), ['all cells (the study)', money(study.indexing), money(study.questions), money(study.total)]]));
  const comps = o.comparisons ?? [];
  if (comps.length) {
    const single = comps.every((c) => c.baseline === comps[0].baseline);
    parts.push(table(`paired comparison against ${single ? `the baseline "${comps[0].baseline}"` : `each cell's baseline (${o.baseline})`} (randomization test; 95% bootstrap CI of the difference; p raw and Holm-corrected over the ${comps.length} tests of this report)`,
      ['cell', ...(single ? [] : ['baseline']), 'measure', 'questions', 'cell mean', 'baseline mean', 'difference [95% CI]', 'p (raw)', `p (Holm, ${comps.length} tests)`],
      comps.map((c) => [c.cell, ...(single ? [] : [c.baseline]), c.measure, String(c.questions), fmt(c.meanA), fmt(c.meanB), `${fmt(c.difference)} [${fmt(c.low)}, ${fmt(c.high)}]`, fmt(c.pValue, 4),
        fmt(c.pHolm ?? holmAdjust(comps.map((x) => x.pValue))[comps.indexOf(c)], 4)])));
  }
  const notes = [];
  for (const c of cells) {
    if (c.indexLlm) notes.push(`${c.name}: indexing (LLM context steps) made ${c.indexLlm.calls} LLM calls (${c.indexLlm.cachedCalls} cached), cost ${money(c.indexLlm.cost)}; not in the per-question columns, in the LLM cost table's indexing column`);
  }
  if (o.stopped) notes.push(`stopped (${o.stopped.reason}) before cell "${o.stopped.cell}" question ${o.stopped.question}: spent ${fmt(o.stopped.spent, 6)} of ${fmt(o.stopped.budget, 6)}`);
  return { tables: parts, notes };
}
