// Hostile files (issue #33): dataset folders and folders of documents built to attack the readers,
// each run through the CLI commands that read them (in a child process with a time limit and a 1 GB
// heap; `ask --docs` is the library's readDocumentFolder). A family builds its folder in a fresh temp
// root beside a secret file outside the folder; nothing binary is committed (zip bombs, FIFOs and
// sparse files are made here). Outcomes: ok, refused (a clear RagwasmError, exit 1, where success was expected), and the failing ones: hang (no exit within the limit),
// crash (a signal or an exit code other than 0/1/2, e.g. out of memory), stack-trace (a Node stack on
// stderr), aborted ("Aborted(" from WASM), leak (the secret outside the folder was printed), raw-control
// (an ESC or C1 control character reached the terminal), unreported (the bad file is not named on
// stderr), wrong (a family's own check of the result failed).
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync, createDeflate, createDeflateRaw, crc32 } from 'node:zlib';
import { makePdf } from '../../fixtures/make-pdf.mjs';

const CLI = fileURLToPath(new URL('../../../web/cli/ragwasm.mjs', import.meta.url));
const SECRET = 'SECRET-7f3a-outside-the-folder';
const QUESTION = 'What is the secret code of the vault?';
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u001b\u0007\u009b\u009d]/;

// ---- ZIP (DOCX) writer: stored/deflated entries, optionally with a lying uncompressed size ----

/** A ZIP archive of entries [{name, data?: Buffer, deflated?: Buffer, size?: number, crc?: number}]. */
export function makeZip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const comp = e.deflated ?? deflateRawSync(e.data);
    const size = e.size ?? e.data.length;
    const crc = e.crc ?? (e.data ? crc32(e.data) : 0);
    const lh = Buffer.alloc(30);
    lh.writeUInt32LE(0x04034b50, 0); lh.writeUInt16LE(20, 4); lh.writeUInt16LE(8, 8);
    lh.writeUInt32LE(crc >>> 0, 14); lh.writeUInt32LE(comp.length, 18); lh.writeUInt32LE(size, 22); lh.writeUInt16LE(name.length, 26);
    const ch = Buffer.alloc(46);
    ch.writeUInt32LE(0x02014b50, 0); ch.writeUInt16LE(20, 4); ch.writeUInt16LE(20, 6); ch.writeUInt16LE(8, 10);
    ch.writeUInt32LE(crc >>> 0, 16); ch.writeUInt32LE(comp.length, 20); ch.writeUInt32LE(size, 24); ch.writeUInt16LE(name.length, 28);
    ch.writeUInt32LE(offset, 42);
    locals.push(lh, name, comp);
    centrals.push(ch, name);
    offset += 30 + name.length + comp.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(entries.length, 8); end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12); end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const CONTENT_TYPES = '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
  + '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
  + '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const RELS = '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
  + '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';

/** Zeros of `bytes` deflated in 1 MiB steps (no buffer of the full size). */
async function deflatedZeros(bytes) {
  const z = createDeflateRaw({ level: 9 });
  const out = [];
  z.on('data', (d) => out.push(d));
  const done = new Promise((resolve, reject) => { z.on('end', resolve); z.on('error', reject); });
  const chunk = Buffer.alloc(1 << 20);
  let crc = 0;
  for (let left = bytes; left > 0; left -= chunk.length) {
    const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
    crc = crc32(piece, crc);
    if (!z.write(piece)) await new Promise((r) => z.once('drain', r));
  }
  z.end();
  await done;
  return { deflated: Buffer.concat(out), crc };
}

/** A DOCX whose word/document.xml is `bytes` of zeros (a zip bomb), optionally declaring `declared` bytes. */
export async function zipBombDocx(bytes, declared = bytes) {
  const { deflated, crc } = await deflatedZeros(bytes);
  return makeZip([
    { name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES) },
    { name: '_rels/.rels', data: Buffer.from(RELS) },
    { name: 'word/document.xml', deflated, size: declared, crc },
  ]);
}

/**
 * A one-page PDF whose content stream is `bytes` of text operators compressed with FlateDecode
 * (a decompression bomb for pdf.js: ~1000x), with a correct xref table.
 */
export async function pdfBomb(bytes) {
  const z = createDeflate({ level: 9 });
  const out = [];
  z.on('data', (d) => out.push(d));
  const done = new Promise((resolve, reject) => { z.on('end', resolve); z.on('error', reject); });
  const chunk = Buffer.from('BT ET\n'.repeat(174763));  // ~1 MiB of a no-op text object
  for (let left = bytes; left > 0; left -= chunk.length) {
    if (!z.write(left >= chunk.length ? chunk : chunk.subarray(0, left))) await new Promise((r) => z.once('drain', r));
  }
  z.end();
  await done;
  const data = Buffer.concat(out);
  const parts = [];
  const offsets = [];
  let length = 0;
  const push = (b) => { const buf = typeof b === 'string' ? Buffer.from(b, 'latin1') : b; parts.push(buf); length += buf.length; };
  push('%PDF-1.4\n');
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>', null];
  objects.forEach((body, i) => {
    offsets.push(length);
    if (body !== null) push(`${i + 1} 0 obj\n${body}\nendobj\n`);
    else { push(`${i + 1} 0 obj\n<< /Length ${data.length} /Filter /FlateDecode >>\nstream\n`); push(data); push('\nendstream\nendobj\n'); }
  });
  const xref = length;
  push(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`);
  push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}

// ---- folder families ----

const doc = (text) => `# Vault handbook\n\nThe office opens at nine. ${text}\n`;
const manifest = (entries) => JSON.stringify(entries);
const question = '{"id": "q1", "question": "When does the office open?", "answer": "nine", "evidence": ["The office opens at nine."], "doc_ids": ["a"]}\n';

function fifo(path) {
  const r = spawnSync('mkfifo', [path]);
  if (r.status !== 0) throw new Error(`mkfifo ${path}: ${r.stderr}`);
}

/**
 * The families. kind: 'docs' (a folder of documents), 'qa' (manifest.json + questions.jsonl) or 'beir'.
 * bad: the file the readers must name on stderr (a reported per-file failure), or null.
 * full: only in `npm run fuzz` (slow or big). only: the commands that read what the family attacks (default all of its kind).
 */
export const FILE_FAMILIES = [
  { name: 'manifest ../ traversal', kind: 'qa', bad: '../secret.txt', make: (d) => {
    writeFileSync(join(d, 'manifest.json'), manifest([{ id: 'a', file: 'docs/a.md' }, { id: 's', file: '../secret.txt' }]));
  } },
  { name: 'manifest ../../ traversal', kind: 'qa', bad: 'docs/../../secret.txt', make: (d) => {
    writeFileSync(join(d, 'manifest.json'), manifest([{ id: 'a', file: 'docs/a.md' }, { id: 's', file: 'docs/../../secret.txt' }]));
  } },
  { name: 'manifest absolute path', kind: 'qa', bad: 'secret.txt', make: (d, root) => {
    writeFileSync(join(d, 'manifest.json'), manifest([{ id: 'a', file: 'docs/a.md' }, { id: 's', file: join(root, 'secret.txt') }]));
  } },
  { name: 'manifest key file without extension inside', kind: 'qa', bad: 'id_rsa', make: (d) => {
    writeFileSync(join(d, 'id_rsa'), `-----BEGIN KEY----- ${SECRET}`);
    writeFileSync(join(d, 'manifest.json'), manifest([{ id: 'a', file: 'docs/a.md' }, { id: 'k', file: 'id_rsa' }]));
  } },
  { name: 'symlink to a file outside', kind: 'docs', bad: 'docs/link.md', make: (d, root) => symlinkSync(join(root, 'secret.txt'), join(d, 'docs', 'link.md')) },
  { name: 'manifest names a symlink outside', kind: 'qa', bad: 'docs/link.md', make: (d, root) => {
    symlinkSync(join(root, 'secret.txt'), join(d, 'docs', 'link.md'));
    writeFileSync(join(d, 'manifest.json'), manifest([{ id: 'a', file: 'docs/a.md' }, { id: 'l', file: 'docs/link.md' }]));
  } },
  { name: 'a .md symlinked to /dev/zero', kind: 'docs', bad: 'docs/zero.md', make: (d) => symlinkSync('/dev/zero', join(d, 'docs', 'zero.md')) },
  { name: 'a FIFO in the folder', kind: 'docs', bad: 'docs/pipe.md', make: (d) => fifo(join(d, 'docs', 'pipe.md')) },
  { name: 'manifest names a FIFO', kind: 'qa', bad: 'docs/pipe.md', make: (d) => {
    fifo(join(d, 'docs', 'pipe.md'));
    writeFileSync(join(d, 'manifest.json'), manifest([{ id: 'a', file: 'docs/a.md' }, { id: 'p', file: 'docs/pipe.md' }]));
  } },
  { name: 'manifest.json is a FIFO', kind: 'qa', bad: 'manifest.json', expectFailure: true, make: (d) => { rmSync(join(d, 'manifest.json')); fifo(join(d, 'manifest.json')); } },
  { name: 'a 300 MB sparse .md (over the file limit)', kind: 'docs', bad: 'docs/huge.md', make: (d) => {
    const fd = openSync(join(d, 'docs', 'huge.md'), 'w');
    ftruncateSync(fd, 300 * 1024 * 1024);
    closeSync(fd);
  } },
  { name: 'a symlinked folder loop', kind: 'docs', bad: 'docs/loop', make: (d) => symlinkSync('..', join(d, 'docs', 'loop')) },
  { name: 'folders nested 70 deep', kind: 'docs', bad: null, make: (d) => {
    let p = join(d, 'docs');
    for (let i = 0; i < 70; i++) p = join(p, 'n');
    mkdirSync(p, { recursive: true });
    writeFileSync(join(p, 'deep.md'), doc('deep'));
  } },
  { name: 'a folder named x.md and an empty file', kind: 'docs', bad: null, make: (d) => {
    mkdirSync(join(d, 'docs', 'x.md'));
    writeFileSync(join(d, 'docs', 'empty.md'), '');
  } },
  { name: 'invalid UTF-8 and NUL bytes in a .md', kind: 'docs', bad: null, make: (d) => writeFileSync(join(d, 'docs', 'bin.md'), Buffer.from([0xff, 0xfe, 0, 0x41, 0xc0, 0x80, 0x0a])) },
  { name: 'terminal escape sequences in a document', kind: 'docs', bad: null, make: (d) => writeFileSync(join(d, 'docs', 'esc.md'),
    '# Vault\n\nThe secret code of the vault is \u001b]0;pwned\u0007\u001b]52;c;cm0gLXJmIH4=\u0007\u009b31m in the safe \u001b[2J.\n') },
  { name: '2 MB of unclosed HTML tags', kind: 'docs', bad: null, make: (d) => writeFileSync(join(d, 'docs', 'tags.html'), '<a '.repeat(700000)) },
  { name: '2 MB of unclosed script tags', kind: 'docs', bad: null, make: (d) => writeFileSync(join(d, 'docs', 'script.html'), '<p>x</p>' + '<script>'.repeat(250000)) },
  { name: 'a corrupt PDF and a truncated DOCX', kind: 'docs', bad: 'docs/bad.pdf', make: (d) => {
    writeFileSync(join(d, 'docs', 'bad.pdf'), '%PDF-1.7\n1 0 obj << /Type /Catalog >>\n%%EOF');
    writeFileSync(join(d, 'docs', 'cut.docx'), makeZip([{ name: 'word/document.xml', data: Buffer.from('<w:document/>') }]).subarray(0, 40));
  } },
  { name: 'a real PDF (read as bytes, not a Buffer)', kind: 'docs', bad: null, make: (d) => {
    writeFileSync(join(d, 'docs', 'vault.pdf'), makePdf([['The secret code of the vault is PDF-4711.']]));
  }, check: (r) => r.command !== 'ask' || /PDF-4711/.test(r.stdout) || 'the PDF was not read' },
  { name: 'DOCX zip bomb (64 MB of zeros in 64 kB)', kind: 'docs', bad: 'docs/bomb.docx', make: async (d) => writeFileSync(join(d, 'docs', 'bomb.docx'), await zipBombDocx(64 << 20)) },
  { name: 'DOCX zip bomb with a lying size (64 MB declared as 1 kB)', kind: 'docs', bad: 'docs/liar.docx', make: async (d) => writeFileSync(join(d, 'docs', 'liar.docx'), await zipBombDocx(64 << 20, 1024)) },
  { name: 'DOCX zip bomb of the red team (880 MB in ~850 kB)', full: true, kind: 'docs', bad: 'docs/bomb.docx', make: async (d) => writeFileSync(join(d, 'docs', 'bomb.docx'), await zipBombDocx(880 << 20)) },
  { name: 'PDF decompression bomb (300 MB content stream in ~450 kB)', kind: 'docs', bad: 'docs/bomb.pdf', make: async (d) => writeFileSync(join(d, 'docs', 'bomb.pdf'), await pdfBomb(300 << 20)) },
  { name: 'corpus.jsonl as one JSON array', kind: 'beir', expectFailure: /corpus\.jsonl:1: .*JSON array/, make: (d) => {
    writeFileSync(join(d, 'corpus.jsonl'), JSON.stringify([{ _id: 'a', text: 'The office opens at nine.' }]) + '\n');
  } },
  { name: 'corpus.jsonl pretty-printed JSON array', kind: 'beir', expectFailure: /corpus\.jsonl:1: .*JSON array/, make: (d) => {
    writeFileSync(join(d, 'corpus.jsonl'), JSON.stringify([{ _id: 'a', text: 'The office opens at nine.' }], null, 2) + '\n');
  } },
  { name: 'corpus.jsonl line without _id', kind: 'beir', expectFailure: /corpus\.jsonl:2: "_id"/, make: (d) => {
    writeFileSync(join(d, 'corpus.jsonl'), '{"_id": "a", "text": "The office opens at nine."}\n{"text": "no id"}\n');
  } },
  { name: 'corpus.jsonl invalid line', kind: 'beir', expectFailure: /corpus\.jsonl:2: invalid JSON/, make: (d) => {
    writeFileSync(join(d, 'corpus.jsonl'), '{"_id": "a", "text": "The office opens at nine."}\n{"_id": "b", "text": \n');
  } },
  { name: 'corpus.jsonl line nested 20,000 deep', kind: 'beir', expectFailure: /corpus\.jsonl:2: /, make: (d) => {
    writeFileSync(join(d, 'corpus.jsonl'), '{"_id": "a", "text": "The office opens at nine."}\n' + '['.repeat(20000) + ']'.repeat(20000) + '\n');
  } },
  { name: 'BOM at the start of corpus, queries and qrels', kind: 'beir', bom: true, make: () => {} },
  { name: 'duplicate qrels rows (same judgment)', kind: 'beir', only: ['eval', 'tune'], warn: /duplicate judgment row/, make: (d) => {
    writeFileSync(join(d, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\nq1\ta\t1\nq1\ta\t1\n');
  } },
  { name: 'conflicting qrels rows', kind: 'beir', only: ['eval', 'tune'], expectFailure: /judged 2 here and 1 on line 2/, make: (d) => {
    writeFileSync(join(d, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\nq1\ta\t1\nq1\ta\t2\n');
  } },
];

// The command lines run per kind (DIR = the dataset folder, OUT = a scratch path).
function commandsFor(kind, dir, out) {
  if (kind === 'docs') {
    return [
      ['ask', ['ask', '--docs', dir, QUESTION]],
      ['index', ['index', '--retriever', 'bm25', '-o', join(out, 'col.bin'), dir]],
      ['export', ['export', dir, '--retriever', 'bm25', '--to', join(out, 'x.sql')]],
    ];
  }
  if (kind === 'qa') {
    return [
      ['ask', ['ask', '--docs', dir, QUESTION]],
      ['experiment', ['experiment', '--grid', join(out, 'grid.json'), '--dataset', dir, '--dry-run']],
      ['tune', ['tune', '--dataset', dir, '--json']],
      ['label', ['label', '--dataset', dir, '--retrievers', 'bm25', '--dry-run']],
    ];
  }
  return [
    ['eval', ['eval', '--dataset', dir]],
    ['tune', ['tune', '--dataset', dir, '--json']],
    ['index', ['index', '--retriever', 'bm25', '-o', join(out, 'col.bin'), dir]],
  ];
}

/** Builds a family's folder: {root, dir, out, cleanup}. */
export async function buildFamily(f) {
  const root = mkdtempSync(join(tmpdir(), 'ragwasm-hostile-files-'));
  const dir = join(root, 'dataset');
  const out = join(root, 'out');
  mkdirSync(join(dir, 'docs'), { recursive: true });
  mkdirSync(out);
  writeFileSync(join(root, 'secret.txt'), `The secret code of the vault is ${SECRET}.\n`);
  writeFileSync(join(out, 'grid.json'), '{}');
  const bom = f.bom ? '\uFEFF' : '';
  if (f.kind === 'docs' || f.kind === 'qa') writeFileSync(join(dir, 'docs', 'a.md'), doc('Ask at the desk.'));
  if (f.kind === 'qa') {
    writeFileSync(join(dir, 'manifest.json'), manifest([{ id: 'a', file: 'docs/a.md' }]));
    writeFileSync(join(dir, 'questions.jsonl'), question);
  }
  if (f.kind === 'beir') {
    mkdirSync(join(dir, 'qrels'));
    writeFileSync(join(dir, 'corpus.jsonl'), `${bom}{"_id": "a", "title": "Hours", "text": "The office opens at nine."}\n{"_id": "b", "text": "Parking is behind the building."}\n`);
    writeFileSync(join(dir, 'queries.jsonl'), `${bom}{"_id": "q1", "text": "When does the office open?"}\n`);
    writeFileSync(join(dir, 'qrels', 'test.tsv'), `${bom}q1\ta\t1\n`);
  }
  await f.make(dir, root);
  return { root, dir, out, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Runs one CLI command line in a child process: {status, signal, stdout, stderr, timedOut, ms}. */
export function runCli(args, { timeoutMs = 60000, cwd } = {}) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, ['--max-old-space-size=1024', CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => { if (stdout.length < 1e6) stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d) => { if (stderr.length < 1e6) stderr += d; });
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, timeoutMs);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr, timedOut, ms: Date.now() - t0 });
    });
  });
}

/** The outcome of one run of family `f`: 'ok' or a failing outcome with its detail. */
export function classify(f, command, r) {
  const all = r.stdout + r.stderr;
  if (r.timedOut) return { outcome: 'hang', detail: `no exit within the limit (${r.ms} ms)` };
  if (r.signal || ![0, 1, 2].includes(r.status)) return { outcome: 'crash', detail: `exit ${r.status} signal ${r.signal}: ${r.stderr.slice(-300)}` };
  if (/Aborted\(/.test(all)) return { outcome: 'aborted', detail: r.stderr.slice(0, 200) };
  if (/^\s+at .+[(:]\d+:\d+\)?$/m.test(r.stderr) || /node:internal/.test(r.stderr)) return { outcome: 'stack-trace', detail: r.stderr.slice(0, 300) };
  if (all.includes(SECRET) || all.includes('BEGIN KEY')) return { outcome: 'leak', detail: 'the secret file outside the folder (or a key file) was printed' };
  if (RAW_CONTROL.test(all)) return { outcome: 'raw-control', detail: 'a control character reached the terminal' };
  if (f.expectFailure) {
    if (r.status === 0) return { outcome: 'wrong', detail: 'expected a clear error, got exit 0' };
    if (f.expectFailure instanceof RegExp && !f.expectFailure.test(r.stderr)) return { outcome: 'wrong', detail: `stderr does not match ${f.expectFailure}: ${r.stderr.slice(0, 200)}` };
  } else if (f.bad && !r.stderr.includes(f.bad) && (command === 'ask' || !/\.(docx|pdf|html?)$/.test(f.bad))) {
    // (index, export and the dataset commands read .txt/.md documents only: other formats are not theirs to name)
    return { outcome: 'unreported', detail: `${f.bad} is not named on stderr: ${r.stderr.slice(0, 200)}` };
  } else if (r.status !== 0 && !f.bad) {
    // A clear refusal (a RagwasmError message "... [CODE]", exit 1) is not a failure: e.g. the SQL export refuses NUL characters.
    if (!/\[[A-Z_]+\]\s*$/.test(r.stderr)) return { outcome: 'wrong', detail: `exit ${r.status}: ${r.stderr.slice(0, 300)}` };
    return { outcome: 'refused', detail: r.stderr.trim().split('\n').pop().slice(0, 200) };
  }
  if (f.warn && !f.warn.test(r.stderr)) return { outcome: 'wrong', detail: `no warning ${f.warn}: ${r.stderr.slice(0, 200)}` };
  const own = f.check?.({ ...r, command });
  if (typeof own === 'string') return { outcome: 'wrong', detail: own };
  return { outcome: 'ok' };
}

export const FILE_FAILING = new Set(['hang', 'crash', 'aborted', 'stack-trace', 'leak', 'raw-control', 'unreported', 'wrong']);

/**
 * Every (family, command) pair, or a seeded subset: `perFamily` commands per family drawn with `rand`.
 * @returns {Promise<{rows: {family: string, command: string, outcome: string, detail?: string, ms: number}[]}>}
 */
export async function runFileFamilies({ full = true, rand = null, perFamily = Infinity, filter, timeoutMs = 60000, log = () => {} } = {}) {
  const rows = [];
  for (const f of FILE_FAMILIES) {
    if (f.full && !full) continue;
    if (filter && !f.name.includes(filter)) continue;
    const built = await buildFamily(f);
    try {
      let cmds = commandsFor(f.kind, built.dir, built.out).filter(([name]) => !f.only || f.only.includes(name));
      if (rand && perFamily < cmds.length) {
        const pool = cmds.slice();
        cmds = [];
        while (cmds.length < perFamily) cmds.push(pool.splice(Math.floor(rand() * pool.length), 1)[0]);
      }
      for (const [name, args] of cmds) {
        const r = await runCli(args, { timeoutMs, cwd: built.out });
        const c = classify(f, name, r);
        rows.push({ family: f.name, command: name, ...c, ms: r.ms });
        if (c.outcome !== 'ok') log(`${c.outcome}: ${f.name} / ${name}: ${c.detail}`);
      }
    } finally {
      built.cleanup();
    }
  }
  return { rows };
}

/** A table of the file families' outcomes. */
export function formatFileTable(rows) {
  const counts = new Map();
  for (const r of rows) counts.set(r.outcome, (counts.get(r.outcome) ?? 0) + 1);
  const failures = rows.filter((r) => FILE_FAILING.has(r.outcome));
  const lines = [`hostile files: ${new Set(rows.map((r) => r.family)).size} families, ${rows.length} command runs`, 'by outcome:'];
  for (const [k, n] of [...counts].sort((a, b) => b[1] - a[1])) lines.push(`  ${String(n).padStart(7)}  ${k}`);
  lines.push('by family (command: outcome, seconds):');
  for (const fam of [...new Set(rows.map((r) => r.family))]) {
    lines.push(`  ${fam}: ${rows.filter((r) => r.family === fam).map((r) => `${r.command} ${r.outcome} ${(r.ms / 1000).toFixed(1)}`).join(', ')}`);
  }
  lines.push(`FILE FAILURES (${failures.length}):`);
  for (const r of failures) lines.push(`  ${r.outcome}: ${r.family} / ${r.command}: ${r.detail}`);
  return lines.join('\n');
}
