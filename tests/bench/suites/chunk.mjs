// Bench suite `chunk`: chunking MB/s per strategy through the JS API (UTF-16 -> UTF-8 encoding, the
// WASM call and slicing the chunk texts included) vs LangChain.js RecursiveCharacterTextSplitter and
// MarkdownTextSplitter on the same inputs in the same process, with the ratio; native numbers beside.
// Each config is timed wall-clock and in process CPU time (process.cpuUsage), because on a shared
// machine wall-clock includes time spent waiting for a core: samples of at least 25 ms (a pass looped),
// ours and LangChain.js taking turns in every repetition (measureTogether).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RecursiveCharacterTextSplitter, MarkdownTextSplitter } from '@langchain/textsplitters';
import { chunk, chunkTexts } from '../../../web/src/index.js';

// Markdown docs: every .md file (recursively); SEC filings: the .txt filings only (not README.md).
function listFiles(dir, ext) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...listFiles(p, ext));
    else if (e.name.endsWith(ext)) out.push(p);
  }
  return out.sort();
}

// Per-pass wall and CPU ms of several functions, measured together: each function's passes are
// repeated in a loop long enough for a sample of at least SAMPLE_MS (a 1 ms pass alone is below what
// process.cpuUsage() can tell apart from a GC helper thread's work left over from the previous pass),
// and the functions take turns in every repetition, so a change in the machine's load hits them alike.
// Wall and CPU time come from the same samples; the medians are returned.
const SAMPLE_MS = 25;
async function measureTogether(ctx, fns, reps) {
  const loops = [];
  for (const fn of fns) {
    await fn();  // warm-up, then calibrate the loop count on a second pass
    const t0 = performance.now();
    await fn();
    loops.push(Math.max(1, Math.ceil(SAMPLE_MS / Math.max(0.01, performance.now() - t0))));
  }
  const wall = fns.map(() => []);
  const cpu = fns.map(() => []);
  for (let r = 0; r < reps; r++) {
    for (let f = 0; f < fns.length; f++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      for (let i = 0; i < loops[f]; i++) await fns[f]();
      const ms = performance.now() - t0;
      const c = process.cpuUsage(c0);
      wall[f].push(ms / loops[f]);
      cpu[f].push((c.user + c.system) / 1000 / loops[f]);
    }
  }
  return fns.map((_, f) => ({ wallMs: ctx.stats(wall[f]).median, cpuMs: ctx.stats(cpu[f]).median, loops: loops[f] }));
}

const CONFIGS = [
  { label: 'recursive 1800/300', options: { strategy: 'recursive', chunkSize: 1800, chunkOverlap: 300 }, peer: RecursiveCharacterTextSplitter },
  { label: 'recursive 512/64', options: { strategy: 'recursive', chunkSize: 512, chunkOverlap: 64 }, peer: RecursiveCharacterTextSplitter },
  { label: 'recursive 200/0', options: { strategy: 'recursive', chunkSize: 200, chunkOverlap: 0 }, peer: RecursiveCharacterTextSplitter },
  { label: 'markdown 1800/300', options: { strategy: 'markdown', chunkSize: 1800, chunkOverlap: 300 }, peer: MarkdownTextSplitter },
  { label: 'markdown 512/64', options: { strategy: 'markdown', chunkSize: 512, chunkOverlap: 64 }, peer: MarkdownTextSplitter },
  { label: 'markdown 200/0', options: { strategy: 'markdown', chunkSize: 200, chunkOverlap: 0 }, peer: MarkdownTextSplitter },
  { label: 'fixed 1000/200', options: { strategy: 'fixed', chunkSize: 1000, chunkOverlap: 200 } },
  { label: 'markdown-header 2000', options: { strategy: 'markdown-header', chunkSize: 2000, chunkOverlap: 0 } },
  { label: 'sentence 1000', options: { strategy: 'sentence', chunkSize: 1000 } },
];

export default {
  name: 'chunk',
  description: 'chunking MB/s per strategy via the JS API vs LangChain.js (same process) and native',
  async run(ctx) {
    const reps = ctx.quick ? 3 : 9;
    const vsPeer = [];   // [corpus + config, texts ratio, chunk() ratio] of every configuration with a LangChain.js peer
    for (const [corpus, rel, ext] of [['markdown-docs', 'data/markdown-docs', '.md'], ['sec-filings text', 'data/sec-filings/text', '.txt']]) {
      const dir = ctx.shared(rel);
      if (!dir) {
        ctx.table(`Chunking: ${corpus}`, ['config', 'status'], [['all', 'skipped: ../shared missing']]);
        continue;
      }
      const files = listFiles(dir, ext);
      const texts = files.map((f) => readFileSync(f, 'utf8'));
      const docs = texts.map((text, i) => ({ id: `d${i}`, text }));
      const mb = texts.reduce((a, t) => a + Buffer.byteLength(t), 0) / 1e6;
      const native = ctx.native('bench_chunk', files);
      const rows = [];
      for (const c of CONFIGS) {
        let count = 0;
        const fns = [
          () => { count = 0; for (const t of texts) count += chunkTexts(t, c.options).length; },
          () => { for (const d of docs) chunk(d, c.options); },
        ];
        if (c.peer) {
          const splitter = new c.peer({ chunkSize: c.options.chunkSize, chunkOverlap: c.options.chunkOverlap });
          fns.push(async () => { for (const t of texts) await splitter.splitText(t); });
        }
        const [ours, objects, peer = null] = await measureTogether(ctx, fns, reps);
        const n = native && native.results ? native.results[c.label] : null;
        const r = {
          chunks: count,
          oursTexts: { wallMBs: mb / (ours.wallMs / 1000), cpuMBs: mb / (ours.cpuMs / 1000) },
          oursChunkObjects: { wallMBs: mb / (objects.wallMs / 1000), cpuMBs: mb / (objects.cpuMs / 1000) },
          langchain: peer ? { wallMBs: mb / (peer.wallMs / 1000), cpuMBs: mb / (peer.cpuMs / 1000) } : null,
          native: n ? { wallMBs: n.mb_per_s, cpuMBs: n.cpu_mb_per_s } : null,
        };
        r.ratioWall = peer ? peer.wallMs / ours.wallMs : null;
        r.ratioCpu = peer ? peer.cpuMs / ours.cpuMs : null;
        r.ratioCpuChunkObjects = peer ? peer.cpuMs / objects.cpuMs : null;
        ctx.record(`${corpus} ${c.label}`, { mb, files: files.length, ...r });
        if (peer) vsPeer.push([`${corpus} ${c.label}`, r.ratioCpu, r.ratioCpuChunkObjects]);
        const f = (x) => (x === null ? '—' : x);
        rows.push([c.label, count, r.oursTexts.cpuMBs, r.oursChunkObjects.cpuMBs, peer ? r.langchain.cpuMBs : '—',
          f(r.ratioCpu && `${r.ratioCpu.toFixed(1)}x`), f(r.ratioCpuChunkObjects && `${r.ratioCpuChunkObjects.toFixed(1)}x`),
          f(r.ratioWall && `${r.ratioWall.toFixed(1)}x`), n ? n.cpu_mb_per_s : 'not built']);
      }
      ctx.table(`Chunking ${corpus} (${files.length} files, ${mb.toFixed(2)} MB; MB/s in CPU time)`,
        ['config', 'chunks', 'ours chunkTexts', 'ours chunk()', 'LangChain.js', 'ratio texts', 'ratio chunk()', 'ratio (wall)', 'native'], rows);
    }
    if (vsPeer.length) {
      for (const [col, label] of [[1, '`chunkTexts` (texts)'], [2, '`chunk()` (full chunk objects)']]) {
        const sorted = [...vsPeer].sort((a, b) => a[col] - b[col]);
        const worst = sorted[0];
        const below = sorted.filter((x) => x[col] < 5).map((x) => `${x[0]} ${x[col].toFixed(1)}×`);
        ctx.speed({
          id: `chunk-${col === 1 ? 'texts' : 'objects'}`,
          what: `recursive/markdown chunking ${label}, ${vsPeer.length} configurations, CPU time`,
          ragwasm: `${ctx.num(sorted.length - below.length)} of ${vsPeer.length} ≥ 5×`, peer: 'LangChain.js',
          ratio: worst[col], ratioText: `${worst[col].toFixed(1)}–${sorted[sorted.length - 1][col].toFixed(1)}×`,
          target: { min: 5 }, targetText: '≥ 5× on all (worst shown)', note: below.length ? `below 5×: ${below.join(', ')}` : '',
        });
      }
    }
  },
};
