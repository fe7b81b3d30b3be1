// Bench suite `tokenizer`: WordPiece tokenization speed of ragwasm (C++ in WASM, through the JS API:
// UTF-8 packing and the boundary crossing included) vs transformers.js's tokenizer in the same Node
// process, on SciFact documents ("title text"), plus the native build and the static embedder.
import { readFileSync, rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createStaticEmbedder, Tokenizer } from '../../../web/src/index.js';
import { loadTransformers, makeTokenizerFolder, readScifact } from '../../js/embed-fixtures.mjs';

export default {
  name: 'tokenizer',
  description: 'WordPiece tokens/s: ragwasm WASM vs transformers.js (same process) vs native; static embedder texts/s',
  async run(ctx) {
    const tokPath = ctx.shared('models/bert-base-uncased/tokenizer.json');
    const corpus = ctx.shared('data/scifact/corpus.jsonl');
    if (!tokPath || !corpus) {
      ctx.table('Tokenizer', ['status'], [['skipped: ../shared models/bert-base-uncased or data/scifact missing']]);
      return;
    }
    const { docs } = readScifact(corpus.replace(/corpus\.jsonl$/, ''));
    const texts = docs.map((d) => `${d.title} ${d.text}`).slice(0, ctx.quick ? 500 : docs.length);
    const bytes = texts.reduce((a, t) => a + Buffer.byteLength(t), 0);
    const reps = ctx.quick ? 3 : 5;
    const ours = Tokenizer.fromTokenizerJson(readFileSync(tokPath));
    const { root, name } = makeTokenizerFolder(tokPath);
    const tf = await loadTransformers(root);
    const ref = await tf.AutoTokenizer.from_pretrained(name);

    // The machine may be shared: runs of ragwasm and transformers.js alternate, so that load changes
    // hit both sides alike, and the speed-up is the ratio of medians.
    let tokens = 0;
    const batches = [];
    for (let i = 0; i < texts.length; i += 32) batches.push(texts.slice(i, i + 32));
    const runs = {
      oursAll: () => { tokens = ours.encodeBatch(texts, { padding: 'none', truncation: false, maxLength: 65536 }).inputIds.length; },
      refAll: () => { for (const t of texts) ref.encode(t); },
      // The embedder path: batches of 32, padded to the longest row, truncated to 512.
      oursPadded: () => { for (const b of batches) ours.encodeBatch(b, { maxLength: 512 }); },
      refPadded: () => { for (const b of batches) ref(b, { padding: true, truncation: true, max_length: 512 }); },
    };
    const samples = Object.fromEntries(Object.keys(runs).map((k) => [k, []]));
    for (const f of Object.values(runs)) f();  // warm-up
    for (let r = 0; r < reps; r++) {
      for (const [k, f] of Object.entries(runs)) {
        const t0 = performance.now();
        f();
        samples[k].push(performance.now() - t0);
      }
    }
    const { oursAll, refAll, oursPadded, refPadded } = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, ctx.stats(v)]));
    const native = ctx.native('bench_embed', [tokPath, corpus]);
    const tps = (ms) => tokens / (ms / 1000);
    const rows = [
      ['ragwasm WASM, one batch, no padding', oursAll.median, tps(oursAll.median), bytes / 1e6 / (oursAll.median / 1000), refAll.median / oursAll.median],
      ['transformers.js encode() per text', refAll.median, tps(refAll.median), bytes / 1e6 / (refAll.median / 1000), 1],
      ['ragwasm WASM, batches of 32, padded, max 512', oursPadded.median, '', bytes / 1e6 / (oursPadded.median / 1000), refPadded.median / oursPadded.median],
      ['transformers.js tokenizer(batch of 32, padding, truncation)', refPadded.median, '', bytes / 1e6 / (refPadded.median / 1000), 1],
      ['native (bench_embed)', native ? native.median_ms : 'not built', native ? native.tokens_per_s : '', native ? native.mb_per_s : '', native ? refAll.median / native.median_ms : ''],
    ];
    ctx.table(`WordPiece on ${texts.length} SciFact documents (${(bytes / 1e6).toFixed(2)} MB, ${tokens} tokens)`,
      ['tokenizer', 'median ms', 'tokens/s', 'MB/s', 'speed-up vs transformers.js'], rows);
    ctx.record('tokenizer', {
      texts: texts.length, bytes, tokens,
      ragwasm: { medianMs: oursAll.median, p95Ms: oursAll.p95 }, transformersjs: { medianMs: refAll.median, p95Ms: refAll.p95 },
      speedup: refAll.median / oursAll.median,
      padded32: { ragwasmMs: oursPadded.median, transformersjsMs: refPadded.median, speedup: refPadded.median / oursPadded.median },
      native,
    });
    ctx.speed({
      id: 'tokenizer', what: `WordPiece tokenizer, ${texts.length} SciFact documents (${ctx.num(tokens)} tokens)`,
      ragwasm: `${ctx.num(oursAll.median)} ms`, peer: `transformers.js ${ctx.num(refAll.median)} ms`,
      ratio: refAll.median / oursAll.median,
      ratioText: `${(refAll.median / oursAll.median).toFixed(1)}× (${(refPadded.median / oursPadded.median).toFixed(1)}× batched + padded)`,
      target: { min: 10 }, targetText: '≥ 10×',
    });
    ours.dispose();
    rmSync(root, { recursive: true, force: true });

    const model = ctx.shared('../main/models/build/static-model.bin') ?? `${ctx.repoRoot}/models/build/static-model.bin`;
    let staticRow;
    try {
      const s = await createStaticEmbedder({ model: readFileSync(model) });
      const st = await ctx.time(() => s.embedSync(texts), { warmup: 1, reps });
      staticRow = [texts.length, st.median, texts.length / (st.median / 1000), bytes / 1e6 / (st.median / 1000)];
      ctx.record('static', { texts: texts.length, medianMs: st.median, textsPerS: texts.length / (st.median / 1000) });
      s.dispose();
    } catch (e) {
      staticRow = [`skipped: ${e.message} (node models/build-static-model.mjs)`, '', '', ''];
    }
    ctx.table('Static embedder (GloVe 100-d, SIF, WASM)', ['texts', 'median ms', 'texts/s', 'MB/s'], [staticRow]);
  },
};
