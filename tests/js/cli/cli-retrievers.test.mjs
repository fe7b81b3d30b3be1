// `--retriever bm25|dense|hybrid`, `--config FILE` and `--model FILE` of `ragwasm eval`, `index` and
// `search`, on a small BEIR-style dataset written to a temp folder.
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../web/cli/ragwasm.mjs';
import { DEFAULT_MODEL } from '../../../web/cli/lib/retrievers.mjs';
import { repoRoot } from '../helpers.mjs';

const DOCS = [
  ['d1', 'Volcanoes', 'A volcano erupts when molten rock called magma rises through the crust and reaches the surface.'],
  ['d2', 'Glaciers', 'Glaciers are slow rivers of ice that carve valleys as they move downhill over centuries.'],
  ['d3', 'Bread baking', 'Yeast ferments the sugars in dough, releasing carbon dioxide that makes bread rise in the oven.'],
  ['d4', 'Honey bees', 'Honey bees collect nectar from flowers and store it as honey in wax combs inside the hive.'],
  ['d5', 'Tides', 'Ocean tides follow the pull of the moon and the sun on the water of the seas.'],
  ['d6', 'Coffee', 'Roasting coffee beans browns them and develops the bitter aroma of the brewed drink.'],
  ['d7', 'Earthquakes', 'Earthquakes shake the ground when tectonic plates slip suddenly along a fault line.'],
  ['d8', 'Sourdough', 'Sourdough bread rises with a starter of wild yeast and lactic bacteria instead of baker yeast.'],
];
const QUERIES = [['q1', 'why does bread rise'], ['q2', 'magma eruption of a volcano'], ['q3', 'what makes the tides move'], ['q4', 'the of and']];
const QRELS = [['q1', 'd3', 1], ['q1', 'd8', 1], ['q2', 'd1', 1], ['q3', 'd5', 1], ['q4', 'd2', 1]];

function dataset() {
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-retr-'));
  writeFileSync(join(dir, 'corpus.jsonl'), DOCS.map(([id, title, text]) => JSON.stringify({ _id: id, title, text })).join('\n') + '\n');
  writeFileSync(join(dir, 'queries.jsonl'), QUERIES.map(([id, text]) => JSON.stringify({ _id: id, text })).join('\n') + '\n');
  mkdirSync(join(dir, 'qrels'));
  writeFileSync(join(dir, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\n' + QRELS.map((r) => r.join('\t')).join('\n') + '\n');
  return dir;
}

function capture() {
  const out = [];
  const err = [];
  return {
    io: { stdout: { write: (s) => { out.push(String(s)); return true; } }, stderr: { write: (s) => { err.push(String(s)); return true; } } },
    out: () => out.join(''), err: () => err.join(''),
  };
}
async function cli(...args) {
  const c = capture();
  const status = await main(args, c.io);
  return { status, stdout: c.out(), stderr: c.err() };
}

/** Checks TREC run lines: 6 columns, Q0, ranks 1..n per query, scores non-increasing, known doc ids. */
function checkTrecRun(text, { queries, k, tag = 'ragwasm' }) {
  const lines = text.trim().split('\n').filter(Boolean);
  assert.ok(lines.length > 0, 'empty run');
  const byQuery = new Map();
  for (const l of lines) {
    const f = l.split(' ');
    assert.equal(f.length, 6, l);
    assert.equal(f[1], 'Q0', l);
    assert.equal(f[5], tag, l);
    assert.ok(DOCS.some(([id]) => id === f[2]), `unknown doc ${f[2]}`);
    assert.ok(Number.isFinite(Number(f[4])), l);
    if (!byQuery.has(f[0])) byQuery.set(f[0], []);
    byQuery.get(f[0]).push(f);
  }
  for (const [q, rows] of byQuery) {
    assert.ok(queries.includes(q), q);
    assert.ok(rows.length <= k);
    assert.equal(new Set(rows.map((r) => r[2])).size, rows.length, `duplicate doc in ${q}`);
    rows.forEach((r, i) => {
      assert.equal(Number(r[3]), i + 1);
      if (i > 0) assert.ok(Number(r[4]) <= Number(rows[i - 1][4]), `${q}: scores not sorted`);
    });
  }
  return byQuery;
}

test('a bad --retriever value exits 2 with a message in eval search and index', async () => {
  const dir = dataset();
  try {
    for (const args of [['eval', '--dataset', dir], ['index', '-o', join(dir, 'x.idx'), dir], ['search', join(dir, 'missing'), '--query', 'x']]) {
      const r = await cli(...args, '--retriever', 'sparse');
      assert.equal(r.status, 2, `${args[0]}: ${r.stderr}`);
      assert.match(r.stderr, /--retriever: expected one of bm25, dense, hybrid, got 'sparse'/);
    }
    // --retriever with --config overrides the config's retrievers (#16: flags are overrides of config paths).
    writeFileSync(join(dir, 'c.json'), JSON.stringify({ indexes: { bm25: {}, dense: {} }, retrieval: { retrievers: ['bm25', 'dense'] } }));
    const both = await cli('eval', '--dataset', dir, '--retriever', 'bm25', '--config', join(dir, 'c.json'), '--json');
    assert.equal(both.status, 0, both.stderr);
    assert.equal(JSON.parse(both.stdout).retriever, 'bm25');
    assert.match(both.stderr, /--retriever overrides retrieval\.retrievers \["bm25","dense"\] of .*c\.json with \["bm25"\]/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--config with a wrong-typed field names the JSON path', async () => {
  const dir = dataset();
  try {
    const cfg = join(dir, 'bad.json');
    writeFileSync(cfg, JSON.stringify({ retrieval: { fusion: { weights: [1, 'x'] } } }));
    let r = await cli('eval', '--dataset', dir, '--config', cfg);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /retrieval\.fusion\.weights\[1\]/);
    writeFileSync(cfg, JSON.stringify({ indexes: { bm25: { k1: 'high' } } }));
    r = await cli('index', '--config', cfg, '-o', join(dir, 'c.col'), dir);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /indexes\.bm25\.k1/);
    writeFileSync(cfg, '{"chunker": {"chunkSize": 100,}}');
    r = await cli('eval', '--dataset', dir, '--config', cfg);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /PARSE_ERROR/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('eval --config with a BM25-only pipeline matches the plain BM25 path on whole documents', async () => {
  const dir = dataset();
  try {
    const cfg = join(dir, 'bm25.json');
    // The plain path indexes "title text" in one field: in a config, the title as chunk context and BM25 on that field
    // (documents reach a config's pipeline as {id, title, text}, #16).
    writeFileSync(cfg, JSON.stringify({ chunker: { context: { template: '{title}', separator: ' ' } }, indexes: { bm25: { fields: { text: 1 } } }, retrieval: { candidates: 100 } }));
    const plain = await cli('eval', '--dataset', dir, '--json');
    const viaConfig = await cli('eval', '--dataset', dir, '--config', cfg, '--chunker', 'none', '--json');
    assert.equal(plain.status, 0, plain.stderr);
    assert.equal(viaConfig.status, 0, viaConfig.stderr);
    const a = JSON.parse(plain.stdout);
    const b = JSON.parse(viaConfig.stdout);
    assert.equal(b.chunks, DOCS.length);
    assert.equal(b.unsearchableQueries, 1);  // q4 is only stopwords
    for (const m of Object.keys(a.measures)) assert.ok(Math.abs(a.measures[m] - b.measures[m]) < 1e-9, `${m}: ${a.measures[m]} vs ${b.measures[m]}`);
    assert.ok(a.measures.ndcg_cut_10 > 0.5);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('dense and hybrid retrievers produce valid evaluations and TREC runs', async (t) => {
  if (!existsSync(DEFAULT_MODEL)) {
    t.skip(`needs ${DEFAULT_MODEL} (node models/build-static-model.mjs)`);
    return;
  }
  const dir = dataset();
  try {
    for (const retriever of ['dense', 'hybrid']) {
      const r = await cli('eval', '--dataset', dir, '--retriever', retriever, '--json');
      assert.equal(r.status, 0, r.stderr);
      const j = JSON.parse(r.stdout);
      assert.equal(j.numQueries, 4);
      assert.match(j.retriever, retriever === 'dense' ? /^dense$/ : /^hybrid \(convex minmax 0\.7\/0\.3; leg check: no weak leg \(too few probes\)\)$/);
      for (const v of Object.values(j.measures)) assert.ok(v >= 0 && v <= 1);
      assert.ok(j.measures.ndcg_cut_10 > 0, `${retriever} ndcg ${j.measures.ndcg_cut_10}`);
    }
    const missing = await cli('eval', '--dataset', dir, '--retriever', 'dense', '--model', join(dir, 'nope.bin'));
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /--model: .*nope\.bin not found/);

    const col = join(dir, 'hybrid.col');
    let r = await cli('index', '--retriever', 'hybrid', '--chunker', 'recursive:60/10', '-o', col, dir);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /indexed 8 documents, \d+ chunks \(bm25 \+ dense\)/);
    const queries = join(dir, 'queries.jsonl');
    for (const extra of [[], ['--retriever', 'dense'], ['--retriever', 'bm25'], ['--retriever', 'hybrid']]) {
      r = await cli('search', col, '--queries', queries, '-k', '3', ...extra);
      assert.equal(r.status, 0, r.stderr);
      const ids = extra[1] === 'bm25' ? ['q1', 'q2', 'q3'] : ['q1', 'q2', 'q3', 'q4'];
      const run = checkTrecRun(r.stdout, { queries: ids, k: 3 });
      if (extra[1] !== 'dense') {
        assert.equal(run.get('q2')[0][2], 'd1');  // "magma eruption of a volcano": BM25 leg decides
        assert.ok(['d3', 'd8'].includes(run.get('q1')[0][2]));
      }
    }
    // a config's retrieval section: dense leg alone
    const cfg = join(dir, 'dense.json');
    writeFileSync(cfg, JSON.stringify({ indexes: { dense: {} }, retrieval: { retrievers: ['dense'], k: 5 } }));
    r = await cli('search', col, '--query', 'bread', '--config', cfg, '-k', '2');
    assert.equal(r.status, 0, r.stderr);
    checkTrecRun(r.stdout, { queries: ['1'], k: 2 });
    // dense-only collection cannot serve the bm25 leg
    const dcol = join(dir, 'dense.col');
    assert.equal((await cli('index', '--retriever', 'dense', '-o', dcol, dir)).status, 0);
    r = await cli('search', dcol, '--query', 'bread', '--retriever', 'hybrid');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /no bm25 index/);
    // plain BM25 index: only bm25
    const idx = join(dir, 'plain.idx');
    assert.equal((await cli('index', '-o', idx, dir)).status, 0);
    r = await cli('search', idx, '--query', 'bread', '--retriever', 'dense');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /plain BM25 index/);
    r = await cli('search', idx, '--query', 'bread', '--retriever', 'bm25');
    assert.equal(r.status, 0, r.stderr);
    checkTrecRun(r.stdout, { queries: ['1'], k: 10 });
    assert.equal(readFileSync(col).subarray(0, 8).toString(), 'RWCOLLEC');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('ragwasm tune on a BEIR folder tunes on the train qrels when present', async () => {
  const dir = dataset();
  try {
    const grid = join(dir, 'grid.json');
    writeFileSync(grid, JSON.stringify({ chunker: [{ chunkSize: 1000 }], bm25: [{ k1: 0.9, b: 0.4 }, { k1: 1.2, b: 0.75 }], fusion: [{ retriever: 'bm25' }], k: [10] }));
    let r = await cli('tune', '--dataset', dir, '--grid', grid, '--json', '--bootstrap', '100');
    assert.equal(r.status, 0, r.stderr);
    let j = JSON.parse(r.stdout);
    assert.equal(j.source, 'beir test qrels');
    assert.equal(j.labels, 'qrels');
    assert.equal(j.metric, 'ndcg_cut.10');
    assert.equal(j.queries, 4);
    assert.equal(j.table.length, 2);
    writeFileSync(join(dir, 'qrels', 'train.tsv'), 'query-id\tcorpus-id\tscore\nq1\td3\t1\nq2\td1\t1\n');
    r = await cli('tune', '--dataset', dir, '--grid', grid, '--json', '--metric', 'recall.100');
    assert.equal(r.status, 0, r.stderr);
    j = JSON.parse(r.stdout);
    assert.equal(j.source, 'beir train qrels');
    assert.equal(j.queries, 2);
    assert.equal(j.best.value, 1);  // both train queries find their document
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('eval on a documents + questions folder (examples/corpus) names the commands that read it', async () => {
  const r = await cli('eval', '--dataset', join(repoRoot, 'examples/corpus'));
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /examples\/corpus is a documents \+ questions folder \(manifest\.json, questions\.jsonl/);
  assert.match(r.stderr, /use ragwasm tune, experiment or rag/);
  const empty = mkdtempSync(join(tmpdir(), 'ragwasm-retr-'));
  try {
    const e = await cli('eval', '--dataset', empty);
    assert.equal(e.status, 2);
    assert.match(e.stderr, /has neither corpus\.jsonl \(BEIR\) nor CISI\.ALL/);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});
