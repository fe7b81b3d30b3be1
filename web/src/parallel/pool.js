// @ts-check
// A pool of Workers (browser module Workers, Node worker_threads) running host.js operations, with
// no SharedArrayBuffer: arguments are structured-cloned, typed arrays in replies are transferred.
// `workers: 1` uses no Worker at all: the same operations run in the calling thread.
// The Worker is created with the one static form bundlers follow (Vite, webpack 5, Parcel):
// `new Worker(new URL('./worker.js', import.meta.url), { type: 'module' })`.
import { RagwasmError } from '../core/errors.js';
import { isNode, nodeBuiltin } from '../core/node.js';
import { expectBoolean, expectInteger, expectInternal, expectOptions, invalid, isPlainObject } from '../core/validate.js';
import { createHost } from './host.js';

/** Most Workers a pool starts, whatever the machine reports. */
export const MAX_WORKERS = 8;
// Only WorkerPool.create() holds it: `new WorkerPool(...)` from outside fails with INVALID_ARGUMENT.
const INTERNAL = Symbol('WorkerPool.create');
/** Most Workers a pool accepts when asked explicitly. */
const MAX_REQUESTED = 64;

/**
 * The default pool size: the machine's logical cores (`navigator.hardwareConcurrency`,
 * `os.availableParallelism()` in Node), at least 1, at most MAX_WORKERS (8).
 * @returns {number}
 */
export function defaultWorkers() {
  let n = 1;
  if (isNode) {
    const os = nodeBuiltin('os');
    n = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  } else if (typeof navigator !== 'undefined' && Number.isInteger(navigator.hardwareConcurrency)) {
    n = navigator.hardwareConcurrency;
  }
  return Math.max(1, Math.min(MAX_WORKERS, n));
}

function spawn() {
  if (isNode) {
    const { Worker } = nodeBuiltin('worker_threads');
    // Workers inherit the app's flags; those that only make sense for its entry script
    // (node --input-type=module -e ...) are dropped, and if what remains is refused, none are passed.
    const own = process.execArgv.filter((a) => !/^--(input-type|eval|print)\b|^-[ep]$/.test(a));
    if (own.length === process.execArgv.length) return new Worker(new URL('./worker.js', import.meta.url));
    try {
      return new Worker(new URL('./worker.js', import.meta.url), { execArgv: own });
    } catch {
      return new Worker(new URL('./worker.js', import.meta.url), { execArgv: [] });
    }
  }
  if (typeof Worker === 'undefined') {
    throw new RagwasmError('UNSUPPORTED_ENVIRONMENT', 'ragwasm: workers: this environment has no Worker; pass { workers: 1 }');
  }
  return new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
}

// One Worker with its pending calls; Node workers are ref()'d only while a call is pending, so an
// idle pool never keeps a process alive.
class Lane {
  constructor(index) {
    this.index = index;
    this.pending = new Map();
    this.next = 1;
    this.failed = null;
    this.worker = spawn();
    const onMessage = (msg) => this._reply(msg);
    const onError = (err) => this._fail(err);
    if (isNode) {
      this.worker.on('message', onMessage);
      this.worker.on('error', onError);
      this.worker.on('exit', (code) => this._fail(new Error(`exited with code ${code}`)));
      this.worker.unref();
    } else {
      this.worker.onmessage = (e) => onMessage(e.data);
      this.worker.onerror = (e) => { e.preventDefault?.(); onError(new Error(e.message || 'failed to load or crashed')); };
      this.worker.onmessageerror = () => onError(new Error('sent a message that could not be read'));
    }
  }

  call(op, args, transfer = []) {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, op });
      if (isNode && this.pending.size === 1) this.worker.ref();
      try {
        this.worker.postMessage({ id, op, args }, transfer);
      } catch (e) {
        this._settle(id);
        reject(new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${op}: the arguments cannot be sent to a Worker (${e && e.message})`));
      }
    });
  }

  _settle(id) {
    const p = this.pending.get(id);
    this.pending.delete(id);
    if (isNode && this.pending.size === 0 && !this.failed) this.worker.unref();
    return p;
  }

  _reply(msg) {
    const p = this._settle(msg.id);
    if (!p) return;
    if (msg.ok) p.resolve(msg.value);
    else p.reject(new RagwasmError(msg.code, msg.message));
  }

  _fail(err) {
    if (this.failed) return;
    this.failed = new RagwasmError('INTERNAL', `ragwasm: worker ${this.index}: ${err && err.message ? err.message : String(err)}; the pool must be recreated`);
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.reject(this.failed);
    }
  }

  terminate() {
    if (!this.failed) this.failed = new RagwasmError('DISPOSED', 'ragwasm: this WorkerPool was terminated; create a new one');
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.reject(this.failed);
    }
    return this.worker.terminate();
  }
}

// workers: 1: the host in this thread, no Worker, no copy.
class LocalLane {
  constructor() {
    this.index = 0;
    this.host = createHost();
    this.closed = false;
  }

  async call(op, args) {
    if (this.closed) throw new RagwasmError('DISPOSED', 'ragwasm: this WorkerPool was terminated; create a new one');
    return this.host.call(op, args);
  }

  terminate() {
    this.closed = true;
    return Promise.resolve();
  }
}

/**
 * Workers that hold shards of an index (ShardedBm25Index, ShardedVectorIndex) or an embedder
 * (createParallelEmbedder) and run their operations in parallel. Share one pool between indexes to
 * keep the Worker count down; terminate() it when done (Node: an idle pool never keeps the process
 * alive, but its memory stays until terminate()).
 */
export class WorkerPool {
  /**
   * Starts the Workers and loads the WASM module in each.
   * @param {object} [options]
   * @param {number} [options.workers] 1–64 (default: defaultWorkers(), the core count capped at 8);
   *   1 runs everything in the calling thread with no Worker
   * @param {object} [options.init] the init() options each Worker loads the module with (`build`,
   *   `wasmUrl`, `baseUrl`, `wasmBinary`); default: init()'s defaults
   * @param {boolean} [options.inThread] with workers: 1, false starts one real Worker instead of running
   *   in the calling thread (the baseline a 2-Worker pool is measured against: both pay the copy to a
   *   Worker); default true for workers: 1; must not be true with more workers
   * @param {boolean} [options.warm] true: each Worker (or the calling thread with workers: 1) also runs
   *   a small BM25 build, statistics sync and search and a small vector scan before create() resolves,
   *   so the JIT is warm before the first real build (the pool start-up an app pays at page load);
   *   default false
   * @returns {Promise<WorkerPool>}
   * @throws {RagwasmError} INVALID_ARGUMENT, UNSUPPORTED_ENVIRONMENT (no Worker), and init()'s errors
   */
  static async create(options = {}) {
    const o = expectOptions(options, 'WorkerPool options', ['workers', 'init', 'inThread', 'warm']);
    const n = o.workers === undefined ? defaultWorkers() : expectInteger(o.workers, 'options.workers', { min: 1, max: MAX_REQUESTED });
    if (o.init !== undefined && !isPlainObject(o.init)) throw invalid('options.init', 'init() options', o.init);
    const inThread = o.inThread === undefined ? n === 1 : expectBoolean(o.inThread, 'options.inThread');
    if (inThread && n > 1) throw invalid('options.inThread', 'false or absent with more than one Worker', true);
    const warm = o.warm === undefined ? false : expectBoolean(o.warm, 'options.warm');
    const lanes = [];
    try {
      if (inThread) {
        lanes.push(new LocalLane());
      } else {
        for (let i = 0; i < n; i++) lanes.push(new Lane(i));
      }
      await Promise.all(lanes.map((l) => l.call('init', [o.init ?? {}])));
      if (warm) await Promise.all(lanes.map((l) => l.call('warm', [])));
    } catch (e) {
      await Promise.all(lanes.map((l) => l.terminate()));
      throw e;
    }
    const pool = new WorkerPool(INTERNAL, lanes);
    pool._init = o.init ?? {};  // for init() in this thread (sharded saves pack the container here)
    return pool;
  }

  /** @internal */
  constructor(token, lanes) {
    expectInternal(token === INTERNAL, 'WorkerPool', 'WorkerPool.create(options)');
    this._lanes = lanes;
    this._handles = 0;
    this._terminated = false;
    /** @type {object} init() options for this thread (sharded saves pack the container here); set by create() */
    this._init = {};
  }

  /** Number of Workers (1 = the calling thread). */
  get size() {
    return this._lanes.length;
  }

  /** True when the work runs in Workers (size > 1). */
  get parallel() {
    return !(this._lanes[0] instanceof LocalLane);
  }

  /** @internal a new handle for an object held in every Worker */
  _handle() {
    if (this._terminated) throw new RagwasmError('DISPOSED', 'ragwasm: this WorkerPool was terminated; create a new one');
    return ++this._handles;
  }

  /** @internal runs op on Worker i */
  _call(i, op, args, transfer) {
    return this._lanes[i].call(op, args, transfer);
  }

  /** @internal runs op on every Worker, args(i) giving each its arguments */
  _all(op, args) {
    return Promise.all(this._lanes.map((l, i) => l.call(op, typeof args === 'function' ? args(i) : args)));
  }

  /**
   * Stops every Worker; pending calls reject with DISPOSED. Idempotent.
   * @returns {Promise<void>}
   */
  async terminate() {
    if (this._terminated) return;
    this._terminated = true;
    await Promise.all(this._lanes.map((l) => l.terminate()));
  }
}
