// Judges, answers and enrichment through the LLM client against the ProtocolTestDouble (scripted
// replies on 127.0.0.1), and the C++ reply parsers through WASM on the fixture corpus. These tests
// check plumbing, parsing and the documented rules; they say nothing about any model's quality.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { init, RagwasmError } from '../../../web/src/index.js';
import { createLlmClient, ResponseCache, parseJudgeScore, parseClaimScores, aggregateScores, isAbstention, judgeContextRelevance, judgeAnswerRelevance, judgeAnswerCorrectness, judgeGroundedness, generateAnswer, extractMetadata, contextualizeChunks, rewriteQuery, extractCitations, stripCitations, parseListReply } from '../../../web/src/llm.js';
import { repoRoot } from '../helpers.mjs';
import { ProtocolTestDouble, anthropicJson, openaiJson } from '../llm-protocol-double.mjs';

let double;
before(async () => { await init(); double = await ProtocolTestDouble.start(); });
after(async () => { await double.close(); });

const client = (extra = {}) => createLlmClient({ provider: 'openai', baseUrl: `${double.origin}/v1`, model: 'double-model',
  timeoutMs: 2000, retryBaseMs: 1, retryMaxMs: 2, ...extra });
const readJsonl = (name) => readFileSync(join(repoRoot, 'tests/fixtures/judge-replies', name), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const userText = (req) => req.body.messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');

test('the WASM reply parser agrees with the fixture corpus expectations', () => {
  const cases = readJsonl('scores.jsonl');
  assert.ok(cases.length >= 30);
  for (const c of cases) {
    const scale = { kind: c.kind, min: c.min, max: c.max };
    if (c.expect === 'PARSE_ERROR') {
      assert.throws(() => parseJudgeScore(c.reply, scale), (e) => e instanceof RagwasmError && e.code === 'PARSE_ERROR', c.id);
    } else {
      const r = parseJudgeScore(c.reply, scale);
      assert.equal(r.value, c.expect, c.id);
      if (c.method) assert.equal(r.method, c.method, c.id);
    }
  }
  for (const c of readJsonl('claims.jsonl')) {
    const got = parseClaimScores(c.reply, c.n_claims);
    assert.deepEqual(got.map((g) => g.score), c.expect, c.id);
    for (const g of got) assert.equal(g.score === null, typeof g.error === 'string', `${c.id}: an absent score carries its reason`);
  }
});

test('parser arguments are validated and the offset is in UTF-16 units', () => {
  assert.throws(() => parseJudgeScore('Score: 1', { kind: 'stars' }), (e) => e.code === 'INVALID_ARGUMENT');
  assert.throws(() => parseJudgeScore('Score: 1', { min: 3, max: 1 }), (e) => e.code === 'INVALID_ARGUMENT');
  assert.throws(() => parseJudgeScore(42), (e) => e.code === 'INVALID_ARGUMENT');
  const r = parseJudgeScore('😀 Score: 2');  // the emoji is 2 UTF-16 units, 4 bytes
  assert.equal('😀 Score: 2'.slice(r.offset), '2');
  assert.throws(() => aggregateScores([1, 'x']), (e) => e.code === 'INVALID_ARGUMENT');
  assert.equal(aggregateScores([null, null]).value, null);
});

test('context relevance with self-consistency reports majority spread and unparsed samples', async () => {
  double.reset();
  double.enqueue({ json: openaiJson('[scripted] The passage mentions it.\nScore: 2') },
    { json: openaiJson('[scripted] Score: 3') },
    { json: openaiJson('[scripted] I cannot grade this.') });
  const r = await judgeContextRelevance(client(), { question: 'Q?', passage: 'P.' }, { samples: 3 });
  assert.equal(double.requests.length, 3);
  assert.equal(r.score, 2);  // samples 2, 3, unparsed: a 1-1 tie goes to the smaller value
  assert.equal(r.unparsed, 1);
  assert.equal(r.spread, 1);
  assert.equal(r.samples[2].score, null);
  assert.match(r.samples[2].error, /no score found/);
  assert.deepEqual(r.prompt, { id: 'judge_context_relevance', version: 1 });
  assert.equal(double.requests[0].body.temperature, 0.7);  // sampling when samples > 1
  const mean = await (async () => {
    double.enqueue({ json: openaiJson('Score: 2') }, { json: openaiJson('Score: 3') });
    return judgeContextRelevance(client(), { question: 'Q?', passage: 'P.' }, { samples: 2, aggregate: 'mean' });
  })();
  assert.equal(mean.score, 2.5);
});

test('self-consistency samples stay distinct through a response cache', async () => {
  double.reset();
  double.enqueue({ json: openaiJson('[scripted] Score: 1') }, { json: openaiJson('[scripted] Score: 2') }, { json: openaiJson('[scripted] Score: 3') });
  const c = client({ cache: new ResponseCache() });
  const first = await judgeContextRelevance(c, { question: 'Q?', passage: 'P.' }, { samples: 3 });
  assert.deepEqual(first.samples.map((x) => x.score).sort(), [1, 2, 3]);
  const again = await judgeContextRelevance(c, { question: 'Q?', passage: 'P.' }, { samples: 3 });
  assert.equal(double.requests.length, 3, 'the rerun was answered from the cache');
  assert.deepEqual(again.samples.map((x) => x.reply), first.samples.map((x) => x.reply), 'each sample is its own cache entry');
  assert.equal(again.spread, 2);
  // The sample index is never sent to the server.
  assert.ok(double.requests.every((r) => !('sample' in r.body)));
  await assert.rejects(c.complete({ messages: [{ role: 'user', content: 'x' }] }, { sample: -1 }), (e) => e.code === 'INVALID_ARGUMENT' && /options\.sample/.test(e.message));
});

test('a judge whose replies never parse gives score null not zero', async () => {
  double.reset();
  double.always({ json: openaiJson('[scripted] Highly relevant!') });
  const r = await judgeAnswerRelevance(client(), { question: 'Q?', answer: 'A.' });
  assert.equal(r.score, null);
  assert.equal(r.unparsed, 1);
});

test('few-shot examples are rendered into the context relevance prompt', async () => {
  double.reset();
  double.enqueue({ json: openaiJson('Score: 1') });
  await judgeContextRelevance(client(), { question: 'Q?', passage: 'P.' }, { examples: [{ question: 'EQ', passage: 'EP', score: 3 }] });
  assert.match(userText(double.requests[0]), /^Example question: EQ\nExample passage: EP\nScore: 3\n\nQuestion: Q\?/);
  await assert.rejects(judgeContextRelevance(client(), { question: 'Q?', passage: 'P.' }, { examples: [{ question: 'EQ', passage: 'EP', score: 9 }] }),
    (e) => e.code === 'INVALID_ARGUMENT');
  // Example text is inserted verbatim: "$&" / "$'" are not replacement patterns and "{{passage}}"
  // inside a question is not expanded.
  double.enqueue({ json: openaiJson('Score: 1') });
  await judgeContextRelevance(client(), { question: 'Q?', passage: 'P.' }, { examples: [{ question: 'costs $& and $\' {{passage}}', passage: 'EP', score: 2 }] });
  assert.match(userText(double.requests[1]), /^Example question: costs \$& and \$' \{\{passage\}\}\nExample passage: EP\nScore: 2\n\n/);
});

test('answer correctness applies the unanswerable rules without calling the model', async () => {
  double.reset();
  const c = client();
  const both = await judgeAnswerCorrectness(c, { question: 'Q?', answer: 'The documents do not answer this question.', reference: 'Not answerable from the documents.' });
  assert.equal(both.score, 100);
  assert.equal(both.rule, 'both-unanswerable');
  const flagged = await judgeAnswerCorrectness(c, { question: 'Q?', answer: 'I don\'t know.', reference: 'n/a', referenceAnswerable: false });
  assert.equal(flagged.score, 100);
  const abstained = await judgeAnswerCorrectness(c, { question: 'Q?', answer: 'This is not in the documents.', reference: 'It was 12 mg.' });
  assert.equal(abstained.score, 0);
  assert.equal(abstained.rule, 'answer-abstained');
  assert.equal(double.requests.length, 0);
  double.enqueue({ json: openaiJson('[scripted] One of two facts matches.\nCorrectness: 50%') });
  const judged = await judgeAnswerCorrectness(c, { question: 'Q?', answer: 'It was 12 mg daily.', reference: 'It was 12 mg twice daily.' });
  assert.equal(judged.score, 50);
  assert.equal(judged.rule, null);
  assert.match(userText(double.requests[0]), /Reference answer: It was 12 mg twice daily\./);
});

test('groundedness scores claims with evidence and skips abstentions', async () => {
  double.reset();
  double.enqueue({ json: openaiJson('[1] Score: 3 | Evidence: "enrolled 300 patients"\n[2] Score: 0 | Evidence: none') });
  const r = await judgeGroundedness(client(), {
    answer: 'The trial enrolled 300 patients [1]. It was approved in 2019 [2].',
    contexts: [{ id: 'd1', text: 'The trial enrolled 300 patients.' }, { id: 'd2', text: 'Approval is pending.' }],
  });
  assert.deepEqual(r.claims.map((c) => c.text), ['The trial enrolled 300 patients.', 'It was approved in 2019.']);
  assert.deepEqual(r.claims.map((c) => c.score), [3, 0]);
  assert.equal(r.claims[0].evidence, 'enrolled 300 patients');
  assert.equal(r.score, (3 + 0) / 2 / 3);  // mean claim score over the 0-3 scale
  const sent = userText(double.requests[0]);
  assert.match(sent, /\[1\] \(d1\) The trial enrolled 300 patients\./);
  assert.match(sent, /Claims:\n\[1\] The trial enrolled 300 patients\.\n\[2\] It was approved in 2019\./);
  const none = await judgeGroundedness(client(), { answer: 'The documents do not answer this question.', contexts: [] });
  assert.equal(none.abstained, true);
  assert.equal(none.score, null);
  assert.equal(double.requests.length, 1);
  double.enqueue({ json: openaiJson('[1] Score: 2') });
  const partial = await judgeGroundedness(client(), { answer: 'A. B.', contexts: [{ text: 'x' }] }, { claims: ['A.', 'B.'] });
  assert.equal(partial.unparsed, 1);
  assert.equal(partial.score, 2 / 3);  // only the parsed claim counts; the other is reported
  // No price for the model: the cost is unknown (null), not 0; with a price it is counted.
  assert.equal(r.cost, null);
  double.enqueue({ json: openaiJson('[1] Score: 3', { prompt_tokens: 1000, completion_tokens: 100 }) });
  const priced = await judgeGroundedness(client({ prices: { 'double-model': { inputPerMTok: 1, outputPerMTok: 10 } } }),
    { answer: 'A.', contexts: [{ text: 'x' }] }, { claims: ['A.'] });
  assert.equal(priced.cost, (1000 * 1 + 100 * 10) / 1e6);
});

test('grounded answers keep citations and flag markers pointing at no passage', async () => {
  double.reset();
  double.enqueue({ json: openaiJson('[scripted] Acme was founded in 1998 [1]. It has 7 plants [7].') });
  const passages = [{ id: 'a', text: 'Acme was founded in 1998.' }, { id: 'b', text: 'Other.' }];
  const deltas = [];
  const r = await generateAnswer(client(), { question: 'When was Acme founded?', passages }, { onText: (t) => deltas.push(t) });
  assert.deepEqual(r.citations, [{ n: 1, id: 'a' }]);
  assert.deepEqual(r.invalidCitations, [7]);
  assert.equal(r.abstained, false);
  assert.equal(deltas.join(''), r.text);
  const sys = double.requests[0].body.messages[0];
  assert.equal(sys.role, 'system');
  assert.match(sys.content, /The documents do not answer this question\./);
  assert.deepEqual(extractCitations('x [2][3] y [2]', [{}, {}, {}]).cited.map((c) => c.n), [2, 3]);
  assert.equal(stripCitations('It rose [1][2]. It fell [3].'), 'It rose. It fell.');
  assert.equal(isAbstention('The documents do not answer this question.'), true);
});

test('metadata extraction reads key value lines', async () => {
  double.reset();
  double.enqueue({ json: openaiJson('company: Acme Corp\ndate: 2023-03-31\nform type: 10-Q\nnonsense line') });
  const r = await extractMetadata(client(), 'ACME CORP FORM 10-Q ...', { keys: ['company', 'date', 'form type'] });
  assert.deepEqual(r.metadata, { company: 'Acme Corp', date: '2023-03-31', 'form type': '10-Q' });
  assert.match(double.requests[0].body.messages[0].content, /Use these keys when the document states them: company, date, form type\./);
});

test('chunk context stops sending when one chunk fails and reports that failure', async () => {
  double.reset();
  double.enqueue({ status: 400, json: { error: { message: 'scripted bad request' } } });
  double.always((req) => ({ json: openaiJson(`[scripted note ${req.body.messages.length}]`) }));
  const c = client({ concurrency: 1, maxRetries: 0 });
  await assert.rejects(() => contextualizeChunks(c, 'DOC TEXT', ['one', 'two', 'three', 'four', 'five']),
    (e) => e.code !== 'ABORTED' && /scripted bad request/.test(e.message));
  assert.equal(double.requests.length, 1, 'the four queued chunks were never sent');
});

test('chunk context sends the document first and identically for every chunk', async () => {
  double.reset();
  double.always((req) => ({ json: anthropicJson(`[scripted note ${req.body.messages[0].content[1].text.length}]`) }));
  const c = createLlmClient({ provider: 'anthropic', baseUrl: double.origin, model: 'double-model', timeoutMs: 2000 });
  const out = await contextualizeChunks(c, 'DOC TEXT', ['chunk one', 'chunk two']);
  assert.equal(out.length, 2);
  assert.equal(out[0].chunk, 'chunk one');
  assert.ok(out[0].text.endsWith('\n\nchunk one'));
  const blocks = double.requests.map((r) => r.body.messages[0].content[0]);
  assert.deepEqual(blocks[0], blocks[1]);
  assert.deepEqual(blocks[0], { type: 'text', text: '<document>\nDOC TEXT\n</document>', cache_control: { type: 'ephemeral' } });
});

test('query rewriting returns the first line of the reply', async () => {
  double.reset();
  double.enqueue({ json: openaiJson('\n"acme 2023 revenue"\nextra') });
  const r = await rewriteQuery(client(), 'and in 2023?', { history: [{ role: 'user', content: 'Acme revenue 2022?' }] });
  assert.equal(r.query, 'acme 2023 revenue');
  assert.match(userText(double.requests[0]), /user: Acme revenue 2022\?/);
});

test('judges reject a non-client and bad inputs', async () => {
  await assert.rejects(judgeAnswerRelevance({}, { question: 'q', answer: 'a' }), (e) => e.code === 'INVALID_ARGUMENT');
  await assert.rejects(judgeAnswerRelevance(client(), { question: 'q' }), (e) => e.code === 'INVALID_ARGUMENT');
  await assert.rejects(judgeContextRelevance(client(), { question: 'q', passage: 'p' }, { samples: 0 }), (e) => e.code === 'INVALID_ARGUMENT');
});

test('groundedness can ask the model to split claims first', async () => {
  double.reset();
  double.enqueue({ json: openaiJson('1. Acme was founded in 1998.\n2. Acme is based in Oslo.') },
    { json: openaiJson('[1] Score: 3 | Evidence: "founded in 1998"\n[2] Score: 1 | Evidence: none') });
  const r = await judgeGroundedness(client(), { answer: 'It was founded in 1998 and sits in Oslo [1].', contexts: [{ text: 'Acme was founded in 1998.' }] },
    { claims: 'llm', question: 'When and where?' });
  assert.equal(double.requests.length, 2);
  assert.match(userText(double.requests[0]), /Question: When and where\?/);
  assert.deepEqual(r.claims.map((c) => c.text), ['Acme was founded in 1998.', 'Acme is based in Oslo.']);
  assert.equal(r.score, (3 + 1) / 2 / 3);
  assert.equal(r.usage.inputTokens, 22);  // two scripted calls of 11 input tokens each
  assert.deepEqual(parseListReply('1) a\n- b\n\n* c\nplain'), ['a', 'b', 'c', 'plain']);
  assert.deepEqual(parseListReply(' NONE. '), []);
});
