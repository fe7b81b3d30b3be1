// Consumer-test plumbing: packs the package as npm would publish it, creates fresh fixture apps from
// tests/consumers/apps/<name>/ in a temp folder, installs the tarball into each with npm (offline),
// builds each with its own bundler, serves the output on 127.0.0.1 and measures what was emitted and
// what a page fetched. Used by consumers.test.mjs (the assertions) and run.mjs (the size table).
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import {
  cpSync, createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync,
  statSync, symlinkSync, writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { MIME } from '../../scripts/serve.mjs';

export const consumersDir = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(consumersDir, '../..');
const repoModules = join(repoRoot, 'node_modules');

/**
 * The fixture apps. `tools`: packages the app's build uses (its devDependencies), linked from the
 * repo's node_modules (pinned by the root package-lock.json). `peers`: optional peer dependencies the
 * app installs beside ragwasm, linked the same way. `out`: folder served to the browser. `scenario`:
 * what the page runs (scenario.js). `node`: run with node instead of a browser.
 */
export const APPS = [
  { name: 'vite', tools: ['vite'], out: 'dist', scenario: 'full', worker: true,
    proves: 'Vite build; the full scenario on the page and in a module Worker; the package Worker pool (two BM25 shards)' },
  { name: 'vite-bm25', tools: ['vite'], out: 'dist', scenario: 'bm25', sizeTarget: 600_000,
    proves: 'Vite build of init + chunk + Bm25Index + search only: the size target; init({ wasmModule }) with the compile begun before ragwasm is imported' },
  { name: 'vite-onnx', tools: ['vite'], out: 'dist', scenario: 'onnx', peers: ['onnxruntime-web', 'pdfjs-dist'], needsBert: true,
    proves: 'ragwasm/onnx with the generated BERT fixture and ragwasm/parse with a PDF, built by Vite' },
  { name: 'vite-worker', tools: ['vite'], out: 'dist', scenario: 'worker',
    proves: "ragwasm/worker's WorkerCollection built by Vite with its default worker format (iife)" },
  { name: 'webpack', tools: ['webpack', 'webpack-cli'], out: 'dist', scenario: 'full', workerCollection: true,
    proves: 'webpack 5 build (asset modules from new URL(..., import.meta.url)); ragwasm/worker' },
  { name: 'esbuild', tools: ['esbuild'], out: 'dist', scenario: 'full', workerCollection: true,
    proves: 'esbuild --bundle --format=esm; ragwasm/worker (its Worker script bundled as a second entry)' },
  { name: 'rollup', tools: ['rollup', '@rollup/plugin-node-resolve', '@web/rollup-plugin-import-meta-assets'], out: 'dist', scenario: 'full',
    proves: 'Rollup 4 with node-resolve and import-meta-assets' },
  { name: 'importmap', tools: [], out: 'site', scenario: 'full', cdn: true,
    proves: 'no bundler: a static page with an import map loading the package from a second origin, as from a CDN' },
  { name: 'node', tools: ['typescript'], node: true, scenario: 'full',
    proves: 'Node ESM: import from the installed package, the default embedder, npx ragwasm embed and ask, boundary errors; tsc --strict over the installed types' },
];

/** Runs a command synchronously; throws with its output when it fails. */
export function run(cmd, args, { cwd = repoRoot, env = {}, input } = {}) {
  const r = spawnSync(cmd, args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8', input, maxBuffer: 256 << 20 });
  if (r.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) exited ${r.status}:\n${(r.stdout ?? '').slice(-4000)}\n${(r.stderr ?? '').slice(-4000)}`);
  }
  return r.stdout;
}

/** Runs a command asynchronously; resolves {code, output, seconds}. */
export function runAsync(cmd, args, { cwd, env = {} } = {}) {
  const t0 = Date.now();
  return new Promise((resolveRun) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    child.on('close', (code) => resolveRun({ code, output, seconds: (Date.now() - t0) / 1000 }));
    child.on('error', (e) => resolveRun({ code: -1, output: String(e), seconds: (Date.now() - t0) / 1000 }));
  });
}

/** Builds the release WASM and the static model when they are missing (what `npm pack` ships). */
export function ensureBuilt() {
  if (!existsSync(join(repoRoot, 'web/dist/ragwasm.wasm'))) run('bash', ['scripts/build.sh', 'wasm-release'], { env: { JOBS: process.env.JOBS ?? '2' } });
  // The static model, and its copy in the companion package when the repo has one.
  const models = ['models/build/static-model.bin'];
  if (existsSync(join(repoRoot, 'packages/static-model/package.json'))) models.push('packages/static-model/static-model.bin');
  if (models.some((m) => !existsSync(join(repoRoot, m)))) run(process.execPath, ['scripts/build-assets.mjs']);
}

/**
 * `npm pack` of the package and of every companion package in the repo (a package.json under
 * packages/*, or models/package/), into `dest`. Returns [{name, version, file, size, unpackedSize, entries}].
 */
export function packAll(dest) {
  const dirs = [repoRoot];
  const packagesDir = join(repoRoot, 'packages');
  if (existsSync(packagesDir)) {
    for (const d of readdirSync(packagesDir).sort()) if (existsSync(join(packagesDir, d, 'package.json'))) dirs.push(join(packagesDir, d));
  }
  if (existsSync(join(repoRoot, 'models/package/package.json'))) dirs.push(join(repoRoot, 'models/package'));
  mkdirSync(dest, { recursive: true });
  const out = [];
  for (const dir of dirs) {
    const json = JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dest], { cwd: dir }));
    for (const p of json) {
      out.push({ name: p.name, version: p.version, file: join(dest, p.filename), size: p.size, unpackedSize: p.unpackedSize, entries: p.entryCount, dir });
    }
  }
  return out;
}

// Links a package from the repo's node_modules into app/node_modules (and its bins into .bin), as an
// install from the registry would place it, without the network.
function linkFromRepo(appDir, name) {
  const src = join(repoModules, name);
  if (!existsSync(src)) throw new Error(`consumers: ${name} is not in the repo's node_modules (run npm ci)`);
  const dst = join(appDir, 'node_modules', name);
  mkdirSync(dirname(dst), { recursive: true });
  rmSync(dst, { recursive: true, force: true });
  symlinkSync(src, dst, 'dir');
  const pkg = JSON.parse(readFileSync(join(src, 'package.json'), 'utf8'));
  const bins = typeof pkg.bin === 'string' ? { [name.split('/').pop()]: pkg.bin } : pkg.bin ?? {};
  mkdirSync(join(appDir, 'node_modules/.bin'), { recursive: true });
  for (const [bin, file] of Object.entries(bins)) {
    const link = join(appDir, 'node_modules/.bin', bin);
    rmSync(link, { force: true });
    symlinkSync(join(src, file), link);
  }
}

/**
 * Creates a fresh app in `root` from tests/consumers/apps/<app.name>/ plus scenario.js, installs the
 * tarballs with `npm install --offline` (ragwasm has no required dependencies, so nothing is fetched),
 * then links the app's build tools and peers. Returns the app folder.
 */
export async function createApp(app, root, packs) {
  const dir = join(root, app.name);
  rmSync(dir, { recursive: true, force: true });
  cpSync(join(consumersDir, 'apps', app.name), dir, { recursive: true });
  // A CDN app has no bundler: its page imports scenario.js from the folder it serves.
  cpSync(join(consumersDir, 'scenario.js'), join(dir, app.cdn ? app.out : '.', 'scenario.js'));
  // The template lists its tools as devDependencies (what a user installs); npm must not resolve them
  // here (no network), so they are set aside for the install and linked from the repo afterwards.
  const pkgPath = join(dir, 'package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
  const devDependencies = pkg.devDependencies;
  delete pkg.devDependencies;
  writeFileSync(pkgPath, JSON.stringify(pkg, null, 2));
  const npm = await runAsync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', ...packs.map((p) => p.file)], { cwd: dir });
  if (npm.code !== 0) throw new Error(`npm install --offline ${packs.map((p) => p.file).join(' ')} (in ${dir}) exited ${npm.code}:\n${npm.output.slice(-4000)}`);
  const installed = JSON.parse(readFileSync(pkgPath, 'utf8'));
  if (devDependencies) installed.devDependencies = devDependencies;
  writeFileSync(pkgPath, JSON.stringify(installed, null, 2));
  for (const t of [...app.tools, ...(app.peers ?? [])]) linkFromRepo(dir, t);
  return dir;
}

/** Resolves a package.json `exports` target for `subpath` under the given conditions (first match). */
export function resolveExport(pkg, subpath, conditions) {
  let target = pkg.exports === undefined ? (subpath === '.' ? pkg.module ?? pkg.main : undefined)
    : typeof pkg.exports === 'string' || !Object.keys(pkg.exports).some((k) => k.startsWith('.'))
      ? (subpath === '.' ? pkg.exports : undefined)
      : pkg.exports[subpath];
  const pick = (t) => {
    if (t === null || t === undefined || typeof t === 'string') return t ?? undefined;
    if (Array.isArray(t)) { for (const x of t) { const r = pick(x); if (r) return r; } return undefined; }
    for (const [k, v] of Object.entries(t)) {
      if (k === 'default' || conditions.includes(k)) { const r = pick(v); if (r) return r; }
    }
    return undefined;
  };
  target = pick(target);
  return target === undefined ? undefined : target.replace(/^\.\//, '');
}

/**
 * A static server for `dir` on 127.0.0.1 with the repo server's MIME types. Logs every request
 * ({path, status, bytes}). `cors` adds Access-Control-Allow-Origin: * (what a CDN sends).
 */
export function serveDir(dir, { cors = false } = {}) {
  const log = [];
  const server = createServer((req, res) => {
    const headers = { 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' };
    if (cors) headers['Access-Control-Allow-Origin'] = '*';
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    } catch {
      res.writeHead(400, headers).end();
      log.push({ path: req.url, status: 400, bytes: 0 });
      return;
    }
    let file = resolve(dir, `.${path}`);
    if (file !== dir && !file.startsWith(dir + sep)) file = null;
    else if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!file || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, headers).end('not found');
      log.push({ path, status: 404, bytes: 0 });
      return;
    }
    const size = statSync(file).size;
    res.writeHead(200, { ...headers, 'Content-Type': MIME[extname(file)] ?? 'application/octet-stream', 'Content-Length': size });
    log.push({ path, status: 200, bytes: req.method === 'HEAD' ? 0 : size });
    if (req.method === 'HEAD') { res.end(); return; }
    createReadStream(file).pipe(res);
  });
  return new Promise((resolveStart, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolveStart({
        url: `http://127.0.0.1:${server.address().port}/`,
        log,
        close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(() => r()); }),
      });
    });
  });
}

/** 'js' | 'wasm' | 'model' | 'other' by file extension. */
export function kindOf(path) {
  const ext = extname(path).toLowerCase();
  if (ext === '.js' || ext === '.mjs' || ext === '.cjs') return 'js';
  if (ext === '.wasm') return 'wasm';
  if (ext === '.bin' || ext === '.onnx') return 'model';
  return 'other';
}

const gzipLength = (bytes) => gzipSync(bytes, { level: 9 }).length;

/** Raw and gzip -9 bytes of every file under `dir`, summed by kind: {js: {raw, gzip, files}, wasm, model, other}. */
export function measureDir(dir) {
  const sums = {};
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) { walk(p); continue; }
      if (!e.isFile()) continue;
      const kind = kindOf(p);
      const s = (sums[kind] ??= { raw: 0, gzip: 0, files: [] });
      const bytes = readFileSync(p);
      s.raw += bytes.length;
      s.gzip += gzipLength(bytes);
      s.files.push(relative(dir, p));
    }
  };
  walk(dir);
  return sums;
}

/** Bytes served (status 200) per kind from a server log, counting each path once. */
export function measureFetched(log, roots) {
  const sums = {};
  const seen = new Set();
  for (const { path, status, bytes, server } of log) {
    if (status !== 200 || seen.has(`${server}${path}`)) continue;
    seen.add(`${server}${path}`);
    const kind = kindOf(path);
    const s = (sums[kind] ??= { raw: 0, gzip: 0, files: [] });
    s.raw += bytes;
    const root = roots[server];
    if (root) s.gzip += gzipLength(readFileSync(resolve(root, `.${path}`)));
    s.files.push(path);
  }
  return sums;
}

/** A fresh temp folder for one consumer run. */
export function tempRoot() {
  return mkdtempSync(join(tmpdir(), 'ragwasm-consumers-'));
}

// ---------------------------------------------------------------------------------------------
// The run: pack, create, build (two at a time), then open each app.

/** Writes the BERT fixture (model.onnx + tokenizer.json) and the PDF into `dir`; false when it cannot. */
export async function writeOnnxAssets(dir, { tokenizerJsonPath, python = '/usr/bin/python3' }) {
  const { makePdf } = await import('../fixtures/make-pdf.mjs');
  const { PDF_PAGES } = await import('./scenario.js');
  mkdirSync(dir, { recursive: true });
  const tmp = mkdtempSync(join(tmpdir(), 'ragwasm-consumer-bert-'));
  try {
    run(python, [join(repoRoot, 'models/make-bert-fixture.py'), tmp, tokenizerJsonPath, '--name', 'tiny-bert', '--seed', '1234']);
    cpSync(join(tmp, 'tiny-bert/onnx/model.onnx'), join(dir, 'model.onnx'));
    cpSync(join(tmp, 'tiny-bert/tokenizer.json'), join(dir, 'tokenizer.json'));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  writeFileSync(join(dir, 'policy.pdf'), makePdf(PDF_PAGES));
}

/**
 * The import map of a CDN app: copies every package installed in the app's node_modules to
 * `<app>/cdn/<name>@<version>/` (what a CDN serves) and maps each `exports` subpath (browser
 * condition) to `cdnUrl`. Written into every .html page of the app's site folder.
 */
export function writeImportMap(dir, site, cdnUrl) {
  const imports = {};
  const modules = join(dir, 'node_modules');
  const names = [];
  for (const e of readdirSync(modules, { withFileTypes: true })) {
    if (e.name.startsWith('.')) continue;
    if (e.name.startsWith('@')) for (const s of readdirSync(join(modules, e.name))) names.push(`${e.name}/${s}`);
    else names.push(e.name);
  }
  for (const name of names) {
    const pkg = JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8'));
    const folder = `${name}@${pkg.version}`;
    cpSync(join(modules, name), join(dir, 'cdn', folder), { recursive: true, dereference: true });
    const subpaths = pkg.exports && typeof pkg.exports === 'object' && Object.keys(pkg.exports).some((k) => k.startsWith('.'))
      ? Object.keys(pkg.exports) : ['.'];
    for (const sub of subpaths) {
      if (sub.includes('*') || sub === './package.json') continue;
      const target = resolveExport(pkg, sub, ['browser', 'import', 'module']);
      if (target) imports[name + sub.slice(1)] = `${cdnUrl}${folder}/${target}`;
    }
  }
  const map = JSON.stringify({ imports }, null, 1);
  for (const f of readdirSync(join(dir, site))) {
    if (!f.endsWith('.html')) continue;
    const p = join(dir, site, f);
    writeFileSync(p, readFileSync(p, 'utf8').replace(/<script type="importmap">[\s\S]*?<\/script>/, `<script type="importmap">${map}</script>`));
  }
  return imports;
}

/** Runs `tasks` (functions returning promises) at most `limit` at a time; resolves their results in order. */
export async function pool(tasks, limit) {
  const results = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

/**
 * Packs the package, creates every app in a fresh temp folder and builds the bundled ones (installs
 * and builds two at a time). `onnxAssets(dir)` writes the ONNX app's public files, or returns a skip reason.
 * Returns {root, packs, apps: [{app, dir, skip?, install?, build?}]}.
 */
export async function prepare({ apps = APPS, onnxAssets, jobs = 2 } = {}) {
  const seconds = {};
  let t0 = Date.now();
  const lap = (name) => { seconds[name] = (Date.now() - t0) / 1000; t0 = Date.now(); };
  ensureBuilt();
  lap('wasm');
  const root = tempRoot();
  const packs = packAll(join(root, 'packs'));
  lap('pack');
  const states = apps.map((app) => ({ app, dir: null }));
  await pool(states.map((state) => async () => {
    const t = Date.now();
    try {
      state.dir = await createApp(state.app, root, packs);
    } catch (e) {
      state.install = { error: e.message };
      return;
    }
    state.install = { seconds: (Date.now() - t) / 1000 };
    if (state.app.needsBert) {
      const skip = await onnxAssets(join(state.dir, 'public'));
      if (skip) state.skip = skip;
    }
  }), jobs);
  lap('install');
  const builds = states.filter((s) => s.dir && !s.skip && !s.app.node && !s.app.cdn);
  await pool(builds.map((s) => async () => {
    s.build = await runAsync('npm', ['run', 'build', '--silent'], { cwd: s.dir, env: { NO_COLOR: '1', FORCE_COLOR: '0' } });
  }), jobs);
  lap('build');
  return { root, packs, apps: states, seconds };
}

/**
 * Opens `page` of a built app in `browser` and waits for window.__consumer. Returns {outcome,
 * consoleErrors, failedRequests, foreignRequests, log, fetched}. Every response >= 400, every failed
 * request and every request outside the app's servers is reported.
 */
export async function openApp(browser, state, { page: pageName = 'index.html', timeoutMs = 90_000 } = {}) {
  const { app, dir } = state;
  const started = Date.now();
  const servers = {};
  const roots = {};
  if (app.cdn) {
    servers.cdn = await serveDir(join(dir, 'cdn'), { cors: true });
    roots.cdn = join(dir, 'cdn');
    writeImportMap(dir, app.out, servers.cdn.url);
  }
  servers.app = await serveDir(join(dir, app.out));
  roots.app = join(dir, app.out);
  const context = await browser.newContext();
  const consoleErrors = [];
  const failedRequests = [];
  const foreignRequests = [];
  const origins = Object.values(servers).map((s) => s.url);
  context.on('request', (r) => {
    const u = r.url();
    if (!origins.some((o) => u.startsWith(o)) && !/^(data|blob):/.test(u)) foreignRequests.push(u);
  });
  context.on('requestfailed', (r) => failedRequests.push(`${r.url()} (${r.failure()?.errorText ?? 'failed'})`));
  context.on('response', (r) => { if (r.status() >= 400) failedRequests.push(`${r.url()} (HTTP ${r.status()})`); });
  // The context's console event covers the page and its Workers.
  context.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  const page = await context.newPage();
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  let outcome;
  try {
    await page.goto(new URL(pageName, servers.app.url).href);
    // Waits for the result; gives up early when the page logged errors and then went quiet for 5 s
    // (e.g. a module that failed to load, so the page script never ran).
    const t0 = Date.now();
    let errorsSeen = 0;
    let quietSince = Date.now();
    for (;;) {
      outcome = await page.evaluate(() => globalThis.__consumer);
      if (outcome !== undefined) break;
      if (consoleErrors.length !== errorsSeen) { errorsSeen = consoleErrors.length; quietSince = Date.now(); }
      const stuck = errorsSeen > 0 && Date.now() - quietSince > 5000;
      if (stuck || Date.now() - t0 > timeoutMs) {
        outcome = { page: { ok: false, error: { name: 'NoResult', code: null, message: `no result from ${pageName} after ${((Date.now() - t0) / 1000).toFixed(0)} s; console errors: ${JSON.stringify(consoleErrors)}` } } };
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    await context.close();
    for (const s of Object.values(servers)) await s.close();
  }
  const log = Object.entries(servers).flatMap(([server, s]) => s.log.map((x) => ({ ...x, server })));
  for (const x of log) if (x.status !== 200 && !failedRequests.some((f) => f.includes(x.path))) failedRequests.push(`${x.server}:${x.path} (HTTP ${x.status})`);
  return { outcome, consoleErrors, failedRequests, foreignRequests, log, fetched: measureFetched(log, roots), seconds: (Date.now() - started) / 1000 };
}

/** Runs a Node script of the app; resolves its parsed JSON stdout (or {ok: false, error}). */
export async function runNodeScript(state, script, args = []) {
  const r = await runAsync(process.execPath, [script, ...args], { cwd: state.dir });
  try {
    return JSON.parse(r.output.slice(r.output.indexOf('{')));
  } catch {
    return { ok: false, error: { name: 'NodeExit', code: r.code, message: r.output.slice(-3000) } };
  }
}

/**
 * One row of the size table: emitted JS + WASM (and model files) raw and gzip -9, and what the page
 * fetched. `works`: the page returned the expected results cleanly (a size is only checked against
 * its target for an app that works and loaded its WASM).
 */
export function sizeRow(state, fetched, works, pageSeconds) {
  const z = { raw: 0, gzip: 0 };
  const emitted = state.app.out && !state.app.cdn && state.build?.code === 0 ? measureDir(join(state.dir, state.app.out)) : null;
  const sum = (m, kinds) => kinds.reduce((a, k) => ({ raw: a.raw + (m?.[k]?.raw ?? 0), gzip: a.gzip + (m?.[k]?.gzip ?? 0) }), { ...z });
  return {
    app: state.app.name,
    emitted: emitted && { js: sum(emitted, ['js']), wasm: sum(emitted, ['wasm']), jsWasm: sum(emitted, ['js', 'wasm']), model: sum(emitted, ['model']) },
    fetched: fetched && { js: sum(fetched, ['js']), wasm: sum(fetched, ['wasm']), jsWasm: sum(fetched, ['js', 'wasm']), model: sum(fetched, ['model']), files: Object.values(fetched).reduce((a, s) => a + s.files.length, 0) },
    target: state.app.sizeTarget ? { bytes: state.app.sizeTarget, gzipJsWasm: emitted ? sum(emitted, ['js', 'wasm']).gzip : null } : undefined,
    buildSeconds: state.build?.seconds,
    pageSeconds,
    works,
  };
}

const kb = (n) => (n === undefined || n === null ? '—' : `${(n / 1000).toFixed(1)}`);

/** The size table as text (kB = 1000 bytes; gzip level 9). */
export function sizeTable(rows) {
  const head = ['app', 'JS kB', 'JS gz', 'WASM kB', 'WASM gz', 'JS+WASM gz', 'model kB', 'fetched JS+WASM kB', 'fetched gz', 'fetched model kB', 'build s', 'page s'];
  const lines = rows.map((r) => [
    r.app, kb(r.emitted?.js.raw), kb(r.emitted?.js.gzip), kb(r.emitted?.wasm.raw), kb(r.emitted?.wasm.gzip), kb(r.emitted?.jsWasm.gzip),
    kb(r.emitted?.model.raw), kb(r.fetched?.jsWasm.raw), kb(r.fetched?.jsWasm.gzip), kb(r.fetched?.model.raw),
    r.buildSeconds === undefined ? '—' : r.buildSeconds.toFixed(1), r.pageSeconds === undefined ? '—' : r.pageSeconds.toFixed(1),
  ]);
  const out = [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...lines.map((l) => `| ${l.join(' | ')} |`)];
  for (const r of rows) {
    if (!r.target) continue;
    const g = r.target.gzipJsWasm;
    const measured = g !== null && r.works && r.emitted.wasm.raw > 0;
    const mark = measured && g <= r.target.bytes ? '✔' : '✘';
    const why = g === null ? 'not measured (build failed)' : `${kb(g)} kB${measured ? '' : ' (not valid: the app failed or emitted no WASM)'}`;
    out.push(`${mark} ${r.app}: JS + WASM gzipped ${why} (target ≤ ${kb(r.target.bytes)} kB)`);
  }
  return out.join('\n');
}

/** Writes bench-results/consumers.json. */
export function writeSizes(rows, extra = {}) {
  const dir = join(repoRoot, 'bench-results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'consumers.json');
  writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), units: 'bytes; gzip level 9', rows, ...extra }, null, 2));
  return file;
}
