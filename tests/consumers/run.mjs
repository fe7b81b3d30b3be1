#!/usr/bin/env node
// Runs the consumer tests (consumers.test.mjs: npm pack -> fresh apps -> each bundler -> Chromium /
// Node) and then prints the bundle size table from bench-results/consumers.json.
//   node tests/consumers/run.mjs [--apps=vite,vite-bm25,node] [--keep]
// --apps picks some of the apps (names in harness.mjs APPS); --keep leaves the built apps in the temp
// folder it prints. Exits 1 when a test failed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { APPS, consumersDir, repoRoot, sizeTable } from './harness.mjs';

const args = process.argv.slice(2);
const env = { ...process.env, RAGWASM_CONSUMERS_RUN: '1' };
for (const a of args) {
  if (a.startsWith('--apps=')) {
    const names = a.slice(7).split(',');
    const unknown = names.filter((n) => !APPS.some((x) => x.name === n));
    if (unknown.length) {
      console.error(`consumers: unknown app(s) ${unknown.join(', ')} (known: ${APPS.map((x) => x.name).join(', ')})`);
      process.exit(2);
    }
    env.RAGWASM_CONSUMERS = names.join(',');
  } else if (a === '--keep') {
    env.RAGWASM_CONSUMERS_KEEP = '1';
  } else {
    console.error(`consumers: unknown argument ${a} (usage: node tests/consumers/run.mjs [--apps=a,b] [--keep])`);
    process.exit(2);
  }
}

const started = Date.now();
const r = spawnSync(process.execPath, ['--test', '--test-reporter=spec', join(consumersDir, 'consumers.test.mjs')], { stdio: 'inherit', env });
const file = join(repoRoot, 'bench-results/consumers.json');
if (existsSync(file)) {
  const { date, rows, packs } = JSON.parse(readFileSync(file, 'utf8'));
  if (Date.parse(date) >= started) {
    process.stdout.write(`\nconsumer apps (${date}; kB = 1000 bytes, gzip -9; JS+WASM and model as emitted by each build, fetched = what the page loaded):\n`);
    process.stdout.write(`${sizeTable(rows)}\n`);
    for (const p of packs ?? []) process.stdout.write(`tarball ${p.name}@${p.version}: ${(p.size / 1000).toFixed(1)} kB packed, ${(p.unpackedSize / 1000).toFixed(1)} kB unpacked, ${p.entries} files\n`);
    process.stdout.write(`JSON: ${file}\n`);
  }
}
process.stdout.write(`consumer tests took ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
process.exit(r.status ?? 1);
