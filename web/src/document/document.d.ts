export type MetadataValue = string | number | boolean | null;
export interface Document {
  /** Unique, non-empty, at most 1024 characters. */
  id: string;
  text: string;
  metadata: Record<string, MetadataValue>;
}
export interface Chunk {
  /** `${docId}#${ordinal}` */
  id: string;
  docId: string;
  /** `document.text.slice(start, end)` */
  text: string;
  /** UTF-16 offset into the document text, inclusive. */
  start: number;
  /** UTF-16 offset, exclusive. */
  end: number;
  metadata: Record<string, unknown>;
}
/** Validates {id, text, metadata?}; throws INVALID_ARGUMENT naming the bad field. */
export function createDocument(doc: { id: string; text: string; metadata?: Record<string, MetadataValue> }): Document;
