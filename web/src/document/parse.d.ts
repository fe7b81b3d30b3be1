export type FileFormat = 'text' | 'markdown' | 'html' | 'pdf' | 'docx';
export interface ExtractedText {
  name: string;
  format: FileFormat;
  text: string;
  /** PDF only: each page's UTF-16 span of `text`. */
  pages?: { page: number; start: number; end: number }[];
}
export const SUPPORTED_FORMATS: Readonly<Record<string, FileFormat>>;
/** Extracts plain text from a user's file, locally (pdf.js for PDF, mammoth for DOCX). */
export function extractText(
  input: Blob | { name: string; data: Uint8Array | ArrayBuffer; type?: string },
  options?: { format?: FileFormat; pdfjsUrl?: string; limits?: Partial<import('./limits.js').FileLimits> },
): Promise<ExtractedText>;
/** HTML to text without a DOM (Workers, Node). */
export function htmlToTextFallback(html: string): string;
