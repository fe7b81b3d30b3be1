// Local text extraction for doc chat: text/markdown (UTF-8 repair, BOM), HTML, PDF pages, DOCX.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { init, RagwasmError } from '../../../web/src/index.js';
import { extractText, htmlToTextFallback } from '../../../web/src/parse.js';
import { makePdf } from '../../fixtures/make-pdf.mjs';
import { repoRoot } from '../helpers.mjs';

const enc = (s) => new TextEncoder().encode(s);

test('text and markdown are decoded as UTF-8 with invalid bytes replaced and a BOM dropped', async () => {
  await init();
  const r = await extractText({ name: 'notes.md', data: new Uint8Array([0xef, 0xbb, 0xbf, 0x23, 0x20, 0x41, 0xff, 0x0a]) });
  assert.equal(r.format, 'markdown');
  assert.equal(r.text, '# A\ufffd\n');
  const t = await extractText({ name: 'a.TXT', data: enc('caf\u00e9 \u{1F600}').buffer });
  assert.equal(t.format, 'text');
  assert.equal(t.text, 'caf\u00e9 \u{1F600}');
});

test('HTML without a DOM drops scripts and styles and keeps block structure', async () => {
  await init();
  const html = '<html><head><title>T</title><style>p{}</style></head><body><h1>Policy &amp; rules</h1>' +
    '<script>alert(1)</script><p>First&nbsp;para.</p><table><tr><td>a</td><td>b</td></tr></table><!-- c --></body></html>';
  assert.equal(htmlToTextFallback(html), 'Policy & rules\n\nFirst para.\n\na b');
  const r = await extractText({ name: 'x.html', data: enc(html) });
  assert.equal(r.format, 'html');
  assert.ok(!r.text.includes('alert'));
});

test('PDF text comes out page by page with each page span', async () => {
  await init();
  const data = makePdf([['Quarterly revenue rose 12 percent.', 'Margins held.'], ['Page two: outlook (cautious).']]);
  const r = await extractText({ name: 'report.pdf', data });
  assert.equal(r.format, 'pdf');
  assert.equal(r.pages.length, 2);
  assert.equal(r.text.slice(r.pages[0].start, r.pages[0].end), 'Quarterly revenue rose 12 percent.\nMargins held.');
  assert.equal(r.text.slice(r.pages[1].start, r.pages[1].end), 'Page two: outlook (cautious).');
});

test('a corrupt PDF is a PARSE_ERROR, not a crash', async () => {
  await init();
  await assert.rejects(extractText({ name: 'bad.pdf', data: enc('%PDF-1.4 this is not a pdf') }), (e) => e instanceof RagwasmError && e.code === 'PARSE_ERROR');
});

test('DOCX paragraphs are extracted with mammoth', async (t) => {
  await init();
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-docx-'));
  const out = join(dir, 'memo.docx');
  const py = spawnSync('python3', [join(repoRoot, 'tests/fixtures/make-docx.py'), out, 'Travel memo.', 'Economy class only.'], { encoding: 'utf8' });
  assert.equal(py.status, 0, py.stderr);
  const r = await extractText({ name: 'memo.docx', data: readFileSync(out) });
  assert.equal(r.format, 'docx');
  assert.equal(r.text, 'Travel memo.\n\nEconomy class only.');
  await assert.rejects(extractText({ name: 'x.docx', data: enc('not a zip') }), (e) => e.code === 'PARSE_ERROR');
});

test('unsupported types and bad arguments are INVALID_ARGUMENT', async () => {
  await init();
  await assert.rejects(extractText({ name: 'a.exe', data: new Uint8Array(1) }), (e) => e.code === 'INVALID_ARGUMENT' && /unsupported file type/.test(e.message));
  await assert.rejects(extractText(null), (e) => e.code === 'INVALID_ARGUMENT');
  await assert.rejects(extractText({ name: 'a.txt', data: 'text' }), (e) => e.code === 'INVALID_ARGUMENT' && /input.data/.test(e.message));
  await assert.rejects(extractText({ name: 'a.txt', data: new Uint8Array(1) }, { fmt: 'pdf' }), (e) => /unknown option 'fmt'/.test(e.message));
});

// Issue #33: files are untrusted input.
test('#33 C-6 htmlToTextFallback is linear: 2 MB of unclosed tags comments and scripts finish in a Worker within its time limit', async () => {
  const { Worker } = await import('node:worker_threads');
  const src = `
    import { parentPort } from 'node:worker_threads';
    import { htmlToTextFallback } from ${JSON.stringify(new URL('../../../web/src/parse.js', import.meta.url).href)};
    const out = [];
    for (const s of ['<a '.repeat(700000), '<p>x</p>' + '<script>'.repeat(250000), '<!--'.repeat(500000), '<b '.repeat(350000) + '<i>', '<head>'.repeat(300000) + 'tail']) out.push(htmlToTextFallback(s));
    parentPort.postMessage(out);`;
  const w = new Worker(src, { eval: true, type: 'module' });
  // Not a timing assertion: the quadratic version took ~30 minutes for one of these (1.7 s for 60 kB).
  const limitMs = 60000;
  const result = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => { w.terminate(); reject(new Error(`htmlToTextFallback did not finish within ${limitMs} ms (quadratic?)`)); }, limitMs);
    w.on('message', (m) => { clearTimeout(timer); w.terminate(); resolve(m); });
    w.on('error', (e) => { clearTimeout(timer); reject(e); });
  });
  assert.deepEqual(result, ['', 'x', '', '', 'tail']);
  // As a browser: an unclosed tag, comment or script runs to the end; an unclosed <head> loses only its tag.
  assert.equal(htmlToTextFallback('a <b>bold</b> c <!-- open'), 'a bold c');
  assert.equal(htmlToTextFallback('<p>kept</p><script>x = 1; <p>gone'), 'kept');
  assert.equal(htmlToTextFallback('<head><title>T</title><body><p>x</p>'), 'T\nx');
  assert.equal(htmlToTextFallback('1 < 2 and 3 > 2 &lt;ok&gt;'), '1 < 2 and 3 > 2 <ok>');
});

test('#33 C-5 a DOCX zip bomb is LIMIT_EXCEEDED before mammoth inflates it (ratio, total size, a lying size)', async () => {
  await init();
  const { zipBombDocx, makeZip } = await import('../hostile/files.mjs');
  const bomb = await zipBombDocx(64 << 20);  // 64 MiB of zeros in ~65 kB
  assert.ok(bomb.length < 100000, `bomb is ${bomb.length} bytes`);
  await assert.rejects(extractText({ name: 'bomb.docx', data: bomb }),
    (e) => e instanceof RagwasmError && e.code === 'LIMIT_EXCEEDED' && /bomb\.docx: ZIP entry word\/document\.xml expands \d+x .* the limit is 200x \(limits\.maxZipRatio\)/.test(e.message));
  const liar = await zipBombDocx(64 << 20, 1024);  // declares 1 kB
  await assert.rejects(extractText({ name: 'liar.docx', data: liar }),
    (e) => e.code === 'LIMIT_EXCEEDED' && /inflates past its declared 1024 bytes/.test(e.message));
  await assert.rejects(extractText({ name: 'bomb.docx', data: bomb }, { limits: { maxZipRatio: 1e6, maxUnzippedBytes: 1 << 20 } }),
    (e) => e.code === 'LIMIT_EXCEEDED' && /more than 1048576 bytes uncompressed \(limits\.maxUnzippedBytes\)/.test(e.message));
  const many = makeZip(Array.from({ length: 30 }, (_, i) => ({ name: `f${i}.xml`, data: Buffer.from('x') })));
  await assert.rejects(extractText({ name: 'many.docx', data: many }, { limits: { maxZipEntries: 20 } }), (e) => e.code === 'LIMIT_EXCEEDED' && /30 ZIP entries, the limit is 20/.test(e.message));
  await assert.rejects(extractText({ name: 'cut.docx', data: bomb.subarray(0, bomb.length - 30) }), (e) => e.code === 'PARSE_ERROR');
  await assert.rejects(extractText({ name: 'x.docx', data: new Uint8Array(1) }, { limits: { maxZipRatio: 0 } }), (e) => e.code === 'INVALID_ARGUMENT' && /options\.limits\.maxZipRatio/.test(e.message));
});

test('#33 a PDF given as a Node Buffer is read and PDFs over maxPdfPages or files over maxFileBytes are LIMIT_EXCEEDED', async () => {
  await init();
  const pdf = makePdf([['First page text.'], ['Second page text.']]);
  const r = await extractText({ name: 'b.pdf', data: Buffer.from(pdf) });
  assert.equal(r.text, 'First page text.\n\nSecond page text.');
  await assert.rejects(extractText({ name: 'b.pdf', data: pdf }, { limits: { maxPdfPages: 1 } }),
    (e) => e.code === 'LIMIT_EXCEEDED' && e.message === 'ragwasm: b.pdf: 2 PDF pages, the limit is 1 (limits.maxPdfPages)');
  await assert.rejects(extractText({ name: 'a.md', data: enc('x'.repeat(100)) }, { limits: { maxFileBytes: 99 } }),
    (e) => e.code === 'LIMIT_EXCEEDED' && /a\.md: 100 bytes, the limit is 99/.test(e.message));
  await assert.rejects(extractText({ name: 'a.md', data: enc('x') }, { limits: { nope: 1 } }), (e) => e.code === 'INVALID_ARGUMENT' && /unknown option 'nope'|nope/.test(e.message));
});

test('#33 readDocumentFolder reads every supported file and reports each failure per file keeping the others', async () => {
  await init();
  const { readDocumentFolder, openFolder } = await import('../../../web/src/parse.js');
  const { writeFileSync, mkdirSync, symlinkSync } = await import('node:fs');
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-folder-'));
  writeFileSync(join(dir, 'a.md'), '# Alpha\n\nText a.');
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'sub', 'b.html'), '<p>Text b.</p>');
  writeFileSync(join(dir, 'c.pdf'), makePdf([['Text c.']]));
  writeFileSync(join(dir, 'd.png'), 'x');
  writeFileSync(join(dir, '.hidden.md'), 'x');
  symlinkSync('/etc/hostname', join(dir, 'e.md'));
  const r = await readDocumentFolder(dir);
  assert.deepEqual(r.documents.map((d) => [d.id, d.title, d.text, d.metadata.format]),
    [['a.md', 'Alpha', '# Alpha\n\nText a.', 'markdown'], ['c.pdf', 'c', 'Text c.', 'pdf'], ['sub/b.html', 'b', 'Text b.', 'html']]);
  assert.deepEqual(r.errors.map((e) => `${e.file} ${e.code}`), ['d.png INVALID_ARGUMENT', 'e.md INVALID_ARGUMENT']);
  const reader = openFolder(dir);
  assert.throws(() => reader.readBytes('../x'), (e) => e.code === 'INVALID_ARGUMENT' && /outside the folder/.test(e.message));
  assert.throws(() => reader.readBytes('nope.md'), (e) => e.code === 'NOT_FOUND');
  assert.throws(() => openFolder(join(dir, 'a.md')), (e) => e.code === 'INVALID_ARGUMENT' && /not a folder/.test(e.message));
  await assert.rejects(readDocumentFolder(dir, { manifest: 'yes' }), (e) => e.code === 'INVALID_ARGUMENT');
});

test('#33 a PDF whose content stream inflates past maxUnzippedBytes is LIMIT_EXCEEDED before pdf.js inflates it', async () => {
  await init();
  const { pdfBomb } = await import('../hostile/files.mjs');
  const bomb = await pdfBomb(16 << 20);  // 16 MiB of text operators in ~25 kB
  await assert.rejects(extractText({ name: 'bomb.pdf', data: bomb }, { limits: { maxUnzippedBytes: 1 << 20 } }),
    (e) => e instanceof RagwasmError && e.code === 'LIMIT_EXCEEDED' && e.message === "ragwasm: bomb.pdf: the PDF's compressed streams inflate past 1048576 bytes (limits.maxUnzippedBytes): a decompression bomb?");
  // Under the limit the same kind of file is read (a compressed content stream is ordinary).
  const small = await extractText({ name: 'small.pdf', data: await pdfBomb(64 << 10) });
  assert.equal(small.pages.length, 1);
});
