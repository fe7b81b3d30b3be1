// Issue #31 config keys: chunker.preprocess ("markdown-to-text" | "none") and retrieval.filter, checked
// by the C++ config parser (src/pipeline/config.cpp) and honoured by Collection; markdownToText itself
// (src/answer/plain_text.h markdown_to_text).
import test, { before } from 'node:test';
import assert from 'node:assert/strict';
import { Collection, init, markdownToText, parsePipelineConfig } from '../../../web/src/index.js';
import { autotune } from '../../../web/src/eval.js';

before(async () => { await init(); });

test('markdownToText drops markup, keeps lines and paragraph breaks; non-strings are INVALID_ARGUMENT', () => {
  assert.equal(markdownToText('# Leave\n\nEmployees get **22 days** of [PTO](pto.md).\n\n| Q | Units |\n|---|---|\n| Q4 | 17,200 |\n- `item`'),
    'Leave\n\nEmployees get 22 days of PTO.\n\nQ\tUnits\nQ4\t17,200\nitem');
  assert.equal(markdownToText('Ünïcödé **bold** 日本語'), 'Ünïcödé bold 日本語');
  assert.equal(markdownToText(''), '');
  assert.throws(() => markdownToText(42), { code: 'INVALID_ARGUMENT' });
});

test('parsePipelineConfig: chunker.preprocess and retrieval.filter are checked and kept', () => {
  const c = parsePipelineConfig({ indexes: { bm25: {} }, chunker: { preprocess: 'markdown-to-text' }, retrieval: { filter: { company: 'aapl', year: { gte: 2024 } } } });
  assert.equal(c.chunker.preprocess, 'markdown-to-text');
  assert.deepEqual(c.retrieval.filter, { company: 'aapl', year: { gte: 2024 } });
  assert.equal(parsePipelineConfig({ indexes: { bm25: {} } }).retrieval.filter, undefined);
  assert.throws(() => parsePipelineConfig({ indexes: { bm25: {} }, chunker: { preprocess: 'html' } }),
    (e) => e.code === 'INVALID_ARGUMENT' && /chunker\.preprocess/.test(e.message) && /markdown-to-text/.test(e.message));
  assert.throws(() => parsePipelineConfig({ indexes: { bm25: {} }, retrieval: { filter: 'aapl' } }),
    (e) => e.code === 'INVALID_ARGUMENT' && /retrieval\.filter/.test(e.message));
  assert.throws(() => parsePipelineConfig({ indexes: { bm25: {} }, retrieval: { filter: { year: { after: 3 } } } }),
    (e) => e.code === 'INVALID_ARGUMENT' && /retrieval\.filter\.year/.test(e.message));
});

test('Collection: preprocess converts before splitting; retrieval.filter applies unless search gives options.filter', async () => {
  const docs = [
    { id: 'a', text: '# Apple\n\nThe **iPhone** is made by [Apple](x.md).', metadata: { company: 'aapl' } },
    { id: 'n', text: 'Netflix streams the iPhone app to members.', metadata: { company: 'nflx' } },
  ];
  const plain = await Collection.create({ indexes: { bm25: {} }, chunker: { preprocess: 'markdown-to-text' }, retrieval: { filter: { company: 'aapl' } } });
  const raw = await Collection.create({ indexes: { bm25: {} } });
  try {
    await plain.add(docs);
    await raw.add(docs);
    const chunks = [...plain.chunks.values()].filter((c) => c.docId === 'a').map((c) => c.text).join('\n');
    assert.equal(chunks, 'Apple\n\nThe iPhone is made by Apple.');
    assert.match([...raw.chunks.values()].filter((c) => c.docId === 'a').map((c) => c.text).join('\n'), /\*\*iPhone\*\*/, 'without preprocess the markup stays');
    assert.deepEqual((await plain.search('iPhone', { k: 5 })).map((h) => h.docId), ['a'], 'the config filter keeps aapl only');
    assert.deepEqual((await raw.search('iPhone', { k: 5 })).map((h) => h.docId).sort(), ['a', 'n']);
    assert.deepEqual((await plain.search('iPhone', { k: 5, filter: { company: 'nflx' } })).map((h) => h.docId), ['n'], 'options.filter wins');
    assert.deepEqual((await plain.search('iPhone', { k: 5, filter: null })).map((h) => h.docId).sort(), ['a', 'n'], 'null: no filter');
  } finally {
    plain.dispose();
    raw.dispose();
  }
});

test('autotune with a base config runs chunker.preprocess as Collection.add does', async () => {
  // The evidence is the raw markdown of a link: found without the step, gone (the target removed) with it.
  const documents = [{ id: 'a', text: '# A\n\nRead the [guide](zebra-handbook.md) first.' }, { id: 'b', text: 'Lunch is at noon.' }];
  const run = (preprocess) => autotune({ documents, queries: [{ id: 'q', text: 'zebra handbook guide' }], evidence: { q: ['guide](zebra-handbook.md)'] },
    grid: { chunker: [{ chunkSize: 200 }], bm25: [{ k1: 1.2, b: 0.75 }], fusion: [{ retriever: 'bm25' }], k: [1] },
    base: { indexes: { bm25: {} }, chunker: { preprocess } }, bootstrap: false });
  assert.equal((await run('none')).best.value, 1);
  assert.equal((await run('markdown-to-text')).best.value, 0);
});
