// @ts-check
// A user's file -> a Collection document ({id, title, text, metadata}), text extracted locally by
// extractText. Exported by the `ragwasm/parse` entry (it reaches pdf.js / mammoth when needed).
import { documentTitle } from './title.js';
import { expectOptions, expectString } from '../core/validate.js';
import { extractText } from './parse.js';

/**
 * Turns a user's file into a Collection document: text extracted locally (extractText: .md .txt
 * .html .pdf .docx), title = the first markdown "# " header, else the file name without extension.
 * @param {File|Blob|{name: string, data: Uint8Array|ArrayBuffer, type?: string}} file
 * @param {{id?: string, limits?: object}} [options] id default the file name; limits: extractText's (FILE_LIMITS)
 * @returns {Promise<{id: string, title: string, text: string, metadata: {name: string, format: string}}>}
 * @throws {RagwasmError} INVALID_ARGUMENT (unsupported file type), PARSE_ERROR, LIMIT_EXCEEDED
 */
export async function fileToDocument(file, options = {}) {
  const o = expectOptions(options, 'fileToDocument options', ['id', 'limits']);
  const r = await extractText(file, o.limits === undefined ? {} : { limits: o.limits });
  return { id: o.id === undefined ? r.name : expectString(o.id, 'options.id', { allowEmpty: false }), title: documentTitle(r.text, r.name), text: r.text,
    metadata: { name: r.name, format: r.format } };
}
