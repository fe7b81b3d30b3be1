// @ts-check
// Chunking: fixed, recursive (LangChain.js-exact), markdown, markdown-header, sentence and semantic
// strategies over a document, with exact UTF-16 offsets, header paths, prev/next ids, a token
// estimate and context enrichment kept apart from the chunk text. The splitting runs in WASM
// (src/chunk); this file validates options, slices chunk texts from the caller's string, calls the
// caller's embedder (semantic) and computes comparison statistics.
import { callWasm, RagwasmError } from '../core/errors.js';
import { encodeText } from '../core/encode.js';
import { createDocument } from '../document/document.js';
import { wasm } from '../core/module.js';
import { splitSentences } from '../document/text.js';
import {
  expectArray, expectBoolean, expectEnum, expectFunction, expectInteger, expectNumber, expectOptions, expectString, invalid, isArray, isInstance, isObject, isPlainObject,
} from '../core/validate.js';

/** Strategy names accepted by `options.strategy`. */
/** @type {readonly import('./chunk.js').ChunkStrategy[]} */
export const CHUNK_STRATEGIES = Object.freeze(['fixed', 'recursive', 'markdown', 'markdown-header', 'sentence', 'semantic']);
/** Length units accepted by `options.unit`. */
/** @type {readonly import('./chunk.js').ChunkUnit[]} */
export const CHUNK_UNITS = Object.freeze(['utf16', 'codepoints', 'bytes', 'tokens']);
/** Breakpoint methods of the semantic strategy. */
/** @type {readonly import('./chunk.js').BreakpointMethod[]} */
export const BREAKPOINT_METHODS = Object.freeze(['percentile', 'standard_deviation', 'interquartile', 'gradient']);

/** LangChain.js RecursiveCharacterTextSplitter's default separators. */
export const DEFAULT_SEPARATORS = Object.freeze(['\n\n', '\n', ' ', '']);
/** LangChain.js getSeparatorsForLanguage('markdown') (MarkdownTextSplitter). */
export const MARKDOWN_SEPARATORS = Object.freeze(['\n## ', '\n### ', '\n#### ', '\n##### ', '\n###### ', '```\n\n',
  '\n\n***\n\n', '\n\n---\n\n', '\n\n___\n\n', '\n\n', '\n', ' ', '']);

const MAX_CHUNK_SIZE = 256 * 1024 * 1024;
/** Most chunks chunkStats() reads (one per UTF-16 unit of the largest text). */
const MAX_CHUNKS = MAX_CHUNK_SIZE;
const COMMON = ['strategy', 'chunkSize', 'context', 'sizeIncludesContext'];
const PER_STRATEGY = {
  fixed: ['chunkOverlap', 'unit', 'lengthFunction'],
  recursive: ['chunkOverlap', 'unit', 'separators', 'keepSeparator', 'strict', 'lengthFunction'],
  markdown: ['chunkOverlap', 'unit', 'separators', 'keepSeparator', 'strict', 'lengthFunction'],
  'markdown-header': ['chunkOverlap', 'unit', 'splitLevels', 'stripHeaders'],
  sentence: ['unit', 'overlapSentences', 'newlineBreaks', 'strict'],
  semantic: ['unit', 'embedder', 'breakpoint', 'breakpointAmount', 'minChunkSize', 'maxChunkSize', 'bufferSize',
    'batchSize', 'newlineBreaks'],
};
const ALL_KEYS = [...new Set([...COMMON, ...Object.values(PER_STRATEGY).flat()])];
const DEFAULT_SIZE = { fixed: 1000, recursive: 1000, markdown: 1000, 'markdown-header': 2000, sentence: 1000, semantic: 0 };
const DEFAULT_OVERLAP = { fixed: 200, recursive: 200, markdown: 200, 'markdown-header': 0 };

/**
 * Validates chunking options and fills in defaults. Exposed for tools that want to check a
 * configuration before running it.
 * @param {object} [options] see `chunk()`
 * @returns {object} normalized options (a new object)
 * @throws {RagwasmError} INVALID_ARGUMENT naming the option (unknown key, option not used by the
 *   strategy, wrong type, NaN, chunkSize <= 0, chunkOverlap >= chunkSize, bad separator type)
 */
export function normalizeChunkOptions(options) {
  const o = expectOptions(options, 'chunk options', ALL_KEYS);
  const strategy = o.strategy === undefined ? 'recursive' : expectEnum(o.strategy, 'options.strategy', CHUNK_STRATEGIES);
  const allowed = new Set([...COMMON, ...PER_STRATEGY[strategy]]);
  for (const k of Object.keys(o)) {
    if (!allowed.has(k)) {
      throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: options.${k}: not used by strategy '${strategy}' (its options: ${[...allowed].join(', ')})`);
    }
  }
  const n = { strategy };
  const unit = o.unit === undefined ? 'utf16' : expectEnum(o.unit, 'options.unit', CHUNK_UNITS);
  if (PER_STRATEGY[strategy].includes('unit')) n.unit = unit;
  if (strategy === 'semantic') {
    n.embedder = semanticEmbedder(o.embedder);
    n.breakpoint = o.breakpoint === undefined ? 'percentile' : expectEnum(o.breakpoint, 'options.breakpoint', BREAKPOINT_METHODS);
    const isPct = n.breakpoint === 'percentile' || n.breakpoint === 'gradient';
    n.breakpointAmount = o.breakpointAmount === undefined ? (isPct ? 95 : n.breakpoint === 'interquartile' ? 1.5 : 3)
      : expectNumber(o.breakpointAmount, 'options.breakpointAmount', isPct ? { min: 0, max: 100 } : { min: 0 });
    n.minChunkSize = o.minChunkSize === undefined ? 0 : expectInteger(o.minChunkSize, 'options.minChunkSize', { min: 0, max: MAX_CHUNK_SIZE });
    n.maxChunkSize = o.maxChunkSize === undefined ? (o.chunkSize ?? 0) : expectInteger(o.maxChunkSize, 'options.maxChunkSize', { min: 0, max: MAX_CHUNK_SIZE });
    if (o.chunkSize !== undefined) {
      expectInteger(o.chunkSize, 'options.chunkSize', { min: 1, max: MAX_CHUNK_SIZE });
      if (o.maxChunkSize !== undefined && o.maxChunkSize !== o.chunkSize) {
        throw new RagwasmError('INVALID_ARGUMENT', 'ragwasm: options.chunkSize: for semantic it is an alias of maxChunkSize; give one of them');
      }
    }
    if (n.maxChunkSize > 0 && n.minChunkSize > n.maxChunkSize) throw invalid('options.minChunkSize', `an integer <= maxChunkSize (${n.maxChunkSize})`, n.minChunkSize);
    n.chunkSize = n.maxChunkSize;
    n.bufferSize = o.bufferSize === undefined ? 1 : expectInteger(o.bufferSize, 'options.bufferSize', { min: 0, max: 64 });
    n.batchSize = o.batchSize === undefined ? 32 : expectInteger(o.batchSize, 'options.batchSize', { min: 1, max: 1 << 20 });
    n.newlineBreaks = o.newlineBreaks === undefined ? false : expectBoolean(o.newlineBreaks, 'options.newlineBreaks');
  } else {
    n.chunkSize = o.chunkSize === undefined ? DEFAULT_SIZE[strategy] : expectInteger(o.chunkSize, 'options.chunkSize', { min: 1, max: MAX_CHUNK_SIZE });
    if (strategy !== 'sentence') {
      n.chunkOverlap = o.chunkOverlap === undefined ? Math.min(DEFAULT_OVERLAP[strategy], Math.floor(n.chunkSize / 5))
        : expectInteger(o.chunkOverlap, 'options.chunkOverlap', { min: 0, max: MAX_CHUNK_SIZE });
      if (n.chunkOverlap >= n.chunkSize) throw invalid('options.chunkOverlap', `an integer < chunkSize (${n.chunkSize})`, n.chunkOverlap);
    }
  }
  if (strategy === 'fixed' && o.lengthFunction !== undefined) {
    n.lengthFunction = expectFunction(o.lengthFunction, 'options.lengthFunction');
    if (o.unit !== undefined) throw new RagwasmError('INVALID_ARGUMENT', 'ragwasm: options.unit: give either unit or lengthFunction, not both');
  }
  if (strategy === 'recursive' || strategy === 'markdown') {
    if (o.separators !== undefined) {
      expectArray(o.separators, 'options.separators', {
        maxLength: 256,
        item: (v, name) => { if (typeof v !== 'string') throw invalid(name, 'a string (RegExp separators are not supported)', v); },
      });
      if (o.separators.length === 0) throw invalid('options.separators', 'a non-empty array of strings', o.separators);
      n.separators = [...o.separators];
    }
    if (o.keepSeparator !== undefined && o.keepSeparator !== true) {
      throw invalid('options.keepSeparator', "true (separators stay at the start of the following chunk; false would make chunks that are not spans of the text)", o.keepSeparator);
    }
    n.strict = o.strict === undefined ? false : expectBoolean(o.strict, 'options.strict');
    if (o.lengthFunction !== undefined) {
      n.lengthFunction = expectFunction(o.lengthFunction, 'options.lengthFunction');
      if (o.unit !== undefined) throw new RagwasmError('INVALID_ARGUMENT', 'ragwasm: options.unit: give either unit or lengthFunction, not both');
    }
  }
  if (strategy === 'markdown-header') {
    n.splitLevels = o.splitLevels === undefined ? 6 : expectInteger(o.splitLevels, 'options.splitLevels', { min: 1, max: 6 });
    n.stripHeaders = o.stripHeaders === undefined ? false : expectBoolean(o.stripHeaders, 'options.stripHeaders');
  }
  if (strategy === 'sentence') {
    n.overlapSentences = o.overlapSentences === undefined ? 0 : expectInteger(o.overlapSentences, 'options.overlapSentences', { min: 0, max: 1 << 20 });
    n.newlineBreaks = o.newlineBreaks === undefined ? false : expectBoolean(o.newlineBreaks, 'options.newlineBreaks');
    n.strict = o.strict === undefined ? false : expectBoolean(o.strict, 'options.strict');
  }
  const bounded = strategy === 'fixed' || strategy === 'markdown-header' ||
    ((strategy === 'recursive' || strategy === 'markdown' || strategy === 'sentence') && n.strict);
  if (bounded && !n.lengthFunction && n.unit === 'bytes' && n.chunkSize < 4) throw invalid('options.chunkSize', "an integer >= 4 with unit 'bytes' (a character can take 4 bytes)", n.chunkSize);
  if (bounded && !n.lengthFunction && n.unit === 'utf16' && n.chunkSize < 2) throw invalid('options.chunkSize', "an integer >= 2 with unit 'utf16' (an astral character takes 2 units)", n.chunkSize);
  n.context = normalizeContext(o.context);
  n.sizeIncludesContext = o.sizeIncludesContext === undefined ? false : expectBoolean(o.sizeIncludesContext, 'options.sizeIncludesContext');
  return n;
}

function normalizeContext(c) {
  if (c === undefined) return null;
  const o = expectOptions(c, 'options.context', ['template', 'summary', 'chunkContexts', 'separator']);
  const n = {};
  if (o.template !== undefined) n.template = expectString(o.template, 'options.context.template', { maxLength: 1 << 16 });
  if (o.summary !== undefined) n.summary = expectString(o.summary, 'options.context.summary', { maxLength: 1 << 20 });
  if (o.chunkContexts !== undefined) {
    if (typeof o.chunkContexts !== 'function') {
      expectArray(o.chunkContexts, 'options.context.chunkContexts', { item: (v, name) => expectString(v, name) });
    }
    n.chunkContexts = o.chunkContexts;
  }
  n.separator = o.separator === undefined ? '\n\n' : expectString(o.separator, 'options.context.separator', { maxLength: 64 });
  return n;
}

/**
 * The document-level context of a document: the template with `{key}` replaced by
 * `document.metadata[key]` and `{summary}` by the caller's summary (missing keys become ''; a line
 * whose placeholders are all missing is dropped). Without a template the summary itself.
 * @param {{metadata?: object}} document
 * @param {{template?: string, summary?: string}} context
 * @returns {string}
 */
export function renderContext(document, context) {
  if (context === undefined || context === null) return '';
  if (!isPlainObject(context)) throw invalid('context', 'a context object {template?, summary?}', context);
  if (context.template !== undefined) expectString(context.template, 'context.template', { maxLength: 1 << 16 });
  if (context.summary !== undefined) expectString(context.summary, 'context.summary', { maxLength: 1 << 20 });
  if (document !== undefined && document !== null && !isPlainObject(document)) throw invalid('document', 'a document {metadata?}', document);
  const meta = (document && document.metadata) || {};
  if (!isPlainObject(meta)) throw invalid('document.metadata', 'a plain object', meta);
  if (context.template === undefined) return context.summary ?? '';
  const lines = context.template.split('\n').map((line) => {
    let placeholders = 0;
    let filled = 0;
    const out = line.replace(/\{([A-Za-z0-9_.-]+)\}/g, (_, key) => {
      placeholders++;
      const v = key === 'summary' ? context.summary : meta[key];
      if (v === undefined || v === null || v === '') return '';
      filled++;
      return String(v);
    });
    return placeholders > 0 && filled === 0 ? null : out;
  });
  return lines.filter((l) => l !== null).join('\n').trim();
}

const encoder = new TextEncoder();

function measureJs(s, unit) {
  switch (unit) {
    case 'utf16': return s.length;
    case 'bytes': return encoder.encode(s).length;
    case 'codepoints': { let n = 0; for (const _ of s) n++; return n; }
    case 'tokens': { const m = s.match(/\S+/g); return m ? m.length : 0; }
    default: return s.length;
  }
}

// ---- Slow path: the recursive splitter with a caller-supplied lengthFunction, in JS. ----
// Same algorithm as src/chunk/recursive.cpp (LangChain.js 1.0 semantics, "" splits into code points).
// JavaScript's \s is exactly the set String.prototype.trim removes.
function trimSpan(text, a, b) {
  while (a < b && /\s/.test(text[a])) a++;
  while (b > a && /\s/.test(text[b - 1])) b--;
  return [a, b];
}

function recursiveJs(text, separators, size, overlap, lengthFn, strict) {
  const out = [];
  const len = (a, b) => {
    const v = lengthFn(text.slice(a, b));
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw invalid('options.lengthFunction result', 'a finite number >= 0', v);
    return v;
  };
  const emit = (a, b) => { const [s, e] = trimSpan(text, a, b); if (s < e) out.push(s, e); };
  const merge = (p, from, to) => {
    let head = from;
    let total = 0;
    for (let i = from; i < to; i++) {
      const l = p[i].len;
      if (total + l > size && i > head) {
        emit(p[head].start, p[i - 1].end);
        while (total > overlap || (total + l > size && total > 0)) { total -= p[head].len; head++; }
      }
      total += l;
    }
    if (head < to) emit(p[head].start, p[to - 1].end);
  };
  const split = (a, b, from) => {
    const n = separators.length;
    let sep = null;
    let byChar = false;
    let hasNext = false;
    let nextFrom = n;
    const sub = text.slice(a, b);
    if (from >= n) byChar = true;
    else {
      let found = false;
      for (let i = from; i < n; i++) {
        const s = separators[i];
        if (s === '') { byChar = true; found = true; break; }
        if (sub.includes(s)) { sep = s; hasNext = true; nextFrom = i + 1; found = true; break; }
      }
      if (!found) sep = separators[n - 1];
    }
    const pieces = [];
    if (byChar) {
      for (let i = a; i < b;) {
        const c = text.charCodeAt(i);
        const w = c >= 0xD800 && c <= 0xDBFF && i + 1 < b && (text.charCodeAt(i + 1) & 0xFC00) === 0xDC00 ? 2 : 1;
        pieces.push({ start: i, end: i + w, len: len(i, i + w) });
        i += w;
      }
    } else {
      let start = a;
      let pos = sub.indexOf(sep, 1);
      while (pos !== -1) {
        pieces.push({ start, end: a + pos, len: len(start, a + pos) });
        start = a + pos;
        pos = sub.indexOf(sep, pos + 1);
      }
      if (start < b) pieces.push({ start, end: b, len: len(start, b) });
    }
    let goodFrom = -1;
    for (let i = 0; i < pieces.length; i++) {
      if (pieces[i].len < size) { if (goodFrom < 0) goodFrom = i; continue; }
      if (goodFrom >= 0) { merge(pieces, goodFrom, i); goodFrom = -1; }
      if (!hasNext) {
        if (strict) emit(pieces[i].start, pieces[i].end); else out.push(pieces[i].start, pieces[i].end);
      } else split(pieces[i].start, pieces[i].end, nextFrom);
    }
    if (goodFrom >= 0) merge(pieces, goodFrom, pieces.length);
  };
  if (text.length > 0) {
    const seps = strict && separators[separators.length - 1] !== '' ? [...separators, ''] : separators;
    separators = seps;
    split(0, text.length, 0);
  }
  return out;
}

// ---- Slow path: fixed windows measured by a caller-supplied lengthFunction (e.g. a tokenizer). ----
// Windows are runs of whole whitespace tokens: the longest run from the current token whose
// lengthFunction(window text) <= size (binary search: assumes the count grows with the window), at
// least one token; the next window starts at the earliest token whose run up to the previous end
// measures <= overlap (at least one token later). A single token over the size is a window alone.
function fixedJs(text, size, overlap, lengthFn) {
  const toks = [];
  for (const m of text.matchAll(/\S+/g)) toks.push(m.index, m.index + m[0].length);
  const n = toks.length / 2;
  const len = (i, j) => {  // tokens [i, j), j > i
    const v = lengthFn(text.slice(toks[2 * i], toks[2 * j - 1]));
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw invalid('options.lengthFunction result', 'a finite number >= 0', v);
    return v;
  };
  const out = [];
  let i = 0;
  while (i < n) {
    let lo = i + 1;
    let hi = n;
    if (len(i, lo) <= size) {
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (len(i, mid) <= size) lo = mid; else hi = mid - 1;
      }
    }
    const j = lo;
    out.push(toks[2 * i], toks[2 * j - 1]);
    if (j >= n) break;
    let a = i + 1;
    let b = j;
    while (a < b) {
      const mid = Math.floor((a + b) / 2);
      if (len(mid, j) <= overlap) b = mid; else a = mid + 1;
    }
    i = a;
  }
  return out;
}

// ---- Native call ----
function nativeOptionsJson(n, chunkSize) {
  const j = { strategy: n.strategy, chunkSize, unit: n.unit };
  if (n.chunkOverlap !== undefined) j.chunkOverlap = n.chunkOverlap;
  if (n.separators) j.separators = n.separators;
  if (n.strict !== undefined) j.strict = n.strict;
  if (n.splitLevels !== undefined) j.splitLevels = n.splitLevels;
  if (n.stripHeaders !== undefined) j.stripHeaders = n.stripHeaders;
  if (n.overlapSentences !== undefined) j.overlapSentences = n.overlapSentences;
  if (n.newlineBreaks !== undefined) j.newlineBreaks = n.newlineBreaks;
  return JSON.stringify(j);
}

function effectiveSize(n, docContext) {
  if (!n.sizeIncludesContext || !docContext || n.chunkSize === 0) return n.chunkSize;
  const used = n.lengthFunction ? n.lengthFunction(docContext + n.context.separator) : measureJs(docContext + n.context.separator, n.unit);
  const left = n.chunkSize - used;
  const minLeft = (n.chunkOverlap ?? 0) + (n.unit === 'bytes' ? 4 : n.unit === 'utf16' ? 2 : 1);
  if (left < minLeft) {
    throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: options.sizeIncludesContext: the document context takes ${used} of chunkSize ${n.chunkSize}, leaving ${left} (< ${minLeft}) for the text; raise chunkSize or shorten the context`);
  }
  return left;
}

/**
 * Raw spans: `{flat, headers}` where flat is [start, end, tokenEstimate, headerIndex + 1] per chunk
 * (UTF-16 offsets). Synchronous strategies only. @internal
 */
function spansSync(text, n, chunkSize, tokens = true) {
  if (n.lengthFunction) {
    const seps = n.separators ?? (n.strategy === 'markdown' ? MARKDOWN_SEPARATORS : DEFAULT_SEPARATORS);
    const pairs = n.strategy === 'fixed' ? fixedJs(text, chunkSize, n.chunkOverlap, n.lengthFunction)
      : recursiveJs(text, seps, chunkSize, n.chunkOverlap, n.lengthFunction, n.strict);
    const flat = new Uint32Array(pairs.length * 2);
    for (let i = 0; i < pairs.length / 2; i++) {
      flat[4 * i] = pairs[2 * i];
      flat[4 * i + 1] = pairs[2 * i + 1];
      if (tokens) flat[4 * i + 2] = estimateTokens(text.slice(pairs[2 * i], pairs[2 * i + 1]));
    }
    return { flat, headers: [] };
  }
  const json = nativeOptionsJson(n, chunkSize);
  if (paths.utf16 && (n.strategy === 'recursive' || n.strategy === 'markdown') && n.unit === 'utf16' && text.length <= DIRECT_MAX_UNITS) {
    return splitNative16(text, json, tokens);
  }
  return splitNative(text, json, tokens);
}

// UTF-16 fast path (recursive / markdown in UTF-16 units, LangChain's default): the string's code
// units are copied as they are into a malloc'd buffer (Node: Buffer.write 'utf16le', a block copy;
// elsewhere a charCodeAt loop) and split there, so there is no UTF-8 encoding and no offset
// conversion. Same results as the UTF-8 path (a lone surrogate is one unit, like the U+FFFD the
// UTF-8 path sees).
const NodeBuffer = typeof globalThis.Buffer === 'function' && typeof globalThis.Buffer.from === 'function' ? globalThis.Buffer : null;
const paths = { utf16: true, nodeBuffer: true };
let heapView = null;
/**
 * Test hook: turn off the UTF-16 path (`utf16: false`: every strategy goes through UTF-8) or Node's
 * Buffer copy (`nodeBuffer: false`: the browser's charCodeAt loop), so tests compare the paths.
 * Returns the previous settings. @internal
 */
export function _setChunkPaths(p) {
  const prev = { ...paths };
  Object.assign(paths, p);
  return prev;
}
function splitNative16(text, json, tokens) {
  const m = wasm();
  const len = text.length;
  const bytes = Math.max(2, len * 2);
  const ptr = m._malloc(bytes) >>> 0;  // unsigned: heap addresses pass 2 GiB (MAXIMUM_MEMORY=4GB)
  if (!ptr) throw new RagwasmError('OUT_OF_MEMORY', `ragwasm: out of memory allocating ${bytes} bytes for document.text`);
  try {
    if (NodeBuffer && paths.nodeBuffer) {
      const heap = m.HEAPU8.buffer;  // one Buffer view of the heap, renewed when memory grows
      if (heapView === null || heapView.buffer !== heap) heapView = NodeBuffer.from(heap);
      heapView.write(text, ptr, len * 2, 'utf16le');
    } else {
      const h = new Uint16Array(m.HEAPU8.buffer, ptr, len);  // malloc aligns to 8; WASM is little-endian
      for (let i = 0; i < len; i++) h[i] = text.charCodeAt(i);
    }
    return callWasm(() => m.chunk_splitAt16(ptr, len, json, tokens));
  } finally {
    m._free(ptr);
  }
}

// Texts up to 16 Mi units are encoded straight into WASM memory (TextEncoder.encodeInto into a
// malloc'd buffer of 3 bytes per unit, freed here after the call); longer ones go through
// encodeText and Embind's copy. Both give the same bytes (a lone surrogate becomes U+FFFD).
const DIRECT_MAX_UNITS = 1 << 24;
function splitNative(text, json, tokens) {
  const m = wasm();
  if (text.length > DIRECT_MAX_UNITS) {
    const bytes = encodeText(text, 'document.text');
    return callWasm(() => m.chunk_split(bytes, json, tokens));
  }
  const cap = Math.max(1, text.length * 3);
  const ptr = m._malloc(cap) >>> 0;  // unsigned: heap addresses pass 2 GiB (MAXIMUM_MEMORY=4GB)
  if (!ptr) throw new RagwasmError('OUT_OF_MEMORY', `ragwasm: out of memory allocating ${cap} bytes for document.text`);
  try {
    const { written } = encoder.encodeInto(text, m.HEAPU8.subarray(ptr, ptr + cap));
    const ascii = written === text.length;  // one byte per unit: every character is ASCII
    return callWasm(() => m.chunk_splitAt(ptr, written, json, tokens, ascii));
  } finally {
    m._free(ptr);
  }
}

/**
 * Token estimate used for every chunk (same formula as the C++ core's estimate_tokens, over UTF-8
 * bytes): word starts + floor((word characters - word starts) / 4) + characters from U+0800 up (CJK,
 * emoji...) + other non-space ASCII characters, where words are runs of ASCII letters/digits and
 * U+0080..U+07FF letters. About ceil(length / 4) per word. An estimate for budgets, not a tokenizer.
 * @param {string} text
 * @returns {number}
 */
export function estimateTokens(text) {
  expectString(text, 'text');
  const bytes = encoder.encode(text);
  let wordChars = 0; let wordStarts = 0; let wide = 0; let other = 0; let prevWord = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    const wchar = (b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7a) || (b >= 0xc2 && b <= 0xdf) ? 1 : 0;
    const wbyte = wchar | (b >= 0x80 && b <= 0xbf ? 1 : 0);
    const space = b === 0x20 || (b >= 0x09 && b <= 0x0d);
    wordChars += wchar;
    if (wchar && !prevWord) wordStarts++;
    if (b >= 0xe0) wide++;
    if (b < 0x80 && !wchar && !space) other++;
    prevWord = wbyte;
  }
  return wordStarts + Math.floor((wordChars - wordStarts) / 4) + wide + other;
}

const HEADER_KEYS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];

function buildChunks(doc, n, flat, headers, docContext) {
  const count = flat.length / 4;
  const out = new Array(count);
  const text = doc.text;
  const ctx = n.context;
  let chunkContexts = null;
  if (ctx && isArray(ctx.chunkContexts)) {
    if (ctx.chunkContexts.length !== count) {
      throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: options.context.chunkContexts: expected ${count} strings (one per chunk), got ${ctx.chunkContexts.length}`);
    }
    chunkContexts = ctx.chunkContexts;
  }
  const sep = ctx ? ctx.separator : '\n\n';
  const headerMeta = headers.map((levels) => {
    const h = {};
    const path = [];
    levels.forEach((v, i) => { if (v) { h[HEADER_KEYS[i]] = v; path.push(v); } });
    return { h, path };
  });
  // Each id string is made once and shared as the neighbours' prevId/nextId; a document without
  // metadata gives each chunk a fresh empty object without copying anything.
  const docId = doc.id;
  const prefix = `${docId}#`;
  const docMeta = doc.metadata;
  const metaEmpty = Object.keys(docMeta).length === 0;
  let prevId = null;
  let id = count > 0 ? `${prefix}0` : null;
  for (let i = 0; i < count; i++) {
    const start = flat[4 * i];
    const end = flat[4 * i + 1];
    const hi = flat[4 * i + 3] - 1;
    const hm = hi >= 0 ? headerMeta[hi] : null;
    const chunkText = text.slice(start, end);
    const nextId = i + 1 < count ? prefix + (i + 1) : null;
    out[i] = {
      id,
      docId,
      ordinal: i,
      text: chunkText,
      start,
      end,
      tokenEstimate: flat[4 * i + 2],
      headerPath: hm ? hm.path : [],
      prevId,
      nextId,
      context: '',
      indexText: chunkText,
      metadata: hm ? { ...docMeta, ...hm.h, path: hm.path.join(' > ') } : metaEmpty ? {} : { ...docMeta },
    };
    prevId = id;
    id = nextId;
  }
  if (ctx) {
    for (let i = 0; i < count; i++) {
      const c = out[i];
      let cc = '';
      if (chunkContexts) cc = chunkContexts[i];
      else if (typeof ctx.chunkContexts === 'function') {
        cc = ctx.chunkContexts(c);
        if (typeof cc !== 'string') throw invalid(`options.context.chunkContexts(${c.id}) result`, 'a string', cc);
      }
      c.context = [docContext, cc].filter(Boolean).join(sep);
      c.indexText = [c.context, c.text].filter(Boolean).join(sep);
    }
  }
  return out;
}

/**
 * Splits a document into chunks (synchronous strategies: fixed, recursive, markdown,
 * markdown-header, sentence; use `chunkAsync` for 'semantic').
 *
 * @example
 * const chunks = chunk({ id: 'aapl', text }, { strategy: 'recursive', chunkSize: 1800, chunkOverlap: 300 });
 * chunks[0].text === text.slice(chunks[0].start, chunks[0].end); // true
 *
 * @param {{id: string, text: string, metadata?: object}} document
 * @param {object} [options]
 * @param {'fixed'|'recursive'|'markdown'|'markdown-header'|'sentence'|'semantic'} [options.strategy='recursive']
 * @param {number} [options.chunkSize] max chunk length in `unit` (fixed/recursive/markdown/sentence 1000,
 *   markdown-header 2000); recursive/markdown in parity mode follow LangChain.js (see docs/chunk.md)
 * @param {number} [options.chunkOverlap] in `unit`, < chunkSize (default min(200, chunkSize/5);
 *   markdown-header 0, used when an oversize block is sub-split)
 * @param {'utf16'|'codepoints'|'bytes'|'tokens'} [options.unit='utf16'] length unit (tokens = whitespace tokens)
 * @param {string[]} [options.separators] recursive/markdown separators (default LangChain.js's)
 * @param {true} [options.keepSeparator=true] only true is supported
 * @param {boolean} [options.strict=false] recursive/markdown/sentence: every chunk <= chunkSize (sentence:
 *   an over-long sentence is cut by strict recursive splitting; see docs)
 * @param {(text: string) => number} [options.lengthFunction] recursive/markdown/fixed: the caller's
 *   synchronous length (e.g. a tokenizer's count); runs a JS path. For fixed, windows are runs of whole
 *   whitespace tokens (see docs/chunk.md)
 * @param {number} [options.splitLevels=6] markdown-header: h1..hN start sections
 * @param {boolean} [options.stripHeaders=false] markdown-header: chunk text excludes header lines
 * @param {number} [options.overlapSentences=0] sentence: sentences repeated in the next chunk
 * @param {boolean} [options.newlineBreaks=false] sentence/semantic: every line break ends a sentence
 * @param {{template?: string, summary?: string, chunkContexts?: string[]|((chunk) => string), separator?: string}} [options.context]
 *   context enrichment: `context` = rendered template/summary + per-chunk context, `indexText` =
 *   context + separator + text (separator default '\n\n')
 * @param {boolean} [options.sizeIncludesContext=false] chunkSize also counts the document-level
 *   context (+ separator); per-chunk contexts are never counted
 * @returns {Array<object>} chunks: {id, docId, ordinal, text, start, end, tokenEstimate, headerPath,
 *   prevId, nextId, context, indexText, metadata}
 * @throws {RagwasmError} INVALID_ARGUMENT naming the option or document field; LIMIT_EXCEEDED
 */
export function chunk(document, options) {
  const doc = createDocument(document);
  const n = normalizeChunkOptions(options);
  if (n.strategy === 'semantic') {
    throw new RagwasmError('INVALID_ARGUMENT', "ragwasm: options.strategy: 'semantic' calls an async embedder; use chunkAsync()");
  }
  const docContext = renderContext(doc, n.context);
  const size = effectiveSize(n, docContext);
  const r = spansSync(doc.text, n, size);
  return buildChunks(doc, n, r.flat, r.headers, docContext);
}

/**
 * Chunk texts only (the shape of LangChain.js `splitText`): the fastest path, no chunk objects.
 * @param {string} text
 * @param {object} [options] as `chunk()` without context options; not 'semantic'
 * @returns {string[]}
 */
export function chunkTexts(text, options) {
  const n = normalizeChunkOptions(options);
  if (n.strategy === 'semantic') throw new RagwasmError('INVALID_ARGUMENT', "ragwasm: options.strategy: 'semantic' needs chunkAsync()");
  expectString(text, 'text');
  const { flat } = spansSync(text, n, n.chunkSize, false);
  const out = new Array(flat.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = text.slice(flat[4 * i], flat[4 * i + 1]);
  return out;
}

// The semantic chunker's embedder: the embedder contract (docs/api.md: an object with
// embed(texts, {kind}) — StaticEmbedder, OnnxEmbedder, asEmbedder() output) or a plain async function
// (texts, {kind}) => vectors. Sentence groups are passages, so they are embedded with kind 'document'.
function semanticEmbedder(value) {
  if (typeof value === 'function') return (texts) => value(texts, { kind: 'document' });
  if (value !== null && typeof value === 'object') {
    if (typeof value.embed === 'function') return (texts) => value.embed(texts, { kind: 'document' });
    if (typeof value.embedSync === 'function') return async (texts) => value.embedSync(texts, { kind: 'document' });
  }
  throw invalid('options.embedder', 'an embedder ({embed(texts, {kind})}, a StaticEmbedder or OnnxEmbedder) or an async function texts => vectors', value);
}

async function embedAll(texts, embedder, batchSize) {
  const rows = [];
  let dim = -1;
  for (let i = 0; i < texts.length; i += batchSize) {
    const batch = texts.slice(i, i + batchSize);
    const got = await embedder(batch);
    if (!isArray(got) || got.length !== batch.length) {
      throw invalid('options.embedder result', `an array of ${batch.length} vectors`, got);
    }
    for (const v of got) {
      if (!(isArray(v) || isInstance(v, Float32Array) || isInstance(v, Float64Array))) throw invalid('options.embedder result item', 'an array or Float32Array', v);
      if (dim < 0) dim = v.length;
      if (v.length !== dim || dim === 0) {
        throw new RagwasmError('DIMENSION_MISMATCH', `ragwasm: options.embedder: vectors have ${v.length} values, the first had ${dim}`);
      }
      rows.push(v);
    }
  }
  const flat = new Float32Array(rows.length * Math.max(dim, 0));
  rows.forEach((v, i) => flat.set(v, i * dim));
  for (let i = 0; i < flat.length; i++) {
    if (!Number.isFinite(flat[i])) throw invalid('options.embedder result', 'finite numbers', flat[i]);
  }
  return { flat, dim };
}

/**
 * Semantic spans: sentences, sentence groups of ±bufferSize neighbours embedded by the caller,
 * cosine distances between neighbours, breakpoints above the method's threshold. @internal
 */
async function semanticSpans(text, n) {
  const sentences = splitSentences(text, { newlineBreaks: n.newlineBreaks });
  if (sentences.length === 0) return { flat: new Uint32Array(0), headers: [], distances: new Float64Array(0), threshold: 0 };
  const groups = sentences.map((_, i) => {
    const a = Math.max(0, i - n.bufferSize);
    const b = Math.min(sentences.length - 1, i + n.bufferSize);
    return text.slice(sentences[a].start, sentences[b].end);
  });
  const { flat: emb, dim } = await embedAll(groups, n.embedder, n.batchSize);
  const spans = new Uint32Array(sentences.length * 2);
  sentences.forEach((s, i) => { spans[2 * i] = s.start; spans[2 * i + 1] = s.end; });
  const bytes = encodeText(text, 'document.text');
  const m = wasm();
  const method = BREAKPOINT_METHODS.indexOf(n.breakpoint);
  const r = callWasm(() => m.chunk_semantic(bytes, spans, emb, dim, method, n.breakpointAmount, n.minChunkSize, n.chunkSize, n.unit));
  return { flat: r.flat, headers: [], distances: r.distances, threshold: r.threshold };
}

/**
 * Like `chunk()`, for every strategy including 'semantic' (which awaits `options.embedder`).
 * Semantic options: embedder (required): an embedder ({dimension, id, embed(texts, {kind})}, e.g. a
 * StaticEmbedder or OnnxEmbedder) or a function (texts: string[], {kind}) => Promise<number[][] | Float32Array[]>;
 * sentence groups are embedded with kind 'document',
 * breakpoint ('percentile' | 'standard_deviation' | 'interquartile' | 'gradient', default
 * 'percentile'), breakpointAmount (95 for percentile/gradient, 3 for standard_deviation, 1.5 for
 * interquartile), minChunkSize (0), maxChunkSize (= chunkSize, 0 = unlimited), bufferSize (1
 * sentence each side), batchSize (32 texts per embedder call).
 * @param {{id: string, text: string, metadata?: object}} document
 * @param {object} [options]
 * @returns {Promise<Array<object>>}
 * @throws {RagwasmError} as chunk(); DIMENSION_MISMATCH when embeddings differ in length
 */
export async function chunkAsync(document, options) {
  const doc = createDocument(document);
  const n = normalizeChunkOptions(options);
  const docContext = renderContext(doc, n.context);
  const size = effectiveSize(n, docContext);
  if (n.strategy !== 'semantic') {
    const r = spansSync(doc.text, n, size);
    return buildChunks(doc, n, r.flat, r.headers, docContext);
  }
  const r = await semanticSpans(doc.text, { ...n, chunkSize: size });
  const chunks = buildChunks(doc, n, r.flat, r.headers, docContext);
  Object.defineProperty(chunks, 'semantic', { value: { distances: r.distances, threshold: r.threshold }, enumerable: false });
  return chunks;
}

/**
 * Header lines of a markdown text (ATX and setext, not inside fenced code).
 * @param {string} text
 * @returns {Array<{start: number, end: number, level: number, text: string}>} UTF-16 offsets of the line(s)
 */
export function markdownHeaders(text) {
  const bytes = encodeText(text, 'text');
  const m = wasm();
  const flat = callWasm(() => m.chunk_headers(bytes));
  const out = [];
  for (let i = 0; i < flat.length; i += 3) out.push({ start: flat[i], end: flat[i + 1], level: flat[i + 2], text: text.slice(flat[i], flat[i + 1]).trim() });
  return out;
}

const HISTOGRAM_EDGES = [0, 128, 256, 512, 1024, 2048, 4096, 8192, Infinity];

/**
 * Statistics of one chunking of a text (all lengths in UTF-16 units).
 * @param {string} text
 * @param {Array<{start: number, end: number}>} chunks
 * @param {{sentenceEnds?: Set<number>, headerStarts?: Set<number>}} [marks]
 */
export function chunkStats(text, chunks, marks = {}) {
  expectString(text, 'text');
  chunks = expectArray(chunks, 'chunks', { maxLength: MAX_CHUNKS, item: (c, n) => {
    if (!isObject(c)) throw invalid(n, 'a chunk {start, end}', c);
    const start = expectInteger(c.start, `${n}.start`, { min: 0, max: text.length });
    expectInteger(c.end, `${n}.end`, { min: start, max: text.length });
  } });
  const m = expectOptions(marks, 'marks', ['sentenceEnds', 'headerStarts']);
  for (const k of ['sentenceEnds', 'headerStarts']) {
    if (m[k] !== undefined && !(isInstance(m[k], Set))) throw invalid(`marks.${k}`, 'a Set of offsets', m[k]);
  }
  marks = m;
  const sizes = chunks.map((c) => c.end - c.start);
  const count = sizes.length;
  let total = 0;
  let minSize = count ? Infinity : 0;
  let maxSize = 0;
  for (const s of sizes) {
    total += s;
    if (s < minSize) minSize = s;
    if (s > maxSize) maxSize = s;
  }
  let overlap = 0;
  let covered = 0;
  let reach = 0;
  for (let i = 0; i < count; i++) {
    const c = chunks[i];
    if (i > 0) overlap += Math.max(0, chunks[i - 1].end - c.start);
    const s = Math.max(reach, c.start);
    if (c.end > s) covered += c.end - s;
    reach = Math.max(reach, c.end);
  }
  const histogram = HISTOGRAM_EDGES.slice(0, -1).map((lo, i) => ({
    // The last bucket is open: max null (never Infinity in a result).
    min: lo, max: Number.isFinite(HISTOGRAM_EDGES[i + 1]) ? HISTOGRAM_EDGES[i + 1] : null, count: sizes.filter((s) => s >= lo && s < HISTOGRAM_EDGES[i + 1]).length,
  }));
  const share = (pred) => (count === 0 ? 0 : chunks.filter(pred).length / count);
  return {
    count,
    meanSize: count ? total / count : 0,
    minSize,
    maxSize,
    histogram,
    /** overlapping units between consecutive chunks / total chunk units */
    overlapRatio: total ? overlap / total : 0,
    /** share of the text (UTF-16 units) inside at least one chunk */
    coverage: text.length ? covered / text.length : 0,
    /** share of chunks whose end is a sentence end */
    sentenceEndShare: marks.sentenceEnds ? share((c) => marks.sentenceEnds.has(c.end)) : null,
    /** share of chunks whose start is a markdown header line start */
    headerStartShare: marks.headerStarts ? share((c) => marks.headerStarts.has(c.start)) : null,
  };
}

/**
 * Runs several chunking configurations on one document and returns each one's chunks and stats
 * (count, size histogram, mean/min/max, overlap ratio, coverage, share of chunk ends on sentence
 * ends and of chunk starts on headers).
 * @param {{id: string, text: string, metadata?: object}} document
 * @param {object[]} optionsList one options object per configuration (as `chunkAsync`)
 * @returns {Promise<Array<{options: object, chunks: object[], stats: object}>>}
 * @throws {RagwasmError} INVALID_ARGUMENT naming `optionsList[i]...`
 */
export async function compareChunkings(document, optionsList) {
  const doc = createDocument(document);
  expectArray(optionsList, 'optionsList', { maxLength: 64 });
  optionsList.forEach((o, i) => {
    try {
      normalizeChunkOptions(o);
    } catch (e) {
      if (e instanceof RagwasmError) throw new RagwasmError(e.code, e.message.replace('ragwasm: ', `ragwasm: optionsList[${i}]: `));
      throw e;
    }
  });
  const sentenceEnds = new Set(splitSentences(doc.text).map((s) => s.end));
  const headerStarts = new Set(markdownHeaders(doc.text).map((h) => h.start));
  const out = [];
  for (const options of optionsList) {
    const chunks = await chunkAsync(doc, options);
    out.push({ options, chunks, stats: chunkStats(doc.text, chunks, { sentenceEnds, headerStarts }) });
  }
  return out;
}

