/** Limits on files read as untrusted input (docs/reliability.md, "Files as untrusted input"). */
export interface FileLimits {
  /** One file, checked before it is read and as a bound while reading (default 256 MiB). */
  maxFileBytes: number;
  /** All files one folder reader reads (default 1 GiB). */
  maxFolderBytes: number;
  /** Files listed in one folder (default 100,000). */
  maxFiles: number;
  /** Folder nesting walked (default 64). */
  maxDepth: number;
  /** A DOCX's entries together, uncompressed, or a PDF's non-image zlib streams, inflated (default 256 MiB). */
  maxUnzippedBytes: number;
  /** One DOCX entry's uncompressed / compressed size, entries over 1 MiB (default 200). */
  maxZipRatio: number;
  /** Entries in one DOCX (default 10,000). */
  maxZipEntries: number;
  /** Pages of one PDF (default 10,000). */
  maxPdfPages: number;
}
export const FILE_LIMITS: Readonly<FileLimits>;

/** @internal ZIP entries smaller than this (uncompressed) are not held to maxZipRatio. */
export const ZIP_RATIO_MIN_BYTES: number;
/** @internal FILE_LIMITS with the caller's overrides, each checked (INVALID_ARGUMENT). */
export function fileLimits(limits: Partial<FileLimits> | undefined, name?: string): Readonly<FileLimits>;
