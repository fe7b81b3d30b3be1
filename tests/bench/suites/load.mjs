// Bench suite `load`: Collection.fromBytes of a BM25-only SciFact collection (5,183 documents, default
// chunking). Loading checks the saved header against the BM25 section (#30 F-2: every chunk's texts
// analyzed and compared with the terms the index holds for it), so this row shows what that check costs
// next to Bm25Index.fromBytes of the same section alone. Times are milliseconds, median of 3 (1 with --quick).
import { performance } from 'node:perf_hooks';
import { Bm25Index, Collection } from '../../../web/src/index.js';
import { checkSavedCollection } from '../../../web/src/pipeline/saved-check.js';
import { loadBeir } from '../../../web/cli/datasets.mjs';

export default {
  name: 'load',
  description: 'Collection.fromBytes of a BM25-only SciFact collection (header checks included)',
  async run(ctx) {
    const file = ctx.shared('data/scifact/corpus.jsonl');
    if (!file) {
      ctx.table('load', ['result'], [['skipped: ../shared/data/scifact missing']]);
      return;
    }
    const ds = loadBeir(file.replace(/\/corpus\.jsonl$/, ''));
    const col = await Collection.create({ indexes: { bm25: {} } });
    const t0 = performance.now();
    const { chunks } = await col.add(ds.corpus.map((d) => ({ id: d.id, title: d.title, text: d.text })));
    const buildMs = performance.now() - t0;
    const bytes = col.toBytes();
    const sectionBytes = col.bm25.toBytes();
    col.dispose();
    const reps = ctx.quick ? 1 : 3;
    const load = await ctx.time(() => {
      Collection.fromBytes(bytes).dispose();
    }, { warmup: 0, reps });
    const bm25 = await ctx.time(() => Bm25Index.fromBytes(sectionBytes).dispose(), { warmup: 0, reps });
    // the F-2/F-4 check alone, on the loaded collection's own header and index (what fromBytes runs)
    const loaded = Collection.fromBytes(bytes);
    const corrupt = (why) => new Error(why);
    const check = await ctx.time(() => checkSavedCollection(loaded.docs, loaded.bm25, loaded.bm25.fields, corrupt), { warmup: 0, reps });
    loaded.dispose();
    const f = (s) => `${ctx.num(s.median, 0)} (${s.samples.map((x) => ctx.num(x, 0)).join(', ')})`;
    ctx.table(`SciFact BM25-only Collection: ${ds.corpus.length} documents, ${chunks} chunks, ${ctx.num(bytes.length / 2 ** 20, 1)} MiB saved (built in ${ctx.num(buildMs, 0)} ms)`,
      ['load', 'ms, median (runs)'],
      [['Collection.fromBytes (header checks included)', f(load)], ['Bm25Index.fromBytes of its BM25 section', f(bm25)],
        ['the header checks alone (checkSavedCollection, #30 F-2 and F-4)', f(check)]]);
    ctx.record('scifact', { documents: ds.corpus.length, chunks, savedBytes: bytes.length, buildMs, fromBytes: load, bm25FromBytes: bm25, headerCheck: check });
  },
};
