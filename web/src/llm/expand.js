// @ts-check
// LLM query expansion (issue #27, pipeline config retrieval.llmExpansion): the LLM writes a short
// hypothetical answer passage (prompt query_expand) that is searched with the question (query2doc,
// Wang et al. 2023: the question followed by the passage) or instead of it (HyDE, Gao et al. 2022: the
// passage alone). The passage is a search query only: it is never shown or cited as an answer.
import { expectEnum, expectInteger, expectOptions, expectString } from '../core/validate.js';
import { expectLlmClient } from './check.js';
import { loadPrompt, renderPrompt } from './prompts.js';

/** The modes of retrieval.llmExpansion. */
/** @type {readonly import('../llm.js').LlmExpansionMode[]} */
export const LLM_EXPANSION_MODES = Object.freeze(['hyde', 'query2doc']);

/**
 * Asks the LLM for a hypothetical answer passage and builds the search query from it.
 * @example
 * const { query } = await expandQuery(client, 'Who do I call when I am off ill?', { mode: 'query2doc' });
 * @param {import('./client.js').LlmClient} client
 * @param {string} question the (rewritten) question, non-empty
 * @param {{mode?: 'hyde'|'query2doc', maxTokens?: number, prompt?: object, signal?: AbortSignal}} [options]
 *   mode (default 'query2doc'): 'query2doc' searches `question + '\n' + passage`, 'hyde' the passage alone;
 *   maxTokens (default 128, 16..2048): the passage's budget
 * @returns {Promise<{query: string, passage: string, mode: 'hyde'|'query2doc', usage: object, cost: number|null}>}
 *   query: what to search; the question itself when the reply is empty
 * @throws {RagwasmError} INVALID_ARGUMENT (not a client, bad options), and the client's HTTP/NETWORK/TIMEOUT/ABORTED errors
 */
export async function expandQuery(client, question, options = {}) {
  expectLlmClient(client);
  const o = expectOptions(options, 'expandQuery options', ['mode', 'maxTokens', 'prompt', 'signal']);
  expectString(question, 'question', { allowEmpty: false });
  const mode = o.mode === undefined ? 'query2doc' : expectEnum(o.mode, 'options.mode', LLM_EXPANSION_MODES);
  const maxTokens = o.maxTokens === undefined ? 128 : expectInteger(o.maxTokens, 'options.maxTokens', { min: 16, max: 2048 });
  const t = o.prompt ?? await loadPrompt('query_expand');
  const r = await client.complete({ messages: renderPrompt(t, { question }), temperature: 0, maxTokens, purpose: 'expand' }, { signal: o.signal });
  const passage = r.text.trim();
  let query = question;
  if (passage) query = mode === 'hyde' ? passage : `${question}\n${passage}`;
  return { query, passage, mode, usage: r.usage, cost: r.cost };
}
