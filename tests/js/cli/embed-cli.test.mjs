// `ragwasm embed`: texts -> JSON lines or a binary float32 matrix with the default static model.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { main } from '../../../web/cli/ragwasm.mjs';
import { repoRoot } from '../helpers.mjs';

function capture() {
  const chunks = { stdout: [], stderr: [] };
  const io = {
    stdout: { write: (s) => { chunks.stdout.push(typeof s === 'string' ? Buffer.from(s) : Buffer.from(s)); return true; } },
    stderr: { write: (s) => { chunks.stderr.push(Buffer.from(s)); return true; } },
  };
  return { io, out: () => Buffer.concat(chunks.stdout), err: () => Buffer.concat(chunks.stderr).toString() };
}

const MODEL = join(repoRoot, 'models/build/static-model.bin');
if (!existsSync(MODEL)) execFileSync(process.execPath, ['--max-old-space-size=6000', join(repoRoot, 'models/build-static-model.mjs')], { stdio: 'ignore' });

test('embed writes one JSON line per text with unit vectors', async () => {
  const c = capture();
  assert.equal(await main(['embed', 'the cat sat', 'protein folding'], c.io), 0, c.err());
  const lines = c.out().toString().trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => l.index), [0, 1]);
  assert.equal(lines[0].vector.length, 100);
  const norm = Math.sqrt(lines[1].vector.reduce((s, x) => s + x * x, 0));
  assert.ok(Math.abs(norm - 1) < 1e-5);
});

test('embed writes a binary matrix from an input file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-embed-cli-'));
  try {
    writeFileSync(join(dir, 'in.txt'), 'first text\nsecond text\nthird\n');
    const c = capture();
    assert.equal(await main(['embed', '--input', join(dir, 'in.txt'), '--format', 'binary', '--output', join(dir, 'out.bin')], c.io), 0, c.err());
    const b = readFileSync(join(dir, 'out.bin'));
    assert.equal(b.readUInt32LE(0), 3);
    assert.equal(b.readUInt32LE(4), 100);
    assert.equal(b.length, 8 + 3 * 100 * 4);
    // The JSON and binary outputs agree.
    const j = capture();
    assert.equal(await main(['embed', 'third'], j.io), 0);
    const v = JSON.parse(j.out().toString()).vector;
    const f = new Float32Array(b.buffer.slice(b.byteOffset + 8 + 2 * 400, b.byteOffset + 8 + 3 * 400));
    assert.deepEqual(Array.from(f), v);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('embed reports usage errors and a missing or corrupt model', async () => {
  let c = capture();
  assert.equal(await main(['embed'], c.io), 2);
  assert.match(c.err(), /no texts/);
  c = capture();
  assert.equal(await main(['embed', '--format', 'csv', 'x'], c.io), 2);
  c = capture();
  assert.equal(await main(['embed', '--model', '/nonexistent/model.bin', 'x'], c.io), 1);
  assert.match(c.err(), /not found/);
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-embed-cli-'));
  try {
    // the magic, version 2, then junk: the container's seal refuses it
    writeFileSync(join(dir, 'bad.bin'), Buffer.concat([Buffer.from('RWSTATIC'), Buffer.from([2, 0, 0, 0]), Buffer.from('not really a model file at all, just bytes')]));
    c = capture();
    assert.equal(await main(['embed', '--model', join(dir, 'bad.bin'), 'x'], c.io), 1);
    assert.match(c.err(), /CORRUPT_INDEX/);
    // the magic, then text where the version goes: a version this build does not read, named
    writeFileSync(join(dir, 'text.bin'), Buffer.from('RWSTATIC not really a model file at all, just bytes'));
    c = capture();
    assert.equal(await main(['embed', '--model', join(dir, 'text.bin'), 'x'], c.io), 1);
    assert.match(c.err(), /UNSUPPORTED_VERSION/);
    assert.match(c.err(), /reads versions 1 to 2/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
