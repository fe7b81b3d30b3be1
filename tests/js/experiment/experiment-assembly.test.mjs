// Issue 32 item 1: the answer prompt is built by one context step from the config's assembly section
// (docContext, tokenBudget, maxChunks, order) in runExperiment, `ragwasm rag` and ask() alike, and an
// assembly key no stage reads is refused. Checked on the request bodies the ProtocolTestDouble receives
// (scripted replies on 127.0.0.1: they say nothing about any model).
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answerContext, ask, Collection, init, RagwasmError } from '../../../web/src/index.js';
import { createLlmClient, ResponseCache } from '../../../web/src/llm.js';
import { parseExperimentGrid, runExperiment } from '../../../web/src/eval.js';
import { main } from '../../../web/cli/ragwasm.mjs';
import { captureIo } from '../helpers.mjs';
import { openaiJson, ProtocolTestDouble } from '../llm-protocol-double.mjs';

let double;
before(async () => { await init(); double = await ProtocolTestDouble.start(); });
after(async () => { await double.close(); });

// Titles differ from the documents' first headers, so the title and the header path are told apart.
const DOCS = [
  { id: 'leave', title: 'HR-7 Leave Rules', text: '# Leave Policy\n\n## Paid time off\n\nFull-time employees receive 22 days of PTO per year.\n\n## Sick leave\n\nSick leave is 10 days per year and does not roll over.\n' },
  { id: 'travel', title: 'FIN-2 Travel Rules', text: '# Travel Policy\n\n## Meals\n\nThe domestic meal per diem is 72 dollars per day.\n\n## Hotels\n\nThe nightly hotel cap is 210 dollars in standard locations.\n' },
];
const QUESTIONS = [
  { id: 'q1', question: 'How many days of PTO do full-time employees receive?', answer: '22 days per year', doc_ids: ['leave'], evidence: ['Full-time employees receive 22 days of PTO per year.'], answerable: true },
  { id: 'q2', question: 'What is the domestic meal per diem?', answer: '72 dollars per day', doc_ids: ['travel'], evidence: ['The domestic meal per diem is 72 dollars per day.'], answerable: true },
];
const dataset = { documents: DOCS, questions: QUESTIONS };
const endpoint = (model) => ({ provider: 'openai', baseUrl: `${double.origin}/v1`, model, price: { inputPerMTok: 1, outputPerMTok: 2 }, maxRetries: 0 });
const BASE = { chunker: { strategy: 'markdown-header', chunkSize: 400, context: { headerPath: true } }, indexes: { bm25: { fields: { text: 1 } } },
  retrieval: { k: 1 }, answerer: { type: 'llm' } };
const userText = (req) => req.body.messages.map((m) => (typeof m.content === 'string' ? m.content : m.content.map((p) => p.text).join('\n'))).join('\n');
// Replies: a document summary for the context endpoint ('ctx'), an answer citing [1] for the rest.
const script = (req) => ({ json: openaiJson(req.body.model === 'ctx' ? 'Zanzibarite summary of this document.' : 'Scripted answer [1].') });
// The passages of a rendered answer prompt ("[n] (chunk id) text" blocks between "Passages:" and "Question:").
function blocks(prompt) {
  const part = prompt.slice(prompt.indexOf('Passages:\n') + 10, prompt.lastIndexOf('\n\nQuestion:'));
  return part.split(/\n\n(?=\[\d+\] \()/).map((b) => {
    const m = b.match(/^\[(\d+)\] \(([^)]*)\) ([\s\S]*)$/);
    return { n: Number(m[1]), id: m[2], text: m[3] };
  });
}
const answerRequests = () => double.requests.filter((r) => r.body.model === 'gen').map(userText);

async function promptsOf(assembly, { base = BASE, k } = {}) {
  double.reset();
  double.always(script);
  const cfg = { ...base, ...(assembly ? { assembly } : {}), ...(k ? { retrieval: { k }, answerer: { type: 'llm', chunks: k } } : {}) };
  const r = await runExperiment({ base: cfg, answer: { models: [endpoint('gen')] } }, dataset);
  assert.equal(r.cells[0].status, 'ok', r.cells[0].error);
  return answerRequests();
}

test('#32 assembly.docContext decides what the answer prompt puts before each chunk (experiment)', async () => {
  const none = await promptsOf({ docContext: 'none' });
  const title = await promptsOf({ docContext: 'title' });
  const chunker = await promptsOf({ docContext: 'chunker' });
  for (const list of [none, title, chunker]) assert.equal(list.length, QUESTIONS.length);
  // q1's top chunk is the PTO section of "leave": its title is HR-7 Leave Rules, its header path Leave Policy > Paid time off.
  const pto = '## Paid time off\n\nFull-time employees receive 22 days of PTO per year.';
  assert.deepEqual(blocks(none[0]), [{ n: 1, id: 'leave#1', text: pto }]);
  assert.deepEqual(blocks(title[0]), [{ n: 1, id: 'leave#1', text: `HR-7 Leave Rules\n${pto}` }]);
  assert.deepEqual(blocks(chunker[0]), [{ n: 1, id: 'leave#1', text: `Leave Policy > Paid time off\n${pto}` }]);
  assert.match(blocks(title[1])[0].text, /^FIN-2 Travel Rules\n## Meals\n\nThe domestic meal per diem/);
  // The default (no assembly section) is 'chunker': the generator sees what the index saw.
  assert.deepEqual(await promptsOf(undefined), chunker);
});

test('#32 with the LLM summary as chunk context the generator reads the summary, so the cells send different prompts', async () => {
  double.reset();
  double.always(script);
  const cache = new ResponseCache();
  const grid = {
    base: { ...BASE, chunker: { strategy: 'markdown-header', chunkSize: 400 } },
    vary: { 'chunker.context': { none: null, summary: { llmSummary: {} } } },
    answer: { models: [endpoint('gen')], context: endpoint('ctx') },
  };
  const r = await runExperiment(grid, dataset, { cache });
  assert.deepEqual(r.cells.map((c) => c.status), ['ok', 'ok']);
  const prompts = answerRequests();
  // 2 cells x 2 questions, none served from the cache: the summary cell's prompts differ from the no-context cell's.
  assert.equal(prompts.length, 2 * QUESTIONS.length);
  assert.equal(r.cells[1].llm.cachedCalls, 0);
  assert.doesNotMatch(prompts[0], /Zanzibarite/);
  assert.match(blocks(prompts[2])[0].text, /^Zanzibarite summary of this document\.\n## Paid time off/);
  // assembly.docContext 'none' takes it out again (then the cache answers the summary cell's prompts).
  double.reset();
  double.always(script);
  const r2 = await runExperiment({ ...grid, base: { ...grid.base, assembly: { docContext: 'none' } } }, dataset, { cache: new ResponseCache() });
  assert.equal(r2.cells[1].llm.cachedCalls, QUESTIONS.length);
  assert.ok(answerRequests().every((p) => !/Zanzibarite/.test(p)));
});

test('#32 maxChunks and tokenBudget cut the passages; order "ends" puts rank 2 last', async () => {
  const base = { ...BASE, chunker: { strategy: 'markdown-header', chunkSize: 400 } };
  const all = await promptsOf({ docContext: 'none' }, { base, k: 3 });
  const three = blocks(all[0]);
  assert.deepEqual(three.map((x) => x.n), [1, 2, 3]);
  const one = blocks((await promptsOf({ docContext: 'none', maxChunks: 1 }, { base, k: 3 }))[0]);
  assert.deepEqual(one, [three[0]]);
  // A budget of exactly rank 1's tokens ("[1] " = 1 + ceil(code points / 4) of its text): rank 1 fits, rank 2 and 3 do not
  // (each costs at least 1 + 1 + 1: its "[n] ", the separator and one token of text).
  const cost1 = 1 + Math.ceil([...three[0].text].length / 4);
  const budget = blocks((await promptsOf({ docContext: 'none', tokenBudget: cost1 }, { base, k: 3 }))[0]);
  assert.deepEqual(budget, [three[0]]);
  const ends = blocks((await promptsOf({ docContext: 'none', order: 'ends' }, { base, k: 3 }))[0]);
  assert.deepEqual(ends.map((x) => x.id), [three[0].id, three[2].id, three[1].id]);
  assert.deepEqual(ends.map((x) => x.n), [1, 2, 3]);
});

test('#32 an assembly key no stage reads is refused, naming its path', () => {
  const grid = (base) => ({ base: { ...BASE, ...base }, answer: { models: [endpoint('gen')] } });
  assert.throws(() => parseExperimentGrid(grid({ answerer: { type: 'extractive' }, assembly: { docContext: 'title' } })),
    (e) => e instanceof RagwasmError && e.code === 'INVALID_ARGUMENT' && /^ragwasm: base\.assembly\.docContext: the assembly section is read by the llm answerer's prompt only; this answerer is "extractive"/.test(e.message));
  assert.throws(() => parseExperimentGrid(grid({ assembly: { tokenCount: 'wordpiece' } })),
    (e) => e.code === 'INVALID_ARGUMENT' && /base\.assembly\.tokenCount: "wordpiece" is read by no stage/.test(e.message));
  assert.throws(() => parseExperimentGrid(grid({ assembly: { docContext: 'summary' } })), (e) => e.code === 'INVALID_ARGUMENT' && /assembly\.docContext/.test(e.message));
  // The llm cells of the same grid are accepted.
  assert.equal(parseExperimentGrid(grid({ assembly: { docContext: 'title', order: 'ends' } })).cells[0].config.assembly.docContext, 'title');
  // 'chunker' and 'none' are normalized to the saved format's booleans, which answerContext reads as the names.
  assert.equal(parseExperimentGrid(grid({ assembly: { docContext: 'chunker' } })).cells[0].config.assembly.docContext, true);
  assert.equal(parseExperimentGrid(grid({ assembly: { docContext: 'none' } })).cells[0].config.assembly.docContext, false);
});

test('#32 ask() with an LLM reads the collection config\'s assembly section; citations follow the prompt order', async () => {
  const col = await Collection.create({ ...BASE, chunker: { strategy: 'markdown-header', chunkSize: 400 }, assembly: { docContext: 'title', order: 'ends' } });
  await col.add(DOCS);
  double.reset();
  double.always(() => ({ json: openaiJson('The per diem is 72 dollars [2].') }));
  const llm = createLlmClient({ provider: 'openai', baseUrl: `${double.origin}/v1`, model: 'gen', maxRetries: 0 });
  const r = await ask(col, 'What is the domestic meal per diem?', { llm, k: 3, answerChunks: 3 });
  const prompt = userText(double.requests[0]);
  const ctx = answerContext(col, r.hits.slice(0, 3).map((h) => ({ id: h.chunkId, docId: h.docId, text: h.text })));
  // order 'ends': ranks 1, 3, 2; each passage after its document's title.
  assert.deepEqual(ctx.hits.map((h) => h.id), [r.hits[0].chunkId, r.hits[2].chunkId, r.hits[1].chunkId]);
  assert.deepEqual(blocks(prompt), ctx.passages.map((p, i) => ({ n: i + 1, id: p.id, text: p.text })));
  assert.match(blocks(prompt)[0].text, /^FIN-2 Travel Rules\n## Meals\n\nThe domestic meal per diem/);
  // [2] is the prompt's second passage: rank 3 of the hits.
  assert.equal(r.citations[0].chunkId, r.hits[2].chunkId);
  col.dispose();
});

test('#32 ragwasm rag builds the answer prompt from the --config assembly section; extractive-only with an assembly section is refused', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-assembly-'));
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(DOCS.map((d) => ({ id: d.id, file: `${d.id}.md`, title: d.title }))));
  for (const d of DOCS) writeFileSync(join(dir, `${d.id}.md`), d.text);
  writeFileSync(join(dir, 'questions.jsonl'), QUESTIONS.map((q) => JSON.stringify(q)).join('\n') + '\n');
  const config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify({ chunker: { strategy: 'markdown-header', chunkSize: 400 }, indexes: { bm25: { fields: { text: 1 } } }, retrieval: { k: 1 }, assembly: { docContext: 'title' } }));
  double.reset();
  double.always((req) => ({ json: openaiJson(/Reference answer:/.test(req.raw) ? 'Correctness: 80%' : 'Scripted answer [1].') }));
  const cap = captureIo();
  const code = await main(['rag', '--dataset', dir, '--config', config, '--base-url', `${double.origin}/v1`, '--models', 'gen', '--judge-model', 'judge', '--answerer', 'llm'], cap.io);
  assert.equal(code, 0, cap.err());
  const prompts = answerRequests();
  assert.equal(prompts.length, QUESTIONS.length);
  assert.deepEqual(blocks(prompts[0]), [{ n: 1, id: 'leave#1', text: 'HR-7 Leave Rules\n## Paid time off\n\nFull-time employees receive 22 days of PTO per year.' }]);
  const cap2 = captureIo();
  assert.equal(await main(['rag', '--dataset', dir, '--config', config, '--answerer', 'extractive'], cap2.io), 2);
  assert.match(cap2.err(), /assembly\.docContext: the assembly section is read by the llm answerer's prompt only/);
});
