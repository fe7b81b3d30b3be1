// Shared ONNX Runtime plumbing for the ONNX embedder (embed.js) and the cross-encoder reranker
// (rerank.js): model bytes from a URL / ArrayBuffer / File (Cache Storage in browsers), session
// creation with RagwasmError mapping, input checks and int64/int32 feeds from a tokenizer batch.
// Internal: nothing here is exported from index.js.
import { RagwasmError } from '../core/errors.js';
import { invalid } from '../core/validate.js';

/** Model inputs a BERT-style graph may take; all are fed from one tokenizer BatchEncoding. */
export const KNOWN_INPUTS = ['input_ids', 'attention_mask', 'token_type_ids'];

/**
 * Reads model bytes from an ArrayBuffer, Uint8Array, Blob/File, or URL (fetch; file: URLs in Node).
 * @internal
 */
export async function loadBytes(source, name, { cache = false, signal } = {}) {
  if (source instanceof Uint8Array) return source;
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  if (typeof Blob !== 'undefined' && source instanceof Blob) return new Uint8Array(await source.arrayBuffer());
  if (typeof source === 'string' || source instanceof URL) {
    let url;
    try {
      url = new URL(String(source), typeof location !== 'undefined' ? location.href : undefined);
    } catch {
      throw invalid(name, 'an absolute URL, ArrayBuffer, Uint8Array or File', source);
    }
    if (url.protocol === 'file:') {
      const fs = await import('node:fs/promises');
      try {
        return new Uint8Array(await fs.readFile(url));
      } catch (e) {
        throw new RagwasmError('NOT_FOUND', `ragwasm: ${name}: cannot read ${url.href}: ${e.message}`, { cause: e });
      }
    }
    // Browser: keep model bytes in Cache Storage so a reload does not download them again.
    // Best effort: a cache that cannot be opened or read (private mode, quota, SecurityError) only
    // means downloading. Keyed by URL: a changed file at the same URL needs caches.delete('ragwasm-models-v1').
    let store = null;
    if (cache && typeof caches !== 'undefined') {
      try {
        store = await caches.open('ragwasm-models-v1');
        const hit = await store.match(url.href);
        if (hit) return new Uint8Array(await hit.arrayBuffer());
      } catch {
        store = null;
      }
    }
    let res;
    try {
      res = await fetch(url.href, { signal });
    } catch (e) {
      if (signal && signal.aborted) throw new RagwasmError('ABORTED', `ragwasm: ${name}: download aborted`, { cause: e });
      throw new RagwasmError('NETWORK', `ragwasm: ${name}: cannot fetch ${url.href}: ${e.message}`, { cause: e });
    }
    if (!res.ok) throw new RagwasmError('HTTP', `ragwasm: ${name}: ${url.href} answered HTTP ${res.status}`);
    const buf = await res.arrayBuffer();
    if (store) {
      try {
        await store.put(url.href, new Response(buf.slice(0)));
      } catch {
        // Quota full or storage refused: the model still loads, it is just fetched again next time.
      }
    }
    return new Uint8Array(buf);
  }
  throw invalid(name, 'an ArrayBuffer, Uint8Array, File/Blob or URL', source);
}

/**
 * Imports onnxruntime (unless given), loads the model bytes and creates an InferenceSession. On any
 * failure calls `cleanup()` (e.g. dispose a tokenizer created from options) and rethrows as RagwasmError.
 * @internal
 * @returns {Promise<{ort: object, session: object}>}
 * @throws {RagwasmError} INVALID_ARGUMENT (not an onnxruntime module), NOT_FOUND/NETWORK/HTTP (bytes),
 *   INTERNAL (ONNX Runtime could not load the model)
 */
export async function createOrtSession({ ort, model, cache, sessionOptions }, name, cleanup = () => {}) {
  let bytes;
  try {
    ort = ort ?? await import('onnxruntime-web');
    if (!ort || typeof ort.InferenceSession !== 'function' || typeof ort.Tensor !== 'function') {
      throw invalid(`${name}.ort`, 'an onnxruntime module (InferenceSession, Tensor)', ort);
    }
    bytes = await loadBytes(model, `${name}.model`, { cache });
  } catch (e) {
    cleanup();
    throw e;
  }
  try {
    const session = await ort.InferenceSession.create(bytes, sessionOptions ?? {});
    return { ort, session };
  } catch (e) {
    cleanup();
    throw new RagwasmError('INTERNAL', `ragwasm: ${name}.model: ONNX Runtime could not load the model: ${e && e.message ? e.message : e}`, { cause: e });
  }
}

/**
 * Checks the session's inputs (input_ids required, only KNOWN_INPUTS) and returns their element types
 * ('int64' | 'int32'), or an error message for `fail`.
 * @internal
 * @returns {{types: Record<string, 'int64'|'int32'>} | {error: string}}
 */
export function checkTokenInputs(session) {
  const inputs = session.inputNames;
  if (!inputs.includes('input_ids')) return { error: `expected an 'input_ids' input, the model has [${inputs.join(', ')}]` };
  const unknown = inputs.filter((n) => !KNOWN_INPUTS.includes(n));
  if (unknown.length) return { error: `unsupported model inputs [${unknown.join(', ')}] (supported: ${KNOWN_INPUTS.join(', ')})` };
  const types = {};
  const meta = session.inputMetadata;
  for (const n of inputs) {
    let type = 'int64';
    if (Array.isArray(meta)) {
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
  return { ort: opened.ort, session, fail, inputTypes: checked.types };
}

/** dispose() of the ONNX models: releases `owner._session` once, and `owner._tokenizer` when owned. */
export async function releaseOrtModel(owner) {
  if (owner._session === null) return;
  const s = owner._session;
  owner._session = null;
  if (owner._ownsTokenizer) owner._tokenizer.dispose();
  if (typeof s.release === 'function') await s.release();
}
