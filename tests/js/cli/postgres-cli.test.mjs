// `ragwasm export --to postgres://…|FILE.sql`, `ragwasm search --engine` and `ragwasm eval --engine`
// against a throwaway PostgreSQL 15 server (no pgvector there: BM25 and the schema), on a small
// BEIR-style dataset written to a temp folder. Passwords never appear in any output.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../web/cli/ragwasm.mjs';
import { captureIo as capture } from '../helpers.mjs';
import { serverSkipReason, startPostgresServer } from '../postgres-helpers.mjs';

const DOCS = [
  ['d1', 'Lighthouses', 'A lighthouse warns ships at night with a rotating lamp and a lens that bends the light into a beam.'],
  ['d2', 'Deserts', 'Deserts receive little rain, and their sand dunes move with the wind across the plains.'],
  ['d3', 'Cheese making', 'Milk curdles with rennet; the curds are pressed, salted and aged until the cheese ripens.'],
  ['d4', 'Bats', 'Bats find insects in the dark by echolocation, listening to the echoes of their own calls.'],
  ['d5', 'Rainbows', 'A rainbow appears when sunlight is refracted and reflected inside raindrops in the sky.'],
  ['d6', 'Yogurt', 'Yogurt is milk fermented by lactic bacteria, which thicken it and make it sour.'],
];
const QUERIES = [['q1', 'fermented milk products'], ['q2', 'how do ships see the lighthouse beam'], ['q3', "why do rainbows' colours appear"]];
const QRELS = [['q1', 'd3', 1], ['q1', 'd6', 1], ['q2', 'd1', 1], ['q3', 'd5', 1]];

const SKIP = serverSkipReason() ?? false;
let server;
let dir;
test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ragwasm-pgcli-'));
  writeFileSync(join(dir, 'corpus.jsonl'), DOCS.map(([id, title, text]) => JSON.stringify({ _id: id, title, text })).join('\n') + '\n');
  writeFileSync(join(dir, 'queries.jsonl'), QUERIES.map(([id, text]) => JSON.stringify({ _id: id, text })).join('\n') + '\n');
  mkdirSync(join(dir, 'qrels'));
  writeFileSync(join(dir, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\n' + QRELS.map((r) => r.join('\t')).join('\n') + '\n');
  if (!SKIP) server = await startPostgresServer();
});
test.after(() => {
  server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const withPassword = () => server.url.replace('postgres@', 'postgres:hunter2@');

test('export then search --engine writes the same run as searching the saved collection', { skip: SKIP }, async () => {
  const col = join(dir, 'col.bin');
  let c = capture();
  writeFileSync(join(dir, 'bm25.json'), JSON.stringify({ indexes: { bm25: {} } }));
  assert.equal(await main(['index', '--config', join(dir, 'bm25.json'), '--chunker', 'none', '-o', col, dir], c.io), 0, c.err());
  c = capture();
  assert.equal(await main(['export', col, '--to', withPassword(), '--schema', 'cli'], c.io), 0, c.err());
  assert.match(c.err(), /exported 6 documents \(6 written, 0 removed\), 6 chunks, \d+ BM25 impacts, no embeddings/);
  assert.ok(!c.err().includes('hunter2') && c.err().includes('postgres:***@'), c.err());
  c = capture();
  assert.equal(await main(['export', col, '--to', withPassword(), '--schema', 'cli'], c.io), 0, c.err());
  assert.match(c.err(), /\(0 written, 0 removed\), 6 chunks, BM25 impacts unchanged/);
  const local = capture();
  assert.equal(await main(['search', col, '--queries', join(dir, 'queries.jsonl'), '-k', '5'], local.io), 0, local.err());
  const engine = capture();
  assert.equal(await main(['search', '--engine', withPassword(), '--schema', 'cli', '--queries', join(dir, 'queries.jsonl'), '-k', '5'], engine.io), 0, engine.err());
  assert.ok(local.out().split('\n').length > 3);
  assert.equal(engine.out(), local.out());
});

test('eval --engine gives the in-browser BM25 measures', { skip: SKIP }, async () => {
  const local = capture();
  assert.equal(await main(['eval', '--dataset', dir, '--retriever', 'bm25', '--json'], local.io), 0, local.err());
  const engine = capture();
  assert.equal(await main(['eval', '--dataset', dir, '--engine', server.url, '--schema', 'cli', '--json'], engine.io), 0, engine.err());
  const a = JSON.parse(local.out());
  const b = JSON.parse(engine.out());
  assert.deepEqual(b.measures, a.measures);
  assert.equal(b.numQueries, 3);
});

test('export --to FILE.sql and --format csv load with psql into the same tables', { skip: SKIP }, async () => {
  const sql = join(dir, 'col.sql');
  let c = capture();
  assert.equal(await main(['export', dir, '--retriever', 'bm25', '--chunker', 'none', '--to', sql, '--schema', 'fromfile', '--no-vectors'], c.io), 0, c.err());
  execFileSync('psql', ['-q', '-v', 'ON_ERROR_STOP=1', '-d', server.url, '-f', sql], { stdio: ['ignore', 'pipe', 'pipe'] });
  const a = capture();
  assert.equal(await main(['search', '--engine', server.url, '--schema', 'fromfile', '--queries', join(dir, 'queries.jsonl'), '-k', '5'], a.io), 0, a.err());
  const b = capture();
  assert.equal(await main(['search', '--engine', server.url, '--schema', 'cli', '--queries', join(dir, 'queries.jsonl'), '-k', '5'], b.io), 0, b.err());
  assert.equal(a.out(), b.out());
  const csvDir = join(dir, 'csv');
  c = capture();
  assert.equal(await main(['export', dir, '--retriever', 'bm25', '--chunker', 'none', '--format', 'csv', '--to', csvDir, '--schema', 'fromcsv'], c.io), 0, c.err());
  execFileSync('psql', ['-q', '-v', 'ON_ERROR_STOP=1', '-d', server.url, '-f', 'load.sql'], { cwd: csvDir, stdio: ['ignore', 'pipe', 'pipe'] });
  const d = capture();
  assert.equal(await main(['search', '--engine', server.url, '--schema', 'fromcsv', '--queries', join(dir, 'queries.jsonl'), '-k', '5'], d.io), 0, d.err());
  assert.equal(d.out(), b.out());
  c = capture();
  assert.equal(await main(['export', dir, '--to', join(dir, 'x.txt')], c.io), 2);
  assert.match(c.err(), /--to: expected a postgres:\/\/ URL or a file ending in \.sql/);
});

test('--format csv loads with psql 15 when a chunk has a line \\.; --check compares; --force adopts a schema with other tables (#30 P-2, P-3)', { skip: SKIP }, async () => {
  const docsDir = join(dir, 'dotdocs');
  mkdirSync(docsDir);
  const dotted = [...DOCS.map(([id, title, text]) => ({ _id: id, title, text })),
    { _id: 'dot', title: 'Copy markers', text: 'psql ends a copy at a line\n\\.\nbut this text goes on; and \\.\r\nafter a CRLF too' },
    { _id: 'dot\n\\.\nid', title: '', text: 'an id with the marker line, tab\there and a backslash \\ too' }];
  writeFileSync(join(docsDir, 'corpus.jsonl'), dotted.map((d) => JSON.stringify(d)).join('\n') + '\n');
  const csvDir = join(dir, 'csvdot');
  let c = capture();
  assert.equal(await main(['export', docsDir, '--retriever', 'bm25', '--chunker', 'none', '--format', 'csv', '--to', csvDir, '--schema', 'select'], c.io), 0, c.err());
  assert.match(readFileSync(join(csvDir, 'chunks.tsv'), 'utf8'), /^dot#0\tdot\t0\t/m, 'the row with a \\. line is in the COPY text file');
  execFileSync('psql', ['-q', '-v', 'ON_ERROR_STOP=1', '-d', server.url, '-f', 'load.sql'], { cwd: csvDir, stdio: ['ignore', 'pipe', 'pipe'] });
  const text = execFileSync('psql', ['-At', '-d', server.url, '-c', 'SELECT text FROM "select".chunks WHERE doc_id = \'dot\''], { encoding: 'utf8' });
  assert.equal(text.replace(/\n$/, ''), `Copy markers ${dotted[6].text}`);
  // the same texts through a .sql file (literals: psql reads a \\. line inside a string literal as text)
  const sqlFile = join(dir, 'dot.sql');
  c = capture();
  assert.equal(await main(['export', docsDir, '--retriever', 'bm25', '--chunker', 'none', '--to', sqlFile, '--schema', 'sqldot'], c.io), 0, c.err());
  execFileSync('psql', ['-q', '-v', 'ON_ERROR_STOP=1', '-d', server.url, '-f', sqlFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  assert.equal(execFileSync('psql', ['-At', '-d', server.url, '-c', 'SELECT text FROM sqldot.chunks WHERE doc_id = \'dot\''], { encoding: 'utf8' }), text);
  c = capture();
  assert.equal(await main(['export', docsDir, '--retriever', 'bm25', '--chunker', 'none', '--to', server.url, '--schema', 'select', '--check'], c.io), 0, c.err() + c.out());
  assert.match(c.out(), /schema select: 8 documents, 8 chunks, \d+ BM25 impacts: matches the collection/);
  c = capture();
  assert.equal(await main(['export', dir, '--retriever', 'bm25', '--chunker', 'none', '--to', server.url, '--schema', 'select', '--check'], c.io), 1);
  assert.match(c.out(), /differences\n {2}documents: 8 in PostgreSQL, 6 in the collection\n/);
  execFileSync('psql', ['-q', '-v', 'ON_ERROR_STOP=1', '-d', server.url, '-c', 'CREATE SCHEMA shop; CREATE TABLE shop.orders (id int); INSERT INTO shop.orders VALUES (7)']);
  c = capture();
  assert.notEqual(await main(['export', dir, '--retriever', 'bm25', '--chunker', 'none', '--to', server.url, '--schema', 'shop'], c.io), 0);
  assert.match(c.err(), /holds tables ragwasm did not create \(orders\).*--force/);
  c = capture();
  assert.equal(await main(['export', dir, '--retriever', 'bm25', '--chunker', 'none', '--to', server.url, '--schema', 'shop', '--force'], c.io), 0, c.err());
  assert.equal(execFileSync('psql', ['-At', '-d', server.url, '-c', 'SELECT id FROM shop.orders'], { encoding: 'utf8' }), '7\n');
});

test('a malformed engine URL is a usage error without the password', async () => {
  for (const args of [['export', dir, '--to', 'postgres://u:hunter2@host:70000/db'], ['search', '--engine', 'postgres://u:hunter2@[x/db', '--query', 'x'],
    ['eval', '--dataset', dir, '--engine', 'postgres://u:hunter2@host:0/db']]) {
    const c = capture();
    assert.equal(await main(args, c.io), 2, args.join(' '));
    assert.ok(!c.err().includes('hunter2'), c.err());
    assert.match(c.err(), /--(to|engine): /);
  }
});
