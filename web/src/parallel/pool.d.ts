/** Most Workers a pool starts by default, whatever the machine reports. */
export declare const MAX_WORKERS: number;
/** The machine's logical cores (navigator.hardwareConcurrency / os.availableParallelism()), in [1, MAX_WORKERS]. */
export declare function defaultWorkers(): number;

export interface WorkerPoolOptions {
  /** 1–64 (default defaultWorkers()); 1 runs in the calling thread with no Worker */
  workers?: number;
  /** init() options each Worker loads the WASM module with */
  init?: { build?: 'release' | 'debug'; wasmUrl?: string | URL; baseUrl?: string | URL; wasmBinary?: ArrayBuffer | Uint8Array };
}

export interface WorkerPoolCreateOptions extends WorkerPoolOptions {
  /** workers: 1 only: false starts one real Worker instead of using the calling thread (default true for 1) */
  inThread?: boolean;
  /** true: every Worker also builds, synchronizes and searches a small BM25 index and scans a small vector index at start (JIT warm-up, as an app does at page load), so the first real build runs warmed code; default false */
  warm?: boolean;
}

/** Workers (browser module Workers / Node worker_threads) holding index shards or an embedder; no SharedArrayBuffer. */
export declare class WorkerPool {
  static create(options?: WorkerPoolCreateOptions): Promise<WorkerPool>;
  /** Number of Workers (1 = the calling thread). */
  readonly size: number;
  /** True when the work runs in Workers. */
  readonly parallel: boolean;
  /** Stops every Worker; pending calls reject with DISPOSED. */
  terminate(): Promise<void>;
  /** @internal The init() options of the pool, for init() in the calling thread (sharded saves). */
  _init: object;
}
