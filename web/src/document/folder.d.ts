import type { FileLimits } from './limits.js';
export { FILE_LIMITS } from './limits.js';

/** A per-file failure of the folder reader. */
export interface FileFailure {
  /** The path relative to the folder ('/' separators). */
  file: string;
  /** A RagwasmError code: INVALID_ARGUMENT, NOT_FOUND, LIMIT_EXCEEDED, PARSE_ERROR. */
  code: string;
  message: string;
}
export interface FolderDocument {
  id: string;
  title: string;
  text: string;
  metadata: { name: string; format: string };
}
/** A folder opened for reading untrusted files (Node): paths confined to it, regular files only, sizes capped. */
export interface FolderReader {
  /** The folder's real path (symbolic links resolved). */
  readonly root: string;
  readonly limits: Readonly<FileLimits>;
  /** Bytes read so far (counted against limits.maxFolderBytes). */
  readonly bytesRead: number;
  resolve(file: string): string;
  readBytes(file: string): Uint8Array;
  readText(file: string, encoding?: 'utf-8' | 'latin1'): string;
  readDocumentSync(file: string, options?: { id?: string; title?: string }): FolderDocument;
  readDocument(file: string, options?: { id?: string; title?: string; pdfjsUrl?: string }): Promise<FolderDocument>;
  list(options?: { extensions?: string[] }): { files: string[]; errors: FileFailure[] };
  /** manifest.json ([{id, file, title?}]) read through this reader. */
  readManifest(name?: string): { id: string; file: string; title?: string; [key: string]: unknown }[];
}
/** Opens a folder for reading untrusted files (Node only). */
export function openFolder(dir: string, options?: { limits?: Partial<FileLimits> }): FolderReader;
/** The documents of a folder (manifest.json or every supported file), with per-file failures. */
export function readDocumentFolder(dir: string, options?: { manifest?: boolean; limits?: Partial<FileLimits>; pdfjsUrl?: string }):
  Promise<{ documents: FolderDocument[]; errors: FileFailure[]; manifest: boolean }>;
