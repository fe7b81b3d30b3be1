export type ErrorCode =
  | 'INVALID_ARGUMENT' | 'INVALID_UTF8' | 'LIMIT_EXCEEDED' | 'CORRUPT_INDEX' | 'UNSUPPORTED_VERSION'
  | 'DIMENSION_MISMATCH' | 'NOT_FOUND' | 'DUPLICATE_ID' | 'PARSE_ERROR' | 'OUT_OF_MEMORY' | 'INTERNAL'
  | 'NOT_INITIALIZED' | 'DISPOSED' | 'ABORTED' | 'TIMEOUT' | 'NETWORK' | 'HTTP' | 'UNSUPPORTED_ENVIRONMENT' | 'INTEGRITY';
/** The one error type every ragwasm function throws. */
export class RagwasmError extends Error {
  constructor(code: ErrorCode | string, message: string, details?: Record<string, unknown>);
  readonly name: 'RagwasmError';
  /** Stable code for programs. */
  readonly code: ErrorCode | string;
  readonly details?: Record<string, unknown>;
}
export const ErrorCodes: readonly ErrorCode[];
/** @internal Runs a binding call and turns its {ok: false} reply into a RagwasmError (library modules only). */
export function callWasm<T = any>(fn: () => any): T;
