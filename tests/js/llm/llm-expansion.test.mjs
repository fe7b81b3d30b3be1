// LLM query expansion (issue #27, pipeline config retrieval.llmExpansion) and the explicit LLM wiring of
// ask() (issue #28 item 5), against the OpenAI-protocol test double. The double is NOT a model: its
// passages are fixed strings written here, so these tests check plumbing (what is sent, what is
// searched, how many calls), never the quality of any model's expansion.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { ask, Collection, init, parsePipelineConfig, PRESETS } from '../../../web/src/index.js';
import { createLlmClient, expandQuery } from '../../../web/src/llm.js';
import { main } from '../../../web/cli/ragwasm.mjs';
import { repoRoot } from '../helpers.mjs';
import { ProtocolTestDouble, openaiJson } from '../llm-protocol-double.mjs';

let double;
before(async () => { await init(); double = await ProtocolTestDouble.start(); });
after(async () => { await double?.close(); });

const SICK = '# Sick leave\n\nAn employee who is absent due to illness must notify their line manager before 09:00 on the first day of absence.\n';
const PARKING = '# Parking\n\nBicycle parking is behind Building C. Call the front desk when you are locked out of the garage.\n';
// The double's scripted passage: words of the sick-leave document the question does not use.
const PASSAGE = 'An employee absent due to illness must notify their line manager before 09:00 on the first day.';
const QUESTION = 'Who do I call when I am off ill?';

const config = (llmExpansion) => ({ ...PRESETS.docChatBm25, retrieval: { ...PRESETS.docChatBm25.retrieval, ...(llmExpansion ? { llmExpansion } : {}) } });

async function collection(llmExpansion) {
  const col = await Collection.create(config(llmExpansion));
  await col.add([{ id: 'sick', title: 'Sick leave', text: SICK }, { id: 'parking', title: 'Parking', text: PARKING }]);
  // Record what ask() searches.
  const search = col.search.bind(col);
  col.searched = [];
  col.search = (q, o) => { col.searched.push(q); return search(q, o); };
  return col;
}

const client = () => createLlmClient({ provider: 'openai', baseUrl: double.origin, model: 'double-model', apiKey: 'test' });
const userText = (req) => req.body.messages.map((m) => m.content).join('\n');

test('retrieval.llmExpansion is validated by the config parser and written back as {mode, maxTokens}', () => {
  assert.deepEqual(parsePipelineConfig(config('hyde')).retrieval.llmExpansion, { mode: 'hyde', maxTokens: 128 });
  assert.deepEqual(parsePipelineConfig(config({ mode: 'query2doc', maxTokens: 64 })).retrieval.llmExpansion, { mode: 'query2doc', maxTokens: 64 });
  assert.equal(parsePipelineConfig(config()).retrieval.llmExpansion, undefined);
  assert.throws(() => parsePipelineConfig(config('rm3')), (e) => e.code === 'INVALID_ARGUMENT' && /retrieval\.llmExpansion/.test(e.message));
  assert.throws(() => parsePipelineConfig(config({ mode: 'hyde', maxTokens: 4 })), (e) => e.code === 'INVALID_ARGUMENT' && /llmExpansion\.maxTokens/.test(e.message));
  assert.throws(() => parsePipelineConfig(config({ maxTokens: 64 })), (e) => e.code === 'INVALID_ARGUMENT' && /llmExpansion\.mode/.test(e.message));
});

test('query2doc: the LLM gets the question, the search gets question + scripted passage, the answer is a second call', async () => {
  const col = await collection({ mode: 'query2doc', maxTokens: 64 });
  double.reset();
  double.enqueue({ json: openaiJson(PASSAGE) }, { json: openaiJson('Notify your line manager before 09:00 [1].') });
  const r = await ask(col, QUESTION, { llm: client() });
  assert.equal(double.requests.length, 2);
  const [expand, answer] = double.requests;
  assert.ok(userText(expand).includes(QUESTION), 'the expansion request carries the question');
  assert.equal(expand.body.max_tokens, 64);
  assert.deepEqual(col.searched, [`${QUESTION}\n${PASSAGE}`]);
  assert.deepEqual(r.expansion, { mode: 'query2doc', passage: PASSAGE, searched: `${QUESTION}\n${PASSAGE}` });
  assert.equal(r.hits[0].docId, 'sick');
  // The passage is a search query only: the answer is the answer call's reply, and the answer prompt has the question, not the passage as a question.
  assert.equal(r.answer, 'Notify your line manager before 09:00 [1].');
  assert.ok(userText(answer).includes(QUESTION));
  assert.equal(r.query, QUESTION);
  col.dispose();
});

test('hyde searches the passage alone; without the key there is no extra call and the question is searched as asked', async () => {
  const col = await collection('hyde');
  double.reset();
  double.enqueue({ json: openaiJson(`  ${PASSAGE}\n`) }, { json: openaiJson('Your line manager [1].') });
  const r = await ask(col, QUESTION, { llm: client() });
  assert.deepEqual(col.searched, [PASSAGE]);
  assert.equal(r.expansion.mode, 'hyde');
  col.dispose();

  const plain = await collection();
  double.reset();
  double.enqueue({ json: openaiJson('The documents do not answer this question.') });
  const p = await ask(plain, QUESTION, { llm: client() });
  assert.equal(double.requests.length, 1, 'no expansion call without retrieval.llmExpansion');
  assert.deepEqual(plain.searched, [QUESTION]);
  assert.equal(p.expansion, undefined);
  // An empty reply searches the question itself.
  const empty = await collection('query2doc');
  double.reset();
  double.enqueue({ json: openaiJson('   ') }, { json: openaiJson('The documents do not answer this question.') });
  const e = await ask(empty, QUESTION, { llm: client() });
  assert.deepEqual(empty.searched, [QUESTION]);
  assert.equal(e.expansion.passage, '');
  plain.dispose();
  empty.dispose();
});

test('a config asking for expansion needs an LLM; expandQuery checks its arguments', async () => {
  const col = await collection('hyde');
  await assert.rejects(ask(col, QUESTION), (e) => e.code === 'INVALID_ARGUMENT' && /retrieval\.llmExpansion/.test(e.message) && /options\.llm/.test(e.message));
  assert.deepEqual(col.searched, []);
  col.dispose();
  await assert.rejects(expandQuery({ complete() {} }, 'q'), (e) => e.code === 'INVALID_ARGUMENT' && /LlmClient/.test(e.message));
  await assert.rejects(expandQuery(client(), 'q', { mode: 'rm3' }), (e) => e.code === 'INVALID_ARGUMENT' && /options\.mode/.test(e.message));
  await assert.rejects(expandQuery(client(), ''), (e) => e.code === 'INVALID_ARGUMENT');
});

test('ask() calls the llm it is given: an object with answer/expandQuery methods works without the ragwasm/llm client', async () => {
  const col = await collection('query2doc');
  const calls = [];
  const llm = {
    async expandQuery(question, o) { calls.push(['expandQuery', question, o.mode, o.maxTokens]); return { query: '', passage: 'line manager illness', mode: o.mode }; },
    async answer(input) { calls.push(['answer', input.question, input.passages.length]); return { text: 'Your line manager [1].', abstained: false, citations: [{ n: 1, id: input.passages[0].id }] }; },
  };
  const r = await ask(col, QUESTION, { llm });
  assert.deepEqual(calls, [['expandQuery', QUESTION, 'query2doc', 128], ['answer', QUESTION, 2]]);
  assert.equal(r.mode, 'llm');
  assert.equal(r.citations[0].docId, r.hits[0].docId);
  assert.deepEqual(col.searched, [`${QUESTION}\nline manager illness`]);
  await assert.rejects(ask(col, QUESTION, { llm: { expandQuery: llm.expandQuery } }), (e) => e.code === 'INVALID_ARGUMENT' && /answer method/.test(e.message));
  await assert.rejects(ask(col, QUESTION, { llm, clarify: 'ask' }), (e) => e.code === 'INVALID_ARGUMENT' && /clarify method/.test(e.message));
  col.dispose();
});

test('ragwasm ask --llm-expansion puts the key in the collection config and searches the scripted passage', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-expand-'));
  try {
    writeFileSync(join(dir, 'sick.md'), SICK);
    writeFileSync(join(dir, 'parking.md'), PARKING);
    double.reset();
    double.enqueue({ json: openaiJson(PASSAGE) }, { json: openaiJson('Your line manager [1].') });
    const io = { out: '', err: '' };
    io.stdout = { write: (s) => { io.out += s; } };
    io.stderr = { write: (s) => { io.err += s; } };
    const code = await main(['ask', '--docs', dir, '--base-url', double.origin, '--model', 'double-model', '--llm-expansion', 'query2doc', '--json', QUESTION], io);
    assert.equal(code, 0, io.err);
    assert.equal(double.requests.length, 2);
    assert.ok(userText(double.requests[0]).includes(QUESTION));
    assert.match(userText(double.requests[0]), /Write one short passage/);  // the query_expand prompt
    const j = JSON.parse(io.out.trim().split('\n').pop());
    assert.equal(j.hits[0].docId, 'sick.md');
    const bad = { out: '', err: '' };
    bad.stdout = { write: (s) => { bad.out += s; } };
    bad.stderr = { write: (s) => { bad.err += s; } };
    assert.equal(await main(['ask', '--docs', dir, '--llm-expansion', 'hyde', QUESTION], bad), 2);
    assert.match(bad.err, /--llm-expansion needs --base-url/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Import cycles among the LLM and answer modules (issue #28 item 5): none, and no earlier stage imports llm/.
test('no import cycle through web/src/llm, and answer/ and retrieve/ import nothing from llm/', () => {
  const src = join(repoRoot, 'web/src');
  const all = readdirSync(src, { recursive: true }).map(String).filter((f) => f.endsWith('.js'));
  const graph = new Map();
  for (const f of all) {
    const text = readFileSync(join(src, f), 'utf8');
    const deps = [...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]/gm)].map((m) => relative(src, resolve(dirname(join(src, f)), m[1])));
    graph.set(f, deps);
  }
  for (const [f, deps] of graph) {
    if (f.startsWith('answer/') || f.startsWith('retrieve/') || f.startsWith('core/')) {
      assert.deepEqual(deps.filter((d) => d.startsWith('llm/') || d === 'llm.js'), [], `${f} imports the LLM stage`);
    }
  }
  // Depth-first search for a cycle from every LLM module.
  const state = new Map();
  const cycle = (f, path) => {
    if (state.get(f) === 'done') return null;
    if (state.get(f) === 'open') return [...path.slice(path.indexOf(f)), f];
    state.set(f, 'open');
    for (const d of graph.get(f) ?? []) {
      const c = cycle(d, [...path, f]);
      if (c) return c;
    }
    state.set(f, 'done');
    return null;
  };
  for (const f of all.filter((x) => x.startsWith('llm/') || x === 'llm.js' || x.startsWith('answer/'))) {
    const c = cycle(f, []);
    assert.equal(c, null, `import cycle: ${c?.join(' -> ')}`);
  }
});
