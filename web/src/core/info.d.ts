export interface ModuleInfo {
  version: string;
  /** Largest text argument in UTF-8 bytes. */
  maxTextBytes: number;
  simd: boolean;
  exceptions: string;
}
/** Facts about the loaded module. Throws NOT_INITIALIZED before init(). */
export function info(): ModuleInfo;
