// The judge grid's train/validation/test split (issue #31 item 3; the finance study's 40/20/20): each
// model's prompt is chosen on validation and reported on test, against the ProtocolTestDouble (a local
// OpenAI-protocol server with SCRIPTED replies: they check the bookkeeping, never a model's quality).
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { init } from '../../../web/src/index.js';
import { createLlmClient, judgeGrid, loadPrompt, parseLabels } from '../../../web/src/llm.js';
import { splitTrainValidationTest } from '../../../web/src/eval.js';
import { ProtocolTestDouble, openaiJson } from '../llm-protocol-double.mjs';

let double;
before(async () => { await init(); double = await ProtocolTestDouble.start(); });
after(async () => { await double?.close(); });

const client = (model) => createLlmClient({ provider: 'openai', baseUrl: `${double.origin}/v1`, model, maxRetries: 0, concurrency: 4 });

test('splitTrainValidationTest: seeded, disjoint, sizes by fraction, at least one item per part', () => {
  const items = Array.from({ length: 80 }, (_, i) => i);
  const s = splitTrainValidationTest(items, { seed: 3, trainFraction: 0.5, validationFraction: 0.25 });
  assert.deepEqual([s.train.length, s.validation.length, s.test.length], [40, 20, 20]);
  assert.deepEqual([...s.train, ...s.validation, ...s.test].sort((a, b) => a - b), items, 'a partition of the items');
  assert.deepEqual(splitTrainValidationTest(items, { seed: 3, trainFraction: 0.5, validationFraction: 0.25 }), s, 'same seed, same split');
  assert.notDeepEqual(splitTrainValidationTest(items, { seed: 4 }).test, s.test);
  const tiny = splitTrainValidationTest([1, 2, 3], { trainFraction: 0.9, validationFraction: 0.05 });
  assert.deepEqual([tiny.train.length, tiny.validation.length, tiny.test.length], [1, 1, 1]);
  assert.throws(() => splitTrainValidationTest(items, { trainFraction: 0.6, validationFraction: 0.4 }), { code: 'INVALID_ARGUMENT', message: /leave a test part/ });
  assert.throws(() => splitTrainValidationTest([1, 2]), { code: 'INVALID_ARGUMENT' });
});

test('judgeGrid with validationFraction: prompt chosen on validation, agreement reported on test, train never scored', async () => {
  double.reset();
  // Scripted judge: with the "alt" prompt (its system text carries ALT-PROMPT) it replies the item's
  // label hidden in the passage; with the built-in prompt always 3.
  double.always((req) => {
    const all = req.body.messages.map((m) => m.content).join('\n');
    const label = /LABEL=(\d)/.exec(all.split('Question: ').pop())[1];
    return { json: openaiJson(`Score: ${all.includes('ALT-PROMPT') ? label : 3}`) };
  });
  const items = parseLabels(Array.from({ length: 20 }, (_, i) => JSON.stringify({ id: `i${i}`, question: `q${i}?`, passage: `P${i} LABEL=${i % 4}`, label: i % 4 })).join('\n'), 'context_relevance');
  const base = await loadPrompt('judge_context_relevance');
  const alt = { ...base, version: 2, messages: base.messages.map((m, i) => (i === 0 ? { ...m, content: `${m.content}\nALT-PROMPT` } : m)) };
  const g = await judgeGrid({ models: [{ name: 'm', client: client('m') }], prompts: [{ name: 'builtin' }, { name: 'alt', prompt: alt }], items },
    { judge: 'context_relevance', seed: 7, trainFraction: 0.5, validationFraction: 0.25 });
  assert.deepEqual(g.split, { seed: 7, train: 10, validation: 5, test: 5 });
  const parts = splitTrainValidationTest(items, { seed: 7, trainFraction: 0.5, validationFraction: 0.25 });
  const scored = new Set(double.requests.map((r) => /P(\d+) LABEL/.exec(r.body.messages.map((m) => m.content).join('\n').split('Question: ').pop())[0]));
  const wanted = new Set([...parts.validation, ...parts.test].map((x) => /P(\d+) LABEL/.exec(x.passage)[0]));
  assert.deepEqual([...scored].sort(), [...wanted].sort(), 'only validation and test items are scored');
  assert.equal(double.requests.length, 2 * (5 + 5));
  assert.equal(g.cells[1].validation.overall.exact, 1);
  assert.ok(g.cells[0].validation.overall.exact < 1);
  assert.equal(g.selection.length, 1);
  assert.equal(g.selection[0].prompt, 'alt', 'the prompt that agrees on validation');
  assert.equal(g.selection[0].metric, 'kappaQuadratic');
  assert.equal(g.selection[0].test, g.cells[1].test, 'reported on test');
  assert.equal(g.selection[0].test.overall.n, 5);
  // Without validationFraction the grid is as before: no validation runs, no selection.
  double.reset();
  const plain = await judgeGrid({ models: [{ name: 'm', client: client('m') }], prompts: [{ name: 'builtin' }], items }, { judge: 'context_relevance', seed: 7 });
  assert.equal(plain.selection, undefined);
  assert.equal(plain.cells[0].validation, undefined);
  assert.equal(double.requests.length, plain.split.test);
});
