// `ragwasm ask`: a folder of files or a dataset folder, one question or --questions, --json with the
// issue's exact object shape, --save/--load, an LLM answer streamed from the protocol test double,
// and usage errors.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Collection, init, PRESETS } from '../../../web/src/index.js';
import { main } from '../../../web/cli/ragwasm.mjs';
import { repoRoot, skipUnlessShared } from '../helpers.mjs';
import { pythonOnnx } from '../embed-fixtures.mjs';
import { startHub } from '../model-hub-double.mjs';
import { ProtocolTestDouble, openaiSse } from '../llm-protocol-double.mjs';

let double;
let dir;
before(async () => {
  await init();
  double = await ProtocolTestDouble.start();
  dir = mkdtempSync(join(tmpdir(), 'ragwasm-ask-'));
  writeFileSync(join(dir, 'leave.md'), '# Leave\n\nFull-time employees receive **22 days of PTO** per calendar year.\n');
  writeFileSync(join(dir, 'notes.txt'), 'The Oslo office opens at 08:00 on weekdays.\n');
  writeFileSync(join(dir, 'page.html'), '<html><body><h1>Parking</h1><p>Bicycle parking is behind Building C.</p></body></html>');
  writeFileSync(join(dir, 'photo.png'), new Uint8Array([137, 80, 78, 71]));
  writeFileSync(join(dir, 'questions.jsonl'), '{"id": "a", "question": "How many days of PTO do full-time employees receive?"}\n'
    + '{"id": "b", "question": "What is the dress code?"}\n');
});
after(async () => {
  await double?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function capture() {
  const io = { out: '', err: '' };
  io.stdout = { write: (s) => { io.out += s; } };
  io.stderr = { write: (s) => { io.err += s; } };
  return io;
}

test('ask answers from a folder of files with numbered citations and says which files it skipped', async () => {
  const io = capture();
  const code = await main(['ask', '--docs', dir, 'How many days of PTO do full-time employees receive?'], io);
  assert.equal(code, 0, io.err);
  assert.match(io.out, /^Full-time employees receive 22 days of PTO per calendar year\. \[1\]\n/);
  assert.match(io.out, /\n {2}\[1\] leave\.md \d+-\d+: Full-time employees receive \*\*22 days of PTO\*\* per calendar year\.\n/);
  assert.match(io.err, /skipped photo\.png \(unsupported file type/);
  assert.match(io.err, /skipped questions\.jsonl \(unsupported file type/);
});

test('ask --json prints exactly the issue\'s object shape per question', async () => {
  const io = capture();
  const code = await main(['ask', '--docs', dir, '--questions', join(dir, 'questions.jsonl'), '--json'], io);
  assert.equal(code, 0, io.err);
  const lines = io.out.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(lines.length, 2);
  for (const r of lines) {
    assert.deepEqual(Object.keys(r), ['id', 'question', 'answer', 'outcome', 'abstained', 'evidence', 'unmatched', 'citations', 'passages', 'hits']);
    for (const c of r.citations) assert.deepEqual(Object.keys(c), ['n', 'docId', 'chunkId', 'start', 'end', 'text']);
    assert.ok(r.hits.length <= 10);
    for (const h of r.hits) assert.deepEqual(Object.keys(h), ['docId', 'chunkId', 'start', 'end', 'score', 'text']);
  }
  assert.equal(lines[0].id, 'a');
  assert.equal(lines[0].abstained, false);
  assert.equal(lines[0].outcome, 'answer');
  assert.equal(lines[0].citations[0].docId, 'leave.md');
  assert.ok(lines[0].hits.length >= 1);
  assert.equal(lines[1].id, 'b');
  assert.equal(lines[1].abstained, true);
  assert.equal(lines[1].outcome, 'not-found');
  assert.equal(lines[1].answer, "Your documents don't say.");
  assert.deepEqual(lines[1].citations, []);
  assert.deepEqual(lines[1].passages, []);
});

test('issue 27: ask prints the three outcomes differently', async () => {
  const found = capture();
  assert.equal(await main(['ask', '--docs', dir, 'How many days of PTO do full-time employees receive?'], found), 0, found.err);
  assert.match(found.out, /^Full-time employees receive 22 days of PTO per calendar year\. \[1\]\n {2}\[1\] leave\.md /);
  // words of the documents (Oslo office) but no sentence answers: the closest passages with their best sentence
  const near = capture();
  assert.equal(await main(['ask', '--docs', dir, 'What is the dress code at the Oslo office?'], near), 0, near.err);
  assert.match(near.out, /^I couldn't find one sentence that answers this; here are the closest passages\.\n {2}1\. notes\.txt \d+-\d+: > The Oslo office opens at 08:00 on weekdays\.\n/);
  const none = capture();
  assert.equal(await main(['ask', '--docs', dir, 'What is the capital of France?'], none), 0, none.err);
  // and which of its words no document uses, to ask again in the documents' words
  assert.equal(none.out, "Your documents don't say.\n  (nothing in the documents matches: searched for \"What is the capital of France?\")\n"
    + '  (no document uses: capital, France; ask with the words your documents use)\n');
  const json = capture();
  assert.equal(await main(['ask', '--docs', dir, 'What is the dress code at the Oslo office?', '--json'], json), 0, json.err);
  const r = JSON.parse(json.out);
  assert.equal(r.outcome, 'passages');
  assert.equal(r.passages[0].docId, 'notes.txt');
  assert.equal(r.passages[0].best.text, 'The Oslo office opens at 08:00 on weekdays.');
  assert.deepEqual(r.unmatched, ['dress', 'code']);
});

test('issue 27: ask --suggest offers words the documents use for the question\'s words they do not', async () => {
  const io = capture();
  const q = 'When does Perch go down for upkeep?';
  assert.equal(await main(['ask', '--docs', join(repoRoot, 'examples/corpus'), q, '--suggest'], io), 0, io.err);
  assert.match(io.out, /\n {2}\(no document uses: upkeep; ask with the words your documents use\)\n {2}upkeep -> repairs, maintenance, servicing\n$/);
  const json = capture();
  assert.equal(await main(['ask', '--docs', join(repoRoot, 'examples/corpus'), q, '--suggest', '--json'], json), 0, json.err);
  const r = JSON.parse(json.out);
  assert.deepEqual(r.unmatched, ['upkeep']);
  assert.deepEqual(r.suggestions.map((s) => [s.word, s.suggestions.map((x) => x.word)]), [['upkeep', ['repairs', 'maintenance', 'servicing']]]);
  // without --suggest, or for an answered question, no suggestions key
  const plain = capture();
  assert.equal(await main(['ask', '--docs', join(repoRoot, 'examples/corpus'), q, '--json'], plain), 0, plain.err);
  assert.equal('suggestions' in JSON.parse(plain.out), false);
});

test('ask reads a dataset folder with manifest.json and reuses a saved collection', async () => {
  const store = mkdtempSync(join(tmpdir(), 'ragwasm-ask-store-'));
  try {
    const io = capture();
    const q = 'How many days of paid time off do full-time U.S. employees get per year?';
    assert.equal(await main(['ask', '--docs', join(repoRoot, 'examples/corpus'), q, '--save', 'corpus', '--store', store, '--json'], io), 0, io.err);
    const first = JSON.parse(io.out);
    assert.equal(first.abstained, false);
    assert.match(first.answer, /22 days/);
    assert.equal(first.hits.length, 10);
    const again = capture();
    assert.equal(await main(['ask', '--load', 'corpus', '--store', store, q, '--json'], again), 0, again.err);
    assert.deepEqual(JSON.parse(again.out), first);
    const missing = capture();
    assert.equal(await main(['ask', '--load', 'nothing-here', '--store', store, q], missing), 1);
    assert.match(missing.err, /NOT_FOUND|not found/i);
  } finally {
    rmSync(store, { recursive: true, force: true });
  }
});

test('ask --base-url --model streams the LLM answer to the terminal with its citations', async () => {
  double.reset();
  double.enqueue({ sse: openaiSse(['Employees receive ', '22 days [1].']) });
  const io = capture();
  const code = await main(['ask', '--docs', dir, 'How many days of PTO?', '--base-url', double.origin, '--model', 'double-model'], io);
  assert.equal(code, 0, io.err);
  assert.match(io.out, /^Employees receive 22 days \[1\]\.\n {2}\[1\] leave\.md /);
  assert.equal(double.requests.length, 1);
  assert.equal(double.requests[0].body.stream, true);
});

test('issue 27: ask --neural NAME fetches the manifest model from the hub once, caches it and indexes with PRESETS.docChatNeural', async (t) => {
  const tok = skipUnlessShared(t, 'models/bert-base-uncased/tokenizer.json');
  if (!tok) return;
  if (!pythonOnnx()) return t.skip('needs Debian python3-onnx and python3-numpy for /usr/bin/python3 (apt-get install python3-onnx)');
  // The hub test double serves a generated BERT-shaped model (random weights) under the manifest's name; never real weights.
  const work = mkdtempSync(join(tmpdir(), 'ragwasm-ask-neural-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  execFileSync('/usr/bin/python3', [join(repoRoot, 'models/make-bert-fixture.py'), join(work, 'fixture'), tok, '--name', 'tiny-bert', '--seed', '1234']);
  const hub = await startHub(join(work, 'fixture', 'tiny-bert'));
  const before = process.env.RAGWASM_CACHE;
  process.env.RAGWASM_CACHE = join(work, 'model-cache');
  const store = join(work, 'store');
  try {
    const io = capture();
    assert.equal(await main(['ask', '--docs', dir, '--neural', 'bge-small-en-v1.5', '--hub-url', hub.url, '--save', 'neural', '--store', store,
      'How many days of PTO do full-time employees receive?'], io), 0, io.err);
    assert.match(io.out, /22 days of PTO/);
    assert.match(io.err, /downloading onnx\/model\.onnx/);
    assert.deepEqual(hub.requests.sort(), ['/BAAI/bge-small-en-v1.5/resolve/main/onnx/model.onnx', '/BAAI/bge-small-en-v1.5/resolve/main/tokenizer.json']);
    // The saved collection holds the neural preset's config and the named model's vectors.
    const { createOnnxEmbedder } = await import('../../../web/src/onnx.js');
    const e = await createOnnxEmbedder('bge-small-en-v1.5', { hubUrl: hub.url });
    const col = await Collection.load('neural', { dir: store, embedder: e });
    assert.deepEqual(col.config.retrieval.fusion.weights, PRESETS.docChatNeural.retrieval.fusion.weights);
    assert.equal(col.config.retrieval.fusion.legCheck, false);
    assert.match(col.embedderInfo.id, /^onnx:bge-small-en-v1\.5:/);
    col.dispose();
    await e.dispose();
    // Cached: the second run makes no request, also with --json (no progress lines then).
    await hub.close();
    const io2 = capture();
    assert.equal(await main(['ask', '--docs', dir, '--neural', 'bge-small-en-v1.5', '--hub-url', hub.url, '--json', 'What is the dress code?'], io2), 0, io2.err);
    assert.doesNotMatch(io2.err, /downloading|cached/);
    assert.ok(['passages', 'not-found'].includes(JSON.parse(io2.out).outcome));
    assert.equal(hub.requests.length, 2);
  } finally {
    if (before === undefined) delete process.env.RAGWASM_CACHE;
    else process.env.RAGWASM_CACHE = before;
    await hub.close();
  }
});

test('ask --neural with a --config that has no dense index is a usage error before any model is fetched', async () => {
  const cfg = join(dir, 'bm25-only.config.json');
  writeFileSync(cfg, JSON.stringify({ indexes: { bm25: {} } }));
  try {
    const io = capture();
    // 127.0.0.1:9 answers nothing: a fetch would fail with a network error, not this usage error
    assert.equal(await main(['ask', '--docs', dir, '--config', cfg, '--neural', 'bge-small-en-v1.5', '--hub-url', 'http://127.0.0.1:9', 'q'], io), 2, io.err);
    assert.match(io.err, /--neural: the --config has no dense index/);
    assert.doesNotMatch(io.err, /downloading/);
  } finally {
    rmSync(cfg, { force: true });
  }
});

test('ask reports usage errors with exit code 2', async () => {
  for (const args of [['ask', 'q'], ['ask', '--docs', dir], ['ask', '--docs', dir, 'q', '-k', '0'], ['ask', '--docs', dir, 'q', '--model', 'm'],
    ['ask', '--docs', join(dir, 'missing'), 'q'], ['ask', '--docs', dir, 'q', '--threshold', '2'],
    ['ask', '--docs', dir, 'q', '--neural', 'no-such-model'], ['ask', '--docs', dir, 'q', '--hub-url', 'http://127.0.0.1:9'],
    ['ask', '--docs', dir, 'q', '--neural', 'bge-small-en-v1.5', '--embed-model', join(dir, 'notes.txt')]]) {
    const io = capture();
    assert.equal(await main(args, io), 2, `${args.join(' ')}: ${io.err}`);
    assert.match(io.err, /^ragwasm ask: /);
  }
});
