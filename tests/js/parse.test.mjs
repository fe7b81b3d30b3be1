// Local text extraction for doc chat: text/markdown (UTF-8 repair, BOM), HTML, PDF pages, DOCX.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { init, RagwasmError } from '../../web/src/index.js';
import { extractText, htmlToTextFallback } from '../../web/src/parse.js';
import { makePdf } from '../fixtures/make-pdf.mjs';
import { repoRoot } from './helpers.mjs';

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
