// @ts-check
// Query clarification (issue #16 item 5): before answering, ask the LLM whether the question is
// ambiguous given the top retrieved chunks and, if so, for grounded interpretations (each citing the
// shown chunks that support it). Interpretations citing a chunk that was not shown are rejected.
// A reply that does not parse is reported as a parse failure (error set, ambiguous null), never thrown.
// LlmClient.clarify and ask({clarify}) call clarifyQuestion; goldens/clarify.js re-exports both functions
// beside the labelled-set metrics.
import { expectArray, expectInteger, expectOptions, expectString, invalid, isArray, isObject, isPlainObject } from '../core/validate.js';
import { expectLlmClient } from './check.js';
import { formatPassages, loadPrompt, renderPrompt } from './prompts.js';

const MAX_INTERPRETATIONS = 8;

// The first balanced {...} of a reply (models wrap JSON in prose or code fences).
function firstJsonObject(text) {
  const start = text.indexOf('{');
  if (start < 0) return null;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  return null;
}

/**
 * Parses a query_clarify reply against the passages that were shown.
 * Citations may be passage numbers (1-based, as numbered in the prompt) or chunk ids; an
 * interpretation citing a number or id that was not shown, or citing nothing, is rejected (kept in
 * `rejected` with the reason). A question counts as ambiguous only when at least 2 grounded
 * interpretations remain.
 * @param {string} reply the model's reply
 * @param {string[]} shownIds ids of the passages shown, in prompt order
 * @returns {{ambiguous: boolean|null, claimedAmbiguous: boolean|null, interpretations: Array<{question: string, chunkIds: string[]}>,
 *   rejected: Array<{question: string, cited: Array<string|number>, reason: string}>, error: string|null}}
 *   ambiguous null and error set when the reply is not the expected JSON
 * @throws {RagwasmError} INVALID_ARGUMENT (reply not a string, shownIds not strings)
 */
export function parseClarification(reply, shownIds) {
  expectString(reply, 'reply');
  const ids = expectArray(shownIds, 'shownIds', { maxLength: 1000, item: (v, n) => expectString(v, n) });
  const fail = (error) => ({ ambiguous: null, claimedAmbiguous: null, interpretations: [], rejected: [], error });
  const raw = firstJsonObject(reply);
  if (raw === null) return fail('unparsed reply: no JSON object');
  let j;
  try {
    j = JSON.parse(raw);
  } catch (e) {
    return fail(`unparsed reply: ${e.message}`);
  }
  if (!isPlainObject(j) || typeof j.ambiguous !== 'boolean') return fail('unparsed reply: expected {"ambiguous": true|false, "interpretations": [...]}');
  const list = j.interpretations === undefined ? [] : j.interpretations;
  if (!isArray(list)) return fail('unparsed reply: interpretations: expected an array');
  const interpretations = [];
  const rejected = [];
  for (const it of list.slice(0, MAX_INTERPRETATIONS)) {
    const question = isPlainObject(it) && typeof it.question === 'string' ? it.question.trim() : '';
    const cited = isPlainObject(it) && isArray(it.passages) ? it.passages : [];
    if (!question) {
      rejected.push({ question, cited, reason: 'no question' });
      continue;
    }
    if (cited.length === 0) {
      rejected.push({ question, cited, reason: 'cites no passage' });
      continue;
    }
    const chunkIds = [];
    let bad = null;
    for (const c of cited) {
      const n = typeof c === 'number' ? c : (typeof c === 'string' && /^\[?\d+\]?$/.test(c.trim()) ? Number(c.trim().replace(/[[\]]/g, '')) : null);
      let id = null;
      if (n !== null) id = Number.isInteger(n) && n >= 1 && n <= ids.length ? ids[n - 1] : null;
      else if (typeof c === 'string' && ids.includes(c)) id = c;
      if (id === null) {
        bad = `cites ${JSON.stringify(c)}, which was not shown`;
        break;
      }
      if (!chunkIds.includes(id)) chunkIds.push(id);
    }
    if (bad) rejected.push({ question, cited, reason: bad });
    else interpretations.push({ question, chunkIds });
  }
  const ambiguous = j.ambiguous && interpretations.length >= 2;
  return { ambiguous, claimedAmbiguous: j.ambiguous, interpretations: ambiguous ? interpretations : [], rejected, error: null };
}

/**
 * Asks the LLM (query_clarify prompt) whether `question` is ambiguous given `passages`.
 * @param {import('./client.js').LlmClient} client
 * @param {{question: string, passages: Array<{id: string, text: string}>}} input the top retrieved chunks
 * @param {{prompt?: object, maxTokens?: number, signal?: AbortSignal}} [options]
 * @returns {Promise<{ambiguous: boolean|null, claimedAmbiguous: boolean|null, interpretations: Array<{question: string, chunkIds: string[]}>,
 *   rejected: object[], error: string|null, reply: string, usage: object, cost: number|null}>}
 * @throws {RagwasmError} INVALID_ARGUMENT, and the client's HTTP/NETWORK/TIMEOUT/ABORTED errors
 */
export async function clarifyQuestion(client, input, options = {}) {
  expectLlmClient(client);
  const i = expectOptions(input, 'input', ['question', 'passages']);
  const o = expectOptions(options, 'clarifyQuestion options', ['prompt', 'maxTokens', 'signal']);
  const question = expectString(i.question, 'input.question', { allowEmpty: false });
  const passages = expectArray(i.passages, 'input.passages', { maxLength: 100, item: (p, n) => {
    if (!isObject(p)) throw invalid(n, 'a passage {id, text}', p);
    expectString(p.id, `${n}.id`, { allowEmpty: false });
    expectString(p.text, `${n}.text`);
  } });
  if (passages.length === 0) throw invalid('input.passages', 'at least one passage', passages);
  const maxTokens = o.maxTokens === undefined ? 600 : expectInteger(o.maxTokens, 'options.maxTokens', { min: 1, max: 100000 });
  const t = o.prompt ?? await loadPrompt('query_clarify');
  const messages = renderPrompt(t, { question, passages: formatPassages(passages.map((p) => ({ id: p.id, text: p.text }))) });
  const r = await client.complete({ messages, temperature: 0, maxTokens, purpose: 'clarify' }, { signal: o.signal });
  return { ...parseClarification(r.text, passages.map((p) => p.id)), reply: r.text, usage: r.usage, cost: r.cost };
}

