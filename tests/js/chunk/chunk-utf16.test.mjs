// The UTF-16 fast path (recursive / markdown in UTF-16 units: the string's code units are split in
// WASM memory directly) gives exactly the chunks of the UTF-8 path (TextEncoder + offset conversion),
// with both ways of copying the string (Node's Buffer, the browser's charCodeAt loop): offsets,
// texts, token estimates, ids. Random documents with emoji, CJK, combining marks, JS white space,
// CRLF, markdown structure and lone surrogates; plus the shared corpora when present.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RecursiveCharacterTextSplitter } from '@langchain/textsplitters';
import { init, chunk } from '../../../web/src/index.js';
import { _setChunkPaths } from '../../../web/src/chunk/chunk.js';
import { skipUnlessShared, build, seededRandom } from '../helpers.mjs';

await init();

const PIECES = ['word', 'Lorem', 'ipsum', ' ', ' ', '\n', '\r\n', '\n\n', '. ', '😀', '中文', 'e\u0301', '\u00a0', '\u3000',
  '\u2028', '\ufeff', '# Header\n', '\n## Sub\n', '```\n', '```\n\n', '| a | b |\n', '\n\n---\n\n', '\t', 'été', 'Ж',
  '\ud800', '\udc00', '\ud83d', 'x'.repeat(300)];


function randomDoc(r) {
  const n = Math.floor(r() * 250);
  let t = '';
  for (let i = 0; i < n; i++) t += PIECES[Math.floor(r() * PIECES.length)];
  return t;
}

function project(chunks) {
  return chunks.map((c) => [c.id, c.start, c.end, c.text, c.tokenEstimate, c.prevId, c.nextId]);
}

function allPaths(doc, options) {
  const prev = _setChunkPaths({ utf16: false, nodeBuffer: true });
  try {
    const utf8 = chunk(doc, options);
    _setChunkPaths({ utf16: true, nodeBuffer: true });
    const buffer = chunk(doc, options);
    _setChunkPaths({ utf16: true, nodeBuffer: false });
    const loop = chunk(doc, options);
    return { utf8, buffer, loop };
  } finally {
    _setChunkPaths(prev);
  }
}

test('the UTF-16 path equals the UTF-8 path on random documents with lone surrogates', () => {
  const docs = build === 'debug' ? 150 : 500;
  const r = seededRandom(20261121);
  let chunks = 0;
  for (let i = 0; i < docs; i++) {
    const doc = { id: `d${i}`, text: randomDoc(r) };
    const chunkSize = 2 + Math.floor(r() * 300);
    const chunkOverlap = r() < 0.3 ? 0 : Math.floor(r() * chunkSize);
    for (const strategy of ['recursive', 'markdown']) {
      for (const strict of [false, true]) {
        const options = { strategy, chunkSize, chunkOverlap, strict };
        const { utf8, buffer, loop } = allPaths(doc, options);
        const msg = `doc ${i} ${JSON.stringify(options)}`;
        assert.deepEqual(project(buffer), project(utf8), msg);
        assert.deepEqual(project(loop), project(utf8), msg);
        chunks += utf8.length;
      }
    }
    // Custom (non-ASCII) separators take the same path.
    const custom = { strategy: 'recursive', chunkSize, chunkOverlap, separators: ['中', '\n', ' ', ''] };
    const c = allPaths(doc, custom);
    assert.deepEqual(project(c.buffer), project(c.utf8), `doc ${i} custom separators`);
    assert.deepEqual(project(c.loop), project(c.utf8), `doc ${i} custom separators`);
  }
  assert.ok(chunks > docs, `expected many chunks, got ${chunks}`);
});

test('the UTF-16 path equals the UTF-8 path on the shared corpora', (t) => {
  const md = skipUnlessShared(t, 'data/markdown-docs/simdjson');
  if (!md) return;
  const sec = skipUnlessShared(t, 'data/sec-filings/text');
  if (!sec) return;
  const files = [
    ...readdirSync(md).filter((f) => f.endsWith('.md')).sort().slice(0, 4).map((f) => join(md, f)),
    ...readdirSync(sec).filter((f) => f.endsWith('.txt')).sort().slice(0, build === 'debug' ? 1 : 3).map((f) => join(sec, f)),
  ];
  assert.ok(files.length >= 2, `expected shared files, found ${files.length}`);
  for (const file of files) {
    const doc = { id: 'f', text: readFileSync(file, 'utf8') };
    for (const options of [{ strategy: 'recursive', chunkSize: 512, chunkOverlap: 64 }, { strategy: 'markdown', chunkSize: 1800, chunkOverlap: 300 }]) {
      const { utf8, buffer, loop } = allPaths(doc, options);
      assert.ok(utf8.length > 0, file);
      assert.deepEqual(project(buffer), project(utf8), `${file} ${JSON.stringify(options)}`);
      assert.deepEqual(project(loop), project(utf8), `${file} ${JSON.stringify(options)}`);
    }
  }
});

test('the UTF-16 path reports bad options like the UTF-8 path and stays usable', async () => {
  assert.throws(() => chunk({ id: 'a', text: 'abc' }, { strategy: 'recursive', chunkSize: 10, chunkOverlap: 10 }),
    (e) => e.code === 'INVALID_ARGUMENT' && /chunkOverlap/.test(e.message));
  const text = 'hello world, 😀 héllo\n\nwörld';
  const ok = chunk({ id: 'a', text }, { strategy: 'recursive', chunkSize: 5, chunkOverlap: 1 });
  const expected = await new RecursiveCharacterTextSplitter({ chunkSize: 5, chunkOverlap: 1 }).splitText(text);
  assert.deepEqual(ok.map((c) => c.text), expected);
});
