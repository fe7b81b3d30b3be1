#!/usr/bin/env node
// Hostile-argument harness (issue #19): every entry point discovered from the package's exports ×
// every argument position × the catalogue in values.mjs, each call run in a worker thread with a
// time limit and V8 heap limits, followed by a known-good canary call. Outcomes: ok, RagwasmError
// (by code), rethrown (the hostile value's own exception, passed through unchanged), non-RagwasmError
// error, NaN/Infinity in the result, abort (canary failed: module dead), hang (time limit), crash
// (worker exited). Failing outcomes: non-ragwasm, nan, abort, hang, crash (unless listed in
// expected.mjs as owned by another branch).
//
//   node tests/js/hostile/run.mjs            full catalogue (npm run fuzz)
//   node tests/js/hostile/run.mjs --quick [--seed=19] [--per-position=4]   seeded subset (what npm test runs)
//   options: --entry=<substring> --timeout-ms=<n> --workers=<n>
//   then the hostile files (files.mjs, issue #33): every family x command (quick: one seeded command per
//   family); --files-only, --no-files, --family=<substring>; then the PostgreSQL families (postgres.mjs,
//   issue #30; quick: one case per family); --no-postgres skips them. The last lines are the SUMMARY.
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOSTILE_VALUES } from './values.mjs';
import { discoverEntries, loadApi } from './entries.mjs';
import { knownFailure } from './expected.mjs';
import { seededRandom } from '../helpers.mjs';
import { FILE_FAILING, formatFileTable, runFileFamilies } from './files.mjs';

/** Hostile values per argument position in the seeded subset (npm test, the browser test). */
export const QUICK_PER_POSITION = 4;

export const FAILING = new Set(['non-ragwasm', 'internal', 'nan', 'abort', 'hang', 'crash']);

/** The calls to make: full = every (entry, position, value); quick = `perPosition` seeded values per position. */
export function planCalls(entries, { full = false, seed = 19, perPosition = QUICK_PER_POSITION, entryFilter } = {}) {
  const values = HOSTILE_VALUES.filter((v) => full || !v.full);
  const rand = seededRandom(seed);
  const calls = [];
  for (const e of entries) {
    if (entryFilter && !e.id.includes(entryFilter)) continue;
    for (let p = 0; p < e.arity; p++) {
      let chosen = values;
      if (!full) {
        const pool = values.slice();
        chosen = [];
        for (let k = 0; k < perPosition && pool.length > 0; k++) chosen.push(pool.splice(Math.floor(rand() * pool.length), 1)[0]);
      }
      for (const v of chosen) calls.push({ key: calls.length, entry: e.id, position: p, value: v.name });
    }
  }
  return calls;
}

/** Runs `calls` in worker threads; resolves to one result row per call. */
export async function runCalls(calls, { timeoutMs = 20000, workers = 1, heapMb = 768, log = () => {} } = {}) {
  const results = new Array(calls.length);
  const queue = calls.slice();
  let abortedLines = 0;
  const workerUrl = new URL('./worker.mjs', import.meta.url);

  async function lane() {
    while (queue.length > 0) {
      const batch = queue.splice(0, Math.min(queue.length, 200));
      await new Promise((resolveBatch) => {
        let current = null;
        let timer = null;
        let settled = false;
        const w = new Worker(workerUrl, {
          workerData: { calls: batch, asyncLimitMs: timeoutMs },
          resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 64, stackSizeMb: 4 },
          stdout: true,
          stderr: true,
        });
        // A WASM abort prints "Aborted(...)" (thousands of times when its handler recurses): count, don't echo.
        w.stderr.on('data', (d) => { abortedLines += (String(d).match(/Aborted\(/g) ?? []).length; });
        w.stdout.on('data', () => {});
        const requeueRest = () => {
          const rest = batch.filter((c) => results[c.key] === undefined);
          queue.unshift(...rest);
        };
        const finish = () => { if (!settled) { settled = true; clearTimeout(timer); resolveBatch(); } };
        w.on('message', (m) => {
          if (m.type === 'start') {
            current = m.key;
            clearTimeout(timer);
            timer = setTimeout(() => {
              results[current] = { ...calls[current], outcome: 'hang', detail: `no answer within ${timeoutMs} ms` };
              log(`hang: ${calls[current].entry} arg ${calls[current].position} = ${calls[current].value}`);
              current = null;
              w.terminate();
            }, timeoutMs + 5000); // the worker's own async limit fires first for promises
          } else if (m.type === 'done') {
            clearTimeout(timer);
            results[m.key] = { ...calls[m.key], outcome: m.outcome, code: m.code, detail: m.detail };
            current = null;
          } else if (m.type === 'finished') {
            finish();
            w.terminate(); // a call may have left timers or handles behind
          }
        });
        w.on('error', (err) => {
          if (current !== null && results[current] === undefined) {
            results[current] = { ...calls[current], outcome: 'crash', detail: `${err?.code ?? ''} ${String(err?.message).slice(0, 200)}` };
            current = null;
          }
        });
        w.on('exit', (codeNum) => {
          if (current !== null && results[current] === undefined) {
            results[current] = { ...calls[current], outcome: 'crash', detail: `worker exited with code ${codeNum}` };
          }
          requeueRest();
          finish();
        });
      });
    }
  }
  await Promise.all(Array.from({ length: workers }, lane));
  return { results, abortedLines };
}

/** Counts by outcome and by entry point; failures split into new and known (owned by another branch). */
export function summarize(results) {
  const byOutcome = new Map();
  const byEntry = new Map();
  const failures = [];
  const known = [];
  for (const r of results) {
    const label = r.outcome === 'ragwasm' ? `RagwasmError ${r.code}` : r.outcome;
    byOutcome.set(label, (byOutcome.get(label) ?? 0) + 1);
    const row = byEntry.get(r.entry) ?? { calls: 0, ok: 0, ragwasm: 0, rethrown: 0, failing: 0, known: 0 };
    row.calls++;
    if (r.outcome === 'ok') row.ok++;
    else if (r.outcome === 'ragwasm') row.ragwasm++;
    else if (r.outcome === 'rethrown') row.rethrown++;
    if (FAILING.has(r.outcome)) {
      const k = knownFailure(r.entry, r.value, r.outcome);
      if (k) { row.known++; known.push({ ...r, owner: k.owner }); } else { row.failing++; failures.push(r); }
    }
    byEntry.set(r.entry, row);
  }
  return { byOutcome, byEntry, failures, known };
}

export function formatTable({ byOutcome, byEntry, failures, known }, { header = '' } = {}) {
  const lines = [];
  if (header) lines.push(header);
  lines.push(`${byEntry.size} entry points, ${[...byEntry.values()].reduce((s, r) => s + r.calls, 0)} calls`);
  lines.push('', 'by outcome:');
  for (const [k, n] of [...byOutcome].sort((a, b) => b[1] - a[1])) lines.push(`  ${String(n).padStart(7)}  ${k}`);
  lines.push('', 'by entry point (calls / ok / RagwasmError / rethrown / failing / known):');
  for (const [id, r] of [...byEntry].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    lines.push(`  ${id.padEnd(36)} ${String(r.calls).padStart(5)} ${String(r.ok).padStart(5)} ${String(r.ragwasm).padStart(5)} ${String(r.rethrown).padStart(5)} ${String(r.failing).padStart(5)} ${String(r.known).padStart(5)}`);
  }
  if (known.length > 0) {
    lines.push('', `known, owned by another branch (${known.length}):`);
    for (const r of known) lines.push(`  known, owned by ${r.owner}: ${r.entry} arg ${r.position} = ${r.value}: ${r.outcome} ${r.detail ?? ''}`);
  }
  lines.push('', `FAILURES (${failures.length}):`);
  for (const r of failures) lines.push(`  ${r.outcome}: ${r.entry} arg ${r.position} = ${r.value}: ${r.detail ?? ''}`);
  return lines.join('\n');
}

/** Whole harness: discover, plan, run, summarize. */
export async function runHarness({ full = false, seed = 19, perPosition = QUICK_PER_POSITION, entryFilter, timeoutMs, workers, log } = {}) {
  const api = await loadApi(new URL('../../../web/src/', import.meta.url).href);
  const entries = discoverEntries(api);
  const calls = planCalls(entries, { full, seed, perPosition, entryFilter });
  // Storage entry points write under the current folder: give them a scratch one.
  const cwd = process.cwd();
  const scratch = mkdtempSync(join(tmpdir(), 'ragwasm-hostile-'));
  process.chdir(scratch);
  try {
    const { results, abortedLines } = await runCalls(calls, { timeoutMs, workers, log });
    const summary = summarize(results);
    return { entries, calls, results, abortedLines, summary };
  } finally {
    process.chdir(cwd);
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const opt = (name, dflt) => {
    const a = process.argv.find((x) => x.startsWith(`--${name}=`));
    return a ? a.slice(name.length + 3) : dflt;
  };
  const full = !process.argv.includes('--quick');
  const seed = Number(opt('seed', 19));
  const perPosition = Number(opt('per-position', QUICK_PER_POSITION));
  const t0 = Date.now();
  const log = (s) => process.stderr.write(`${s}\n`);
  let argFailures = 0;
  let summaryLine = '';
  if (!process.argv.includes('--files-only')) {
    const r = await runHarness({
      full, seed, perPosition, entryFilter: opt('entry', undefined),
      timeoutMs: Number(opt('timeout-ms', 20000)), workers: Number(opt('workers', 1)), log,
    });
    const header = `hostile-argument harness: ${full ? 'full catalogue' : `seeded subset (seed ${seed}, ${perPosition} values per position)`}, ${HOSTILE_VALUES.filter((v) => full || !v.full).length} hostile values, ${((Date.now() - t0) / 1000).toFixed(1)} s, "Aborted(" lines on worker stderr: ${r.abortedLines}`;
    console.log(formatTable(r.summary, { header }));
    argFailures = r.summary.failures.length + (r.abortedLines > 0 ? 1 : 0);
    const n = (k) => r.summary.byOutcome.get(k) ?? 0;
    const errors = [...r.summary.byOutcome].filter(([k]) => k.startsWith('RagwasmError')).reduce((a, [, v]) => a + v, 0);
    summaryLine = `arguments: ${r.summary.byEntry.size} entry points, ${r.results.length} calls, ${n('ok')} ok, ${errors} RagwasmError, ${n('rethrown')} rethrown; `
      + `${n('abort')} aborts, ${n('hang')} hangs, ${n('crash')} crashes, ${n('non-ragwasm')} non-RagwasmError, ${n('internal')} INTERNAL, ${n('nan')} NaN/Infinity, ${r.abortedLines} "Aborted(" lines`;
  }
  let fileFailures = 0;
  if (!process.argv.includes('--no-files') && opt('entry', undefined) === undefined) {
    const t1 = Date.now();
    const { rows } = await runFileFamilies({ full, rand: full ? null : seededRandom(seed), perFamily: full ? Infinity : 1, filter: opt('family', undefined), log });
    console.log(`\n${formatFileTable(rows)}\n(${((Date.now() - t1) / 1000).toFixed(1)} s)`);
    fileFailures = rows.filter((x) => FILE_FAILING.has(x.outcome)).length;
    const c = (k) => rows.filter((x) => x.outcome === k).length;
    summaryLine += `${summaryLine ? '\n' : ''}files: ${new Set(rows.map((x) => x.family)).size} families, ${rows.length} command runs, ${c('ok')} ok, ${c('refused')} refused (a clear RagwasmError); `
      + `${c('hang')} hangs, ${c('crash')} crashes, ${c('stack-trace')} stack traces, ${c('leak')} leaks, ${c('raw-control')} raw control characters, ${c('unreported')} unreported, ${c('wrong')} wrong, ${c('aborted')} aborted`;
  }
  let pgFailures = 0;
  if (!process.argv.includes('--no-postgres') && !process.argv.includes('--files-only') && opt('entry', undefined) === undefined) {
    const { runPostgresFamilies, formatPostgresTable, POSTGRES_FAILING } = await import('./postgres.mjs');
    const rows = await runPostgresFamilies({ quick: !full, log });
    console.log(`\n${formatPostgresTable(rows)}`);
    pgFailures = rows.filter((x) => POSTGRES_FAILING.has(x.outcome)).length;
    summaryLine += `${summaryLine ? '\n' : ''}postgres: ${rows.length} cases, ${pgFailures} failing`;
  }
  console.log(`\nSUMMARY (${((Date.now() - t0) / 1000).toFixed(1)} s): ${argFailures + fileFailures + pgFailures === 0 ? 'PASS' : 'FAIL'}\n${summaryLine}`);
  process.exitCode = argFailures + fileFailures + pgFailures > 0 ? 1 : 0;
}
