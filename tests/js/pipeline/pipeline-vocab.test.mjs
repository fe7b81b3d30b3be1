// #14, #28: the pipeline config uses the index option names (docs/api.md). The names before 0.1.0 are
// INVALID_ARGUMENT naming the new key (no deprecation shim; the CLI prints it); old and new together is an
// error naming both paths; the normalized index sections are the indexes' own options; collections saved
// with an old-name config still load, quietly (a reader keeps reading what a released build wrote).
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { init, parsePipelineConfig, Collection, Bm25Index, VectorIndex, RagwasmError } from '../../../web/src/index.js';
import { hashedBagOfWords, repoRoot, warnings } from '../helpers.mjs';

await init();

const OLD = {
  indexes: {
    bm25: { variant: 'bm25+', stemmer: 'none', stopwords: false, fields: { text: 1, title: 2 } },
    dense: { quantization: 'int8', index: 'hnsw', hnsw: { m: 8 } },
  },
  retrieval: { fusion: { mode: 'rrf', k: 30 } },
};
const NEW = {
  indexes: {
    bm25: { scorer: 'bm25plus', analyzer: { stemmer: 'none', stopwords: false }, fields: [{ name: 'text', boost: 1 }, { name: 'title', boost: 2 }] },
    dense: { storage: 'int8', index: 'hnsw', hnsw: { M: 8 } },
  },
  retrieval: { fusion: { mode: 'rrf', rrfK: 30 } },
};
const OLD_PATHS = ['indexes.bm25.variant', 'indexes.bm25.stemmer', 'indexes.bm25.stopwords', 'indexes.dense.quantization', 'indexes.dense.hnsw.m', 'retrieval.fusion.k'];

test('#28 each old config name is INVALID_ARGUMENT naming the new key, with no warning', async () => {
  const NEW_PATHS = ['indexes.bm25.scorer', 'indexes.bm25.analyzer.stemmer', 'indexes.bm25.analyzer.stopwords', 'indexes.dense.storage', 'indexes.dense.hnsw.M', 'retrieval.fusion.rrfK'];
  const one = [
    { indexes: { bm25: { variant: 'bm25+' } } }, { indexes: { bm25: { stemmer: 'none' } } }, { indexes: { bm25: { stopwords: false } } },
    { indexes: { dense: { quantization: 'int8' } } }, { indexes: { dense: { index: 'hnsw', hnsw: { m: 8 } } } }, { retrieval: { fusion: { mode: 'rrf', k: 30 } } },
  ];
  const seen = await warnings(() => {
    one.forEach((config, i) => {
      assert.throws(() => parsePipelineConfig(config), (e) => e instanceof RagwasmError && e.code === 'INVALID_ARGUMENT'
        && e.message.includes(`config ${OLD_PATHS[i]}: unknown key (write ${NEW_PATHS[i]})`), OLD_PATHS[i]);
    });
    assert.throws(() => parsePipelineConfig(JSON.stringify(OLD)), (e) => e.code === 'INVALID_ARGUMENT');
  });
  assert.deepEqual(seen, []);
  assert.deepEqual(await warnings(() => parsePipelineConfig(NEW)), []);
});

test('an old and a new name for one setting together is INVALID_ARGUMENT naming both paths', () => {
  const cases = [
    [{ indexes: { bm25: { variant: 'bm25', scorer: 'lucene' } } }, 'indexes.bm25.variant and indexes.bm25.scorer'],
    [{ indexes: { bm25: { stemmer: 'none', analyzer: { stemmer: 'none' } } } }, 'indexes.bm25.stemmer and indexes.bm25.analyzer.stemmer'],
    [{ indexes: { dense: { quantization: 'int8', storage: 'f32' } } }, 'indexes.dense.quantization and indexes.dense.storage'],
    [{ indexes: { dense: { hnsw: { m: 8, M: 8 } } } }, 'indexes.dense.hnsw.m and indexes.dense.hnsw.M'],
    [{ retrieval: { fusion: { k: 60, rrfK: 60 } } }, 'retrieval.fusion.k and retrieval.fusion.rrfK'],
  ];
  for (const [config, paths] of cases) {
    assert.throws(() => parsePipelineConfig(config), (e) => e instanceof RagwasmError && e.code === 'INVALID_ARGUMENT' && e.message.includes(paths), paths);
  }
});

test('the normalized index sections are the index options themselves', () => {
  const c = parsePipelineConfig({
    indexes: {
      bm25: { scorer: 'atire', k1: 1.1, delta: 0.3, analyzer: { cjkBigrams: false, maxTokenBytes: 40 } },
      dense: { metric: 'dot', storage: 'binary', binaryRescore: 'f32', hnsw: { seed: 9 } },
    },
  });
  assert.deepEqual(c.indexes.bm25, {
    analyzer: { cjkBigrams: false, maxTokenBytes: 40, stemmer: 'porter2', stopwords: 'lucene' }, b: 0.4, delta: 0.3,
    fields: [{ boost: 1, name: 'text' }, { boost: 1, name: 'title' }], k1: 1.1, scorer: 'atire',
  });
  const bm25 = Bm25Index.create(c.indexes.bm25);  // as it is: the same names
  bm25.dispose();
  const { model, ...dense } = c.indexes.dense;
  assert.equal(model, 'static');
  assert.deepEqual(dense, { binaryRescore: 'f32', hnsw: { M: 16, efConstruction: 200, efSearch: 64, seed: 9 }, index: 'flat', metric: 'dot', storage: 'binary' });
  const vx = VectorIndex.create({ ...dense, dimension: 4 });
  assert.equal(vx.options.storage, 'binary');
  assert.equal(vx.options.binaryRescore, 'f32');
  vx.dispose();
  assert.equal(parsePipelineConfig({}).retrieval.fusion.rrfK, 60);
  assert.equal(parsePipelineConfig({}).retrieval.fusion.k, undefined);
});

test('a Collection builds its indexes from the config options with no translation', async () => {
  const embedder = { id: 'bow-16', dimension: 16, embed: async (texts) => hashedBagOfWords(texts, { dims: 16 }) };
  const col = await Collection.create({ indexes: { bm25: { analyzer: { stemmer: 'none' } }, dense: { storage: 'int8', index: 'hnsw', hnsw: { M: 4, seed: 5 } } } },
    { embedder });
  assert.equal(col.dense.options.storage, 'int8');
  assert.equal(col.dense.options.index, 'hnsw');
  assert.equal(col.dense.options.hnsw.M, 4);
  assert.equal(col.dense.options.hnsw.seed, 5);
  await col.add([{ id: 'a', text: 'running shoes for trails' }, { id: 'b', text: 'a run in the park' }]);
  // stemmer none: "running" does not match "run"
  assert.deepEqual(col.bm25.search('run', { k: 5 }).map((h) => h.id), ['b#0']);
  col.dispose();
  // a dimension in the config must match the embedder's
  await assert.rejects(Collection.create({ indexes: { dense: { dimension: 8 } } }, { embedder }), (e) => e.code === 'DIMENSION_MISMATCH' && /indexes\.dense\.dimension is 8/.test(e.message));
  const ok = await Collection.create({ indexes: { dense: { dimension: 16 } } }, { embedder });
  assert.equal(ok.dimension, 16);
  ok.dispose();
  // retrieval.fusion.rrfK reaches fuse(): with rrfK 5 a hit's RRF score (two legs, weight 1 each) is
  // at most 2 / (5 + 1) and at least 1 / (5 + 2); with the default 60 it would be at most 2 / 61
  const rrf = await Collection.create({ retrieval: { fusion: { mode: 'rrf', rrfK: 5 } } }, { embedder });
  await rrf.add([{ id: 'a', text: 'bread rises with yeast' }, { id: 'b', text: 'tides follow the moon' }]);
  const [top] = await rrf.search('bread yeast', { k: 1 });
  assert.ok(top.score <= 2 / 6 + 1e-12 && top.score >= 1 / 7, `score ${top.score}`);
  rrf.dispose();
});

test('a collection saved with an old-name config loads without a warning and reads as the new names', async () => {
  const bytes = new Uint8Array(readFileSync(join(repoRoot, 'tests/fixtures/formats/v1/collection-bm25.bin')));
  // the fixture really holds the old names (written by format 1)
  assert.ok(new TextDecoder().decode(bytes).includes('"variant":"bm25"'));
  let col;
  const seen = await warnings(() => { col = Collection.fromBytes(bytes); });
  assert.deepEqual(seen, []);
  assert.equal(col.config.indexes.bm25.scorer, 'lucene');
  assert.equal(col.config.indexes.bm25.variant, undefined);
  assert.deepEqual(col.config.indexes.bm25.analyzer, { stemmer: 'porter2', stopwords: 'lucene' });
  // saved again, it holds only the new names
  const again = new TextDecoder().decode(col.toBytes());
  assert.ok(!again.includes('"variant"') && again.includes('"scorer":"lucene"'));
  col.dispose();
});

test('#28 the CLI refuses an old config name and names the new key on stderr', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-vocab-'));
  try {
    writeFileSync(join(dir, 'corpus.jsonl'), [['d1', 'Bread', 'Yeast makes bread rise'], ['d2', 'Tides', 'The moon pulls the tides']]
      .map(([id, title, text]) => JSON.stringify({ _id: id, title, text })).join('\n') + '\n');
    writeFileSync(join(dir, 'queries.jsonl'), JSON.stringify({ _id: 'q1', text: 'bread rising' }) + '\n');
    mkdirSync(join(dir, 'qrels'));
    writeFileSync(join(dir, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\nq1\td1\t1\n');
    const cfg = join(dir, 'old.json');
    writeFileSync(cfg, JSON.stringify({ indexes: { bm25: { variant: 'bm25', k1: 1.2 } } }));
    const r = spawnSync(process.execPath, [join(repoRoot, 'web/cli/ragwasm.mjs'), 'eval', '--dataset', dir, '--config', cfg], { encoding: 'utf8' });
    assert.notEqual(r.status, 0, r.stdout);
    assert.match(r.stderr, /indexes\.bm25\.variant: unknown key \(write indexes\.bm25\.scorer\)/);
    assert.ok(!r.stderr.includes('deprecated'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
