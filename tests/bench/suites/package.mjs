// Bench suite `package`: what users install. `npm pack --dry-run --json` of ragwasm and of the
// companion model package ragwasm-static-model (tarball and unpacked sizes, file counts, the largest
// files, and files that must not be published), then both tarballs installed into an empty folder with
// `npm install --offline` (from the local npm cache: ragwasm has no registry dependency besides the
// model package, which is installed from its tarball) and the size of the resulting node_modules.
// Target (issue #13): the ragwasm tarball <= 2 MB.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, lstatSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TARGET_TARBALL = 2_000_000;
// Paths that would mean a repository-only file leaked into the package.
const FORBIDDEN = [/^web\/dist\/debug\//, /^web\/dist\/corpus\.json$/, /^src\//, /^tests\//, /^examples\//, /^models\//, /\.cpp$|\.h$/, /^web\/demo\//];

function npm(args, cwd) {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
}

function packInfo(dir) {
  const [info] = JSON.parse(npm(['pack', '--dry-run', '--json', '--ignore-scripts'], dir));
  return info;
}

function treeBytes(dir) {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) total += treeBytes(p);
    else total += lstatSync(p).size;
  }
  return total;
}

const kB = (n) => Math.round(n / 1000);

export default {
  name: 'package',
  description: 'npm pack sizes of ragwasm and ragwasm-static-model, and node_modules of a fresh install',
  async run(ctx) {
    const root = ctx.repoRoot;
    const modelDir = join(root, 'packages/static-model');
    const core = packInfo(root);
    const model = packInfo(modelDir);
    const leaked = core.files.map((f) => f.path).filter((p) => FORBIDDEN.some((re) => re.test(p)));
    const hasModelBin = model.files.some((f) => f.path === 'static-model.bin');
    ctx.table('npm pack --dry-run --json', ['package', 'tarball kB', 'unpacked kB', 'files', 'target'], [
      [core.name, kB(core.size), kB(core.unpackedSize), core.entryCount, `<= ${kB(TARGET_TARBALL)} kB: ${core.size <= TARGET_TARBALL ? 'met' : 'NOT met'}`],
      [model.name, kB(model.size), kB(model.unpackedSize), model.entryCount, hasModelBin ? '' : 'static-model.bin missing: run node scripts/build-assets.mjs'],
    ]);
    const largest = [...core.files].sort((a, b) => b.size - a.size).slice(0, 6);
    ctx.table(`largest files in ${core.name}`, ['file', 'kB'], largest.map((f) => [f.path, kB(f.size)]));
    if (leaked.length) process.stdout.write(`\nrepository-only files in the tarball: ${leaked.join(', ')}\n`);

    // A fresh install of both tarballs into an empty folder.
    const tmp = mkdtempSync(join(tmpdir(), 'ragwasm-package-'));
    let install = null;
    try {
      npm(['pack', '--pack-destination', tmp, '--ignore-scripts', '--silent'], root);
      npm(['pack', '--pack-destination', tmp, '--ignore-scripts', '--silent'], modelDir);
      const app = join(tmp, 'app');
      execFileSync('mkdir', ['-p', app]);
      writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true, type: 'module' }));
      npm(['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts',
        join(tmp, model.filename), join(tmp, core.filename)], app);
      const nm = join(app, 'node_modules');
      const packages = readdirSync(nm).filter((n) => !n.startsWith('.'))
        .flatMap((n) => (n.startsWith('@') ? readdirSync(join(nm, n)).map((m) => `${n}/${m}`) : [n]));
      const rows = packages.map((p) => [p, kB(treeBytes(join(nm, p)))]).sort((a, b) => b[1] - a[1]);
      install = { total: treeBytes(nm), packages: Object.fromEntries(rows) };
      ctx.table('node_modules of `npm install ragwasm` (tarballs, --offline) in an empty folder', ['package', 'kB'],
        [...rows, ['total', kB(install.total)]]);
    } catch (e) {
      process.stdout.write(`\nfresh install failed: ${e.stderr || e.message}\n`);
      install = { error: String(e.stderr || e.message) };
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
    ctx.record('core', { name: core.name, tarball: core.size, unpacked: core.unpackedSize, files: core.entryCount, targetTarball: TARGET_TARBALL, met: core.size <= TARGET_TARBALL, leaked });
    ctx.record('model', { name: model.name, tarball: model.size, unpacked: model.unpackedSize, files: model.entryCount, hasModelBin });
    ctx.record('install', install);
    ctx.speed({
      id: 'package-tarball', what: `npm tarball of ${core.name} (the model ships in ${model.name}, ${kB(model.size)} kB)`,
      ragwasm: `${kB(core.size)} kB (${core.entryCount} files)`, peer: '', ratio: core.size / 1000, ratioText: `${kB(core.size)} kB`,
      target: { max: TARGET_TARBALL / 1000 }, targetText: `≤ ${kB(TARGET_TARBALL)} kB`,
    });
  },
};
