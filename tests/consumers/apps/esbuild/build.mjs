// esbuild app: bundle main.js as an ES module. esbuild leaves new URL('./x', import.meta.url) as it
// is, so the package's ragwasm.wasm is copied next to the bundle and main.js passes its URL to init().
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';

await build({ entryPoints: ['main.js'], bundle: true, format: 'esm', splitting: true, outdir: 'dist', platform: 'browser', logLevel: 'warning' });
mkdirSync('dist', { recursive: true });
copyFileSync('node_modules/ragwasm/web/dist/ragwasm.wasm', 'dist/ragwasm.wasm');
copyFileSync('index.html', 'dist/index.html');
