// @ts-check
// Text extraction from user files, locally: plain text and markdown (UTF-8, repaired), PDF (pdf.js,
// with each page's UTF-16 span so citations can jump to a page), DOCX (mammoth) and HTML (DOMParser,
// or a small linear-time tag stripper where no DOM exists, e.g. in Workers and Node). Nothing is
// uploaded. Files are untrusted: size, decompression and page limits (limits.js) are checked first.
import { RagwasmError } from '../core/errors.js';
import { decodeUtf8 } from './text.js';
import { MAX_TEXT_BYTES } from '../core/limits.js';
import { expectOptions, expectString, invalid, isInstance, isObject } from '../core/validate.js';
import { importPeer } from '../core/peer.js';
import { isNode } from '../core/node.js';
import { fileLimits } from './limits.js';
import { checkZip } from './zip.js';
import { checkPdfStreams } from './pdf-limits.js';


/** File formats extractText understands, by extension. */
export const SUPPORTED_FORMATS = Object.freeze({
  txt: 'text', text: 'text', md: 'markdown', markdown: 'markdown', html: 'html', htm: 'html', pdf: 'pdf', docx: 'docx',
});

function formatOf(name, type) {
  const ext = (name.match(/\.([A-Za-z0-9]+)$/) ?? [])[1]?.toLowerCase();
  if (ext && SUPPORTED_FORMATS[ext]) return SUPPORTED_FORMATS[ext];
  if (type === 'application/pdf') return 'pdf';
  if (type === 'text/html') return 'html';
  if (type === 'text/markdown') return 'markdown';
  if (type && type.startsWith('text/')) return 'text';
  return null;
}

async function bytesOf(input) {
  if (typeof Blob !== 'undefined' && isInstance(input, Blob)) return new Uint8Array(await input.arrayBuffer());
  const data = input.data;
  if (isInstance(data, Uint8Array)) return data;
  if (isInstance(data, ArrayBuffer)) return new Uint8Array(data);
  throw invalid('input.data', 'a Uint8Array or ArrayBuffer', data);
}

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', mdash: '\u2014', ndash: '\u2013', hellip: '\u2026', rsquo: '\u2019', lsquo: '\u2018', rdquo: '\u201d', ldquo: '\u201c' };
const BLOCK = /^(p|div|section|article|header|footer|li|ul|ol|h[1-6]|tr|table|br|pre|blockquote|hr|dt|dd|figure|main|nav|aside)$/i;

const RAW_TEXT = new Set(['script', 'style', 'head', 'template', 'noscript']);
const TAG_START = /<(\/?)([A-Za-z][A-Za-z0-9-]*)/y;

/**
 * HTML -> text without a DOM: drops comments and script/style/head/template/noscript elements, block
 * elements become line breaks, table cells spaces, entities are decoded. One left-to-right pass: every
 * search (the end of a tag, comment or raw-text element) either advances past what it found or ends
 * the scan, so time is linear in the input (a 2 MB file of unclosed tags included, issue #33). As in a
 * browser, an unclosed tag, comment or script runs to the end of the text and is dropped (an unclosed <head> only
 * loses its tag: its end tag is optional).
 * @param {string} html
 * @returns {string}
 * @throws {RagwasmError} INVALID_ARGUMENT (not a string)
 */
export function htmlToTextFallback(html) {
  expectString(html, 'html');
  const s = html;
  const n = s.length;
  const out = [];
  const unclosed = new Set();
  let i = 0;
  while (i < n) {
    const lt = s.indexOf('<', i);
    if (lt < 0) {
      out.push(s.slice(i));
      break;
    }
    if (lt > i) out.push(s.slice(i, lt));
    if (s.startsWith('<!--', lt)) {
      const end = s.indexOf('-->', lt + 4);
      if (end < 0) break;
      i = end + 3;
      continue;
    }
    TAG_START.lastIndex = lt;
    const m = TAG_START.exec(s);
    if (!m) {
      if (s[lt + 1] === '!' || s[lt + 1] === '?') {  // <!DOCTYPE ...>, <?xml ...?>
        const end = s.indexOf('>', lt + 2);
        if (end < 0) break;
        i = end + 1;
      } else {
        out.push('<');  // "a < b": text
        i = lt + 1;
      }
      continue;
    }
    const gt = s.indexOf('>', TAG_START.lastIndex);
    if (gt < 0) break;
    i = gt + 1;
    const tag = m[2].toLowerCase();
    if (m[1] === '' && RAW_TEXT.has(tag) && !unclosed.has(tag)) {
      const close = new RegExp(`</${tag}\\s*>`, 'gi');
      close.lastIndex = i;
      const c = close.exec(s);
      if (c) {
        i = c.index + c[0].length;
        continue;
      }
      // No end tag anywhere after this point (so none after any later one either: searched once).
      // An unclosed script/style runs to the end, as in a browser; </head> may be left out in valid HTML.
      if (tag !== 'head') break;
      unclosed.add(tag);
    }
    out.push(BLOCK.test(tag) ? '\n' : tag === 'td' || tag === 'th' ? ' ' : '');
  }
  const text = out.join('').replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e) => {
    if (e[0] === '#') {
      const cp = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : '\ufffd';
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
  return text.split('\n').map((l) => l.replace(/[ \t\u00a0]+/g, ' ').trim()).join('\n').replace(/\n{3,}/g, '\n\n').trim();
}

function htmlToText(html) {
  if (typeof DOMParser === 'undefined') return htmlToTextFallback(html);
  const doc = new DOMParser().parseFromString(html, 'text/html');
  for (const el of doc.querySelectorAll('script, style, template, noscript, [hidden]')) el.remove();
  const out = [];
  const walk = (node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === 3) out.push(child.nodeValue);
      else if (child.nodeType === 1) {
        const block = BLOCK.test(child.tagName);
        if (block) out.push('\n');
        walk(child);
        if (block) out.push('\n');
        else if (/^(td|th)$/i.test(child.tagName)) out.push(' ');
      }
    }
  };
  walk(doc.body ?? doc.documentElement);
  return out.join('').split('\n').map((l) => l.replace(/[ \t\u00a0]+/g, ' ').trim()).join('\n').replace(/\n{3,}/g, '\n\n').trim();
}

async function loadPdfjs(url) {
  if (url) return import(/* @vite-ignore */ /* webpackIgnore: true */ String(url));
  if (isNode) return importPeer(() => import('pdfjs-dist/legacy/build/pdf.mjs'), 'pdfjs-dist', 'ragwasm/parse');
  const mod = await importPeer(() => import('pdfjs-dist'), 'pdfjs-dist', 'ragwasm/parse');
  // No worker URL set by the app: load pdf.js's worker code into this realm (it sets
  // globalThis.pdfjsWorker, which pdf.js then runs in place of a Worker). An app that wants parsing
  // off the main thread sets GlobalWorkerOptions.workerSrc itself (docs/install.md).
  if (!mod.GlobalWorkerOptions.workerSrc && !globalThis.pdfjsWorker) {
    await importPeer(() => import('pdfjs-dist/build/pdf.worker.min.mjs'), 'pdfjs-dist', 'ragwasm/parse');
  }
  return mod;
}

async function pdfToText(bytes, name, pdfjsUrl, limits) {
  await checkPdfStreams(bytes, name, limits);  // before pdf.js inflates a content stream (decompression bombs)
  const pdfjs = await loadPdfjs(pdfjsUrl);
  let doc;
  try {
    // A plain Uint8Array copy: pdf.js refuses a Node Buffer ("provide binary data as Uint8Array"), and
    // Buffer#slice is a view, not a copy (issue #33: every PDF was skipped by `ragwasm ask --docs`).
    const data = new Uint8Array(bytes.length);
    data.set(bytes);
    doc = await pdfjs.getDocument({ data, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
  } catch (e) {
    throw new RagwasmError('PARSE_ERROR', `ragwasm: ${name}: not a readable PDF: ${e.message}`);
  }
  try {
    if (doc.numPages > limits.maxPdfPages) {
      throw new RagwasmError('LIMIT_EXCEEDED', `ragwasm: ${name}: ${doc.numPages} PDF pages, the limit is ${limits.maxPdfPages} (limits.maxPdfPages)`);
    }
    let text = '';
    const pages = [];
    for (let p = 1; p <= doc.numPages; p++) {
      const page = await doc.getPage(p);
      const content = await page.getTextContent();
      page.cleanup();
      if (p > 1) text += '\n\n';
      const start = text.length;
      for (const item of content.items) {
        if (typeof item.str !== 'string') continue;
        text += item.str;
        if (item.hasEOL) text += '\n';
      }
      text = text.replace(/[ \t]+$/, '');
      // UTF-16 units bound UTF-8 bytes from below: more units than the text limit is over it for sure.
      if (text.length > MAX_TEXT_BYTES) {
        throw new RagwasmError('LIMIT_EXCEEDED', `ragwasm: ${name}: the PDF's text passes ${MAX_TEXT_BYTES} characters by page ${p}`);
      }
      pages.push({ page: p, start, end: text.length });
    }
    return { text, pages };
  } catch (e) {
    if (e instanceof RagwasmError) throw e;
    throw new RagwasmError('PARSE_ERROR', `ragwasm: ${name}: not a readable PDF: ${e?.message ?? e}`);
  } finally {
    await doc.destroy();
  }
}

async function docxToText(bytes, name, limits) {
  await checkZip(bytes, name, limits);  // before JSZip inflates anything (zip bombs)
  // Bundlers resolve mammoth's CommonJS build (default export); an import map may point at
  // mammoth.browser.min.js, a script that sets globalThis.mammoth.
  const mod = await importPeer(() => import('mammoth'), 'mammoth', 'ragwasm/parse');
  const mammoth = mod.default?.extractRawText ? mod.default : mod.extractRawText ? mod : globalThis.mammoth;
  try {
    const r = isNode ? await mammoth.extractRawText({ buffer: Buffer.from(bytes) }) : await mammoth.extractRawText({ arrayBuffer: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) });
    return r.value.replace(/\n{3,}/g, '\n\n').trim();
  } catch (e) {
    throw new RagwasmError('PARSE_ERROR', `ragwasm: ${name}: not a readable DOCX: ${e.message}`);
  }
}

/**
 * Extracts plain text from a user's file, locally. Files are untrusted input: a file over
 * limits.maxFileBytes is refused before it is decoded, a DOCX is checked against the decompression
 * limits before it is inflated (a zip bomb is LIMIT_EXCEEDED), a PDF against limits.maxPdfPages and its
 * text streams against limits.maxUnzippedBytes before pdf.js inflates them, and
 * HTML is read in linear time (docs/reliability.md, "Files as untrusted input").
 * @param {File|Blob|{name: string, data: Uint8Array|ArrayBuffer, type?: string}} input
 * @param {{format?: 'text'|'markdown'|'html'|'pdf'|'docx', pdfjsUrl?: string, limits?: Partial<import('./limits.js').FileLimits>}} [options]
 *   format defaults to the file extension (or MIME type); pdfjsUrl overrides where pdf.js is imported
 *   from; limits overrides entries of FILE_LIMITS (maxFileBytes, maxUnzippedBytes, maxZipRatio,
 *   maxZipEntries, maxPdfPages)
 * @returns {Promise<import('./parse.js').ExtractedText>} {name, format, text, pages?}
 *   `pages` (PDF only) gives each page's UTF-16 span of `text`
 * @throws {RagwasmError} INVALID_ARGUMENT (unknown format), LIMIT_EXCEEDED (a limit), PARSE_ERROR
 */
export async function extractText(input, options = {}) {
  const o = expectOptions(options, 'extractText options', ['format', 'pdfjsUrl', 'limits']);
  const limits = fileLimits(o.limits);
  if (!isObject(input)) throw invalid('input', 'a File, Blob or {name, data}', input);
  const name = 'name' in input && typeof input.name === 'string' ? input.name : 'document';
  if (o.format !== undefined) expectString(o.format, 'options.format');
  const format = o.format ?? formatOf(name, input.type);
  if (!format || !Object.values(SUPPORTED_FORMATS).includes(format)) {
    throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${name}: unsupported file type (supported: ${Object.keys(SUPPORTED_FORMATS).map((e) => '.' + e).join(' ')})`);
  }
  const maxBytes = Math.min(limits.maxFileBytes, MAX_TEXT_BYTES);
  if (typeof Blob !== 'undefined' && isInstance(input, Blob) && input.size > maxBytes) {
    throw new RagwasmError('LIMIT_EXCEEDED', `ragwasm: ${name}: ${input.size} bytes, the limit is ${maxBytes} (limits.maxFileBytes)`);
  }
  const bytes = await bytesOf(input);
  if (bytes.length > maxBytes) {
    throw new RagwasmError('LIMIT_EXCEEDED', `ragwasm: ${name}: ${bytes.length} bytes, the limit is ${maxBytes} (limits.maxFileBytes)`);
  }
  if (format === 'pdf') return { name, format, ...(await pdfToText(bytes, name, o.pdfjsUrl, limits)) };
  if (format === 'docx') return { name, format, text: await docxToText(bytes, name, limits) };
  const decoded = decodeUtf8(bytes);
  const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;  // drop a UTF-8 BOM
  if (format === 'html') return { name, format, text: htmlToText(text) };
  return { name, format, text };
}
