export interface Sentence {
  /** UTF-16 offset, inclusive. */
  start: number;
  /** UTF-16 offset, exclusive. */
  end: number;
  /** source.slice(start, end) */
  text: string;
}
export interface SentenceOptions {
  /** Extra abbreviations (e.g. ['approx', 'e.g']); at most 100,000, each 1–64 bytes. Default []. */
  abbreviations?: string[];
  /** Every line break ends a sentence. Default false. */
  newlineBreaks?: boolean;
}
/** A reusable sentence splitter owning WASM memory: call dispose() when done. */
export class SentenceSplitter {
  /** Not constructible: use the static factories (new throws INVALID_ARGUMENT at run time). */
  private constructor(native: object);
  static create(options?: SentenceOptions): SentenceSplitter;
  split(text: string): Sentence[];
  dispose(): void;
  readonly disposed: boolean;
}
export function splitSentences(text: string, options?: SentenceOptions): Sentence[];
export function foldText(text: string, options?: { lowercase?: boolean; accents?: boolean }): string;
export function findInvalidUtf8(bytes: Uint8Array | ArrayBuffer): number;
export function decodeUtf8(bytes: Uint8Array | ArrayBuffer, options?: { fatal?: boolean }): string;
