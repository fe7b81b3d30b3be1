// Bench suite `eval`: trec_eval-exact evaluation of 10,000 queries x 1,000 results with every
// measure (all_trec + ndcg_exp, 79 values per query) through the JS API, beside the native twin.
// Scores are random with 3 decimals (ties occur and are re-sorted as trec_eval does); 20 graded
// judgments per query, about half of them inside the run. Same generator as bench_metrics.cpp.
import { metrics } from '../../../web/src/eval.js';

function lcg(seed) {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s; };
}

function build(queries, depth) {
  const next = lcg(12345);
  const run = metrics.Run.create({ runId: 'synthetic' });
  const qrelLines = [];
  const ids = new Array(depth);
  const scores = new Float64Array(depth);
  for (let q = 0; q < queries; q++) {
    const qid = `q${q}`;
    const base = next() % 1000000;
    for (let i = 0; i < depth; i++) {
      ids[i] = `d${base + i * 7}`;
      scores[i] = Math.trunc((next() / 4294967296) * 1000) / 1000;
    }
    run.addQuery(qid, ids, scores);
    const seen = new Set();
    for (let j = 0; j < 20; j++) {
      const pos = next() % (depth * 2);
      const rel = next() % 4;
      const doc = `d${base + pos * 7}`;
      if (seen.has(doc)) continue; // the native twin skips the duplicate judgment too
      seen.add(doc);
      qrelLines.push(`${qid} 0 ${doc} ${rel}`);
    }
  }
  const qrels = metrics.Qrels.parse(qrelLines.join('\n'), { format: 'trec' });
  return { run, qrels };
}

export default {
  name: 'eval',
  description: 'trec_eval-exact evaluation, 10,000 queries x 1,000 results, all measures: WASM (JS API) vs native',
  async run(ctx) {
    const queries = ctx.quick ? 1000 : 10000;
    const depth = 1000;
    const b0 = performance.now();
    const { run, qrels } = build(queries, depth);
    const buildMs = performance.now() - b0;
    const measures = ['all_trec', 'ndcg_exp', 'ndcg_exp_cut'];
    let result;
    // CPU time (process.cpuUsage) beside wall time: on a shared, loaded machine wall time overstates.
    const cpu = [];
    const t = await ctx.time(() => {
      const c0 = process.cpuUsage();
      result = metrics.evaluateRun(qrels, run, { measures });
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
    }, { warmup: 1, reps: ctx.quick ? 3 : 7 });
    cpu.sort((a, b) => a - b);
    const cpuMedian = cpu[cpu.length >> 1];
    const native = ctx.native('bench_metrics', [String(queries), String(depth)]);
    run.dispose();
    qrels.dispose();
    ctx.record('evaluate', {
      queries, depth, measures: result.measures.length, buildMs, wasm: { medianMs: t.median, p95Ms: t.p95, cpuMedianMs: cpuMedian }, native,
      map: result.aggregate.map,
    });
    ctx.speed({
      id: 'eval', what: `${ctx.num(queries)} queries × ${ctx.num(depth)} results, all ${result.measures.length} trec_eval measures, WASM via the JS API`,
      ragwasm: `${ctx.num(cpuMedian)} ms CPU (${ctx.num(t.median)} ms wall)`, peer: '', ratio: cpuMedian, ratioText: `${ctx.num(cpuMedian)} ms CPU`,
      target: { max: 1000 }, targetText: '< 1 s (CPU)',
    });
    ctx.table('trec_eval-exact evaluation (all measures)', ['queries x depth', 'measures', 'build run+qrels ms (JS API)', 'evaluate ms WASM median', 'p95', 'WASM CPU ms median', 'native ms median', 'native CPU ms', 'MAP WASM', 'MAP native'],
      [[`${queries} x ${depth}`, result.measures.length, buildMs, t.median, t.p95, cpuMedian, native ? native.median_ms : 'not built', native ? native.cpu_median_ms : '', result.aggregate.map, native ? native.map : '']]);
  },
};
