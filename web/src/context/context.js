// @ts-check
// Context assembly for generation: picks chunks under a token budget, orders them (score, or
// best-at-both-ends against "lost in the middle"), prints each document's context once, numbers the
// sources [1..n] and returns {contextText, sources, tokensUsed, dropped} (src/context/assembly.h).
// The LLM layer (web/src/llm) renders prompt messages from this struct.
import { callWasm } from '../core/errors.js';
import { encodeText } from '../core/encode.js';
import { callJson, expectId } from '../retrieve/fusion.js';
import { wasm } from '../core/module.js';
import { expectArray, expectEnum, expectInteger, expectNumber, expectOptions, expectString, invalid, isPlainObject } from '../core/validate.js';

// Lone surrogates become U+FFFD, as encodeText (TextEncoder) does for every other text argument.
function wellFormed(s) {
  if (typeof s.toWellFormed === 'function') return s.toWellFormed();
  return s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/**
 * @typedef {object} ContextSource
 * @property {number} n citation number [n], 1-based, in output order
 * @property {string} chunkId
 * @property {string} docId
 * @property {number|null} start offset of the chunk in its document as given (null when not given)
 * @property {number|null} end
 * @property {number} score
 * @property {number} tokens tokens charged for the chunk's text
 */

/**
 * Builds the context block for an LLM prompt.
 *
 * Layout: blocks joined by a blank line; block = "[n] " + (document context + "\n" for the first
 * block of that document) + chunk text. Selection: score desc (then chunkId asc); a chunk that would
 * exceed the budget is skipped (listed in `dropped`) and smaller later chunks may still fit.
 * Tokens: caller counts (`tokens`) or the documented estimate ceil(code points / 4), plus headers,
 * document contexts and separators (docs/fusion.md "Context assembly"); tokensUsed <= tokenBudget.
 *
 * @example
 * const { contextText, sources } = assembleContext(
 *   [{ chunkId: 'c1', docId: 'd1', text: 'Paris is the capital of France.', score: 0.9 }],
 *   { tokenBudget: 500, docContext: { d1: 'France (encyclopedia)' } });
 *
 * @param {{chunkId: string, docId?: string, text: string, score?: number, start?: number, end?: number,
 *   tokens?: number}[]} chunks docId defaults to chunkId, score to 0
 * @param {object} [options]
 * @param {number} [options.tokenBudget=2000] >= 1
 * @param {'score'|'ends'} [options.order='score'] 'ends' = ranks 1,3,5.. in front, ..4,2 at the back
 * @param {number} [options.maxChunks=0] 0 = no limit
 * @param {Record<string, string>} [options.docContext] docId -> document-level context (title, summary)
 * @returns {{contextText: string, sources: ContextSource[], tokensUsed: number, dropped: string[]}}
 * @throws {RagwasmError} INVALID_ARGUMENT (bad chunk or option), INVALID_UTF8 (lone surrogate in an id), NOT_INITIALIZED
 */
export function assembleContext(chunks, options = {}) {
  const o = expectOptions(options, 'assembleContext options', ['tokenBudget', 'order', 'maxChunks', 'docContext']);
  expectArray(chunks, 'chunks', { maxLength: 10_000_000 });
  const list = chunks.map((c, i) => {
    if (!isPlainObject(c) && !(c !== null && typeof c === 'object')) throw invalid(`chunks[${i}]`, 'a {chunkId, text} object', c);
    const x = { chunkId: expectId(c.chunkId, `chunks[${i}].chunkId`), text: wellFormed(expectString(c.text, `chunks[${i}].text`)) };
    if (c.docId !== undefined) x.docId = expectId(c.docId, `chunks[${i}].docId`);
    if (c.score !== undefined) x.score = expectNumber(c.score, `chunks[${i}].score`);
    if (c.start !== undefined) x.start = expectNumber(c.start, `chunks[${i}].start`, { min: 0 });
    if (c.end !== undefined) x.end = expectNumber(c.end, `chunks[${i}].end`, { min: 0 });
    if (c.tokens !== undefined) x.tokens = expectInteger(c.tokens, `chunks[${i}].tokens`, { min: 0, max: 1e9 });
    return x;
  });
  const req = { chunks: list };
  if (o.tokenBudget !== undefined) req.tokenBudget = expectInteger(o.tokenBudget, 'options.tokenBudget', { min: 1, max: 1e8 });
  if (o.order !== undefined) req.order = expectEnum(o.order, 'options.order', ['score', 'ends']);
  if (o.maxChunks !== undefined) req.maxChunks = expectInteger(o.maxChunks, 'options.maxChunks', { min: 0, max: 1e8 });
  if (o.docContext !== undefined) {
    if (!isPlainObject(o.docContext)) throw invalid('options.docContext', 'an object {docId: text}', o.docContext);
    req.docContext = {};
    for (const [k, v] of Object.entries(o.docContext)) req.docContext[expectId(k, 'options.docContext key')] = wellFormed(expectString(v, `options.docContext.${k}`));
  }
  return callJson('context_assemble', req);
}

/**
 * The documented token estimate used by assembleContext: ceil(Unicode code points / 4).
 * (An estimate for budgeting, not a tokenizer; pass exact `tokens` per chunk when you have them.)
 * @param {string} text
 * @returns {number}
 */
export function estimateContextTokens(text) {
  const bytes = encodeText(text, 'text');
  const m = wasm();
  return callWasm(() => m.context_estimateTokens(bytes));
}

