// Type declarations of the ragwasm/parse entry.
export * from './document/parse.js';
export * from './document/file-document.js';
// explicit: ./document/limits.d.ts also declares @internal names for the library's own modules
export { FILE_LIMITS, FileLimits } from './document/limits.js';
export { openFolder, readDocumentFolder } from './document/folder.js';
export type { FolderReader, FolderDocument, FileFailure } from './document/folder.js';
