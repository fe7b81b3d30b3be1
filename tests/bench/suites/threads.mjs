// The optional WASM-threads flat scan against the Worker pool, in headless Chromium (issue #18 item 1,
// docs/parallel.md "WASM threads"). Opt-in: `bash scripts/build.sh wasm-threads` first, then
// `npm run bench -- threads [--rounds N] [--quick]`. Without the build (or without /usr/bin/chromium) the
// suite records `skipped` with the reason and prints how to build it.
// The page (127.0.0.1, COOP + COEP: crossOriginIsolated is checked) holds the same 1M x 100 f32 vectors
// (200k with --quick) in: the threads module in a Worker (1 thread; 2 threads on static halves; 2 threads
// taking 16,384-row ranges from a shared counter) and ShardedVectorIndex with 1 Worker and 2 Workers.
// Every mode's hits (ids, scores) must equal the 1-thread module's on every query before anything is timed.
// Rounds (default 5): each mode runs `reps` batches of 16 queries, the modes alternating batch by batch;
// a round's ratio is paired (1 thread / 2 threads of that round); rows show the median round and min-max.
// Beside the wall time, the scan time inside (the slowest thread or shard) and the other processes'
// CPU per round (/proc/stat minus this process and its children: the browser), so the machine's load is on the same rows.
import os from 'node:os';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { median } from '../../../scripts/speed-table.mjs';
import { machineBusyMs, treeCpuMs } from '../lib/thread-cpu.mjs';

const BUILD = 'build/wasm-threads/threads/scan_threads.js';

const mm = (a) => `${median(a).toFixed(2)}× (${Math.min(...a).toFixed(2)}–${Math.max(...a).toFixed(2)})`;

export default {
  name: 'threads',
  description: 'optional WASM-threads flat scan (pthreads, shared memory) vs the Worker pool, 1M x 100 f32, in Chromium (opt-in; needs scripts/build.sh wasm-threads)',
  async run(ctx) {
    if (!existsSync(join(ctx.repoRoot, BUILD))) {
      process.stdout.write(`\nskipped: ${BUILD} is missing; build it with \`bash scripts/build.sh wasm-threads\`\n`);
      ctx.record('skipped', `${BUILD} missing (bash scripts/build.sh wasm-threads)`);
      return;
    }
    if (!existsSync('/usr/bin/chromium')) {
      ctx.record('skipped', 'no /usr/bin/chromium');
      return;
    }
    const { chromium } = await import('playwright-core');
    const { startServer } = await import('../../../scripts/serve.mjs');
    const { CHROMIUM_ARGS } = await import('../../browser/harness.mjs');
    const n = ctx.quick ? 200_000 : 1_000_000;
    const opts = { n, dim: 100, k: 10, batch: 16, batches: 16, rounds: ctx.rounds, reps: ctx.quick ? 2 : 4, chunk: 16_384 };
    const server = await startServer({ port: 0, quiet: true, extraAllowed: ['/tests/bench/threads/', '/build/wasm-threads/threads/'] });
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
    const marks = [];
    let result;
    try {
      const page = await browser.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
      page.on('crash', () => errors.push('page crashed'));
      await page.exposeFunction('benchProgress', (t) => process.stderr.write(`[threads] ${t}; load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}\n`));
      await page.exposeFunction('benchRound', (r, what) => {
        marks.push({ r, what, at: performance.now(), busy: machineBusyMs(), browser: treeCpuMs(process.pid), load: os.loadavg()[0] });
      });
      await page.goto(`${server.url}tests/bench/threads/page.html`);
      result = await page.evaluate(async (o) => (await import('/tests/bench/threads/page.mjs')).run(o), opts).catch((e) => {
        throw new Error(`${e.message}${errors.length ? `\npage errors: ${errors.join('\n')}` : ''}`);
      });
    } finally {
      await browser.close();
      await server.close();
    }
    // per round: the other processes' CPU in cores (machine busy minus this process and the browser under it)
    const others = [];
    for (let r = 0; r < result.rounds.length; r++) {
      const a = marks.find((m) => m.r === r && m.what === 'start');
      const b = marks.find((m) => m.r === r && m.what === 'end');
      others.push(a && b && a.busy !== null && b.busy !== null ? Math.max(0, (b.busy - a.busy) - (b.browser - a.browser)) / (b.at - a.at) : null);
    }
    const R = result.rounds;
    const col = (name, key) => median(R.map((x) => x[name][key]));
    const paired = (a, b, key = 'ms') => R.map((x) => x[a][key] / x[b][key]);
    const gbps = (ms) => (n * 112 * 4) / (ms * 1e6);  // stored bytes (rows padded to 112 floats) read per query
    const rows = result.modes.map((m) => [m.label, col(m.name, 'ms'), `${Math.min(...R.map((x) => x[m.name].ms)).toFixed(2)}–${Math.max(...R.map((x) => x[m.name].ms)).toFixed(2)}`,
      col(m.name, 'insideMs'), col(m.name, 'insideMinMs'), gbps(col(m.name, 'ms')).toFixed(1)]);
    ctx.table(`Flat scan ${n / 1e6}M × 100 f32, top-10, batches of 16 queries, headless Chromium (crossOriginIsolated ${result.isolated}), ms/query: median of ${R.length} rounds (${opts.reps} batches per mode per round, modes interleaved)`,
      ['mode', 'ms/query (median round)', 'min–max of rounds', 'inside: slowest thread/shard', 'inside: fastest', 'GB/s'], rows);
    const ratios = {
      't2 vs t1': paired('t1', 't2'), 't2d vs t1': paired('t1', 't2d'), 'w2 vs w1': paired('w1', 'w2'),
      't2 vs w2': paired('w2', 't2'), 't2d vs w2': paired('w2', 't2d'), 't1 vs w1': paired('w1', 't1'),
    };
    const labels = {
      't2 vs t1': '2 threads (static) vs 1 thread', 't2d vs t1': '2 threads (dynamic) vs 1 thread', 'w2 vs w1': '2 Workers vs 1 Worker (the pool)',
      't2 vs w2': '2 threads (static) vs 2 Workers: > 1 = threads faster', 't2d vs w2': '2 threads (dynamic) vs 2 Workers: > 1 = threads faster',
      't1 vs w1': '1 thread vs 1 Worker: > 1 = threads module faster',
    };
    ctx.table(`Paired ratios per round (median, min–max over ${R.length} rounds); other processes ${others.map((x) => (x === null ? '-' : x.toFixed(2))).join(' / ')} cores per round; load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`,
      ['ratio', 'median (min–max)', 'per round'], Object.entries(ratios).map(([k, v]) => [labels[k], mm(v), v.map((x) => x.toFixed(2)).join(' ')]));
    // the same ratios over the quiet rounds only (other processes < QUIET cores), when there are any: on
    // this shared VM the others' load moves within seconds, and a round they crowd measures their share
    const QUIET = 0.25;
    const quiet = others.map((x, r) => (x !== null && x < QUIET ? r : -1)).filter((r) => r >= 0);
    if (quiet.length) {
      ctx.table(`Paired ratios over the ${quiet.length} quiet rounds (other processes < ${QUIET} cores: rounds ${quiet.map((r) => r + 1).join(', ')})`,
        ['ratio', 'median (min–max)', 'per quiet round'], Object.entries(ratios).map(([k, v]) => { const q = quiet.map((r) => v[r]); return [labels[k], mm(q), q.map((x) => x.toFixed(2)).join(' ')]; }));
      ctx.table('ms/query in the quiet rounds (median)', ['mode', 'ms/query', 'inside: slowest thread/shard', 'inside: fastest'],
        result.modes.map((m) => [m.label, median(quiet.map((r) => R[r][m.name].ms)), median(quiet.map((r) => R[r][m.name].insideMs)), median(quiet.map((r) => R[r][m.name].insideMinMs))]));
    }
    ctx.record('threads', { ...result, opts, ratios, othersCores: others, quietRounds: quiet, marks, load: os.loadavg() });
  },
};
