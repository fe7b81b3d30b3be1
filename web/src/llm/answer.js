// @ts-check
// Answers: grounded generation with inline [n] citations through an LlmClient (the no-LLM extractive
// answerer is web/src/answer/extractive.js, re-exported here).
import { callWasm, RagwasmError } from '../core/errors.js';
import {
  expectArray, expectFunction, expectInteger, expectNumber, expectOptions, expectString, invalid, isInstance, isObject, isPlainObject,
} from '../core/validate.js';
import { encodeText } from '../core/encode.js';
import { wasm } from '../core/module.js';
import { expectLlmClient } from './check.js';
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
 * @param {import('./client.js').LlmClient} client
 * @param {{question: string, passages: Array<{id?: string, text: string}>}} input passages in rank order; [n] = passages[n-1]
 * @param {{onText?: (delta: string) => void, signal?: AbortSignal, temperature?: number, maxTokens?: number, prompt?: object}} [options]
 * @returns {Promise<{text: string, abstained: boolean, citations: Array<{n: number, id: string|null}>, invalidCitations: number[],
 *   usage: object, cost: number|null, latencyMs: number, prompt: {id: string, version: number}}>}
 */
export async function generateAnswer(client, input, options = {}) {
  expectLlmClient(client);
  const i = expectOptions(input, 'input', ['question', 'passages']);
  const o = expectOptions(options, 'generateAnswer options', ['onText', 'signal', 'temperature', 'maxTokens', 'prompt']);
  const question = expectString(i.question, 'input.question', { allowEmpty: false });
  const passages = expectArray(i.passages, 'input.passages', { maxLength: 1000 });
  if (o.onText !== undefined) expectFunction(o.onText, 'options.onText');
  wasm();  // the reply is parsed in WASM (isAbstention): NOT_INITIALIZED now, before the call is sent and paid for
  const t = o.prompt ?? await loadPrompt('answer_grounded');
  const messages = renderPrompt(t, { question, passages: passages.length ? formatPassages(passages) : '(no passages were retrieved)' });
  const r = await client.complete({ messages, temperature: o.temperature ?? 0, maxTokens: o.maxTokens ?? 512, purpose: 'answer' },
    { signal: o.signal, onText: o.onText });
  const { cited, invalid } = extractCitations(r.text, passages);
  return { text: r.text, abstained: isAbstention(r.text), citations: cited, invalidCitations: invalid,
    usage: r.usage, cost: r.cost, latencyMs: r.latencyMs, prompt: { id: t.id, version: t.version } };
}

// The extractive answerer lives with the answer stage (web/src/answer/extractive.js); re-exported here
// so existing imports from the llm entry keep working.
export { extractiveAnswer } from '../answer/extractive.js';
