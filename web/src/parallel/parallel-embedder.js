// @ts-check
// createParallelEmbedder: the static model in every Worker of a pool, texts embedded across them (sharded.js).
import { RagwasmError } from '../core/errors.js';
import { sourceBytes } from '../core/source-bytes.js';
import { expectArray, expectInteger, expectOptions, expectString, invalid, isPlainObject } from '../core/validate.js';
import { init } from '../core/module.js';
import { defaultStaticModelUrl, MAX_BATCH_TEXTS, checkAbort, embedRunOptions, splitRows } from '../embed/embed.js';
import { poolFor } from './sharded-common.js';

/** @typedef {import('./pool.js').WorkerPool} WorkerPool */

const TAIL_BATCH = 64;

/**
 * The static embedder in every Worker of a pool, under the embedder contract (docs/api.md): texts are
 * embedded in batches of `batch` across the Workers, vectors equal StaticEmbedder's bit for bit.
 * The embedder also has `embedDocuments(documents, {fields, kind, signal, onProgress})`: the vectors of
 * documents' fields joined by one space (default fields `['title', 'text']`; a field that is null or
 * undefined is left out), equal bit for bit to `embed()` of the joined strings, without making them in
 * the calling thread: the fields' own strings are posted and the Workers write the joined UTF-8
 * (joining `title + ' ' + text` for a corpus, then posting it, costs the calling thread ~50 CPU-ms per
 * 31,098 SciFact abstracts, docs/parallel.md).
 * @param {object} [options]
 * @param {ArrayBuffer|Uint8Array|Blob|Response|URL|string} [options.model] as createStaticEmbedder
 *   (default: the ragwasm-static-model package's model)
 * @param {number} [options.workers] pool size (as WorkerPool.create), when no pool is given
 * @param {WorkerPool} [options.pool] a pool to share
 * @param {object} [options.init] init() options of a new pool's Workers
 * @param {number} [options.batch=2048] most texts per message, 1–65536 (with several Workers the last
 *   batches shrink, down to 64 texts, so the Workers finish together)
 * @returns {Promise<{dimension: number, id: string, embed: (texts: string[], options?: object) => Promise<Float32Array[]>,
 *   embedDocuments: (documents: object[], options?: {fields?: string[], kind?: string, signal?: AbortSignal, onProgress?: Function}) => Promise<Float32Array[]>,
 *   dispose: () => Promise<void>}>}
 * @throws {RagwasmError} as createStaticEmbedder and WorkerPool.create; embedDocuments: INVALID_ARGUMENT
 *   (no documents, a document that is not an object, a field value that is not a string, null or
 *   undefined, naming `documents[i].field`; empty or non-string field names), LIMIT_EXCEEDED, ABORTED, DISPOSED
 */
export async function createParallelEmbedder(options = {}) {
  const o = expectOptions(options, 'createParallelEmbedder options', ['model', 'workers', 'pool', 'init', 'batch']);
  const batch = o.batch === undefined ? 2048 : expectInteger(o.batch, 'options.batch', { min: 1, max: 65536 });
  const model = o.model === undefined ? await defaultStaticModelUrl() : o.model;
  const bytes = await sourceBytes(model, o.model === undefined ? 'the default static model' : 'options.model');
  const parallel = {};
  for (const key of ['workers', 'pool', 'init']) if (o[key] !== undefined) parallel[key] = o[key];
  const { pool, owned } = await poolFor(parallel, 'createParallelEmbedder options');
  const handle = pool._handle();
  let info;
  try {
    [info] = await pool._all('embed.create', [handle, bytes]);
  } catch (e) {
    if (owned) await pool.terminate();
    throw e;
  }
  let disposed = false;
  // each Worker takes the next batch as soon as it is free; near the end batches shrink (to a quarter
  // of what is left per Worker, at least TAIL_BATCH texts), so the Workers finish together instead of
  // one running the last full batch alone (each text's vector does not depend on its batch).
  // send(start, end) posts texts [start, end) to Worker w
  const run = async (total, r, send) => {
    const out = new Array(total);
    let next = 0;
    let done = 0;
    const lanes = pool.size;
    const lane = async (w) => {
      while (next < total) {
        checkAbort(r.signal);
        const start = next;
        const size = lanes === 1 ? batch : Math.min(batch, Math.max(TAIL_BATCH, Math.ceil((total - start) / (2 * lanes))));
        next = Math.min(total, next + size);
        const flat = await send(w, start, next);
        const rows = splitRows(flat, flat.length / info.dimension, info.dimension);
        for (let i = 0; i < rows.length; i++) out[start + i] = rows[i];
        done += rows.length;
        if (r.onProgress) r.onProgress({ done, total });
      }
    };
    await Promise.all(Array.from({ length: pool.size }, (_, w) => lane(w)));
    return out;
  };
  const embedder = {
    dimension: info.dimension,
    id: info.id,
    async embed(texts, runOptions = {}) {
      if (disposed) throw new RagwasmError('DISPOSED', 'ragwasm: this parallel embedder was disposed');
      const r = embedRunOptions(runOptions, 'embed options');
      const list = expectArray(texts, 'texts', { maxLength: MAX_BATCH_TEXTS, item: (t, n) => expectString(t, n) });
      if (list.length === 0) throw new RagwasmError('INVALID_ARGUMENT', 'ragwasm: texts: expected at least one text, got an empty array');
      return run(list.length, r, (w, start, end) => pool._call(w, 'embed.run', [handle, list.slice(start, end)]));
    },
    async embedDocuments(docs, runOptions = {}) {
      if (disposed) throw new RagwasmError('DISPOSED', 'ragwasm: this parallel embedder was disposed');
      const o = expectOptions(runOptions, 'embedDocuments options', ['fields', 'kind', 'signal', 'onProgress']);
      const given = o.fields;
      const r = embedRunOptions({ kind: o.kind, signal: o.signal, onProgress: o.onProgress }, 'embedDocuments options');
      const fields = given === undefined ? ['title', 'text']
        : expectArray(given, 'options.fields', { maxLength: 64, item: (f, n) => expectString(f, n, { allowEmpty: false }) });
      if (fields.length === 0) throw invalid('options.fields', 'at least one field name', given);
      const list = expectArray(docs, 'documents', { maxLength: MAX_BATCH_TEXTS });
      if (list.length === 0) throw new RagwasmError('INVALID_ARGUMENT', 'ragwasm: documents: expected at least one document, got an empty array');
      // the fields' values read once, in one flat array (parts of k), checked here
      const k = fields.length;
      const parts = [];
      for (let i = 0; i < list.length; i++) {
        const d = list[i];
        if (!isPlainObject(d)) throw invalid(`documents[${i}]`, 'a document object', d);
        for (let j = 0; j < k; j++) {
          let v;
          try {
            v = d[fields[j]];
          } catch (e) {
            throw invalid(`documents[${i}].${fields[j]}`, 'a readable field', e && e.message);
          }
          if (v !== undefined && v !== null && typeof v !== 'string') throw invalid(`documents[${i}].${fields[j]}`, 'a string, null or undefined', v);
          parts.push(v ?? null);
        }
      }
      return run(list.length, r, (w, start, end) => pool._call(w, 'embed.runParts', [handle, parts.slice(start * k, end * k), k]));
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      if (owned) await pool.terminate();
      else await pool._all('dispose', [handle]).catch(() => {});
    },
  };
  return embedder;
}
