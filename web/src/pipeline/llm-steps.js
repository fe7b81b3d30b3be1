// @ts-check
// The chunk context steps of a pipeline config, run for one document: the LLM summary
// (chunker.context.llmSummary), LLM chunk contexts (llmChunkContext) or caller-written chunk contexts.
// Collection.add and autotune index the same texts because both chunk through chunkWithContexts.
import { RagwasmError } from '../core/errors.js';
import { chunk, chunkAsync } from '../chunk/chunk.js';
import { expectArray, expectString, hasMethod, invalid, isArray, isObject, isPlainObject } from '../core/validate.js';
import { parsePipelineConfig } from './pipeline.js';

/** The pipeline config keys of the LLM context steps (run by Collection.add with the create option `llm`). */
/** @type {readonly ('llmSummary'|'llmChunkContext')[]} */
export const LLM_CONTEXT_STEPS = Object.freeze(['llmSummary', 'llmChunkContext']);
const METHOD = { llmSummary: 'documentSummary', llmChunkContext: 'chunkContexts' };

/**
 * The LLM context steps a pipeline config asks for (chunker.context.llmSummary, llmChunkContext), in
 * that order: what Collection.create needs an `llm` for. Reads the config as given (not validated).
 * @param {string|object} config a pipeline config (JSON text, raw or normalized object)
 * @returns {{key: 'llmSummary'|'llmChunkContext', path: string, options: {prompt?: object, maxTokens?: number}}[]}
 */
export function llmContextSteps(config) {
  const c = typeof config === 'string' ? parsePipelineConfig(config) : config;
  const ctx = isPlainObject(c) && isPlainObject(c.chunker) ? c.chunker.context : undefined;
  if (!isPlainObject(ctx)) return [];
  return LLM_CONTEXT_STEPS.filter((k) => ctx[k] !== undefined).map((k) => ({ key: k, path: `chunker.context.${k}`, options: ctx[k] }));
}

/**
 * The option `llm` checked against the config: a config asking for an LLM step needs it (an LlmClient
 * of ragwasm/llm, or any object with its documentSummary / chunkContexts methods).
 * @param {object} cfg normalized pipeline config
 * @param {*} llm the caller's option
 * @param {{required?: boolean, how?: string}} [o] required false (fromBytes/load): a loaded collection
 *   searches without it; `how`: how to give it, for the error
 * @returns {object|null} the client, or null when none was given
 * @throws {RagwasmError} INVALID_ARGUMENT naming the config path or options.llm
 */
export function checkLlm(cfg, llm, { required = true, how = 'Collection.create(config, {llm: client})' } = {}) {
  const steps = llmContextSteps(cfg);
  if (llm === undefined) {
    if (steps.length > 0 && required) {
      throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${steps[0].path}: the config asks for an LLM step but no LLM was given: pass ${how} (createLlmClient of ragwasm/llm)`, { path: steps[0].path });
    }
    return null;
  }
  if (!isObject(llm)) throw invalid('options.llm', 'an LlmClient (createLlmClient of ragwasm/llm)', llm);
  for (const st of steps) {
    if (!hasMethod(llm, METHOD[st.key])) throw invalid('options.llm', `an LlmClient (a ${METHOD[st.key]} method, for ${st.path})`, llm);
  }
  return llm;
}

/**
 * An LLM for the context steps that asks each question once: a document's summary and a document's
 * chunk contexts are memoized by what is sent (the document's id, title and text, the chunks' ids and
 * texts, the step options but the signal), so two autotune runs over the same documents and grid (e.g.
 * `tune --qrels` on LLM labels, then on human labels) or two collections with the same chunker share one
 * set of LLM calls. A call that fails is forgotten (asked again next time).
 * @example
 * const llm = memoizeContextSteps(createLlmClient({...}));
 * const a = await autotune({ ...opts, qrels: llmQrels, base, llm });
 * const b = await autotune({ ...opts, qrels: humanQrels, base, llm });  // no second LLM call
 * @param {object} llm an LlmClient (createLlmClient of ragwasm/llm) or any object with its documentSummary / chunkContexts methods
 * @returns {{documentSummary?: Function, chunkContexts?: Function, stats: {summaries: number, chunkContexts: number, reused: number}}}
 *   each method only when `llm` has it
 *   stats: documents summarized and chunks given a context by `llm` (asked through the memo), and answers reused from it
 * @throws {RagwasmError} INVALID_ARGUMENT when llm has neither method
 */
export function memoizeContextSteps(llm) {
  const has = (m) => hasMethod(llm, m);
  if (!isObject(llm) || (!has('documentSummary') && !has('chunkContexts'))) {
    throw invalid('llm', 'an LlmClient (createLlmClient of ragwasm/llm: documentSummary / chunkContexts methods)', llm);
  }
  const stats = { summaries: 0, chunkContexts: 0, reused: 0 };
  const memo = new Map();
  const keyOf = (kind, doc, rest, options) => {
    const { signal: _signal, ...o } = isPlainObject(options) ? options : {};  // eslint-disable-line no-unused-vars
    return JSON.stringify([kind, doc?.id, doc?.title ?? null, doc?.text, rest, o]);
  };
  const ask = (key, count, call) => {
    if (memo.has(key)) {
      stats.reused++;
      return memo.get(key);
    }
    const p = Promise.resolve().then(call);
    memo.set(key, p);
    count();
    p.catch(() => { if (memo.get(key) === p) memo.delete(key); });
    return p;
  };
  /** @type {{documentSummary?: Function, chunkContexts?: Function, stats: typeof stats}} */
  const out = { stats };
  if (has('documentSummary')) {
    out.documentSummary = (doc, options) => ask(keyOf('summary', doc, null, options), () => { stats.summaries++; },
      () => llm.documentSummary(doc, options));
  }
  if (has('chunkContexts')) {
    out.chunkContexts = (doc, chunks, options) => ask(keyOf('chunks', doc, isArray(chunks) ? chunks.map((c) => [c?.id, c?.text]) : chunks, options),
      () => { stats.chunkContexts += isArray(chunks) ? chunks.length : 0; }, () => llm.chunkContexts(doc, chunks, options));
  }
  return out;
}

// The document as the LLM steps and chunkContexts functions see it: {id, text, title?}.
function stepDocument(d) {
  const doc = { id: d.id, text: d.text };
  if (d.title !== undefined && d.title !== null) doc.title = d.title;
  return doc;
}

/**
 * One document's chunks as the config indexes them: chunked with `copts` (the LLM summary of the
 * document, when the config asks for it, in the chunk context), then each chunk's context (the LLM's,
 * or the caller's `chunkContexts`) put before its text in `indexText`.
 * @param {{id: string, text: string, title?: string, metadata?: object}} d
 * @param {object} o
 * @param {object} o.copts chunk() options of the config (chunkOptions)
 * @param {boolean} o.semantic the semantic chunker (chunkAsync)
 * @param {object[]} o.steps llmContextSteps of the config
 * @param {object|null} o.llm the client of the steps (checkLlm)
 * @param {Function} [o.chunkContexts] caller-written contexts: (doc, chunks) -> string[] (not with llmChunkContext)
 * @param {string} o.separator between a chunk's context and its text
 * @param {AbortSignal} [o.signal]
 * @param {() => void} [o.alive] called after each await (throws when the caller was disposed meanwhile)
 * @returns {Promise<object[]>} chunk() objects, `indexText` including the contexts
 * @throws {RagwasmError} INVALID_ARGUMENT a step's result that is not one string (per chunk); what the LLM throws
 */
export async function chunkWithContexts(d, o) {
  const alive = o.alive ?? (() => {});
  const summaryStep = o.steps.find((st) => st.key === 'llmSummary');
  const chunkStep = o.steps.find((st) => st.key === 'llmChunkContext');
  const doc = stepDocument(d);
  const stepOptions = (st) => (o.signal === undefined ? { ...st.options } : { ...st.options, signal: o.signal });
  // The title is visible to the context template as {title}, as any metadata key.
  const meta = d.title === undefined || d.title === null ? (d.metadata ?? {}) : { title: d.title, ...(d.metadata ?? {}) };
  let copts = o.copts;
  if (summaryStep) {
    const r = await o.llm.documentSummary(doc, stepOptions(summaryStep));
    alive();
    const summary = expectString(r, `${summaryStep.path}: the LLM summary of document ${JSON.stringify(d.id)}`, { maxLength: 1 << 20 }).trim();
    copts = { ...copts, context: { ...copts.context, summary } };
  }
  const input = { id: d.id, text: d.text, metadata: meta };
  const cs = o.semantic ? await chunkAsync(input, copts) : chunk(input, copts);
  const contextsOf = chunkStep ? (x, chunks) => o.llm.chunkContexts(x, chunks, stepOptions(chunkStep)) : o.chunkContexts;
  if (contextsOf === undefined || cs.length === 0) return cs;
  const name = chunkStep?.path ?? 'options.chunkContexts';
  const contexts = await contextsOf(doc, cs.map((c) => ({ id: c.id, text: c.text })));
  alive();
  expectArray(contexts, `${name} result for document ${JSON.stringify(d.id)}`, { maxLength: cs.length, item: (v, n) => expectString(v, n, { maxLength: 1 << 20 }) });
  if (contexts.length !== cs.length) throw invalid(`${name} result for document ${JSON.stringify(d.id)}`, `${cs.length} strings (one per chunk)`, contexts);
  cs.forEach((c, i) => {
    const ctx = contexts[i].trim();
    if (!ctx) return;
    const prefix = c.indexText === undefined ? '' : c.indexText.slice(0, c.indexText.length - c.text.length);
    c.indexText = `${prefix}${ctx}${o.separator}${c.text}`;
  });
  return cs;
}
