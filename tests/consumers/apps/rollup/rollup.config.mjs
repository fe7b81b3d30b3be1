// Rollup resolves bare imports with node-resolve (browser condition) and emits the files reached by
// new URL('./x', import.meta.url) with import-meta-assets.
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { importMetaAssets } from '@web/rollup-plugin-import-meta-assets';

export default {
  input: 'main.js',
  output: { dir: 'dist', format: 'es' },
  plugins: [nodeResolve({ browser: true }), importMetaAssets()],
};
