// @ts-check
// Limits on files read as untrusted input (issue #33): the sizes checked before a file is read, the
// decompression bounds of DOCX (a ZIP) and the page bound of PDF. One table, used by extractText (every
// file the demo and the CLI turn into text) and by the folder reader (web/src/document/folder.js).
import { MAX_TEXT_BYTES } from '../core/limits.js';
import { expectInteger, expectNumber, expectOptions } from '../core/validate.js';

/**
 * Default limits (docs/reliability.md, "Files as untrusted input"). Each can be changed per call
 * (`options.limits` of extractText / fileToDocument / readDocumentFolder / FolderReader.open) or, in
 * the CLI, by `--max-file-mb`, `--max-folder-mb`.
 * - maxFileBytes: one file, checked against its size before it is read, and as a bound while
 *   reading (a file whose size is not known up front stops there): 256 MiB, the largest text the
 *   library takes (MAX_TEXT_BYTES)
 * - maxFolderBytes: all files one folder reader reads together: 1 GiB
 * - maxFiles: files listed in one folder (below it, recursively): 100,000
 * - maxDepth: folder nesting walked: 64
 * - maxUnzippedBytes: a DOCX's entries together, uncompressed (as declared, then as inflated), or a
 *   PDF's zlib streams other than images, inflated: 256 MiB
 * - maxZipRatio: one DOCX entry's uncompressed / compressed size, for entries over 1 MiB uncompressed:
 *   200 (text XML compresses 5-20x; an 853 kB zip bomb expands ~1000x)
 * - maxZipEntries: entries in one DOCX: 10,000
 * - maxPdfPages: pages of one PDF: 10,000
 */
export const FILE_LIMITS = Object.freeze({
  maxFileBytes: MAX_TEXT_BYTES,
  maxFolderBytes: 1024 * 1024 * 1024,
  maxFiles: 100000,
  maxDepth: 64,
  maxUnzippedBytes: 256 * 1024 * 1024,
  maxZipRatio: 200,
  maxZipEntries: 10000,
  maxPdfPages: 10000,
});

/** ZIP entries smaller than this (uncompressed) are not held to maxZipRatio: tiny XML parts compress very well. */
export const ZIP_RATIO_MIN_BYTES = 1024 * 1024;

/**
 * FILE_LIMITS with the caller's overrides, each checked (a positive integer; maxZipRatio a number >= 1).
 * @internal
 * @param {object|undefined} limits
 * @param {string} name the option's name in messages
 * @returns {typeof FILE_LIMITS}
 * @throws {RagwasmError} INVALID_ARGUMENT (unknown key, not a positive integer)
 */
export function fileLimits(limits, name = 'options.limits') {
  if (limits === undefined) return FILE_LIMITS;
  const o = expectOptions(limits, name, Object.keys(FILE_LIMITS));
  const out = { ...FILE_LIMITS };
  for (const k of Object.keys(FILE_LIMITS)) {
    if (o[k] === undefined) continue;
    out[k] = k === 'maxZipRatio' ? expectNumber(o[k], `${name}.${k}`, { min: 1, max: 1e9 }) : expectInteger(o[k], `${name}.${k}`, { min: 1, max: Number.MAX_SAFE_INTEGER });
  }
  return Object.freeze(out);
}
