// @ts-check
// LLM context enrichment for indexing: document-level metadata (key: value lines), chunk-level
// context notes (contextual retrieval: the document is sent first and identically for every chunk
// so provider prompt caching applies), and optional query rewriting.
import { RagwasmError } from '../core/errors.js';
import { expectArray, expectInteger, expectOptions, expectString } from '../core/validate.js';
import { wasm } from '../core/module.js';
import { expectLlmClient as expectClient } from './check.js';
import { parseKeyValues } from './parse.js';
import { loadPrompt, renderPrompt } from './prompts.js';
import { allOrAbort } from './all-or-abort.js';

export const DEFAULT_METADATA_KEYS = Object.freeze(['title', 'company', 'date', 'form type', 'period', 'key figures', 'sections']);

/**
 * Document-level metadata as key: value pairs (Snowflake finance-RAG style: company, date, form
 * type, key figures, sections). Keys the document does not state are absent, never guessed.
 * @param {import('./client.js').LlmClient} client
 * @param {string} document full text
 * @param {{keys?: string[], signal?: AbortSignal, maxTokens?: number}} [options]
 * @returns {Promise<{metadata: Record<string, string>, reply: string, usage: object, cost: number|null}>}
 */
export async function extractMetadata(client, document, options = {}) {
  expectClient(client);
  const o = expectOptions(options, 'extractMetadata options', ['keys', 'signal', 'maxTokens', 'prompt']);
  const keys = o.keys === undefined ? DEFAULT_METADATA_KEYS : expectArray(o.keys, 'options.keys', { maxLength: 100, item: (v, n) => expectString(v, n, { allowEmpty: false }) });
  wasm();  // the reply is parsed in WASM (parseKeyValues): NOT_INITIALIZED before the call is sent
  const t = o.prompt ?? await loadPrompt('metadata_extract');
  const messages = renderPrompt(t, { document: expectString(document, 'document'), keys: keys.join(', ') });
  const r = await client.complete({ messages, temperature: 0, maxTokens: o.maxTokens ?? 400, purpose: 'enrich:metadata' }, { signal: o.signal });
  /** @type {Record<string, string>} */
  const metadata = {};
  for (const [k, v] of parseKeyValues(r.text)) metadata[k] = v;
  return { metadata, reply: r.text, usage: r.usage, cost: r.cost };
}

/**
 * A short summary (2-4 sentences) of a whole document, the document context prepended to every chunk
 * of it before indexing (pipeline config `chunker.context.llmSummary`; finance-RAG "document context").
 * @param {import('./client.js').LlmClient} client
 * @param {string} document full text
 * @param {{title?: string, signal?: AbortSignal, maxTokens?: number, prompt?: object}} [options] prompt: a template
 *   with the variables title and document (default the built-in 'document_summary'); maxTokens default 200
 * @returns {Promise<{summary: string, usage: object, cost: number|null}>} summary: the reply, trimmed
 * @throws {RagwasmError} INVALID_ARGUMENT; what client.complete throws
 */
export async function summarizeDocument(client, document, options = {}) {
  expectClient(client);
  const o = expectOptions(options, 'summarizeDocument options', ['title', 'signal', 'maxTokens', 'prompt']);
  const title = o.title === undefined ? '' : expectString(o.title, 'options.title');
  const maxTokens = o.maxTokens === undefined ? 200 : expectInteger(o.maxTokens, 'options.maxTokens', { min: 1 });
  const t = o.prompt ?? await loadPrompt('document_summary');
  const messages = renderPrompt(t, { title, document: expectString(document, 'document') });
  const r = await client.complete({ messages, temperature: 0, maxTokens, purpose: 'enrich:document_summary' }, { signal: o.signal });
  return { summary: r.text.trim(), usage: r.usage, cost: r.cost };
}

/**
 * Context notes (50-100 tokens) situating each chunk in its document, for contextual retrieval.
 * The document block comes first and is byte-identical for every chunk (marked cacheable for
 * Anthropic; OpenAI-compatible servers cache shared prefixes automatically).
 * @param {import('./client.js').LlmClient} client
 * @param {string} document
 * @param {string[]} chunks
 * @param {{signal?: AbortSignal, maxTokens?: number}} [options]
 * @returns {Promise<Array<{chunk: string, context: string, text: string, usage: object, cost: number|null}>>}
 *   text = context + "\n\n" + chunk, ready to index
 */
export async function contextualizeChunks(client, document, chunks, options = {}) {
  expectClient(client);
  const o = expectOptions(options, 'contextualizeChunks options', ['signal', 'maxTokens', 'prompt']);
  expectString(document, 'document');
  expectArray(chunks, 'chunks', { maxLength: 100000, item: (v, n) => expectString(v, n) });
  const t = o.prompt ?? await loadPrompt('chunk_context');
  const maxTokens = o.maxTokens === undefined ? 160 : expectInteger(o.maxTokens, 'options.maxTokens', { min: 1 });
  // The client's concurrency limit bounds parallelism; results keep the chunks' order. The first
  // failure aborts the siblings still queued or in flight, so nothing more is sent (or paid for).
  return allOrAbort(chunks, o.signal, async (chunk, signal) => {
    const r = await client.complete({ messages: renderPrompt(t, { document, chunk }), temperature: 0, maxTokens, purpose: 'enrich:chunk_context' }, { signal });
    const context = r.text.trim();
    return { chunk, context, text: context ? `${context}\n\n${chunk}` : chunk, usage: r.usage, cost: r.cost };
  });
}

/**
 * The chunk-context step of contextual retrieval as Collection.add's `chunkContexts` option: each
 * document's chunks go through contextualizeChunks (one call per chunk, the document first).
 * @example
 * await col.add(documents, { chunkContexts: llmChunkContexts(client) });
 * @param {import('./client.js').LlmClient} client
 * @param {{maxTokens?: number, prompt?: object, signal?: AbortSignal}} [options] as contextualizeChunks
 * @returns {Function} (document, chunks) => Promise<string[]>, with `stats` {documents, chunks, cost} (cost null
 *   once a reply had no price)
 * @throws {RagwasmError} INVALID_ARGUMENT (not a client, bad options); the returned function: as contextualizeChunks
 */
export function llmChunkContexts(client, options = {}) {
  expectClient(client);
  const o = expectOptions(options, 'llmChunkContexts options', ['signal', 'maxTokens', 'prompt']);
  if (o.maxTokens !== undefined) expectInteger(o.maxTokens, 'options.maxTokens', { min: 1 });
  const stats = { documents: 0, chunks: 0, cost: 0 };
  const fn = async (document, chunks) => {
    const r = await contextualizeChunks(client, document.text, chunks.map((c) => c.text), o);
    stats.documents++;
    stats.chunks += r.length;
    for (const x of r) stats.cost = stats.cost === null || x.cost === null ? null : stats.cost + x.cost;
    return r.map((x) => x.context);
  };
  fn.stats = stats;
  return fn;
}

/**
 * Optional query rewriting: a conversational question -> one standalone search query.
 * @param {import('./client.js').LlmClient} client
 * @param {string} question
 * @param {{history?: Array<{role: 'user'|'assistant', content: string}>, signal?: AbortSignal}} [options]
 * @returns {Promise<{query: string, usage: object, cost: number|null}>} the first non-empty line of the reply
 *   (the original question when the reply is empty)
 */
export async function rewriteQuery(client, question, options = {}) {
  expectClient(client);
  const o = expectOptions(options, 'rewriteQuery options', ['history', 'signal', 'prompt']);
  const history = o.history === undefined ? [] : expectArray(o.history, 'options.history', { maxLength: 100 });
  const t = o.prompt ?? await loadPrompt('query_rewrite');
  const h = history.map((m, k) => `${expectString(m?.role, `options.history[${k}].role`)}: ${expectString(m?.content, `options.history[${k}].content`)}`).join('\n');
  const r = await client.complete({ messages: renderPrompt(t, { question: expectString(question, 'question', { allowEmpty: false }), history: h || '(none)' }), temperature: 0, maxTokens: 100, purpose: 'rewrite' }, { signal: o.signal });
  const line = r.text.split('\n').map((s) => s.trim()).find((s) => s.length > 0);
  return { query: line ? line.replace(/^["'`]+|["'`]+$/g, '') : question, usage: r.usage, cost: r.cost };
}
