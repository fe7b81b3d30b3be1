// @ts-check
// A document's title from its text or file name: what Collection.add and the folder reader name a document by.
import { expectString } from '../core/validate.js';

/**
 * A document's title: its first markdown "# " header, else the file name without its extension.
 * @example
 * documentTitle('# Leave Policy\n\nText', 'leave.md')  // 'Leave Policy'
 * @param {string} text
 * @param {string} name file name
 * @returns {string}
 */
export function documentTitle(text, name) {
  expectString(text, 'text');
  expectString(name, 'name');
  const heading = text.match(/^#\s+(.+?)\s*#*\s*$/m);
  return heading ? heading[1] : name.replace(/^.*\//, '').replace(/\.[^.]+$/, '');
}
