// Parity: our recursive and markdown strategies produce exactly the chunk texts of LangChain.js
// (@langchain/textsplitters RecursiveCharacterTextSplitter with default separators, and
// MarkdownTextSplitter) on every shared markdown document and SEC filing text, for three configs.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { RecursiveCharacterTextSplitter, MarkdownTextSplitter } from '@langchain/textsplitters';
import { init, chunkTexts, chunk } from '../../../web/src/index.js';
import { skipUnlessShared } from '../helpers.mjs';

await init();

const CONFIGS = [[1800, 300], [512, 64], [200, 0]];

function walk(dir, out = []) {
  for (const f of readdirSync(dir).sort()) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

test('recursive and markdown chunk texts equal LangChain.js on every shared document and config', async (t) => {
  const md = skipUnlessShared(t, 'data/markdown-docs');
  if (!md) return;
  const sec = skipUnlessShared(t, 'data/sec-filings/text');
  if (!sec) return;
  const files = [...walk(md), ...readdirSync(sec).filter((f) => f.endsWith('.txt')).sort().map((f) => join(sec, f))];
  assert.ok(files.length >= 40, `expected the shared corpora (>= 40 files), found ${files.length}`);
  let matched = 0;
  let compared = 0;
  let chunksCompared = 0;
  const mismatches = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const [chunkSize, chunkOverlap] of CONFIGS) {
      for (const [strategy, Splitter] of [['recursive', RecursiveCharacterTextSplitter], ['markdown', MarkdownTextSplitter]]) {
        const expected = await new Splitter({ chunkSize, chunkOverlap }).splitText(text);
        const got = chunkTexts(text, { strategy, chunkSize, chunkOverlap });
        compared++;
        chunksCompared += expected.length;
        const same = got.length === expected.length && got.every((g, i) => g === expected[i]);
        if (same) matched++;
        else {
          const i = got.findIndex((g, k) => g !== expected[k]);
          mismatches.push(`${file} ${strategy} ${chunkSize}/${chunkOverlap}: ${got.length} vs ${expected.length} chunks, first difference at #${i}`);
        }
      }
    }
  }
  t.diagnostic(`parity: ${matched}/${compared} (documents x configs x {recursive, markdown}) identical; ${files.length} documents, ${chunksCompared} LangChain chunks`);
  assert.deepEqual(mismatches, []);
  assert.equal(matched, files.length * CONFIGS.length * 2);
});

test('chunk objects slice the document at their offsets on a shared SEC filing', (t) => {
  const p = skipUnlessShared(t, 'data/sec-filings/text/aapl-10-k-2024-11-01.txt');
  if (!p) return;
  const text = readFileSync(p, 'utf8');
  const chunks = chunk({ id: 'aapl', text }, { strategy: 'recursive', chunkSize: 1800, chunkOverlap: 300 });
  assert.ok(chunks.length > 10);
  for (const c of chunks) assert.equal(text.slice(c.start, c.end), c.text);
});

test('parity holds on hand-made edge cases with emoji CRLF and long unbroken runs', async () => {
  const cases = [
    '', '   ', '\n\n\n\n', 'a', 'word '.repeat(300), 'x'.repeat(1000), 'line\r\nline2\r\n\r\npara\r\n',
    '中文句子。'.repeat(100), '# H\n\n```\ncode\n```\n\n## H2\n\ntext\n\n---\n\nmore', 'a\n\n\nb\n\n\n\nc '.repeat(50),
    'é\u0301 '.repeat(200), '\u00a0x\u3000y\u2028z '.repeat(80),
  ];
  for (const text of cases) {
    for (const [chunkSize, chunkOverlap] of [[10, 3], [50, 10], [200, 0]]) {
      for (const [strategy, Splitter] of [['recursive', RecursiveCharacterTextSplitter], ['markdown', MarkdownTextSplitter]]) {
        const expected = await new Splitter({ chunkSize, chunkOverlap }).splitText(text);
        assert.deepEqual(chunkTexts(text, { strategy, chunkSize, chunkOverlap }), expected, `${strategy} ${chunkSize}/${chunkOverlap} on ${JSON.stringify(text.slice(0, 30))}`);
      }
    }
  }
});

test('a caller lengthFunction follows LangChain.js on the same inputs', async () => {
  const words = (s) => s.split(/\s+/).filter(Boolean).length;
  const text = 'The quick brown fox jumps over the lazy dog. '.repeat(40) + '\n\n' + 'Second paragraph here. '.repeat(30);
  for (const [chunkSize, chunkOverlap] of [[20, 5], [64, 0]]) {
    const expected = await new RecursiveCharacterTextSplitter({ chunkSize, chunkOverlap, lengthFunction: words }).splitText(text);
    const got = chunk({ id: 'd', text }, { chunkSize, chunkOverlap, lengthFunction: words }).map((c) => c.text);
    assert.deepEqual(got, expected);
  }
});
