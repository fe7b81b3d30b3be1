// @ts-check
// The one embedder contract that every consumer of vectors uses (Collection, autotune, semantic
// chunking, the leg check, the CLI):
//   { dimension: number, id: string, embed(texts, { kind: 'query'|'document', signal, onProgress }) }
// embed() resolves to one Float32Array of `dimension` finite numbers per text. `kind` lets models that
// need a query or passage prefix (e5, bge, arctic-embed, nomic) embed each side correctly. `id` names
// the model (saved collections store it and refuse to be searched with another model).
// asEmbedder() adapts what users already have (a plain async function, or an object with embed /
// embedSync) to the contract; embedTexts() calls it and checks every vector it returns.
import { RagwasmError } from '../core/errors.js';
import { expectArray, expectBoolean, expectFunction, expectInteger, expectOptions, expectString, invalid, isArray, isInstance, isObject } from '../core/validate.js';

/** Largest vector dimension an embedder may declare (as VectorIndex). */
export const MAX_EMBEDDER_DIMENSION = 8192;
const KINDS = ['query', 'document'];

/**
 * Adapts a value to the embedder contract.
 * @example
 * const e = asEmbedder(async (texts) => texts.map(() => new Float32Array(3)), { dimension: 3, id: 'mine' });
 * await e.embed(['a'], { kind: 'query' });
 * @param {object|Function} value an object with `embed(texts, options)` (and `dimension` or `dims`), an
 *   object with `embedSync(texts)` and `dims` (the StaticEmbedder shape), or an async function
 *   `(texts, {kind, signal}) => vectors`
 * @param {{dimension?: number, id?: string, name?: string}} [options] `dimension` (1..8192) is needed
 *   when `value` does not say it; `id` defaults to the value's `id`, else 'custom'; `name` is the
 *   option name used in error messages (default 'options.embedder')
 * @returns {{dimension: number, id: string, embed: Function, embedSync?: Function, source: object|Function}}
 * @throws {RagwasmError} INVALID_ARGUMENT when `value` fits none of the shapes or no dimension is known
 */
export function asEmbedder(value, options = {}) {
  const opts = expectOptions(options, 'asEmbedder options', ['name', 'dimension', 'id']);
  const name = opts.name === undefined ? 'options.embedder' : expectString(opts.name, 'options.name', { maxLength: 200 });
  const shapes = 'an embedder: an object with embed(texts, {kind}) and dimension, a StaticEmbedder, or an async function texts => vectors';
  // A revoked Proxy or an object whose getters throw is not an embedder: every read below is guarded.
  if (value !== null && typeof value === 'object' && !isObject(value)) throw invalid(name, shapes, value);
  let embed;
  let embedSync;
  let declared;
  let id = opts.id;
  try {
    if (value && typeof value === 'object' && value.__ragwasmEmbedder === true) return value;
    if (typeof value === 'function') {
      embed = (texts, o) => value(texts, o);
    } else if (value !== null && typeof value === 'object' && (typeof value.embed === 'function' || typeof value.embedSync === 'function')) {
      declared = value.dimension ?? value.dims ?? undefined;
      if (id === undefined && typeof value.id === 'string') id = value.id;
      if (typeof value.embedSync === 'function') embedSync = (texts, o) => value.embedSync(texts, o);
      embed = typeof value.embed === 'function' ? (texts, o) => value.embed(texts, o) : async (texts, o) => embedSync(texts, o);
    }
  } catch {
    throw invalid(name, shapes, value);
  }
  if (embed === undefined) throw invalid(name, shapes, value);
  const dim = opts.dimension ?? (declared === null ? undefined : declared);
  if (dim === undefined) {
    throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${name}: its vector dimension is unknown; pass { dimension } with it`);
  }
  const dimension = expectInteger(dim, `${name}.dimension`, { min: 1, max: MAX_EMBEDDER_DIMENSION });
  return Object.freeze({
    __ragwasmEmbedder: true,
    dimension,
    id: id === undefined ? 'custom' : expectString(id, `${name}.id`, { maxLength: 1000 }),
    embed,
    embedSync,
    source: value,
  });
}

/**
 * Embeds texts through a contract embedder and checks the result: one vector per text, each with
 * `embedder.dimension` finite numbers with |x| <= 1e15 (VectorIndex.add's rule, docs/dense.md).
 * @param {ReturnType<typeof asEmbedder>} embedder
 * @param {string[]} texts
 * @param {{kind?: 'query'|'document', signal?: AbortSignal, onProgress?: Function, sync?: boolean}} [options]
 *   kind default 'document'; sync: use embedSync when the embedder has it (no await between batches)
 * @returns {Promise<Float32Array[]>}
 * @throws {RagwasmError} INVALID_ARGUMENT (wrong count or non-numbers), DIMENSION_MISMATCH, and whatever
 *   the embedder throws (ABORTED, ...)
 */
export async function embedTexts(embedder, texts, options = {}) {
  // A value that is not yet a contract embedder goes through asEmbedder (which names what is wrong).
  embedder = asEmbedder(embedder, { name: 'embedder' });
  texts = expectArray(texts, 'texts', { item: (t, at) => expectString(t, at) });
  const o = expectOptions(options, 'embedTexts options', ['kind', 'signal', 'onProgress', 'sync']);
  const kind = o.kind ?? 'document';
  if (!KINDS.includes(kind)) throw invalid('kind', "'query' or 'document'", kind);
  const callOptions = { kind };
  if (o.signal !== undefined) {
    if (o.signal === null || typeof o.signal !== 'object' || typeof o.signal.aborted !== 'boolean') throw invalid('options.signal', 'an AbortSignal', o.signal);
    callOptions.signal = o.signal;
  }
  if (o.onProgress !== undefined) callOptions.onProgress = expectFunction(o.onProgress, 'options.onProgress');
  const sync = o.sync === undefined ? false : expectBoolean(o.sync, 'options.sync');
  const out = sync && embedder.embedSync ? embedder.embedSync(texts, callOptions) : await embedder.embed(texts, callOptions);
  if (!isArray(out) || out.length !== texts.length) throw invalid('embedder result', `${texts.length} vectors`, out);
  const dimension = embedder.dimension;
  for (let i = 0; i < out.length; i++) {
    const v = out[i];
    if (!(isInstance(v, Float32Array) || isInstance(v, Float64Array) || isArray(v))) throw invalid(`embedder result[${i}]`, 'a Float32Array or an array of numbers', v);
    if (v.length !== dimension) {
      throw new RagwasmError('DIMENSION_MISMATCH', `ragwasm: embedder result[${i}]: has ${v.length} values, the embedder '${embedder.id}' declares ${dimension}`);
    }
    for (let j = 0; j < v.length; j++) {
      if (typeof v[j] !== 'number' || !(Math.abs(v[j]) <= 1e15)) throw invalid(`embedder result[${i}][${j}]`, 'a finite number with |x| <= 1e15', v[j]);
    }
    if (!(isInstance(v, Float32Array))) out[i] = Float32Array.from(v);
  }
  return out;
}
