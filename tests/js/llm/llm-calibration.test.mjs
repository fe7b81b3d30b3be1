// Judge calibration and the `ragwasm judge` CLI against the ProtocolTestDouble. The double's reply
// for each item is scripted inside the item's passage ("[double: Score: 3]"), so the expected
// agreement numbers follow from the fixture by hand arithmetic. Nothing here measures a model.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { init } from '../../../web/src/index.js';
import { createLlmClient, parseLabels, calibrateJudge, comparePrompts, loadPrompt, definePrompt } from '../../../web/src/llm.js';
import { main } from '../../../web/cli/ragwasm.mjs';
import { repoRoot } from '../helpers.mjs';
import { ProtocolTestDouble, openaiJson } from '../llm-protocol-double.mjs';

const labelsFile = join(repoRoot, 'tests/fixtures/judge-replies/calibration-labels.jsonl');
let double;
// The scripted reply is whatever follows "[double: " in the request (the item's passage).
const scripted = (req) => ({ json: openaiJson(`[scripted] ${/\[double: ([^\]]*)\]/.exec(req.raw)?.[1] ?? 'none'}`) });
before(async () => { await init(); double = await ProtocolTestDouble.start(); double.always(scripted); });
after(async () => { await double.close(); });
const client = () => createLlmClient({ provider: 'openai', baseUrl: `${double.origin}/v1`, model: 'double-model', timeoutMs: 2000, maxRetries: 0 });

test('calibration reports agreement computed from the scripted judgments', async () => {
  const items = parseLabels(readFileSync(labelsFile, 'utf8'), 'context_relevance');
  assert.equal(items.length, 5);
  const r = await calibrateJudge(client(), items, { judge: 'context_relevance', sliceField: 'type' });
  // judge 0,1,3,3,(unparsed) vs human 0,1,2,3,3
  assert.deepEqual(r.predictions.map((p) => p.prediction), [0, 1, 3, 3, null]);
  assert.equal(r.overall.scored, 4);
  assert.equal(r.overall.unscored, 1);
  assert.equal(r.failures, 1);
  assert.match(r.predictions[4].error, /unparsed reply/);
  assert.equal(r.overall.exact, 3 / 4);
  assert.equal(r.overall.offByOne, 1);
  // kappa: po = 3/4; judge marginals {0:1, 1:1, 3:2}, human {0:1, 1:1, 2:1, 3:1} over 4 pairs:
  // pe = (1*1 + 1*1 + 0*1 + 2*1) / 16 = 0.25; kappa = (0.75 - 0.25) / (1 - 0.25) = 2/3
  assert.ok(Math.abs(r.overall.kappa - 2 / 3) < 1e-12, `kappa ${r.overall.kappa}`);
  // binary at >= 2: judge 0,0,1,1 vs human 0,0,1,1 -> perfect
  assert.equal(r.overall.binary.f1, 1);
  assert.deepEqual(r.overall.confusion.labels, [0, 1, 2, 3]);
  assert.deepEqual(r.overall.confusion.matrix[3], [0, 0, 1, 1]);  // judge 3: human 2 once, human 3 once
  assert.deepEqual(Object.keys(r.slices), ['lookup', 'numeric']);
  assert.equal(r.slices.lookup.n, 3);
  assert.equal(r.slices.lookup.unscored, 1);
  assert.equal(r.slices.numeric.exact, 1 / 2);
});

test('labels files are validated line by line', () => {
  assert.throws(() => parseLabels('{"question": "q", "passage": "p", "label": 5}', 'context_relevance'), (e) => e.code === 'PARSE_ERROR' && /line 1: label/.test(e.message));
  assert.throws(() => parseLabels('{"question": "q", "label": 1}', 'context_relevance'), (e) => e.code === 'PARSE_ERROR' && /missing 'passage'/.test(e.message));
  assert.throws(() => parseLabels('\n{oops', 'context_relevance'), (e) => e.code === 'PARSE_ERROR' && /line 2/.test(e.message));
  assert.throws(() => parseLabels('', 'context_relevance'), (e) => e.code === 'PARSE_ERROR');
});

test('two prompts are compared on the same items', async () => {
  const items = parseLabels(readFileSync(labelsFile, 'utf8'), 'context_relevance');
  const builtIn = await loadPrompt('judge_context_relevance');
  // Variant B always asks the double for "Score: 2" whatever the passage says.
  const b = definePrompt({ ...builtIn, version: 99, messages: [{ role: 'user', content: 'Q: {{question}} P: {{passage}}{{examples}} [double: Score: 2]' }] });
  double.reset();
  double.always((req) => scripted({ raw: req.raw.replace(/.*\[double: /s, '[double: ') }));
  const cmp = await comparePrompts(client(), items, { judge: 'context_relevance', promptB: b });
  double.always(scripted);
  assert.deepEqual(cmp.b.predictions.map((p) => p.prediction), [2, 2, 2, 2, 2]);
  // exact: A right on c1, c2, c4; B right on c3 only
  assert.equal(cmp.onlyA, 3);
  assert.equal(cmp.onlyB, 1);
  assert.equal(cmp.both, 0);
  assert.equal(cmp.neither, 1);
});

test('ragwasm judge prints the report and writes predictions and the ledger', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-judge-'));
  let stdout = '';
  let stderr = '';
  const io = { stdout: { write: (s) => { stdout += s; } }, stderr: { write: (s) => { stderr += s; } } };
  process.env.RAGWASM_TEST_KEY = 'sk-cli-SECRET-key';
  const code = await main(['judge', '--labels', labelsFile, '--judge', 'context_relevance', '--base-url', `${double.origin}/v1`,
    '--model', 'double-model', '--slice', 'type', '--api-key-env', 'RAGWASM_TEST_KEY', '--out', join(dir, 'pred.jsonl'),
    '--ledger', join(dir, 'ledger.jsonl'), '--max-retries', '0'], io);
  delete process.env.RAGWASM_TEST_KEY;
  assert.equal(code, 0, stderr);
  assert.match(stdout, /overall: 5 items, 4 scored, 1 without a score/);
  assert.match(stdout, /kappa 0\.667/);
  assert.match(stdout, /slice numeric/);
  assert.match(stdout, /requests sent: 5 to 127\.0\.0\.1/);
  const preds = readFileSync(join(dir, 'pred.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(preds.length, 5);
  const ledger = readFileSync(join(dir, 'ledger.jsonl'), 'utf8');
  assert.equal(ledger.trim().split('\n').length, 5);
  assert.ok(!ledger.includes('sk-cli-SECRET-key'));
  assert.ok(!stdout.includes('sk-cli-SECRET-key'));
  const bad = await main(['judge', '--labels', labelsFile, '--judge', 'nope', '--base-url', 'http://x', '--model', 'm'], io);
  assert.equal(bad, 2);
  writeFileSync(join(dir, 'bad.jsonl'), '{"question": 1}\n');
  const badLabels = await main(['judge', '--labels', join(dir, 'bad.jsonl'), '--judge', 'context_relevance', '--base-url', 'http://x', '--model', 'm'], io);
  assert.equal(badLabels, 1);
  assert.match(stderr, /PARSE_ERROR/);
});
