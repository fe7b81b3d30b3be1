// Issue #31 item 1 end to end: `ragwasm experiment` on real SEC filings (inline-XBRL HTML under
// ../shared/data/sec-filings, skipped by name without it). The dataset folder is made in a temporary
// folder (manifest.json + questions.jsonl + the two filings copied there for the run and removed after:
// the folder reader confines documents to the dataset folder). Every filing is read with extractText
// (the reader of `ask --docs`), so its text is indexed without tags; the grid varies retrieval.filter
// over the manifest's metadata, with chunker.preprocess "markdown-to-text" in the base.
import test from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { init } from '../../../web/src/index.js';
import { main } from '../../../web/cli/ragwasm.mjs';
import { loadQaDataset } from '../../../web/cli/datasets.mjs';
import { captureIo, skipUnlessShared } from '../helpers.mjs';

const FILINGS = { aapl: 'aapl-10-k-2024-11-01.html', nflx: 'nflx-10-k-2025-01-27.html' };
const QUESTIONS = [
  { id: 'aapl-products', question: 'What products does Apple design, manufacture and market?', doc_ids: ['aapl'], answerable: true,
    answer: 'smartphones, personal computers, tablets, wearables and accessories',
    evidence: ['designs, manufactures and markets smartphones, personal computers, tablets, wearables and accessories'] },
  { id: 'nflx-countries', question: 'In how many countries does Netflix have paid memberships?', doc_ids: ['nflx'], answerable: true,
    answer: 'over 190 countries', evidence: ['paid memberships in over 190 countries'] },
];

test('experiment on SEC filings (HTML): parsed text indexed, retrieval.filter honoured per cell', async (t) => {
  const shared = skipUnlessShared(t, `data/sec-filings/${FILINGS.aapl}`);
  if (!shared) return;
  await init();
  const src = shared.replace(/[^/]+$/, '');
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-sec-'));
  try {
    for (const f of Object.values(FILINGS)) copyFileSync(join(src, f), join(dir, f));
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(Object.entries(FILINGS).map(([company, file]) => ({ id: company, file, title: company, metadata: { company } }))));
    writeFileSync(join(dir, 'questions.jsonl'), QUESTIONS.map((q) => JSON.stringify(q)).join('\n') + '\n');
    // The reader: HTML through extractText, no tags or inline-XBRL markup left, metadata kept.
    const ds = await loadQaDataset(dir, { onError: (f) => assert.fail(`${f.file}: ${f.message}`) });
    assert.deepEqual(ds.documents.map((d) => [d.id, d.metadata.company]), [['aapl', 'aapl'], ['nflx', 'nflx']]);
    for (const d of ds.documents) {
      assert.doesNotMatch(d.text, /<[a-z/!]|ix:nonFraction/i, `${d.id}: markup left in the text`);
      assert.ok(d.text.length > 100000, `${d.id}: ${d.text.length} characters`);
    }
    assert.ok(ds.documents[0].text.includes(QUESTIONS[0].evidence[0]));

    const grid = {
      base: { indexes: { bm25: {} }, chunker: { strategy: 'recursive', chunkSize: 800, preprocess: 'markdown-to-text' }, retrieval: { k: 5 }, answerer: { type: 'none' } },
      vary: { 'retrieval.filter': { all: null, 'aapl-only': { company: 'aapl' } } },
      evaluation: { cutoffs: [1, 5], maxK: 5 },
    };
    writeFileSync(join(dir, 'grid.json'), JSON.stringify(grid));
    const out = join(dir, 'results.jsonl');
    const c = captureIo();
    const code = await main(['experiment', '--grid', join(dir, 'grid.json'), '--dataset', dir, '--out', out], c.io);
    assert.equal(code, 0, c.err());
    const recs = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const recall = (cell, q) => recs.find((r) => r.cell === cell && r.questionId === q)?.retrieval?.recall?.['5'];
    assert.equal(recall('retrieval.filter=all', 'aapl-products'), 1);
    assert.equal(recall('retrieval.filter=all', 'nflx-countries'), 1);
    assert.equal(recall('retrieval.filter=aapl-only', 'aapl-products'), 1);
    assert.equal(recall('retrieval.filter=aapl-only', 'nflx-countries'), 0, 'the filter keeps Netflix\'s filing out');
    assert.match(c.out(), /retrieval\.filter=aapl-only/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, { timeout: 600000 });

test('readDocuments (label, tune, index folders) reads .html as text without tags, next to .md; a corrupt PDF is a per-file error', async () => {
  await init();
  const { readDocuments } = await import('../../../web/cli/datasets.mjs');
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-html-'));
  try {
    writeFileSync(join(dir, 'a.html'), '<html><head><title>t</title><style>p{}</style></head><body><p>Net sales <b>rose</b> 2%.</p><script>x()</script></body></html>');
    writeFileSync(join(dir, 'b.md'), '# B\n\nText.\n');
    writeFileSync(join(dir, 'c.pdf'), '%PDF-1.4 not a PDF');
    const skipped = [];
    const docs = await readDocuments(dir, { onError: (f) => skipped.push(`${f.file} ${f.code}`) });
    assert.deepEqual(docs.map((d) => [d.id, d.title]), [['a.html', ''], ['b.md', 'B']]);
    assert.deepEqual(skipped, ['c.pdf PARSE_ERROR'], 'a corrupt PDF is reported and left out');
    assert.equal(docs[0].text.trim(), 'Net sales rose 2%.');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('manifest datasets read PDF documents through extractText in experiment, tune and label (loadQaDataset, loadTuneDataset)', async () => {
  await init();
  const { makePdf } = await import('../../fixtures/make-pdf.mjs');
  const { loadTuneDataset } = await import('../../../web/cli/datasets.mjs');
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-pdf-'));
  try {
    writeFileSync(join(dir, 'report.pdf'), makePdf([['Quarterly revenue rose 12 percent.'], ['Outlook: cautious.']]));
    writeFileSync(join(dir, 'memo.md'), '# Memo\n\nThe **office** opens at nine.\n');
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify([{ id: 'r', file: 'report.pdf', metadata: { kind: 'report' } }, { id: 'm', file: 'memo.md' }]));
    writeFileSync(join(dir, 'questions.jsonl'), `${JSON.stringify({ id: 'q', question: 'How much did revenue rise?', answer: '12 percent', evidence: ['revenue rose 12 percent'], doc_ids: ['r'] })}\n`);
    const qa = await loadQaDataset(dir, { onError: (f) => assert.fail(f.message) });
    assert.deepEqual(qa.documents.map((d) => d.id), ['r', 'm']);
    assert.match(qa.documents[0].text, /^Quarterly revenue rose 12 percent\.\s+Outlook: cautious\.$/);
    assert.deepEqual(qa.documents[0].metadata, { kind: 'report' });
    const tune = await loadTuneDataset(dir, { onError: (f) => assert.fail(f.message) });
    assert.equal(tune.kind, 'evidence');
    assert.equal(tune.documents[0].text, qa.documents[0].text);
    const c = captureIo();
    writeFileSync(join(dir, 'grid.json'), JSON.stringify({ base: { indexes: { bm25: {} }, retrieval: { k: 1 }, answerer: { type: 'none' } } }));
    assert.equal(await main(['experiment', '--grid', join(dir, 'grid.json'), '--dataset', dir, '--out', join(dir, 'out.jsonl')], c.io), 0, c.err());
    assert.equal(JSON.parse(readFileSync(join(dir, 'out.jsonl'), 'utf8').trim()).retrieval.recall['1'], 1, 'the PDF\'s text is retrieved');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
