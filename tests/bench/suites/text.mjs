// Bench suite `text`: sentence splitting throughput through the JS API (UTF-16 -> UTF-8 encoding and
// the boundary crossing included) beside the native build, on the shared markdown docs and SEC texts.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SentenceSplitter } from '../../../web/src/index.js';

function listFiles(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...listFiles(p));
    else if (/\.(md|txt)$/.test(e.name) && !/^(LICENSE|COPYRIGHT|README)/.test(e.name)) out.push(p);
  }
  return out.sort();
}

export default {
  name: 'text',
  description: 'sentence splitting MB/s, WASM via the JS API vs native',
  async run(ctx) {
    const rows = [];
    for (const [label, rel] of [['markdown-docs', 'data/markdown-docs'], ['sec-filings text', 'data/sec-filings/text']]) {
      const dir = ctx.shared(rel);
      if (!dir) {
        rows.push([label, 'skipped: ../shared missing', '', '', '']);
        continue;
      }
      const files = listFiles(dir);
      const texts = files.map((f) => readFileSync(f, 'utf8'));
      const bytes = texts.reduce((a, t) => a + Buffer.byteLength(t), 0);
      const splitter = SentenceSplitter.create();
      let count = 0;
      const t = await ctx.time(() => { count = 0; for (const x of texts) count += splitter.split(x).length; }, { warmup: 3, reps: ctx.quick ? 3 : 11 });
      splitter.dispose();
      const native = ctx.native('bench_text', files);
      const wasmMBs = bytes / 1e6 / (t.median / 1000);
      rows.push([label, (bytes / 1e6).toFixed(2), wasmMBs, native ? native.mb_per_s : 'not built', count]);
      ctx.record(label, { bytes, files: files.length, wasm: { medianMs: t.median, p95Ms: t.p95, mbPerS: wasmMBs }, native, sentences: count });
    }
    ctx.table('Sentence splitting', ['corpus', 'MB', 'WASM MB/s (JS API)', 'native MB/s', 'sentences'], rows);
  },
};
