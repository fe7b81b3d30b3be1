// The no-LLM extractive answerer through WASM: sentence choice with citations, UTF-16 offsets,
// the no-answer text and argument errors (C++ scoring is tested in tests/cpp/test_answer_extractive.cpp).
import test, { before } from 'node:test';
import assert from 'node:assert/strict';
import { init, RagwasmError } from '../../../web/src/index.js';
import { extractiveAnswer } from '../../../web/src/llm.js';

before(async () => { await init(); });

const chunks = [
  { id: 'doc-a#0', text: 'Café Ñandú opened in 1998 in Oslo. It serves coffee.', score: 3.2 },
  { id: 'doc-b#1', text: 'Revenue of Café Ñandú reached €4 million in 2023.', score: 2.1 },
];

test('the best sentence comes back with its citation and UTF-16 offsets', () => {
  const r = extractiveAnswer('When did Café Ñandú open?', chunks);
  assert.equal(r.answered, true);
  assert.equal(r.sentences[0].chunkId, 'doc-a#0');
  assert.equal(r.sentences[0].text, 'Café Ñandú opened in 1998 in Oslo.');
  assert.equal(chunks[0].text.slice(r.sentences[0].start, r.sentences[0].end), r.sentences[0].text);
  assert.ok(r.text.startsWith('Café Ñandú opened in 1998 in Oslo. [1]'));
  assert.deepEqual(r.citations.slice(0, 1), ['doc-a#0']);
});

test('a question the chunks do not cover gets the no-answer text', () => {
  const r = extractiveAnswer('What is the boiling point of mercury?', chunks, { noAnswerText: 'Not in the documents.' });
  assert.equal(r.answered, false);
  assert.equal(r.text, 'Not in the documents.');
  assert.deepEqual(r.sentences, []);
});

test('bad arguments are INVALID_ARGUMENT and the answerer works afterwards', () => {
  const bad = (fn, re) => assert.throws(fn, (e) => e instanceof RagwasmError && e.code === 'INVALID_ARGUMENT' && re.test(e.message));
  bad(() => extractiveAnswer(1, chunks), /question/);
  bad(() => extractiveAnswer('q', [{ id: 'x' }]), /chunks\[0\]\.text/);
  bad(() => extractiveAnswer('q', chunks, { maxSentences: 0 }), /maxSentences/);
  bad(() => extractiveAnswer('q', chunks, { threshold: NaN }), /threshold/);
  bad(() => extractiveAnswer('q', chunks, { bogus: 1 }), /unknown option 'bogus'/);
  assert.equal(extractiveAnswer('When did Café Ñandú open?', chunks).answered, true);
});

test('the JSDoc example of extractiveAnswer gives the documented text', () => {
  const r = extractiveAnswer('When was Acme founded?', [{ id: 'a#0', text: 'Acme was founded in 1998. It makes pumps.' }]);
  assert.equal(r.text, 'Acme was founded in 1998. [1]');
});
