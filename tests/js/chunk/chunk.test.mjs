// The chunking JS API: strategies, chunk objects (ids, offsets, prev/next, header paths), context
// enrichment, semantic chunking with a deterministic embedder, compareChunkings statistics, option
// errors (and reuse after them), a seeded property run through the WASM boundary, and the CLI.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecursiveCharacterTextSplitter } from '@langchain/textsplitters';
import {
  init, chunk, chunkAsync, chunkTexts, markdownHeaders, renderContext, RagwasmError, estimateTokens
} from '../../../web/src/index.js';
import { compareChunkings, chunkStats } from '../../../web/src/eval.js';
import { build, repoRoot } from '../helpers.mjs';

await init();

const MD = '# Risk Factors\n\nMarket risk is high. Rates may rise.\n\n## Liquidity\n\nCash is king. 😀 Debt is low.\n\n'
  + '## Credit\n\nLoans are fine.\n\n# Other\n\nThe end.';
const doc = { id: 'aapl-10k', text: MD, metadata: { company: 'Apple Inc.', form: '10-K', filed: '2024-11-01' } };

function assertRagwasm(fn, code, pattern) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof RagwasmError, `expected RagwasmError, got ${e}`);
    assert.equal(e.code, code);
    if (pattern) assert.match(e.message, pattern);
    return true;
  });
}

test('chunk objects carry ids offsets prev and next ids and token estimates', () => {
  const chunks = chunk(doc, { strategy: 'recursive', chunkSize: 40, chunkOverlap: 10 });
  assert.ok(chunks.length >= 4);
  chunks.forEach((c, i) => {
    assert.equal(c.id, `aapl-10k#${i}`);
    assert.equal(c.docId, 'aapl-10k');
    assert.equal(c.text, MD.slice(c.start, c.end));
    assert.equal(c.prevId, i === 0 ? null : `aapl-10k#${i - 1}`);
    assert.equal(c.nextId, i === chunks.length - 1 ? null : `aapl-10k#${i + 1}`);
    assert.ok(c.tokenEstimate > 0);
    assert.equal(c.indexText, c.text);  // no context requested
    assert.equal(c.metadata.company, 'Apple Inc.');
  });
});

test('markdown-header chunks expose h1 to h6 and the header path', () => {
  const chunks = chunk(doc, { strategy: 'markdown-header' });
  assert.deepEqual(chunks.map((c) => c.metadata.path), ['Risk Factors', 'Risk Factors > Liquidity', 'Risk Factors > Credit', 'Other']);
  assert.deepEqual(chunks[1].headerPath, ['Risk Factors', 'Liquidity']);
  assert.equal(chunks[1].metadata.h1, 'Risk Factors');
  assert.equal(chunks[1].metadata.h2, 'Liquidity');
  assert.ok(chunks[1].text.startsWith('## Liquidity'));
  const stripped = chunk(doc, { strategy: 'markdown-header', stripHeaders: true });
  assert.equal(stripped[1].text, 'Cash is king. 😀 Debt is low.');
  assert.equal(MD.slice(stripped[1].start, stripped[1].end), stripped[1].text);
});

test('fixed sentence and markdown strategies return exact spans', () => {
  for (const options of [
    { strategy: 'fixed', chunkSize: 16, chunkOverlap: 4 },
    { strategy: 'fixed', chunkSize: 5, chunkOverlap: 1, unit: 'tokens' },
    { strategy: 'sentence', chunkSize: 60, overlapSentences: 1 },
    { strategy: 'markdown', chunkSize: 50, chunkOverlap: 0 },
    { strategy: 'recursive', chunkSize: 30, chunkOverlap: 5, strict: true, unit: 'bytes' },
  ]) {
    const chunks = chunk(doc, options);
    assert.ok(chunks.length > 1, JSON.stringify(options));
    for (const c of chunks) assert.equal(c.text, MD.slice(c.start, c.end));
  }
  const sentences = chunk(doc, { strategy: 'sentence', chunkSize: 60 });
  for (const c of sentences) assert.match(c.text, /[.!?)]$|^#/);
});

test('document context comes from a metadata template and per-chunk context stays apart from the text', () => {
  const context = {
    template: '{company} {form} filed {filed}\nSummary: {summary}\nMissing: {nothing}',
    summary: 'Annual report.',
    chunkContexts: (c) => `Section: ${c.headerPath.join(' > ')}`,
  };
  assert.equal(renderContext(doc, context), 'Apple Inc. 10-K filed 2024-11-01\nSummary: Annual report.');
  const chunks = chunk(doc, { strategy: 'markdown-header', context });
  assert.equal(chunks[1].context, 'Apple Inc. 10-K filed 2024-11-01\nSummary: Annual report.\n\nSection: Risk Factors > Liquidity');
  assert.equal(chunks[1].indexText, `${chunks[1].context}\n\n${chunks[1].text}`);
  assert.equal(chunks[1].text, MD.slice(chunks[1].start, chunks[1].end));
  const arr = chunk(doc, { strategy: 'markdown-header', context: { summary: 'S', chunkContexts: ['a', 'b', 'c', 'd'], separator: ' | ' } });
  assert.equal(arr[3].indexText, `S | d | ${arr[3].text}`);
  assertRagwasm(() => chunk(doc, { strategy: 'markdown-header', context: { chunkContexts: ['only one'] } }), 'INVALID_ARGUMENT', /chunkContexts: expected 4/);
});

test('sizeIncludesContext reserves the document context inside chunkSize', () => {
  const context = { template: '{company} {form}' };  // "Apple Inc. 10-K" = 15 units + "\n\n" = 17
  const plain = chunk(doc, { chunkSize: 60, chunkOverlap: 0, context });
  const counted = chunk(doc, { chunkSize: 60, chunkOverlap: 0, context, sizeIncludesContext: true });
  for (const c of counted) assert.ok(c.indexText.length <= 60, `${c.indexText.length}: ${c.indexText}`);
  assert.ok(plain.some((c) => c.indexText.length > 60));
  assertRagwasm(() => chunk(doc, { chunkSize: 18, chunkOverlap: 0, context, sizeIncludesContext: true }), 'INVALID_ARGUMENT', /sizeIncludesContext/);
});

// A deterministic embedder: a bag of letters, so sentences about the same words are close.
async function letterEmbedder(texts) {
  return texts.map((t) => {
    const v = new Float32Array(26);
    for (const ch of t.toLowerCase()) {
      const k = ch.charCodeAt(0) - 97;
      if (k >= 0 && k < 26) v[k] += 1;
    }
    return v;
  });
}

test('semantic chunking calls the embedder in batches and breaks at distant sentences', async () => {
  const text = 'Apples are red. Apples are sweet. Apples are round. Zebras zigzag quickly. Zebras zoom by. Zebras jump.';
  const calls = [];
  const embedder = async (texts) => { calls.push(texts.length); return letterEmbedder(texts); };
  const chunks = await chunkAsync({ id: 's', text }, { strategy: 'semantic', embedder, bufferSize: 0, batchSize: 4, breakpointAmount: 80 });
  assert.deepEqual(calls, [4, 2]);
  assert.deepEqual(chunks.map((c) => c.text), ['Apples are red. Apples are sweet. Apples are round.', 'Zebras zigzag quickly. Zebras zoom by. Zebras jump.']);
  assert.equal(chunks.semantic.distances.length, 5);
  const capped = await chunkAsync({ id: 's', text }, { strategy: 'semantic', embedder: letterEmbedder, maxChunkSize: 40 });
  for (const c of capped) assert.ok(c.text.length <= 40 || !c.text.slice(0, -1).includes('. '));
  for (const method of ['standard_deviation', 'interquartile', 'gradient']) {
    const r = await chunkAsync({ id: 's', text }, { strategy: 'semantic', embedder: letterEmbedder, breakpoint: method });
    assert.equal(r.map((c) => c.text).join(' '), text);
  }
  await assert.rejects(chunkAsync({ id: 's', text }, { strategy: 'semantic', embedder: async (t) => t.map((_, i) => new Float32Array(i === 0 ? 3 : 4)) }),
    (e) => e instanceof RagwasmError && e.code === 'DIMENSION_MISMATCH');
  await assert.rejects(chunkAsync({ id: 's', text }, { strategy: 'semantic', embedder: async () => [] }),
    (e) => e instanceof RagwasmError && e.code === 'INVALID_ARGUMENT' && /embedder result/.test(e.message));
  // still usable after the errors
  assert.equal((await chunkAsync({ id: 's', text }, { strategy: 'semantic', embedder: letterEmbedder })).length >= 1, true);
  assertRagwasm(() => chunk({ id: 's', text }, { strategy: 'semantic', embedder: letterEmbedder }), 'INVALID_ARGUMENT', /chunkAsync/);
});

test('compareChunkings reports count sizes overlap and boundary shares per configuration', async () => {
  const results = await compareChunkings(doc, [
    { strategy: 'markdown-header' },
    { strategy: 'fixed', chunkSize: 20, chunkOverlap: 5 },
  ]);
  assert.equal(results.length, 2);
  const [mh, fx] = results;
  assert.equal(mh.stats.count, 4);
  assert.equal(mh.stats.headerStartShare, 1);   // every section starts on its header line
  assert.equal(mh.stats.sentenceEndShare, 1);   // and ends on a sentence end
  assert.equal(mh.stats.overlapRatio, 0);
  const sizes = mh.chunks.map((c) => c.end - c.start);
  assert.equal(mh.stats.meanSize, sizes.reduce((a, b) => a + b, 0) / 4);
  assert.equal(mh.stats.minSize, Math.min(...sizes));
  assert.equal(mh.stats.histogram.reduce((a, h) => a + h.count, 0), 4);
  // fixed 20/5: every consecutive pair overlaps by 5 units
  assert.equal(fx.stats.overlapRatio, (5 * (fx.stats.count - 1)) / fx.chunks.reduce((a, c) => a + c.end - c.start, 0));
  assert.equal(fx.stats.coverage, 1);
  assert.deepEqual(chunkStats('', []).count, 0);
  await assert.rejects(compareChunkings(doc, [{ strategy: 'fixed' }, { chunkSize: -1 }]),
    (e) => e instanceof RagwasmError && /optionsList\[1\]: options.chunkSize/.test(e.message));
  assert.equal(markdownHeaders(MD).length, 4);
});

test('invalid options name the option and the API keeps working', () => {
  const cases = [
    [{ strategy: 'magic' }, /options.strategy/],
    [{ chunkSize: 0 }, /options.chunkSize/],
    [{ chunkSize: -5 }, /options.chunkSize/],
    [{ chunkSize: Number.NaN }, /options.chunkSize.*NaN/],
    [{ chunkSize: 1.5 }, /options.chunkSize/],
    [{ chunkSize: 10, chunkOverlap: 10 }, /options.chunkOverlap/],
    [{ chunkSize: 10, chunkOverlap: Number.NaN }, /options.chunkOverlap/],
    [{ separators: [/\n/] }, /options.separators\[0\]: expected a string/],
    [{ separators: [] }, /options.separators/],
    [{ separators: '\n' }, /options.separators/],
    [{ keepSeparator: false }, /options.keepSeparator/],
    [{ chunkSizee: 10 }, /unknown option 'chunkSizee'/],
    [{ strategy: 'fixed', overlapSentences: 1 }, /overlapSentences: not used by strategy 'fixed'/],
    [{ unit: 'words' }, /options.unit/],
    [{ strategy: 'fixed', unit: 'bytes', chunkSize: 3, chunkOverlap: 0 }, /options.chunkSize.*bytes/],
    [{ strategy: 'markdown-header', splitLevels: 7 }, /options.splitLevels/],
    [{ strategy: 'semantic' }, /options.embedder/],
    [{ strict: 'yes' }, /options.strict/],
    [{ lengthFunction: 5 }, /options.lengthFunction/],
    [{ context: { templat: 'x' } }, /unknown option 'templat'/],
  ];
  for (const [options, pattern] of cases) assertRagwasm(() => chunk(doc, options), 'INVALID_ARGUMENT', pattern);
  assertRagwasm(() => chunk({ id: '', text: 'x' }), 'INVALID_ARGUMENT', /document.id/);
  assertRagwasm(() => chunk({ id: 'x', text: 5 }), 'INVALID_ARGUMENT', /document.text/);
  assertRagwasm(() => chunkTexts(5, {}), 'INVALID_ARGUMENT', /text/);
  assertRagwasm(() => chunk(doc, { chunkSize: 10, chunkOverlap: 0, lengthFunction: () => Number.NaN }), 'INVALID_ARGUMENT', /lengthFunction result/);
  assert.deepEqual(chunk({ id: 'e', text: '' }), []);
  assert.ok(chunk(doc, { chunkSize: 50, chunkOverlap: 5 }).length > 0);  // still fine after every error
});

test('fixed windows with a caller token counter hold at most chunkSize tokens and overlap at most chunkOverlap', () => {
  // A stand-in tokenizer: words count ceil(length / 3) tokens each.
  const count = (s) => s.split(/\s+/).filter(Boolean).reduce((a, w) => a + Math.ceil(w.length / 3), 0);
  const text = 'The quick brown fox jumps over the lazy dog while extraordinarily long words appear. '.repeat(20);
  const chunks = chunk({ id: 'f', text }, { strategy: 'fixed', chunkSize: 12, chunkOverlap: 4, lengthFunction: count });
  assert.ok(chunks.length > 10);
  for (let i = 0; i < chunks.length; i++) {
    const c = chunks[i];
    assert.equal(c.text, text.slice(c.start, c.end));
    assert.ok(count(c.text) <= 12, `${count(c.text)}: ${c.text}`);
    assert.ok(/^\S/.test(c.text) && /\S$/.test(c.text));
    if (i > 0) {
      assert.ok(c.start > chunks[i - 1].start);
      if (c.start < chunks[i - 1].end) assert.ok(count(text.slice(c.start, chunks[i - 1].end)) <= 4);
    }
  }
  assert.equal(chunks.at(-1).end, text.trimEnd().length);
  assertRagwasm(() => chunk({ id: 'f', text }, { strategy: 'fixed', chunkSize: 12, chunkOverlap: 4, lengthFunction: count, unit: 'bytes' }), 'INVALID_ARGUMENT', /unit or lengthFunction/);
});

test('we never split a surrogate pair where LangChain.js emits a lone surrogate', async () => {
  const text = 'a😀😀😀';  // 7 units, no separators: the "" level splits it
  const lc = await new RecursiveCharacterTextSplitter({ chunkSize: 2, chunkOverlap: 0 }).splitText(text);
  assert.ok(lc.some((s) => /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s)), 'LangChain.js cuts a pair');
  assert.deepEqual(chunkTexts(text, { chunkSize: 2, chunkOverlap: 0 }), ['a', '😀', '😀', '😀']);
});

// Seeded xorshift so failures print a reproducible seed.
function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 4294967296; };
}
const PIECES = ['word', ' ', ' ', '\n', '\r\n', '\n\n', '. ', '😀', '中文', 'e\u0301', '\u00a0', '\u3000', '# H\n', '```\n',
  '| a |\n', 'x'.repeat(150), '\uD800', '\uDC00', 'Dr. ', '\u2028'];

test('random documents through the JS API keep exact slices order coverage and strict sizes', () => {
  const docs = build === 'debug' ? 150 : 600;
  const strategies = ['fixed', 'recursive', 'markdown', 'markdown-header', 'sentence'];
  for (let d = 0; d < docs; d++) {
    const seed = 1000 + d;
    const r = rng(seed);
    let text = '';
    const n = Math.floor(r() * 120);
    for (let i = 0; i < n; i++) text += PIECES[Math.floor(r() * PIECES.length)];
    const chunkSize = 4 + Math.floor(r() * 100);
    const chunkOverlap = Math.floor(r() * chunkSize * 0.5);
    for (const strategy of strategies) {
      const options = { strategy, chunkSize };
      if (strategy !== 'sentence') options.chunkOverlap = chunkOverlap;
      if ((strategy === 'recursive' || strategy === 'markdown') && d % 2) options.strict = true;
      const chunks = chunk({ id: 'r', text }, options);
      const msg = `seed ${seed} ${JSON.stringify(options)}`;
      const covered = new Uint8Array(text.length);
      let prev = null;
      for (const c of chunks) {
        assert.equal(c.text, text.slice(c.start, c.end), msg);
        assert.ok(c.start < c.end, msg);
        if (d % 10 === 0) assert.equal(c.tokenEstimate, estimateTokens(c.text), `${msg}: native and JS token estimates agree`);
        if (prev) assert.ok(c.start >= prev.start && c.end >= prev.end, msg);
        if (strategy === 'fixed' || strategy === 'markdown-header' || options.strict) assert.ok(c.end - c.start <= chunkSize, msg);
        if (prev && strategy !== 'sentence' && c.start < prev.end) assert.ok(prev.end - c.start <= chunkOverlap, msg);
        covered.fill(1, c.start, c.end);
        prev = c;
      }
      for (let i = 0; i < text.length; i++) {
        if (!covered[i] && !/\s/.test(text[i])) assert.fail(`${msg}: unit ${i} (${JSON.stringify(text[i])}) is in no chunk`);
      }
    }
  }
});

test('ragwasm chunk prints JSON lines and names bad options', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-chunk-'));
  const file = join(dir, 'doc.md');
  writeFileSync(file, MD);
  const cli = join(repoRoot, 'web/cli/ragwasm.mjs');
  const r = spawnSync(process.execPath, [cli, 'chunk', '--strategy', 'markdown-header', '--id', 'd', file], { encoding: 'utf8', env: process.env });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(lines.length, 4);
  assert.equal(lines[1].id, 'd#1');
  assert.deepEqual(lines[1].headerPath, ['Risk Factors', 'Liquidity']);
  assert.equal(MD.slice(lines[1].start, lines[1].end), lines[1].text);
  const bad = spawnSync(process.execPath, [cli, 'chunk', '--strategy', 'fixed', '--chunk-size', 'ten', file], { encoding: 'utf8', env: process.env });
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /options.chunkSize.*INVALID_ARGUMENT/);
});
