// Text extraction from user files, locally: plain text and markdown (UTF-8, repaired), PDF (pdf.js,
// with each page's UTF-16 span so citations can jump to a page), DOCX (mammoth) and HTML (DOMParser,
// or a small tag stripper where no DOM exists, e.g. in Workers and Node). Nothing is uploaded.
import { RagwasmError } from '../core/errors.js';
import { decodeUtf8 } from './text.js';
import { MAX_TEXT_BYTES } from '../core/limits.js';
import { expectOptions, expectString, invalid, isInstance, isObject } from '../core/validate.js';
import { importPeer } from '../core/peer.js';
import { isNode } from '../core/node.js';


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

/** HTML -> text without a DOM: drops script/style/head/template, block elements become line breaks. */
export function htmlToTextFallback(html) {
  expectString(html, 'html');
  const s = html.replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(script|style|head|template|noscript)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<\/?([A-Za-z][A-Za-z0-9-]*)\b[^>]*>/g, (m, tag) => (BLOCK.test(tag) ? '\n' : tag.toLowerCase() === 'td' || tag.toLowerCase() === 'th' ? ' ' : ''))
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e) => {
      if (e[0] === '#') {
        const cp = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : '\ufffd';
      }
      return ENTITIES[e.toLowerCase()] ?? m;
    });
  return s.split('\n').map((l) => l.replace(/[ \t\u00a0]+/g, ' ').trim()).join('\n').replace(/\n{3,}/g, '\n\n').trim();
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

async function pdfToText(bytes, pdfjsUrl) {
  const pdfjs = await loadPdfjs(pdfjsUrl);
  let doc;
  try {
    doc = await pdfjs.getDocument({ data: bytes.slice(), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
  } catch (e) {
    throw new RagwasmError('PARSE_ERROR', `ragwasm: file is not a readable PDF: ${e.message}`);
  }
  let text = '';
  const pages = [];
  for (let p = 1; p <= doc.numPages; p++) {
    const page = await doc.getPage(p);
    const content = await page.getTextContent();
    if (p > 1) text += '\n\n';
    const start = text.length;
    for (const item of content.items) {
      if (typeof item.str !== 'string') continue;
      text += item.str;
      if (item.hasEOL) text += '\n';
    }
    text = text.replace(/[ \t]+$/, '');
    pages.push({ page: p, start, end: text.length });
  }
  await doc.destroy();
  return { text, pages };
}

async function docxToText(bytes) {
  // Bundlers resolve mammoth's CommonJS build (default export); an import map may point at
  // mammoth.browser.min.js, a script that sets globalThis.mammoth.
  const mod = await importPeer(() => import('mammoth'), 'mammoth', 'ragwasm/parse');
  const mammoth = mod.default?.extractRawText ? mod.default : mod.extractRawText ? mod : globalThis.mammoth;
  try {
    const r = isNode ? await mammoth.extractRawText({ buffer: Buffer.from(bytes) }) : await mammoth.extractRawText({ arrayBuffer: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) });
    return r.value.replace(/\n{3,}/g, '\n\n').trim();
  } catch (e) {
    throw new RagwasmError('PARSE_ERROR', `ragwasm: file is not a readable DOCX: ${e.message}`);
  }
}

/**
 * Extracts plain text from a user's file, locally.
 * @param {File|Blob|{name: string, data: Uint8Array|ArrayBuffer, type?: string}} input
 * @param {{format?: 'text'|'markdown'|'html'|'pdf'|'docx', pdfjsUrl?: string}} [options] format
 *   defaults to the file extension (or MIME type); pdfjsUrl overrides where pdf.js is imported from
 * @returns {Promise<{name: string, format: string, text: string, pages?: {page: number, start: number, end: number}[]}>}
 *   `pages` (PDF only) gives each page's UTF-16 span of `text`
 * @throws {RagwasmError} INVALID_ARGUMENT (unknown format), LIMIT_EXCEEDED (> 256 MiB), PARSE_ERROR
 */
export async function extractText(input, options = {}) {
  const o = expectOptions(options, 'extractText options', ['format', 'pdfjsUrl']);
  if (!isObject(input)) throw invalid('input', 'a File, Blob or {name, data}', input);
  const name = typeof input.name === 'string' ? input.name : 'document';
  if (o.format !== undefined) expectString(o.format, 'options.format');
  const format = o.format ?? formatOf(name, input.type);
  if (!format || !Object.values(SUPPORTED_FORMATS).includes(format)) {
    throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${name}: unsupported file type (supported: ${Object.keys(SUPPORTED_FORMATS).map((e) => '.' + e).join(' ')})`);
  }
  const bytes = await bytesOf(input);
  if (bytes.length > MAX_TEXT_BYTES) {
    throw new RagwasmError('LIMIT_EXCEEDED', `ragwasm: ${name}: ${bytes.length} bytes, the limit is ${MAX_TEXT_BYTES}`);
  }
  if (format === 'pdf') return { name, format, ...(await pdfToText(bytes, o.pdfjsUrl)) };
  if (format === 'docx') return { name, format, text: await docxToText(bytes) };
  const decoded = decodeUtf8(bytes);
  const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;  // drop a UTF-8 BOM
  if (format === 'html') return { name, format, text: htmlToText(text) };
  return { name, format, text };
}
