// Bench suite `jsonl`: Collection JSONL export / import (web/src/pipeline/collection.js) for a hybrid collection
// (default pipeline config: BM25 + static GloVe-100 dense, flat f32) of 10,000 SciFact chunks: export
// with and without vectors (kept vectors, and re-embedded), the JSONL size, and import (vectors from
// the file, or embedded on import). Every import is checked to search like the original.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chunk, Collection, createStaticEmbedder } from '../../../web/src/index.js';

const CHUNKS = 10_000;

export default {
  name: 'jsonl',
  description: 'Collection exportJsonl / importJsonl: 10k SciFact chunks, hybrid (BM25 + static dense)',
  async run(ctx) {
    const corpus = ctx.shared('data/scifact/corpus.jsonl');
    const modelPath = join(ctx.repoRoot, 'models/build/static-model.bin');
    if (!corpus || !existsSync(modelPath)) {
      const reason = `skipped: needs ../shared/data/scifact/corpus.jsonl and ${modelPath}`;
      process.stdout.write(`${reason}\n`);
      ctx.record('skipped', reason);
      return;
    }
    const target = ctx.quick ? 2_000 : CHUNKS;
    const embedder = await createStaticEmbedder({ model: readFileSync(modelPath) });
    const docs = [];
    let chunks = 0;
    for (const line of readFileSync(corpus, 'utf8').split('\n')) {
      if (chunks >= target || line.trim() === '') continue;
      const d = JSON.parse(line);
      const doc = { id: String(d._id), text: `${d.title}\n${d.text}`, metadata: { title: d.title } };
      const n = chunk(doc, { chunkSize: 1000, chunkOverlap: 200 }).length;  // the default config's chunker
      if (chunks + n > target) continue;
      docs.push(doc);
      chunks += n;
    }
    const build = async (keepVectors) => {
      const col = await Collection.create({}, { embedder, keepVectors });
      await col.add(docs);
      return col;
    };
    let t = performance.now();
    const kept = await build(true);
    const buildMs = performance.now() - t;
    const lean = await build(false);
    const bytes = (s) => Buffer.byteLength(s, 'utf8');
    const reps = ctx.quick ? 3 : 5;
    const results = {};
    let withVectors = '';
    let without = '';
    results.exportKept = await ctx.time(async () => { withVectors = await kept.exportJsonl({ vectors: true }); }, { warmup: 1, reps });
    results.exportReembed = await ctx.time(async () => { await lean.exportJsonl({ vectors: true }); }, { warmup: 1, reps });
    results.exportNoVectors = await ctx.time(async () => { without = await kept.exportJsonl(); }, { warmup: 1, reps });
    results.exportLines = await ctx.time(async () => { let n = 0; for await (const l of kept.exportJsonlLines({ vectors: true })) n += l.length; return n; }, { warmup: 1, reps });
    results.importVectors = await ctx.time(async () => { (await Collection.importJsonl(withVectors, { embedder })).dispose(); }, { warmup: 1, reps });
    results.importEmbed = await ctx.time(async () => { (await Collection.importJsonl(without, { embedder })).dispose(); }, { warmup: 1, reps });
    // correctness guard: the imported collection searches like the original (ids and scores)
    const again = await Collection.importJsonl(withVectors, { embedder });
    for (const q of ['smoking and lung cancer', 'vitamin D', 'gene expression in tumours']) {
      const a = JSON.stringify(await kept.search(q, { k: 10 }));
      if (JSON.stringify(await again.search(q, { k: 10 })) !== a) throw new Error(`imported collection searches differently for "${q}"`);
    }
    if (await again.exportJsonl({ vectors: true }) !== withVectors) throw new Error('re-export of the imported collection differs');
    again.dispose();
    const saved = kept.toBytes().length;
    const info = { documents: docs.length, chunks: kept.chunks.size, dimension: kept.dimension, buildMs, jsonlBytesVectors: bytes(withVectors), jsonlBytesNoVectors: bytes(without), savedBytes: saved };
    ctx.record('collection', info);
    for (const [k, v] of Object.entries(results)) ctx.record(k, { medianMs: v.median, p95Ms: v.p95, samples: v.samples });
    ctx.table('Collection', ['documents', 'chunks', 'dimension', 'build (add) ms', 'JSONL with vectors (MB)', 'JSONL without (MB)', 'toBytes (MB)'],
      [[docs.length, info.chunks, info.dimension, buildMs, info.jsonlBytesVectors / 1e6, info.jsonlBytesNoVectors / 1e6, saved / 1e6]]);
    const label = {
      exportKept: 'exportJsonl({vectors: true}), kept vectors', exportReembed: 'exportJsonl({vectors: true}), re-embedded',
      exportNoVectors: 'exportJsonl() without vectors', exportLines: 'exportJsonlLines({vectors: true}) iterated',
      importVectors: 'importJsonl, vectors in the file', importEmbed: 'importJsonl, embedded on import',
    };
    ctx.table(`Export / import (median of ${reps} after 1 warm-up)`, ['operation', 'median ms', 'p95 ms', 'chunks/s'],
      Object.entries(results).map(([k, v]) => [label[k], v.median, v.p95, info.chunks / (v.median / 1000)]));
    ctx.speed({
      id: 'jsonl-import', what: `Collection JSONL import with vectors, ${ctx.num(info.chunks)} chunks (no re-embedding)`,
      ragwasm: `${ctx.num(results.importVectors.median)} ms`, peer: `building the same with \`add()\` ${ctx.num(buildMs)} ms`,
      ratio: buildMs / results.importVectors.median, ratioText: `${(buildMs / results.importVectors.median).toFixed(1)}× faster than re-indexing`,
    });
    kept.dispose();
    lean.dispose();
    embedder.dispose();
  },
};
