#!/usr/bin/env node
// `npm start [-- --port N]`: bootstrap, build the release WASM module and the demo assets, then serve
// web/ on 127.0.0.1. Everything the demos need is local: no download.
import { spawnSync } from 'node:child_process';
import { resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './serve.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const step = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
step('bash', ['scripts/bootstrap']);
step('bash', ['scripts/build.sh', 'wasm-release']);
step(process.execPath, ['scripts/build-assets.mjs']);
const i = process.argv.indexOf('--port');
const eq = process.argv.find((a) => a.startsWith('--port='));
const port = eq ? Number(eq.slice(7)) : i >= 0 ? Number(process.argv[i + 1]) : 8787;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error('start: --port expects an integer 0-65535');
  process.exit(2);
}
await startServer({ port });
