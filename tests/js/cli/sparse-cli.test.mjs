// `ragwasm index` and `ragwasm search`: build from a folder of text/markdown files and from BEIR
// corpus.jsonl, then write TREC run lines.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../helpers.mjs';

const cli = join(repoRoot, 'web/cli/ragwasm.mjs');
const run = (...args) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env: process.env });

test('index a folder of text and markdown files then search it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-cli-'));
  try {
    mkdirSync(join(dir, 'docs', 'sub'), { recursive: true });
    writeFileSync(join(dir, 'docs', 'a.md'), '# Apple pie\n\nBake the apples with cinnamon.\n');
    writeFileSync(join(dir, 'docs', 'sub', 'b.txt'), 'Pears and plums. Ticket TS-999.\n');
    writeFileSync(join(dir, 'docs', 'ignored.bin'), 'apple apple apple');
    const idx = join(dir, 'docs.idx');
    let r = run('index', '-o', idx, join(dir, 'docs'));
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /indexed 2 documents/);
    r = run('search', idx, '--query', 'apples', '--qid', 'q7');
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines.length, 1);
    const [qid, q0, docid, rank, score, tag] = lines[0].split(' ');
    assert.deepEqual([qid, q0, docid, rank, tag], ['q7', 'Q0', 'a.md', '1', 'ragwasm']);
    assert.ok(Number(score) > 0);
    r = run('search', idx, '--query', 'ts-999');
    assert.match(r.stdout, /^1 Q0 sub\/b\.txt 1 /);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('index BEIR corpus.jsonl and run a query file to a TREC run file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-cli-'));
  try {
    const corpus = [
      { _id: 'd1', title: 'Vitamin D', text: 'Vitamin D deficiency and bone health.' },
      { _id: 'd2', title: 'Sleep', text: 'Sleep quality in adolescents.' },
      { _id: 'd3', title: 'Bones', text: 'Bone density in older adults.' },
    ];
    writeFileSync(join(dir, 'corpus.jsonl'), corpus.map((d) => JSON.stringify(d)).join('\n') + '\n');
    writeFileSync(join(dir, 'queries.jsonl'), [{ _id: '1', text: 'vitamin d bones' }, { _id: '2', text: 'sleep' }].map((q) => JSON.stringify(q)).join('\n'));
    writeFileSync(join(dir, 'queries.tsv'), '1\tvitamin d bones\n2\tsleep\n');
    const idx = join(dir, 'c.idx');
    assert.equal(run('index', '--title-boost', '2', '-o', idx, join(dir, 'corpus.jsonl')).status, 0);
    const out = join(dir, 'run.trec');
    const r = run('search', idx, '--queries', join(dir, 'queries.jsonl'), '-k', '2', '-o', out, '--tag', 'mytag');
    assert.equal(r.status, 0, r.stderr);
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => l.split(' '));
    assert.deepEqual(lines.map((l) => [l[0], l[2], l[3], l[5]]), [['1', 'd1', '1', 'mytag'], ['1', 'd3', '2', 'mytag'], ['2', 'd2', '1', 'mytag']]);
    const tsv = run('search', idx, '--queries', join(dir, 'queries.tsv'), '-k', '2');
    assert.equal(tsv.stdout.replaceAll('mytag', 'ragwasm'), readFileSync(out, 'utf8').replaceAll('mytag', 'ragwasm'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bad arguments exit non-zero with a message', () => {
  assert.equal(run('index').status, 2);
  assert.equal(run('search', 'x.idx').status, 2);
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-cli-'));
  try {
    writeFileSync(join(dir, 'bad.idx'), 'not an index');
    const r = run('search', join(dir, 'bad.idx'), '--query', 'x');
    assert.equal(r.status, 1);
    assert.match(r.stderr, /CORRUPT_INDEX/);
    writeFileSync(join(dir, 'c.jsonl'), '{"_id":"a","text":"x"}\n');
    const bad = run('index', '--k1', 'abc', '-o', join(dir, 'o.idx'), join(dir, 'c.jsonl'));
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /k1/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('CISI files load the same with CRLF and with LF line ends', async () => {
  const { loadCisi } = await import('../../../web/cli/datasets.mjs');
  const all = ['.I 1', '.T', 'Dewey decimal', '.W', 'Classification of books', 'by subject.', '.I 2', '.T', 'Indexing', '.W', 'Term weights.'];
  const qry = ['.I 1', '.W', 'How are books classified?', '.I 2', '.W', 'unjudged query'];
  const rel = ['1     1 0 0.000000', '1     2 0 0.000000'];
  const seen = [];
  for (const eol of ['\r\n', '\n']) {
    const dir = mkdtempSync(join(tmpdir(), 'ragwasm-cisi-'));
    writeFileSync(join(dir, 'CISI.ALL'), all.join(eol) + eol, 'latin1');
    writeFileSync(join(dir, 'CISI.QRY'), qry.join(eol) + eol, 'latin1');
    writeFileSync(join(dir, 'CISI.REL'), rel.join(eol) + eol, 'latin1');
    const d = loadCisi(dir);
    rmSync(dir, { recursive: true, force: true });
    assert.deepEqual(d.corpus, [{ id: '1', title: 'Dewey decimal', text: 'Classification of books\nby subject.' }, { id: '2', title: 'Indexing', text: 'Term weights.' }], JSON.stringify(eol));
    assert.deepEqual(d.queries, [{ id: '1', text: 'How are books classified?' }]);
    seen.push([...d.qrels.get('1').keys()]);
  }
  assert.deepEqual(seen, [['1', '2'], ['1', '2']]);
});

test('eval names a missing qrels split instead of evaluating every query', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-split-'));
  writeFileSync(join(dir, 'corpus.jsonl'), '{"_id":"d1","title":"","text":"alpha beta"}\n');
  writeFileSync(join(dir, 'queries.jsonl'), '{"_id":"q1","text":"alpha"}\n');
  mkdirSync(join(dir, 'qrels'));
  writeFileSync(join(dir, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\nq1\td1\t1\n');
  const r = run('eval', '--dataset', dir, '--split', 'dev');
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /qrels\/dev\.tsv: no qrels for split "dev" \(available: test\)/);
});

test('search --qrels-only keeps the first query of a qrels file without a header row', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-qo-'));
  writeFileSync(join(dir, 'corpus.jsonl'), '{"_id":"d1","title":"","text":"alpha beta"}\n{"_id":"d2","title":"","text":"gamma delta"}\n');
  writeFileSync(join(dir, 'queries.jsonl'), '{"_id":"q1","text":"alpha"}\n{"_id":"q2","text":"gamma"}\n{"_id":"q3","text":"beta"}\n');
  writeFileSync(join(dir, 'qrels.tsv'), 'q1\td1\t1\nq2\td2\t1\n');
  const idx = join(dir, 'ix.bin');
  assert.equal(run('index', '-o', idx, join(dir, 'corpus.jsonl')).status, 0);
  const r = run('search', idx, '--queries', join(dir, 'queries.jsonl'), '--qrels-only', join(dir, 'qrels.tsv'));
  assert.equal(r.status, 0, r.stderr);
  const qids = [...new Set(r.stdout.trim().split('\n').map((l) => l.split(' ')[0]))];
  assert.deepEqual(qids, ['q1', 'q2']);
});
