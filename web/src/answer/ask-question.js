// @ts-check
// The doc-chat answer path, one call for the demo and `ragwasm ask`: (follow-up rewrite) -> retrieve
// from a Collection -> answer from the top chunks (the extractive answerer, or an LLM with [n]
// citations) -> citations as spans of the documents. Nothing here reads files or the network itself:
// an LLM is used only when the caller passes a client.
import { RagwasmError } from '../core/errors.js';
import { expectArray, expectBoolean, expectFunction, expectInteger, expectNumber, expectOptions, expectString, hasMethod, invalid, isInstance, isObject, isPlainObject } from '../core/validate.js';
import { WordNeighbours } from '../retrieve/expansion.js';
import { extractiveAnswer, NO_ANSWER_TEXT, PASSAGES_TEXT } from './extractive.js';
import { answerContext } from '../context/prompt.js';
/** @typedef {import('./ask-question.js').AskResult} AskResult */

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
const QUESTION_WORDS = new Set(('how what which who whom whose when where why do does did am is are was were can could much many '
  + 'long may must should would').split(' '));

// Words of how a question is phrased that unmatchedWords never names: connectives and hedges ("even though",
// "is it OK to"), besides STOP and QUESTION_WORDS; the word after "how" ("how large", "how far") is skipped too.
const PHRASING_WORDS = new Set('though although even whether yet else ever ok okay please actually really exactly'.split(' '));

// Words of STOP that say what the user asks about and stay in the query ("What does the document say?").
// The particles of phrasal verbs go with the rest: "up" and "over" mostly bound amounts in policies
// ("up to 5 days", "over $3,000"), and the verb is kept ("carry over" -> "carry").
const KEPT_IN_QUERY = new Set('according document documents tell still now today current currently'.split(' '));

// A word of how the question is put rather than what it is about: an interrogative or auxiliary
// (QUESTION_WORDS), a function word (STOP: pronouns, articles, prepositions) or a contraction of one
// ("I'm", "don't"). "Can I", "my", "do I" match an FAQ's own questions, not the passage that answers.
// Punctuation on its own ("—", "?") goes too, so a question of only such words is searched as asked.
function functionWord(written) {
  const bare = written.toLowerCase().replace(/[’ʼ]/g, "'").replace(/[^\p{L}\p{N}']+/gu, '').replace(/^'+|'+$/g, '');
  if (!bare) return true;
  const head = bare.includes("'") ? bare.slice(0, bare.indexOf("'")) : bare;  // "today's" -> "today"
  if (KEPT_IN_QUERY.has(head)) return false;
  if (STOP.has(bare) || QUESTION_WORDS.has(bare)) return true;
  return head !== bare && (STOP.has(head) || QUESTION_WORDS.has(head) || bare.endsWith("n't"));
}

/**
 * The retrieval query of a question: the words of how it is put removed, what it is about kept in order:
 * interrogatives and auxiliaries (how, what, which, who, when, where, why, do, is, can, could, should, ...),
 * pronouns, articles, prepositions and the answerer's other function words (but "document", "tell",
 * "current"), and contractions of them ("I'm", "what's", "don't"); the question itself when nothing
 * else is left. A user's "Can I ... my ...?" otherwise matches an FAQ's own questions rather than the
 * passage that answers it.
 * @example
 * questionQuery('How many days of PTO do employees get?')  // 'days PTO employees'
 * questionQuery("If I stay with my sister, can I claim something?")  // 'stay sister, claim something?'
 * @param {string} question
 * @returns {string}
 * @throws {RagwasmError} INVALID_ARGUMENT
 */
export function questionQuery(question) {
  expectString(question, 'question');
  const kept = question.split(/\s+/).filter((w) => w && !functionWord(w));
  return kept.length ? kept.join(' ') : question;
}

/**
 * The words of `text` that no document of `collection` uses: content words (not stop words, interrogatives,
 * the word after "how", connectives such as "though", or contractions; a possessive as its noun) each of whose
 * BM25 terms has document frequency 0 in the
 * collection's BM25 index. A
 * question asked in other words than the documents ("upkeep" for "maintenance") or with a typo
 * ("warrenty") is told which words to change; exact (the index's own analyzer and counts), nothing guessed.
 * @example
 * unmatchedWords(col, 'When does Perch go down for upkeep?')  // ['upkeep'] when no document says "upkeep"
 * @param {object} collection a Collection (or anything with a Bm25Index as `bm25`)
 * @param {string} text a question or query
 * @returns {string[]|null} the words as written, first occurrences in order ([] when every word is used);
 *   null when the collection has no BM25 index in this thread (no BM25 leg, or one sharded across Workers)
 * @throws {RagwasmError} INVALID_ARGUMENT, DISPOSED
 */
export function unmatchedWords(collection, text) {
  expectString(text, 'text');
  const bm25 = isObject(collection) ? collection.bm25 : null;
  if (!hasMethod(bm25, 'documentFrequency') || !hasMethod(bm25, 'analyze')) return null;
  const out = [];
  const seen = new Set();
  const afterHow = new Set([...text.matchAll(/\bhow\s+(\p{L}+)/giu)].map((m) => m[1].toLowerCase()));
  for (const written of contentWords(questionQuery(text))) {
    // a possessive is its noun ("Acme's" -> "Acme"); other contractions ("didn't", "I'm") are not named
    const word = written.replace(/['’]s$/i, '');
    const key = word.toLowerCase();
    if (seen.has(key) || /['’]/.test(word) || QUESTION_WORDS.has(key) || STOP.has(key) || PHRASING_WORDS.has(key) || afterHow.has(key)) continue;
    seen.add(key);
    const terms = bm25.analyze(word);
    if (terms.length > 0 && terms.every((t) => bm25.documentFrequency(t) === 0)) out.push(word);
  }
  return out;
}

// A product code typed without its hyphen ("hx9", "WS410") as the documents write it ("hx-9", "ws-410"):
// the BM25 index keeps a joined identifier whole ("ws-410") besides its parts, so the glued form matches
// nothing. A word of letters then digits (or digits then letters) becomes the hyphenated form when the
// documents use that one more often (in more chunks); other words are left as written.
function documentSpelling(collection, text) {
  const bm25 = isObject(collection) ? collection.bm25 : null;
  if (!hasMethod(bm25, 'documentFrequency') || !hasMethod(bm25, 'analyze')) return text;
  return text.replace(/(?<![\p{L}\p{N}_.\/-])(\p{L}+)(\p{N}+)(?![\p{L}\p{N}_.\/-])|(?<![\p{L}\p{N}_.\/-])(\p{N}+)(\p{L}+)(?![\p{L}\p{N}_.\/-])/gu, (word, a, b, c, d) => {
    const glued = Math.max(0, ...bm25.analyze(word).map((t) => bm25.documentFrequency(t)));
    const joined = a !== undefined ? `${a}-${b}` : `${c}-${d}`;
    return bm25.documentFrequency(joined.toLowerCase()) > glued ? joined : word;  // the index's joined term
  });
}

/**
 * For each word of `text` no document uses (unmatchedWords), the nearest words of a static model's word
 * table that the documents do use: words for the user to ask with instead ("upkeep" -> "repairs",
 * "maintenance"). Offered, never searched with unasked: on the sample corpus's paraphrased questions
 * searching with them did not find more evidence (docs/docchat.md), a person picking one does.
 * @example
 * const words = await createWordNeighbours();
 * suggestWords(col, 'When does Perch go down for upkeep?', { words })
 * // [{word: 'upkeep', suggestions: [{word: 'repairs', similarity: 0.70...}, {word: 'maintenance', ...}, ...]}]
 * @param {object} collection a Collection
 * @param {string} text a question or query
 * @param {{words: WordNeighbours, perWord?: number, minSimilarity?: number}} options words: createWordNeighbours();
 *   perWord: suggestions per word, 1..16 (default 3); minSimilarity: cosine floor in [0, 1] (default 0.5)
 * @returns {{word: string, suggestions: {word: string, similarity: number}[]}[]|null} one entry per unmatched word,
 *   in order (suggestions best first, [] when none clears minSimilarity); null as unmatchedWords
 * @throws {RagwasmError} INVALID_ARGUMENT, DISPOSED
 */
export function suggestWords(collection, text, options) {
  const o = expectOptions(options, 'suggestWords options', ['words', 'perWord', 'minSimilarity']);
  if (!isInstance(o.words, WordNeighbours)) throw invalid('options.words', 'a WordNeighbours (createWordNeighbours())', o.words);
  const perWord = o.perWord === undefined ? 3 : expectInteger(o.perWord, 'options.perWord', { min: 1, max: 16 });
  const minSimilarity = o.minSimilarity === undefined ? 0.5 : expectNumber(o.minSimilarity, 'options.minSimilarity', { min: 0, max: 1 });
  const unmatched = unmatchedWords(collection, text);
  if (unmatched === null) return null;
  const expansion = { words: o.words, unmatchedOnly: true, perTerm: perWord, minSimilarity };
  return unmatched.map((word) => ({
    word,
    suggestions: collection.bm25.expansionTerms(word, { expansion }).map((t) => ({ word: t.word, similarity: t.similarity })),
  }));
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
 * The retrieval evidence below which ask() answers 'not-found' (options.minEvidence): chosen on the
 * tuning halves of examples/corpus (split.json, own-words-split.json) only, docs/docchat.md "Three outcomes".
 */
export const MIN_EVIDENCE = 0.075;

// The outcome of a question no unit answers: 'not-found' when the chunks read hardly match the question
// (retrieval evidence below minEvidence), else 'passages' (the chunks with their best unit, no claim).
function noAnswer(out, top, analysis, minEvidence) {
  out.evidence = analysis.evidence;
  if (analysis.evidence < minEvidence) {
    out.outcome = 'not-found';
    out.answer = NO_ANSWER_TEXT;
    return out;
  }
  out.outcome = 'passages';
  out.answer = PASSAGES_TEXT;
  out.passages = passagesOf(top, analysis);
  return out;
}

// The chunks read, in rank order, each with its best unit as a span of the document (null: no unit).
function passagesOf(top, analysis) {
  const best = new Map(analysis.chunkBest.map((s) => [s.chunkIndex, s]));
  return top.map((h, i) => {
    const b = best.get(i);
    return { docId: h.docId, chunkId: h.id, start: h.start, end: h.end, score: h.score, text: h.text,
      best: b ? { start: h.start + b.start, end: h.start + b.end, text: h.text.slice(b.start, b.end) } : null };
  });
}

/**
 * Answers a question from a Collection: retrieve the top `k` chunks, answer from the first
 * `answerChunks` of them, and cite spans of the documents.
 * @example
 * const col = await Collection.create(PRESETS.docChatBm25);
 * await col.add([{ id: 'leave', title: 'Leave', text: '# Leave\n\nEmployees get **22 days** of PTO.' }]);
 * const r = await ask(col, 'How many days of PTO do employees get?');
 * // r.outcome 'answer', r.answer 'Employees get 22 days of PTO. [1]', r.citations[0] {n: 1, docId: 'leave', start, end, ...}
 * @param {import('../pipeline/collection.js').Collection} collection
 * @param {string} question non-empty
 * @param {object} [options]
 * @param {number} [options.k=10] hits returned (1..100)
 * @param {number} [options.answerChunks=5] top hits the answerer reads (1..k)
 * @param {number} [options.threshold=0.35] the answer bar in [0, 1]: the extractive answerer's unit score an answer needs
 * @param {number} [options.minEvidence=MIN_EVIDENCE] retrieval evidence in [0, 1] below which the outcome is 'not-found'
 *   (the IDF-weighted share of the question's terms found in the chunks read; docs/docchat.md "Three outcomes")
 * @param {number} [options.maxSentences=2] extractive units in the answer (1..32)
 * @param {number} [options.entityMismatch=1] extractive score factor in [0, 1] for a unit whose chunk
 *   lacks an identifier the question names ("revision D", "Q2", "Canada"; extractiveAnswer)
 * @param {number} [options.keyMismatch=1] extractive score factor in [0, 1] for a unit whose chunk does not hold
 *   every key term of the question (the words of its noun phrases, "the probation period"; extractiveAnswer)
 * @param {number} [options.entityConflict=1] extractive score factor in [0, 1] for a unit that lacks an identifier the
 *   question names (in its text, header and chunk context) and names another of the same form instead ("DL-7" for
 *   "HX-9", "Q4" for "Q1", "Wexley Ferry" for "Ghent"; extractiveAnswer)
 * @param {number} [options.typeMismatch=0.6] extractive score factor in [0, 1] for a unit lacking what the question
 *   asks for (who, which company -> a name or role; how many/much -> a number; when -> a date; extractiveAnswer)
 * @param {boolean} [options.questionWords=true] keep the question's interrogative and function words in
 *   the retrieval query; false retrieves with questionQuery(query) (PRESETS.docChatAnswer does); the
 *   answerer always reads the question as asked
 * @param {Array<{role: 'user'|'assistant', content: string}>} [options.history] earlier turns, oldest
 *   first: a follow-up (isFollowUp) is rewritten before retrieval (with the LLM's query_rewrite prompt
 *   when `llm` is given, else rewriteFollowUp); other questions are retrieved as asked
 * @param {object} [options.llm] an LlmClient (createLlmClient of ragwasm/llm), or any object with its methods:
 *   `answer(input, options)` answers (answer_grounded prompt, [n] citations) instead of the extractive answerer;
 *   `rewriteQuery` rewrites follow-ups (rewriteFollowUp without it), `clarify` runs options.clarify, `expandQuery` runs the collection config's
 *   retrieval.llmExpansion (the LLM's hypothetical answer passage searched with the question, 'query2doc', or
 *   instead of it, 'hyde'; reported in `expansion`)
 * @param {(delta: string) => void} [options.onText] streamed LLM answer text
 * @param {false|'ask'|'answer-each'} [options.clarify=false] query clarification (needs `llm`): after retrieval the
 *   LLM is asked (query_clarify prompt) whether the question is ambiguous given the top `answerChunks` chunks; when it
 *   names at least 2 interpretations grounded in shown chunks, 'ask' returns them in `clarification` without an answer
 *   (re-ask with the chosen interpretation's question), 'answer-each' answers each from the chunks it cites. A reply
 *   that does not parse is reported in `clarification.error` and the question is answered as asked.
 * @param {AbortSignal} [options.signal]
 * @param {object} [options.filter] Collection.search filter
 * @returns {Promise<AskResult>} (fields in ask.d.ts) clarification is present only when options.clarify is set;
 *   expansion only when the collection's config has retrieval.llmExpansion.
 *   outcome (docs/docchat.md, "Three outcomes"): 'answer' = a unit (sentence, list item or table row) cleared the
 *   answer bar (or the LLM answered): `answer` quotes it with [n] markers and `citations` span it; 'passages' = no unit
 *   cleared the bar but the chunks read match the question: `answer` is PASSAGES_TEXT (no claim about the documents),
 *   `passages` are the chunks read with their best unit (also for a yes/no question naming a word or number that no
 *   document uses: the documents cannot say yes or no about it); 'not-found' = retrieval evidence below minEvidence (or no hit):
 *   `answer` is NO_ANSWER_TEXT. An LLM abstention becomes 'passages' or 'not-found' by the same evidence; an ambiguous
 *   question with clarify 'ask' is 'passages' (its readings in `clarification`). abstained = outcome !== 'answer'.
 *   unmatched: unmatchedWords(collection, query), the question's words no document uses (null when the collection
 *   cannot tell). evidence: the IDF-weighted share of the question's terms found in the chunks read (0 without hits). polarity: what
 *   the cited unit states for an extractive answer to a yes/no question ('unclear': quoted without Yes/No), else null.
 *   start/end are UTF-16 offsets into the document's text; an extractive citation spans the quoted unit
 *   (sentence, list item or table row; or the clause of it that is quoted), an LLM citation the whole cited chunk
 * @throws {RagwasmError} INVALID_ARGUMENT (bad question or options; as Collection.search), ABORTED, and the
 *   LLM client's errors
 */
export async function ask(collection, question, options = {}) {
  if (!isObject(collection) || !hasMethod(collection, 'search')) {
    throw invalid('collection', 'a Collection', collection);
  }
  const o = expectOptions(options, 'ask options', ['k', 'answerChunks', 'threshold', 'minEvidence', 'maxSentences', 'entityMismatch', 'keyMismatch', 'entityConflict', 'typeMismatch', 'questionWords', 'history', 'llm', 'onText', 'signal', 'filter', 'clarify']);
  expectString(question, 'question', { allowEmpty: false });
  if (question.trim() === '') throw invalid('question', 'a non-empty question', question);
  const k = o.k === undefined ? 10 : expectInteger(o.k, 'options.k', { min: 1, max: 100 });
  const answerChunks = o.answerChunks === undefined ? Math.min(5, k) : expectInteger(o.answerChunks, 'options.answerChunks', { min: 1, max: k });
  const threshold = o.threshold === undefined ? 0.35 : expectNumber(o.threshold, 'options.threshold', { min: 0, max: 1 });
  const minEvidence = o.minEvidence === undefined ? MIN_EVIDENCE : expectNumber(o.minEvidence, 'options.minEvidence', { min: 0, max: 1 });
  const maxSentences = o.maxSentences === undefined ? 2 : expectInteger(o.maxSentences, 'options.maxSentences', { min: 1, max: 32 });
  const entityMismatch = o.entityMismatch === undefined ? 1 : expectNumber(o.entityMismatch, 'options.entityMismatch', { min: 0, max: 1 });
  const keyMismatch = o.keyMismatch === undefined ? 1 : expectNumber(o.keyMismatch, 'options.keyMismatch', { min: 0, max: 1 });
  const entityConflict = o.entityConflict === undefined ? 1 : expectNumber(o.entityConflict, 'options.entityConflict', { min: 0, max: 1 });
  const typeMismatch = o.typeMismatch === undefined ? 0.6 : expectNumber(o.typeMismatch, 'options.typeMismatch', { min: 0, max: 1 });
  const questionWords = o.questionWords === undefined ? true : expectBoolean(o.questionWords, 'options.questionWords');
  const history = o.history === undefined ? [] : expectArray(o.history, 'options.history', { maxLength: 1000 });
  if (o.onText !== undefined) expectFunction(o.onText, 'options.onText');
  if (o.llm !== undefined && !hasMethod(o.llm, 'answer')) throw invalid('options.llm', 'an LlmClient (createLlmClient of ragwasm/llm) or an object with its answer method', o.llm);
  const clarify = o.clarify === undefined || o.clarify === false ? false : o.clarify;
  if (clarify !== false && clarify !== 'ask' && clarify !== 'answer-each') throw invalid('options.clarify', "false, 'ask' or 'answer-each'", o.clarify);
  if (clarify && !o.llm) throw invalid('options.clarify', 'false when no options.llm is given (clarification asks an LLM)', o.clarify);
  if (o.signal?.aborted) throw new RagwasmError('ABORTED', 'ragwasm: ask aborted');
  const llm = o.llm ?? null;
  const expansion = collection.config?.retrieval?.llmExpansion;
  if (expansion && !hasMethod(llm, 'expandQuery')) {
    throw new RagwasmError('INVALID_ARGUMENT', 'ragwasm: retrieval.llmExpansion: the collection\'s config asks for LLM query expansion: pass options.llm (createLlmClient of ragwasm/llm) or remove the key');
  }
  if (clarify && !hasMethod(llm, 'clarify')) throw invalid('options.llm', 'an LlmClient (a clarify method, for options.clarify)', llm);

  let query = question;
  if (history.length > 0 && isFollowUp(question, history)) {
    if (hasMethod(llm, 'rewriteQuery')) {
      query = (await llm.rewriteQuery(question, { history, signal: o.signal })).query;
    } else {
      query = rewriteFollowUp(question, history);
    }
  }
  query = documentSpelling(collection, query);
  const searchOptions = { k };
  if (o.signal) searchOptions.signal = o.signal;
  if (o.filter !== undefined) searchOptions.filter = o.filter;
  let retrievalQuery = questionWords ? query : questionQuery(query);
  let expanded = null;
  if (expansion) {
    // The LLM's hypothetical answer is a search query only: never shown or cited as an answer.
    expanded = await llm.expandQuery(query, { mode: expansion.mode, maxTokens: expansion.maxTokens, signal: o.signal });
    if (expanded.passage) retrievalQuery = expansion.mode === 'hyde' ? expanded.passage : `${retrievalQuery}\n${expanded.passage}`;
  }
  let hits;
  try {
    hits = await collection.search(retrievalQuery, searchOptions);
  } catch (e) {
    // Without its question words a question can be all stop words ("What is it?"): search as asked.
    if (retrievalQuery === query || e?.code !== 'INVALID_ARGUMENT') throw e;
    hits = await collection.search(query, searchOptions);
  }
  /** @type {AskResult} */
  const out = { question, query, answer: NO_ANSWER_TEXT, outcome: 'not-found', abstained: true, evidence: 0, polarity: null,
    mode: o.llm ? 'llm' : 'extractive', citations: [], passages: [], hits: hits.map(hitOut), unmatched: unmatchedWords(collection, query) };
  if (expanded) out.expansion = { mode: expansion.mode, passage: expanded.passage, searched: retrievalQuery };
  if (hits.length === 0) return out;
  const top = hits.slice(0, answerChunks);
  const citeOf = (chunks) => ({ n }) => {
    const h = chunks[n - 1];
    return { n, docId: h.docId, chunkId: h.id, start: h.start, end: h.end, text: h.text };
  };
  // The extractive answerer's reading of the chunks: its answer, the retrieval evidence and each chunk's best unit
  // (the LLM path uses the last two when the LLM abstains). The question as asked (not the rewrite) decides the
  // answer type; the rewrite's carried terms help coverage.
  const analysis = extractiveAnswer(query, top.map((h) => ({ id: h.id, text: h.text, score: h.score, context: h.title ?? '' })),
    { maxChunks: top.length, threshold, maxSentences, entityMismatch, keyMismatch, entityConflict, typeMismatch });
  out.evidence = analysis.evidence;
  const answered = () => {
    out.outcome = 'answer';
    out.abstained = false;
    return out;
  };

  if (clarify) {
    const c = await llm.clarify({ question: query, passages: top.map((h) => ({ id: h.id, text: h.text })) }, { signal: o.signal });
    out.clarification = { ambiguous: c.ambiguous, mode: clarify, interpretations: c.interpretations.map((it) => ({ ...it })), rejected: c.rejected, error: c.error };
    if (c.ambiguous) {
      if (clarify === 'ask') {
        out.outcome = 'passages';
        out.passages = passagesOf(top, analysis);
        out.answer = `The question can be read in ${c.interpretations.length} ways in your documents; which one did you mean?`;
        return out;
      }
      const parts = [];
      for (const it of out.clarification.interpretations) {
        const chunks = top.filter((h) => it.chunkIds.includes(h.id));
        const r = await llm.answer({ question: it.question, passages: chunks.map((h) => ({ id: h.id, text: h.text })) }, { signal: o.signal });
        it.answer = r.text;
        it.abstained = r.abstained;
        it.citations = r.citations.map(citeOf(chunks));
        parts.push(`${it.question}\n${r.text}`);
      }
      if (out.clarification.interpretations.every((it) => it.abstained)) return noAnswer(out, top, analysis, minEvidence);
      out.answer = parts.join('\n\n');
      return answered();
    }
  }

  if (o.llm) {
    const ctx = answerContext(collection, top);  // the config's assembly section (issue 32)
    const r = await llm.answer({ question: query, passages: ctx.passages },
      { onText: o.onText, signal: o.signal });
    // An LLM abstention says nothing about the documents by itself: the retrieval evidence decides between
    // 'passages' and 'not-found', as for the extractive answerer.
    if (r.abstained) return noAnswer(out, top, analysis, minEvidence);
    out.answer = r.text;
    out.citations = r.citations.map(citeOf(ctx.hits));
    return answered();
  }

  if (analysis.evidence < minEvidence || !analysis.answered) return noAnswer(out, top, analysis, minEvidence);
  // A yes/no question naming a word no document uses ("Can the probe measure soil pH?"): the documents cannot state
  // yes or no about a thing they never name, and a sentence about the rest of the question would read as if they
  // did ("No. ... the probe does not measure only the ..."); show the passages (docs/docchat.md "Yes and No").
  // A number no document uses counts the same ("Is the DL-7 warranty 4711 days?"); one they use does not.
  if (analysis.questionType === 'yes-no' && out.unmatched?.length) return noAnswer(out, top, analysis, minEvidence);
  out.answer = analysis.text;
  out.polarity = analysis.polarity;
  out.citations = analysis.sentences.map((s) => {
    const h = top[s.chunkIndex];
    return { n: s.citation, docId: h.docId, chunkId: h.id, start: h.start + s.start, end: h.start + s.end, text: h.text.slice(s.start, s.end) };
  });
  return answered();
}

// documentTitle lives with the documents (document/title.js); re-exported here for the entry's grouping.
export { documentTitle } from '../document/title.js';
