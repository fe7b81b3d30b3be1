// #16: the pipeline config's LLM context steps (chunker.context.llmSummary, llmChunkContext) run by
// Collection.add with Collection.create(config, {llm: client}) and by autotune({base, llm}), against the ProtocolTestDouble: its
// replies are scripted strings, so these tests check the wiring (calls, prompts, what reaches BM25),
// never a model's quality.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { Collection, init } from '../../../web/src/index.js';
import { autotune, memoizeContextSteps } from '../../../web/src/eval.js';
import { createLlmClient, summarizeDocument } from '../../../web/src/llm.js';
import { ProtocolTestDouble, openaiJson } from '../llm-protocol-double.mjs';

let double;
before(async () => { await init(); double = await ProtocolTestDouble.start(); });
after(async () => { await double.close(); });

const client = () => createLlmClient({ provider: 'openai', baseUrl: `${double.origin}/v1`, model: 'ctx', maxRetries: 0 });
const docs = [
  { id: 'd1', title: 'Harbour report', text: 'The harbour handled more ships this year. Cranes were replaced in spring. '.repeat(6) },
  { id: 'd2', title: 'Orchard notes', text: 'Apple trees flowered early. The pickers arrived in August and stayed a month. '.repeat(6) },
];
const systemOf = (req) => req.body.messages[0].content;
const userText = (req) => { const c = req.body.messages[1].content; return typeof c === 'string' ? c : c.map((p) => p.text).join('\n'); };
// Summaries name a word found only in them (zanzibarite for d1, quetzalcoatl for d2); chunk notes say "mooring ledger".
function scripted(req) {
  if (/document summaries/.test(systemOf(req))) return { json: openaiJson(/Harbour report/.test(userText(req)) ? 'A zanzibarite port ledger.' : 'Quetzalcoatl orchard diary.') };
  return { json: openaiJson(/harbour/.test(userText(req)) ? 'From the mooring ledger.' : '') };
}

test('a config asking for an LLM step without an llm fails naming the key', async () => {
  double.reset();
  for (const key of ['llmSummary', 'llmChunkContext']) {
    await assert.rejects(Collection.create({ chunker: { context: { [key]: {} } }, indexes: { bm25: {} } }),
      (e) => e.code === 'INVALID_ARGUMENT' && e.message.includes(`chunker.context.${key}`) && /llm: client/.test(e.message));
  }
  await assert.rejects(Collection.create({ chunker: { context: { llmSummary: { maxTokens: 0 } } }, indexes: { bm25: {} } }, { llm: client() }),
    (e) => e.code === 'INVALID_ARGUMENT' && /chunker\.context\.llmSummary\.maxTokens/.test(e.message));
  await assert.rejects(Collection.create({ chunker: { context: { llmSummary: {} } }, indexes: { bm25: {} } }, { llm: {} }),
    (e) => e.code === 'INVALID_ARGUMENT' && /options\.llm/.test(e.message));
  assert.equal(double.requests.length, 0);
});

test('llmSummary: one call per document, the summary prepended to every chunk and found by BM25', async () => {
  double.reset();
  double.always(scripted);
  const col = await Collection.create({ chunker: { chunkSize: 120, chunkOverlap: 0, context: { llmSummary: { maxTokens: 60 } } }, indexes: { bm25: {} } }, { llm: client() });
  const r = await col.add(docs);
  assert.equal(double.requests.length, 2);
  assert.ok(double.requests.every((q) => q.body.max_tokens === 60));
  assert.ok(r.chunks > 2);
  for (const c of col.chunks.values()) {
    assert.ok(c.indexText.startsWith(c.docId === 'd1' ? 'A zanzibarite port ledger.\n\n' : 'Quetzalcoatl orchard diary.\n\n'), c.indexText);
  }
  const hits = await col.search('zanzibarite', { k: 50 });
  assert.ok(hits.length > 2);
  assert.ok(hits.every((h) => h.docId === 'd1'));
  assert.deepEqual([...new Set((await col.search('quetzalcoatl', { k: 50 })).map((h) => h.docId))], ['d2']);
  // A loaded collection has no LLM: adding fails naming the key, nothing is sent.
  const again = Collection.fromBytes(col.toBytes());
  await assert.rejects(again.add([{ id: 'd3', text: 'x y z' }]), (e) => e.code === 'INVALID_ARGUMENT' && /chunker\.context\.llmSummary/.test(e.message) && /Collection\.load \/ fromBytes/.test(e.message));
  assert.equal(double.requests.length, 2);
  // Given the LLM again on load, the loaded collection adds with the summary step; a bad llm is refused.
  assert.throws(() => Collection.fromBytes(col.toBytes(), { llm: {} }), (e) => e.code === 'INVALID_ARGUMENT' && /options\.llm/.test(e.message));
  const withLlm = Collection.fromBytes(col.toBytes(), { llm: client() });
  await withLlm.add([{ id: 'd3', title: 'Harbour report', text: 'Tugboats were repainted during the winter months.' }]);
  assert.equal(double.requests.length, 3);
  assert.deepEqual([...new Set((await withLlm.search('zanzibarite', { k: 50 })).map((h) => h.docId))].sort(), ['d1', 'd3']);
  col.dispose(); again.dispose(); withLlm.dispose();
});

test('llmSummary fills the template\'s {summary}; llmChunkContext adds one note per chunk', async () => {
  double.reset();
  double.always(scripted);
  const cfg = { chunker: { chunkSize: 120, chunkOverlap: 0, context: { template: '{title}: {summary}', llmSummary: {}, llmChunkContext: { maxTokens: 30 } } }, indexes: { bm25: {} } };
  const col = await Collection.create(cfg, { llm: client() });
  const r = await col.add(docs);
  const summaries = double.requests.filter((q) => /document summaries/.test(systemOf(q)));
  assert.equal(summaries.length, 2);
  assert.equal(double.requests.length - summaries.length, r.chunks);  // one chunk-context call per chunk
  const c1 = [...col.chunks.values()].find((c) => c.docId === 'd1');
  assert.ok(c1.indexText.startsWith('Harbour report: A zanzibarite port ledger.\n\nFrom the mooring ledger.\n\n'), c1.indexText);
  const c2 = [...col.chunks.values()].find((c) => c.docId === 'd2');
  assert.ok(c2.indexText.startsWith('Orchard notes: Quetzalcoatl orchard diary.\n\n'), c2.indexText);
  assert.ok(!c2.indexText.includes('mooring'));  // an empty note adds nothing
  assert.deepEqual([...new Set((await col.search('mooring', { k: 50 })).map((h) => h.docId))], ['d1']);
  await assert.rejects(col.add(docs, { chunkContexts: () => [] }), (e) => e.code === 'INVALID_ARGUMENT' && /llmChunkContext/.test(e.message));
  col.dispose();
});

test('autotune({base, llm}) runs the base\'s LLM steps as Collection.add does: a summary once per document, a context per chunk of each chunker', async () => {
  double.reset();
  double.always(scripted);
  const base = { chunker: { chunkSize: 120, chunkOverlap: 0, context: { llmSummary: {}, llmChunkContext: {} } }, indexes: { bm25: {} } };
  // the words below are only in the scripted summaries (zanzibarite, quetzalcoatl) and chunk notes (mooring)
  const queries = [{ id: 'q1', text: 'zanzibarite' }, { id: 'q2', text: 'quetzalcoatl' }, { id: 'q3', text: 'mooring' }];
  const qrels = { q1: { d1: 1 }, q2: { d2: 1 }, q3: { d1: 1 } };
  const grid = { chunker: [{ chunkSize: 120, chunkOverlap: 0 }, { chunkSize: 200, chunkOverlap: 0 }], bm25: [{ k1: 1.2, b: 0.75 }], fusion: [{ retriever: 'bm25' }], k: [5] };
  await assert.rejects(autotune({ documents: docs, queries, qrels, grid, base, bootstrap: false }),
    (e) => e.code === 'INVALID_ARGUMENT' && /chunker\.context\.llmSummary/.test(e.message) && /autotune\(\{base, llm: client\}\)/.test(e.message));
  await assert.rejects(autotune({ documents: docs, queries, qrels, grid, base: { indexes: { bm25: {} } }, llm: client(), bootstrap: false }),
    (e) => e.code === 'INVALID_ARGUMENT' && /options\.llm/.test(e.message));
  assert.equal(double.requests.length, 0);
  const phases = new Set();
  const r = await autotune({ documents: docs, queries, qrels, grid, base, llm: client(), bootstrap: false, metric: 'recip_rank', onProgress: (p) => phases.add(p.phase) });
  assert.ok(phases.has('context'));
  // the same chunks as Collection.add with the best row's config: count them per chunker entry
  let chunks = 0;
  for (const c of grid.chunker) {
    const col = await Collection.create({ ...base, chunker: { ...base.chunker, ...c, context: {} } });
    chunks += (await col.add(docs)).chunks;
    col.dispose();
  }
  assert.deepEqual(r.llmCalls, { summaries: 2, chunkContexts: chunks });
  const summaries = double.requests.filter((q) => /document summaries/.test(systemOf(q)));
  assert.equal(summaries.length, 2);
  assert.equal(double.requests.length, 2 + chunks);
  // every query's only matching words come from the LLM steps: found first in every row
  assert.deepEqual(r.table.map((row) => row.value), [1, 1]);
  assert.deepEqual(r.best.config.chunker.context.llmSummary, {});
});

test('memoizeContextSteps asks each summary and chunk list once; a failed call is asked again', async () => {
  for (const bad of [undefined, null, 3, {}, { documentSummary: 1 }]) {
    assert.throws(() => memoizeContextSteps(bad), (e) => e.code === 'INVALID_ARGUMENT' && /llm: expected an LlmClient/.test(e.message));
  }
  double.reset();
  double.always(scripted);
  const llm = memoizeContextSteps(client());
  const chunks = [{ id: 'd1#0', text: 'The harbour handled more ships.' }, { id: 'd1#1', text: 'Cranes were replaced.' }];
  const a = await llm.documentSummary(docs[0], { maxTokens: 20 });
  const b = await llm.documentSummary({ ...docs[0] }, { maxTokens: 20, signal: new AbortController().signal });  // the signal is not part of the question
  assert.equal(a, b);
  assert.equal(double.requests.length, 1);
  await llm.documentSummary(docs[0], { maxTokens: 21 });  // other options: another question
  await llm.documentSummary({ ...docs[0], text: `${docs[0].text} More.` }, { maxTokens: 20 });  // other text under the same id
  assert.equal(double.requests.length, 3);
  const c1 = await llm.chunkContexts(docs[0], chunks, {});
  const c2 = await llm.chunkContexts(docs[0], chunks.map((c) => ({ ...c })), {});
  assert.deepEqual(c1, c2);
  assert.equal(double.requests.length, 5);  // one request per chunk, once
  await llm.chunkContexts(docs[0], chunks.slice(0, 1), {});
  assert.equal(double.requests.length, 6);
  assert.deepEqual(llm.stats, { summaries: 3, chunkContexts: 3, reused: 2 });
  // a failure is not remembered
  double.reset();
  double.enqueue({ status: 400, json: { error: { message: 'scripted failure' } } });
  double.always(scripted);
  await assert.rejects(llm.documentSummary(docs[1], {}), (e) => e.code !== undefined);
  assert.equal(await llm.documentSummary(docs[1], {}), 'Quetzalcoatl orchard diary.');
  assert.equal(double.requests.length, 2);
});

test('summarizeDocument renders the document_summary prompt with the title and returns the trimmed reply', async () => {
  double.reset();
  double.enqueue({ json: openaiJson('  Short summary.  ') });
  const r = await summarizeDocument(client(), 'Body text.', { title: 'T' });
  assert.equal(r.summary, 'Short summary.');
  assert.equal(double.requests[0].body.max_tokens, 200);
  assert.match(userText(double.requests[0]), /<title>T<\/title>\n<document>\nBody text\.\n<\/document>/);
});
