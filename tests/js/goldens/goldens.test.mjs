// Goldens without hand labels (pooling, LLM labels -> qrels, question generation), the judge grid
// (seeded split, few-shot from train only, |predicted% - gold%|) and query clarification in ask(),
// against the ProtocolTestDouble: a local OpenAI-protocol server with SCRIPTED replies. Its replies
// are fixed strings written here; they check the protocol and the bookkeeping, never a model's quality.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ask, Collection, init, PRESETS } from '../../../web/src/index.js';
import {
  clarificationMetrics, clarifyQuestion, createLlmClient, formatQrels, generateQuestions, judgeGrid, judgmentsToQrels,
  labelPool, parseAmbiguitySet, parseClarification, parseLabels, percentError, poolCandidates, sampleChunks,
  tuneAgreement
} from '../../../web/src/llm.js';
import { splitTrainTest } from '../../../web/src/eval.js';
import { repoRoot } from '../helpers.mjs';
import { ProtocolTestDouble, openaiJson } from '../llm-protocol-double.mjs';

let double;
before(async () => { await init(); double = await ProtocolTestDouble.start(); });
after(async () => { await double?.close(); });

const client = (model = 'double-model', extra = {}) => createLlmClient({ provider: 'openai', baseUrl: `${double.origin}/v1`, model,
  maxRetries: 0, concurrency: 1, ...extra });
const userText = (req) => req.body.messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');

test('poolCandidates keeps each chunk once by its best rank over the runs, with the runs that found it', () => {
  const h = (id, docId) => ({ id, docId, text: `text of ${id}` });
  const pool = poolCandidates({
    bm25: { q1: [h('a#0', 'a'), h('b#0', 'b'), h('c#0', 'c')], q2: [h('a#1', 'a')] },
    dense: { q1: [h('c#0', 'c'), h('a#0', 'a'), h('d#0', 'd')] },
  }, { depth: 2 });
  assert.deepEqual(pool.q1.map((c) => [c.id, c.bestRank, c.runs]), [['a#0', 1, ['bm25', 'dense']], ['c#0', 1, ['dense']], ['b#0', 2, ['bm25']]]);
  assert.deepEqual(pool.q2.map((c) => c.id), ['a#1']);
  assert.throws(() => poolCandidates({}), (e) => e.code === 'INVALID_ARGUMENT' && /at least one run/.test(e.message));
  assert.throws(() => poolCandidates({ r: { q: [{ id: 'x' }] } }), (e) => e.code === 'INVALID_ARGUMENT' && /runs\.r\.q\[0\]\.docId/.test(e.message));
});

test('labelPool grades every pooled pair; a malformed reply or a failed call is unlabelled, never a 0 in the qrels', async () => {
  double.reset();
  // Replies keyed by the passage so the concurrent order does not matter.
  double.always((req) => {
    const t = userText(req);
    if (t.includes('PASSAGE-A')) return { json: openaiJson('It answers fully.\nScore: 3') };
    if (t.includes('PASSAGE-B')) return { json: openaiJson('Partly.\nScore: 1') };
    if (t.includes('PASSAGE-C')) return { json: openaiJson('I cannot decide.') };
    return { status: 500, json: { error: { message: 'scripted failure' } } };
  });
  const pool = {
    q1: [{ id: 'a#0', docId: 'a', text: 'PASSAGE-A' }, { id: 'a#1', docId: 'a', text: 'PASSAGE-B' }, { id: 'c#0', docId: 'c', text: 'PASSAGE-C' }],
    q2: [{ id: 'd#0', docId: 'd', text: 'PASSAGE-D' }, { id: 'b#0', docId: 'b', text: 'PASSAGE-B' }],
  };
  const examples = [{ question: 'EXAMPLE-Q', passage: 'EXAMPLE-P', score: 2 }];
  const r = await labelPool(client(), { questions: [{ id: 'q1', text: 'Question one?' }, { id: 'q2', text: 'Question two?' }], pool }, { examples });
  assert.equal(double.requests.length, 5);
  assert.ok(double.requests.every((q) => userText(q).includes('Example passage: EXAMPLE-P\nScore: 2')), 'few-shot examples reach the judge prompt');
  const byChunk = Object.fromEntries(r.judgments.map((j) => [`${j.questionId}/${j.chunkId}`, j]));
  assert.equal(byChunk['q1/a#0'].grade, 3);
  assert.equal(byChunk['q1/a#1'].grade, 1);
  assert.equal(byChunk['q1/c#0'].grade, null);
  assert.match(byChunk['q1/c#0'].error, /^unparsed reply/);
  assert.equal(byChunk['q2/d#0'].grade, null);
  assert.match(byChunk['q2/d#0'].error, /^HTTP/);
  assert.equal(r.labelled, 3);
  assert.equal(r.unlabelled, 2);
  // Document level: a document's best chunk grade; unlabelled pairs are absent (not 0).
  assert.deepEqual(judgmentsToQrels(r.judgments), { q1: { a: 3 }, q2: { b: 1 } });
  assert.deepEqual(judgmentsToQrels(r.judgments, { level: 'chunk' }), { q1: { 'a#0': 3, 'a#1': 1 }, q2: { 'b#0': 1 } });
  assert.equal(formatQrels({ q2: { b: 1 }, q1: { z: 0, a: 3 } }), 'q1 0 a 3\nq1 0 z 0\nq2 0 b 1\n');
  assert.throws(() => formatQrels({ 'q 1': { a: 1 } }), (e) => e.code === 'INVALID_ARGUMENT');
});

test('generateQuestions keeps the source chunk as evidence and reports NONE and malformed replies as skipped', async () => {
  double.reset();
  double.always((req) => {
    const t = userText(req);
    if (t.includes('Acme was founded in 1998')) return { json: openaiJson('Question: When was Acme founded?\nAnswer: 1998\nEvidence: "Acme was founded in 1998"') };
    if (t.includes('Table of contents')) return { json: openaiJson('NONE') };
    return { json: openaiJson('Here is a nice question for you!') };
  });
  const chunks = [
    { id: 'acme#0', docId: 'acme', title: 'About Acme', text: 'Acme was founded in 1998 in Oslo.', start: 0, end: 33 },
    { id: 'toc#0', docId: 'toc', text: 'Table of contents' },
    { id: 'x#0', docId: 'x', text: 'Something else entirely.' },
  ];
  const r = await generateQuestions(client(), chunks, { idPrefix: 'g' });
  assert.equal(r.questions.length, 1);
  const q = r.questions[0];
  assert.deepEqual({ ...q, source: undefined }, { id: 'g1', question: 'When was Acme founded?', answer: '1998', doc_ids: ['acme'],
    evidence: ['Acme was founded in 1998 in Oslo.'], answerable: true, type: 'generated', source: undefined });
  assert.deepEqual(q.source, { chunkId: 'acme#0', docId: 'acme', quote: 'Acme was founded in 1998', start: 0, end: 33 });
  assert.deepEqual(r.skipped.map((s) => s.chunkId), ['toc#0', 'x#0']);
  assert.match(r.skipped[1].reason, /unparsed reply/);
  assert.match(userText(double.requests.find((x) => userText(x).includes('Acme'))), /Document: About Acme/);
});

test('sampleChunks and splitTrainTest are seeded, deterministic and disjoint', () => {
  const chunks = Array.from({ length: 40 }, (_, i) => ({ id: `d${i % 5}#${i}`, docId: `d${i % 5}`, text: i === 3 ? 'tiny' : 'x'.repeat(100) }));
  const a = sampleChunks(chunks, { n: 6, seed: 7, perDocument: 1 });
  assert.deepEqual(a, sampleChunks(chunks, { n: 6, seed: 7, perDocument: 1 }));
  assert.equal(a.length, 5, 'at most one per document, 5 documents');
  assert.equal(new Set(a.map((c) => c.docId)).size, 5);
  assert.ok(!sampleChunks(chunks, { n: 40, seed: 7 }).some((c) => c.text === 'tiny'), 'chunks under minLength are skipped');
  assert.notDeepEqual(sampleChunks(chunks, { n: 6, seed: 7 }).map((c) => c.id), sampleChunks(chunks, { n: 6, seed: 8 }).map((c) => c.id));
  const items = Array.from({ length: 11 }, (_, i) => i);
  const s = splitTrainTest(items, { seed: 3 });
  assert.deepEqual(s, splitTrainTest(items, { seed: 3 }));
  assert.equal(s.train.length, 6);  // round(5.5)
  assert.deepEqual([...s.train, ...s.test].sort((x, y) => x - y), items);
  assert.equal(s.train.filter((x) => s.test.includes(x)).length, 0);
});

test('judgeGrid runs models x prompts on the test half with few-shot examples drawn only from the train half', async () => {
  double.reset();
  // Scripted judge: model "m-good" replies the item's own label (hidden in the passage), "m-off" replies 3 always.
  double.always((req) => {
    const t = userText(req);
    const label = /LABEL=(\d)/.exec(t.split('Question: ').pop())[1];
    return { json: openaiJson(`Score: ${req.body.model === 'm-good' ? label : 3}`) };
  });
  const lines = Array.from({ length: 12 }, (_, i) => JSON.stringify({ id: `i${i}`, question: `q${i}?`, passage: `P${i} LABEL=${i % 4}`, label: i % 4 }));
  const items = parseLabels(lines.join('\n'), 'context_relevance');
  const alt = { ...(await import('../../../web/src/llm.js').then((m) => m.loadPrompt('judge_context_relevance'))), version: 2 };
  const g = await judgeGrid({ models: [{ name: 'm-good', client: client('m-good', { concurrency: 4 }) }, { name: 'm-off', client: client('m-off', { concurrency: 4 }) }],
    prompts: [{ name: 'builtin' }, { name: 'alt', prompt: alt }], items }, { judge: 'context_relevance', seed: 5, fewShot: 3 });
  assert.equal(g.cells.length, 4);
  assert.deepEqual(g.cells.map((c) => `${c.model}/${c.prompt}`), ['m-good/builtin', 'm-good/alt', 'm-off/builtin', 'm-off/alt']);
  assert.equal(g.split.train + g.split.test, 12);
  const test_ = splitTrainTest(items, { seed: 5 });
  const trainPassages = new Set(test_.train.map((x) => x.passage));
  assert.equal(g.examples.length, 3);
  assert.ok(g.examples.every((e) => trainPassages.has(e.passage)), 'few-shot examples come from the train half');
  // Every scored request is a test item; no test passage ever appears as an example.
  const testPassages = test_.test.map((x) => x.passage);
  for (const req of double.requests) {
    const t = userText(req);
    const scored = t.split('Passage:\n').pop();
    assert.ok(testPassages.some((p) => scored.startsWith(p)), 'only test items are scored');
    const exampleBlock = t.split('Question: ')[0];
    assert.ok(testPassages.every((p) => !exampleBlock.includes(`${p}\n`)), 'a test passage leaked into the few-shot examples');
  }
  assert.equal(double.requests.length, 4 * g.split.test);
  assert.equal(g.cells[0].test.overall.exact, 1);
  assert.ok(g.cells[2].test.overall.exact < 1);
  assert.equal(g.cells[0].percent, null, 'no percent error for a rating judge');
  await assert.rejects(judgeGrid({ models: [{ name: 'm', client: client() }], prompts: [{ name: 'b' }], items }, { judge: 'answer_relevance', fewShot: 2 }),
    (e) => e.code === 'INVALID_ARGUMENT' && /fewShot/.test(e.message));
});

test('percentage judges report |predicted% - gold%| per item and for the set, with a train-half bias calibration', async () => {
  assert.deepEqual(percentError([{ label: 100, prediction: 80 }, { label: 0, prediction: 40 }, { label: 50, prediction: null }]),
    { n: 2, meanAbsoluteError: 30, predictedMean: 60, goldMean: 50, setError: 10 });
  assert.equal(percentError([]).setError, null);
  double.reset();
  // A judge that is always 20 points too generous (capped at 100).
  double.always((req) => {
    const gold = Number(/GOLD=(\d+)/.exec(userText(req))[1]);
    return { json: openaiJson(`Correctness: ${Math.min(100, gold + 20)}%`) };
  });
  const lines = [0, 10, 20, 30, 40, 50, 60, 70].map((gold, i) => JSON.stringify({ id: `a${i}`, question: 'Q?', answer: `Answer GOLD=${gold}`, reference: 'R.', label: gold }));
  const items = parseLabels(lines.join('\n'), 'answer_correctness');
  const g = await judgeGrid({ models: [{ name: 'm', client: client('m', { concurrency: 4 }) }], prompts: [{ name: 'builtin' }], items },
    { judge: 'answer_correctness', seed: 1, calibrate: true });
  const c = g.cells[0];
  assert.equal(c.percent.meanAbsoluteError, 20);
  assert.equal(c.percent.setError, 20);
  assert.equal(c.bias, 20, 'bias measured on the train half');
  assert.equal(c.calibrated.setError, 0);
  assert.equal(double.requests.length, 8, 'train (calibration) + test calls');
});

test('parseClarification keeps grounded interpretations and rejects citations of chunks that were not shown', () => {
  const shown = ['dl7#3', 'ws410#1', 'faq#0'];
  const ok = parseClarification('Sure:\n```json\n{"ambiguous": true, "interpretations": [{"question": "DL-7 warranty?", "passages": [1, 3]}, '
    + '{"question": "WS-410 warranty?", "passages": ["ws410#1"]}, {"question": "HX-9 warranty?", "passages": [7]}, {"question": "Other?", "passages": []}]}\n```', shown);
  assert.equal(ok.ambiguous, true);
  assert.deepEqual(ok.interpretations, [{ question: 'DL-7 warranty?', chunkIds: ['dl7#3', 'faq#0'] }, { question: 'WS-410 warranty?', chunkIds: ['ws410#1'] }]);
  assert.deepEqual(ok.rejected.map((r) => r.reason), ['cites 7, which was not shown', 'cites no passage']);
  // Only one grounded interpretation left: not ambiguous, though the model said so.
  const one = parseClarification('{"ambiguous": true, "interpretations": [{"question": "A?", "passages": [1]}, {"question": "B?", "passages": ["nope#9"]}]}', shown);
  assert.equal(one.ambiguous, false);
  assert.equal(one.claimedAmbiguous, true);
  assert.deepEqual(one.interpretations, []);
  assert.deepEqual(parseClarification('{"ambiguous": false, "interpretations": []}', shown).ambiguous, false);
  for (const bad of ['no json here', '{"ambiguous": "yes"}', '{"ambiguous": true, "interpretations": 3}', '{"ambiguous": tru']) {
    const r = parseClarification(bad, shown);
    assert.equal(r.ambiguous, null, bad);
    assert.match(r.error, /^unparsed reply/);
  }
});

const WS = '# WS-410 Weather Station\n\n## Warranty\n\nThe WS-410 weather station has a warranty of 3 years.\n';
const DL = '# DL-7 Data Logger\n\n## Warranty\n\nThe DL-7 data logger has a warranty of 2 years.\n';
async function products() {
  const col = await Collection.create(PRESETS.docChatBm25);
  await col.add([{ id: 'ws410', title: 'WS-410', text: WS }, { id: 'dl7', title: 'DL-7', text: DL }]);
  return col;
}
const clarifyReply = (req) => {
  // Cite the shown passages by number, in the order the prompt lists them.
  const t = userText(req);
  const n = (id) => Number(new RegExp(`\\[(\\d+)\\] \\(${id}[^)]*\\)`).exec(t)[1]);
  return { json: openaiJson(JSON.stringify({ ambiguous: true, interpretations: [
    { question: 'How long is the WS-410 warranty?', passages: [n('ws410')] }, { question: 'How long is the DL-7 warranty?', passages: [n('dl7')] },
    { question: 'How long is the HX-9 warranty?', passages: [9] }] })) };
};

test('ask with clarify "ask" returns grounded interpretations for the user to choose and sends no answer request', async () => {
  const col = await products();
  double.reset();
  double.enqueue(clarifyReply);
  const r = await ask(col, 'How long is the warranty?', { llm: client(), clarify: 'ask' });
  assert.equal(double.requests.length, 1);
  assert.equal(double.requests[0].body.messages[0].content.includes('AMBIGUOUS'), true, 'the query_clarify prompt was sent');
  assert.equal(r.clarification.ambiguous, true);
  assert.equal(r.clarification.mode, 'ask');
  assert.deepEqual(r.clarification.interpretations.map((i) => i.question), ['How long is the WS-410 warranty?', 'How long is the DL-7 warranty?']);
  const hitDoc = Object.fromEntries(r.hits.map((h) => [h.chunkId, h.docId]));
  assert.deepEqual(r.clarification.interpretations.map((i) => i.chunkIds.map((c) => hitDoc[c])), [['ws410'], ['dl7']]);
  assert.equal(r.clarification.rejected.length, 1, 'the interpretation citing passage 9 (not shown) is rejected');
  assert.deepEqual(r.citations, []);
  // Re-asking with the chosen interpretation (what the doc chat's buttons do) answers it.
  double.reset();
  double.enqueue({ json: openaiJson('Three years [1].') });
  const again = await ask(col, r.clarification.interpretations[0].question, { llm: client() });
  assert.equal(again.answer, 'Three years [1].');
  assert.equal(again.clarification, undefined, 'clarification is off by default');
  col.dispose();
});

test('ask with clarify "answer-each" answers every interpretation from the chunks it cites', async () => {
  const col = await products();
  double.reset();
  double.enqueue(clarifyReply);
  double.always((req) => ({ json: openaiJson(userText(req).includes('WS-410 warranty?') ? 'Three years [1].' : 'Two years [1].') }));
  const r = await ask(col, 'How long is the warranty?', { llm: client(), clarify: 'answer-each' });
  assert.equal(double.requests.length, 3);
  const [ws, dl] = r.clarification.interpretations;
  assert.equal(ws.answer, 'Three years [1].');
  assert.equal(ws.citations[0].docId, 'ws410');
  assert.equal(WS.slice(ws.citations[0].start, ws.citations[0].end), ws.citations[0].text);
  assert.equal(dl.answer, 'Two years [1].');
  assert.equal(dl.citations[0].docId, 'dl7');
  // Each answer request shows only the chunks its interpretation cites.
  assert.ok(!userText(double.requests[1]).includes('DL-7 data logger has'));
  assert.match(r.answer, /WS-410 warranty\?\nThree years/);
  col.dispose();
});

test('a malformed clarification reply is a parse failure: the question is answered as asked, the error reported', async () => {
  const col = await products();
  double.reset();
  double.enqueue({ json: openaiJson('Hmm, hard to say.') }, { json: openaiJson('Three years [1].') });
  const r = await ask(col, 'How long is the WS-410 warranty?', { llm: client(), clarify: 'ask' });
  assert.equal(r.clarification.ambiguous, null);
  assert.match(r.clarification.error, /unparsed reply/);
  assert.equal(r.answer, 'Three years [1].');
  await assert.rejects(ask(col, 'warranty?', { clarify: 'ask' }), (e) => e.code === 'INVALID_ARGUMENT' && /options\.clarify/.test(e.message));
  await assert.rejects(ask(col, 'warranty?', { llm: client(), clarify: 'maybe' }), (e) => e.code === 'INVALID_ARGUMENT' && /options\.clarify/.test(e.message));
  await assert.rejects(clarifyQuestion(client(), { question: 'q', passages: [] }), (e) => e.code === 'INVALID_ARGUMENT');
  col.dispose();
});

test('the ambiguous sample set names real documents and the metrics count detection, grounding and coverage', () => {
  const set = parseAmbiguitySet(readFileSync(join(repoRoot, 'examples/corpus/ambiguous.jsonl'), 'utf8'));
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'examples/corpus/manifest.json'), 'utf8'));
  const ids = new Set(manifest.map((d) => d.id));
  assert.ok(set.filter((s) => s.ambiguous).length >= 12);
  assert.ok(set.some((s) => !s.ambiguous), 'clear questions too, so precision means something');
  for (const s of set) for (const it of s.interpretations) for (const d of it.docIds) assert.ok(ids.has(d), `${s.id}: unknown document ${d}`);
  const exp = (ambiguous, ...docs) => ({ ambiguous, interpretations: docs.map((d) => ({ question: d, docIds: [d] })) });
  const res = (ambiguous, ...chunkDocs) => ({ ambiguous, interpretations: chunkDocs.map((d) => ({ question: d, chunkIds: [`${d}#0`] })), rejected: [] });
  const docOf = (c) => c.split('#')[0];
  const m = clarificationMetrics([
    { expected: exp(true, 'a', 'b'), result: res(true, 'a', 'z'), docOf, shown: ['a', 'b'] },  // tp; 1 of 2 grounded; covers a
    { expected: exp(true, 'c', 'd'), result: { ambiguous: null, interpretations: [], rejected: [] }, docOf, shown: ['c'] },  // fn (unparsed)
    { expected: exp(false, 'e'), result: res(true, 'e', 'f'), docOf },  // fp
    { expected: exp(false, 'g'), result: res(false), docOf },  // tn
  ]);
  assert.deepEqual(m, { n: 4, unparsed: 1, tp: 1, fp: 1, fn: 1, tn: 1, precision: 0.5, recall: 0.5, f1: 0.5, grounding: 0.5, coverage: 0.5, reachable: 0.75, rejected: 0 });
});

test('tuneAgreement reports the human value of the setting chosen on LLM labels and the rank agreement', () => {
  const t = (values, metric) => ({ table: values.map((value, index) => ({ index, value })), best: { index: values.indexOf(Math.max(...values)) }, metric });
  const a = tuneAgreement(t([0.5, 0.7, 0.6], 'ndcg_cut.10'), t([0.4, 0.5, 0.55], 'recall'));
  // tolerance 1e-9 on the computed values (floating point)
  const round = (v) => Number(v.toFixed(9));
  assert.deepEqual({ ...a, regret: round(a.regret), spearman: round(a.spearman), kendall: round(a.kendall) }, { rows: 3,
    picked: { index: 1, llmValue: 0.7, humanValue: 0.5 }, humanBest: { index: 2, value: 0.55 },
    regret: 0.05, spearman: 0.5, kendall: round(1 / 3), llmMetric: 'ndcg_cut.10', humanMetric: 'recall' });
  assert.throws(() => tuneAgreement(t([1, 2], 'x'), t([1], 'y')), (e) => e.code === 'INVALID_ARGUMENT');
});
