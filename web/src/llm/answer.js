// Answers: grounded generation with inline [n] citations through an LlmClient, and the no-LLM
// extractive answerer (C++, src/context/extractive.h) for doc chat without an endpoint.
import { RagwasmError, callWasm } from '../core/errors.js';
import { encodeText } from '../core/encode.js';
import { wasm } from '../core/module.js';
import {
  expectArray, expectFunction, expectInteger, expectNumber, expectOptions, expectString, invalid, isInstance, isObject, isPlainObject,
} from '../core/validate.js';
import { LlmClient } from './client.js';
import { isAbstention } from './parse.js';
import { formatPassages, loadPrompt, renderPrompt } from './prompts.js';

/**
 * Citation markers [n] in an answer, checked against the number of passages.
 * @param {string} text
 * @param {Array<{id?: string}>} passages
 * @returns {{cited: Array<{n: number, id: string|null}>, invalid: number[]}} cited in first-use order;
 *   invalid = markers that point at no passage (e.g. [7] with 5 passages)
 */
export function extractCitations(text, passages) {
  expectString(text, 'text');
  const list = expectArray(passages, 'passages', { item: (p, n) => { if (!isObject(p)) throw invalid(n, 'a passage object {id?, text}', p); } });
  const cited = [];
  const outOfRange = [];
  const seen = new Set();
  for (const m of text.matchAll(/\[(\d{1,3})\]/g)) {
    const n = Number(m[1]);
    if (seen.has(n)) continue;
    seen.add(n);
    if (n >= 1 && n <= list.length) cited.push({ n, id: list[n - 1].id ?? null });
    else outOfRange.push(n);
  }
  return { cited, invalid: outOfRange };
}

/**
 * Writes an answer from numbered passages with inline [n] citations, or the prompt's explicit
 * "The documents do not answer this question." when they do not contain it.
 * @param {LlmClient} client
 * @param {{question: string, passages: Array<{id?: string, text: string}>}} input passages in rank order; [n] = passages[n-1]
 * @param {{onText?: (delta: string) => void, signal?: AbortSignal, temperature?: number, maxTokens?: number, prompt?: object}} [options]
 * @returns {Promise<{text: string, abstained: boolean, citations: Array<{n: number, id: string|null}>, invalidCitations: number[],
 *   usage: object, cost: number|null, latencyMs: number, prompt: {id: string, version: number}}>}
 */
export async function generateAnswer(client, input, options = {}) {
  if (!(isInstance(client, LlmClient))) throw new RagwasmError('INVALID_ARGUMENT', 'ragwasm: client: expected an LlmClient (createLlmClient)');
  const i = expectOptions(input, 'input', ['question', 'passages']);
  const o = expectOptions(options, 'generateAnswer options', ['onText', 'signal', 'temperature', 'maxTokens', 'prompt']);
  const question = expectString(i.question, 'input.question', { allowEmpty: false });
  const passages = expectArray(i.passages, 'input.passages', { maxLength: 1000 });
  if (o.onText !== undefined) expectFunction(o.onText, 'options.onText');
  const t = o.prompt ?? await loadPrompt('answer_grounded');
  const messages = renderPrompt(t, { question, passages: passages.length ? formatPassages(passages) : '(no passages were retrieved)' });
  const r = await client.complete({ messages, temperature: o.temperature ?? 0, maxTokens: o.maxTokens ?? 512, purpose: 'answer' },
    { signal: o.signal, onText: o.onText });
  const { cited, invalid } = extractCitations(r.text, passages);
  return { text: r.text, abstained: isAbstention(r.text), citations: cited, invalidCitations: invalid,
    usage: r.usage, cost: r.cost, latencyMs: r.latencyMs, prompt: { id: t.id, version: t.version } };
}

/**
 * Extractive answer without an LLM: the sentences of the top chunks that best cover the question's
 * terms (IDF-weighted coverage, docs/llm.md), each followed by its [n] citation, or
 * `noAnswerText` when no sentence reaches `threshold`.
 * @example
 * extractiveAnswer('When was Acme founded?', [{id: 'a#0', text: 'Acme was founded in 1998. It makes pumps.'}]).text
 * // 'Acme was founded in 1998. [1]'
 * @param {string} question
 * @param {Array<{id: string, text: string, score?: number}>} chunks in rank order
 * @param {{maxSentences?: number, maxChunks?: number, threshold?: number, noAnswerText?: string}} [options]
 *   maxSentences 1..32 (default 2), maxChunks >= 1 (default 5), threshold in [0, 1] (default 0.35)
 * @returns {{answered: boolean, text: string, citations: string[], bestScore: number,
 *   sentences: Array<{chunkIndex: number, chunkId: string, start: number, end: number, text: string, score: number, citation: number}>}}
 *   start/end are UTF-16 offsets in the chunk's text
 * @throws {RagwasmError} INVALID_ARGUMENT, LIMIT_EXCEEDED, UNSUPPORTED_ENVIRONMENT (WASM build without the answerer)
 */
export function extractiveAnswer(question, chunks, options = {}) {
  const o = expectOptions(options, 'extractiveAnswer options', ['maxSentences', 'maxChunks', 'threshold', 'noAnswerText']);
  const q = encodeText(expectString(question, 'question'), 'question');
  expectArray(chunks, 'chunks', { maxLength: 10000 });
  const ids = [];
  const texts = [];
  const scores = [];
  chunks.forEach((c, k) => {
    if (!isPlainObject(c)) throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: chunks[${k}]: expected {id, text, score?}`);
    ids.push(encodeText(expectString(c.id, `chunks[${k}].id`), `chunks[${k}].id`));
    texts.push(encodeText(c.text, `chunks[${k}].text`));
    scores.push(c.score === undefined ? 0 : expectNumber(c.score, `chunks[${k}].score`));
  });
  const maxSentences = o.maxSentences === undefined ? 2 : expectInteger(o.maxSentences, 'options.maxSentences', { min: 1, max: 32 });
  const maxChunks = o.maxChunks === undefined ? 5 : expectInteger(o.maxChunks, 'options.maxChunks', { min: 1, max: 10000 });
  const threshold = o.threshold === undefined ? 0.35 : expectNumber(o.threshold, 'options.threshold', { min: 0, max: 1 });
  // Every string crosses as UTF-8 bytes (Embind's own string conversion corrupts lone surrogates).
  const noAnswer = encodeText(o.noAnswerText === undefined ? 'The documents do not answer this question.' : expectString(o.noAnswerText, 'options.noAnswerText'), 'options.noAnswerText');
  const m = wasm();
  if (typeof m.context_extractiveAnswer !== 'function') {
    throw new RagwasmError('UNSUPPORTED_ENVIRONMENT', 'ragwasm: this WASM build does not include the extractive answerer (wasm/bind_context_extractive.cpp)');
  }
  return callWasm(() => m.context_extractiveAnswer(q, ids, texts, scores, maxSentences, maxChunks, threshold, noAnswer));
}
