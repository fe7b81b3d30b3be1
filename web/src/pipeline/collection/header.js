// @ts-check
// The saved collection's JSON header, written and read in pieces (docs/scale.md, issue #18).
//
// Why not one JSON.stringify / JSON.parse: a 1M-chunk collection's header is ~318 MB (~300 M UTF-16
// units), and V8's longest string is 2^29 - 24 = 536,870,888 units, so a header past ~1.7M chunks
// cannot be one string at all, and below that one string of it held the tab's RSS ~+470 MB (measured
// in docs/scale.md with the million bench). So the writer (headerStream) emits the exact bytes of
// JSON.stringify({config, embedder, docs, zeroVectors?}) in pieces, the save check (parseHeaderPieces)
// parses each piece on its own with JSON.parse, and a header of more than HEADER_SPLIT_BYTES read back
// from bytes goes through parseLargeHeader: a small structural scanner (skipValue) that only finds
// where each top-level value and each element of `docs` ends; every value is still parsed by JSON.parse.
// Headers below HEADER_SPLIT_BYTES (all but the largest) are one JSON.parse. Tested by
// tests/js/pipeline/collection/collection-large-header.test.mjs and collection-save-heap.test.mjs.
// A million chunks make a header of ~300 M characters, and a JS engine's longest string is bounded
// (V8: 2^29 - 24 = 536,870,888 UTF-16 units), so neither toBytes() nor fromBytes() builds the whole
// header as one string: the writer encodes it in pieces of about PIECE_CHARS characters (the bytes are
// exactly those of JSON.stringify({config, embedder, docs, zeroVectors?})), and a header of more than
// HEADER_SPLIT_BYTES bytes is read by parseLargeHeader, which decodes each value of the top-level
// object, and each element of `docs`, on its own.
// 32 Ki characters (<= 64 KB as a two-byte string): each piece's strings (the piece being joined, its
// decoded text, the text parsed) stay below V8's large-object size (128 KB), so they die young; 1 Mi-
// character pieces put ~3 large strings per piece in the large-object space, collected only by a full
// GC: save() at 1M chunks left ~1 GB of them in the tab's RSS (issue #18, docs/scale.md).
const PIECE_CHARS = 1 << 15;
let HEADER_SPLIT_BYTES = 1 << 28;  // 256 MiB: below every engine's string limit (bytes >= UTF-16 units)

/** @internal white-box tests: lower the size from which headers are read in pieces; returns the old one. */
export function setHeaderSplitBytes(n) {
  const old = HEADER_SPLIT_BYTES;
  HEADER_SPLIT_BYTES = n;
  return old;
}

// -> Uint8Array[] whose concatenation is the UTF-8 of JSON.stringify({...header, docs, zeroVectors}).
// The pieces are always [the object up to `"docs":[`, pieces of whole documents (each after the first
// led by the separating comma), `]` and the rest of the object]: parseHeaderPieces reads them so.
// The header's pieces made one at a time, as they are taken (Collection.save(): never all held).
// scratch: each piece is a view into one of two reused buffers, valid until the piece after the next is
// taken (save()'s check, which holds one piece while it takes the next, and save()'s write: storage.js
// copies or writes a piece before it takes the next): a 1M-chunk header is ~318 MB of pieces, as one new
// ArrayBuffer each (backing stores outside the JS heap, freed only at a GC) (issue #18 item 6, docs/scale.md).
// onText(text): called with each piece's text right before its bytes are yielded (save()'s check parses it).
export function* headerStream(header, docs, zeroVectors, scratch = false, onText = null) {
  const enc = new TextEncoder();
  const bufs = [new Uint8Array(0), new Uint8Array(0)];
  let k = 0;
  const encode = (text) => {
    onText?.(text);
    if (!scratch) return enc.encode(text);
    const slot = k++ & 1;
    if (bufs[slot].length < text.length * 3) bufs[slot] = new Uint8Array(Math.max(text.length * 3, 3 * PIECE_CHARS + 4096));
    const { written } = enc.encodeInto(text, bufs[slot]);  // room for 3 bytes per UTF-16 unit: all of it
    return bufs[slot].subarray(0, written);
  };
  yield encode(`${JSON.stringify(header).slice(0, -1)},"docs":[`);
  let cur = '';
  let first = true;
  for (const d of docs.values()) {
    cur += (first ? '' : ',') + JSON.stringify(d.toStored());
    first = false;
    if (cur.length >= PIECE_CHARS) {
      yield encode(cur);
      cur = '';
    }
  }
  if (cur !== '') yield encode(cur);
  cur = ']';
  if (zeroVectors !== undefined) cur += `,"zeroVectors":${JSON.stringify(zeroVectors)}`;
  yield encode(`${cur}}`);
}

// save()'s check of headerStream() output without joining it (a 1M-chunk header is ~318 MB): the
// object without its documents parsed from the first and last pieces, each document piece parsed on
// its own and its documents handed to onDoc(doc, i) in order (not kept: the result's docs is []).
// Every byte is decoded (fatal UTF-8; a piece given as text is taken as is) and parsed, so pieces that would not parse joined are refused.
// `pieces`: an array, or an iterator taken one piece at a time (the last one is known when it ends); a
// piece may be given as its text instead of its bytes (save()'s check: see Collection._save).
export function parseHeaderPieces(pieces, onDoc) {
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  const dec = { decode: (p) => (typeof p === 'string' ? p : utf8.decode(p)) };
  let start = null;
  let held = null;  // the piece before the one being taken: a document piece unless it is the last
  let k = 0;
  let n = 0;
  for (const piece of pieces) {
    if (k === 0) start = dec.decode(piece);
    else if (k > 1) {
      let text = dec.decode(held);
      if (k > 2) {
        if (text[0] !== ',') throw new SyntaxError(`header piece ${k - 1} does not start with a comma`);
        text = text.slice(1);
      }
      for (const d of JSON.parse(`[${text}]`)) onDoc(d, n++);
    }
    held = piece;
    k++;
  }
  if (k < 2) throw new SyntaxError('a header in pieces has at least its start and end');
  return JSON.parse(start + dec.decode(held));
}

export function parseHeaderBytes(bytes) {
  if (bytes.length <= HEADER_SPLIT_BYTES) return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  return parseLargeHeader(bytes);
}

const isSpace = (b) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

// The index just past the JSON value starting at bytes[i] (strings, containers nested to any depth,
// literals and numbers); only the structure is checked here, JSON.parse checks each slice.
function skipValue(bytes, i) {
  const n = bytes.length;
  let depth = 0;
  let inString = false;
  for (let j = i; j < n; j++) {
    const b = bytes[j];
    if (inString) {
      if (b === 0x5c) j++;
      else if (b === 0x22) {
        inString = false;
        if (depth === 0) return j + 1;
      }
    } else if (b === 0x22) inString = true;
    else if (b === 0x7b || b === 0x5b) depth++;
    else if (b === 0x7d || b === 0x5d) {
      depth--;
      if (depth === 0) return j + 1;
      if (depth < 0) return j;  // a literal or number ended by its container
    } else if (depth === 0 && (b === 0x2c || isSpace(b))) return j;
  }
  if (depth === 0 && !inString && n > i) return n;
  throw new SyntaxError('unterminated JSON value');
}

// The header object read value by value (and `docs` element by element): no string longer than one value.
// onDoc(doc, i): when given, each element of `docs` is handed to it as parsed and not kept (docs: []).
export function parseLargeHeader(bytes, onDoc) {
  const dec = new TextDecoder('utf-8', { fatal: true });
  const parse = (a, b) => JSON.parse(dec.decode(bytes.subarray(a, b)));
  const ws = (i) => { while (i < bytes.length && isSpace(bytes[i])) i++; return i; };
  const expect = (i, b) => { if (bytes[i] !== b) throw new SyntaxError(`expected '${String.fromCharCode(b)}' at byte ${i}`); return i + 1; };
  const out = {};
  let i = expect(ws(0), 0x7b);
  i = ws(i);
  if (bytes[i] === 0x7d) i++;
  else {
    for (;;) {
      i = ws(i);
      if (bytes[i] !== 0x22) throw new SyntaxError(`expected a key at byte ${i}`);
      const keyEnd = skipValue(bytes, i);
      const key = parse(i, keyEnd);
      i = ws(expect(ws(keyEnd), 0x3a));
      let value;
      if (key === 'docs' && bytes[i] === 0x5b) {
        value = [];
        i = ws(i + 1);
        if (bytes[i] === 0x5d) i++;
        else {
          for (let n = 0; ; n++) {
            const end = skipValue(bytes, i);
            if (onDoc) onDoc(parse(i, end), n);
            else value.push(parse(i, end));
            i = ws(end);
            if (bytes[i] === 0x5d) { i++; break; }
            i = ws(expect(i, 0x2c));
          }
        }
      } else {
        const end = skipValue(bytes, i);
        value = parse(i, end);
        i = end;
      }
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      i = ws(i);
      if (bytes[i] === 0x7d) { i++; break; }
      i = expect(i, 0x2c);
    }
  }
  if (ws(i) !== bytes.length) throw new SyntaxError('bytes after the header object');
  return out;
}

