// @ts-check
// How a Collection keeps its documents and chunks in JS (issue #18 item 6: a million chunks in a tab).
// A chunk's text is a slice of its document's text, so a document keeps that text once (the part its
// chunks cover) and its chunks as start/end numbers; the chunk objects that search, `collection.chunks`
// and `doc.chunks` hand out are made on demand, with the fields and values the stored objects had:
// `{id: docId#ordinal, docId, ordinal, text, start, end, indexText?}`. One chunk object plus its id
// string, its Map entry and the per-document array cost more JS heap than the text itself.
// Internal to web/src/pipeline/collection.js (not exported by an entry).

/** A document of a Collection: `metadata`, `length`, `title?`, `fields?`, and `chunks` made on demand. */
export class DocRecord {
  /**
   * @param {string} id
   * @param {{metadata: object, length: number, title?: string, fields?: object}} record
   * @param {object[]} chunks stored chunk objects `{id, docId, ordinal, text, start, end, indexText?}` in order
   * @param {{loaded?: boolean, text?: string}} [options] `text` the document's text when at hand; `loaded`
   *   records that the document came from saved bytes (its header keys are written again in that order)
   */
  constructor(id, record, chunks, { loaded = false, text } = {}) {
    this.metadata = record.metadata;
    this.length = record.length;
    if (record.title !== undefined) this.title = record.title;
    if (record.fields !== undefined) this.fields = record.fields;
    this._id = id;
    this._loaded = loaded;
    this._base = 0;
    this._text = '';
    /** @type {null|1|number[]} */
    this._spans = null;  // null (no chunks), 1 (one chunk: [base, base + text length)) or [start, end, ...]
    this._more = null;  // {texts?, indexTexts?} what the spans cannot give, or {objects}: the chunks as objects
    this._store(chunks, text);
  }

  _store(chunks, docText) {
    const n = chunks.length;
    if (n === 0) return;
    // Chunks that do not follow docId#ordinal (none are made that way) are kept as objects.
    for (let j = 0; j < n; j++) {
      const c = chunks[j];
      if (c.ordinal !== j || c.docId !== this._id || c.id !== `${this._id}#${j}`) {
        this._more = { objects: chunks };
        return;
      }
    }
    let base = Infinity;
    let end = 0;
    const spans = new Array(2 * n);
    for (let j = 0; j < n; j++) {
      spans[2 * j] = chunks[j].start;
      spans[2 * j + 1] = chunks[j].end;
      if (chunks[j].start < base) base = chunks[j].start;
      if (chunks[j].end > end) end = chunks[j].end;
    }
    let text = typeof docText === 'string' && end <= docText.length ? docText.slice(base, end) : cover(chunks, base);
    if (text !== null) {
      for (const c of chunks) {
        if (text.slice(c.start - base, c.end - base) !== c.text) { text = null; break; }
      }
    }
    this._base = base;
    if (text === null) this._more = { texts: chunks.map((c) => c.text) };
    else this._text = text;
    // one chunk over its text (the common case): its span is [base, base + text length), no array
    this._spans = n === 1 && text !== null ? 1 : spans;
    if (chunks.some((c) => c.indexText !== undefined)) {
      this._more ??= {};
      this._more.indexTexts = chunks.map((c) => c.indexText);
    }
  }

  /** Number of chunks. */
  get chunkCount() {
    if (this._more?.objects) return this._more.objects.length;
    return this._spans === null ? 0 : this._spans === 1 ? 1 : this._spans.length / 2;
  }

  /** Chunk `j` (0 <= j < chunkCount): a new object, or the pinned one (see `chunks`). */
  chunk(j) {
    if (this._more?.objects) return this._more.objects[j];
    const one = this._spans === 1;
    const start = one ? this._base : this._spans[2 * j];
    const end = one ? this._base + this._text.length : this._spans[2 * j + 1];
    const text = this._more?.texts ? this._more.texts[j] : this._text.slice(start - this._base, end - this._base);
    const c = { id: `${this._id}#${j}`, docId: this._id, ordinal: j, text, start, end };
    const it = this._more?.indexTexts?.[j];
    if (it !== undefined) c.indexText = it;
    return c;
  }

  /** The chunks in order (new objects unless pinned); the library's own code reads them this way. */
  chunkList() {
    const n = this.chunkCount;
    const out = new Array(n);
    for (let j = 0; j < n; j++) out[j] = this.chunk(j);
    return out;
  }

  /**
   * The chunks in order as objects that stay (pinned): what `doc.chunks` always gave, so a caller that
   * changes one (a white-box test does) changes what this collection holds, saves and returns. Pins
   * this document's chunks as objects; chunkList() does not.
   */
  get chunks() {
    if (!this._more?.objects) this._more = { objects: this.chunkList() };
    return this._more.objects;
  }

  /** The saved header's object of this document, keys in the order the collection always wrote them. */
  toStored() {
    const o = { id: this._id, metadata: this.metadata, length: this.length };
    if (this._loaded) {
      o.chunks = this.chunkList();
      if (this.title !== undefined) o.title = this.title;
      if (this.fields !== undefined) o.fields = this.fields;
    } else {
      if (this.title !== undefined) o.title = this.title;
      if (this.fields !== undefined) o.fields = this.fields;
      o.chunks = this.chunkList();
    }
    return o;
  }
}

// The document text over [base, last end) rebuilt from chunks in start order (a loaded document: the
// saved header holds only chunk texts); gaps no chunk covers are spaces nothing reads. null when the
// starts are not in order (the caller then keeps every chunk text).
function cover(chunks, base) {
  const parts = [];
  let pos = base;
  let last = base;
  for (const c of chunks) {
    if (c.start < last) return null;
    last = c.start;
    if (c.start > pos) {
      parts.push(' '.repeat(c.start - pos));
      pos = c.start;
    }
    if (c.end > pos) {
      parts.push(c.text.slice(pos - c.start));
      pos = c.end;
    }
  }
  return parts.length === 1 ? parts[0] : parts.join('');
}

/**
 * The chunks of a Collection by id, read-only and Map-like (`size`, `get`, `has`, `keys`, `values`,
 * `entries`, `forEach`, iteration in document order): each chunk is made from its DocRecord when asked.
 */
export class ChunkMap {
  /** @param {Map<string, DocRecord>} docs */
  constructor(docs) {
    this._docs = docs;
    this._size = 0;
    for (const d of docs.values()) this._size += d.chunkCount;
  }

  /** The record's chunks joined (call after docs.set). */
  added(record) { this._size += record.chunkCount; }

  /** The record's chunks left (call after docs.delete). */
  removed(record) { this._size -= record.chunkCount; }

  get size() { return this._size; }

  /**
   * [record, ordinal] of a chunk id `docId#ordinal`, or null
   * @param {string} id
   * @returns {[DocRecord, number]|null}
   */
  _locate(id) {
    if (typeof id !== 'string') return null;
    const k = id.lastIndexOf('#');
    if (k < 0) return null;
    const rec = this._docs.get(id.slice(0, k));
    if (rec === undefined) return null;
    const tail = id.slice(k + 1);
    const j = Number(tail);
    if (!Number.isInteger(j) || j < 0 || j >= rec.chunkCount || String(j) !== tail) return null;
    if (rec._more?.objects && rec._more.objects[j].id !== id) return null;  // unpinned objects follow docId#ordinal
    return [rec, j];
  }

  has(id) { return this._locate(id) !== null; }

  get(id) {
    const l = this._locate(id);
    return l === null ? undefined : l[0].chunk(l[1]);
  }

  * values() {
    for (const d of this._docs.values()) {
      const n = d.chunkCount;
      for (let j = 0; j < n; j++) yield d.chunk(j);
    }
  }

  * keys() {
    // ids without making the chunk objects (pinned objects keep their own ids)
    for (const d of this._docs.values()) {
      if (d._more?.objects) {
        for (const c of d._more.objects) yield c.id;
        continue;
      }
      const n = d.chunkCount;
      for (let j = 0; j < n; j++) yield `${d._id}#${j}`;
    }
  }

  * entries() {
    for (const c of this.values()) yield [c.id, c];
  }

  [Symbol.iterator]() { return this.entries(); }

  forEach(fn, thisArg) {
    for (const [id, c] of this.entries()) fn.call(thisArg, c, id, this);
  }
}
