// @ts-check
// Shared ONNX Runtime plumbing for the ONNX embedder (onnx-embedder.js) and the cross-encoder reranker
// (retrieve/cross-encoder.js): session
// creation with RagwasmError mapping, input checks and int64/int32 feeds from a tokenizer batch.
// Internal: nothing here is exported from index.js.
import { RagwasmError } from '../core/errors.js';
import { invalid, isArray } from '../core/validate.js';
import { sourceBytes } from '../core/source-bytes.js';
import { importPeer } from '../core/peer.js';

/** Model inputs a BERT-style graph may take; all are fed from one tokenizer BatchEncoding. */
export const KNOWN_INPUTS = ['input_ids', 'attention_mask', 'token_type_ids'];

/**
 * Imports onnxruntime (unless given), loads the model bytes and creates an InferenceSession. On any
 * failure calls `cleanup()` (e.g. dispose a tokenizer created from options) and rethrows as RagwasmError.
 * @internal
 * @returns {Promise<{ort: object, session: object, bytes: Uint8Array}>}
 * @throws {RagwasmError} INVALID_ARGUMENT (not an onnxruntime module), NOT_FOUND/NETWORK/HTTP (bytes),
 *   INTERNAL (ONNX Runtime could not load the model)
 */
export async function createOrtSession({ ort, model, cache, sessionOptions }, name, cleanup = () => {}) {
  let bytes;
  try {
    ort = ort ?? await importPeer(() => import('onnxruntime-web'), 'onnxruntime-web', 'ragwasm/onnx');
    if (!ort || typeof ort.InferenceSession !== 'function' || typeof ort.Tensor !== 'function') {
      throw invalid(`${name}.ort`, 'an onnxruntime module (InferenceSession, Tensor)', ort);
    }
    bytes = await sourceBytes(model, `${name}.model`, { cache });
  } catch (e) {
    cleanup();
    throw e;
  }
  try {
    const session = await ort.InferenceSession.create(bytes, sessionOptions ?? {});
    return { ort, session, bytes };
  } catch (e) {
    cleanup();
    throw new RagwasmError('INTERNAL', `ragwasm: ${name}.model: ONNX Runtime could not load the model: ${e && e.message ? e.message : e}`, { cause: e });
  }
}

/**
 * Checks the session's inputs (input_ids required, only KNOWN_INPUTS) and returns their element types
 * ('int64' | 'int32'), or an error message for `fail`.
 * @internal
 * @returns {{types: Record<string, 'int64'|'int32'>, error?: undefined} | {error: string, types?: undefined}}
 */
export function checkTokenInputs(session) {
  const inputs = session.inputNames;
  if (!inputs.includes('input_ids')) return { error: `expected an 'input_ids' input, the model has [${inputs.join(', ')}]` };
  const unknown = inputs.filter((n) => !KNOWN_INPUTS.includes(n));
  if (unknown.length) return { error: `unsupported model inputs [${unknown.join(', ')}] (supported: ${KNOWN_INPUTS.join(', ')})` };
  /** @type {Record<string, 'int64'|'int32'>} */
  const types = {};
  const meta = session.inputMetadata;
  for (const n of inputs) {
    let type = 'int64';
    if (isArray(meta)) {
      const md = meta.find((x) => x && x.name === n);
      if (md && md.type) type = md.type;
    }
    if (type !== 'int64' && type !== 'int32') return { error: `input '${n}' has type ${type}, expected int64 or int32` };
    types[n] = type;
  }
  return { types };
}

/**
 * Feeds for every session input from a tokenizer batch ({rows, cols, inputIds, attentionMask, tokenTypeIds}).
 * @internal
 */
export function tokenFeeds(ort, session, enc, inputTypes) {
  const feeds = {};
  const dims = [enc.rows, enc.cols];
  const asInt64 = (a) => { const b = new BigInt64Array(a.length); for (let k = 0; k < a.length; k++) b[k] = BigInt(a[k]); return b; };
  for (const name of session.inputNames) {
    const src = name === 'input_ids' ? enc.inputIds : name === 'attention_mask' ? enc.attentionMask : enc.tokenTypeIds;
    feeds[name] = new ort.Tensor(inputTypes[name] === 'int32' ? 'int32' : 'int64', inputTypes[name] === 'int32' ? Int32Array.from(src) : asInt64(src), dims);
  }
  return feeds;
}

/**
 * session.run with ONNX Runtime failures mapped to RagwasmError INTERNAL.
 * @internal
 */
export async function runSession(session, feeds) {
  try {
    return await session.run(feeds);
  } catch (e) {
    throw new RagwasmError('INTERNAL', `ragwasm: ONNX Runtime failed: ${e && e.message ? e.message : e}`, { cause: e });
  }
}

/** Disposes every output tensor of a run (ORT web keeps their data otherwise until GC). @internal */
export function disposeOutputs(results) {
  for (const v of Object.values(results)) if (v && typeof v.dispose === 'function') v.dispose();
}

/**
 * Opens the session of a token-input model (embedder, cross-encoder) and checks its inputs. `fail(msg)`
 * releases the session and the caller's resources (`release`) and throws INVALID_ARGUMENT naming
 * `${name}.model`, for the caller's own output checks.
 */
export async function openTokenModel({ ort, model, cache, sessionOptions }, name, release) {
  const opened = await createOrtSession({ ort, model, cache, sessionOptions }, name, release);
  const { session } = opened;
  const fail = async (msg) => {
    if (typeof session.release === 'function') await session.release();
    release();
    throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${name}.model: ${msg}`);
  };
  const checked = checkTokenInputs(session);
  if (checked.error) await fail(checked.error);
  return { ort: opened.ort, session, fail, inputTypes: checked.types, bytes: opened.bytes };
}

/** dispose() of the ONNX models: releases `owner._session` once, and `owner._tokenizer` when owned. */
export async function releaseOrtModel(owner) {
  if (owner._session === null) return;
  const s = owner._session;
  owner._session = null;
  if (owner._ownsTokenizer) owner._tokenizer.dispose();
  if (typeof s.release === 'function') await s.release();
}
