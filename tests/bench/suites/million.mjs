// Bench suite `million` (issue 18 item 6, "a million chunks in a tab"): a 1,000,000-chunk hybrid
// Collection (BM25 + int8 flat dense, static default model, default fusion) built inside a Chromium
// module Worker from the ~101k passages of tests/bench/lib/big-corpus.mjs repeated with distinct ids and
// varied text (tests/bench/lib/million-corpus.mjs). Reports build time and its parts, peak memory (WASM
// heap; JS memory by performance.measureUserAgentSpecificMemory; RSS of the browser processes from
// /proc), saved size (toBytes, OPFS save), hybrid p50/p95 over 500 queries, then where the ceiling is
// (keeps adding past 1M, toBytes() every 250k, until the first failure / --ceiling / 15 min). Then the
// same run in Node (process.memoryUsage) for comparison.
// Flags: --quick (100k chunks, 200 queries, no ceiling), --target=<chunks>, --ceiling=<chunks> (default
// 4,000,000 full, 0 quick), --ceiling-min=<minutes past the target> (15), --timeout-min=<whole Chromium
// run> (75; 10 quick), --node-ceiling=<chunks> (0), --no-browser, --no-node,
// --save-parts (Chromium: save()'s steps run one by one first, each with an RSS mark), --sample-ms=<ms> (the renderer's
// RSS sampling period, default 1000; save()'s sub-steps are timed by an observer of save.js saveStreaming and each
// gets the max of the samples since the step before: results.chromium.saveSteps). RAGWASM_DIST=<folder> as in the pipeline suite.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Collection, createStaticEmbedder } from '../../../web/src/index.js';
import { wasm } from '../../../web/src/core/module.js';
import { buildBigCorpus } from '../lib/big-corpus.mjs';
import { routeBenchFiles } from '../lib/bench-routes.mjs';
import { runMillion } from '../lib/million-corpus.mjs';

const MB = 1024 * 1024;
const flag = (name) => process.argv.slice(2).find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const has = (name) => process.argv.slice(2).includes(`--${name}`);

// Processes started by this Node process (Chromium and its children): pid -> {rss, hwm, type}.
function descendants() {
  const ppid = new Map();
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      ppid.set(Number(e), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch { /* exited */ }
  }
  const out = new Map();
  const mine = new Set([process.pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, parent] of ppid) if (!mine.has(pid) && mine.has(parent)) { mine.add(pid); grew = true; }
  }
  mine.delete(process.pid);
  for (const pid of mine) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0) * 1024;
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const type = /--type=([a-z-]+)/.exec(cmd)?.[1] ?? (cmd.includes('chrom') ? 'browser' : 'other');
      out.set(pid, { rss: kb('VmRSS'), hwm: kb('VmHWM'), type });
    } catch { /* exited */ }
  }
  return out;
}

// /proc/<pid>/status memory fields in bytes: VmRSS and its split (anonymous, file-backed, shared memory).
function procMemory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile'), shmem: kb('RssShmem'), hwm: kb('VmHWM') };
}

// The renderer's mappings from /proc/<pid>/smaps, grouped: `wasm` = the read-write mapping whose size is
// the WASM heap's (the memory's reserved-but-untouched rest and guard pages are PROT_NONE and hold no
// RSS); then the `top` mappings by RSS (size, RSS, anonymous, permissions, name) and totals by kind.
function smapsSummary(pid, wasmHeap) {
  let text;
  try { text = readFileSync(`/proc/${pid}/smaps`, 'utf8'); } catch { return null; }
  const maps = [];
  let cur = null;
  for (const line of text.split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      cur = { size: Number(BigInt(`0x${head[2]}`) - BigInt(`0x${head[1]}`)), perms: head[3], name: head[4] || '[anon]', rss: 0, anon: 0, shmem: 0 };
      maps.push(cur);
      continue;
    }
    const f = /^(Rss|Anonymous|Shmem_\w+|Shared_\w+):\s+(\d+) kB/.exec(line);
    if (f && cur) {
      const v = Number(f[2]) * 1024;
      if (f[1] === 'Rss') cur.rss = v;
      else if (f[1] === 'Anonymous') cur.anon = v;
    }
  }
  const kinds = {};
  let wasm = null;
  for (const m of maps) {
    let kind;
    if (!wasm && wasmHeap && m.size === wasmHeap && m.perms.startsWith('rw')) { wasm = m; kind = 'wasm heap'; }
    else if (m.name.startsWith('/memfd:') || m.name.startsWith('/dev/shm')) kind = `shared memory ${m.name.split(' ')[0]}`;
    else if (m.name.startsWith('/')) kind = 'files (code, fonts, ICU, …)';
    else if (m.name === '[heap]') kind = '[heap] (malloc brk)';
    else if (m.name === '[anon]') kind = m.size >= 64 * MB ? 'anonymous ≥ 64 MiB mappings' : 'anonymous < 64 MiB mappings';
    else kind = m.name;
    const k = (kinds[kind] ??= { rss: 0, anon: 0, mappings: 0 });
    k.rss += m.rss; k.anon += m.anon; k.mappings++;
  }
  const top = maps.filter((m) => m.rss > 0).sort((a, b) => b.rss - a.rss).slice(0, 12)
    .map((m) => ({ sizeMB: +(m.size / MB).toFixed(1), rssMB: +(m.rss / MB).toFixed(1), anonMB: +(m.anon / MB).toFixed(1), perms: m.perms, name: m.name, wasm: m === wasm }));
  const byKind = Object.fromEntries(Object.entries(kinds).sort((a, b) => b[1].rss - a[1].rss).map(([k, v]) => [k, { rssMB: +(v.rss / MB).toFixed(1), anonMB: +(v.anon / MB).toFixed(1), mappings: v.mappings }]));
  return { wasmMappingRssMB: wasm ? +(wasm.rss / MB).toFixed(1) : null, byKind, top };
}

async function browserRun(base, queries, opts, timeoutMs, sampleMs = 1000) {
  const { chromium } = await import('playwright-core');
  const { startServer } = await import('../../../scripts/serve.mjs');
  const { CHROMIUM_ARGS, repoRoot } = await import('../../browser/harness.mjs');
  if (!existsSync('/usr/bin/chromium')) return { skipped: 'no /usr/bin/chromium' };
  const server = await startServer({ port: 0, quiet: true });
  // ForceEagerMeasureMemory: measureUserAgentSpecificMemory resolves now instead of at the next GC.
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
    args: [...CHROMIUM_ARGS, '--enable-blink-features=ForceEagerMeasureMemory', '--js-flags=--expose-gc'] });
  // rss.phases: per phase of the Worker's run (ended by its mark), the renderer's max RSS sampled every
  // sampleMs (1 s by default) in that phase and the split at its end (anonymous / file / shared memory, smaps by kind).
  const rss = { maxTotal: 0, maxRenderer: 0, hwm: {}, phases: [], timeline: [], sampleMs };
  const t0 = Date.now();
  rss.t0 = t0;
  let phaseMax = { rss: 0 };
  let renderer = null;  // the renderer pid with the largest RSS (the page and its Worker)
  const poll = setInterval(() => {
    let total = 0;
    let big = 0;
    for (const [pid, p] of descendants()) {
      total += p.rss;
      if (p.type === 'renderer') {
        rss.maxRenderer = Math.max(rss.maxRenderer, p.rss);
        if (p.rss > big) { big = p.rss; renderer = pid; }
      }
      rss.hwm[`${p.type}:${pid}`] = Math.max(rss.hwm[`${p.type}:${pid}`] ?? 0, p.hwm);
    }
    rss.maxTotal = Math.max(rss.maxTotal, total);
    if (renderer) {
      try {
        const m = procMemory(renderer);
        if (m.rss > phaseMax.rss) phaseMax = m;
        rss.timeline.push([Date.now() - t0, m.rss, m.anon, m.file, m.shmem].map((x, i) => (i ? +(x / MB).toFixed(0) : x)));
      } catch { /* exited */ }
    }
  }, sampleMs);
  let timer;
  const errors = [];
  // What the Worker reported so far: kept if the tab crashes or times out past the target (the ceiling).
  const live = { measured: null, steps: [], lastProgress: null };
  try {
    const context = await browser.newContext();
    await routeBenchFiles(context, { repoRoot, corpus: base, dirs: ['browser', 'lib'] });
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('crash', () => errors.push('page crashed'));
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(`console ${m.type()}: ${m.text()}`); });
    page.on('worker', (w) => w.on('console', (m) => process.stdout.write(`  worker console: ${m.text()}\n`)));
    await page.exposeFunction('benchMark', (label, wasmHeap, jsBytes) => {
      if (!renderer) return;
      try {
        const now = procMemory(renderer);
        const max = phaseMax.rss > now.rss ? phaseMax : now;
        const mb = (x) => +(x / MB).toFixed(0);
        const entry = { label, atMs: Date.now() - t0, wasmHeapMB: mb(wasmHeap), jsMB: jsBytes == null ? null : mb(jsBytes),
          rssMB: mb(now.rss), anonMB: mb(now.anon), fileMB: mb(now.file), shmemMB: mb(now.shmem),
          phaseMax: { rssMB: mb(max.rss), anonMB: mb(max.anon), fileMB: mb(max.file), shmemMB: mb(max.shmem) }, smaps: smapsSummary(renderer, wasmHeap) };
        rss.phases.push(entry);
        phaseMax = { rss: 0 };
        // up to the end of save() and its after-GC mark: build, queries, save() as an app sees them (the
        // bench's own toBytes() comes after it: its max is its own phase)
        if (label === SAVE_END) live.rssAtSave = { maxTotal: rss.maxTotal, maxRenderer: Math.max(rss.maxRenderer, now.rss) };
        process.stdout.write(`  mark ${label}: renderer RSS ${entry.rssMB} MB (anon ${entry.anonMB}, file ${entry.fileMB}, shmem ${entry.shmemMB}; max in phase ${entry.phaseMax.rssMB}), WASM ${entry.wasmHeapMB}, JS ${entry.jsMB}; wasm mapping RSS ${entry.smaps?.wasmMappingRssMB}\n`);
      } catch { /* exited */ }
    });
    await page.exposeFunction('benchProgress', (m) => {
      if (m.phase === 'measured') { live.measured = m.result; live.rssAtTarget = { maxTotal: rss.maxTotal, maxRenderer: rss.maxRenderer }; return; }
      if (m.phase === 'ceiling-step') live.steps.push(m.step);
      live.lastProgress = m;
      const extra = m.step ? JSON.stringify(m.step) : `${m.done} / ${m.total}, WASM heap ${(m.wasmHeap / MB).toFixed(0)} MB`;
      process.stdout.write(`  chromium ${m.phase}: ${extra}\n`);
    });
    await page.goto(`${server.url}tests/bench/browser/pipeline.html`);
    const run = page.evaluate((o) => new Promise((res) => {
      const jsMem = { supported: typeof performance.measureUserAgentSpecificMemory === 'function' && self.crossOriginIsolated, maxBytes: 0, samples: 0 };
      let stop = false;
      (async () => {
        while (jsMem.supported && !stop) {
          try {
            const m = await performance.measureUserAgentSpecificMemory();
            jsMem.maxBytes = Math.max(jsMem.maxBytes, m.bytes);
            jsMem.samples++;
          } catch (err) { jsMem.error = String(err); break; }
          await new Promise((r) => setTimeout(r, 10000));
        }
      })();
      const w = new Worker('/tests/bench/browser/million-worker.js', { type: 'module' });
      const t0 = performance.now();
      let last = 0;
      const finish = (data) => { stop = true; w.terminate(); res({ ...data, wallMs: performance.now() - t0, jsMemory: jsMem }); };
      w.onmessage = (e) => {
        if (e.data.type === 'measure') {
          // the Worker ran gc() and waits: JS bytes retained at this point (null when not measurable)
          const m = jsMem.supported ? performance.measureUserAgentSpecificMemory().then((x) => x.bytes, () => null) : Promise.resolve(null);
          m.then((bytes) => { (jsMem.settled ??= {})[e.data.label] = bytes; w.postMessage({ type: 'measure-done', bytes }); });
          return;
        }
        if (e.data.type === 'mark') {
          if (e.data.label === o.saveEnd) jsMem.maxBytesAtSave = jsMem.maxBytes;
          // a phase ended: JS bytes now (no GC), then the bench samples the renderer's /proc; the Worker waits
          const m = jsMem.supported ? performance.measureUserAgentSpecificMemory().then((x) => x.bytes, () => null) : Promise.resolve(null);
          m.then((bytes) => self.benchMark(e.data.label, e.data.wasmHeap, bytes)).then(() => w.postMessage({ type: 'mark-done' }));
          return;
        }
        if (e.data.type === 'progress') {
          if (e.data.phase === 'measured') jsMem.maxBytesAtTarget = jsMem.maxBytes;
          document.getElementById('status').textContent = `${e.data.done} / ${e.data.total}`;
          if (!['build', 'ceiling'].includes(e.data.phase) || e.data.done - last >= 100000 || e.data.done === e.data.total) { last = e.data.done ?? last; self.benchProgress(e.data); }
        } else finish(e.data);
      };
      w.onerror = (e) => finish({ type: 'error', message: e.message ?? 'the Worker failed to load (a module script error)' });
      w.postMessage(o);
    }), { corpusUrl: '/tests/bench/browser/corpus.json', modelUrl: '/models/build/static-model.bin', saveEnd: SAVE_END, ...opts });
    const timeout = new Promise((_, rej) => { timer = setTimeout(() => rej(new Error(`timed out after ${timeoutMs / 1000} s`)), timeoutMs); });
    const r = await Promise.race([run, timeout]);
    r.rssAtTarget = live.rssAtTarget;
    r.rssAtSave = live.rssAtSave;
    if (errors.length) r.pageErrors = errors;
    r.userAgent = await page.evaluate(() => navigator.userAgent);
    return r;
  } catch (e) {
    return { type: 'error', message: String(e?.message ?? e), pageErrors: errors, processRss: rss, live };
  } finally {
    clearTimeout(timer);
    clearInterval(poll);
    rssOut.last = rss;
    await Promise.race([browser.close(), new Promise((r) => setTimeout(r, 15000))]).catch(() => {});
    for (const pid of descendants().keys()) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } }
    await server.close();
  }
}
const rssOut = { last: null };

// save()'s sub-steps (the Worker's Collection._saveTrace times, epoch ms) against the renderer's RSS samples:
// each step gets the max RSS (and its anon part) of the samples after the step before, up to it.
function saveSteps(steps, rss) {
  if (!steps?.length || !rss?.timeline?.length) return null;
  const out = [];
  let prev = steps[0].at - rss.t0 - (rss.sampleMs ?? 1000);
  for (const s of steps) {
    const at = s.at - rss.t0;
    const inStep = rss.timeline.filter(([ms]) => ms > prev && ms <= at);
    const top = inStep.reduce((m, x) => (m && m[1] >= x[1] ? m : x), null);
    out.push({ label: s.label, atMs: Math.round(at), stepMs: Math.round(at - prev), wasmHeapMB: Math.round(s.wasmHeap / MB),
      samples: inStep.length, maxRssMB: top?.[1] ?? null, anonAtMaxMB: top?.[2] ?? null, maxAtMs: top?.[0] ?? null });
    prev = at;
  }
  const after = rss.timeline.filter(([ms]) => ms > prev && ms <= prev + 3000);  // the 3 s after the last step
  out.push({ label: '(3 s after)', atMs: Math.round(prev + 3000), samples: after.length, maxRssMB: after.reduce((m, x) => Math.max(m, x[1]), 0) || null });
  return out;
}
const SAVE_END = 'save, after a GC';
// the renderer's max RSS (MB) in the phase of the bench's own toBytes() (result held), or null
const toBytesMax = (br) => br.processRss?.phases?.find((x) => x.label === 'toBytes (result held)')?.phaseMax.rssMB ?? null;  // the mark million-corpus.mjs sets after save() (before the bench's toBytes())

async function nodeRun(base, queries, modelPath, opts) {
  const embedder = await createStaticEmbedder({ model: new Uint8Array(readFileSync(modelPath)) });
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-million-'));
  try {
    const result = await runMillion({
      Collection,
      embedder,
      now: () => performance.now(),
      heapBytes: () => wasm().HEAPU8.length,
      memory: () => { const m = process.memoryUsage(); return { rss: m.rss, heapUsed: m.heapUsed, external: m.external }; },
      progress: (m) => { if (m.phase !== 'measured' && (m.phase !== 'build' || m.done % 100000 < 10000 || m.done === m.total)) process.stdout.write(`  node ${m.phase}: ${m.step ? JSON.stringify(m.step) : `${m.done} / ${m.total}`}\n`); },
      save: async (col) => {
        await col.save('million', { dir });
        return { backend: 'node', storedBytes: statSync(join(dir, 'million')).size };
      },
    }, { base, queries, ...opts });
    return { type: 'done', result };
  } catch (e) {
    return { type: 'error', message: `${e?.code ?? ''} ${e?.stack ?? e}` };
  } finally {
    embedder.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

export default {
  name: 'million',
  description: 'A 1M-chunk hybrid Collection (BM25 + int8 dense) in a Chromium Worker and in Node, and where the ceiling is',
  async run(ctx) {
    const load0 = os.loadavg();
    const target = Number(flag('target') ?? (ctx.quick ? 100_000 : 1_000_000));
    const ceiling = Number(flag('ceiling') ?? (ctx.quick ? 0 : 4_000_000));
    const corpus = buildBigCorpus((rel) => ctx.shared(rel));
    if (corpus.docs.length === 0) {
      const reason = `skipped: no shared data (${corpus.skipped.join('; ')})`;
      process.stdout.write(`${reason}\n`);
      ctx.record('skipped', reason);
      return;
    }
    const modelPath = join(ctx.repoRoot, 'models/build/static-model.bin');
    if (!existsSync(modelPath)) {
      ctx.record('skipped', 'models/build/static-model.bin missing (node scripts/build-assets.mjs)');
      process.stdout.write('skipped: models/build/static-model.bin missing (node scripts/build-assets.mjs)\n');
      return;
    }
    const queries = corpus.queries.slice(0, ctx.quick ? 200 : 500).map((q) => q.text);
    const opts = { target, queries, slice: 10000, batchSize: 1000, k: 10, warmup: 20, saveParts: has('save-parts') };
    ctx.record('setup', { basePassages: corpus.docs.length, baseChars: corpus.chars, skipped: corpus.skipped, target, ceiling, queries: queries.length,
      config: { indexes: { bm25: {}, dense: { storage: 'int8' } } }, loadAverageStart: load0 });

    let br = { skipped: '--no-browser' };
    if (!has('no-browser')) {
      const timeoutMs = Number(flag('timeout-min') ?? (ctx.quick ? 10 : 75)) * 60000;
      br = await browserRun(corpus.docs, queries, { ...opts, ceiling, checkEvery: 250000, ceilingMs: Number(flag('ceiling-min') ?? 15) * 60000 },
        timeoutMs, Number(flag('sample-ms') ?? 1000));
      br.processRss = rssOut.last;
      br.saveSteps = saveSteps((br.result ?? br.live?.measured)?.saved?.steps, br.processRss);
    }
    ctx.record('chromium', br);
    const loadMid = os.loadavg();
    let nr = { skipped: '--no-node' };
    if (!has('no-node')) nr = await nodeRun(corpus.docs, queries, modelPath, { ...opts, ceiling: Number(flag('node-ceiling') ?? 0), checkEvery: 250000 });
    ctx.record('node', nr);
    const load1 = os.loadavg();
    ctx.record('loadAverage', { start: load0, afterChromium: loadMid, end: load1 });

    const f = (x, d = 1) => (typeof x === 'number' ? x.toFixed(d) : String(x ?? ''));
    const rows = [];
    const row = (where, r, mem) => {
      const x = r.result;
      rows.push([where, x.build.chunks, f(x.build.ms / 1000), f(x.build.chunkAndRestMs / 1000), f(x.build.bm25AddMs / 1000), f(x.build.embedMs / 1000), f(x.build.denseAddMs / 1000),
        mem, x.saved.error || x.saved.toBytesError ? `failed: ${x.saved.error ?? ''} ${x.saved.toBytesError ?? ''}` : `${f(x.saved.bytes / MB)} (toBytes ${f(x.saved.toBytesMs / 1000)} s; stored ${f(x.saved.storedBytes / MB)} in ${f(x.saved.saveMs / 1000)} s)`,
        f(x.hybrid.qps, 0), f(x.hybrid.p50, 2), f(x.hybrid.p95, 2)]);
    };
    if (br.type === 'error' && br.live?.measured) br.result = br.live.measured;  // crashed or timed out past the target
    if (br.result) {
      const p = br.result.peakAtSave ?? br.result.peakAtTarget;
      const proc = br.rssAtSave ?? br.rssAtTarget ?? br.processRss;
      const js = br.jsMemory?.maxBytesAtSave ?? br.jsMemory?.maxBytesAtTarget ?? br.jsMemory?.maxBytes;
      row(br.type === 'done' ? 'Chromium Worker' : `Chromium Worker (then: ${br.message})`, br, `WASM heap ${f(p.wasmHeap / MB, 0)}; JS (measureUserAgentSpecificMemory, max) ${br.jsMemory?.supported ? f(js / MB, 0) : 'n/a'}; RSS all processes ${f(proc?.maxTotal / MB, 0)}, renderer ${f(proc?.maxRenderer / MB, 0)} (maxima up to the end of save(); the bench's own toBytes() runs after it${toBytesMax(br) ? `: renderer max ${toBytesMax(br)} MB in that phase` : ''})`);
    } else rows.push(['Chromium Worker', `not run: ${br.skipped ?? br.message}`, '', '', '', '', '', '', '', '', '', '']);
    if (nr.type === 'done') {
      const p = nr.result.peakAtTarget;
      row('Node', nr, `WASM heap ${f(p.wasmHeap / MB, 0)}; JS heapUsed ${f(p.heapUsed / MB, 0)}; RSS ${f(p.rss / MB, 0)}`);
    } else rows.push(['Node', `not run: ${nr.skipped ?? nr.message}`, '', '', '', '', '', '', '', '', '', '']);
    ctx.table(`Hybrid Collection (BM25 + int8 dense, static model), ${target} chunks, k=10, ${queries.length} queries; load average ${load0.map((x) => x.toFixed(1)).join(' / ')} at start, ${load1.map((x) => x.toFixed(1)).join(' / ')} at end`,
      ['where', 'chunks', 'build s', 'chunk+rest s', 'BM25 add s', 'embed s', 'dense add s', 'peak memory MB', 'saved MB', 'q/s', 'p50 ms', 'p95 ms'], rows);
    const c = br.result?.ceiling ?? (br.live?.steps.length ? { steps: br.live.steps, limits: { tab: br.message, lastProgress: br.live.lastProgress }, reached: br.live.lastProgress?.done, stoppedBy: br.message } : null);
    if (c) {
      ctx.table('Chromium: past the target (toBytes() at each step until it first fails)', ['chunks', 'WASM heap MB', 'toBytes'],
        c.steps.map((s) => [s.chunks, f(s.wasmHeap / MB, 0), s.toBytesError ? `failed: ${s.toBytesError}` : s.bytes ? `${f(s.bytes / MB)} MB in ${f(s.toBytesMs / 1000)} s` : '(not tried)']));
      process.stdout.write(`\nceiling: ${c.stoppedBy} at ${c.reached} chunks; limits ${JSON.stringify(c.limits)}\n`);
    }
    const phases = br.processRss?.phases ?? [];
    if (phases.length) {
      ctx.table('Chromium renderer process memory at the end of each phase of the Worker\'s run (MB = 2^20 B; /proc/<pid>/status and smaps; JS = measureUserAgentSpecificMemory, no GC unless named)',
        ['phase ended', 'RSS', 'anon / file / shmem', 'max RSS in phase (1-s samples)', 'WASM heap (its mapping\'s RSS)', 'JS', 'rest of anon (RSS − wasm mapping − file − shmem)'],
        phases.map((x) => [x.label, x.rssMB, `${x.anonMB} / ${x.fileMB} / ${x.shmemMB}`, x.phaseMax.rssMB, `${x.wasmHeapMB} (${x.smaps?.wasmMappingRssMB ?? '?'})`, x.jsMB ?? 'n/a',
          x.smaps?.wasmMappingRssMB == null ? '' : Math.round(x.rssMB - x.smaps.wasmMappingRssMB - x.fileMB - x.shmemMB)]));
    }
    if (br.saveSteps) {
      ctx.table(`Chromium: save()'s sub-steps (save.js observer) and the renderer's RSS sampled every ${br.processRss.sampleMs} ms (MB = 2^20 B; max of the samples since the step before)`,
        ['step ended', 'at s', 'step ms', 'WASM heap', 'samples', 'max RSS', 'anon at max'],
        br.saveSteps.map((x) => [x.label, f(x.atMs / 1000), x.stepMs ?? '', x.wasmHeapMB ?? '', x.samples, x.maxRssMB ?? '', x.anonAtMaxMB ?? '']));
    }
    const kept = br.jsMemory?.settled;
    if (kept) process.stdout.write(`\nChromium JS retained after a GC (page + Worker): after the build ${f(kept.built / MB, 0)} MB, after the save ${f(kept.saved / MB, 0)} MB; WASM heap after the build / queries / toBytes / save: ${['built', 'queried', 'toBytes', 'saved'].map((k) => f(br.result?.heapAt?.[k] / MB, 0)).join(' / ')} MB\n`);
    if (br.result) process.stdout.write(`\nChromium hybrid p95 ${f(br.result.hybrid.p95, 2)} ms: ${br.result.hybrid.p95 < 50 ? 'meets' : 'MISSES'} the < 50 ms goal\n`);
    if (br.result && !ctx.quick) {
      const x = br.result;
      const p = x.peakAtSave ?? x.peakAtTarget;
      const js = br.jsMemory?.supported ? (br.jsMemory.maxBytesAtSave ?? br.jsMemory.maxBytesAtTarget ?? br.jsMemory.maxBytes) : null;
      ctx.speed({
        id: 'million-p95', what: `hybrid Collection of ${ctx.num(x.build.chunks)} chunks (BM25 + int8 dense) in a Chromium Worker, ${queries.length} queries`,
        ragwasm: `p50 ${f(x.hybrid.p50, 1)} ms, p95 ${f(x.hybrid.p95, 1)} ms; build ${f(x.build.ms / 1000)} s; saved ${f(x.saved.bytes / MB, 0)} MB`,
        peer: '', ratio: x.hybrid.p95, ratioText: `p95 ${f(x.hybrid.p95, 1)} ms`, target: { max: 50 }, targetText: '< 50 ms',
      });
      const proc = br.rssAtSave ?? br.rssAtTarget ?? br.processRss;
      if (proc?.maxRenderer) {
        // The goal's measure is the tab as the OS sees it: the renderer process's RSS (max of 1-s
        // samples over the build, the queries and save(), as an app sees them; the bench's own
        // toBytes(), whose 520 MB result is held by its contract, runs after the save and is shown
        // apart). WASM heap + JS heap is shown beside it: it leaves out ArrayBuffer memory waiting for
        // a GC, pages a heap freed but kept, code and Chromium's own memory.
        const heaps = js === null ? null : p.wasmHeap + js;
        const tb = toBytesMax(br);
        ctx.speed({
          id: 'million-memory', what: `memory of that tab at ${ctx.num(x.build.chunks)} chunks (renderer process RSS, max over the build, the queries and save())`,
          ragwasm: `renderer RSS ${f(proc.maxRenderer / MB, 0)} MB${heaps === null ? '' : `; WASM heap ${f(p.wasmHeap / MB, 0)} + JS ${f(js / MB, 0)} = ${f(heaps / MB, 0)} MB`}${tb ? `; the bench's toBytes() after the save, its ${f(x.saved.bytes / MB, 0)} MB result held: ${tb} MB` : ''}`,
          peer: '', ratio: proc.maxRenderer / 2 ** 30, ratioText: `${(proc.maxRenderer / 2 ** 30).toFixed(2)} GiB`,
          target: { max: 2 }, targetText: '< 2 GiB',
        });
      }
    }
  },
};
