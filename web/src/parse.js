// ragwasm/parse: text from user files (text, markdown, HTML, PDF through pdf.js, DOCX through
// mammoth). `pdfjs-dist` and `mammoth` are optional peer dependencies, imported by their bare names
// only when a PDF or DOCX is read.
export { extractText, htmlToTextFallback, SUPPORTED_FORMATS } from './document/parse.js';
export { fileToDocument } from './document/file-document.js';
