// README examples run as tests: each ```js block is executed against this checkout (from the repository
// root, as a user of a clone runs it) and its printed output must equal the `// → …` lines written
// under each console.log. The README's shape is checked too: a user's page, not a status board.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../helpers.mjs';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const lines = readme.split('\n');
const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => ({ code: m[1], line: readme.slice(0, m.index).split('\n').length }));
const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));

/** 'ragwasm' or 'ragwasm/llm' -> file URL of that entry in this checkout (package.json exports). */
function entryUrl(specifier) {
  const sub = specifier === pkg.name ? '.' : `.${specifier.slice(pkg.name.length)}`;
  const target = pkg.exports[sub]?.default;
  assert.ok(target, `README imports '${specifier}', which is not a package entry`);
  return pathToFileURL(join(repoRoot, target)).href;
}

test('the README has runnable JS examples, the first a quick start of at most 15 lines within the first 60 lines', () => {
  assert.ok(blocks.length >= 1);
  const quick = blocks[0];
  const end = quick.line + quick.code.split('\n').length;
  assert.ok(end <= 60, `the quick start ends at line ${end}`);
  assert.ok(quick.code.trimEnd().split('\n').length <= 15, 'the quick start has more than 15 lines');
  // index files, ask, a cited answer
  assert.match(quick.code, /Collection\.create/);
  assert.match(quick.code, /\bask\(/);
  assert.match(quick.code, /citations/);
});

test('the README is a user\'s page: at most 250 lines, no dated measurements, no work log', () => {
  assert.ok(lines.length <= 250, `README.md has ${lines.length} lines`);
  const dated = lines.filter((l) => /\b20\d\d-\d\d-\d\d\b|\b\d\d:\d\d UTC\b/.test(l));
  assert.deepEqual(dated, [], 'dates and times of day belong to the CHANGELOG or the benchmark JSON');
  assert.doesNotMatch(readme, /Not yet done|What works today/);
  for (const h of ['## Quick start', '## Two commands', '## Install', '## CLI', '## Measured', '## Guides']) {
    assert.ok(lines.includes(h), `README.md lacks the section ${h}`);
  }
  assert.match(readme, /```sh\nnpm start[^\n]*\nnpm test[^\n]*\n```/, 'the two commands');
});

test('every demo screenshot the README shows is a PNG in the repository', () => {
  const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)]+\.png)\)/g)].map((m) => m[1]);
  assert.ok(images.length >= 3, 'a screenshot of each of the three demos');
  for (const img of images) {
    const p = join(repoRoot, img);
    assert.ok(existsSync(p), `${img} is missing`);
    const head = readFileSync(p).subarray(0, 8);
    assert.deepEqual([...head], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], `${img} is not a PNG`);
  }
});

blocks.forEach(({ code }, i) => {
  test(`README example ${i + 1} prints what it says`, () => {
    const expected = [...code.matchAll(/^\/\/ → (.*)$/gm)].map((m) => m[1]);
    assert.ok(expected.length > 0, 'an example must state its output');
    const src = code.replace(/from '(ragwasm(?:\/[a-z]+)?)'/g, (all, s) => `from ${JSON.stringify(entryUrl(s))}`);
    const file = join(mkdtempSync(join(tmpdir(), 'ragwasm-readme-')), `example${i + 1}.mjs`);
    writeFileSync(file, src);
    const r = spawnSync(process.execPath, [file], { encoding: 'utf8', env: process.env, cwd: repoRoot });
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /deprecated/i, 'a README example uses an old name');
    const got = r.stdout.trim().split('\n').map((l) => l.trim());
    // Each console.log prints one line here (short arrays and objects); compare with node's formatting.
    assert.deepEqual(got, expected);
  });
});
