// The CLI: help per subcommand, exit codes, and `sentences` / `info` output.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../helpers.mjs';

const cli = join(repoRoot, 'web/cli/ragwasm.mjs');
const run = (...args) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env: process.env });

test('ragwasm --help lists the subcommands and exits 0', () => {
  const r = run('--help');
  assert.equal(r.status, 0);
  assert.match(r.stdout, /usage: ragwasm COMMAND/);
  assert.match(r.stdout, /sentences\s+split a UTF-8 text file/);
  assert.match(r.stdout, /info\s+print the version/);
});

test('every subcommand has --help', () => {
  const list = run('--help').stdout.split('\n').filter((l) => /^  \S/.test(l)).map((l) => l.trim().split(/\s+/)[0]);
  assert.ok(list.length >= 2);
  for (const name of list) {
    const r = run(name, '--help');
    assert.equal(r.status, 0, `${name} --help: ${r.stderr}`);
    assert.match(r.stdout, new RegExp(`usage: ragwasm ${name}`));
  }
});

test('ragwasm sentences FILE prints JSON lines with UTF-16 offsets', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-cli-'));
  const f = join(dir, 'a.txt');
  writeFileSync(f, 'Hi \u{1F600}. Dr. No is here.\n');
  const r = run('sentences', f);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines, [{ start: 0, end: 6, text: 'Hi \u{1F600}.' }, { start: 7, end: 22, text: 'Dr. No is here.' }]);
});

test('ragwasm sentences --strict rejects invalid UTF-8 with exit 1 and the error code', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-cli-'));
  const f = join(dir, 'bad.txt');
  writeFileSync(f, Buffer.from([0x61, 0xff, 0x2e]));
  const r = run('sentences', '--strict', f);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /INVALID_UTF8/);
  const lenient = run('sentences', f);
  assert.equal(lenient.status, 0);
  assert.equal(JSON.parse(lenient.stdout).text, 'a\uFFFD.');
});

test('unknown commands and options exit 2 with a message', () => {
  assert.equal(run('nope').status, 2);
  const r = run('sentences', '--nope', 'x');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /Unknown option '--nope'/);
  const missing = run('sentences', '/nonexistent/file.txt');
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /file not found/);
});

test('ragwasm info prints the module facts as JSON', () => {
  const r = run('info');
  assert.equal(r.status, 0, r.stderr);
  const o = JSON.parse(r.stdout);
  assert.equal(typeof o.version, 'string');
  assert.equal(o.maxTextBytes, 256 * 1024 * 1024);
});
