#!/usr/bin/env node
// Benchmark runner: `npm run bench` runs every suite in tests/bench/suites/ but the opt-in ones (million), `npm run bench -- SUITE
// [SUITE...]` runs some, `--quick` shrinks sizes for a smoke run. Each suite prints markdown tables and
// writes bench-results/<suite>.json (median/p95 of repeated runs after warm-up, plus machine info).
// Peers run in the same Node process and run, so ratios are like for like.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { init } from '../../web/src/index.js';
import { median } from '../../scripts/speed-table.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../..');
const sharedRoot = process.env.RAGWASM_SHARED ?? join(repoRoot, '..', 'shared');

function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
  return { median: q(0.5), p95: q(0.95), min: s[0], max: s[s.length - 1], mean: s.reduce((a, b) => a + b, 0) / s.length, samples };
}

function machine() {
  return {
    node: process.version, v8: process.versions.v8, platform: `${os.platform()} ${os.arch()}`,
    cpu: os.cpus()[0]?.model ?? 'unknown', cores: os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30), date: new Date().toISOString(),
    loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

function fmt(v) {
  if (typeof v !== 'number') return String(v);
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v)) return String(v);
  const a = Math.abs(v);
  return a >= 100 ? v.toFixed(1) : a >= 1 ? v.toFixed(2) : v.toFixed(4);
}

export function makeContext(suiteName, { quick = false, rounds } = {}) {
  const json = { suite: suiteName, machine: machine(), quick, results: {} };
  return {
    quick,
    /** Rounds of the suites that repeat whole measurements and report the median round (`--rounds N`; default 5, 1 with --quick). */
    rounds: rounds ?? (quick ? 1 : 5),
    repoRoot,
    json,
    /** Times fn (sync or async) `reps` times after `warmup` runs; milliseconds. */
    async time(fn, { warmup = 3, reps = 11 } = {}) {
      for (let i = 0; i < warmup; i++) await fn();
      const samples = [];
      for (let i = 0; i < reps; i++) {
        const t0 = performance.now();
        await fn();
        samples.push(performance.now() - t0);
      }
      return stats(samples);
    },
    stats,
    /** A number for a table cell: thousands separators, `digits` decimals. */
    num(v, digits = 0) {
      return Number.isFinite(v) ? v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : String(v);
    },
    table(title, columns, rows) {
      const lines = [`\n### ${title}\n`, `| ${columns.join(' | ')} |`, `| ${columns.map(() => '---').join(' | ')} |`];
      for (const r of rows) lines.push(`| ${r.map(fmt).join(' | ')} |`);
      process.stdout.write(lines.join('\n') + '\n');
      (json.tables ??= []).push({ title, columns, rows });
    },
    record(key, value) {
      json.results[key] = value;
    },
    /**
     * Records one row of the README speed table (scripts/speed-table.mjs renders them): `ratio` is the
     * measured ratio against the peer of the same run (or the measured value itself when `peer` is empty),
     * `target` `{ min }` or `{ max }` on that number; the verdict is computed from them, never written by hand.
     * `rounds`: the ratio of every round of a repeated measurement; `ratio` is then their median
     * (computed here when omitted) and the table shows it with the rounds' min–max.
     */
    speed({ id, what, ragwasm, peer = '', ratio, ratioText, target = null, targetText = '', note = '', rounds }) {
      if (typeof id !== 'string' || !id) throw new Error('ctx.speed: id must be a non-empty string');
      if (rounds !== undefined) {
        if (!Array.isArray(rounds) || rounds.length === 0 || !rounds.every(Number.isFinite)) throw new Error(`ctx.speed(${id}): rounds must be finite ratios, got ${rounds}`);
        const m = median(rounds);
        if (ratio === undefined) ratio = m;
        else if (ratio !== m) throw new Error(`ctx.speed(${id}): ratio ${ratio} is not the median of its rounds (${m})`);
      }
      if (!Number.isFinite(ratio)) throw new Error(`ctx.speed(${id}): ratio must be a finite number, got ${ratio}`);
      const row = { id, what, ragwasm, peer, ratio, ratioText: ratioText ?? `${fmt(ratio)}×`, target, targetText, note };
      if (rounds !== undefined) row.rounds = [...rounds];
      (json.speed ??= []).push(row);
    },
    shared(rel) {
      const p = join(sharedRoot, rel);
      return existsSync(p) ? p : null;
    },
    native(binary, args = []) {
      const p = join(process.env.RAGWASM_NATIVE_DIR ? resolve(process.env.RAGWASM_NATIVE_DIR) : join(repoRoot, 'build', 'native'), binary);
      if (!existsSync(p)) return null;
      const out = execFileSync(p, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
      return JSON.parse(out);
    },
  };
}

async function main() {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  // --rounds N (or --rounds=N): rounds of the suites that repeat whole measurements (parallel, bm25's 2-Worker row)
  let rounds;
  const ri = args.findIndex((a) => a === '--rounds' || a.startsWith('--rounds='));
  if (ri >= 0) {
    const v = args[ri].includes('=') ? args[ri].slice('--rounds='.length) : args[ri + 1];
    rounds = Number(v);
    if (!Number.isInteger(rounds) || rounds < 1 || rounds > 100) {
      console.error(`bench: --rounds takes an integer 1-100, got ${v}`);
      process.exit(2);
    }
    if (!args[ri].includes('=')) args.splice(ri + 1, 1);
  }
  const wanted = args.filter((a) => !a.startsWith('--'));
  const suitesDir = join(here, 'suites');
  const all = readdirSync(suitesDir).filter((f) => f.endsWith('.mjs')).map((f) => f.replace(/\.mjs$/, '')).sort();
  const unknown = wanted.filter((w) => !all.includes(w));
  if (unknown.length) {
    console.error(`bench: unknown suite(s) ${unknown.join(', ')} (suites: ${all.join(', ')})`);
    process.exit(2);
  }
  // suites that take many minutes or a separate build run only when named (`npm run bench -- million`, `threads`)
  const OPT_IN = ['million', 'threads'];
  const run = wanted.length ? wanted : all.filter((s) => !OPT_IN.includes(s));
  await init();
  mkdirSync(join(repoRoot, 'bench-results'), { recursive: true });
  let failed = 0;
  for (const name of run) {
    const suite = (await import(join(suitesDir, `${name}.mjs`))).default;
    process.stdout.write(`\n## bench ${suite.name}: ${suite.description}\n`);
    const ctx = makeContext(suite.name, { quick, rounds });
    const t0 = performance.now();
    try {
      await suite.run(ctx);
    } catch (e) {
      failed++;
      console.error(`bench ${name} failed: ${e.stack ?? e}`);
      ctx.json.error = String(e);
    }
    ctx.json.seconds = (performance.now() - t0) / 1000;
    ctx.json.machine.loadAverageEnd = os.loadavg().map((l) => Math.round(l * 100) / 100);
    const out = join(repoRoot, 'bench-results', `${suite.name}.json`);
    writeFileSync(out, JSON.stringify(ctx.json, null, 2));
    process.stdout.write(`\n(${name}: ${ctx.json.seconds.toFixed(1)} s, JSON in ${out})\n`);
  }
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
