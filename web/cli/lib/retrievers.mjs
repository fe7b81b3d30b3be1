// Retriever options shared by `eval`, `search`, `index` and `tune` (--retriever / --config / --model),
// and the chunk -> document mapping of their runs (the library's aggregateToDocuments, 'max').
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { aggregateToDocuments, createStaticEmbedder, parsePipelineConfig, RagwasmError } from '../../src/index.js';
import { UsageError } from './options.mjs';

export const RETRIEVERS = ['bm25', 'dense', 'hybrid'];
// The default static model: the file of the ragwasm-static-model package (a dependency of ragwasm),
// or the repository's build output in a checkout where the package link is missing.
export const DEFAULT_MODEL = defaultModelPath();

function defaultModelPath() {
  try {
    return fileURLToPath(import.meta.resolve('ragwasm-static-model/static-model.bin'));
  } catch {
    return fileURLToPath(new URL('../../../models/build/static-model.bin', import.meta.url));
  }
}

/**
 * The pipeline config for --retriever / --config (exactly one source; null = plain BM25 path).
 * bm25 -> {indexes: {bm25}}; dense -> {indexes: {dense}}; hybrid -> {} (the documented default hybrid:
 * convex min-max, BM25 0.7 / dense 0.3). --config FILE is parsed by parsePipelineConfig (errors name
 * the JSON path). Returns the normalized config.
 * @throws {UsageError}
 */
export function retrieverConfig(values, { bm25Plain = true } = {}) {
  if (values.retriever !== undefined && !RETRIEVERS.includes(values.retriever)) {
    throw new UsageError(`--retriever: expected one of ${RETRIEVERS.join(', ')}, got '${values.retriever}'`);
  }
  if (values.config !== undefined && values.retriever !== undefined) {
    throw new UsageError('--config and --retriever: give one of them (the config names its retrievers)');
  }
  if (values.config !== undefined) {
    const text = readFileSync(values.config, 'utf8');
    try {
      return parsePipelineConfig(text);
    } catch (e) {
      if (e instanceof RagwasmError) throw new UsageError(`--config ${values.config}: ${e.message.replace(/^ragwasm: /, '')} [${e.code}]`);
      throw e;
    }
  }
  const r = values.retriever ?? 'bm25';
  if (r === 'bm25' && bm25Plain) return null;
  return parsePipelineConfig(r === 'bm25' ? { indexes: { bm25: {} } } : r === 'dense' ? { indexes: { dense: {} } } : {});
}

/** The static embedder for a config with a dense index (--model FILE, default the ragwasm-static-model file). */
export async function embedderFor(config, modelPath) {
  if (!config?.indexes?.dense) return undefined;
  const path = modelPath ?? DEFAULT_MODEL;
  if (!existsSync(path)) {
    throw new UsageError(`--model: ${path} not found (install the default model with \`npm install ragwasm-static-model\`; in a repository checkout build it with \`node scripts/build-assets.mjs\`)`);
  }
  return createStaticEmbedder({ model: readFileSync(path), cache: false });
}

/**
 * Chunk hits ({id, docId, score}) -> the first k documents by their best chunk (aggregateToDocuments
 * 'max': score desc, ties doc id asc) as [{id, score}] for run files and qrels.
 */
export function documentRanking(hits, k) {
  return aggregateToDocuments(hits, { method: 'max', k }).map((d) => ({ id: d.docId, score: d.score }));
}

/**
 * Searches every query (`search(text)` -> chunk hits) and maps the hits to the first k documents.
 * A query the retriever cannot search (INVALID_ARGUMENT, e.g. only stopwords) goes to
 * onSkip(query, error), which returns true to skip it (false rethrows).
 * @returns {Promise<{id: string, docs: {id: string, score: number}[]}[]>}
 */
export async function rankQueries(queries, search, k, onSkip = () => true) {
  const out = [];
  for (const q of queries) {
    let hits;
    try {
      hits = await search(q.text);
    } catch (e) {
      if (!(e instanceof RagwasmError) || e.code !== 'INVALID_ARGUMENT' || !onSkip(q, e)) throw e;
      continue;
    }
    out.push({ id: q.id, docs: documentRanking(hits, k) });
  }
  return out;
}
