// assembleContext through the WASM build: budget, ordering, document context, numbering.
import test from 'node:test';
import assert from 'node:assert/strict';
import { init, assembleContext, estimateContextTokens, RagwasmError } from '../../../web/src/index.js';

await init();

const chunks = () => [
  { chunkId: 'c1', docId: 'A', text: 'aaaa aaaa', score: 0.9, start: 0, end: 9 },
  { chunkId: 'c3', docId: 'A', text: 'cccccccc', score: 0.7 },
  { chunkId: 'c2', docId: 'B', text: 'bbbb', score: 0.8 },
  { chunkId: 'c4', docId: 'C', text: 'd', score: 0.6 },
];

test('the estimate is ceil of code points over four', () => {
  assert.equal(estimateContextTokens('abcde'), 2);
  assert.equal(estimateContextTokens('😀😀😀😀'), 1);  // 4 code points, 8 UTF-16 units
  assert.equal(estimateContextTokens(''), 0);
});

test('sources are numbered with each document context once', () => {
  const r = assembleContext(chunks(), { docContext: { A: 'Title A' } });
  assert.equal(r.contextText, '[1] Title A\naaaa aaaa\n\n[2] bbbb\n\n[3] cccccccc\n\n[4] d');
  assert.deepEqual(r.sources[0], { n: 1, chunkId: 'c1', docId: 'A', start: 0, end: 9, score: 0.9, tokens: 3 });
  assert.equal(r.sources[1].start, null);
  assert.equal(r.tokensUsed, 7 + 2 + 4 + 3);  // texts, "Title A\n", four "[n] ", three separators
});

test('the budget skips chunks that do not fit', () => {
  const r = assembleContext(chunks(), { docContext: { A: 'Title A' }, tokenBudget: 12 });
  assert.deepEqual(r.sources.map((s) => s.chunkId), ['c1', 'c2', 'c4']);
  assert.deepEqual(r.dropped, ['c3']);
  assert.ok(r.tokensUsed <= 12);
  const t = assembleContext([{ chunkId: 'big', text: 'x', tokens: 5000 }, { chunkId: 's', text: 'y', score: -1 }], { tokenBudget: 100 });
  assert.deepEqual(t.sources.map((s) => s.chunkId), ['s']);
});

test('best at both ends puts the two best chunks first and last', () => {
  const c = [1, 2, 3, 4, 5].map((i) => ({ chunkId: `e${i}`, text: `t${i}`, score: 1 - i / 10 }));
  const r = assembleContext(c, { order: 'ends' });
  assert.deepEqual(r.sources.map((s) => s.chunkId), ['e1', 'e3', 'e5', 'e4', 'e2']);
  assert.deepEqual(r.sources.map((s) => s.n), [1, 2, 3, 4, 5]);
});

test('bad input throws RagwasmError and the next call works', () => {
  const bad = (fn, code, re) => assert.throws(fn, (e) => e instanceof RagwasmError && e.code === code && (!re || re.test(e.message)));
  bad(() => assembleContext(chunks(), { tokenBudget: 0 }), 'INVALID_ARGUMENT', /tokenBudget/);
  bad(() => assembleContext([{ chunkId: 'x', text: 'y', score: NaN }]), 'INVALID_ARGUMENT', /chunks\[0\]\.score/);
  bad(() => assembleContext([{ chunkId: '', text: 'y' }]), 'INVALID_ARGUMENT', /chunkId/);
  bad(() => assembleContext(chunks(), { order: 'middle' }), 'INVALID_ARGUMENT', /options\.order/);
  bad(() => assembleContext(chunks(), { budget: 5 }), 'INVALID_ARGUMENT', /unknown option 'budget'/);
  // A lone surrogate in text is replaced by U+FFFD (as TextEncoder does), not rejected.
  assert.equal(assembleContext([{ chunkId: 'x', text: 'a\uD800b' }]).contextText, '[1] a\uFFFDb');
  assert.equal(assembleContext(chunks()).sources.length, 4);
});
