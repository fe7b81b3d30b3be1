// webpack 5 understands new URL('./x.wasm', import.meta.url) (asset modules) and import() on its own.
import { fileURLToPath } from 'node:url';

export default {
  mode: 'production',
  entry: './main.js',
  output: { path: fileURLToPath(new URL('./dist', import.meta.url)), filename: 'main.js', clean: true },
  performance: { hints: false },
};
