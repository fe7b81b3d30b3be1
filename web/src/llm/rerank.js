// @ts-check
// The LLM reranker: the context-relevance judge through an LlmClient. It lives with the LLM stage (it
// calls judges.js); the item helpers every reranker shares stay in retrieve/rerank.js.
import { allOrAbort } from './all-or-abort.js';
import { judgeContextRelevance } from './judges.js';
import { itemText, MAX_PASSAGES } from '../retrieve/rerank.js';
import { expectArray, expectInteger, expectOptions, expectString, hasMethod, invalid } from '../core/validate.js';

/**
 * An LLM reranker: grades each (query, passage) with the context-relevance judge (0-3, UMBRELA-style
 * rubric, prompt `judge_context_relevance`) through an LlmClient, so every request shows in the
 * client's ledger. Its `reranker` plugs into rerank() / retrieveAndRerank() / Collection.search. A reply
 * that does not parse scores `unparsedScore` (default -1: after every graded passage) and is counted in
 * `stats.unparsed`; the first failed request aborts the others still queued (nothing more is sent).
 * Items rerank() keeps in retrieval order on equal grades, so the 4-level scale ties often: use
 * `samples` (self-consistency, mean of n) for finer scores.
 * @param {import('./client.js').LlmClient} client
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
