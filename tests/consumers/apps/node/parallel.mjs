// The Worker pool from the installed package: worker_threads load web/src/parallel/worker.js by its
// `new URL('./worker.js', import.meta.url)`; two shards must rank as one Bm25Index. Prints JSON.
import { init, Bm25Index, ShardedBm25Index } from 'ragwasm';
import { DOCS, QUERIES } from './scenario.js';

await init();
const docs = DOCS.map((d) => ({ id: d.id, text: d.text }));
const one = Bm25Index.create();
one.add(docs);
const sharded = await ShardedBm25Index.create({}, { workers: 2 });
await sharded.add(docs);
const out = { shards: sharded.shards, same: true, hits: 0 };
for (const q of Object.values(QUERIES)) {
  const got = await sharded.search(q, { k: 3 });
  out.hits += got.length;
  if (JSON.stringify(got) !== JSON.stringify(one.search(q, { k: 3 }))) out.same = false;
}
await sharded.dispose();
process.stdout.write(JSON.stringify(out));
