// Bench suite `search-features` (issue 29): typo-tolerant and type-ahead queries on Bm25Index against
// MiniSearch 7.2 on the same chunks: SciFact's texts cut into 12-word chunks (up to 100,000; 20,000 with
// --quick), queried with the first 50 (30) SciFact test queries with one typo each (two letters of the longest word swapped).
// Per library: build time, and the median / p95 per-query latency of exact, fuzzy 0.2, prefix (every
// term) and prefix + fuzzy searches at top-10 (MiniSearch returns every match; we take its first 10).
// The point: an expanded query stays within a few times an exact one (the dictionary scans in C++).
import { Bm25Index } from '../../../web/src/index.js';
import { loadBeir } from '../../../web/cli/datasets.mjs';

function chunks(corpus, max) {
  const out = [];
  for (const d of corpus) {
    const words = `${d.title} ${d.text}`.split(/\s+/).filter(Boolean);
    for (let i = 0; i < words.length && out.length < max; i += 12) out.push({ id: `${d.id}:${i / 12}`, text: words.slice(i, i + 12).join(' ') });
    if (out.length >= max) break;
  }
  return out;
}

// one typo: two adjacent letters of the query's longest word swapped (deterministic)
function typo(q) {
  const words = q.split(/\s+/);
  let at = 0;
  words.forEach((w, i) => { if (w.length > words[at].length) at = i; });
  const w = words[at];
  if (w.length >= 4) words[at] = w.slice(0, 1) + w[2] + w[1] + w.slice(3);
  return words.join(' ');
}

function latency(fn, queries, reps) {
  for (const q of queries.slice(0, 5)) fn(q);  // warm-up
  const samples = [];
  for (let r = 0; r < reps; r++) {
    for (const q of queries) {
      const t0 = performance.now();
      fn(q);
      samples.push(performance.now() - t0);
    }
  }
  samples.sort((a, b) => a - b);
  return { p50: samples[Math.floor(samples.length / 2)], p95: samples[Math.floor(samples.length * 0.95)] };
}

export default {
  name: 'search-features',
  description: 'prefix / fuzzy / AND search: Bm25Index vs MiniSearch on up to 100k SciFact chunks',
  async run(ctx) {
    const file = ctx.shared('data/scifact/corpus.jsonl');
    if (!file) {
      ctx.table('search-features', ['result'], [['skipped: ../shared/data/scifact missing']]);
      return;
    }
    const ds = loadBeir(file.replace(/\/corpus\.jsonl$/, ''));
    const docs = chunks(ds.corpus, ctx.quick ? 20000 : 100000);
    const queries = ds.queries.slice(0, ctx.quick ? 30 : 50).map((q) => typo(q.text));  // MiniSearch's prefix mode takes seconds per query at 100k
    const reps = 1;
    const progress = (msg) => process.stderr.write(`[search-features] ${msg}\n`);
    const MiniSearch = (await import('minisearch')).default;
    const modes = [
      ['exact', {}],
      ['fuzzy 0.2', { fuzzy: 0.2 }],
      ['prefix', { prefix: true }],
      ['prefix + fuzzy 0.2', { prefix: true, fuzzy: 0.2 }],
      ['fuzzy 0.2, AND', { fuzzy: 0.2, combineWith: 'AND' }],
    ];
    progress(`ragwasm: ${docs.length} chunks`);
    let t0 = performance.now();
    const idx = Bm25Index.create({ fields: ['text'] });
    idx.add(docs);
    const ourBuild = performance.now() - t0;
    const ours = {};
    for (const [name, o] of modes) { ours[name] = latency((q) => idx.search(q, { ...o, k: 10 }), queries, reps); progress(`ragwasm ${name}: p50 ${ours[name].p50.toFixed(3)} ms`); }
    const terms = idx.stats().terms;
    idx.dispose();
    progress('MiniSearch');
    t0 = performance.now();
    const ms = new MiniSearch({ fields: ['text'], idField: 'id' });
    ms.addAll(docs);
    const theirBuild = performance.now() - t0;
    const theirs = {};
    for (const [name, o] of modes) { theirs[name] = latency((q) => ms.search(q, o).slice(0, 10), queries, reps); progress(`MiniSearch ${name}: p50 ${theirs[name].p50.toFixed(3)} ms`); }
    const rows = modes.map(([name]) => [name,
      ctx.num(ours[name].p50, 3), ctx.num(ours[name].p95, 3), ctx.num(ours[name].p50 / ours.exact.p50, 1),
      ctx.num(theirs[name].p50, 3), ctx.num(theirs[name].p95, 3), ctx.num(theirs[name].p50 / theirs.exact.p50, 1),
      ctx.num(theirs[name].p50 / ours[name].p50, 1)]);
    ctx.table(`Search-box queries, ${docs.length.toLocaleString('en-US')} chunks (${terms.toLocaleString('en-US')} terms), ${queries.length} typo'd SciFact queries, top-10, ms per query`,
      ['mode', 'ragwasm p50', 'ragwasm p95', '× exact', 'MiniSearch p50', 'MiniSearch p95', '× exact', 'MiniSearch / ragwasm'], rows);
    ctx.table('Build', ['library', 'ms'], [['ragwasm Bm25Index', ctx.num(ourBuild)], ['MiniSearch', ctx.num(theirBuild)]]);
    ctx.record('searchFeatures', { chunks: docs.length, terms, queries: queries.length, ours, theirs, build: { ragwasm: ourBuild, minisearch: theirBuild } });
  },
};
