// Atomic save (issue 7 item 7): a child process saves a large payload over a stored collection
// through storage.js's Node file backend and is SIGKILLed part-way through the write. Loading the
// name afterwards must give the previous good copy, byte-identical (SHA-256) and CRC-verified by
// Collection.fromBytes, with the same search hits. Repeated at several kill points.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { init, listStored, loadBytes } from '../../../web/src/index.js';
import { Collection } from '../../../web/src/index.js';
import { repoRoot } from '../helpers.mjs';

await init();

const NAME = 'atomic-col';
const BIG = 192 * 1024 * 1024;  // bytes the killed child tries to save over NAME
const sha = (b) => createHash('sha256').update(b).digest('hex');

async function embed(texts) {
  return texts.map((t) => {
    const v = new Float32Array(16);
    for (const w of t.toLowerCase().match(/[a-z]+/g) ?? []) v[w.length % 16] += 1;
    const n = Math.hypot(...v) || 1;
    return v.map((x) => x / n);
  });
}

const docs = Array.from({ length: 200 }, (_, i) => ({
  id: `d${i}`,
  text: `Document ${i} talks about ${['rivers', 'mountains', 'deserts', 'forests'][i % 4]} and item ${i * 7}. ` +
    'Sediment, erosion and rainfall shape the land over long periods. '.repeat(1 + (i % 5)),
}));

// The child: fills BIG bytes (a recognisable pattern, never a valid collection) and saves them.
function childSource(dir) {
  const storage = pathToFileURL(join(repoRoot, 'web/src/core/storage.js')).href;
  // Each write of the file backend waits 25 ms first (a slow disk), so the parent's poll sees the temp
  // file grow and kills the child mid-write however busy the machine is (the backend writes in 8 MiB pieces).
  return `import { saveBytes } from ${JSON.stringify(storage)};
import { open, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const probePath = join(tmpdir(), 'ragwasm-atomic-probe-' + process.pid);
const probe = await open(probePath, 'w');
const FileHandle = Object.getPrototypeOf(probe);
await probe.close();
await unlink(probePath);
const write = FileHandle.write;
FileHandle.write = async function (...args) { await new Promise((r) => setTimeout(r, 25)); return write.apply(this, args); };
const big = new Uint8Array(${BIG}); for (let i = 0; i < big.length; i += 4096) big[i] = 0xAB;
process.stdout.write('go\\n');
await saveBytes(${JSON.stringify(NAME)}, big, { dir: ${JSON.stringify(dir)} });
process.stdout.write('saved\\n');`;
}

const tmpFiles = (dir) => readdirSync(dir).filter((n) => n.includes('.tmp-'));

// Starts the child, polls its temp file, SIGKILLs it when the file reaches `fraction` of BIG.
// Returns the temp file's size after the child died (the bytes that were written when it was killed).
function killDuringSave(dir, fraction) {
  return new Promise((resolve, reject) => {
    const before = new Set(tmpFiles(dir));
    const child = spawn(process.execPath, ['--input-type=module', '-e', childSource(dir)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    let killedAt = null;
    let timer = null;
    child.stdout.on('data', (d) => {
      out += d;
      if (timer || !out.includes('go')) return;
      const poll = () => {
        const tmp = tmpFiles(dir).find((n) => !before.has(n));
        if (tmp) {
          let size = 0;
          try { size = statSync(join(dir, tmp)).size; } catch { /* renamed meanwhile */ }
          if (size >= fraction * BIG) {
            child.kill('SIGKILL');
            killedAt = tmp;
            return;
          }
        }
        timer = setImmediate(poll);
      };
      timer = setImmediate(poll);
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearImmediate(timer);
      const left = tmpFiles(dir).filter((n) => !before.has(n));
      const size = left.length ? statSync(join(dir, left[0])).size : null;
      resolve({ signal, out, killedAt, size, leftover: left });
    });
  });
}

test('a save killed halfway leaves the previous good copy intact and checksummed', { timeout: 60_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-atomic-'));
  try {
    const col = await Collection.create({ chunker: { chunkSize: 120, chunkOverlap: 0 } }, { embedder: embed, dimension: 16 });
    await col.add(docs);
    await col.save(NAME, { dir });
    const good = await loadBytes(NAME, { dir });
    const goodSha = sha(good);
    const queries = ['rivers erosion', 'mountains item 70', 'deserts rainfall'];
    const goodHits = [];
    for (const q of queries) goodHits.push(await col.search(q, { k: 5 }));

    const midWrite = [];
    for (const fraction of [0.1, 0.45, 0.8]) {
      const r = await killDuringSave(dir, fraction);
      assert.equal(r.signal, 'SIGKILL', `child was not killed (fraction ${fraction}): ${r.out}`);
      assert.ok(!r.out.includes('saved'), 'the child finished the save before the kill');
      // The write really was cut: the child's temp file is left behind, shorter than the payload.
      assert.equal(r.leftover.length, 1, `expected one orphaned temp file, got ${r.leftover}`);
      assert.ok(r.size > 0 && r.size < BIG, `temp file size ${r.size} should be strictly inside (0, ${BIG})`);
      midWrite.push(r.size / BIG);

      const bytes = await loadBytes(NAME, { dir });
      assert.equal(bytes.length, good.length);
      assert.equal(sha(bytes), goodSha, `stored copy changed after a kill at ${(100 * r.size / BIG).toFixed(1)}%`);
      const again = await Collection.load(NAME, { dir, embedder: embed, dimension: 16 });  // CRC-32 verified
      assert.equal(again.size, col.size);
      for (let i = 0; i < queries.length; i++) {
        const hits = await again.search(queries[i], { k: 5 });
        assert.deepEqual(hits.map((h) => [h.id, h.score]), goodHits[i].map((h) => [h.id, h.score]), queries[i]);
      }
      again.dispose();
      // Orphaned temp files are invisible to listStored().
      assert.deepEqual(await listStored({ dir }), [NAME]);
    }
    // Kill points differ (the poll stops at >= 10%, 45%, 80% of the payload).
    assert.ok(midWrite[0] < midWrite[2], `kill points ${midWrite}`);
    t.diagnostic(`killed at ${midWrite.map((f) => (100 * f).toFixed(1) + '%').join(', ')} of a ${BIG >> 20} MiB save`);
    // The killed writers' temp files are still there; the next successful save removes them.
    assert.equal(readdirSync(dir).filter((f) => f.includes('.tmp-')).length, 3);
    await col.save(NAME, { dir });
    assert.deepEqual(readdirSync(dir).filter((f) => f.includes('.tmp-')), []);
    assert.equal(sha(await loadBytes(NAME, { dir })), goodSha);
    col.dispose();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
