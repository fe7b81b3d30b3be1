// Human labels end to end in the CLI (issue #31 item 2): `label --pool-only` writes the pool, grades
// made with the library's gradedQrels (what the metrics classroom exports) feed `tune --qrels` and
// `judge --pool --qrels` (grid with a validation part) against the ProtocolTestDouble (SCRIPTED replies).
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { init } from '../../../web/src/index.js';
import { gradedQrels, pairKey, parsePool } from '../../../web/src/eval.js';
import { main } from '../../../web/cli/ragwasm.mjs';
import { captureCli, repoRoot } from '../helpers.mjs';
import { ProtocolTestDouble, openaiJson } from '../llm-protocol-double.mjs';

const corpus = join(repoRoot, 'examples/corpus');
let double;
let dir;
before(async () => {
  await init();
  double = await ProtocolTestDouble.start();
  dir = mkdtempSync(join(tmpdir(), 'ragwasm-human-'));
});
after(async () => {
  await double?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});
const capture = captureCli;

test('label --pool-only -> human grades -> tune --qrels and judge --pool --qrels --validation-fraction', async () => {
  double.reset();
  const poolFile = join(dir, 'pool.jsonl');
  const io = capture();
  assert.equal(await main(['label', '--dataset', corpus, '--retrievers', 'bm25', '--depth', '3', '--max-queries', '8', '--pool-only', '--out', poolFile], io), 0, io.err);
  assert.equal(double.requests.length, 0, 'no LLM call for --pool-only');
  const pool = parsePool(readFileSync(poolFile, 'utf8'));
  assert.equal(pool.length, 24, '8 questions x 3 distinct chunks (one configuration)');
  assert.match(io.out, /wrote 24 \(question, passage\) pairs of 8 questions/);
  const noOut = capture();
  assert.equal(await main(['label', '--dataset', corpus, '--retrievers', 'bm25', '--pool-only'], noOut), 2);
  assert.match(noOut.err, /--pool-only: --out POOL\.jsonl is required/);

  // A person's grades (scripted here: pair i gets i mod 4).
  const grades = {};
  pool.forEach((p, i) => { grades[pairKey(p.questionId, p.chunkId)] = i % 4; });
  writeFileSync(join(dir, 'qrels.txt'), gradedQrels(pool, grades));
  writeFileSync(join(dir, 'chunk-qrels.txt'), gradedQrels(pool, grades, { level: 'chunk' }));
  const tune = capture();
  assert.equal(await main(['tune', '--dataset', corpus, '--qrels', join(dir, 'qrels.txt'), '--max-queries', '8'], tune), 0, tune.err);
  assert.match(tune.out, /best on these labels: #\d+/);

  // A scripted judge that always replies 2.
  double.always(() => ({ json: openaiJson('Score: 2') }));
  const j = capture();
  const code = await main(['judge', '--pool', poolFile, '--qrels', join(dir, 'chunk-qrels.txt'), '--base-url', `${double.origin}/v1`, '--models', 'm',
    '--prompts', 'builtin', '--seed', '1', '--train-fraction', '0.5', '--validation-fraction', '0.25', '--max-retries', '0'], j);
  assert.equal(code, 0, j.err);
  assert.match(j.out, /split seed 1: 12 train, 6 validation, 6 test items/);
  assert.match(j.out, /prompt chosen on validation, reported on test:\n {2}m: prompt builtin \(validation kappaQuadratic [^)]+\); on test: kappa [^,]+, F1 [^,]+, off-by-one [^,]+, n 6/);
  assert.equal(double.requests.length, 12, 'validation + test items scored, train never');
  const docLevel = capture();
  // Document-level qrels name no pooled chunk: a clear error before any request.
  const before = double.requests.length;
  assert.equal(await main(['judge', '--pool', poolFile, '--qrels', join(dir, 'qrels.txt'), '--base-url', `${double.origin}/v1`, '--model', 'm'], docLevel), 1);
  assert.match(docLevel.err, /chunk-level judgments of pooled chunks \(gradedQrels with level "chunk"\).*\[INVALID_ARGUMENT\]/);
  assert.equal(double.requests.length, before);
  const mixed = capture();
  assert.equal(await main(['judge', '--pool', poolFile, '--labels', join(dir, 'qrels.txt'), '--judge', 'context_relevance', '--base-url', 'http://x', '--model', 'm'], mixed), 2);
  assert.match(mixed.err, /--pool and --qrels go together/);
}, { timeout: 300000 });
