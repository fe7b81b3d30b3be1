// esbuild app: bundle main.js as an ES module. esbuild leaves new URL('./x', import.meta.url) as it
// is, so the files the package reaches that way are copied next to the bundle.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';

await build({ entryPoints: ['main.js'], bundle: true, format: 'esm', splitting: true, outdir: 'dist', platform: 'browser', logLevel: 'warning' });
mkdirSync('dist', { recursive: true });
copyFileSync('index.html', 'dist/index.html');
