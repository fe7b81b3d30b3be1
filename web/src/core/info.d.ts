export interface ModuleInfo {
  version: string;
  /** Largest text argument in UTF-8 bytes. */
  maxTextBytes: number;
  /** Deepest JSON nesting (arrays + objects) accepted by any JSON input (configs, tokenizer.json, ...): 256. */
  maxJsonDepth: number;
  /** Most dynamic-programming cells of one anls / rougeL / evidence alignment: 1e8. */
  maxAlignmentCells: number;
  /** Largest judge reply parseJudgeScore / parseClaimScores / parseKeyValues read, in UTF-8 bytes: 1 MiB. */
  maxJudgeReplyBytes: number;
  simd: boolean;
  exceptions: string;
}
/** Facts about the loaded module. Throws NOT_INITIALIZED before init(). */
export function info(): ModuleInfo;
