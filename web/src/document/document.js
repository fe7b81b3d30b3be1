// @ts-check
// Document: the unit users add. Chunk: a span of a document, offsets in UTF-16 units of its text.
import { expectString, invalid, isPlainObject } from '../core/validate.js';
import { MAX_TEXT_BYTES } from '../core/limits.js';

/**
 * @typedef {object} Document
 * @property {string} id unique, non-empty, at most 1024 characters
 * @property {string} text the full text
 * @property {Record<string, string|number|boolean|null>} metadata flat metadata (title, source, date…)
 */

/**
 * @typedef {object} Chunk
 * @property {string} id `${docId}#${ordinal}`
 * @property {string} docId
 * @property {string} text `document.text.slice(start, end)`
 * @property {number} start UTF-16 offset into the document text (inclusive)
 * @property {number} end UTF-16 offset (exclusive)
 * @property {Record<string, unknown>} metadata
 */

/**
 * Validates and normalizes a document ({id, text, metadata?}); returns a new frozen-shape object.
 * @param {{id: string, text: string, metadata?: object}} doc
 * @returns {Document}
 * @throws {RagwasmError} INVALID_ARGUMENT naming the bad field; LIMIT_EXCEEDED for huge text
 */
export function createDocument(doc) {
  if (!isPlainObject(doc)) throw invalid('document', 'an object {id, text, metadata?}', doc);
  expectString(doc.id, 'document.id', { maxLength: 1024, allowEmpty: false });
  expectString(doc.text, 'document.text', { maxLength: MAX_TEXT_BYTES });
  const metadata = doc.metadata === undefined ? {} : doc.metadata;
  if (!isPlainObject(metadata)) throw invalid('document.metadata', 'a plain object', metadata);
  for (const [k, v] of Object.entries(metadata)) {
    const t = typeof v;
    if (!(v === null || t === 'string' || t === 'boolean' || (t === 'number' && Number.isFinite(v)))) {
      throw invalid(`document.metadata.${k}`, 'a string, finite number, boolean or null', v);
    }
  }
  return { id: doc.id, text: doc.text, metadata: { ...metadata } };
}
