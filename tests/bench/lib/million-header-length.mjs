// The million corpus's saved Collection header length by chunk count, and the first count at which it
// passes V8's longest string (2^29 - 24): predicted from each document's JSON, checked first against a real
// toBytes() of 20,000 chunks (copies 0 and 3). Run: node tests/bench/lib/million-header-length.mjs (~1-2 min).
import { init, Collection, createStaticEmbedder } from '../../../web/src/index.js';
import { buildBigCorpus } from './big-corpus.mjs';
import { repeatedDocs } from './million-corpus.mjs';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
await init();
const shared = (rel) => { const p = join(process.env.RAGWASM_SHARED ?? new URL('../../../../shared', import.meta.url).pathname, rel); return existsSync(p) ? p : null; };
const base = buildBigCorpus(shared).docs;
const embedder = await createStaticEmbedder({ model: new Uint8Array(readFileSync(new URL('../../../models/build/static-model.bin', import.meta.url))) });
const col = await Collection.create({ indexes: { bm25: {}, dense: { storage: 'int8' } } }, { embedder });
const N0 = 20000;
// 10k of copy 0 and 10k of copy 3: both kinds of text
const sample = [...repeatedDocs(base, 0, 10000), ...repeatedDocs(base, 3 * base.length, 10000)];
await col.add(sample, { batchSize: 1000 });
const bytes = col.toBytes();
const realHeader = new DataView(bytes.buffer, bytes.byteOffset).getUint32(12, true);
const text = new TextDecoder().decode(bytes.subarray(16, 16 + realHeader));
const parsedDocs = new Map(JSON.parse(text).docs.map((x) => [x.id, x]));
const docJson = (d) => JSON.stringify(parsedDocs.get(d.id));
const fixed = text.length - JSON.parse(text).docs.reduce((s, d, i) => s + JSON.stringify(d).length + (i ? 1 : 0), 0);
const predictDoc = (d) => JSON.stringify({ id: d.id, metadata: {}, length: d.text.length, chunks: [{ id: `${d.id}#0`, docId: d.id, ordinal: 0, text: d.text, start: 0, end: d.text.length }] }).length;
let mismatch = 0;
for (const d of sample) if (predictDoc(d) !== docJson(d).length) mismatch++;
console.log(JSON.stringify({ realHeaderBytes: realHeader, headerChars: text.length, fixedChars: fixed, mismatchedDocs: mismatch }));
const LIMIT = 2 ** 29 - 24;
let chars = fixed;
const marks = {};
for (let start = 0; start < 4_000_000; start += 100000) {
  for (const d of repeatedDocs(base, start, 100000)) chars += predictDoc(d) + 1;
  marks[start + 100000] = chars;
  if (chars > LIMIT && !marks.first) {
    // find exact
    let c = marks[start] ?? fixed; let i = start;
    for (const d of repeatedDocs(base, start, 100000)) { c += predictDoc(d) + 1; i++; if (c > LIMIT) break; }
    marks.first = { chunks: i, chars: c };
    break;
  }
}
console.log(JSON.stringify(marks));
