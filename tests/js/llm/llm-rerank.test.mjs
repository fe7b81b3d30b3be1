// LLM reranker (web/src/llm/rerank.js createLlmReranker) against the ProtocolTestDouble: scripted
// "Score: N" replies on 127.0.0.1 decide the grades, so these tests check the plumbing (one judge call
// per passage, scores, unparsed replies, abort on failure, "retrieve N, rerank, keep K"); they say
// nothing about any model's quality.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { init, rerank, retrieveAndRerank, RagwasmError } from '../../../web/src/index.js';
import { createLlmClient, createLlmReranker } from '../../../web/src/llm.js';
import { ProtocolTestDouble, openaiJson } from '../llm-protocol-double.mjs';

let double;
before(async () => { await init(); double = await ProtocolTestDouble.start(); });
after(async () => { await double.close(); });

const client = (extra = {}) => createLlmClient({ provider: 'openai', baseUrl: `${double.origin}/v1`, model: 'double-model',
  timeoutMs: 2000, retryBaseMs: 1, retryMaxMs: 2, ...extra });
const userText = (req) => req.body.messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');
// Scripted grades keyed by a word of the passage: the double answers like a rubric-following judge.
const GRADES = { paris: 3, lyon: 1, seine: 2, pie: 0 };
const scripted = (req) => {
  const text = userText(req).toLowerCase();
  const word = Object.keys(GRADES).find((w) => text.includes(`passage:\n${w}`));
  return { json: openaiJson(word === undefined ? '[scripted: no grade]' : `[scripted reasoning]\nScore: ${GRADES[word]}`) };
};

test('each passage gets one context-relevance call and its grade', async () => {
  double.reset();
  double.always(scripted);
  const { reranker, stats } = createLlmReranker(client());
  const scores = await reranker('What is the capital of France?', ['lyon is a city', { text: 'paris is the capital' }, 'pie recipe']);
  assert.deepEqual(scores, [1, 3, 0]);
  assert.equal(double.requests.length, 3);
  for (const r of double.requests) assert.match(userText(r), /^Question: What is the capital of France\?\n\nPassage:\n/);
  assert.deepEqual({ calls: stats.calls, pairs: stats.pairs, unparsed: stats.unparsed }, { calls: 1, pairs: 3, unparsed: 0 });
});

test('retrieve N, rerank with the LLM, keep K: grades first, retrieval order on ties', async () => {
  double.reset();
  double.always(scripted);
  const { reranker } = createLlmReranker(client());
  const retrieved = ['pie a', 'lyon b', 'seine c', 'paris d', 'lyon e', 'paris f'].map((text, i) => ({ id: `d${i}`, text }));
  const out = await retrieveAndRerank('capital of France', (q, n) => retrieved.slice(0, n), reranker, { candidates: 5, keep: 3 });
  assert.deepEqual(out.map((x) => x.id), ['d3', 'd2', 'd1'], 'paris 3, seine 2, then the first lyon (1) by retrieval rank');
  assert.deepEqual(out.map((x) => x.rerankScore), [3, 2, 1]);
  assert.equal(double.requests.length, 5, 'only the N = 5 candidates are graded');
});

test('an unparseable reply scores unparsedScore and is counted', async () => {
  double.reset();
  double.always(scripted);
  const { reranker, stats } = createLlmReranker(client(), { unparsedScore: -5 });
  assert.deepEqual(await reranker('q', ['paris x', 'nothing to grade here']), [3, -5]);
  assert.equal(stats.unparsed, 1);
});

test('a failed request stops the queued ones and surfaces its error', async () => {
  double.reset();
  double.enqueue({ status: 400, json: { error: { message: 'scripted bad request' } } });
  double.always(scripted);
  const { reranker } = createLlmReranker(client({ concurrency: 1, maxRetries: 0 }));
  await assert.rejects(() => reranker('q', ['paris 1', 'paris 2', 'paris 3', 'paris 4']), (e) => e.code !== 'ABORTED' && /scripted bad request/.test(e.message));
  assert.equal(double.requests.length, 1);
});

test('bad clients, options and items are RagwasmErrors', async () => {
  assert.throws(() => createLlmReranker({}), (e) => e instanceof RagwasmError && /client: expected an LlmClient/.test(e.message));
  assert.throws(() => createLlmReranker(client(), { samples: 0 }), /samples/);
  assert.throws(() => createLlmReranker(client(), { unparsedScore: NaN }), /unparsedScore: expected a finite number/);
  assert.throws(() => createLlmReranker(client(), { bogus: 1 }), /bogus/);
  const { reranker } = createLlmReranker(client());
  await assert.rejects(() => reranker('q', [42]), /items\[0\]: expected a string or an object with a string `text`/);
  const ac = new AbortController();
  ac.abort();
  double.reset();
  double.always(scripted);
  await assert.rejects(() => createLlmReranker(client(), { signal: ac.signal }).reranker('q', ['paris']), (e) => e.code === 'ABORTED');
  assert.equal(double.requests.length, 0, 'an aborted signal sends nothing');
});

test('rerank()\'s AbortSignal reaches the LLM reranker: queued calls are not sent', async () => {
  double.reset();
  const ac = new AbortController();
  double.always((req) => { ac.abort(); return scripted(req); });
  const { reranker } = createLlmReranker(client({ concurrency: 1 }));
  await assert.rejects(() => rerank('q', ['paris 1', 'paris 2', 'paris 3', 'paris 4'].map((text) => ({ text })), reranker, { signal: ac.signal }),
    (e) => e.code === 'ABORTED');
  assert.equal(double.requests.length, 1, 'the abort during the first call stops the three queued ones');
});
