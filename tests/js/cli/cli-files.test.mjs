// Issue #33: files as untrusted input through the CLI. Every dataset or document folder is read by
// the one folder reader (web/src/document/folder.js): manifest paths confined to the folder (C-2),
// regular files only (FIFO, /dev/zero: a per-file error, never a hang), size caps per file and per
// folder (--max-file-mb, --max-folder-mb), PDFs read (not skipped), terminal output escaped (C-3),
// and malformed data files (corpus.jsonl, qrels, BOMs) as clear errors naming the line.
import test, { before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { init, RagwasmError } from '../../../web/src/index.js';
import { main } from '../../../web/cli/ragwasm.mjs';
import { DatasetError, loadEvidenceCorpus, loadQaDataset, loadTuneDataset, readDocuments, readQrelsTsv } from '../../../web/cli/datasets.mjs';
import { readAtMost } from '../../../web/src/document/folder.js';
import { makePdf } from '../../fixtures/make-pdf.mjs';
import { repoRoot } from '../helpers.mjs';

const cli = join(repoRoot, 'web/cli/ragwasm.mjs');
const SECRET = 'SECRET-c2-do-not-read';
const STACK = /^\s+at .+:\d+:\d+\)?$/m;

function capture() {
  const io = { out: '', err: '' };
  io.stdout = { write: (s) => { io.out += s; } };
  io.stderr = { write: (s) => { io.err += s; } };
  return io;
}
// A child process with a time limit: a hang is a failure, not a stuck test run.
function spawnCli(args, timeout = 30000) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout });
  assert.notEqual(r.error?.code, 'ETIMEDOUT', `ragwasm ${args[0]} did not finish within ${timeout} ms (a hang)`);
  return r;
}

// root/secret.txt outside; root/ds a dataset folder (manifest.json, questions.jsonl, docs/a.md).
function dataset(entries) {
  const root = mkdtempSync(join(tmpdir(), 'ragwasm-cli-files-'));
  const ds = join(root, 'ds');
  mkdirSync(join(ds, 'docs'), { recursive: true });
  writeFileSync(join(root, 'secret.txt'), `The vault code is ${SECRET}.\n`);
  writeFileSync(join(ds, 'docs', 'a.md'), '# Hours\n\nThe office opens at nine.\n');
  writeFileSync(join(ds, 'manifest.json'), JSON.stringify(entries));
  writeFileSync(join(ds, 'questions.jsonl'), '{"id": "q1", "question": "When does the office open?", "answer": "nine", "evidence": ["opens at nine"]}\n');
  return { root, ds };
}

before(async () => { await init(); });

test('#33 C-2 manifest entries outside the dataset folder are refused by ask experiment tune and label', async () => {
  const { root, ds } = dataset([{ id: 'a', file: 'docs/a.md' }, { id: 's', file: '../secret.txt' }, { id: 't', file: 'docs/../../secret.txt' }]);
  writeFileSync(join(ds, 'manifest.json'), JSON.stringify([...JSON.parse(readFileSync(join(ds, 'manifest.json'), 'utf8')), { id: 'abs', file: join(root, 'secret.txt') }]));
  const io = capture();
  assert.equal(await main(['ask', '--docs', ds, 'What is the vault code?'], io), 0, io.err);
  assert.ok(!io.out.includes(SECRET), io.out);
  assert.match(io.err, /skipped \.\.\/secret\.txt \(INVALID_ARGUMENT: outside the folder/);
  assert.match(io.err, /skipped docs\/\.\.\/\.\.\/secret\.txt \(INVALID_ARGUMENT: outside the folder/);
  assert.match(io.err, /skipped \/.*secret\.txt \(INVALID_ARGUMENT: an absolute path/);
  // experiment (loadQaDataset), tune and label (loadTuneDataset / loadEvidenceCorpus) read the same way.
  const errors = [];
  const onError = (f) => errors.push(f.file);
  const qa = await loadQaDataset(ds, { onError });
  assert.deepEqual(qa.documents.map((d) => d.id), ['a']);
  assert.deepEqual(errors, ['../secret.txt', 'docs/../../secret.txt', join(root, 'secret.txt')]);
  assert.deepEqual((await loadTuneDataset(ds, { onError: () => {} })).documents.map((d) => d.id), ['a']);
  assert.deepEqual((await loadEvidenceCorpus(ds, { onError: () => {} })).documents.map((d) => d.id), ['a']);
  const exp = capture();
  writeFileSync(join(root, 'grid.json'), '{}');
  assert.equal(await main(['experiment', '--grid', join(root, 'grid.json'), '--dataset', ds, '--dry-run'], exp), 0, exp.err);
  assert.match(exp.err, /ragwasm experiment: skipped \.\.\/secret\.txt/);
});

test('#33 C-2 a symbolic link leading outside the folder and a manifest key file without a text extension are refused', async () => {
  const { root, ds } = dataset([{ id: 'a', file: 'docs/a.md' }, { id: 'l', file: 'docs/link.md' }, { id: 'k', file: 'key' }]);
  symlinkSync(join(root, 'secret.txt'), join(ds, 'docs', 'link.md'));
  writeFileSync(join(ds, 'key'), SECRET);
  const errors = [];
  const qa = await loadQaDataset(ds, { onError: (f) => errors.push(`${f.file} ${f.code}`) });
  assert.deepEqual(qa.documents.map((d) => d.id), ['a']);
  assert.deepEqual(errors, ['docs/link.md INVALID_ARGUMENT', 'key INVALID_ARGUMENT']);
  // Folder mode (no manifest): the link is listed and refused, the other files kept.
  const plain = join(root, 'plain');
  mkdirSync(plain);
  writeFileSync(join(plain, 'a.md'), '# A\n\nThe office opens at nine.\n');
  symlinkSync(join(root, 'secret.txt'), join(plain, 'b.md'));
  const skipped = [];
  assert.deepEqual((await readDocuments(plain, { onError: (f) => skipped.push(f.file) })).map((d) => d.id), ['a.md']);
  assert.deepEqual(skipped, ['b.md']);
});

test('#33 C-6 a FIFO in a folder or named by a manifest is a per-file error for ask and export never a hang', () => {
  const { ds } = dataset([{ id: 'a', file: 'docs/a.md' }, { id: 'p', file: 'docs/pipe.md' }]);
  assert.equal(spawnSync('mkfifo', [join(ds, 'docs', 'pipe.md')]).status, 0);
  const ask = spawnCli(['ask', '--docs', ds, 'When does the office open?']);
  assert.equal(ask.status, 0, ask.stderr);
  assert.match(ask.stderr, /skipped docs\/pipe\.md \(INVALID_ARGUMENT: a FIFO \(named pipe\), not a regular file; refused\)/);
  assert.match(ask.stdout, /nine/);
  const out = mkdtempSync(join(tmpdir(), 'ragwasm-cli-files-out-'));
  const exp = spawnCli(['export', join(ds, 'docs'), '--retriever', 'bm25', '--to', join(out, 'x.sql')]);
  assert.equal(exp.status, 0, exp.stderr);
  assert.match(exp.stderr, /ragwasm export: skipped pipe\.md \(INVALID_ARGUMENT: a FIFO/);
  assert.match(exp.stderr, /exported 1 documents/);
});

test('#33 C-1 a .md symlinked to /dev/zero is refused and reads are bounded even for files of unknown size', async () => {
  const root = mkdtempSync(join(tmpdir(), 'ragwasm-cli-files-'));
  writeFileSync(join(root, 'a.md'), '# A\n\nThe office opens at nine.\n');
  symlinkSync('/dev/zero', join(root, 'zero.md'));
  const io = capture();
  assert.equal(await main(['ask', '--docs', root, 'When does the office open?'], io), 0, io.err);
  assert.match(io.err, /skipped zero\.md \(INVALID_ARGUMENT: a symbolic link leading outside the folder; refused\)/);
  // The bounded read itself: /dev/zero never ends; readAtMost stops after cap + 1 bytes.
  const { openSync: open, readSync, closeSync: close } = await import('node:fs');
  const fd = open('/dev/zero', 'r');
  try {
    assert.equal(readAtMost({ readSync }, fd, 1 << 20, 0), null);
  } finally {
    close(fd);
  }
});

test('#33 size caps per file and per folder are checked before reading and set by --max-file-mb and --max-folder-mb', async () => {
  const root = mkdtempSync(join(tmpdir(), 'ragwasm-cli-files-'));
  writeFileSync(join(root, 'a.md'), `# A\n\nThe office opens at nine. ${'filler '.repeat(100)}\n`);  // ~750 bytes
  writeFileSync(join(root, 'b.md'), `# B\n\nParking is behind the building. ${'filler '.repeat(300)}\n`);  // ~2.1 kB
  const fd = openSync(join(root, 'huge.md'), 'w');
  const { ftruncateSync } = await import('node:fs');
  ftruncateSync(fd, 300 * 1024 * 1024);  // sparse: over the 256 MiB default, no disk used
  closeSync(fd);
  let io = capture();
  assert.equal(await main(['ask', '--docs', root, 'When does the office open?'], io), 0, io.err);
  assert.match(io.err, /skipped huge\.md \(LIMIT_EXCEEDED: 314572800 bytes, the limit is 268435456 per file \(maxFileBytes\)\)/);
  io = capture();
  assert.equal(await main(['ask', '--docs', root, '--max-file-mb', '0.001', 'When does the office open?'], io), 0, io.err);
  assert.doesNotMatch(io.err, /skipped a\.md/);
  assert.match(io.err, /skipped b\.md \(LIMIT_EXCEEDED: \d+ bytes, the limit is 1048 per file \(maxFileBytes\)\)/);
  assert.match(io.out, /nine/);
  io = capture();
  assert.equal(await main(['ask', '--docs', root, '--max-folder-mb', '0.002', 'When does the office open?'], io), 0, io.err);
  assert.doesNotMatch(io.err, /skipped a\.md/);
  assert.match(io.err, /skipped b\.md \(LIMIT_EXCEEDED: \d+ bytes would pass the folder limit of 2097 bytes/);
  io = capture();
  assert.equal(await main(['ask', '--docs', root, '--max-file-mb', 'lots', 'q'], io), 2);
  assert.match(io.err, /--max-file-mb: expected a size in MiB > 0, got 'lots'/);
  const skipped = [];
  await readDocuments(root, { limits: { maxFileBytes: 1000 }, onError: (f) => skipped.push(`${f.file} ${f.code}`) });
  assert.deepEqual(skipped.sort(), ['b.md LIMIT_EXCEEDED', 'huge.md LIMIT_EXCEEDED']);
});

test('#33 ask --docs reads PDFs (a plain Uint8Array for pdf.js) instead of skipping them', async () => {
  const root = mkdtempSync(join(tmpdir(), 'ragwasm-cli-files-'));
  writeFileSync(join(root, 'vault.pdf'), makePdf([['The vault code is PDF-4711 for the east wing.']]));
  const io = capture();
  assert.equal(await main(['ask', '--docs', root, '--json', 'What is the vault code for the east wing?'], io), 0, io.err);
  assert.doesNotMatch(io.err, /skipped vault\.pdf/);
  const r = JSON.parse(io.out);
  assert.equal(r.hits[0].docId, 'vault.pdf');
  assert.match(r.hits[0].text, /PDF-4711/);
});

test('#33 C-3 document text printed by ask chunk and sentences shows control characters instead of sending them to the terminal', async () => {
  const root = mkdtempSync(join(tmpdir(), 'ragwasm-cli-files-'));
  const evil = 'The vault code is 1234 \u001b]0;pwned\u0007 and \u001b]52;c;cm0=\u0007 then \u009b31m red \u001b[2J.';
  writeFileSync(join(root, 'esc.md'), `# Vault\n\n${evil}\n`);
  const io = capture();
  assert.equal(await main(['ask', '--docs', root, 'What is the vault code?'], io), 0, io.err);
  // eslint-disable-next-line no-control-regex
  const raw = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
  assert.doesNotMatch(io.out, raw);
  assert.match(io.out, /1234 \\u001b\]0;pwned\\u0007/);
  for (const cmd of [['chunk', join(root, 'esc.md')], ['sentences', join(root, 'esc.md')]]) {
    const c = capture();
    assert.equal(await main(cmd, c), 0, c.err);
    assert.doesNotMatch(c.out, raw, cmd[0]);
    // JSON lines stay valid JSON with the same text: the escapes are JSON escapes.
    assert.ok(c.out.trim().split('\n').map((l) => JSON.parse(l)).some((x) => (x.text ?? '').includes('\u009b31m')), cmd[0]);
  }
  // A file name with an escape sequence is shown escaped on stderr too.
  writeFileSync(join(root, 'x\u001b[31m.png'), 'x');
  const n = capture();
  await main(['ask', '--docs', root, 'What is the vault code?'], n);
  assert.doesNotMatch(n.err, raw);
  assert.match(n.err, /skipped x\\u001b\[31m\.png/);
});

test('#33 a corpus.jsonl written as one JSON array with a line missing _id or with an invalid line is a RagwasmError naming the line', async () => {
  const root = mkdtempSync(join(tmpdir(), 'ragwasm-cli-files-'));
  const cases = [
    ['array.jsonl', JSON.stringify([{ _id: 'a', text: 'x' }]) + '\n', /array\.jsonl:1: expected a JSON object .* got an array \(a corpus\.jsonl holds one document per line, not one JSON array\)/],
    ['pretty.jsonl', JSON.stringify([{ _id: 'a', text: 'x' }], null, 2) + '\n', /pretty\.jsonl:1: invalid JSON .*; a corpus\.jsonl holds one JSON object per line, not one JSON array/],
    ['noid.jsonl', '{"_id": "a", "text": "x"}\n\n{"text": "y"}\n', /noid\.jsonl:3: "_id": expected a non-empty string or a number, got no "_id"/],
    ['bad.jsonl', '{"_id": "a", "text": "x"}\n{"_id": "b", "text": \n', /bad\.jsonl:2: invalid JSON/],
    ['text.jsonl', '{"_id": "a", "text": 12}\n', /text\.jsonl:1: "text": expected a string, got 12/],
  ];
  for (const [name, body, re] of cases) {
    writeFileSync(join(root, name), body);
    await assert.rejects(readDocuments(join(root, name)), (e) => e instanceof RagwasmError && e.code === 'PARSE_ERROR' && re.test(e.message), name);
    const r = spawnCli(['index', '--retriever', 'bm25', '-o', join(root, 'out.bin'), join(root, name)]);
    assert.equal(r.status, 1, `${name}: ${r.stderr}`);
    assert.match(r.stderr, re);
    assert.match(r.stderr, /\[PARSE_ERROR\]/);
    assert.doesNotMatch(r.stderr, STACK, `${name}: a Node stack trace`);
  }
});

test('#33 duplicate qrels rows warn once and conflicting rows are an error naming both lines', () => {
  const root = mkdtempSync(join(tmpdir(), 'ragwasm-cli-files-'));
  writeFileSync(join(root, 'dup.tsv'), 'query-id\tcorpus-id\tscore\nq1\ta\t1\nq1\tb\t0\nq1\ta\t1\nq1\ta\t1\n');
  const warnings = [];
  const q = readQrelsTsv(join(root, 'dup.tsv'), { onWarning: (m) => warnings.push(m) });
  assert.deepEqual([...q.get('q1')], [['a', 1], ['b', 0]]);
  assert.deepEqual(warnings, [`${join(root, 'dup.tsv')}: 2 duplicate judgment rows counted once (line 4 repeats line 2 (query q1, document a))`]);
  writeFileSync(join(root, 'conflict.tsv'), 'q1\ta\t2\nq1\ta\t0\n');
  assert.throws(() => readQrelsTsv(join(root, 'conflict.tsv')), (e) => e instanceof DatasetError
    && e.message === `${join(root, 'conflict.tsv')}:2: query q1 document a judged 0 here and 2 on line 1; one judgment per pair`);
});

test('#33 a BOM at the start of a qrels or run file does not change trec_eval numbers', async () => {
  const root = mkdtempSync(join(tmpdir(), 'ragwasm-cli-files-'));
  const qrels = '1 0 d1 1\n1 0 d2 0\n2 0 d3 1\n';
  const run = '1 Q0 d2 1 2.0 r\n1 Q0 d1 2 1.0 r\n2 Q0 d3 1 1.0 r\n';
  writeFileSync(join(root, 'q'), qrels);
  writeFileSync(join(root, 'r'), run);
  writeFileSync(join(root, 'qb'), `\uFEFF${qrels}`);
  writeFileSync(join(root, 'rb'), `\uFEFF${run}`);
  const plain = capture();
  assert.equal(await main(['trec_eval', join(root, 'q'), join(root, 'r')], plain), 0, plain.err);
  const bom = capture();
  assert.equal(await main(['trec_eval', join(root, 'qb'), join(root, 'rb')], bom), 0, bom.err);
  assert.match(plain.out, /^map\s+all\s+0\.7500$/m);  // query 1: AP 1/2; query 2: AP 1; mean 0.75
  assert.equal(bom.out, plain.out);
  // BEIR qrels and corpus files with a BOM read the same as without.
  writeFileSync(join(root, 'b.tsv'), '\uFEFFquery-id\tcorpus-id\tscore\nq1\ta\t1\n');
  assert.deepEqual([...readQrelsTsv(join(root, 'b.tsv')).keys()], ['q1']);
});
