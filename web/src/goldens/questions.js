// @ts-check
// Question generation for goldens without hand labels: sample chunks (seeded), ask the LLM
// (question_generate prompt) for one question each, and keep the source chunk as the evidence, in the
// sample corpus's questions format (examples/corpus/questions.jsonl). A reply that is NONE or lacks a
// question is counted as skipped with its reason, never turned into a made-up question.
import { RagwasmError } from '../core/errors.js';
import { expectArray, expectInteger, expectOptions, expectString, invalid, isInstance, isObject } from '../core/validate.js';
import { wasm } from '../core/module.js';
import { LlmClient } from '../llm/client.js';
import { parseKeyValues } from '../llm/parse.js';
import { loadPrompt, renderPrompt } from '../llm/prompts.js';
import { allOrAbort } from '../llm/all-or-abort.js';
import { seededShuffle } from './split.js';

/**
 * A seeded sample of `n` chunks, at most `perDocument` from any one document, in sampled order.
 * @param {Array<{id: string, docId: string, text: string}>} chunks
 * @param {{n: number, seed?: number, perDocument?: number, minLength?: number}} options
 *   seed default 16; perDocument default unlimited; minLength (characters, default 80) skips tiny chunks
 * @returns {Array<{id: string, docId: string, text: string}>}
 */
export function sampleChunks(chunks, options) {
  const o = expectOptions(options, 'sampleChunks options', ['n', 'seed', 'perDocument', 'minLength']);
  if (options === undefined) throw invalid('options', '{n}', options);
  const n = expectInteger(o.n, 'options.n', { min: 1, max: 1000000 });
  const seed = o.seed === undefined ? 16 : expectInteger(o.seed, 'options.seed', { min: 0, max: 4294967295 });
  const perDocument = o.perDocument === undefined ? Infinity : expectInteger(o.perDocument, 'options.perDocument', { min: 1 });
  const minLength = o.minLength === undefined ? 80 : expectInteger(o.minLength, 'options.minLength', { min: 0 });
  const list = expectArray(chunks, 'chunks', { maxLength: 10000000, item: (c, k) => {
    if (!isObject(c)) throw invalid(`chunks[${k}]`, 'a chunk {id, docId, text}', c);
    expectString(c.id, `chunks[${k}].id`, { allowEmpty: false });
    expectString(c.docId, `chunks[${k}].docId`, { allowEmpty: false });
    expectString(c.text, `chunks[${k}].text`);
  } });
  const perDoc = new Map();
  const out = [];
  for (const c of seededShuffle(list, seed)) {
    if (out.length === n) break;
    if (c.text.trim().length < minLength) continue;
    const have = perDoc.get(c.docId) ?? 0;
    if (have >= perDocument) continue;
    perDoc.set(c.docId, have + 1);
    out.push(c);
  }
  return out;
}

/**
 * One question per chunk with the question_generate prompt.
 * @param {LlmClient} client
 * @param {Array<{id: string, docId: string, text: string, title?: string, start?: number, end?: number}>} chunks
 * @param {{idPrefix?: string, prompt?: object, maxTokens?: number, signal?: AbortSignal}} [options] idPrefix default 'gen'
 * @returns {Promise<{questions: Array<{id: string, question: string, answer: string, doc_ids: string[], evidence: string[],
 *   answerable: true, type: 'generated', source: {chunkId: string, docId: string, start?: number, end?: number, quote: string|null}}>,
 *   skipped: Array<{chunkId: string, reason: string}>, usage: {inputTokens: number, outputTokens: number}, cost: number|null}>}
 *   evidence is the source chunk's text; quote is the model's quote when it occurs verbatim in the chunk (else null)
 * @throws {RagwasmError} INVALID_ARGUMENT, and the client's errors (the first failure aborts the rest)
 */
export async function generateQuestions(client, chunks, options = {}) {
  if (!isInstance(client, LlmClient)) throw new RagwasmError('INVALID_ARGUMENT', 'ragwasm: client: expected an LlmClient (createLlmClient)');
  const o = expectOptions(options, 'generateQuestions options', ['idPrefix', 'prompt', 'maxTokens', 'signal']);
  const prefix = o.idPrefix === undefined ? 'gen' : expectString(o.idPrefix, 'options.idPrefix', { allowEmpty: false, maxLength: 64 });
  wasm();  // the replies are parsed in WASM (parseKeyValues): NOT_INITIALIZED before any call is sent
  const maxTokens = o.maxTokens === undefined ? 300 : expectInteger(o.maxTokens, 'options.maxTokens', { min: 1, max: 100000 });
  const list = expectArray(chunks, 'chunks', { maxLength: 100000, item: (c, k) => {
    if (!isObject(c)) throw invalid(`chunks[${k}]`, 'a chunk {id, docId, text}', c);
    expectString(c.id, `chunks[${k}].id`, { allowEmpty: false });
    expectString(c.docId, `chunks[${k}].docId`, { allowEmpty: false });
    expectString(c.text, `chunks[${k}].text`, { allowEmpty: false });
    if (c.title !== undefined) expectString(c.title, `chunks[${k}].title`);
  } });
  const t = o.prompt ?? await loadPrompt('question_generate');
  const width = String(list.length).length;
  const replies = await allOrAbort(list, o.signal, (c, signal) => client.complete({
    messages: renderPrompt(t, { title: c.title || c.docId, passage: c.text }), temperature: 0, maxTokens, purpose: 'goldens:question',
  }, { signal }));
  const questions = [];
  const skipped = [];
  let input = 0; let output = 0; let cost = 0; let costKnown = true;
  replies.forEach((r, k) => {
    const c = list[k];
    input += r.usage?.inputTokens ?? 0;
    output += r.usage?.outputTokens ?? 0;
    if (r.cost === null || r.cost === undefined) costKnown = false; else cost += r.cost;
    if (/^\s*none\.?\s*$/i.test(r.text)) {
      skipped.push({ chunkId: c.id, reason: 'the model found nothing to ask (NONE)' });
      return;
    }
    const kv = new Map(parseKeyValues(r.text));
    const question = (kv.get('question') ?? '').trim();
    if (!question) {
      skipped.push({ chunkId: c.id, reason: `unparsed reply: no "Question:" line in ${JSON.stringify(r.text.slice(0, 80))}` });
      return;
    }
    const quote = (kv.get('evidence') ?? '').trim().replace(/^["“]|["”]$/g, '');
    const source = { chunkId: c.id, docId: c.docId, quote: quote && c.text.includes(quote) ? quote : null };
    if (c.start !== undefined) source.start = c.start;
    if (c.end !== undefined) source.end = c.end;
    questions.push({ id: `${prefix}${String(k + 1).padStart(width, '0')}`, question, answer: (kv.get('answer') ?? '').trim(), doc_ids: [c.docId],
      evidence: [c.text.trim()], answerable: true, type: 'generated', source });
  });
  return { questions, skipped, usage: { inputTokens: input, outputTokens: output }, cost: costKnown ? cost : null };
}
