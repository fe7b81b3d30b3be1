// esbuild app: bundle main.js as an ES module. esbuild leaves new URL('./x', import.meta.url) as it
// is, so the files the package reaches that way are copied next to the bundle: ragwasm.wasm (main.js
// passes its URL to init()) and the default static model (its new URL('./static-model.bin', ...)
// then points next to the chunk that holds it), and ragwasm/worker's Worker script as a second entry.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';

await build({ entryPoints: ['main.js'], bundle: true, format: 'esm', splitting: true, outdir: 'dist', platform: 'browser', logLevel: 'warning' });
// ragwasm/worker's Worker script, reached by new URL('./collection-worker.js', import.meta.url) from the
// chunk that holds the page side (all chunks are in dist/): bundled as its own entry
await build({ entryPoints: { 'collection-worker': 'node_modules/ragwasm/web/src/worker/collection-worker.js' }, bundle: true, format: 'esm', outdir: 'dist', platform: 'browser', logLevel: 'warning' });
mkdirSync('dist', { recursive: true });
copyFileSync('node_modules/ragwasm/web/dist/ragwasm.wasm', 'dist/ragwasm.wasm');
copyFileSync('node_modules/ragwasm-static-model/static-model.bin', 'dist/static-model.bin');
copyFileSync('index.html', 'dist/index.html');
