// Bundles the demo pages and their Workers with esbuild into web/dist/demo/ (minified ES modules,
// code-split: what a page reaches only through `import()` — PDF/DOCX parsing, ONNX, the LLM client —
// stays a chunk fetched when used), as an app using ragwasm ships it. The HTML pages load these bundles;
// `node scripts/serve.mjs --sources` serves the unbundled web/demo/*.js instead (development).
//
// esbuild leaves `new URL('<literal>', import.meta.url)` as written, and every bundle and chunk lands in
// one folder, so each such literal (the library's ragwasm.wasm and Worker scripts, the demos' corpus,
// static model and Worker scripts) is rewritten here to point from web/dist/demo/ at the same file: a
// bundled entry when it is one, else the served file itself. Peer packages the pages map in an import
// map (pdfjs-dist, mammoth) or pass in (onnxruntime-web) stay outside the bundles.
import { existsSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DEMO_OUT = join(root, 'web/dist/demo');
const STAMP = join(DEMO_OUT, 'inputs.json');  // the last build's input files, for the staleness check

/**
 * Output name -> source: each demo page script and each module Worker a page starts (the pool's too),
 * in one build: pages and Workers share chunks (one HTTP-cached copy of the library core).
 */
export const DEMO_ENTRIES = {
  chat: 'web/demo/chat.js',
  'chat-worker': 'web/demo/chat-worker.js',
  chunking: 'web/demo/chunking.js',
  'chunking-worker': 'web/demo/chunking-worker.js',
  metrics: 'web/demo/metrics.js',
  grade: 'web/demo/grade.js',
  landing: 'web/demo/landing.js',
  'landing-worker': 'web/demo/landing-worker.js',
  'persistence-check': 'web/demo/persistence-check.js',
  // Collection's WorkerPool (pipeline configs with `workers`): new URL('./worker.js', import.meta.url)
  'parallel-worker': 'web/src/parallel/worker.js',
};
// Optional peers: imported by bare name only where used; the pages' import map resolves pdfjs-dist and
// mammoth, chat-worker.js passes onnxruntime-web in, the demos give the static model by its URL (as
// unbundled, where no import map names ragwasm-static-model).
const EXTERNAL = ['pdfjs-dist', 'pdfjs-dist/*', 'mammoth', 'onnxruntime-web', 'onnxruntime-node', 'pg', 'ragwasm-static-model'];

const posix = (p) => p.split(sep).join('/');
const URL_LITERAL = /new URL\(\s*(['"])([^'"]+)\1\s*,\s*import\.meta\.url\s*\)/g;

// `new URL('<literal>', import.meta.url)` of `file`, pointed from the output folder at the same target.
function rewriteUrls(text, file, entryBySource) {
  return text.replace(URL_LITERAL, (all, quote, literal) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(literal)) return all;  // absolute URL
    const folder = literal.endsWith('/');
    const target = resolve(dirname(file), literal);
    const entry = entryBySource.get(target);
    let rel = entry ? `./${entry}.js` : posix(relative(DEMO_OUT, target)) + (folder ? '/' : '');
    if (!rel.startsWith('.')) rel = `./${rel}`;
    return `new URL(${quote}${rel}${quote}, import.meta.url)`;
  });
}

const urlPlugin = (entryBySource) => ({
  name: 'ragwasm-demo-urls',
  setup(build) {
    build.onLoad({ filter: /\.m?js$/ }, (args) => {
      if (!args.path.startsWith(join(root, 'web') + sep)) return undefined;
      const text = readFileSync(args.path, 'utf8');
      return { contents: rewriteUrls(text, args.path, entryBySource), loader: 'js' };
    });
    // chat-worker.js imports ONNX Runtime Web's file by a relative path: served as it is, not bundled.
    build.onResolve({ filter: /node_modules\/onnxruntime-web\/dist\// }, (args) => {
      const target = resolve(args.resolveDir, args.path);
      return { path: posix(relative(DEMO_OUT, target)), external: true };
    });
  },
});

/** True when web/dist/demo is missing, or a source file of its last build (or this script) is newer. */
export function demosStale() {
  if (!existsSync(STAMP)) return true;
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(STAMP, 'utf8'));
  } catch {
    return true;
  }
  const built = statSync(STAMP).mtimeMs;
  if (JSON.stringify(stamp.entries) !== JSON.stringify(DEMO_ENTRIES)) return true;
  const newer = (f) => !existsSync(f) || statSync(f).mtimeMs > built;
  // A new file under web/ imported by an existing one makes that one newer, so the old list suffices.
  return newer(fileURLToPath(import.meta.url)) || stamp.inputs.some((f) => newer(join(root, f)));
}

/**
 * Builds web/dist/demo/ when it is stale (or always, with force). Returns
 * {built, ms, files: [{name, bytes}]} for what was written (files only when built).
 */
export async function bundleDemos({ force = false } = {}) {
  if (!force && !demosStale()) return { built: false, ms: 0, files: [] };
  const t0 = performance.now();
  const { build } = await import('esbuild');
  const entryBySource = new Map(Object.entries(DEMO_ENTRIES).map(([name, src]) => [join(root, src), name]));
  // Built beside web/dist/demo (same depth, so the rewritten URLs hold) and swapped in: a page served
  // meanwhile (tests run two files at once) sees the old set or the new one.
  const tag = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  const tmp = `${DEMO_OUT}.tmp-${tag}`;
  const r = await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(DEMO_ENTRIES).map(([name, src]) => [name, join(root, src)])),
    outdir: tmp,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: 'linked',
    chunkNames: 'chunk-[hash]',
    external: EXTERNAL,
    metafile: true,
    logLevel: 'warning',
    plugins: [urlPlugin(entryBySource)],
  });
  const inputs = Object.keys(r.metafile.inputs).map((f) => posix(relative(root, resolve(root, f))));
  writeFileSync(join(tmp, 'inputs.json'), JSON.stringify({ entries: DEMO_ENTRIES, inputs }, null, 1));
  writeFileSync(join(tmp, 'metafile.json'), JSON.stringify(r.metafile));  // what went where (esbuild's bundle analyzer reads it)
  const old = `${DEMO_OUT}.old-${tag}`;
  try {
    renameSync(DEMO_OUT, old);
  } catch (e) {
    if (e.code !== 'ENOENT') throw e;
  }
  try {
    renameSync(tmp, DEMO_OUT);
  } catch (e) {
    // another process swapped in its build of the same sources first: keep that one
    if (e.code !== 'ENOTEMPTY' && e.code !== 'EEXIST') throw e;
    rmSync(tmp, { recursive: true, force: true });
  }
  rmSync(old, { recursive: true, force: true });
  const files = readdirSync(DEMO_OUT).filter((f) => f.endsWith('.js')).sort()
    .map((name) => ({ name, bytes: statSync(join(DEMO_OUT, name)).size }));
  return { built: true, ms: performance.now() - t0, files };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = await bundleDemos({ force: process.argv.includes('--force') });
  if (!r.built) console.log('web/dist/demo is up to date');
  else {
    const total = r.files.reduce((a, f) => a + f.bytes, 0);
    console.log(`web/dist/demo: ${r.files.length} files, ${(total / 1000).toFixed(1)} kB of JS, built in ${r.ms.toFixed(0)} ms`);
  }
}
