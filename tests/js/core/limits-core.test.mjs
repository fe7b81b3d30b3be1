// Issue #19 (core side) through the JS API: deep JSON is refused before parsing and the module keeps
// working, quadratic metrics are bounded, the sentence strategy's strict mode bounds every chunk,
// judge scores outside the number grammar and bad qrels/corpora are errors. Each refused call is
// followed by a good call showing nothing was lost.
import test, { before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { init, info, Bm25Index, RagwasmError, Tokenizer, chunkTexts, parsePipelineConfig } from '../../../web/src/index.js';
import { metrics } from '../../../web/src/eval.js';
import { parseClaimScores, parseJudgeScore } from '../../../web/src/llm.js';
import { MAX_ALIGNMENT_CELLS, MAX_JSON_DEPTH, MAX_JUDGE_REPLY_BYTES } from '../../../web/src/core/limits.js';
import { DatasetError, readBeirCorpus, readQrelsTsv } from '../../../web/cli/datasets.mjs';
import { build } from '../helpers.mjs';

before(async () => { await init({ build }); });

function throwsCode(fn, code, includes) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof RagwasmError, `expected RagwasmError, got ${e}`);
    assert.equal(e.code, code, e.message);
    if (includes) assert.ok(e.message.includes(includes), e.message);
    return true;
  });
}

const deepObject = (n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
const TINY_TOKENIZER = JSON.stringify({
  model: { type: 'WordPiece', unk_token: '[UNK]', vocab: { '[PAD]': 0, '[UNK]': 1, '[CLS]': 2, '[SEP]': 3, hello: 4 } },
  normalizer: null, pre_tokenizer: { type: 'BertPreTokenizer' }, post_processor: null,
});

test('#19 info() and limits.js state the same JSON depth and alignment limits', () => {
  assert.equal(info().maxJsonDepth, MAX_JSON_DEPTH);
  assert.equal(info().maxAlignmentCells, MAX_ALIGNMENT_CELLS);
  assert.equal(info().maxJudgeReplyBytes, MAX_JUDGE_REPLY_BYTES);
  assert.equal(MAX_JSON_DEPTH, 256);
  assert.equal(MAX_ALIGNMENT_CELLS, 1e8);
});

test('#19 a 20000-deep tokenizer.json 16 times is LIMIT_EXCEEDED and the module still works', () => {
  // Before the fix the 16th call left the module corrupted: Bm25Index.create() then failed with
  // "table index is out of bounds".
  const deep = '{"model":' + deepObject(20000) + '}';
  for (let i = 0; i < 16; i++) {
    throwsCode(() => Tokenizer.fromTokenizerJson(deep), 'LIMIT_EXCEEDED', 'tokenizer.json: JSON nested deeper than 256 levels');
  }
  const ix = Bm25Index.create();
  ix.add([{ id: 'd1', text: 'hello world' }, { id: 'd2', text: 'other text' }]);
  assert.deepEqual(ix.search('hello').map((h) => h.id), ['d1']);
  ix.dispose();
  const tok = Tokenizer.fromTokenizerJson(TINY_TOKENIZER);
  assert.deepEqual([...tok.encode('hello')], [2, 4, 3]);
  tok.dispose();
});

test('#19 a deeply nested pipeline config is LIMIT_EXCEEDED and a good one still parses', () => {
  // 300 levels: within what JSON.stringify handles, above the core's 256.
  const config = { chunker: { strategy: 'fixed', chunkSize: 100, chunkOverlap: 10 } };
  let v = 1;
  for (let i = 0; i < 300; i++) v = [v];
  throwsCode(() => parsePipelineConfig({ ...config, extra: v }), 'LIMIT_EXCEEDED', 'JSON nested deeper than 256 levels');
  assert.equal(parsePipelineConfig(config).chunker.chunkSize, 100);
});

test('#19 anls of two long different strings is LIMIT_EXCEEDED and a long answer against a short reference is 0', () => {
  const a = 'a'.repeat(20000), b = 'b'.repeat(20000);
  throwsCode(() => metrics.anls(a, b), 'LIMIT_EXCEEDED', 'edit-distance cells, the limit is 100000000');
  assert.equal(metrics.anls('x'.repeat(1000000), 'hello'), 0);  // decided by the length difference alone
  assert.equal(metrics.anls('x'.repeat(1000000), 'x'.repeat(1000000)), 1);  // the common prefix covers it
  assert.ok(Math.abs(metrics.anls('hello', 'hallo') - 0.8) < 1e-12);  // 1 - 1/5, tolerance 1e-12
});

test('#19 rougeL over the LCS cell limit is LIMIT_EXCEEDED and then still works', () => {
  const words = (p, n) => Array.from({ length: n }, (_, i) => `${p}${i}`).join(' ');
  throwsCode(() => metrics.rougeL(words('p', 12000), words('q', 12000)), 'LIMIT_EXCEEDED', 'LCS cells');
  assert.ok(Math.abs(metrics.rougeL('the cat sat on the mat', 'The cat on the mat.') - 10 / 11) < 1e-12);
});

test('#19 evidenceContainment over the alignment-cell limit is LIMIT_EXCEEDED and then still works', () => {
  // 20,001 x 10,000 code points = 2.0e8 cells > MAX_ALIGNMENT_CELLS (1e8), no substring match
  assert.throws(() => metrics.evidenceContainment('a'.repeat(20001), 'b'.repeat(10000)),
    (e) => e instanceof RagwasmError && e.code === 'LIMIT_EXCEEDED' && /alignment limit/.test(e.message));
  assert.ok(Math.abs(metrics.evidenceContainment('quick brown fox', 'a quick brwn fox ran') - (1 - 1 / 15)) < 1e-12);
});

test('#19 strict sentence chunking never returns a chunk above chunkSize for text without sentence breaks', () => {
  const text = 'abcdefghi '.repeat(50000);  // 500,000 characters, no sentence break
  const loose = chunkTexts(text, { strategy: 'sentence', chunkSize: 1000 });
  assert.equal(loose.length, 1, 'parity mode: the over-long sentence is one chunk, as documented');
  const strict = chunkTexts(text, { strategy: 'sentence', chunkSize: 1000, strict: true });
  assert.ok(strict.length >= 500, `got ${strict.length} chunks`);
  assert.ok(strict.every((c) => c.length <= 1000), 'a chunk above chunkSize');
  assert.equal(strict.join(' '), text.trim());  // cut at spaces, nothing lost
  throwsCode(() => chunkTexts('x', { strategy: 'sentence', chunkSize: 3, unit: 'bytes', strict: true }), 'INVALID_ARGUMENT');
  assert.deepEqual(chunkTexts('One. Two.', { strategy: 'sentence', chunkSize: 1000, strict: true }), ['One. Two.']);
});

test('#19 judge scores with exponents or zero denominators are PARSE_ERROR not their leading digits', () => {
  for (const reply of ['Score: 3e2', '1e309', '.5e1', '3/0', 'Rating: 2E1']) {
    throwsCode(() => parseJudgeScore(reply), 'PARSE_ERROR');
  }
  throwsCode(() => parseJudgeScore('Score: 3e2'), 'PARSE_ERROR', "'3e2' is not a plain decimal score");
  const claims = parseClaimScores('[1] Score: 1e309\n[2] Score: 2\n', 2);
  assert.equal(claims[0].score, null);
  assert.ok(claims[0].error.includes('exponents are not accepted'), claims[0].error);
  assert.equal(claims[1].score, 2);
  assert.equal(parseJudgeScore('Score: 2').value, 2);
});

test('#19 a judge reply over maxJudgeReplyBytes is LIMIT_EXCEEDED before it is copied and then parsing still works', () => {
  const huge = 'Score: 2 '.repeat(Math.ceil((MAX_JUDGE_REPLY_BYTES + 1) / 9));
  throwsCode(() => parseJudgeScore(huge), 'LIMIT_EXCEEDED', `the limit is ${MAX_JUDGE_REPLY_BYTES}`);
  throwsCode(() => parseClaimScores(huge, 1), 'LIMIT_EXCEEDED');
  assert.equal(parseJudgeScore('Score: 2 '.repeat(1000)).value, 2);
});

test('#19 an empty qrels text or a non-numeric BEIR score is a PARSE_ERROR naming file and line', () => {
  throwsCode(() => metrics.Qrels.parse('', { name: 'empty.qrels' }), 'PARSE_ERROR', 'empty.qrels: no judgments');
  throwsCode(() => metrics.Qrels.parse('query-id\tcorpus-id\tscore\n1\tA\t1\n1\tB\thigh\n', { name: 'test.tsv' }), 'PARSE_ERROR',
    "test.tsv:3: score: expected an integer, got 'high'");
  const q = metrics.Qrels.parse('query-id\tcorpus-id\tscore\n1\tA\t1\n', { name: 'test.tsv' });
  assert.equal(q.size, 1);
  q.dispose();
});

test('#19 the CLI dataset loaders reject bad qrels rows and empty files with file:line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-19-'));
  const write = (name, text) => { const p = join(dir, name); writeFileSync(p, text); return p; };
  const bad = write('bad.tsv', 'query-id\tcorpus-id\tscore\n1\tA\t1\n1\tB\tabc\n');
  assert.throws(() => readQrelsTsv(bad), (e) => e instanceof DatasetError && e.message === `${bad}:3: score: expected an integer, got 'abc'`);
  const short = write('short.tsv', '1\tA\n');
  assert.throws(() => readQrelsTsv(short), (e) => e instanceof DatasetError && e.message.startsWith(`${short}:1: expected 3 fields`));
  const empty = write('empty.tsv', 'query-id\tcorpus-id\tscore\n');
  assert.throws(() => readQrelsTsv(empty), (e) => e instanceof DatasetError && e.message.includes('no judgments'));
  const corpus = write('corpus.jsonl', '\n');
  assert.throws(() => readBeirCorpus(corpus), (e) => e instanceof DatasetError && e.message === `${corpus}: empty corpus (no documents)`);
  // Good files still load.
  assert.deepEqual([...readQrelsTsv(write('ok.tsv', 'query-id\tcorpus-id\tscore\n1\tA\t2\n')).get('1')], [['A', 2]]);
  assert.equal(readBeirCorpus(write('ok.jsonl', '{"_id": 7, "text": "t"}\n'))[0].id, '7');
});
