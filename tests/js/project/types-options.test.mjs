// Issue #13 item 4: the hand-written .d.ts files cannot drift from the options the code accepts. Every
// option key a function validates (its `expectOptions(value, name, [keys])` list in web/src) must be
// declared as a property in the .d.ts beside that file (or another .d.ts of the same folder), so
// renaming an option on one side only fails here. The other half — every runtime export of each
// entry is declared and every declared value exists — is tests/js/project/package.test.mjs.
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repoRoot } from '../helpers.mjs';

function jsFiles(dir, out = []) {
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) jsFiles(p, out);
    else if (p.endsWith('.js')) out.push(p);
  }
  return out;
}

test('#13 every option key the code accepts is declared in the .d.ts beside it', () => {
  const missing = [];
  let keys = 0;
  let lists = 0;
  for (const file of jsFiles(join(repoRoot, 'web/src'))) {
    const own = file.replace(/\.js$/, '.d.ts');
    if (!existsSync(own)) continue;  // internal plumbing without public types
    const folder = dirname(file);
    const declarations = [own, ...readdirSync(folder).filter((f) => f.endsWith('.d.ts')).map((f) => join(folder, f))]
      .map((p) => readFileSync(p, 'utf8')).join('\n');
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(/expectOptions\([^,]+,\s*([`'][^`']*[`']|[\w.]+)\s*,\s*\[([^\]]*)\]/g)) {
      lists++;
      for (const k of m[2].matchAll(/'([^']+)'/g)) {
        keys++;
        if (!new RegExp(`\\b${k[1]}\\??\\s*:`).test(declarations)) missing.push(`${file.slice(repoRoot.length + 1)}: ${m[1]} accepts '${k[1]}', no declaration names it`);
      }
    }
  }
  assert.ok(lists >= 50 && keys >= 200, `expected the option lists of the whole API, found ${lists} lists with ${keys} keys`);
  assert.deepEqual(missing, []);
});
