// @ts-check
// Markdown -> plain text (issue #31): the `chunker.preprocess: "markdown-to-text"` step a Collection
// runs on each document before splitting (the finance study converts parsed markdown to plain text
// first). The conversion is the library's C++ (answer::markdown_to_text, src/answer/plain_text.h).
import { callWasm } from '../core/errors.js';
import { encodeText } from '../core/encode.js';
import { wasm } from '../core/module.js';

/**
 * Markdown -> plain text, line by line: header, list and block-quote markers, emphasis, code marks and
 * link targets removed; table separator rows, rules and code fence lines dropped (fenced code kept);
 * a table row becomes its cells joined by tabs; runs of blank lines become one paragraph break.
 *
 * @example
 * markdownToText('# Leave\n\nEmployees get **22 days** of [PTO](pto.md).'); // 'Leave\n\nEmployees get 22 days of PTO.'
 *
 * @param {string} markdown up to 256 MiB of UTF-8
 * @returns {string}
 * @throws {RagwasmError} INVALID_ARGUMENT (not a string), LIMIT_EXCEEDED
 */
export function markdownToText(markdown) {
  const bytes = encodeText(markdown, 'markdown');
  return callWasm(() => wasm().answer_markdownToText(bytes));
}
