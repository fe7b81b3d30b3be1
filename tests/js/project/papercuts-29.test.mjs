// Issue 29 papercuts: a storage backend missing in this runtime is a RagwasmError naming it (not a
// ReferenceError from indexedDB), and `ragwasm --version` / `-v` print the package version.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { init, Bm25Index, Collection, RagwasmError, saveBytes, loadBytes, storageBackend } from '../../../web/src/index.js';
import { build, repoRoot } from '../helpers.mjs';

await init({ build });

for (const backend of ['indexeddb', 'opfs']) {
  test(`a '${backend}' backend in Node is a RagwasmError naming it`, async () => {
    const named = (e) => e instanceof RagwasmError && e.code === 'UNSUPPORTED_ENVIRONMENT' && e.message.includes(`'${backend}'`) && /use 'node'/.test(e.message);
    await assert.rejects(storageBackend({ backend }), named);
    await assert.rejects(saveBytes('x', new Uint8Array([1]), { backend }), named);
    await assert.rejects(loadBytes('x', { backend }), named);
    const idx = Bm25Index.create();
    await assert.rejects(idx.save('x', { backend }), named);
    idx.dispose();
    const col = await Collection.create({ retrieval: { retrievers: ['bm25'] } });
    await assert.rejects(col.save('x', { backend }), named);
    await assert.rejects(Collection.load('x', { backend }), named);
    col.dispose();
  });
}

test('ragwasm --version and -v print the package version', () => {
  const version = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version;
  for (const flag of ['--version', '-v']) {
    const r = spawnSync(process.execPath, [join(repoRoot, 'web/cli/ragwasm.mjs'), flag], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, `${version}\n`);
  }
});
