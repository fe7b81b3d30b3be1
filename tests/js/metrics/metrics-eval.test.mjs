// `ragwasm eval` end to end (chunk -> BM25 -> retrieve -> metrics) against an independent nDCG@10
// computed from the same BM25 hits by web/cli/datasets.mjs's ndcgAt. Needs chunk and sparse bound.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Bm25Index, chunk, init } from '../../../web/src/index.js';
import { metrics } from '../../../web/src/eval.js';
import { repoRoot } from '../helpers.mjs';
import { wasm } from '../../../web/src/core/module.js';
import { loadCisi, ndcgAt } from '../../../web/cli/datasets.mjs';
import { main } from '../../../web/cli/ragwasm.mjs';
import { runEval } from '../../../web/cli/commands/eval.mjs';
import { skipUnlessShared } from '../helpers.mjs';

await init();
const bound = (prefix) => Object.keys(wasm()).some((k) => k.startsWith(prefix));

test('eval on CISI equals nDCG@10 recomputed from the same BM25 hits', (t) => {
  const dir = skipUnlessShared(t, 'data/cisi/CISI.ALL');
  if (!dir) return;
  if (!bound('sparse_') || !bound('chunk_')) {
    t.skip('needs a WASM build with the chunk and sparse modules bound');
    return;
  }
  const cisi = dir.replace(/\/CISI\.ALL$/, '');
  const r = runEval({ dataset: cisi, chunker: 'none', k: 100, measures: ['ndcg_cut.10', 'map'] });
  assert.equal(r.numQueries, 76);
  // Independent: same index settings, document-level hits, datasets.mjs's trec_eval-rule nDCG@10.
  const data = loadCisi(cisi);
  const idx = Bm25Index.create({ fields: ['text'] });
  idx.add(data.corpus.map((d) => ({ id: d.id, text: d.title ? `${d.title} ${d.text}` : d.text })));
  const run = new Map();
  for (const q of data.queries) run.set(q.id, idx.search(q.text, { k: 100 }).map((h) => ({ id: h.id, score: h.score })));
  idx.dispose();
  assert.ok(Math.abs(r.measures.ndcg_cut_10 - ndcgAt(run, data.qrels, 10)) < 1e-12);
  assert.ok(r.measures.map > 0.05 && r.measures.map < 1);
});

test('eval CLI prints a markdown table and rejects bad options', async (t) => {
  const all = skipUnlessShared(t, 'data/cisi/CISI.ALL');
  if (!all) return;
  if (!bound('sparse_') || !bound('chunk_')) {
    t.skip('needs a WASM build with the chunk and sparse modules bound');
    return;
  }
  const cisi = all.replace(/\/CISI\.ALL$/, '');
  let out = '';
  let err = '';
  const io = { stdout: { write: (s) => { out += s; } }, stderr: { write: (s) => { err += s; } } };
  assert.equal(await main(['eval', '--dataset', cisi, '--chunker', 'recursive:500/100', '--max-queries', '25', '--metrics', 'ndcg_cut.10,recall.100'], io), 0, err);
  const rows = out.split('\n').filter((l) => l.startsWith('|'));
  assert.equal(rows.length, 3);
  assert.match(rows[0], /\| recall_100 \| ndcg_cut_10 \|$/);
  const cells = rows[2].split('|').map((c) => c.trim()).filter(Boolean);
  assert.equal(cells[4], '25');
  assert.ok(Number(cells[3]) > 1460); // more chunks than documents
  assert.equal(cells.length, 7, rows[2]);  // dataset chunker docs chunks queries + the two measures (the loop below cannot run empty)
  for (const v of cells.slice(5)) assert.ok(/^\d\.\d{4}$/.test(v) && Number(v) > 0 && Number(v) <= 1, v);  // BM25 on CISI: both measured > 0.25
  assert.equal(await main(['eval', '--dataset', cisi, '--chunker', 'recursive:abc'], io), 2);
  assert.match(err, /--chunker/);
  assert.equal(await main(['eval', '--dataset', cisi, '--k', '0'], io), 2);
  assert.equal(await main(['eval', '--dataset', cisi, '--retriever', 'sparse'], io), 2);
  assert.match(err, /--retriever/);
});

test('evidence recall on the sample corpus questions with two chunkers and BM25', (t) => {
  if (!bound('sparse_') || !bound('chunk_')) {
    t.skip('needs a WASM build with the chunk and sparse modules bound');
    return;
  }
  const dir = join(repoRoot, 'examples/corpus');
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  const texts = Object.fromEntries(manifest.map((m) => [m.id, readFileSync(join(dir, m.file), 'utf8')]));
  const questions = readFileSync(join(dir, 'questions.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))
    .filter((q) => q.answerable && q.evidence.length > 0);
  assert.ok(questions.length >= 50);
  const chunkers = { 'recursive 400/80': { strategy: 'recursive', chunkSize: 400, chunkOverlap: 80 }, 'markdown-header': { strategy: 'markdown-header' } };
  for (const [name, options] of Object.entries(chunkers)) {
    const chunks = manifest.flatMap((m) => chunk({ id: m.id, text: texts[m.id] }, options));
    // 1. Oracle retrieval: every chunk of the evidence documents. Evidence that lies inside one
    //    chunk's span (by offsets) must be found by text matching (it is an exact substring).
    const oracle = [];
    for (const q of questions) {
      const own = chunks.filter((c) => q.doc_ids.includes(c.docId));
      for (const e of q.evidence) {
        const doc = q.doc_ids.find((d) => texts[d].includes(e));
        const at = texts[doc].indexOf(e);
        if (own.some((c) => c.docId === doc && c.start <= at && at + e.length <= c.end)) {
          oracle.push({ evidence: [{ text: e }], chunks: own.map((c) => ({ text: c.text })) });
        }
      }
    }
    assert.ok(oracle.length > 30, `${name}: ${oracle.length} evidences inside one chunk`);
    assert.equal(metrics.evaluateEvidence(oracle, { cutoffs: [100000], maxK: 1 }).recall[100000], 1, name);
    // 2. BM25 over all chunks: a recall curve k = 1..20 that never decreases, and a recommended cutoff.
    const idx = Bm25Index.create({ fields: ['text'] });
    idx.add(chunks.map((c) => ({ id: c.id, text: c.text })));
    const byId = new Map(chunks.map((c) => [c.id, c]));
    const qs = questions.map((q) => ({
      evidence: q.evidence.map((e) => ({ text: e })),
      chunks: idx.search(q.question, { k: 20 }).map((h) => ({ text: byId.get(h.id).text })),
    }));
    idx.dispose();
    const r = metrics.evaluateEvidence(qs, { cutoffs: [1, 5, 10, 20], maxK: 20 });
    for (let i = 1; i < r.curve.length; i++) assert.ok(r.curve[i] >= r.curve[i - 1]);
    assert.equal(r.curve[19], r.recall[20]);
    const k = metrics.recommendCutoff(r.curve, { minGain: 0.01 });
    assert.ok(k >= 1 && k <= 20);
    t.diagnostic(`${name}: ${chunks.length} chunks; evidence recall@1 ${r.recall[1].toFixed(3)} @5 ${r.recall[5].toFixed(3)} `
      + `@10 ${r.recall[10].toFixed(3)} @20 ${r.recall[20].toFixed(3)}; MRR ${r.mrr.toFixed(3)}; recommended k ${k}`);
  }
});
