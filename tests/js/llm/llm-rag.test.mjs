// `ragwasm rag` end to end on examples/corpus: the extractive configuration runs locally; the LLM
// configuration and the correctness judge talk to the ProtocolTestDouble (scripted replies), so the
// printed correctness numbers are the script's, not a model's.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { init } from '../../../web/src/index.js';
import { main } from '../../../web/cli/ragwasm.mjs';
import { repoRoot } from '../helpers.mjs';
import { ProtocolTestDouble, openaiJson, triadScript as scriptedTriad } from '../llm-protocol-double.mjs';

const dataset = join(repoRoot, 'examples/corpus');
let double;
before(async () => { await init(); double = await ProtocolTestDouble.start(); });
after(async () => { await double.close(); });

function capture() {
  const io = { out: '', err: '' };
  io.stdout = { write: (s) => { io.out += s; } };
  io.stderr = { write: (s) => { io.err += s; } };
  return io;
}

test('the extractive configuration runs without any endpoint', async (t) => {
  const io = capture();
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-rag-'));
  const code = await main(['rag', '--dataset', dataset, '--limit', '6', '--out', join(dir, 'out.jsonl')], io);
  assert.equal(code, 0, io.err);
  assert.match(io.out, /### token F1 vs the reference answer/);
  assert.match(io.out, /\| extractive \| 6 \|/);
  assert.match(io.out, /requests sent: 0/);
  const rows = readFileSync(join(dir, 'out.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(rows.length, 6);
  for (const r of rows) {
    assert.equal(r.configuration, 'extractive');
    assert.ok(r.f1 >= 0 && r.f1 <= 1);
    assert.equal(r.correctness, null);  // no judge endpoint: not judged, not zero
  }
});

test('an LLM grid with a judge reports the scripted correctness per configuration', async (t) => {
  double.reset();
  double.always((req) => {
    const judging = /Reference answer:/.test(req.raw);
    return { json: openaiJson(judging ? '[scripted] Correctness: 80%' : '[scripted] An answer [1].') };
  });
  const io = capture();
  const code = await main(['rag', '--dataset', dataset, '--limit', '3', '--answerer', 'both', '--base-url', `${double.origin}/v1`,
    '--models', 'double-a,double-b', '--price-in', '1', '--price-out', '2'], io);
  assert.equal(code, 0, io.err);
  // three configurations: extractive, double-a, double-b; each judged on 3 questions
  assert.match(io.out, /\| double-a \/ built-in \| 3 \| 80\.0 \| 80\.0 \| 80\.0 \|/);
  assert.match(io.out, /\| double-b \/ built-in \| 3 \|/);
  assert.match(io.out, /\| extractive \| 3 \|/);
  const sent = double.requests.length;
  assert.ok(sent >= 6, `expected answers and judge calls, got ${sent} requests`);
  assert.match(io.out, new RegExp(`requests sent: ${sent} to 127\\.0\\.0\\.1`));
});

test('bad rag arguments exit with 2', async () => {
  const io = capture();
  assert.equal(await main(['rag', '--answerer', 'llm'], io), 2);
  assert.equal(await main(['rag', '--k', 'x'], io), 2);  // --k 0 is the no-retrieval baseline (cli-config.test.mjs)
  assert.match(io.err, /--k/);
});

// #16: judge replies scripted by prompt: every passage grades 2, every answer 1, every claim 3, so the
// triad means are 2/3, 1/3 and 1 (groundedness over the non-abstaining answers).
const triadScript = scriptedTriad();

test('#16 --judges triad reports context relevance, answer relevance and groundedness per question and as means with CIs', async (t) => {
  double.reset();
  double.always(triadScript);
  const io = capture();
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-rag-'));
  const code = await main(['rag', '--dataset', dataset, '--limit', '4', '--answerer', 'extractive', '--base-url', `${double.origin}/v1`,
    '--judge-model', 'judge', '--judges', 'triad', '--out', join(dir, 'out.jsonl')], io);
  assert.equal(code, 0, io.err);
  assert.match(io.out, /### RAG triad \(LLM judge, 0-1; mean \[95% bootstrap CI\]\)/);
  assert.match(io.out, /\| extractive \| 4 \| 0\.667 \[0\.667, 0\.667\] \| 0\.333 \[0\.333, 0\.333\] \| 1\.000/);
  const rows = readFileSync(join(dir, 'out.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(rows.length, 4);
  for (const r of rows) {
    assert.ok(Math.abs(r.contextRelevance - 2 / 3) < 1e-12);
    assert.equal(r.answerRelevance, 1 / 3);
    assert.ok(r.groundedness === 1 || r.groundedness === null);
  }
  // Without a judge endpoint the triad is refused, naming the key.
  const io2 = capture();
  assert.equal(await main(['rag', '--dataset', dataset, '--limit', '1', '--judges', 'triad'], io2), 2);
  assert.match(io2.err, /judges\.triad/);
});

test('#16 rag runs the config\'s chunker.context.llmSummary through --base-url, one call per document', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-rag-'));
  const cfg = join(dir, 'cfg.json');
  writeFileSync(cfg, JSON.stringify({ chunker: { strategy: 'recursive', chunkSize: 1000, context: { llmSummary: {} } }, indexes: { bm25: {} }, retrieval: { k: 3 } }));
  const io0 = capture();
  assert.equal(await main(['rag', '--dataset', dataset, '--limit', '1', '--config', cfg], io0), 2);
  assert.match(io0.err, /chunker\.context\.llmSummary: the config asks for an LLM step/);
  double.reset();
  double.always(triadScript);
  const io = capture();
  const code = await main(['rag', '--dataset', dataset, '--limit', '2', '--answerer', 'extractive', '--config', cfg, '--base-url', `${double.origin}/v1`,
    '--context-model', 'ctx'], io);
  assert.equal(code, 0, io.err);
  const docs = JSON.parse(readFileSync(join(dataset, 'manifest.json'), 'utf8')).length;
  assert.match(io.out, new RegExp(`LLM context steps \\(chunker\\.context\\.llmSummary\\): ${docs} calls to ctx, indexing cost unknown \\(no price\\)`));
  assert.equal(double.requests.filter((r) => r.body.model === 'ctx').length, docs);
  // No price (context steps and judge): the study's cost is unknown, not 0.
  assert.match(io.out, /LLM cost: indexing unknown \(no price\) \+ questions \(answering, judging; every configuration\) unknown \(no price\) = total unknown \(no price\)/);
  // Priced: the indexing calls are in the one total.
  double.reset();
  double.always(triadScript);
  const priced = capture();
  assert.equal(await main(['rag', '--dataset', dataset, '--limit', '2', '--answerer', 'both', '--models', 'm', '--config', cfg, '--base-url', `${double.origin}/v1`,
    '--context-model', 'ctx', '--price-in', '1', '--price-out', '2'], priced), 0, priced.err);
  const m = /LLM cost: indexing (\d+\.\d+) \+ questions \(answering, judging; every configuration\) (\d+\.\d+) = total (\d+\.\d+)/.exec(priced.out);
  assert.ok(m, priced.out);
  assert.ok(Number(m[1]) > 0 && Number(m[2]) > 0);
  assert.ok(Math.abs(Number(m[3]) - Number(m[1]) - Number(m[2])) <= 1.5e-6, 'total = indexing + questions (6 printed decimals)');
});
