// The doc-chat answer path, one call for the demo and `ragwasm ask`: (follow-up rewrite) -> retrieve
// from a Collection -> answer from the top chunks (the extractive answerer, or an LLM with [n]
// citations) -> citations as spans of the documents. Nothing here reads files or the network itself:
// an LLM is used only when the caller passes a client.
import { RagwasmError } from '../core/errors.js';
import { expectArray, expectBoolean, expectFunction, expectInteger, expectNumber, expectOptions, expectString, hasMethod, invalid, isObject, isPlainObject } from '../core/validate.js';
import { extractiveAnswer, NO_ANSWER_TEXT } from './extractive.js';
import { llmAnswerHooks } from './llm-hooks.js';
import { answerContext } from '../context/prompt.js';

// Words a follow-up leans on the previous question with ("and in Belgium?", "what about it?").
const FOLLOW_UP_OPENERS = /^(and|or|but|also|what about|how about|same for|and what about|then)\b/i;
// Function words that are never carried over (the answerer's list, docs/docchat.md).
const STOP = new Set(('a about after all also an and any are as at be been before being between both but by can could did do does doing done '
  + 'during each for from had has have having he her hers him his how i if in into is it its just me more most my no nor not of on or '
  + 'other our out over own same she should so some such than that the their them then there these they this those through to too '
  + 'under until up very was we were what when where which while who whom whose why will with would you your according document '
  + 'documents tell much many about get gets give given still now today current currently').split(' '));

// Interrogative and auxiliary words: how a question is phrased, not what it is about. BM25's Lucene
// stop set keeps them, so they match an FAQ's own questions rather than the answer.
const QUESTION_WORDS = new Set(('how what which who whom whose when where why do does did is are was were can could much many '
  + 'long may must should would').split(' '));

/**
 * The retrieval query of a question: its interrogative and auxiliary words (how, what, which, who,
 * whom, whose, when, where, why, do, does, did, is, are, was, were, can, could, much, many, long, may,
 * must, should, would) removed, the rest kept in order; the question itself when nothing else is left.
 * @example
 * questionQuery('How many days of PTO do employees get?')  // 'days of PTO employees get?'
 * @param {string} question
 * @returns {string}
 * @throws {RagwasmError} INVALID_ARGUMENT
 */
export function questionQuery(question) {
  expectString(question, 'question');
  const kept = question.split(/\s+/).filter((w) => w && !QUESTION_WORDS.has(w.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '')));
  return kept.length ? kept.join(' ') : question;
}

function contentWords(text) {
  return (text.match(/[\p{L}\p{N}][\p{L}\p{N}'’.-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu) ?? []).filter((w) => !STOP.has(w.toLowerCase()));
}

/**
 * Offline follow-up rewrite: a question that leans on the previous one (opens with "and", "or",
 * "but", "also", "what about", "how about", "same for", "then", or has at most 2 content words) gets the previous user question's
 * content words that it does not already contain appended; any other question is returned as is.
 * @example
 * rewriteFollowUp('And in Belgium?', [{role: 'user', content: 'How many days of PTO do employees get?'}])
 * // 'And in Belgium? days PTO employees'
 * @param {string} question
 * @param {Array<{role: 'user'|'assistant', content: string}>} history oldest first
 * @returns {string} the query to retrieve with
 * @throws {RagwasmError} INVALID_ARGUMENT
 */
export function rewriteFollowUp(question, history) {
  const previous = leanedOn(question, history);
  if (previous === null) return question;
  const have = new Set(contentWords(question).map((w) => w.toLowerCase()));
  const carried = [];
  for (const w of contentWords(previous)) {
    const k = w.toLowerCase();
    if (!have.has(k)) { have.add(k); carried.push(w); }
  }
  return carried.length ? `${question.trim()} ${carried.join(' ')}` : question;
}

/**
 * Is `question` a follow-up of the conversation in `history` (see rewriteFollowUp for the rule)?
 * ask() rewrites only follow-ups, with the LLM when one is given.
 * @param {string} question
 * @param {Array<{role: 'user'|'assistant', content: string}>} history oldest first
 * @returns {boolean}
 * @throws {RagwasmError} INVALID_ARGUMENT
 */
export function isFollowUp(question, history) {
  return leanedOn(question, history) !== null;
}

// The previous user question that `question` leans on, or null.
function leanedOn(question, history) {
  expectString(question, 'question');
  expectArray(history, 'history', { maxLength: 1000 });
  const previous = [...history].reverse().find((m) => isPlainObject(m) && m.role === 'user' && typeof m.content === 'string' && m.content.trim());
  if (!previous) return null;
  const leans = FOLLOW_UP_OPENERS.test(question.trim()) || contentWords(question).length <= 2;
  return leans ? previous.content : null;
}

function hitOut(h) {
  return { docId: h.docId, chunkId: h.id, start: h.start, end: h.end, score: h.score, text: h.text };
}

/**
 * Answers a question from a Collection: retrieve the top `k` chunks, answer from the first
 * `answerChunks` of them, and cite spans of the documents.
 * @example
 * const col = await Collection.create(PRESETS.docChatBm25);
 * await col.add([{ id: 'leave', title: 'Leave', text: '# Leave\n\nEmployees get **22 days** of PTO.' }]);
 * const r = await ask(col, 'How many days of PTO do employees get?');
 * // r.answer 'Employees get 22 days of PTO. [1]', r.citations[0] {n: 1, docId: 'leave', start, end, ...}
 * @param {import('../pipeline/collection.js').Collection} collection
 * @param {string} question non-empty
 * @param {object} [options]
 * @param {number} [options.k=10] hits returned (1..100)
 * @param {number} [options.answerChunks=5] top hits the answerer reads (1..k)
 * @param {number} [options.threshold=0.35] extractive abstention threshold in [0, 1]
 * @param {number} [options.maxSentences=2] extractive units in the answer (1..32)
 * @param {number} [options.entityMismatch=1] extractive score factor in [0, 1] for a unit whose chunk
 *   lacks an identifier the question names ("revision D", "Q2", "Canada"; extractiveAnswer)
 * @param {number} [options.keyMismatch=1] extractive score factor in [0, 1] for a unit whose chunk does not hold
 *   every key term of the question (the words of its noun phrases, "the probation period"; extractiveAnswer)
 * @param {boolean} [options.questionWords=true] keep the question's interrogative and auxiliary words in
 *   the retrieval query; false retrieves with questionQuery(query) (PRESETS.docChatAnswer does); the
 *   answerer always reads the question as asked
 * @param {Array<{role: 'user'|'assistant', content: string}>} [options.history] earlier turns, oldest
 *   first: a follow-up (isFollowUp) is rewritten before retrieval (with the LLM's query_rewrite prompt
 *   when `llm` is given, else rewriteFollowUp); other questions are retrieved as asked
 * @param {object} [options.llm] an LlmClient (ragwasm/llm): answer with this client (answer_grounded
 *   prompt, [n] citations) instead of the extractive answerer
 * @param {(delta: string) => void} [options.onText] streamed LLM answer text
 * @param {false|'ask'|'answer-each'} [options.clarify=false] query clarification (needs `llm`): after retrieval the
 *   LLM is asked (query_clarify prompt) whether the question is ambiguous given the top `answerChunks` chunks; when it
 *   names at least 2 interpretations grounded in shown chunks, 'ask' returns them in `clarification` without an answer
 *   (re-ask with the chosen interpretation's question), 'answer-each' answers each from the chunks it cites. A reply
 *   that does not parse is reported in `clarification.error` and the question is answered as asked.
 * @param {AbortSignal} [options.signal]
 * @param {object} [options.filter] Collection.search filter
 * @returns {Promise<{question: string, query: string, answer: string, abstained: boolean, mode: 'extractive'|'llm',
 *   citations: Array<{n: number, docId: string, chunkId: string, start: number, end: number, text: string}>,
 *   hits: Array<{docId: string, chunkId: string, start: number, end: number, score: number, text: string}>,
 *   clarification?: {ambiguous: boolean|null, mode: 'ask'|'answer-each', interpretations: Array<{question: string, chunkIds: string[],
 *   answer?: string, abstained?: boolean, citations?: object[]}>, rejected: object[], error: string|null}}>}
 *   clarification is present only when options.clarify is set
 *   start/end are UTF-16 offsets into the document's text; an extractive citation spans the cited unit
 *   (sentence, list item or table row), an LLM citation the whole cited chunk
 * @throws {RagwasmError} INVALID_ARGUMENT (bad question or options; as Collection.search), ABORTED, and the
 *   LLM client's errors
 */
export async function ask(collection, question, options = {}) {
  if (!isObject(collection) || !hasMethod(collection, 'search')) {
    throw invalid('collection', 'a Collection', collection);
  }
  const o = expectOptions(options, 'ask options', ['k', 'answerChunks', 'threshold', 'maxSentences', 'entityMismatch', 'keyMismatch', 'questionWords', 'history', 'llm', 'onText', 'signal', 'filter', 'clarify']);
  expectString(question, 'question', { allowEmpty: false });
  if (question.trim() === '') throw invalid('question', 'a non-empty question', question);
  const k = o.k === undefined ? 10 : expectInteger(o.k, 'options.k', { min: 1, max: 100 });
  const answerChunks = o.answerChunks === undefined ? Math.min(5, k) : expectInteger(o.answerChunks, 'options.answerChunks', { min: 1, max: k });
  const threshold = o.threshold === undefined ? 0.35 : expectNumber(o.threshold, 'options.threshold', { min: 0, max: 1 });
  const maxSentences = o.maxSentences === undefined ? 2 : expectInteger(o.maxSentences, 'options.maxSentences', { min: 1, max: 32 });
  const entityMismatch = o.entityMismatch === undefined ? 1 : expectNumber(o.entityMismatch, 'options.entityMismatch', { min: 0, max: 1 });
  const keyMismatch = o.keyMismatch === undefined ? 1 : expectNumber(o.keyMismatch, 'options.keyMismatch', { min: 0, max: 1 });
  const questionWords = o.questionWords === undefined ? true : expectBoolean(o.questionWords, 'options.questionWords');
  const history = o.history === undefined ? [] : expectArray(o.history, 'options.history', { maxLength: 1000 });
  if (o.onText !== undefined) expectFunction(o.onText, 'options.onText');
  if (o.llm !== undefined && (o.llm === null || typeof o.llm.complete !== 'function')) throw invalid('options.llm', 'an LlmClient (createLlmClient)', o.llm);
  const clarify = o.clarify === undefined || o.clarify === false ? false : o.clarify;
  if (clarify !== false && clarify !== 'ask' && clarify !== 'answer-each') throw invalid('options.clarify', "false, 'ask' or 'answer-each'", o.clarify);
  if (clarify && !o.llm) throw invalid('options.clarify', 'false when no options.llm is given (clarification asks an LLM)', o.clarify);
  if (o.signal?.aborted) throw new RagwasmError('ABORTED', 'ragwasm: ask aborted');
  const llm = o.llm ? llmAnswerHooks() : null;
  if (o.llm && llm === null) throw new RagwasmError('INVALID_ARGUMENT', 'ragwasm: options.llm: load the ragwasm/llm entry (where createLlmClient comes from) before asking with an LLM');

  let query = question;
  if (history.length > 0 && isFollowUp(question, history)) {
    if (o.llm) {
      query = (await llm.rewriteQuery(o.llm, question, { history, signal: o.signal })).query;
    } else {
      query = rewriteFollowUp(question, history);
    }
  }
  const searchOptions = { k };
  if (o.signal) searchOptions.signal = o.signal;
  if (o.filter !== undefined) searchOptions.filter = o.filter;
  const retrievalQuery = questionWords ? query : questionQuery(query);
  let hits;
  try {
    hits = await collection.search(retrievalQuery, searchOptions);
  } catch (e) {
    // Without its question words a question can be all stop words ("What is it?"): search as asked.
    if (retrievalQuery === query || e?.code !== 'INVALID_ARGUMENT') throw e;
    hits = await collection.search(query, searchOptions);
  }
  const out = { question, query, answer: NO_ANSWER_TEXT, abstained: true, mode: o.llm ? 'llm' : 'extractive', citations: [], hits: hits.map(hitOut) };
  if (hits.length === 0) return out;
  const top = hits.slice(0, answerChunks);
  const citeOf = (chunks) => ({ n }) => {
    const h = chunks[n - 1];
    return { n, docId: h.docId, chunkId: h.id, start: h.start, end: h.end, text: h.text };
  };

  if (clarify) {
    const c = await llm.clarifyQuestion(o.llm, { question: query, passages: top.map((h) => ({ id: h.id, text: h.text })) }, { signal: o.signal });
    out.clarification = { ambiguous: c.ambiguous, mode: clarify, interpretations: c.interpretations.map((it) => ({ ...it })), rejected: c.rejected, error: c.error };
    if (c.ambiguous) {
      if (clarify === 'ask') {
        out.answer = `The question can be read in ${c.interpretations.length} ways in your documents; which one did you mean?`;
        out.abstained = false;
        return out;
      }
      const parts = [];
      for (const it of out.clarification.interpretations) {
        const chunks = top.filter((h) => it.chunkIds.includes(h.id));
        const r = await llm.generateAnswer(o.llm, { question: it.question, passages: chunks.map((h) => ({ id: h.id, text: h.text })) }, { signal: o.signal });
        it.answer = r.text;
        it.abstained = r.abstained;
        it.citations = r.citations.map(citeOf(chunks));
        parts.push(`${it.question}\n${r.text}`);
      }
      out.answer = parts.join('\n\n');
      out.abstained = out.clarification.interpretations.every((it) => it.abstained);
      return out;
    }
  }

  if (o.llm) {
    const ctx = answerContext(collection, top);  // the config's assembly section (issue 32)
    const r = await llm.generateAnswer(o.llm, { question: query, passages: ctx.passages },
      { onText: o.onText, signal: o.signal });
    out.answer = r.text;
    out.abstained = r.abstained;
    out.citations = r.citations.map(citeOf(ctx.hits));
    return out;
  }

  // The question as asked (not the rewrite) decides the answer type; the rewrite's carried terms help coverage.
  const r = extractiveAnswer(query, top.map((h) => ({ id: h.id, text: h.text, score: h.score, context: h.title ?? '' })),
    { maxChunks: top.length, threshold, maxSentences, entityMismatch, keyMismatch });
  out.answer = r.text;
  out.abstained = !r.answered;
  out.citations = r.sentences.map((s) => {
    const h = top[s.chunkIndex];
    return { n: s.citation, docId: h.docId, chunkId: h.id, start: h.start + s.start, end: h.start + s.end, text: h.text.slice(s.start, s.end) };
  });
  return out;
}

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
