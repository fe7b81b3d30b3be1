// README examples run as tests: each ```js block is executed against this checkout and its printed
// output must equal the `// → …` lines written under each console.log.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './helpers.mjs';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);

test('the README has runnable JS examples', () => {
  assert.ok(blocks.length >= 1);
});

blocks.forEach((code, i) => {
  test(`README example ${i + 1} prints what it says`, () => {
    const expected = [...code.matchAll(/^\/\/ → (.*)$/gm)].map((m) => m[1]);
    assert.ok(expected.length > 0, 'an example must state its output');
    const src = code.replace(/from 'ragwasm'/g, `from ${JSON.stringify(pathToFileURL(join(repoRoot, 'web/src/index.js')).href)}`);
    const file = join(mkdtempSync(join(tmpdir(), 'ragwasm-readme-')), `example${i + 1}.mjs`);
    writeFileSync(file, src);
    const r = spawnSync(process.execPath, [file], { encoding: 'utf8', env: process.env });
    assert.equal(r.status, 0, r.stderr);
    const got = r.stdout.trim().split('\n').map((l) => l.trim());
    // Each console.log prints one line here (short arrays and objects); compare with node's formatting.
    assert.deepEqual(got, expected);
  });
});
