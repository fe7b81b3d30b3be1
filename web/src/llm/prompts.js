// @ts-check
// Prompt templates as versioned data: one JS module per prompt in llm/prompts/ (id, version,
// variables, messages and the reply scale the C++ parsers apply), part of the package and imported
// statically, so they load the same in Node, pages, Workers and bundles. Rendered by {{name}} substitution.
import { RagwasmError } from '../core/errors.js';
import {
  describe, expectArray, expectOptions, expectString, invalid, isInstance, isObject, isPlainObject,
} from '../core/validate.js';
import { isNode, nodeBuiltin } from '../core/node.js';
import { BUILTIN_PROMPTS } from './prompts/index.js';

/** Most passages or claims one prompt numbers. */
const MAX_PASSAGES = 100000;

/** @type {readonly import('../llm.js').PromptId[]} */
export const PROMPT_IDS = Object.freeze(['answer_grounded', 'metadata_extract', 'chunk_context', 'document_summary', 'query_rewrite',
  'judge_context_relevance', 'judge_groundedness', 'judge_answer_relevance', 'judge_answer_correctness', 'claim_split',
  'question_generate', 'query_clarify', 'query_expand']);

const cache = new Map();

/**
 * Loads a prompt by id: the built-in template (web/src/llm/prompts/<id>.js), or <id>.json from a
 * folder of your own variants.
 * @param {string} id one of PROMPT_IDS
 * @param {{baseUrl?: string|URL}} [options] folder holding <id>.json files to use instead of the
 *   built-in templates (fetched; read from disk for file: URLs in Node)
 * @returns {Promise<PromptTemplate>}
 * @throws {RagwasmError} INVALID_ARGUMENT (unknown id), NOT_FOUND (file missing), PARSE_ERROR (bad JSON/shape)
 */
export async function loadPrompt(id, options = {}) {
  const o = expectOptions(options, 'loadPrompt options', ['baseUrl']);
  if (!(/** @type {readonly string[]} */ (PROMPT_IDS)).includes(id)) {
    throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: prompt id: expected one of ${PROMPT_IDS.join(', ')}, got ${describe(id)}`);
  }
  if (o.baseUrl === undefined || o.baseUrl === '') {
    if (!cache.has(id)) cache.set(id, definePrompt(structuredClone(BUILTIN_PROMPTS[id])));
    return cache.get(id);
  }
  if (typeof o.baseUrl !== 'string' && !isInstance(o.baseUrl, URL)) throw invalid('options.baseUrl', 'a URL string or URL', o.baseUrl);
  let base;
  try {
    base = new URL(String(o.baseUrl).replace(/\/?$/, '/'), typeof location !== 'undefined' ? location.href : import.meta.url);
  } catch {
    throw invalid('options.baseUrl', 'a valid URL', o.baseUrl);
  }
  const url = new URL(`${id}.json`, base);
  if (cache.has(url.href)) return cache.get(url.href);
  let text;
  try {
    if (isNode && url.protocol === 'file:') {
      const fs = nodeBuiltin('fs/promises');
      text = await fs.readFile(url, 'utf8');
    } else {
      const res = await fetch(url);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      text = await res.text();
    }
  } catch (e) {
    throw new RagwasmError('NOT_FOUND', `ragwasm: prompt '${id}': could not read ${url.href}: ${e.message}`);
  }
  let json;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new RagwasmError('PARSE_ERROR', `ragwasm: prompt '${id}': ${url.href} is not valid JSON: ${e.message}`);
  }
  const t = definePrompt(json);
  cache.set(url.href, t);
  return t;
}

/**
 * Validates a prompt object (a built-in one or the user's own variant, e.g. for calibration).
 * @param {object} json {id, version, variables, messages: [{role, content: string | [{text, cache?}]}], reply?}
 * @returns {PromptTemplate}
 * @throws {RagwasmError} PARSE_ERROR naming the first problem
 */
export function definePrompt(json) {
  return Object.freeze({ ...checkTemplate(json, 'PARSE_ERROR') });
}

// The template checks shared by definePrompt (PARSE_ERROR: a prompt file) and renderPrompt
// (INVALID_ARGUMENT: a caller's template object). Arrays are read once, every element seen.
function checkTemplate(json, code) {
  let id = '?';
  if (isPlainObject(json) && typeof json.id === 'string') id = json.id.length > 80 ? `${json.id.slice(0, 80)}…` : json.id;
  const bad = (what) => new RagwasmError(code, `ragwasm: prompt ${JSON.stringify(id)}: ${what}`);
  if (!isPlainObject(json)) throw bad('expected an object');
  if (typeof json.id !== 'string' || !json.id) throw bad('id: expected a non-empty string');
  if (!Number.isInteger(json.version) || json.version < 1) throw bad('version: expected an integer >= 1');
  const asList = (v, name, item) => {
    try {
      return expectArray(v, name, { maxLength: 10000, item });
    } catch (e) {
      throw e instanceof RagwasmError ? bad(e.message.replace(/^ragwasm: /, '')) : e;
    }
  };
  const variables = asList(json.variables, 'variables', (v, n) => expectString(v, n));
  const messages = asList(json.messages, 'messages', (m, n) => { if (!isPlainObject(m)) throw invalid(n, 'a message {role, content}', m); });
  if (messages.length === 0) throw bad('messages: expected a non-empty array');
  const used = new Set();
  const scan = (s) => { for (const m of s.matchAll(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g)) used.add(m[1]); };
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (!['system', 'user', 'assistant'].includes(m.role)) throw bad(`messages[${i}].role: expected system, user or assistant`);
    if (typeof m.content === 'string') {
      scan(m.content);
    } else {
      const parts = asList(m.content, `messages[${i}].content`, (p, n) => { if (!isPlainObject(p) || typeof p.text !== 'string') throw invalid(n, '{text, cache?}', p); });
      for (const p of parts) scan(p.text);
    }
  }
  for (const u of used) if (!variables.includes(u)) throw bad(`uses {{${u}}} which is not in variables`);
  return json;
}

function expectTemplate(template) {
  checkTemplate(template, 'INVALID_ARGUMENT');
}

/**
 * Renders a template: every {{name}} is replaced by vars[name] (a string). Missing or unknown
 * variables are errors, so a typo never sends a prompt with a hole in it.
 * @param {PromptTemplate} template
 * @param {Record<string, string>} vars
 * @returns {import('../llm.js').Message[]} messages for LlmClient.complete
 * @throws {RagwasmError} INVALID_ARGUMENT
 */
export function renderPrompt(template, vars) {
  expectTemplate(template);
  if (!isPlainObject(vars)) throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: prompt '${template.id}' variables: expected an object`);
  for (const k of Object.keys(vars)) {
    if (!template.variables.includes(k)) {
      throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: prompt '${template.id}': unknown variable '${k}' (variables: ${template.variables.join(', ')})`);
    }
  }
  for (const v of template.variables) {
    expectString(vars[v], `prompt '${template.id}' variable '${v}'`);
  }
  // One pass over the template: values are never re-scanned, so "{{x}}" inside a document stays text.
  const fill = (s) => s.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (_, name) => vars[name]);
  return template.messages.map((m) => ({
    role: m.role,
    content: typeof m.content === 'string' ? fill(m.content) : m.content.map((p) => (p.cache ? { text: fill(p.text), cache: true } : { text: fill(p.text) })),
  }));
}

/**
 * Numbered passages for the grounded-answer and judge prompts:
 * "[1] (id) text\n\n[2] (id) text". Citation [n] refers to passages[n-1].
 * @param {Array<{id?: string, text: string}>} passages
 * @returns {string}
 */
export function formatPassages(passages) {
  const list = expectArray(passages, 'passages', { maxLength: MAX_PASSAGES, item: (p, n) => { if (!isObject(p)) throw invalid(n, 'a passage {id?, text}', p); } });
  const out = new Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const text = list[i].text;
    const id = list[i].id;
    expectString(text, `passages[${i}].text`);
    if (id !== undefined && id !== null && typeof id !== 'string' && !Number.isFinite(id)) throw invalid(`passages[${i}].id`, 'a string or a finite number', id);
    out[i] = `[${i + 1}]${id ? ` (${id})` : ''} ${text.trim()}`;
  }
  return out.join('\n\n');
}

/** Numbered claims "[1] claim\n[2] claim" for the groundedness judge. */
export function formatClaims(claims) {
  const list = expectArray(claims, 'claims', { maxLength: MAX_PASSAGES, item: (c, n) => expectString(c, n) });
  return list.map((c, i) => `[${i + 1}] ${c}`).join('\n');
}

/**
 * @typedef {object} PromptTemplate
 * @property {string} id
 * @property {number} version
 * @property {string} description
 * @property {string[]} variables
 * @property {import('../llm.js').Message[]} messages
 * @property {{kind: 'rating'|'percent'|'claims'|'key_values', min?: number, max?: number, integer_only?: boolean}} [reply]
 */
