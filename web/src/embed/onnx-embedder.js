// @ts-check
// The ONNX embedder: a sentence-embedding graph run by ONNX Runtime (onnxruntime-web by default, an
// optional peer dependency imported only here); tokenization, pooling and normalization in WASM.
import { RagwasmError, callWasm } from '../core/errors.js';
import { wasm } from '../core/module.js';
import { MAX_BATCH_TEXTS, StaticEmbedder, checkAbort, embedRunOptions, packTexts, splitRows, tokenizerOption } from './embed.js';
import { disposeOutputs, openTokenModel, releaseOrtModel, runSession, tokenFeeds } from './ort-session.js';
import { crc32 } from '../core/checksum.js';
import { fetchModelFiles } from './model-hub.js';
import { MODEL_MANIFEST } from './model-manifest.js';

// Declared with the embedder in onnx-embedder.d.ts (the ragwasm/onnx entry's area); they live in the hub modules.
export { fetchModelFiles, modelDownloadBytes, DEFAULT_HUB_URL } from './model-hub.js';
export { MODEL_MANIFEST } from './model-manifest.js';
import {
  expectArray, expectBoolean, expectEnum, expectFunction, expectInteger, expectInternal, expectOptions, expectString, invalid, isInstance, isObject, isPlainObject,
} from '../core/validate.js';

// Default padded-token budget per ONNX Runtime run with batching 'length': none. On the MiniLM-L6-shaped BERT
// (docs/embed.md) a budget of 2,048 sped up the dynamic-int8 model in 3 of 4 paired runs but slowed the
// float32 model in every clean pair, so it is an option, not the default.
const DEFAULT_BATCH_TOKENS = 0;

/**
 * An embedder running a sentence-embedding model with ONNX Runtime (onnxruntime-web by default);
 * tokenization, pooling and normalization run in ragwasm's WASM. Implements the embedder contract
 * (docs/api.md): `dimension`, `id`, `embed(texts, {kind})`.
 */
export class OnnxEmbedder {
  /** @internal */
  constructor(ort, session, tokenizer, cfg) {
    expectInternal(isObject(ort) && isObject(session) && isObject(tokenizer) && isPlainObject(cfg), 'OnnxEmbedder', 'createOnnxEmbedder(options)');
    this._ort = ort;
    this._session = session;
    this._tokenizer = tokenizer;
    this._ownsTokenizer = false;  // createOnnxEmbedder sets it: true when it made the tokenizer
    this._cfg = cfg;
    /** Vector dimension, measured at creation by one probe run. */
    this.dimension = cfg.dimension ?? null;
    /** Stable model identity (see createOnnxEmbedder `name`). */
    this.id = cfg.id;
  }

  /** The query and document prefixes in use (from options or the manifest entry). */
  get prefixes() {
    return { query: this._cfg.queryPrefix, document: this._cfg.documentPrefix };
  }

  /**
   * Embeds texts: prefix (query or document), tokenize, run the graph batch by batch, pool, normalize.
   * @param {string[]} texts at least one
   * @param {{kind?: 'query'|'document', signal?: AbortSignal, onProgress?: (p: {done: number, total: number}) => void}} [options]
   *   kind selects queryPrefix or documentPrefix (default 'document')
   * @returns {Promise<Float32Array[]>}
   * @throws {RagwasmError} INVALID_ARGUMENT (empty batch; model output not [rows, tokens, dim]),
   *   ABORTED, DISPOSED, INTERNAL (ONNX Runtime failure, with its message)
   */
  async embed(texts, options = {}) {
    if (this._session === null) throw new RagwasmError('DISPOSED', 'ragwasm: this OnnxEmbedder was disposed; create a new one');
    const o = embedRunOptions(options, 'embed options');
    expectArray(texts, 'texts', { maxLength: MAX_BATCH_TEXTS });
    if (texts.length === 0) throw new RagwasmError('INVALID_ARGUMENT', 'ragwasm: texts: expected at least one text, got an empty array');
    texts.forEach((t, i) => expectString(t, `texts[${i}]`));
    const prefix = o.kind === 'query' ? this._cfg.queryPrefix : this._cfg.documentPrefix;
    const { batchSize } = this._cfg;
    const prefixed = texts.map((t) => prefix + t);
    const out = new Array(texts.length);
    const plan = this._plan(prefixed);
    let done = 0;
    for (let b = 0; b + 1 < plan.starts.length; b++) {
      checkAbort(o.signal);
      const rows = plan.order ? plan.order.subarray(plan.starts[b], plan.starts[b + 1]) : null;
      const batch = rows ? Array.from(rows, (i) => prefixed[i]) : prefixed.slice(plan.starts[b], plan.starts[b + 1]);
      const vectors = await this._runBatch(batch);
      for (let k = 0; k < vectors.length; k++) out[rows ? rows[k] : plan.starts[b] + k] = vectors[k];
      done += vectors.length;
      if (o.onProgress) o.onProgress({ done, total: texts.length });
    }
    return out;
  }

  // The batches of one embed() call: {order: Uint32Array | null, starts}. batching 'length' (when there is
  // more than one batch): texts sorted by token length, so each batch is padded to a similar length
  // (src/embed/batching.h), cut at batchSize texts or batchTokens padded tokens (texts x the longest), whichever
  // comes first; 'input': consecutive texts in input order (order null).
  _plan(texts) {
    const { batchSize, batchTokens, batching, maxLength } = this._cfg;
    if (batching === 'input' || texts.length === 1 || (texts.length <= batchSize && batchTokens === 0)) {
      const starts = [];
      for (let i = 0; i < texts.length; i += batchSize) starts.push(i);
      starts.push(texts.length);
      return { order: null, starts };
    }
    const { bytes, offsets } = packTexts(texts);
    const tok = this._tokenizer;
    const { lengths } = isInstance(tok, StaticEmbedder)
      ? tok._encodeBatch(bytes, offsets, maxLength, 'none')
      : callWasm(() => tok.native.encodeBatch(bytes, offsets, maxLength, true, 'none', true));
    const m = wasm();
    return callWasm(() => m.embed_planLengthBatches(lengths, batchSize, batchTokens));
  }

  /** embed(texts, {kind: 'query'}) */
  embedQueries(texts, options = {}) { return this.embed(texts, { ...plainOptions(options, 'embedQueries options'), kind: 'query' }); }
  /** embed(texts, {kind: 'document'}) */
  embedDocuments(texts, options = {}) { return this.embed(texts, { ...plainOptions(options, 'embedDocuments options'), kind: 'document' }); }

  async _runBatch(batch) {
    const { bytes, offsets } = packTexts(batch);
    const cfg = this._cfg;
    const tok = this._tokenizer;
    const enc = isInstance(tok, StaticEmbedder)
      ? tok._encodeBatch(bytes, offsets, cfg.maxLength, 'longest')
      : callWasm(() => tok.native.encodeBatch(bytes, offsets, cfg.maxLength, true, 'longest', true));
    const { rows, cols } = enc;
    const results = await runSession(this._session, tokenFeeds(this._ort, this._session, enc, cfg.inputTypes));
    const t = results[cfg.outputName];
    const shape = t.dims;
    const want = cfg.pooling === 'none' ? 2 : 3;
    if (shape.length !== want || shape[0] !== rows || (want === 3 && shape[1] !== cols) || t.type !== 'float32') {
      throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: model output '${cfg.outputName}': expected a float32 tensor [${rows}, ${want === 3 ? `${cols}, ` : ''}dim], got ${t.type} [${shape.join(', ')}]`);
    }
    const dim = Number(shape[shape.length - 1]);
    const m = wasm();
    const flat = callWasm(() => m.embed_pool(t.data, enc.attentionMask, rows, cols, dim, cfg.pooling, cfg.normalize));
    disposeOutputs(results);
    if (this.dimension !== null && dim !== this.dimension) {
      throw new RagwasmError('DIMENSION_MISMATCH', `ragwasm: model output '${cfg.outputName}': has ${dim} values per text, the first run had ${this.dimension}`);
    }
    return splitRows(flat, rows, dim);
  }

  /**
   * Releases the ONNX Runtime session, and the tokenizer when it was created from options.tokenizer
   * {tokenizerJson}/{vocab}. A Tokenizer or StaticEmbedder passed in stays owned by the caller.
   */
  async dispose() {
    await releaseOrtModel(this);
  }
}

// The options of the hub form (createOnnxEmbedder(NAME) or {name} without model): fetchModelFiles's.
const HUB_OPTIONS = ['hubUrl', 'remoteHost', 'revision', 'cacheDir', 'onProgress', 'signal', 'fetch'];

/**
 * Creates an ONNX embedder: from a model name of models/manifest.json (downloaded from the model hub
 * and cached, as transformers.js does), or from the model and tokenizer given.
 * @example
 * const e = await createOnnxEmbedder('bge-small-en-v1.5', { onProgress: ({ file, loaded, total }) => console.log(file, loaded, total) });
 * const e2 = await createOnnxEmbedder({ model: modelBytes, tokenizer: { tokenizerJson }, pooling: 'cls' });
 * @param {string|import('./onnx-embedder.js').OnnxEmbedderOptions} options a model name (the hub form), or the options object; with a name, the options
 *   are the second argument
 *   - model (ArrayBuffer|Uint8Array|Blob|URL|string): the .onnx model (bytes, File or URL); left out
 *   with `name`: model.onnx (and tokenizer.json unless `tokenizer` is given) of the manifest entry are fetched
 *   from the hub (fetchModelFiles: cache first, progress, size and sha256 checked when the manifest pins them)
 *   - tokenizer (Tokenizer|StaticEmbedder|{tokenizerJson: string|object|Uint8Array}|{vocab: string|Uint8Array}):
 *   a WordPiece tokenizer (or its tokenizer.json / vocab.txt); a StaticEmbedder for its ONNX table export
 *   - name (string): the model's name, e.g. 'e5-small-v2': the base of `id`; with `manifest` (or the hub
 *   form, where the built-in manifest is the default), the entry whose pooling, normalize, maxLength and query/document
 *   prefixes are the defaults
 *   - hubUrl (string, default 'https://huggingface.co'): hub form: the hub's base URL (files at
 *   <hubUrl>/<repo>/resolve/<revision>/<path>) or a template with {repo}, {revision} and {path}; `remoteHost` is the same
 *   - revision (string): hub form: overrides the entry's revision
 *   - cacheDir (string): hub form, Node: the cache folder (default $RAGWASM_CACHE, else ~/.cache/ragwasm)
 *   - onProgress ((p: {file: string, loaded: number, total: number|null, cached: boolean}) => void): hub form: download progress
 *   - signal (AbortSignal): hub form: aborts the download
 *   - fetch (typeof fetch): hub form: fetch implementation
 *   - manifest (object): models/manifest.json (parsed) or its `models` map
 *   - pooling ('mean'|'cls'|'none', default 'mean'): 'none' when the model outputs [rows, dim]
 *   - normalize (boolean, default true): L2-normalize the pooled vectors
 *   - maxLength (number, default 512): tokens per text including [CLS]/[SEP] (longer texts are truncated)
 *   - queryPrefix (string, default ''): prepended to queries (e.g. 'query: ' for e5)
 *   - documentPrefix (string, default ''): prepended to documents (e.g. 'passage: ' for e5)
 *   - batchSize (number, default 32): texts per ONNX Runtime run
 *   - batching ('length'|'input', default 'length'): how one embed() call is cut into batches: 'length'
 *   sorts the texts by token length first (batches of similar lengths carry less padding; results are
 *   returned in input order), 'input' keeps consecutive texts together
 *   - batchTokens (number, default 0): with batching 'length': at most this many padded tokens (texts x
 *   the longest text's tokens) per ONNX Runtime run, besides at most batchSize texts; a text longer than
 *   the budget runs alone. 0 = no token budget (batches of batchSize texts). 2048 sped up a dynamic-int8
 *   MiniLM-L6-shaped model (docs/embed.md). Range 0..16777216;
 *   ignored (must be left out or 0) with batching 'input'
 *   - outputName (string): output to pool (default 'last_hidden_state' or the first output)
 *   - ort (object): an onnxruntime module (default: import('onnxruntime-web'))
 *   - sessionOptions (object): passed to InferenceSession.create
 *   - cache (boolean, default true): keep fetched model bytes in Cache Storage (browsers; with the hub form also
 *   the Node cache folder)
 * @returns {Promise<OnnxEmbedder>} with `dimension` (one probe run of the text 'dimension probe') and
 *   `id` = `onnx:<name or 'crc32-' + CRC-32 of the model bytes>:<pooling>[:raw]:<CRC-32 of the two prefixes>`
 * @throws {RagwasmError} INVALID_ARGUMENT (bad option, unknown pooling, a name not in the manifest,
 *   model inputs/outputs that do not match), NETWORK/HTTP/ABORTED/INTEGRITY (download), INTERNAL (ONNX Runtime could not load the model)
 */
export async function createOnnxEmbedder(options, more) {
  if (typeof options === 'string') options = { ...plainOptions(more ?? {}, 'createOnnxEmbedder options'), name: options };
  else if (more !== undefined) throw invalid('createOnnxEmbedder second argument', 'nothing (options go in the first) unless the first is a model name', more);
  // A copy: the manifest's defaults and the fetched files are filled in below, never into the caller's object.
  const o = { ...expectOptions(options, 'createOnnxEmbedder options', ['model', 'tokenizer', 'pooling', 'normalize', 'maxLength',
    'queryPrefix', 'documentPrefix', 'batchSize', 'batchTokens', 'batching', 'outputName', 'ort', 'sessionOptions', 'cache', 'name', 'manifest', ...HUB_OPTIONS]) };
  const name = 'createOnnxEmbedder options';
  const hubGiven = HUB_OPTIONS.filter((k) => o[k] !== undefined);
  if (o.model === undefined && o.name !== undefined) {
    // The hub form: the files of the manifest entry, then the settings of that entry (as with options.manifest).
    o.manifest ??= MODEL_MANIFEST;
    const hub = await fetchModelFiles(expectString(o.name, `${name}.name`, { allowEmpty: false, maxLength: 200 }),
      { manifest: o.manifest, cache: o.cache, ...Object.fromEntries(hubGiven.map((k) => [k, o[k]])) });
    if (!hub.files['model.onnx']) throw invalid(`${name}.name`, 'a model whose manifest entry has a model.onnx file', o.name);
    o.model = hub.files['model.onnx'];
    if (o.tokenizer === undefined) {
      if (!hub.files['tokenizer.json']) throw invalid(`${name}.tokenizer`, `a tokenizer (the manifest entry of ${o.name} has no tokenizer.json)`, undefined);
      o.tokenizer = { tokenizerJson: hub.files['tokenizer.json'] };
    }
  } else if (hubGiven.length > 0) {
    throw invalid(`${name}.${hubGiven[0]}`, 'left out unless the model is fetched by name (no options.model)', o[hubGiven[0]]);
  }
  if (o.model === undefined) throw invalid(`${name}.model`, 'model bytes, a File or a URL (or a model name of models/manifest.json)', undefined);
  const modelName = o.name === undefined ? undefined : expectString(o.name, `${name}.name`, { allowEmpty: false, maxLength: 200 });
  if (o.manifest !== undefined) {
    const models = o.manifest !== null && typeof o.manifest === 'object' && o.manifest.models ? o.manifest.models : o.manifest;
    if (models === null || typeof models !== 'object' || Array.isArray(models)) throw invalid(`${name}.manifest`, 'models/manifest.json (parsed) or its models map', o.manifest);
    if (modelName === undefined) throw invalid(`${name}.name`, 'the model name to look up in options.manifest', undefined);
    const entry = models[modelName];
    if (entry === undefined || entry === null || typeof entry !== 'object') {
      throw invalid(`${name}.name`, `a model of the manifest (${Object.keys(models).join(', ')})`, modelName);
    }
    // The manifest's settings are defaults: options given explicitly win.
    for (const k of ['pooling', 'normalize', 'maxLength', 'queryPrefix', 'documentPrefix']) {
      if (o[k] === undefined && entry[k] !== undefined && !(k === 'pooling' && entry[k] === 'sif')) o[k] = entry[k];
    }
  }
  const pooling = o.pooling === undefined ? 'mean' : expectEnum(o.pooling, `${name}.pooling`, ['mean', 'cls', 'none']);
  const cfg = {
    pooling,
    normalize: o.normalize === undefined ? true : expectBoolean(o.normalize, `${name}.normalize`),
    maxLength: o.maxLength === undefined ? 512 : expectInteger(o.maxLength, `${name}.maxLength`, { min: 2, max: 65536 }),
    queryPrefix: o.queryPrefix === undefined ? '' : expectString(o.queryPrefix, `${name}.queryPrefix`, { maxLength: 1000 }),
    documentPrefix: o.documentPrefix === undefined ? '' : expectString(o.documentPrefix, `${name}.documentPrefix`, { maxLength: 1000 }),
    batchSize: o.batchSize === undefined ? 32 : expectInteger(o.batchSize, `${name}.batchSize`, { min: 1, max: 4096 }),
    batching: o.batching === undefined ? 'length' : expectEnum(o.batching, `${name}.batching`, ['length', 'input']),
    batchTokens: o.batchTokens === undefined ? DEFAULT_BATCH_TOKENS : expectInteger(o.batchTokens, `${name}.batchTokens`, { min: 0, max: 16777216 }),
  };
  if (cfg.batching === 'input' && o.batchTokens !== undefined && cfg.batchTokens > 0) {
    throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${name}.batchTokens: a token budget needs batching 'length' (texts sorted by length), got batching 'input'`);
  }
  const cache = o.cache === undefined ? true : expectBoolean(o.cache, `${name}.cache`);
  const { tokenizer, owns: ownsTokenizer } = tokenizerOption(o.tokenizer, name, { allowStatic: true });
  const release = () => { if (ownsTokenizer) tokenizer.dispose(); };
  if (isInstance(tokenizer, StaticEmbedder) && pooling === 'cls') {
    throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${name}.pooling: 'cls' needs a WordPiece tokenizer ([CLS] first); a StaticEmbedder table has no [CLS] token`);
  }
  const { ort, session, fail, inputTypes, bytes } = await openTokenModel({ ort: o.ort, model: o.model, cache, sessionOptions: o.sessionOptions }, name, release);
  cfg.inputTypes = inputTypes;
  const hex = (n) => n.toString(16).padStart(8, '0');
  const base = modelName ?? `crc32-${hex(crc32(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)))}`;
  cfg.id = `onnx:${base}:${pooling}${cfg.normalize ? '' : ':raw'}:${hex(crc32(new TextEncoder().encode(`${cfg.queryPrefix}\u0000${cfg.documentPrefix}`)))}`;
  const outputs = session.outputNames;
  if (o.outputName !== undefined) {
    expectString(o.outputName, `${name}.outputName`);
    if (!outputs.includes(o.outputName)) await fail(`no output named '${o.outputName}' (outputs: [${outputs.join(', ')}])`);
    cfg.outputName = o.outputName;
  } else {
    cfg.outputName = outputs.includes('last_hidden_state') ? 'last_hidden_state' : outputs[0];
  }
  const embedder = new OnnxEmbedder(ort, session, tokenizer, cfg);
  embedder._ownsTokenizer = ownsTokenizer;
  try {
    // One probe run gives the dimension the embedder contract needs before the first embed().
    embedder.dimension = (await embedder._runBatch(['dimension probe']))[0].length;
  } catch (e) {
    await embedder.dispose();
    throw e;
  }
  return embedder;
}


// An options object checked before it is spread (spreading a string copies every character).
function plainOptions(options, name) {
  if (!isPlainObject(options)) throw invalid(name, 'an options object', options);
  return options;
}
