// @ts-check
// The answer prompt's context step (issue 32): which retrieved chunks an LLM answerer reads, in what
// order and with what document context before each, as the pipeline config's `assembly` section says
// (docContext, tokenBudget, maxChunks, order). One step for ask(), `ragwasm rag` and `ragwasm experiment`;
// selection and order are assembleContext's (src/context/assembly.cpp), this file only gathers the texts.
import { RagwasmError } from '../core/errors.js';
import { expectArray, hasMethod, invalid, isObject, isPlainObject } from '../core/validate.js';
import { assembleContext } from './context.js';

/** The assembly section of a config that has none (parsePipelineConfig's defaults). */
export const DEFAULT_ASSEMBLY = Object.freeze({ tokenBudget: 2000, order: 'score', maxChunks: 0, docContext: 'chunker', tokenCount: 'estimate' });
const DOC_CONTEXTS = ['none', 'title', 'chunker'];

/**
 * Refuses an `assembly` section that no stage would read (issue 32: a key is read or refused, never
 * ignored): `tokenCount: 'wordpiece'` (the answer prompt counts ceil(code points / 4) tokens), and any
 * assembly key set for an answerer that reads no prompt (extractive, none).
 * @param {object|undefined} raw the config as written (before defaults), to tell a set key from a default
 * @param {string} answerer the answerer that runs with it ('llm', 'extractive', 'none')
 * @param {string} [where='assembly'] the path to name in the error
 * @throws {RagwasmError} INVALID_ARGUMENT naming the key
 */
export function checkAssemblyRead(raw, answerer, where = 'assembly') {
  const a = isPlainObject(raw) ? raw.assembly : undefined;
  if (a === undefined || a === null) return;
  if (!isPlainObject(a)) throw invalid(where, 'an object {tokenBudget, order, maxChunks, docContext}', a);
  const keys = Object.keys(a);
  if (a.tokenCount !== undefined && a.tokenCount !== 'estimate') {
    throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${where}.tokenCount: ${JSON.stringify(a.tokenCount)} is read by no stage (the answer prompt counts ceil(characters / 4) tokens): use "estimate" or drop the key`, { path: `${where}.tokenCount` });
  }
  if (answerer !== 'llm' && keys.length > 0) {
    throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${where}.${keys[0]}: the assembly section is read by the llm answerer's prompt only; this answerer is ${JSON.stringify(answerer)} (drop the section or set answerer.type "llm")`, { path: `${where}.${keys[0]}` });
  }
}

// The document context of one hit, as assembly.docContext says ('' for none).
function contextOf(hit, docContext, collection) {
  if (docContext === 'none') return '';
  if (docContext === 'title') {
    const d = collection?.docs?.get?.(hit.docId);
    const t = d?.title ?? hit.title;
    return typeof t === 'string' ? t.trim() : '';
  }
  // 'chunker': what the chunker put before the chunk in its indexText (title, header path, LLM summary,
  // LLM chunk context, as chunker.context says): the indexText minus the chunk text at its end.
  const c = collection?.chunks?.get?.(hit.id) ?? hit;
  const it = c?.indexText;
  if (typeof it !== 'string' || typeof c.text !== 'string' || it === c.text || !it.endsWith(c.text)) return '';
  return it.slice(0, it.length - c.text.length).trim();
}

/**
 * The passages an LLM answerer reads: the retrieved hits (best first) each with its document context
 * before its text ("context\ntext", assembly.docContext: 'none' | 'title' | 'chunker'), chosen under
 * assembly.tokenBudget (ceil(code points / 4) per passage plus "[n] " and separators, assembleContext's
 * accounting) and assembly.maxChunks (0 = no limit), in assembly.order ('score' = retrieval rank order,
 * 'ends' = ranks 1, 3, 5, ... in front and ..., 4, 2 at the back).
 * @example
 * const { passages, hits } = answerContext(collection, top);
 * await generateAnswer(llm, { question, passages });  // citation [n] is hits[n - 1]
 * @param {object|null} collection the Collection the hits came from (its config's assembly section, document titles
 *   and chunk indexTexts), or null (then `options.assembly` and the hits' own `title` / `indexText`)
 * @param {Array<{id: string, docId: string, text: string}>} hits retrieved chunks in rank order
 * @param {{assembly?: object}} [options] assembly: this section instead of the collection's (a normalized pipeline config's)
 * @returns {{passages: Array<{id: string, text: string}>, hits: object[], dropped: string[], tokensUsed: number}}
 *   hits: the chosen hits in prompt order (passage n is hits[n - 1]); dropped: ids left out by the budget or maxChunks
 * @throws {RagwasmError} INVALID_ARGUMENT (bad hits or assembly section)
 */
export function answerContext(collection, hits, options = {}) {
  if (collection !== null && (!isObject(collection) || !hasMethod(collection, 'search'))) throw invalid('collection', 'a Collection or null', collection);
  const list = expectArray(hits, 'hits', { maxLength: 100000, item: (h, n) => {
    if (!isObject(h) || typeof h.id !== 'string' || typeof h.text !== 'string') throw invalid(n, 'a hit {id, docId, text}', h);
  } });
  const a = { ...DEFAULT_ASSEMBLY, ...(options.assembly ?? collection?.config?.assembly ?? {}) };
  // A normalized config writes 'chunker' and 'none' as true and false (the saved format's booleans).
  if (typeof a.docContext === 'boolean') a.docContext = a.docContext ? 'chunker' : 'none';
  if (!DOC_CONTEXTS.includes(a.docContext)) throw invalid('assembly.docContext', `one of ${DOC_CONTEXTS.map((x) => JSON.stringify(x)).join(', ')}`, a.docContext);
  if (a.tokenCount !== 'estimate') throw invalid('assembly.tokenCount', '"estimate" (no stage counts other tokens)', a.tokenCount);
  if (list.length === 0) return { passages: [], hits: [], dropped: [], tokensUsed: 0 };
  const texts = new Map();
  const chunks = list.map((h, i) => {
    const ctx = contextOf(h, a.docContext, collection);
    const text = ctx ? `${ctx}\n${h.text}` : h.text;
    texts.set(h.id, text);
    // Rank order as the score: the hits' own scores may come from different scorers (fusion, rerank, the oracle's order).
    return { chunkId: h.id, docId: typeof h.docId === 'string' && h.docId ? h.docId : h.id, text, score: list.length - i };
  });
  const r = assembleContext(chunks, { tokenBudget: a.tokenBudget, maxChunks: a.maxChunks, order: a.order });
  const byId = new Map(list.map((h) => [h.id, h]));
  const chosen = r.sources.map((s) => byId.get(s.chunkId));
  return { passages: chosen.map((h) => ({ id: h.id, text: texts.get(h.id) })), hits: chosen, dropped: r.dropped, tokensUsed: r.tokensUsed };
}
