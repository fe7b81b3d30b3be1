// @ts-check
// ragwasm/parse: text from user files (text, markdown, HTML, PDF through pdf.js, DOCX through
// mammoth). `pdfjs-dist` and `mammoth` are optional peer dependencies, imported by their bare names
// only when a PDF or DOCX is read. Files are untrusted input: FILE_LIMITS, and the folder reader
// (openFolder, readDocumentFolder; Node) every CLI command uses (docs/reliability.md).
export { extractText, htmlToTextFallback, SUPPORTED_FORMATS } from './document/parse.js';
export { fileToDocument } from './document/file-document.js';
export { FILE_LIMITS } from './document/limits.js';
export { openFolder, readDocumentFolder } from './document/folder.js';
