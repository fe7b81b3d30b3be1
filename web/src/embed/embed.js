// @ts-check
// Embeddings: the WordPiece tokenizer (C++) and the static default model (GloVe 100-d + SIF, C++).
// The ONNX embedder is in onnx-embedder.js (reached only through the `ragwasm/onnx` entry).
import { RagwasmError, callWasm } from '../core/errors.js';
import { Handle } from '../core/handle.js';
import { MAX_TEXT_BYTES } from '../core/limits.js';
import { wasm } from '../core/module.js';
import { sourceBytes } from '../core/source-bytes.js';
import { importPeer } from '../core/peer.js';
import { crc32 } from '../core/checksum.js';
import { loadNamed } from '../core/storage.js';
import {
  expectArray, expectBoolean, expectEnum, expectFunction, expectInteger, expectJsonValue, expectOptions, expectString, invalid, isArray, isInstance, isPlainObject,
} from '../core/validate.js';

const encoder = new TextEncoder();
export const MAX_BATCH_TEXTS = 1 << 20;

/**
 * Packs texts into one UTF-8 buffer plus n+1 byte offsets (the form the WASM side reads).
 * @internal
 */
export function packTexts(texts, name = 'texts') {
  expectArray(texts, name, { maxLength: MAX_BATCH_TEXTS });
  if (texts.length === 0) throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${name}: expected at least one text, got an empty array`);
  for (let i = 0; i < texts.length; i++) {
    const t = texts[i];
    if (typeof t !== 'string') throw invalid(`${name}[${i}]`, 'a string', t);
  }
  return packTextParts(texts, 1, name);
}

/**
 * As packTexts, for texts given in parts: text i is parts[i*k .. i*k+k-1] joined by one space, a part
 * that is null or undefined left out (so ['a', 'b'] packs as 'a b', [null, 'b'] as 'b'); the bytes equal
 * packTexts of the joined strings, without making them (createParallelEmbedder's embedDocuments).
 * Parts are strings, null or undefined (checked by the caller).
 * @internal
 */
export function packTextParts(parts, k, name = 'texts') {
  let units = 0;
  for (let i = 0; i < parts.length; i++) if (parts[i] != null) units += parts[i].length + 1;
  // one buffer of at most 3 UTF-8 bytes per UTF-16 unit, written by encodeInto (no per-text array
  // and copy); the bytes equal TextEncoder.encode's (lone surrogates become U+FFFD: a space between
  // two parts keeps a surrogate at a part's edge lone, as in the joined string)
  const cap = Math.min(units * 3, MAX_TEXT_BYTES + 3 * 65536);
  const buffer = new Uint8Array(cap);
  const n = parts.length / k;
  const offsets = new Uint32Array(n + 1);
  let total = 0;
  for (let i = 0; i < n; i++) {
    let first = true;
    for (let j = i * k; j < i * k + k; j++) {
      const t = parts[j];
      if (t == null) continue;
      if (!first) {
        if (total < cap) buffer[total] = 0x20;
        total += 1;
      }
      first = false;
      let written = 0;
      if (cap - total >= t.length * 3) written = encoder.encodeInto(t, buffer.subarray(total)).written;
      else {
        const b = encoder.encode(t);  // near the limit: measure before copying
        if (total + b.length <= cap) buffer.set(b, total);
        written = b.length;
      }
      total += written;
    }
    if (total > MAX_TEXT_BYTES) {
      throw new RagwasmError('LIMIT_EXCEEDED', `ragwasm: ${name}: more than ${MAX_TEXT_BYTES} UTF-8 bytes in one batch; split it`);
    }
    offsets[i + 1] = total;
  }
  return { bytes: buffer.subarray(0, total), offsets };
}

function toBytes(value, name) {
  if (typeof value === 'string') return encoder.encode(value);
  if (isInstance(value, ArrayBuffer)) return new Uint8Array(value);
  if (isInstance(value, Uint8Array)) return value;
  if (isPlainObject(value)) return encoder.encode(JSON.stringify(expectJsonValue(value, name)));
  throw invalid(name, 'a string, Uint8Array, ArrayBuffer or parsed JSON object', value);
}

function encodeOptions(options, name) {
  const o = expectOptions(options, name, ['maxLength', 'truncation', 'padding', 'addSpecialTokens']);
  return {
    maxLength: o.maxLength === undefined ? 512 : expectInteger(o.maxLength, `${name}.maxLength`, { min: 1, max: 65536 }),
    truncation: o.truncation === undefined ? true : expectBoolean(o.truncation, `${name}.truncation`),
    padding: o.padding === undefined ? 'longest' : expectEnum(o.padding, `${name}.padding`, ['none', 'longest', 'max_length']),
    addSpecialTokens: o.addSpecialTokens === undefined ? true : expectBoolean(o.addSpecialTokens, `${name}.addSpecialTokens`),
  };
}

/**
 * @typedef {object} BatchEncoding
 * @property {number} rows number of texts
 * @property {number} cols tokens per row (padding 'longest' / 'max_length'); longest row for 'none'
 * @property {Int32Array} inputIds rows*cols ids, row-major (padding 'none': rows concatenated)
 * @property {Int32Array} attentionMask 1 for real tokens, 0 for padding
 * @property {Int32Array} tokenTypeIds 0 for single sequences; pairs: 0 for [CLS] A [SEP], 1 for B [SEP], 0 on padding
 * @property {Uint32Array} lengths real tokens per row
 */

/**
 * A BERT WordPiece tokenizer (BertNormalizer + BertPreTokenizer + WordPiece + [CLS]/[SEP]) with the
 * same ids as Hugging Face tokenizers / transformers.js.
 *
 * @example
 * const tok = Tokenizer.fromTokenizerJson(await (await fetch('tokenizer.json')).text());
 * tok.encode('Hello, world!'); // Int32Array [101, 7592, 1010, 2088, 999, 102]
 */
export class Tokenizer extends Handle {
  /**
   * @param {string|Uint8Array|ArrayBuffer|object} json a Hugging Face tokenizer.json (WordPiece model)
   * @returns {Tokenizer}
   * @throws {RagwasmError} PARSE_ERROR (not JSON), INVALID_ARGUMENT (not a BERT WordPiece tokenizer)
   */
  static fromTokenizerJson(json) {
    const bytes = toBytes(json, 'tokenizer.json');
    const m = wasm();
    return new Tokenizer(callWasm(() => m.embed_createTokenizer(bytes, 'json')));
  }

  /**
   * @param {string|Uint8Array|ArrayBuffer} vocab vocab.txt contents: one token per line, id = line number
   * @returns {Tokenizer}
   * @throws {RagwasmError} INVALID_ARGUMENT (no [UNK]/[CLS]/[SEP]/[PAD]), INVALID_UTF8, LIMIT_EXCEEDED
   */
  static fromVocab(vocab) {
    if (typeof vocab !== 'string' && !(isInstance(vocab, Uint8Array)) && !(isInstance(vocab, ArrayBuffer))) {
      throw invalid('vocab', 'a string, Uint8Array or ArrayBuffer', vocab);
    }
    const bytes = toBytes(vocab, 'vocab');
    const m = wasm();
    return new Tokenizer(callWasm(() => m.embed_createTokenizer(bytes, 'vocab')));
  }

  constructor(native) {
    super(native);
    const i = callWasm(() => native.info());
    /** Number of ids. */
    this.vocabSize = i.vocabSize;
    /** Ids of [CLS], [SEP], [PAD], [UNK]. */
    this.specialIds = { cls: i.clsId, sep: i.sepId, pad: i.padId, unk: i.unkId };
  }

  /**
   * Token ids of one text without special tokens and without truncation.
   * @param {string} text
   * @returns {Int32Array}
   */
  tokenize(text) {
    expectString(text, 'text');
    const bytes = encoder.encode(text);
    return callWasm(() => this.native.tokenize(bytes));
  }

  /**
   * [CLS] pieces [SEP] of one text.
   * @param {string} text
   * @param {{maxLength?: number, truncation?: boolean, addSpecialTokens?: boolean}} [options]
   *   maxLength default 512 (tokens including [CLS]/[SEP]); truncation default true (keeps [SEP])
   * @returns {Int32Array}
   * @throws {RagwasmError} INVALID_ARGUMENT, LIMIT_EXCEEDED (too long with truncation off)
   */
  encode(text, options = {}) {
    expectString(text, 'text');
    // Checked before the spread: spreading a 50 MB string would copy 50 million indexed properties.
    if (!isPlainObject(options)) throw invalid('encode options', 'an options object', options);
    const b = this.encodeBatch([text], { ...options, padding: 'none' });
    return b.inputIds;
  }

  /**
   * Encodes many texts into padded rows.
   * @param {string[]} texts at least one
   * @param {{maxLength?: number, truncation?: boolean, padding?: 'none'|'longest'|'max_length', addSpecialTokens?: boolean}} [options]
   *   defaults: maxLength 512, truncation true, padding 'longest', addSpecialTokens true
   * @returns {BatchEncoding}
   * @throws {RagwasmError} INVALID_ARGUMENT (empty batch, bad option), LIMIT_EXCEEDED, DISPOSED
   */
  encodeBatch(texts, options = {}) {
    const o = encodeOptions(options, 'encodeBatch options');
    const { bytes, offsets } = packTexts(texts);
    return callWasm(() => this.native.encodeBatch(bytes, offsets, o.maxLength, o.truncation, o.padding, o.addSpecialTokens));
  }

  /**
   * Encodes text pairs in the BERT pair format `[CLS] A [SEP] B [SEP]` (cross-encoder inputs), as
   * Hugging Face tokenizers do: token type 0 for [CLS] A [SEP] and 1 for B [SEP]; pairs longer than
   * maxLength are cut with 'longest_first' (the longer text shrinks first; when both must, the shorter
   * keeps floor((maxLength - 3) / 2) tokens, the first text counting as the shorter on a tie).
   * @param {string|string[]} firsts one text used with every second text (e.g. a query), or one per second text
   * @param {string[]} seconds at least one (e.g. passages)
   * @param {{maxLength?: number, truncation?: boolean, padding?: 'none'|'longest'|'max_length', addSpecialTokens?: boolean}} [options]
   *   defaults: maxLength 512 (>= 3 with special tokens), truncation true, padding 'longest', addSpecialTokens true
   * @returns {BatchEncoding}
   * @throws {RagwasmError} INVALID_ARGUMENT (empty batch, lengths differ, bad option), LIMIT_EXCEEDED
   *   (a pair longer than maxLength with truncation off; too many bytes), DISPOSED
   */
  encodePairs(firsts, seconds, options = {}) {
    const o = encodeOptions(options, 'encodePairs options');
    const second = packTexts(seconds, 'seconds');
    const firstList = typeof firsts === 'string' ? [firsts] : firsts;
    if (!isArray(firstList)) throw invalid('firsts', 'a string or an array of strings', firsts);
    if (firstList.length !== seconds.length && typeof firsts !== 'string') {
      throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: firsts: expected ${seconds.length} texts (one per second text) or one string, got ${firstList.length}`);
    }
    const first = packTexts(firstList, 'firsts');
    return callWasm(() => this.native.encodePairBatch(first.bytes, first.offsets, second.bytes, second.offsets, o.maxLength, o.truncation, o.padding, o.addSpecialTokens));
  }

  /**
   * The normalized text (BertNormalizer): cleaned, CJK-spaced, lowercased, accents stripped.
   * @param {string} text
   * @returns {string}
   */
  normalize(text) {
    expectString(text, 'text');
    const bytes = encoder.encode(text);
    return callWasm(() => this.native.normalize(bytes));
  }

  /** @param {string} token @returns {number} the id, or -1 */
  tokenToId(token) {
    expectString(token, 'token');
    const bytes = encoder.encode(token);
    return callWasm(() => this.native.tokenToId(bytes));
  }

  /** @param {number} id @returns {string} @throws {RagwasmError} INVALID_ARGUMENT (out of range) */
  idToToken(id) {
    expectInteger(id, 'id', { min: 0, max: this.vocabSize - 1 });
    return callWasm(() => this.native.idToToken(id));
  }
}

/** @internal */
export function checkAbort(signal) {
  if (signal && signal.aborted) throw new RagwasmError('ABORTED', 'ragwasm: embedding aborted by the AbortSignal');
}

/** @internal */
export function embedRunOptions(options, name) {
  const o = expectOptions(options, name, ['signal', 'onProgress', 'kind']);
  if (o.signal !== undefined && (o.signal === null || typeof o.signal.aborted !== 'boolean')) throw invalid(`${name}.signal`, 'an AbortSignal', o.signal);
  if (o.onProgress !== undefined) expectFunction(o.onProgress, `${name}.onProgress`);
  const kind = o.kind === undefined ? 'document' : expectEnum(o.kind, `${name}.kind`, ['query', 'document']);
  return { signal: o.signal, onProgress: o.onProgress, kind };
}

/** @internal */
export function splitRows(flat, rows, dims) {
  const out = new Array(rows);
  for (let r = 0; r < rows; r++) out[r] = flat.subarray(r * dims, (r + 1) * dims);
  return out;
}

/**
 * The default static model: GloVe 6B 100-d word vectors (int8), SIF weighting and the first principal
 * component removed; built by `node models/build-static-model.mjs` into models/build/static-model.bin.
 * Sentence vectors are unit length (all zeros when no word is known).
 */
export class StaticEmbedder extends Handle {
  /**
   * Loads a static model from its bytes (models/build/static-model.bin); the WASM module must be
   * initialized (init()). createStaticEmbedder({model}) also fetches URLs.
   * @param {Uint8Array|ArrayBuffer} bytes
   * @returns {StaticEmbedder}
   * @throws {RagwasmError} CORRUPT_INDEX (damaged file), UNSUPPORTED_VERSION, INVALID_ARGUMENT (not bytes)
   */
  static fromBytes(bytes) {
    if (isInstance(bytes, ArrayBuffer)) bytes = new Uint8Array(bytes);
    if (!isInstance(bytes, Uint8Array)) throw invalid('bytes', 'a Uint8Array or ArrayBuffer', bytes);
    const m = wasm();
    const native = callWasm(() => m.embed_createStaticEmbedder(bytes));
    return new StaticEmbedder(native, crc32(bytes).toString(16).padStart(8, '0'));
  }

  /**
   * Loads a static model whose bytes were stored under `name` with saveBytes() (storage.js).
   * @param {string} name
   * @param {{dir?: string, backend?: 'node'|'opfs'|'indexeddb'}} [opts]
   * @returns {Promise<StaticEmbedder>}
   * @throws {RagwasmError} NOT_FOUND, as fromBytes(), storage errors
   */
  static async load(name, opts) {
    return StaticEmbedder.fromBytes(await loadNamed(name, opts, 'static model'));
  }

  /** @internal use createStaticEmbedder() or StaticEmbedder.fromBytes() */
  constructor(native, checksum = 'unknown') {
    super(native);
    const i = callWasm(() => native.info());
    /** Vector dimension (100 for the default model); the embedder contract's `dimension`. */
    this.dimension = i.dims;
    /** Stable model identity: 'static-<dimension>d-<CRC-32 of the model file, 8 hex digits>'. */
    this.id = `static-${i.dims}d-${checksum}`;
    /** Words in the vocabulary. */
    this.vocabSize = i.vocabSize;
  }

  /**
   * Embeds texts synchronously.
   * @param {string[]} texts at least one
   * @returns {Float32Array[]} one unit-length vector per text (views into one buffer)
   * @throws {RagwasmError} INVALID_ARGUMENT (empty batch, not strings), LIMIT_EXCEEDED, DISPOSED
   */
  embedSync(texts) {
    return splitRows(this._embedFlat(texts), texts.length, this.dimension);
  }

  /** embedSync's vectors as one Float32Array of texts.length * dimension (row i at i * dimension). @internal */
  _embedFlat(texts) {
    const { bytes, offsets } = packTexts(texts);
    return callWasm(() => this.native.embedBatch(bytes, offsets));
  }

  /** As _embedFlat for texts in parts of k (packTextParts: parts joined by a space, null/undefined left out). @internal */
  _embedFlatParts(parts, k) {
    const { bytes, offsets } = packTextParts(parts, k);
    return callWasm(() => this.native.embedBatch(bytes, offsets));
  }

  /**
   * Embeds texts in batches, yielding to the event loop between them (the embedder contract,
   * docs/api.md). The static model has no query or document prefix: both kinds give the same vectors.
   * @param {string[]} texts
   * @param {{signal?: AbortSignal, onProgress?: (p: {done: number, total: number}) => void, kind?: 'query'|'document'}} [options]
   * @returns {Promise<Float32Array[]>}
   * @throws {RagwasmError} as embedSync; ABORTED when the signal fires
   */
  async embed(texts, options = {}) {
    const o = embedRunOptions(options, 'embed options');
    expectArray(texts, 'texts', { maxLength: MAX_BATCH_TEXTS });
    if (texts.length === 0) throw new RagwasmError('INVALID_ARGUMENT', 'ragwasm: texts: expected at least one text, got an empty array');
    const out = [];
    const step = 1024;
    for (let i = 0; i < texts.length; i += step) {
      checkAbort(o.signal);
      out.push(...this.embedSync(texts.slice(i, i + step)));
      if (o.onProgress) o.onProgress({ done: out.length, total: texts.length });
      if (i + step < texts.length) await new Promise((r) => setTimeout(r, 0));
    }
    return out;
  }

  /** The words the model looks up for a text (lowercased, split on white space and punctuation). */
  words(text) {
    expectString(text, 'text');
    const bytes = encoder.encode(text);
    return callWasm(() => this.native.words(bytes));
  }

  /** @internal word-id rows for the ONNX export of the table */
  _encodeBatch(bytes, offsets, maxLength, padding) {
    return callWasm(() => this.native.encodeBatch(bytes, offsets, maxLength, true, padding, false));
  }
}

/**
 * Where the default model is: the companion package `ragwasm-static-model`, imported by its bare name
 * only now, so apps that bring their own model never bundle or download it.
 * @internal
 */
export async function defaultStaticModelUrl() {
  const mod = await importPeer(() => import('ragwasm-static-model'), 'ragwasm-static-model', 'createStaticEmbedder (the default model)');
  return mod.modelUrl;
}

/**
 * Loads the static model.
 * @param {{model?: ArrayBuffer|Uint8Array|Blob|Response|URL|string, cache?: boolean}} [options] model
 *   bytes, a URL, or a file path in Node (default: the model of the `ragwasm-static-model` package,
 *   a dependency of ragwasm); cache: keep fetched bytes in Cache Storage (default true in browsers)
 * @returns {Promise<StaticEmbedder>}
 * @throws {RagwasmError} CORRUPT_INDEX (damaged file), UNSUPPORTED_VERSION, INVALID_ARGUMENT, NETWORK, HTTP,
 *   NOT_FOUND (no model given and ragwasm-static-model not installed, or the file is missing)
 */
export async function createStaticEmbedder(options = {}) {
  const o = expectOptions(options, 'createStaticEmbedder options', ['model', 'cache']);
  const cache = o.cache === undefined ? true : expectBoolean(o.cache, 'createStaticEmbedder options.cache');
  const model = o.model === undefined ? await defaultStaticModelUrl() : o.model;
  const bytes = await sourceBytes(model, o.model === undefined ? 'the default static model' : 'options.model', { cache });
  return StaticEmbedder.fromBytes(bytes);
}


/**
 * Mean / CLS pooling (+ L2 normalization) of a [rows, tokens, dim] tensor in WASM.
 * @param {Float32Array} hidden rows*tokens*dim values
 * @param {Int32Array} attentionMask rows*tokens
 * @param {{rows: number, tokens: number, dim: number, pooling?: 'mean'|'cls'|'none', normalize?: boolean}} shape
 * @returns {Float32Array} rows*dim
 * @throws {RagwasmError} INVALID_ARGUMENT (sizes disagree, unknown pooling, NaN/Inf in the output)
 */
export function poolEmbeddings(hidden, attentionMask, shape) {
  if (!(isInstance(hidden, Float32Array))) throw invalid('hidden', 'a Float32Array', hidden);
  if (!(isInstance(attentionMask, Int32Array))) throw invalid('attentionMask', 'an Int32Array', attentionMask);
  const s = expectOptions(shape, 'shape', ['rows', 'tokens', 'dim', 'pooling', 'normalize']);
  const rows = expectInteger(s.rows, 'shape.rows', { min: 1 });
  const tokens = expectInteger(s.tokens, 'shape.tokens', { min: 1 });
  const dim = expectInteger(s.dim, 'shape.dim', { min: 1 });
  const pooling = s.pooling === undefined ? 'mean' : expectEnum(s.pooling, 'shape.pooling', ['mean', 'cls', 'none']);
  const normalize = s.normalize === undefined ? true : expectBoolean(s.normalize, 'shape.normalize');
  const m = wasm();
  return callWasm(() => m.embed_pool(hidden, attentionMask, rows, tokens, dim, pooling, normalize));
}

/**
 * @internal The `tokenizer` option of the ONNX model factories: a Tokenizer (or, with allowStatic, a
 * StaticEmbedder) stays owned by the caller; {tokenizerJson} / {vocab} creates one the model owns.
 * @returns {{tokenizer: Tokenizer|StaticEmbedder, owns: boolean}}
 */
export function tokenizerOption(value, name, { allowStatic = false } = {}) {
  const what = allowStatic ? 'a Tokenizer, a StaticEmbedder, {tokenizerJson} or {vocab}' : 'a Tokenizer, {tokenizerJson} or {vocab}';
  if (isInstance(value, Tokenizer) || (allowStatic && isInstance(value, StaticEmbedder))) {
    value.native; // eslint-disable-line no-unused-expressions -- throws DISPOSED early
    return { tokenizer: value, owns: false };
  }
  if (value !== null && typeof value === 'object' && !isArray(value)) {
    const t = expectOptions(value, `${name}.tokenizer`, ['tokenizerJson', 'vocab']);
    if (t.tokenizerJson !== undefined) return { tokenizer: Tokenizer.fromTokenizerJson(t.tokenizerJson), owns: true };
    if (t.vocab !== undefined) return { tokenizer: Tokenizer.fromVocab(t.vocab), owns: true };
  }
  throw invalid(`${name}.tokenizer`, what, value);
}

