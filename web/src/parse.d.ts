// Type declarations of the ragwasm/parse entry.
export * from './document/parse.js';
export * from './document/file-document.js';
export * from './document/limits.js';
export { openFolder, readDocumentFolder } from './document/folder.js';
export type { FolderReader, FolderDocument, FileFailure } from './document/folder.js';
