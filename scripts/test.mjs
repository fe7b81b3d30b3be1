#!/usr/bin/env node
// `npm test`: everything CI runs, in stages, each timed. Bootstrap -> native build + ctest ->
// sanitizer build + ctest (ASan+UBSan) -> WASM release and debug builds -> node:test suites against
// both builds -> tsc over the typed usage file -> Playwright in headless Chromium -> consumer apps
// (tests/consumers: npm pack -> fresh Vite/webpack/esbuild/Rollup/import-map/Node apps). Prints a summary with
// every skipped test by name and a closing "N passed, N failed, N skipped" line; exits 1 on any failure.
// Options: --only=stage1,stage2 runs some stages (bootstrap, native, sanitize, wasm, js, types, browser, consumers).
// --quick (`npm run test:quick`): the native build + ctest, the WASM release build and the JS unit tests on it
// (tests/js without ../shared's corpora and models: those tests skip by name), no sanitizer, debug build,
// browser or consumer stage; the same summary. Measured in DEVELOPING.md "Tests".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const args = process.argv.slice(2);
const only = args.find((a) => a.startsWith('--only='))?.slice(7).split(',');
const quick = args.includes('--quick');
const jobs = String(Math.max(1, Math.min(os.cpus().length, 4)));
mkdirSync(join(root, 'test-results'), { recursive: true });

const stages = [];
const totals = { passed: 0, failed: 0, skipped: 0 };
const skippedNames = [];
const failedNames = [];
let broken = false;

function sh(cmd, argv, { env = {}, capture = false } = {}) {
  const r = spawnSync(cmd, argv, {
    stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 256 << 20,
  });
  if (capture) {
    process.stdout.write(r.stdout ?? '');
    process.stderr.write(r.stderr ?? '');
  }
  return r;
}

// A stage left out by --only returns null (not false): the stages after it then run on the build
// already on disk (e.g. --only=js after an earlier build).
function stage(name, fn) {
  if (only && !only.includes(name.split(':')[0])) return null;
  const t0 = Date.now();
  process.stdout.write(`\n=== stage ${name} ===\n`);
  let ok = false;
  try {
    ok = fn() !== false;
  } catch (e) {
    console.error(`stage ${name} threw: ${e.stack ?? e}`);
  }
  const seconds = (Date.now() - t0) / 1000;
  stages.push({ name, seconds, ok });
  process.stdout.write(`=== stage ${name}: ${ok ? 'ok' : 'FAILED'} in ${seconds.toFixed(1)} s ===\n`);
  if (!ok) broken = true;
  return ok;
}

// ctest: counts from its summary line; skipped tests (SKIP_RETURN_CODE 4) named from its list.
function runCtest(dir, label, extra = []) {
  const r = sh('ctest', ['--test-dir', dir, '--output-on-failure', '-j', jobs, '--timeout', '900', ...extra], { capture: true });
  const out = (r.stdout ?? '') + (r.stderr ?? '');
  const m = out.match(/(\d+)% tests passed, (\d+) tests? failed out of (\d+)/);
  if (!m) {
    failedNames.push(`${label}: ctest printed no summary`);
    totals.failed++;
    return false;
  }
  const failed = Number(m[2]);
  const total = Number(m[3]);
  const skipped = [...out.matchAll(/^\s*\d+ - (.+?) \(Skipped\)\s*$/gm)].map((x) => x[1]);
  const failedList = [...out.matchAll(/^\s*\d+ - (.+?) \((Failed|Timeout|SEGFAULT|Subprocess aborted|Exception|Child aborted|Not Run)\)\s*$/gm)].map((x) => x[1]);
  totals.failed += failed;
  totals.skipped += skipped.length;
  totals.passed += total - failed - skipped.length;
  for (const s of skipped) skippedNames.push(`${label}: ${s}`);
  for (const f of failedList) failedNames.push(`${label}: ${f}`);
  return failed === 0 && r.status === 0;
}

// node:test with a TAP copy on disk for counting and naming skips.
function runNodeTests(label, files, env) {
  if (files.length === 0) return true;
  const tap = join(root, 'test-results', `${label.replace(/[^a-z0-9]+/gi, '-')}.tap`);
  const r = sh(process.execPath, ['--test', '--test-concurrency=2', '--test-reporter=spec', '--test-reporter-destination=stdout',
    '--test-reporter=tap', `--test-reporter-destination=${tap}`, ...files], { env });
  if (!existsSync(tap)) {
    failedNames.push(`${label}: node --test wrote no report`);
    totals.failed++;
    return false;
  }
  const text = readFileSync(tap, 'utf8');
  const num = (k) => Number((text.match(new RegExp(`^# ${k} (\\d+)`, 'm')) ?? [])[1] ?? 0);
  const pass = num('pass');
  const fail = num('fail') + num('cancelled');
  const skip = num('skipped') + num('todo');
  totals.passed += pass;
  totals.failed += fail;
  totals.skipped += skip;
  // TAP: "ok 3 - name # SKIP reason" (subtests are indented).
  for (const m of text.matchAll(/^\s*ok \d+ - (.+?) # SKIP ?(.*)$/gm)) skippedNames.push(`${label}: ${m[1]} — ${m[2] || 'skipped'}`);
  for (const m of text.matchAll(/^\s*not ok \d+ - (.+?)(?: # .*)?$/gm)) failedNames.push(`${label}: ${m[1]}`);
  if (pass + fail + skip === 0) {
    failedNames.push(`${label}: no tests ran`);
    totals.failed++;
    return false;
  }
  return fail === 0 && r.status === 0;
}

function listTests(dir, pattern = /\.test\.mjs$/) {
  const p = join(root, dir);
  if (!existsSync(p)) return [];
  // tests/js mirrors web/src's folders: every *.test.mjs below dir, in path order
  return readdirSync(p, { recursive: true }).filter((f) => pattern.test(f)).sort().map((f) => join(dir, f));
}

if (quick) {
  // No ../shared: the unit tests only (a data test skips by name, and is counted and listed as skipped).
  const unit = { RAGWASM_BUILD: 'release', RAGWASM_SHARED: join(root, 'test-results', 'no-shared') };
  // a stage left out by --only (null) lets the next one run on the build already on disk
  if (stage('native: build', () => sh('bash', ['scripts/build.sh', 'native'], { env: { JOBS: jobs } }).status === 0) !== false) {
    stage('native: ctest', () => runCtest('build/native', 'ctest native'));
  }
  if (stage('wasm: release build', () => sh('bash', ['scripts/build.sh', 'wasm-release'], { env: { JOBS: jobs } }).status === 0) !== false) {
    stage('js: release build (unit)', () => runNodeTests('js quick', listTests('tests/js'), unit));
  }
}
if (!quick) {
stage('bootstrap', () => sh('bash', ['scripts/bootstrap']).status === 0);
stage('native: build', () => sh('bash', ['scripts/build.sh', 'native'], { env: { JOBS: jobs } }).status === 0) &&
  stage('native: ctest', () => runCtest('build/native', 'ctest native'));
if (!process.env.RAGWASM_SKIP_SANITIZE) {
  stage('sanitize: build', () => sh('bash', ['scripts/build.sh', 'sanitize'], { env: { JOBS: jobs } }).status === 0) &&
    stage('sanitize: ctest', () => runCtest('build/sanitize', 'ctest asan+ubsan', ['-E', '_NOT_BUILT']));  // only the targets build.sh sanitize builds
}
const wasmOk = stage('wasm: build', () => sh('bash', ['scripts/build.sh', 'wasm'], { env: { JOBS: jobs } }).status === 0);
if (wasmOk !== false) {
  stage('js: release build', () => runNodeTests('js release', listTests('tests/js'), { RAGWASM_BUILD: 'release' }));
  stage('js: debug build', () => runNodeTests('js debug', listTests('tests/js'), { RAGWASM_BUILD: 'debug' }));
  // The demo bundles once here, so that the spec files run two at a time never rebuild them (harness.mjs would).
  stage('browser', () => sh(process.execPath, ['scripts/bundle-demos.mjs']).status === 0 && runNodeTests('browser', listTests('tests/browser'), {}));
  stage('consumers', () => runNodeTests('consumers', listTests('tests/consumers'), {}));
}
}
stage('types', () => {
  // The repository's usage files, then an app's imports of the package entry points ('ragwasm',
  // 'ragwasm/onnx', ...) resolved through package.json "exports" with both module resolutions.
  let ok = true;
  // scripts/check-js-types.mjs (#28 item 6): every web/src file (tests/js/tsconfig.checkjs.json, each marked
  // `// @ts-check`) checked with its JSDoc, each call into another module against that module's hand-written
  // .d.ts, and each .d.ts against the JS beside it (every declared value exported, its type assignable).
  for (const project of ['tests/js/tsconfig.json', 'tests/js/package-types/tsconfig.bundler.json', 'tests/js/package-types/tsconfig.node16.json']) {
    const r = sh(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit', '-p', project]);
    if (r.status === 0) totals.passed++; else { totals.failed++; failedNames.push(`tsc --noEmit -p ${project}`); ok = false; }
  }
  const checkJs = sh(process.execPath, ['scripts/check-js-types.mjs']);
  if (checkJs.status === 0) totals.passed++; else { totals.failed++; failedNames.push('node scripts/check-js-types.mjs'); ok = false; }
  return ok;
});

process.stdout.write('\n=== summary ===\n');
for (const s of stages) process.stdout.write(`${s.ok ? 'ok    ' : 'FAILED'} ${s.name.padEnd(22)} ${s.seconds.toFixed(1).padStart(7)} s\n`);
const total = stages.reduce((a, s) => a + s.seconds, 0);
process.stdout.write(`total ${total.toFixed(1)} s (${(total / 60).toFixed(1)} min)\n`);
if (skippedNames.length) {
  process.stdout.write(`\nskipped (${skippedNames.length}):\n`);
  for (const n of skippedNames) process.stdout.write(`  - ${n}\n`);
}
if (failedNames.length) {
  process.stdout.write(`\nfailed (${failedNames.length}):\n`);
  for (const n of failedNames) process.stdout.write(`  - ${n}\n`);
}
if (broken && totals.failed === 0) totals.failed = 1;  // a stage failed without a counted test (e.g. a build)
process.stdout.write(`\nragwasm: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`);
process.exit(broken || totals.failed ? 1 : 0);
