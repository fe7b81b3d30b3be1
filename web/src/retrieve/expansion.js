// @ts-check
// Query expansion for BM25 from a static model's word neighbours (issue 27, offline tier): a question
// asked in other words than the documents ("physician" for "doctor", "ill" for "sick") also searches
// the nearest words of its own that occur in the index, at a lower weight. The arithmetic is in C++
// (src/sparse/index_expansion.cpp, src/embed/word_neighbours.cpp): exact and the same in every build.
// This file loads the word table (WordNeighbours), checks options, and connects a Collection's config
// key `retrieval.expansion` to its BM25 searches (docs/sparse.md "Query expansion").
import { callWasm } from '../core/errors.js';
import { Handle } from '../core/handle.js';
import { wasm } from '../core/module.js';
import { sourceBytes } from '../core/source-bytes.js';
import { encodeText } from '../core/encode.js';
import { expectBoolean, expectInteger, expectNumber, expectOptions, expectString, invalid, isInstance } from '../core/validate.js';
import { defaultStaticModelUrl } from '../embed/embed.js';

/**
 * The defaults of an expansion (the pipeline config key `retrieval.expansion` and the Bm25Index
 * search option `expansion`), chosen on the tuning halves of the doc-chat question sets
 * (`npm run bench -- docchat`, docs/docchat.md): at most `perTerm` neighbours per query word with
 * cosine similarity >= `minSimilarity`, each scored at `weight` x similarity (the query's own terms at
 * 1), from the first `maxWords` words of the static model.
 */
export const EXPANSION_DEFAULTS = Object.freeze({ perTerm: 2, minSimilarity: 0.7, weight: 0.3, unmatchedOnly: false, maxWords: 100000 });

/**
 * A static model's word vectors as a nearest-word table (exact cosine on the int8 vectors; ties by
 * the model's word rank, its frequency order).
 * @example
 * const words = await createWordNeighbours();
 * words.similar('physician', { minSimilarity: 0.6, k: 3 })  // [{word: 'doctor', similarity: 0.8...}, ...]
 */
export class WordNeighbours extends Handle {
  /**
   * @param {Uint8Array|ArrayBuffer} bytes a static model file (createStaticEmbedder's format)
   * @param {{maxWords?: number}} [options] keep the first maxWords words (0 = all; default EXPANSION_DEFAULTS.maxWords)
   * @returns {WordNeighbours}
   * @throws {RagwasmError} CORRUPT_INDEX, UNSUPPORTED_VERSION, INVALID_ARGUMENT
   */
  static fromBytes(bytes, options = {}) {
    if (isInstance(bytes, ArrayBuffer)) bytes = new Uint8Array(bytes);
    if (!isInstance(bytes, Uint8Array)) throw invalid('bytes', 'a Uint8Array or ArrayBuffer', bytes);
    const o = expectOptions(options, 'WordNeighbours options', ['maxWords']);
    const maxWords = o.maxWords === undefined ? EXPANSION_DEFAULTS.maxWords : expectInteger(o.maxWords, 'options.maxWords', { min: 0, max: 4194304 });
    const m = wasm();
    return new WordNeighbours(callWasm(() => m.embed_createWordNeighbours(bytes, maxWords)));
  }

  /** @internal use createWordNeighbours() or WordNeighbours.fromBytes() */
  constructor(native) {
    super(native);
    const i = callWasm(() => native.info());
    /** Words in the table. */
    this.size = i.words;
    /** Vector dimension. */
    this.dimension = i.dims;
  }

  /**
   * The words most similar to `word` (lowercase, as the model spells it), best first.
   * @param {string} word
   * @param {{minSimilarity?: number, k?: number}} [options] floor in [-1, 1] (default 0.5), at most k (1..1000, default 10)
   * @returns {{word: string, similarity: number}[]} empty for an unknown word
   * @throws {RagwasmError} INVALID_ARGUMENT, DISPOSED
   */
  similar(word, options = {}) {
    expectString(word, 'word');
    const o = expectOptions(options, 'similar options', ['minSimilarity', 'k']);
    const min = o.minSimilarity === undefined ? 0.5 : expectNumber(o.minSimilarity, 'options.minSimilarity', { min: -1, max: 1 });
    const k = o.k === undefined ? 10 : expectInteger(o.k, 'options.k', { min: 1, max: 1000 });
    const native = this.native;
    const r = callWasm(() => native.similar(encodeText(word, 'word'), min, k));
    return r.words.map((w, i) => ({ word: w, similarity: r.similarities[i] }));
  }
}

/**
 * Loads the word table of query expansion from a static model.
 * @param {{model?: ArrayBuffer|Uint8Array|Blob|Response|URL|string, maxWords?: number, cache?: boolean}} [options]
 *   model: bytes, a URL, or a file path in Node (default: the ragwasm-static-model package's model)
 * @returns {Promise<WordNeighbours>}
 * @throws {RagwasmError} as WordNeighbours.fromBytes, NOT_FOUND, NETWORK, HTTP
 */
export async function createWordNeighbours(options = {}) {
  const o = expectOptions(options, 'createWordNeighbours options', ['model', 'maxWords', 'cache']);
  const cache = o.cache === undefined ? true : expectBoolean(o.cache, 'options.cache');
  const model = o.model === undefined ? await defaultStaticModelUrl() : o.model;
  const bytes = await sourceBytes(model, o.model === undefined ? 'the default static model' : 'options.model', { cache });
  return WordNeighbours.fromBytes(bytes, o.maxWords === undefined ? {} : { maxWords: o.maxWords });
}

/**
 * Checks a Bm25Index search option `expansion` ({words, perTerm?, minSimilarity?, weight?}) and
 * splits it into the WordNeighbours and the JSON part. @internal
 * @returns {{words: WordNeighbours, json: {perTerm: number, minSimilarity: number, weight: number, unmatchedOnly: boolean}}}
 */
export function checkExpansionOption(value, name = 'options.expansion') {
  const o = expectOptions(value, name, ['words', 'perTerm', 'minSimilarity', 'weight', 'unmatchedOnly']);
  if (value === undefined || !isInstance(o.words, WordNeighbours)) throw invalid(`${name}.words`, 'a WordNeighbours (createWordNeighbours())', o.words);
  return {
    words: o.words,
    json: {
      perTerm: o.perTerm === undefined ? EXPANSION_DEFAULTS.perTerm : expectInteger(o.perTerm, `${name}.perTerm`, { min: 1, max: 16 }),
      minSimilarity: o.minSimilarity === undefined ? EXPANSION_DEFAULTS.minSimilarity : expectNumber(o.minSimilarity, `${name}.minSimilarity`, { min: 0, max: 1 }),
      weight: o.weight === undefined ? EXPANSION_DEFAULTS.weight : expectNumber(o.weight, `${name}.weight`, { min: 0, max: 1 }),
      unmatchedOnly: o.unmatchedOnly === undefined ? EXPANSION_DEFAULTS.unmatchedOnly : expectBoolean(o.unmatchedOnly, `${name}.unmatchedOnly`),
    },
  };
}

// One word table per model source and maxWords, shared by the collections that name it (the default
// model is read once per page however many collections expand with it).
const tables = new Map();

/**
 * The Bm25Index search option `expansion` of a collection config (`retrieval.expansion`, normalized
 * by the pipeline config), its word table loaded on first use; null when the config has none. @internal
 * @param {object} retrieval the normalized config's retrieval section
 * @param {boolean} [sharded=false] the collection's BM25 is sharded across Workers (INVALID_ARGUMENT then)
 * @returns {Promise<object|null>}
 */
export async function configExpansion(retrieval, sharded = false) {
  const x = retrieval?.expansion;
  if (!x) return null;
  if (sharded) throw invalid('retrieval.expansion', 'a collection with workers: 1 (sharded BM25 does not expand queries yet)', x);
  const key = `${x.model ?? ''}\n${x.maxWords}`;
  let p = tables.get(key);
  if (p === undefined) {
    p = createWordNeighbours({ ...(x.model ? { model: x.model } : {}), maxWords: x.maxWords });
    tables.set(key, p);
    p.catch(() => tables.delete(key));  // a failed load is tried again by the next search
  }
  const words = await p;
  if (words.disposed) {
    tables.delete(key);
    return configExpansion(retrieval);
  }
  return { words, perTerm: x.perTerm, minSimilarity: x.minSimilarity, weight: x.weight, unmatchedOnly: x.unmatchedOnly };
}
