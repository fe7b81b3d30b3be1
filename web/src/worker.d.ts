// Types of ragwasm/worker (web/src/worker.js).
import type { PipelineConfig } from './pipeline/pipeline.js';

export { RagwasmError } from './core/errors.js';

export interface WorkerOptions {
  /** init()'s options, applied in the Worker before anything else (wasmUrl, baseUrl, build). */
  init?: { build?: 'release' | 'debug'; wasmUrl?: string | URL; baseUrl?: string | URL };
  /** A Worker already running ragwasm's collection-worker script (default: one is started). */
  worker?: Worker;
}

/** A Collection in its own Worker; every method mirrors Collection's and returns a Promise. */
export class WorkerCollection {
  private constructor();
  static create(config?: Partial<PipelineConfig> | Record<string, unknown>, options?: Record<string, unknown>, workerOptions?: WorkerOptions): Promise<WorkerCollection>;
  static load(name: string, options?: Record<string, unknown>, workerOptions?: WorkerOptions): Promise<WorkerCollection>;
  /** transfer: move the bytes to the Worker (the caller's buffer is detached) instead of copying. */
  static fromBytes(bytes: Uint8Array, options?: Record<string, unknown>, workerOptions?: WorkerOptions & { transfer?: boolean }): Promise<WorkerCollection>;
  /** Chunks, as of the last write the Worker answered. */
  readonly size: number;
  readonly disposed: boolean;
  add(documents: unknown, options?: { onProgress?: (progress: { done: number; total: number }) => void; signal?: AbortSignal; batchSize?: number }): Promise<{ documents: number; chunks: number; zeroVectors: string[] }>;
  upsert(documents: unknown, options?: { onProgress?: (progress: { done: number; total: number }) => void; signal?: AbortSignal; batchSize?: number }): Promise<Record<string, unknown>>;
  remove(ids: string | string[]): Promise<Record<string, unknown>>;
  search(query: string, options?: Record<string, unknown>): Promise<Array<Record<string, any>>>;
  ask(question: string, options?: Record<string, unknown>): Promise<Record<string, any>>;
  save(name: string, options?: { dir?: string; backend?: 'node' | 'opfs' | 'indexeddb' }): Promise<unknown>;
  toBytes(): Promise<Uint8Array>;
  dispose(): void;
}
