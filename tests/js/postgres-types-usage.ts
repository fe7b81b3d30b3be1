// Type-checked usage of ragwasm/postgres (web/src/postgres.d.ts) and Bm25Index.impacts()/queryTerms().
import { Bm25Index, Collection } from '../../web/src/index.js';
import { checkExport, csvFilesClient, exportToPostgres, maskUrl, parsePostgresUrl, PostgresRetriever, POSTGRES_SCHEMA_VERSION, sqlFileClient } from '../../web/src/postgres.js';
import type { PostgresCheckResult, PostgresClient, PostgresExportResult, PostgresHit } from '../../web/src/postgres.js';

export async function postgresUsage(client: PostgresClient): Promise<number> {
  const col = await Collection.create({ indexes: { bm25: {} } });
  const r: PostgresExportResult = await exportToPostgres(col, client, { schema: 'ragwasm', batchSize: 500, vectors: false, vectorType: 'halfvec', hnsw: false,
    onProgress: (p) => void [p.phase, p.done, p.total] });
  const pr = await PostgresRetriever.open(client, { schema: 'ragwasm' });
  const hits: PostgresHit[] = await pr.search('query', { k: 10, retriever: 'bm25', exact: true });
  const terms: { term: string; weight: number }[] = pr.queryTerms('query');
  pr.dispose();
  const lines: string[] = [];
  await exportToPostgres(col, sqlFileClient((s) => { lines.push(s); }, { vectors: false }));
  await exportToPostgres(col, csvFilesClient((s) => { lines.push(s); }, (table, data, format) => { lines.push(`${table}.${format === 'text' ? 'tsv' : 'csv'}`, data); }), { force: true });
  const check: PostgresCheckResult = await checkExport(col, client, { schema: 'ragwasm' });
  if (!check.ok) lines.push(...check.problems, String(check.counts.embeddings ?? 0));
  const port: string = parsePostgresUrl('postgres://u@h:5432/d').port;
  const masked: string = maskUrl('postgres://u:p@h/d');
  const idx = Bm25Index.create({});
  let rows = 0;
  for (const b of idx.impacts({ batchTerms: 100, batchRows: 1000 })) rows += b.docs.length + b.impacts.length + b.rowStart.length + b.terms.length + b.ids.length;
  const w: number = idx.queryTerms('a b')[0]?.weight ?? 0;
  idx.dispose();
  col.dispose();
  return r.chunks + hits.length + terms.length + lines.length + port.length + masked.length + rows + w + POSTGRES_SCHEMA_VERSION;
}
