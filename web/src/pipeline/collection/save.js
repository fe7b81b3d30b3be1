// @ts-check
// Collection.save() in one thread: the saved bytes checked as fromBytes checks them, then written in
// pieces, never joined into one buffer (issue #18, docs/scale.md). Sharded legs save through
// toBytes() (legs.js).
import { RagwasmError } from '../../core/errors.js';
import { crc32 } from '../../core/checksum.js';
import { savePieces } from '../../core/storage.js';
import { COLLECTION_FORMAT_VERSION, checkSavedSections, collectionStream } from './saved.js';

/**
 * Saves a collection whose legs are in this thread under `name` (storage.js). All of it up to the
 * write runs without an await: the collection cannot change in between; a change during the write
 * (a remove(), or an index changed directly) abandons it with ABORTED and keeps the stored copy.
 * @param {import('./collection.js').Collection} col
 * @param {string} name
 * @param {object} [opts] storage options
 * @param {{step?: (label: string) => void}|null} [observer] called at each sub-step ("start", "header checked",
 *   "dense made (<n> B)", "dense checked", "bm25 made (<n> B)", "bm25 checked", "checked", "header written",
 *   "bm25 made again", "bm25 written", "dense made again", "dense written", "stored"): tests and the
 *   million bench time them against the WASM heap and the tab's RSS (docs/scale.md); Collection.save() passes none
 * @returns {Promise<void>}
 */
export async function saveStreaming(col, name, opts, observer = null) {
  const o = { keepVectors: false };
  if (col.embedder) o.embedder = col.embedder;
  // The bytes of toBytes(), never joined into one buffer: the sections are checked, then written in
  // turn between the container's framing (a 1M-chunk collection is ~0.5 GB: one more copy of it, and
  // the browser's copy of one big write, were most of the tab's RSS during a save; docs/scale.md).
  // The header (~318 MB at 1M chunks) is never held whole: it is made twice, piece by piece, each
  // piece dropped once used: for the check (parseHeaderPieces), which records each piece's length
  // and CRC-32, then for the write, where every piece must match its record (and no add/remove may
  // have happened since: this.revision), or the write is abandoned and the stored copy kept.
  // The index sections (~227 MB at 1M chunks) are made by the index's writer into the WASM heap
  // (HeapBytes), one at a time: for the check (the vector section first, then the BM25 section in the
  // space it freed), each checked in place, its length and XXH64 recorded, then freed; and again when
  // its turn to be written comes, where its length and XXH64 must equal the checked ones (else ABORTED,
  // as for the header), copied out one piece at a time, freed. The WASM heap never shrinks: holding
  // both at once grew it by their sum (issue #18 item 6, docs/scale.md). All of it up to the write
  // runs without an await: same state.
  const step = observer?.step ?? null;
  const none = new Uint8Array(0);
  const revision = col.revision;
  const aborted = () => new RagwasmError('ABORTED', 'ragwasm: save: the collection changed while it was being written (a remove() ran '
    + 'during save(), or its documents were changed directly); the stored copy was not replaced: save again');
  // The check parses each header piece's text, the string its bytes were encoded from, instead of
  // decoding the bytes again: the text is JSON.stringify output (well-formed UTF-16: lone surrogates
  // come out escaped), which TextEncoder encodes exactly, so decoding the bytes gives that same
  // string. Blink's TextDecoder strings of a 1M-chunk header (~318 MB) stayed in the tab's RSS until a
  // full GC, ~+470 MB before the index sections were made (issue #18 item 6, docs/scale.md).
  const made = [];  // [length, CRC-32] of each header piece, as checked
  let text = null;
  const recorded = (function* record(pieces) {
    for (const p of pieces) {
      made.push([p.length, crc32(p)]);
      yield text;
    }
  })(col._headerStream(true, (t) => { text = t; }));
  const held = [null, null, null];  // the HeapBytes of section 1 (BM25), 2 (vector) while made
  const sums = [null, null, null];  // [length, XXH64] of each index section, as checked
  const names = [null, 'bm25', 'dense'];
  const indexOf = (i) => (i === 1 ? col.bm25 : col.dense);
  const checked = (i) => (indexOf(i) ? (use) => {
    const hb = (held[i] = indexOf(i)._heapBytes());
    step?.(`${names[i]} made (${hb.length} B)`);
    try {
      use(hb);
      sums[i] = [hb.length, hb.hash()];
      step?.(`${names[i]} checked`);
    } finally {
      held[i] = null;
      hb.dispose();
    }
  } : none);
    const write = (i) => (indexOf(i) ? { length: sums[i][0], pieces: (function* remade() {
    col._alive();
    const hb = held[i] ?? (held[i] = indexOf(i)._heapBytes());
    try {
      step?.(`${names[i]} made again`);
      if (col.revision !== revision || hb.length !== sums[i][0] || hb.hash() !== sums[i][1]) throw aborted();
      yield* hb.pieces();
      step?.(`${names[i]} written`);
    } finally {
      held[i] = null;
      hb.dispose();  // already done when its pieces were all taken
    }
  })() } : null);
  try {
    step?.('start');
    checkSavedSections(COLLECTION_FORMAT_VERSION, [recorded, checked(1), checked(2)], o, step);
    step?.('checked');
    col._alive();
    const again = (function* replay(pieces) {
      let k = 0;
      for (const p of pieces) {
        col._alive();
        if (col.revision !== revision || k >= made.length || p.length !== made[k][0] || crc32(p) !== made[k][1]) break;
        k++;
        yield p;
      }
      if (k !== made.length) throw aborted();
      step?.('header written');
    })(col._headerStream(true));  // into two reused buffers: storage.js copies or writes each piece before taking the next
    const length = made.reduce((n, [len]) => n + len, 0);
    const stream = collectionStream([again, length], write(1), write(2));
    await savePieces(name, stream, opts);
    step?.('stored');
  } finally {
    for (const hb of held) hb?.dispose();  // a write abandoned
  }
}
