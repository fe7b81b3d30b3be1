// The file-limit flags of the commands that read dataset folders or folders of documents (issue #33):
// --max-file-mb and --max-folder-mb override FILE_LIMITS.maxFileBytes / maxFolderBytes of the folder
// reader (web/src/document/folder.js). Defaults: 256 MiB per file, 1 GiB per folder.
import { FILE_LIMITS } from '../../src/parse.js';
import { UsageError } from './options.mjs';

const MIB = 1024 * 1024;

/** Option definitions to spread into a command's `options`. */
export const FILE_LIMIT_OPTIONS = {
  'max-file-mb': { type: 'string', help: `largest file read from a folder, in MiB (default ${FILE_LIMITS.maxFileBytes / MIB}; checked before reading)` },
  'max-folder-mb': { type: 'string', help: `most bytes read from one folder, in MiB (default ${FILE_LIMITS.maxFolderBytes / MIB})` },
};

/**
 * The folder reader's limits from --max-file-mb / --max-folder-mb, or undefined (the defaults).
 * @param {object} values parsed options
 * @param {new (message: string) => Error} [Usage] the command's usage-error class
 * @throws {UsageError} not a number > 0
 */
export function fileLimitsFrom(values, Usage = UsageError) {
  const limits = {};
  for (const [flag, key] of [['max-file-mb', 'maxFileBytes'], ['max-folder-mb', 'maxFolderBytes']]) {
    const v = values[flag];
    if (v === undefined) continue;
    const mb = Number(v);
    if (!/^\d+(\.\d+)?$/.test(v) || !(mb > 0) || mb * MIB > Number.MAX_SAFE_INTEGER) throw new Usage(`--${flag}: expected a size in MiB > 0, got '${v}'`);
    limits[key] = Math.max(1, Math.floor(mb * MIB));
  }
  return Object.keys(limits).length ? limits : undefined;
}

/** The dataset readers' options for a command: limits from the flags, per-file failures and warnings on io.stderr. */
export function datasetOptions(values, io, command, Usage = UsageError) {
  const limits = fileLimitsFrom(values, Usage);
  return {
    ...(limits ? { limits } : {}),
    onError: (f) => io.stderr.write(`ragwasm ${command}: skipped ${f.file} (${f.code}: ${f.message})\n`),
    onWarning: (m) => io.stderr.write(`ragwasm ${command}: warning: ${m}\n`),
  };
}
