// Bench suite `minisearch-guide`: the numbers of docs/minisearch.md. The sample corpus (examples/corpus, 26
// documents) searched by MiniSearch 7.2 and by ragwasm (Bm25Index on whole documents, and a Collection:
// chunks, BM25 + the default static model, hits per document), with the answerable questions of
// questions.jsonl and own-words.jsonl, as written and with one typo each (two letters of the longest word
// swapped). Measures: hit@1, hit@3 (a labelled document in the top k), MRR@10, and per-query latency.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Bm25Index, Collection } from '../../../web/src/index.js';

function load(repoRoot) {
  const dir = join(repoRoot, 'examples/corpus/docs');
  const docs = readdirSync(dir).filter((f) => f.endsWith('.md')).sort()
    .map((f) => ({ id: f.replace(/\.md$/, ''), text: readFileSync(join(dir, f), 'utf8') }));
  const questions = (file) => readFileSync(join(repoRoot, 'examples/corpus', file), 'utf8').split('\n').filter((l) => l.trim())
    .map((l) => JSON.parse(l)).filter((q) => q.answerable && q.doc_ids?.length);
  return { docs, sets: { 'questions.jsonl': questions('questions.jsonl'), 'own-words.jsonl': questions('own-words.jsonl') } };
}

function typo(q) {
  const words = q.split(/\s+/);
  let at = 0;
  words.forEach((w, i) => { if (w.replace(/\W/g, '').length > words[at].replace(/\W/g, '').length) at = i; });
  const w = words[at];
  if (w.length >= 4) words[at] = w.slice(0, 1) + w[2] + w[1] + w.slice(3);
  return words.join(' ');
}

async function evaluate(search, qs) {
  let h1 = 0, h3 = 0, mrr = 0;
  const ms = [];
  for (const q of qs) {
    const t0 = performance.now();
    const ids = await search(q.question);
    ms.push(performance.now() - t0);
    const rank = ids.slice(0, 10).findIndex((id) => q.doc_ids.includes(id));
    if (rank === 0) h1++;
    if (rank >= 0 && rank < 3) h3++;
    if (rank >= 0) mrr += 1 / (rank + 1);
  }
  ms.sort((a, b) => a - b);
  return { hit1: h1 / qs.length, hit3: h3 / qs.length, mrr: mrr / qs.length, p50: ms[Math.floor(ms.length / 2)] };
}

export default {
  name: 'minisearch-guide',
  description: 'docs/minisearch.md: MiniSearch vs ragwasm on the sample corpus questions (quality, typos, latency)',
  async run(ctx) {
    const MiniSearch = (await import('minisearch')).default;
    const { docs, sets } = load(ctx.repoRoot);
    const ms = new MiniSearch({ fields: ['text'], idField: 'id' });
    ms.addAll(docs);
    const idx = Bm25Index.create({ fields: ['text'] });
    idx.add(docs);
    const col = await Collection.create();
    await col.add(docs);
    const systems = [
      ['MiniSearch (defaults)', (q) => ms.search(q).map((h) => h.id)],
      ['MiniSearch {fuzzy: 0.2, prefix: true}', (q) => ms.search(q, { fuzzy: 0.2, prefix: true }).map((h) => h.id)],
      ['ragwasm Bm25Index (defaults)', (q) => idx.search(q, { k: 10 }).map((h) => h.id)],
      ['ragwasm Bm25Index {fuzzy: 0.2, prefix: true}', (q) => idx.search(q, { k: 10, fuzzy: 0.2, prefix: true }).map((h) => h.id)],
      ['ragwasm Collection (BM25 + static model)', async (q) => (await col.search(q, { k: 10, level: 'document' })).map((h) => h.id)],
      ['ragwasm Collection {fuzzy: 0.2}', async (q) => (await col.search(q, { k: 10, level: 'document', fuzzy: 0.2 })).map((h) => h.id)],
    ];
    for (const [setName, qs] of Object.entries(sets)) {
      for (const variant of ['as written', 'one typo each']) {
        const list = variant === 'as written' ? qs : qs.map((q) => ({ ...q, question: typo(q.question) }));
        const rows = [];
        for (const [name, search] of systems) {
          const r = await evaluate(search, list);
          rows.push([name, ctx.num(r.hit1, 3), ctx.num(r.hit3, 3), ctx.num(r.mrr, 3), ctx.num(r.p50, 3)]);
          ctx.record(`${setName} ${variant} ${name}`, r);
        }
        ctx.table(`${setName}, ${qs.length} answerable questions, ${variant} (${docs.length} documents)`, ['system', 'hit@1', 'hit@3', 'MRR@10', 'p50 ms'], rows);
      }
    }
    col.dispose();
    idx.dispose();
  },
};
