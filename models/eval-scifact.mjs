#!/usr/bin/env node
// SciFact (BEIR test split, 300 queries) nDCG@10 and recall@100 of an embedder with exact
// (brute-force) cosine search. Documents are "title text". Default: the static model.
//
//   RAGWASM_DIST=build/x-dist node models/eval-scifact.mjs [--model models/build/static-model.bin]
//   node models/eval-scifact.mjs --onnx models/build/static-model.onnx   (the same table through ORT, mean pooling)
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { init, createStaticEmbedder } from '../web/src/index.js';
import { createOnnxEmbedder } from '../web/src/onnx.js';
import { bruteForceTopK, ndcgAt, readQrels, readScifact, recallAt } from '../tests/js/embed-fixtures.mjs';
import { sharedPath } from '../tests/js/helpers.mjs';

const args = process.argv.slice(2);
const opt = (n, d) => { const i = args.indexOf(`--${n}`); return i >= 0 ? args[i + 1] : d; };

export async function evaluateScifact(embedDocs, embedQueries) {
  const corpus = sharedPath('data/scifact/corpus.jsonl');
  if (!corpus) throw new Error('needs ../shared/data/scifact');
  const { docs, queries } = readScifact(corpus.replace(/corpus\.jsonl$/, ''));
  const qrels = readQrels(sharedPath('data/scifact/qrels/test.trec'));
  const evalQueries = queries.filter((q) => qrels.has(q.id));
  const t0 = performance.now();
  const docVecs = await embedDocs(docs.map((d) => `${d.title} ${d.text}`));
  const t1 = performance.now();
  const qVecs = await embedQueries(evalQueries.map((q) => q.text));
  let ndcg = 0;
  let recall = 0;
  for (let i = 0; i < evalQueries.length; i++) {
    const top = bruteForceTopK(qVecs[i], docVecs, 100).map((d) => docs[d].id);
    const rels = qrels.get(evalQueries[i].id);
    ndcg += ndcgAt(top, rels, 10);
    recall += recallAt(top, rels, 100);
  }
  return { queries: evalQueries.length, docs: docs.length, ndcg10: ndcg / evalQueries.length, recall100: recall / evalQueries.length, docEmbedMs: t1 - t0 };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  await init();
  const onnx = opt('onnx', null);
  const staticModel = await createStaticEmbedder({ model: pathToFileURL(resolve(opt('model', 'models/build/static-model.bin'))) });
  let r;
  if (onnx) {
    const ort = await import('onnxruntime-node');
    const e = await createOnnxEmbedder({ model: pathToFileURL(resolve(onnx)), tokenizer: staticModel, ort, pooling: 'mean', batchSize: 64 });
    r = await evaluateScifact((t) => e.embedDocuments(t), (t) => e.embedQueries(t));
  } else {
    r = await evaluateScifact(async (t) => staticModel.embedSync(t), async (t) => staticModel.embedSync(t));
  }
  console.log(JSON.stringify(r));
}
