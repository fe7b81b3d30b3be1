// @ts-check
// Cross-encoder reranking: a (query, passage) -> relevance model (BertForSequenceClassification with
// one logit, e.g. cross-encoder/ms-marco-MiniLM-L-6-v2) run by ONNX Runtime (reached only through the
// `ragwasm/onnx` entry); pair tokenization ([CLS] query [SEP] passage [SEP], 'longest_first'
// truncation) in ragwasm's WASM. Its `reranker` plugs into rerank() / retrieveAndRerank() /
// Collection.search({reranker}). docs/fusion.md.
import { RagwasmError } from '../core/errors.js';
import { tokenizerOption } from '../embed/embed.js';
import { disposeOutputs, openTokenModel, releaseOrtModel, runSession, tokenFeeds } from '../embed/ort-session.js';
import {
  expectArray, expectBoolean, expectEnum, expectFunction, expectInteger, expectInternal, expectOptions, expectString, invalid, isArray, isObject, isPlainObject,
} from '../core/validate.js';
import { itemText, MAX_PASSAGES } from './rerank.js';

/** @typedef {import('../embed/embed.js').Tokenizer} Tokenizer */

const OUTPUT = 'logits';

function scoreOptions(options, name) {
  const o = expectOptions(options, name, ['signal', 'onProgress']);
  if (o.signal !== undefined && (o.signal === null || typeof o.signal.aborted !== 'boolean')) throw invalid(`${name}.signal`, 'an AbortSignal', o.signal);
  if (o.onProgress !== undefined) expectFunction(o.onProgress, `${name}.onProgress`);
  return o;
}

function checkAbort(signal) {
  if (signal && signal.aborted) throw new RagwasmError('ABORTED', 'ragwasm: reranking aborted by the AbortSignal');
}

/**
 * A cross-encoder reranker: scores (query, passage) pairs with one ONNX Runtime run per batch.
 * Create with createCrossEncoderReranker().
 */
export class CrossEncoderReranker {
  /** @internal */
  constructor(ort, session, tokenizer, cfg, ownsTokenizer) {
    expectInternal(isObject(ort) && isObject(session) && isObject(tokenizer) && isPlainObject(cfg) && typeof ownsTokenizer === 'boolean', 'CrossEncoderReranker', 'createCrossEncoderReranker(options)');
    this._ort = ort;
    this._session = session;
    this._tokenizer = tokenizer;
    this._cfg = cfg;
    this._ownsTokenizer = ownsTokenizer;
    /** Tokens per pair including [CLS] and the two [SEP]. */
    this.maxLength = cfg.maxLength;
    /** 'none' (raw logits) or 'sigmoid' (scores in (0, 1)). */
    this.activation = cfg.activation;
    /**
     * `(query, items, {signal}) => Promise<number[]>` for rerank(), retrieveAndRerank() and
     * Collection.search({reranker}); items are strings or objects with a `text` string.
     * @type {(query: string, items: (string | {text: string})[], options?: {signal?: AbortSignal}) => Promise<number[]>}
     */
    this.reranker = async (query, items, options = {}) => {
      expectArray(items, 'items', { maxLength: MAX_PASSAGES });
      return this.score(query, items.map(itemText), options.signal === undefined ? {} : { signal: options.signal });
    };
  }

  /**
   * Scores each passage against the query, batch by batch (batchSize pairs per ONNX Runtime run).
   * @param {string} query
   * @param {string[]} passages at least one
   * @param {{signal?: AbortSignal, onProgress?: (p: {done: number, total: number}) => void}} [options]
   * @returns {Promise<number[]>} one score per passage, in input order (higher = more relevant)
   * @throws {RagwasmError} INVALID_ARGUMENT (empty or non-string passages; model output not a float32
   *   'logits' [pairs, 1]), ABORTED, DISPOSED, LIMIT_EXCEEDED, INTERNAL (ONNX Runtime failure)
   */
  async score(query, passages, options = {}) {
    if (this._session === null) throw new RagwasmError('DISPOSED', 'ragwasm: this CrossEncoderReranker was disposed; create a new one');
    const o = scoreOptions(options, 'score options');
    expectString(query, 'query');
    expectArray(passages, 'passages', { maxLength: MAX_PASSAGES });
    if (passages.length === 0) throw new RagwasmError('INVALID_ARGUMENT', 'ragwasm: passages: expected at least one passage, got an empty array');
    passages.forEach((p, i) => expectString(p, `passages[${i}]`));
    const { batchSize, maxLength } = this._cfg;
    const out = [];
    for (let i = 0; i < passages.length; i += batchSize) {
      checkAbort(o.signal);
      const batch = passages.slice(i, i + batchSize);
      const enc = this._tokenizer.encodePairs(query, batch, { maxLength, truncation: true, padding: 'longest' });
      out.push(...await this._run(enc));
      if (o.onProgress) o.onProgress({ done: out.length, total: passages.length });
    }
    return out;
  }

  async _run(enc) {
    const results = await runSession(this._session, tokenFeeds(this._ort, this._session, enc, this._cfg.inputTypes));
    const t = results[OUTPUT];
    const shape = t ? t.dims.map(Number) : [];
    if (!t || t.type !== 'float32' || shape.length !== 2 || shape[0] !== enc.rows || shape[1] !== 1) {
      disposeOutputs(results);
      throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: model output '${OUTPUT}': expected a float32 tensor [${enc.rows}, 1] (one logit per pair), got ${t ? `${t.type} [${shape.join(', ')}]` : 'no such output'}`);
    }
    const scores = new Array(enc.rows);
    const sigmoid = this._cfg.activation === 'sigmoid';
    for (let r = 0; r < enc.rows; r++) {
      const x = t.data[r];
      const s = sigmoid ? 1 / (1 + Math.exp(-x)) : x;
      if (!Number.isFinite(s)) {
        disposeOutputs(results);
        throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: model output '${OUTPUT}': row ${r} is ${x}, expected a finite number`);
      }
      scores[r] = s;
    }
    disposeOutputs(results);
    return scores;
  }

  /**
   * Releases the ONNX Runtime session, and the tokenizer when it was created from options.tokenizer
   * {tokenizerJson}/{vocab}. A Tokenizer passed in stays owned by the caller.
   */
  async dispose() {
    await releaseOrtModel(this);
  }
}

/**
 * Creates a cross-encoder reranker.
 * @param {object} options
 * @param {ArrayBuffer|Uint8Array|Blob|URL|string} options.model the .onnx model (bytes, File or URL):
 *   inputs input_ids (+ attention_mask, token_type_ids), output 'logits' [batch, 1]
 * @param {Tokenizer|{tokenizerJson: string|object|Uint8Array}|{vocab: string|Uint8Array}} options.tokenizer
 *   the model's WordPiece tokenizer (or its tokenizer.json / vocab.txt)
 * @param {number} [options.maxLength=512] tokens per pair including [CLS] and two [SEP] (3..65536);
 *   longer pairs are cut 'longest_first'
 * @param {number} [options.batchSize=16] pairs per ONNX Runtime run (1..4096)
 * @param {'none'|'sigmoid'} [options.activation='none'] applied to the logit ('none' keeps the raw
 *   logit, as sentence-transformers' CrossEncoder does for ms-marco models; 'sigmoid' maps to (0, 1))
 * @param {boolean} [options.cache=true] keep fetched model bytes in Cache Storage (browsers)
 * @param {object} [options.ort] an onnxruntime module (default: import('onnxruntime-web'))
 * @param {object} [options.sessionOptions] passed to InferenceSession.create
 * @returns {Promise<CrossEncoderReranker>}
 * @throws {RagwasmError} INVALID_ARGUMENT (bad option; model without input_ids or without a 'logits'
 *   output, or whose 'logits' is declared with a last dimension other than 1), NOT_FOUND/NETWORK/HTTP
 *   (download), INTERNAL (ONNX Runtime could not load the model)
 */
export async function createCrossEncoderReranker(options) {
  const name = 'createCrossEncoderReranker options';
  const o = expectOptions(options, name, ['model', 'tokenizer', 'maxLength', 'batchSize', 'activation', 'cache', 'ort', 'sessionOptions']);
  if (o.model === undefined) throw invalid(`${name}.model`, 'model bytes, a File or a URL', undefined);
  const cfg = {
    maxLength: o.maxLength === undefined ? 512 : expectInteger(o.maxLength, `${name}.maxLength`, { min: 3, max: 65536 }),
    batchSize: o.batchSize === undefined ? 16 : expectInteger(o.batchSize, `${name}.batchSize`, { min: 1, max: 4096 }),
    activation: o.activation === undefined ? 'none' : expectEnum(o.activation, `${name}.activation`, ['none', 'sigmoid']),
  };
  const cache = o.cache === undefined ? true : expectBoolean(o.cache, `${name}.cache`);
  const { tokenizer, owns: ownsTokenizer } = tokenizerOption(o.tokenizer, name);
  const release = () => { if (ownsTokenizer) tokenizer.dispose(); };
  const { ort, session, fail, inputTypes } = await openTokenModel({ ort: o.ort, model: o.model, cache, sessionOptions: o.sessionOptions }, name, release);
  cfg.inputTypes = inputTypes;
  const outputs = session.outputNames;
  if (!outputs.includes(OUTPUT)) await fail(`expected a '${OUTPUT}' output (one relevance logit per pair), the model has [${outputs.join(', ')}]`);
  // A declared shape with a fixed last dimension other than 1 (e.g. a 2-label classifier) cannot be a score.
  const meta = isArray(session.outputMetadata) ? session.outputMetadata.find((m) => m && m.name === OUTPUT) : undefined;
  if (meta && isArray(meta.shape) && meta.shape.length > 0) {
    const last = meta.shape[meta.shape.length - 1];
    if (meta.shape.length !== 2 || (typeof last === 'number' && last !== 1)) {
      await fail(`output '${OUTPUT}' has shape [${meta.shape.join(', ')}], expected [batch, 1] (one logit per pair)`);
    }
  }
  return new CrossEncoderReranker(ort, session, tokenizer, cfg, ownsTokenizer);
}

