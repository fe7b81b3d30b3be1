// @ts-check
// The no-LLM extractive answerer (C++, src/answer/extractive.h): plain-text answer units (sentences,
// list items, table rows with their column names) of the top chunks, scored by IDF-weighted question
// term coverage and the question's answer type, with [n] citations, or an abstention.
import { RagwasmError, callWasm } from '../core/errors.js';
import { encodeText } from '../core/encode.js';
import { wasm } from '../core/module.js';
import { expectArray, expectBoolean, expectInteger, expectNumber, expectOptions, expectString, isPlainObject } from '../core/validate.js';

/** The answer of ask()'s 'not-found' outcome (and of the extractive answerer when no unit reaches its threshold). */
export const NO_ANSWER_TEXT = "Your documents don't say.";

/** The answer of ask()'s 'passages' outcome: no unit answers, the closest passages are shown instead (no claim). */
export const PASSAGES_TEXT = "I couldn't find one sentence that answers this; here are the closest passages.";

// The {text, context?} chunks of answerScores / answerUnitFeatures as UTF-8 bytes (Embind's own string
// conversion corrupts lone surrogates).
function scoringChunks(chunks) {
  expectArray(chunks, 'chunks', { maxLength: 10000 });
  const texts = [];
  const contexts = [];
  chunks.forEach((c, k) => {
    if (!isPlainObject(c)) throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: chunks[${k}]: expected {text, context?}`);
    texts.push(encodeText(expectString(c.text, `chunks[${k}].text`), `chunks[${k}].text`));
    contexts.push(encodeText(c.context === undefined ? '' : expectString(c.context, `chunks[${k}].context`), `chunks[${k}].context`));
  });
  return { texts, contexts };
}

// The unit-scoring options every answerer entry takes, with their defaults.
function scoringOptions(o) {
  return {
    headerWeight: o.headerWeight === undefined ? 0.5 : expectNumber(o.headerWeight, 'options.headerWeight', { min: 0, max: 1 }),
    typeMismatch: o.typeMismatch === undefined ? 0.6 : expectNumber(o.typeMismatch, 'options.typeMismatch', { min: 0, max: 1 }),
    entityMismatch: o.entityMismatch === undefined ? 1 : expectNumber(o.entityMismatch, 'options.entityMismatch', { min: 0, max: 1 }),
    keyMismatch: o.keyMismatch === undefined ? 1 : expectNumber(o.keyMismatch, 'options.keyMismatch', { min: 0, max: 1 }),
    entityConflict: o.entityConflict === undefined ? 1 : expectNumber(o.entityConflict, 'options.entityConflict', { min: 0, max: 1 }),
  };
}

// The WASM module, refused when its build lacks the answerer's binding `name`.
function answererModule(name) {
  const m = wasm();
  if (typeof m[name] !== 'function') {
    throw new RagwasmError('UNSUPPORTED_ENVIRONMENT', 'ragwasm: this WASM build does not include the extractive answerer (wasm/bind_answer.cpp)');
  }
  return m;
}

/**
 * Extractive answer without an LLM: the plain-text unit (sentence, list item or table row rendered
 * "Q4 2024 — units: 17,200") of the top chunks that best covers the question's terms and holds what
 * it asks for (who -> a person or role, how many/much -> a number, when -> a date), followed by its
 * [n] citation; a yes/no question gets "Yes." / "No." first only when that unit states the polarity
 * (negation handled, the question's own too; never for a table row; `polarity`); `noAnswerText` when no unit
 * reaches `threshold` (docs/docchat.md, "Extractive answerer").
 * @example
 * extractiveAnswer('When was Acme founded?', [{id: 'a#0', text: 'Acme was founded in 1998. It makes pumps.'}]).text
 * // 'Acme was founded in 1998. [1]'
 * @param {string} question
 * @param {Array<{id: string, text: string, score?: number, context?: string}>} chunks in rank order;
 *   context = document title and header path (its terms count like a header's)
 * @param {{maxSentences?: number, maxChunks?: number, threshold?: number, headerWeight?: number,
 *   typeMismatch?: number, entityMismatch?: number, keyMismatch?: number, entityConflict?: number, yesNoPrefix?: boolean, noAnswerText?: string}} [options]
 *   maxSentences 1..32 (default 2), maxChunks >= 1 (default 5), threshold in [0, 1] (default 0.35),
 *   headerWeight in [0, 1] (default 0.5), typeMismatch in [0, 1] (default 0.6), entityMismatch in [0, 1]
 *   (default 1: the score factor of a unit whose chunk, text or context, lacks an identifier the question
 *   names: a word mixing letters and digits or a capitalized word not starting a sentence), keyMismatch in [0, 1]
 *   (default 1: the score factor of a unit whose chunk does not hold every key term of the question, exactly or as a
 *   close variant: the words of its noun phrases, "the probation period" -> probation, period), entityConflict in [0, 1]
 *   (default 1: the score factor of a unit that lacks an identifier the question names, in its text, header and chunk
 *   context, and names another of the same form instead: "DL-7" for "HX-9", "Q4" for "Q1", "Wexley Ferry" for "Ghent"),
 *   yesNoPrefix (default true),
 *   noAnswerText (default NO_ANSWER_TEXT)
 * @returns {import('./extractive.js').ExtractiveAnswer} (fields in extractive.d.ts: ExtractiveAnswer, ExtractiveUnit)
 *   sentences best first; start/end are UTF-16 offsets of the unit's source in the chunk's text. polarity: what the
 *   first unit states, for an answered yes/no question (null otherwise). evidence in [0, 1]: the IDF-weighted share
 *   of the question's terms found in the text or context of the chunks read (src/answer/extractive.h).
 *   chunkBest: the best unit of each chunk read that has one (chunk order, citation 0)
 * @throws {RagwasmError} INVALID_ARGUMENT, LIMIT_EXCEEDED, UNSUPPORTED_ENVIRONMENT (WASM build without the answerer)
 */
export function extractiveAnswer(question, chunks, options = {}) {
  const o = expectOptions(options, 'extractiveAnswer options', ['maxSentences', 'maxChunks', 'threshold', 'headerWeight', 'typeMismatch', 'entityMismatch', 'keyMismatch', 'entityConflict', 'yesNoPrefix', 'noAnswerText']);
  const q = encodeText(expectString(question, 'question'), 'question');
  expectArray(chunks, 'chunks', { maxLength: 10000 });
  const ids = [];
  const texts = [];
  const scores = [];
  const contexts = [];
  chunks.forEach((c, k) => {
    if (!isPlainObject(c)) throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: chunks[${k}]: expected {id, text, score?, context?}`);
    ids.push(encodeText(expectString(c.id, `chunks[${k}].id`), `chunks[${k}].id`));
    texts.push(encodeText(expectString(c.text, `chunks[${k}].text`), `chunks[${k}].text`));
    scores.push(c.score === undefined ? 0 : expectNumber(c.score, `chunks[${k}].score`));
    contexts.push(encodeText(c.context === undefined ? '' : expectString(c.context, `chunks[${k}].context`), `chunks[${k}].context`));
  });
  const maxSentences = o.maxSentences === undefined ? 2 : expectInteger(o.maxSentences, 'options.maxSentences', { min: 1, max: 32 });
  const maxChunks = o.maxChunks === undefined ? 5 : expectInteger(o.maxChunks, 'options.maxChunks', { min: 1, max: 10000 });
  const threshold = o.threshold === undefined ? 0.35 : expectNumber(o.threshold, 'options.threshold', { min: 0, max: 1 });
  const { headerWeight, typeMismatch, entityMismatch, keyMismatch, entityConflict } = scoringOptions(o);
  const yesNoPrefix = o.yesNoPrefix === undefined ? true : expectBoolean(o.yesNoPrefix, 'options.yesNoPrefix');
  // Every string crosses as UTF-8 bytes (Embind's own string conversion corrupts lone surrogates).
  const noAnswer = encodeText(o.noAnswerText === undefined ? NO_ANSWER_TEXT : expectString(o.noAnswerText, 'options.noAnswerText'), 'options.noAnswerText');
  const m = answererModule('answer_extractive');
  return callWasm(() => m.answer_extractive(q, ids, texts, scores, contexts, maxSentences, maxChunks, threshold, headerWeight, typeMismatch, entityMismatch, keyMismatch, entityConflict, yesNoPrefix, noAnswer));
}

/**
 * The best answer-unit score of each chunk, scored as extractiveAnswer scores units (IDF weights
 * from all units of the chunks given): how well each chunk answers the question by itself.
 * @example
 * answerScores('When was Acme founded?', [{text: 'Acme was founded in 1998.'}, {text: 'Pumps.'}])  // [1, 0]
 * @param {string} question
 * @param {Array<{text: string, context?: string}>} chunks
 * @param {{headerWeight?: number, typeMismatch?: number, entityMismatch?: number, keyMismatch?: number, entityConflict?: number}} [options] as extractiveAnswer
 * @returns {number[]} one score in [0, 1] per chunk
 * @throws {RagwasmError} INVALID_ARGUMENT, LIMIT_EXCEEDED, UNSUPPORTED_ENVIRONMENT
 */
export function answerScores(question, chunks, options = {}) {
  const o = expectOptions(options, 'answerScores options', ['headerWeight', 'typeMismatch', 'entityMismatch', 'keyMismatch', 'entityConflict']);
  const q = encodeText(expectString(question, 'question'), 'question');
  const { texts, contexts } = scoringChunks(chunks);
  const { headerWeight, typeMismatch, entityMismatch, keyMismatch, entityConflict } = scoringOptions(o);
  const m = answererModule('answer_chunkScores');
  if (chunks.length === 0) return [];
  return Array.from(callWasm(() => m.answer_chunkScores(q, texts, contexts, Math.max(1, chunks.length), headerWeight, typeMismatch, entityMismatch, keyMismatch, entityConflict)));
}

/**
 * Every candidate answer unit of the chunks with the quantities the extractive answerer computes for it
 * (src/answer/extractive.h, unit_features): what the learned unit scorer of docs/docchat.md reads.
 * @example
 * answerUnitFeatures('When was Acme founded?', [{text: 'Acme was founded in 1998. It makes pumps.'}])[0].typeOk  // true
 * @param {string} question
 * @param {Array<{text: string, context?: string}>} chunks
 * @param {{maxChunks?: number, headerWeight?: number, typeMismatch?: number, entityMismatch?: number, keyMismatch?: number, entityConflict?: number}} [options] as extractiveAnswer
 * @returns {Array<{chunkIndex: number, start: number, end: number, text: string, kind: string, score: number, cover: number,
 *   unitCover: number, termShare: number, bigramShare: number, keyShare: number, entityShare: number, typeOk: boolean,
 *   entitiesOk: boolean, keysOk: boolean, position: number, unitTerms: number, missingShare: number}>} in (chunk, position) order
 * @throws {RagwasmError} INVALID_ARGUMENT, LIMIT_EXCEEDED, UNSUPPORTED_ENVIRONMENT
 */
export function answerUnitFeatures(question, chunks, options = {}) {
  const o = expectOptions(options, 'answerUnitFeatures options', ['maxChunks', 'headerWeight', 'typeMismatch', 'entityMismatch', 'keyMismatch', 'entityConflict']);
  const q = encodeText(expectString(question, 'question'), 'question');
  const { texts, contexts } = scoringChunks(chunks);
  const maxChunks = o.maxChunks === undefined ? 5 : expectInteger(o.maxChunks, 'options.maxChunks', { min: 1, max: 10000 });
  const { headerWeight, typeMismatch, entityMismatch, keyMismatch, entityConflict } = scoringOptions(o);
  const m = answererModule('answer_unitFeatures');
  if (chunks.length === 0) return [];
  return callWasm(() => m.answer_unitFeatures(q, texts, contexts, maxChunks, headerWeight, typeMismatch, entityMismatch, keyMismatch, entityConflict));
}
