// @ts-check
// The page side of ragwasm/worker (issue 29): WorkerCollection runs a Collection in its own module Worker
// (browser) or worker_threads Worker (Node) behind Collection's async API. The Worker is started, sent
// init's options first and awaited until it posts 'ready' (it queues everything before), so no message
// is lost; errors come back as RagwasmError with the Worker's code; bytes are transferred.
import { RagwasmError } from '../core/errors.js';
import { isNode, nodeBuiltin } from '../core/node.js';
import { expectOptions, expectString, invalid, isInstance } from '../core/validate.js';

function spawn() {
  if (isNode) {
    const { Worker } = nodeBuiltin('worker_threads');
    return new Worker(new URL('./collection-worker.js', import.meta.url));
  }
  if (typeof Worker === 'undefined') throw new RagwasmError('UNSUPPORTED_ENVIRONMENT', 'ragwasm: worker: this environment has no Worker');
  return new Worker(new URL('./collection-worker.js', import.meta.url), { type: 'module' });
}

// Arguments cross by structured cloning: a function or another uncloneable value is named here, not as
// a DataCloneError from postMessage.
function cloneable(value, name) {
  try {
    structuredClone(value);
  } catch {
    throw invalid(name, 'plain data (functions and class instances cannot cross to the Worker)', value);
  }
  return value;
}

const failed = (code, message) => new RagwasmError(code, message);

/**
 * A Collection in a Worker. Every method returns a Promise and mirrors Collection's (docs/collection.md);
 * calls run in order in the Worker.
 * @example
 * // WorkerCollection is the export of the entry ragwasm/worker
 * const col = await WorkerCollection.create();
 * await col.add(docs, { onProgress: ({ done, total }) => {} });
 * const hits = await col.search('warranty', { k: 5 });
 * col.dispose();
 */
export class WorkerCollection {
  /** @private */
  constructor(worker) {
    this._worker = worker;
    this._pending = new Map();
    this._next = 1;
    this._dead = null;
    this._size = 0;
    const onMessage = (msg) => {
      const p = this._pending.get(msg.id);
      if (p === undefined) return;
      if (msg.progress) {
        p.onProgress?.(msg.progress);
        return;
      }
      this._pending.delete(msg.id);
      p.cleanup?.();
      if (msg.ok) p.resolve(msg.value);
      else p.reject(failed(msg.code, msg.message));
    };
    const onError = (e) => {
      this._dead = failed('INTERNAL', `ragwasm: worker: the Worker failed: ${e && e.message ? e.message : String(e)}`);
      for (const p of this._pending.values()) p.reject(this._dead);
      this._pending.clear();
    };
    if (isNode) {
      worker.on('message', onMessage);
      worker.on('error', onError);
    } else {
      worker.addEventListener('message', (e) => onMessage(e.data));
      worker.addEventListener('error', (e) => { e.preventDefault?.(); onError(e); });
    }
  }

  // Starts the Worker and waits for its 'ready' (init() done in the Worker).
  static async _start(options) {
    const o = expectOptions(options, 'worker options', ['init', 'worker']);
    const worker = o.worker ?? spawn();
    const col = new WorkerCollection(worker);
    await new Promise((resolve, reject) => {
      const ready = (msg) => {
        if (!msg || msg.type !== 'ready') return;
        off();
        if (msg.ok) resolve();
        else reject(failed(msg.code, msg.message));
      };
      const error = (e) => { off(); reject(failed('INTERNAL', `ragwasm: worker: the Worker failed to start: ${e && e.message ? e.message : String(e)}`)); };
      const onMsg = (e) => ready(isNode ? e : e.data);
      const off = () => {
        if (isNode) { worker.off('message', onMsg); worker.off('error', error); } else { worker.removeEventListener('message', onMsg); worker.removeEventListener('error', error); }
      };
      if (isNode) { worker.on('message', onMsg); worker.on('error', error); } else { worker.addEventListener('message', onMsg); worker.addEventListener('error', error); }
      worker.postMessage({ op: 'init', args: [cloneable(o.init ?? {}, 'options.init')] });
    }).catch((e) => { worker.terminate(); throw e; });
    if (isNode) worker.unref();  // an idle Worker never keeps the process alive (ref'd while a call is pending)
    return col;
  }

  /**
   * @param {string} op
   * @param {unknown[]} args
   * @param {{onProgress?: Function, signal?: AbortSignal, transfer?: Transferable[]}} [options]
   */
  _call(op, args, { onProgress, signal, transfer = [] } = {}) {
    if (this._worker === null) return Promise.reject(failed('DISPOSED', 'ragwasm: worker: this WorkerCollection was disposed'));
    if (this._dead) return Promise.reject(this._dead);
    if (signal?.aborted) return Promise.reject(failed('ABORTED', 'ragwasm: worker: aborted before it started'));
    const id = this._next++;
    return new Promise((resolve, reject) => {
      const entry = { resolve, reject, onProgress };
      if (signal) {
        const abort = () => this._worker?.postMessage({ op: 'abort', target: id });
        signal.addEventListener('abort', abort, { once: true });
        entry.cleanup = () => signal.removeEventListener('abort', abort);
      }
      this._pending.set(id, entry);
      if (isNode) this._worker.ref();
      this._worker.postMessage({ id, op, args }, transfer);
    }).finally(() => { if (isNode && this._pending.size === 0) this._worker?.unref(); });
  }

  /**
   * Collection.create(config, options) in a new Worker.
   * @param {object} [config] pipeline config (plain data)
   * @param {object} [options] Collection.create options that are plain data (no embedder function: the
   *   Worker uses the default static model or what the config names)
   * @param {{init?: object, worker?: Worker}} [workerOptions] init: init()'s options in the Worker (wasmUrl, ...);
   *   worker: a Worker you started on `ragwasm/worker-script` yourself
   * @returns {Promise<WorkerCollection>}
   * @throws {RagwasmError} as Collection.create; INVALID_ARGUMENT for an argument that cannot cross to a Worker
   */
  static async create(config = {}, options = {}, workerOptions = {}) {
    cloneable(config, 'config');
    cloneable(options, 'options');
    const col = await WorkerCollection._start(workerOptions);
    return col._open('create', [config, options]);
  }

  /** Collection.load(name, options) in a new Worker. @returns {Promise<WorkerCollection>} */
  static async load(name, options = {}, workerOptions = {}) {
    expectString(name, 'name');
    cloneable(options, 'options');
    const col = await WorkerCollection._start(workerOptions);
    return col._open('load', [name, options]);
  }

  /**
   * Collection.fromBytes(bytes, options) in a new Worker. The bytes are copied to it, or moved with
   * `{transfer: true}` in workerOptions (the caller's buffer is then detached).
   * @returns {Promise<WorkerCollection>}
   */
  static async fromBytes(bytes, options = {}, workerOptions = {}) {
    if (!isInstance(bytes, Uint8Array)) throw invalid('bytes', 'a Uint8Array', bytes);
    cloneable(options, 'options');
    const { transfer, ...rest } = expectOptions(workerOptions, 'worker options', ['init', 'worker', 'transfer']);
    const col = await WorkerCollection._start(rest);
    return col._open('fromBytes', [bytes, options], transfer ? [bytes.buffer] : []);
  }

  async _open(op, args, transfer = []) {
    try {
      this._size = (await this._call(op, args, { transfer })).size;
    } catch (e) {
      this.dispose();
      throw e;
    }
    return this;
  }

  /** Chunks (after the last add/remove the Worker answered). */
  get size() { return this._size; }

  async _write(op, docs, options) {
    const o = expectOptions(options, `${op} options`, ['onProgress', 'signal', 'batchSize']);
    const { onProgress, signal, ...rest } = o;
    if (onProgress !== undefined && typeof onProgress !== 'function') throw invalid('options.onProgress', 'a function', onProgress);
    cloneable(docs, 'documents');
    const r = await this._call(op, [docs, { ...rest, progress: onProgress !== undefined }], { onProgress, signal });
    this._size = await this._call('size', []);
    return r;
  }

  /** Collection.add: onProgress({done, total}) is called on the page; signal aborts the add in the Worker. */
  async add(documents, options = {}) { return this._write('add', documents, options); }
  /** Collection.upsert, as add(). */
  async upsert(documents, options = {}) { return this._write('upsert', documents, options); }
  /** Collection.remove. */
  async remove(ids) {
    const r = await this._call('remove', [cloneable(ids, 'ids')]);
    this._size = await this._call('size', []);
    return r;
  }
  /** Collection.search (options as plain data; a reranker function cannot cross). */
  async search(query, options = {}) { return this._call('search', [query, cloneable(options, 'options')]); }
  /** ask(collection, question, options) of ragwasm, extractive (an LLM client cannot cross to the Worker). */
  async ask(question, options = {}) { return this._call('ask', [question, cloneable(options, 'options')]); }
  /** Collection.save(name, opts) from the Worker (OPFS or IndexedDB in a browser Worker, files in Node). */
  async save(name, options = {}) { return this._call('save', [name, cloneable(options, 'options')]); }
  /** Collection.toBytes(), moved (transferred) out of the Worker. @returns {Promise<Uint8Array>} */
  async toBytes() { return this._call('toBytes', []); }

  /** Stops the Worker; pending calls reject with DISPOSED. */
  dispose() {
    if (this._worker === null) return;
    const w = this._worker;
    this._worker = null;
    for (const p of this._pending.values()) p.reject(failed('DISPOSED', 'ragwasm: worker: disposed while a call was pending'));
    this._pending.clear();
    w.terminate();
  }
  get disposed() { return this._worker === null; }
}
