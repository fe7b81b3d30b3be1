// Bench suite `limits`: the super-linear answer metrics on long texts (issue #19). anls, rougeL and
// sentenceBleu on two seeded random texts of 10 kB and 100 kB, and a 100 kB rambling answer against a
// short reference (ANLS's length bound answers at once). Over the documented alignment limit
// (docs/limits.md) the call is LIMIT_EXCEEDED, timed too.
import { metrics } from '../../../web/src/eval.js';

// Seeded words w0..w499: two texts of n bytes that share vocabulary but not order.
function text(n, seed) {
  let s = seed >>> 0;
  const words = [];
  let len = 0;
  while (len < n) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const w = `w${(s >>> 8) % 500}`;
    words.push(w);
    len += w.length + 1;
  }
  return words.join(' ').slice(0, n);
}

function outcome(f) {
  try {
    const v = f();
    return typeof v === 'number' ? v.toFixed(4) : 'ok';
  } catch (e) {
    return e.code ?? String(e);
  }
}

export default {
  name: 'limits',
  description: 'anls / rougeL / sentenceBleu on 10 kB and 100 kB texts (bounded or LIMIT_EXCEEDED)',
  async run(ctx) {
    const rows = [];
    const cases = [];
    for (const n of [10000, 100000]) {
      const a = text(n, 1);
      const b = text(n, 2);
      cases.push([`anls ${n / 1000} kB`, () => metrics.anls(a, [b])]);
      cases.push([`rougeL ${n / 1000} kB`, () => metrics.rougeL(a, [b])]);
      cases.push([`sentenceBleu ${n / 1000} kB`, () => metrics.sentenceBleu(a, [b])]);
    }
    const ramble = text(100000, 3);
    cases.push(['anls 100 kB answer vs 37-char reference', () => metrics.anls(ramble, ['The warranty lasts two years in full.'])]);
    cases.push(['rougeL 100 kB answer vs 37-char reference', () => metrics.rougeL(ramble, ['The warranty lasts two years in full.'])]);
    for (const [label, f] of cases) {
      const result = outcome(f);
      const t = await ctx.time(() => outcome(f), { warmup: 1, reps: ctx.quick ? 3 : 5 });
      rows.push([label, t.median, t.p95, result]);
      ctx.record(label, { medianMs: t.median, p95Ms: t.p95, result });
    }
    ctx.table('Answer metrics on long texts', ['case', 'median ms', 'p95 ms', 'result'], rows);
  },
};
