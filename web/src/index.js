// ragwasm: retrieval-augmented generation in the browser. One module per public area; each file
// has a hand-written .d.ts beside it.
export { init, isInitialized } from './module.js';
export { RagwasmError, ErrorCodes } from './errors.js';
export { info } from './info.js';
export { createDocument } from './document.js';
export { SentenceSplitter, splitSentences, foldText, findInvalidUtf8, decodeUtf8 } from './text.js';
export { extractText, htmlToTextFallback, SUPPORTED_FORMATS } from './parse.js';
