// LLM reranking (the context-relevance judge through an LlmClient) and the item helpers rerankers
// share. The ONNX cross-encoder is in cross-encoder.js (reached through the `ragwasm/onnx` entry).
import { RagwasmError } from '../core/errors.js';
import { allOrAbort } from '../llm/all-or-abort.js';
import { judgeContextRelevance } from '../llm/judges.js';
import {
  expectArray, expectBoolean, expectEnum, expectFunction, expectInteger, expectOptions, expectString, hasMethod, invalid,
} from '../core/validate.js';

/** Most items one reranker call takes. @internal */
export const MAX_PASSAGES = 1 << 20;

/** The text of a rerank item: a string, or an object's `text` string. @internal */
export function itemText(item, i) {
  if (typeof item === 'string') return item;
  if (item !== null && typeof item === 'object' && typeof item.text === 'string') return item.text;
  throw invalid(`items[${i}]`, 'a string or an object with a string `text`', item);
}

/**
 * An LLM reranker: grades each (query, passage) with the context-relevance judge (0-3, UMBRELA-style
 * rubric, prompt `judge_context_relevance`) through an LlmClient, so every request shows in the
 * client's ledger. Its `reranker` plugs into rerank() / retrieveAndRerank() / Collection.search. A reply
 * that does not parse scores `unparsedScore` (default -1: after every graded passage) and is counted in
 * `stats.unparsed`; the first failed request aborts the others still queued (nothing more is sent).
 * Items rerank() keeps in retrieval order on equal grades, so the 4-level scale ties often: use
 * `samples` (self-consistency, mean of n) for finer scores.
 * @param {import('../llm/client.js').LlmClient} client
 * @param {{samples?: number, temperature?: number, maxTokens?: number, unparsedScore?: number, signal?: AbortSignal}} [options]
 * @returns {{reranker: (query: string, items: (string|{text: string})[]) => Promise<number[]>,
 *   stats: {calls: number, pairs: number, unparsed: number, cost: number|null}}} (cost null, unknown, once a judged pair had no price)
 * @throws {RagwasmError} INVALID_ARGUMENT (bad options); the reranker: the client's errors, ABORTED
 */
export function createLlmReranker(client, options = {}) {
  const name = 'createLlmReranker options';
  const o = expectOptions(options, name, ['samples', 'temperature', 'maxTokens', 'unparsedScore', 'signal']);
  if (!hasMethod(client, 'complete')) {
    throw invalid('client', 'an LlmClient (createLlmClient)', client);
  }
  const judgeOpts = {};
  if (o.samples !== undefined) judgeOpts.samples = expectInteger(o.samples, `${name}.samples`, { min: 1, max: 20 });
  if (o.temperature !== undefined) judgeOpts.temperature = o.temperature;
  if (o.maxTokens !== undefined) judgeOpts.maxTokens = o.maxTokens;
  const unparsedScore = o.unparsedScore === undefined ? -1 : o.unparsedScore;
  if (typeof unparsedScore !== 'number' || !Number.isFinite(unparsedScore)) throw invalid(`${name}.unparsedScore`, 'a finite number', unparsedScore);
  const stats = { calls: 0, pairs: 0, unparsed: 0, cost: 0 };
  async function reranker(query, items, callOptions = {}) {
    expectString(query, 'query');
    expectArray(items, 'items', { maxLength: MAX_PASSAGES });
    const texts = items.map(itemText);
    stats.calls++;
    // Either signal stops the calls: the one given at creation or the one of this call (rerank()'s).
    const signals = [o.signal, callOptions.signal].filter((x) => x !== undefined);
    const signal = signals.length <= 1 ? signals[0] : AbortSignal.any(signals);
    return allOrAbort(texts, signal, async (passage, signal) => {
      const r = await judgeContextRelevance(client, { question: query, passage }, { ...judgeOpts, signal });
      stats.pairs++;
      stats.cost = stats.cost === null || r.cost === null || r.cost === undefined ? null : stats.cost + r.cost;
      if (r.score !== null) return r.score;
      stats.unparsed++;
      return unparsedScore;
    });
  }
  return { reranker, stats };
}
