// Shared by `export`, `search --engine` and `eval --engine`: collections from a saved file or built
// from documents, and PostgreSQL connections whose credentials never reach a message.
import { readFileSync } from 'node:fs';
import { Collection } from '../../src/index.js';
import { connectPostgres, maskUrl, parsePostgresUrl, PostgresRetriever } from '../../src/postgres.js';
import { UsageError } from './options.mjs';
import { embedderFor } from './retrievers.mjs';

/** Loads a saved collection with the embedder its config needs. Returns {col, embedder}. */
export async function loadCollection(bytes, modelPath) {
  const probe = Collection.fromBytes(bytes, { embedder: async () => [], dimension: 1 });  // for its config only
  const config = probe.config;
  probe.dispose();
  const embedder = await embedderFor(config, modelPath);
  return { col: Collection.fromBytes(bytes, embedder ? { embedder, keepVectors: false } : {}), embedder };
}

/** A postgres:// engine URL checked for --to / --engine (UsageError without the password). */
export function engineUrl(value, flag) {
  try {
    parsePostgresUrl(value);
  } catch (e) {
    throw new UsageError(`${flag}: ${e.message.replace(/^ragwasm: /, '')}`);
  }
  return value;
}

/** Connects (password masked in every error) and opens the exported collection. */
export async function openEngine(url, { schema, modelPath } = {}) {
  const client = await connectPostgres(url);
  try {
    const probe = await PostgresRetriever.open(client, { schema });
    const config = probe.config;
    probe.dispose();
    const embedder = config.indexes.dense && probe.meta.vectors ? await embedderFor(config, modelPath) : undefined;
    const retriever = await PostgresRetriever.open(client, { schema, embedder });
    return { client, retriever, embedder, label: maskUrl(url) };
  } catch (e) {
    await client.end().catch(() => {});
    throw e;
  }
}
