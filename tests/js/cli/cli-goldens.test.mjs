// `ragwasm label`, `ragwasm questions`, `ragwasm judge` grid mode, `ragwasm tune --qrels` and
// `ragwasm clarify` on examples/corpus against the ProtocolTestDouble (a local OpenAI-protocol server
// with SCRIPTED replies: it checks the commands' plumbing, never a model's quality).
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { init } from '../../../web/src/index.js';
import { main } from '../../../web/cli/ragwasm.mjs';
import { captureCli, repoRoot } from '../helpers.mjs';
import { ProtocolTestDouble, openaiJson } from '../llm-protocol-double.mjs';

const corpus = join(repoRoot, 'examples/corpus');
let double;
let dir;
before(async () => {
  await init();
  double = await ProtocolTestDouble.start();
  dir = mkdtempSync(join(tmpdir(), 'ragwasm-goldens-'));
});
after(async () => {
  await double?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const capture = captureCli;
const llm = () => ['--base-url', `${double.origin}/v1`, '--model', 'double-model', '--max-retries', '0'];
const userText = (req) => req.body.messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');

test('label --dry-run prints the pool size without calling anything; usage errors exit 2', async () => {
  double.reset();
  const io = capture();
  const code = await main(['label', '--dataset', corpus, '--retrievers', 'bm25', '--depth', '3', '--max-queries', '4', '--dry-run'], io);
  assert.equal(code, 0, io.err);
  const m = /4 questions x 1 configurations x depth 3 -> (\d+) \(question, chunk\) pairs; (\d+) judge calls/.exec(io.err);
  assert.ok(m, io.err);
  assert.equal(Number(m[1]), 12, 'one configuration: 3 distinct chunks per question');
  assert.equal(double.requests.length, 0);
  const bad = capture();
  assert.equal(await main(['label', '--dataset', corpus, '--retrievers', 'bm99', '--dry-run'], bad), 2);
  assert.match(bad.err, /--retrievers: expected names from bm25, dense, hybrid, got 'bm99'/);
  writeFileSync(join(dir, 'bad-config.json'), '{"retrieval": {"k": "ten"}}');
  const badCfg = capture();
  assert.equal(await main(['label', '--dataset', corpus, '--configs', join(dir, 'bad-config.json'), '--dry-run'], badCfg), 2);
  assert.match(badCfg.err, /retrieval\.k/);
  const noOut = capture();
  assert.equal(await main(['label', '--dataset', corpus, '--retrievers', 'bm25', ...llm()], noOut), 2);
  assert.match(noOut.err, /--out QRELS is required/);
});

test('label pools two configurations, grades with the judge and writes TREC qrels; unparsed replies are reported, not written', async () => {
  double.reset();
  // Grade by the passage's document, so the qrels are checkable: leave policy 3, anything mentioning PTO 2, else unparsed.
  double.always((req) => {
    const t = userText(req);
    if (/22 days of PTO/.test(t)) return { json: openaiJson('Score: 3') };
    if (/PTO/.test(t.split('Passage:')[1])) return { json: openaiJson('Score: 2') };
    return { json: openaiJson('no idea') };
  });
  writeFileSync(join(dir, 'q.jsonl'), '{"id": "g1", "question": "How many days of PTO do full-time employees get?"}\n');
  writeFileSync(join(dir, 'bm25-small.json'), JSON.stringify({ chunker: { strategy: 'recursive', chunkSize: 400, chunkOverlap: 0 }, indexes: { bm25: {} } }));
  const io = capture();
  const qrels = join(dir, 'llm.qrels');
  const code = await main(['label', '--dataset', corpus, '--questions', join(dir, 'q.jsonl'), '--retrievers', 'bm25', '--configs', join(dir, 'bm25-small.json'),
    '--depth', '3', '--out', qrels, '--judgments', join(dir, 'j.jsonl'), ...llm()], io);
  assert.equal(code, 0, io.err);
  const pairs = Number(/-> (\d+) \(question, chunk\) pairs/.exec(io.err)[1]);
  assert.ok(pairs >= 3 && pairs <= 6, `pool of 2 configs x depth 3: ${pairs}`);
  assert.equal(double.requests.length, pairs);
  const lines = readFileSync(qrels, 'utf8').trim().split('\n');
  assert.ok(lines.includes('g1 0 leave-policy 3'), lines.join('\n'));
  for (const l of lines) assert.match(l, /^g1 0 \S+ [23]$/, 'only parsed grades are written');
  const judgments = readFileSync(join(dir, 'j.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(judgments.length, pairs);
  const unlabelled = judgments.filter((j) => j.grade === null).length;
  assert.match(io.out, new RegExp(`labelled ${pairs - unlabelled} of ${pairs} pairs \\(${unlabelled} unlabelled`));
  assert.match(io.out, /requests sent: \d+ to 127\.0\.0\.1/);
});

test('questions samples chunks with a seed and writes the questions format with the chunk as evidence', async () => {
  double.reset();
  let k = 0;
  double.always(() => (++k === 2 ? { json: openaiJson('NONE') } : { json: openaiJson(`Question: Scripted question ${k}?\nAnswer: A${k}\nEvidence: none`) }));
  const dry = capture();
  assert.equal(await main(['questions', '--dataset', corpus, '--n', '3', '--seed', '4', '--dry-run'], dry), 0, dry.err);
  const sampled = dry.out.trim().split('\n');
  assert.equal(sampled.length, 3);
  assert.equal(double.requests.length, 0);
  const io = capture();
  const out = join(dir, 'gen.jsonl');
  assert.equal(await main(['questions', '--dataset', corpus, '--n', '3', '--seed', '4', '--out', out, ...llm()], io), 0, io.err);
  const qs = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(qs.length, 2);
  assert.match(io.err, /skipped .*the model found nothing to ask/);
  const manifest = JSON.parse(readFileSync(join(corpus, 'manifest.json'), 'utf8'));
  for (const q of qs) {
    assert.ok(sampled.includes(q.source.chunkId), 'the same seeded sample as the dry run');
    const doc = readFileSync(join(corpus, manifest.find((d) => d.id === q.doc_ids[0]).file), 'utf8');
    assert.equal(doc.slice(q.source.start, q.source.end).trim(), q.evidence[0]);
    assert.equal(q.type, 'generated');
  }
});

test('tune --qrels tunes on LLM labels and reports the chosen setting on the human evidence labels', async () => {
  // LLM qrels for two sample questions (written here, as `ragwasm label` would).
  writeFileSync(join(dir, 'tune.qrels'), 'q01 0 leave-policy 3\nq03 0 travel-expense-policy 3\nq03 0 memo-travel-policy-update-2025 1\n');
  writeFileSync(join(dir, 'grid.json'), JSON.stringify({ chunker: [{ chunkSize: 600, chunkOverlap: 0 }, { chunkSize: 1200, chunkOverlap: 100 }],
    bm25: [{ k1: 1.2, b: 0.75 }], fusion: [{ retriever: 'bm25' }], k: [5] }));
  const io = capture();
  const code = await main(['tune', '--dataset', corpus, '--qrels', join(dir, 'tune.qrels'), '--grid', join(dir, 'grid.json'), '--bootstrap', '0', '--json'], io);
  assert.equal(code, 0, io.err);
  const r = JSON.parse(io.out);
  assert.equal(r.llm.queries, 2);
  assert.equal(r.llm.table.length, 2);
  assert.equal(r.human.table.length, 2);
  assert.equal(r.agreement.rows, 2);
  assert.equal(r.agreement.picked.humanValue, r.human.table[r.llm.best.index].value);
  assert.equal(r.agreement.humanMetric, r.human.metric);
  const text = capture();
  assert.equal(await main(['tune', '--dataset', corpus, '--qrels', join(dir, 'tune.qrels'), '--grid', join(dir, 'grid.json'), '--bootstrap', '0'], text), 0, text.err);
  assert.match(text.out, /on the human labels of .* the setting chosen on .* scores [\d.]+; the best on human labels \(#\d\) [\d.]+; regret/s);
  const orphan = capture();
  writeFileSync(join(dir, 'orphan.qrels'), 'zz9 0 leave-policy 3\n');
  assert.equal(await main(['tune', '--dataset', corpus, '--qrels', join(dir, 'orphan.qrels'), '--grid', join(dir, 'grid.json')], orphan), 2);
  assert.match(orphan.err, /none of its question ids has a question text/);
});

test('judge grid: models x prompts on a seeded split, a percentage judge\'s |predicted% - gold%| in the table', async () => {
  double.reset();
  double.always((req) => ({ json: openaiJson(req.body.model === 'good' ? `Correctness: ${/GOLD=(\d+)/.exec(userText(req))[1]}%` : 'Correctness: 100%') }));
  const labels = join(dir, 'ac.jsonl');
  writeFileSync(labels, [0, 25, 50, 75, 100, 0, 50, 100].map((g, i) => JSON.stringify({ id: `x${i}`, question: 'Q?', answer: `Answer GOLD=${g}`, reference: 'R.', label: g })).join('\n') + '\n');
  const io = capture();
  const code = await main(['judge', '--labels', labels, '--judge', 'answer_correctness', '--base-url', `${double.origin}/v1`, '--models', 'good,generous',
    '--prompts', 'builtin', '--seed', '3', '--max-retries', '0'], io);
  assert.equal(code, 0, io.err);
  assert.match(io.out, /split seed 3: 4 train, 4 test items/);
  const row = (name) => io.out.split('\n').find((l) => l.startsWith(`| ${name} |`)).split('|').map((s) => s.trim());
  assert.equal(row('good')[7], '0.0', 'a judge replying the gold value has no error');
  assert.notEqual(row('generous')[7], '0.0');
  assert.equal(double.requests.length, 8, '2 models x 1 prompt x 4 test items');
  const bad = capture();
  assert.equal(await main(['judge', '--labels', labels, '--judge', 'answer_correctness', '--base-url', 'http://x', '--models', 'a', '--train-fraction', '2'], bad), 2);
  assert.match(bad.err, /--train-fraction/);
});

test('clarify runs the clarification step on the ambiguous set and reports detection and grounding', async () => {
  double.reset();
  // Scripted: every question is called ambiguous with passages 1 and 2 as two readings.
  double.always(() => ({ json: openaiJson('{"ambiguous": true, "interpretations": [{"question": "Reading one?", "passages": [1]}, {"question": "Reading two?", "passages": [2]}]}') }));
  const io = capture();
  const out = join(dir, 'clarify.jsonl');
  const code = await main(['clarify', '--dataset', corpus, '--set', join(corpus, 'ambiguous.jsonl'), '--out', out, ...llm()], io);
  assert.equal(code, 0, io.err);
  const set = readFileSync(join(corpus, 'ambiguous.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const nAmb = set.filter((s) => s.ambiguous).length;
  assert.equal(double.requests.length, set.length);
  // Saying "ambiguous" to everything: recall 1, precision = the ambiguous share.
  assert.match(io.out, new RegExp(`precision ${(nAmb / set.length).toFixed(3)}  recall 1\\.000`));
  assert.equal(readFileSync(out, 'utf8').trim().split('\n').length, set.length);
  const dry = capture();
  assert.equal(await main(['clarify', '--dataset', corpus, '--set', join(corpus, 'ambiguous.jsonl'), '--dry-run'], dry), 0, dry.err);
  assert.match(dry.out, /retrieval ceiling\): [01]\.\d{3}/);
});
