// @ts-check
// PostgresRetriever: the same searches as Collection.search, run in PostgreSQL over the exported
// schema: BM25 = SUM(weight * impact ORDER BY query-term position) over the impact table (the
// in-browser scores bit for bit), dense = pgvector cosine distance, hybrid = ragwasm's fuse() over
// the two result lists (docs/postgres.md says why the fusion is not done in SQL).
import { RagwasmError } from '../../core/errors.js';
import { expectBoolean, expectEnum, expectInternal, expectOptions, expectSearchK, expectString, hasMethod, invalid, isPlainObject } from '../../core/validate.js';
import { Collection } from '../../pipeline/collection.js';
import { fuse } from '../../retrieve/fusion.js';
import { parsePipelineConfig } from '../../pipeline/pipeline.js';
import { checkIdentifier, checkMeta, readMeta, tables, vectorLiteral } from './schema.js';

const RETRIEVERS = ['bm25', 'dense', 'hybrid'];

export class PostgresRetriever {
  /**
   * Opens an exported collection: reads `<schema>.meta`, checks the schema version and builds the
   * query analyzer from the stored config (ragwasm's analyzer, not PostgreSQL's).
   * @example const r = await PostgresRetriever.open(client, { embedder }); const hits = await r.search('q', { k: 10 });
   * @param {{query: Function}} client node-postgres Client/Pool, PGlite, ...
   * @param {{schema?: string, embedder?: object|Function}} [options] embedder: as Collection.create
   *   (the one the collection was built with), needed for dense and hybrid
   * @returns {Promise<PostgresRetriever>}
   * @throws {RagwasmError} NOT_FOUND (no exported collection in the schema), UNSUPPORTED_VERSION,
   *   CORRUPT_INDEX (a meta row no export writes: the stored config, vector type, counts are checked first)
   */
  static async open(client, options = {}) {
    const o = expectOptions(options, 'PostgresRetriever.open options', ['schema', 'embedder']);
    if (!hasMethod(client, 'query')) throw invalid('client', 'a database client with query(text, params)', client);
    const s = checkIdentifier(o.schema ?? 'ragwasm', 'options.schema');
    const meta = await readMeta(client, s);
    if (meta === null) throw new RagwasmError('NOT_FOUND', `ragwasm: postgres schema "${s}" holds no exported collection (no ${s}.meta table; run exportToPostgres first)`);
    const checked = checkMeta(meta, s);  // every row validated before use (#30 P-1, P-5)
    const cfg = checked.config;
    // An empty collection of the same config: its BM25 index carries the exact analyzer settings.
    const analyzer = cfg.indexes.bm25 ? await Collection.create({ indexes: { bm25: cfg.indexes.bm25 }, retrieval: { retrievers: ['bm25'] } }) : null;
    return new PostgresRetriever(client, s, checked, analyzer, o.embedder);
  }

  /** @internal */
  constructor(client, schema, meta, analyzer, embedder) {
    expectInternal(hasMethod(client, 'query') && typeof schema === 'string' && isPlainObject(meta) && isPlainObject(meta.config), 'PostgresRetriever', 'PostgresRetriever.open(client, options)');
    this.client = client;
    this.schema = schema;
    this.meta = meta;
    this.config = meta.config;
    this._analyzer = analyzer;
    this.embedder = embedder;
    this._t = tables(schema);
  }

  /** The weighted query terms (ragwasm's analyzer; order of first appearance, weight = count). */
  queryTerms(query) {
    if (!this._analyzer) throw new RagwasmError('INVALID_ARGUMENT', 'ragwasm: the exported collection has no BM25 index');
    return this._analyzer.bm25.queryTerms(query);
  }

  /**
   * BM25 top k chunks: exactly Bm25Index.search's scores and order (ties: chunk id bytewise ascending).
   * @param {string} query @param {number} k
   * @returns {Promise<{id: string, docId: string, score: number}[]>}
   */
  async searchBm25(query, k) {
    const q = this.queryTerms(query);
    if (q.length === 0) throw invalid('query', 'at least one searchable term (it is empty or only stopwords)', query);
    // sum(... ORDER BY pos): float8 additions in query-term order, as the C++ scorer adds them.
    // The top k first, then their documents: joining chunks before the LIMIT would look up every match.
    const r = await this.client.query(`WITH q(term, weight, pos) AS (SELECT * FROM unnest($1::text[], $2::float8[], $3::int[])),
      top AS (SELECT i.chunk_id, sum(q.weight * i.impact ORDER BY q.pos) AS score
        FROM ${this._t.impacts} i JOIN q ON q.term = i.term WHERE i.term = ANY($1::text[])
        GROUP BY i.chunk_id ORDER BY score DESC, i.chunk_id COLLATE "C" LIMIT $4)
      SELECT top.chunk_id AS id, c.doc_id AS doc_id, top.score FROM top JOIN ${this._t.chunks} c ON c.id = top.chunk_id
      ORDER BY top.score DESC, top.chunk_id COLLATE "C"`,
    [q.map((x) => x.term), q.map((x) => x.weight), q.map((x, i) => i), k]);
    return r.rows.map((row) => ({ id: row.id, docId: row.doc_id, score: this.#finite(Number(row.score), row.id, 'BM25 score') }));
  }

  // A row read back is checked like a saved file's bytes: a NaN or infinite impact (a hand-edited
  // table) is CORRUPT_INDEX, not a NaN score that would sort anywhere.
  #finite(x, id, what) {
    if (!Number.isFinite(x)) {
      throw new RagwasmError('CORRUPT_INDEX', `ragwasm: postgres schema "${this.schema}": ${what} of chunk ${JSON.stringify(String(id).slice(0, 80))} is ${x} (the tables were changed after export; export again)`);
    }
    return x;
  }

  async #queryVector(query) {
    const e = this.embedder;
    if (e === undefined) throw invalid('options.embedder', 'an embedder (dense search embeds the query)', e);
    const [v] = typeof e === 'function' ? await e([query]) : await e.embedSync([query]);
    return v;
  }

  /**
   * Dense top k chunks by cosine similarity (score = 1 - pgvector's <=> distance).
   * @param {string} query @param {number} k
   * @param {{exact?: boolean}} [options] exact (default false): scan every vector (no HNSW), ties by chunk id
   */
  async searchDense(query, k, { exact = false } = {}) {
    if (!this.meta.vectors) {
      throw new RagwasmError('UNSUPPORTED_ENVIRONMENT', `ragwasm: postgres schema "${this.schema}" has no embeddings (exported without pgvector: the PostgreSQL extension "vector" was not available)`);
    }
    const v = vectorLiteral(await this.#queryVector(query));
    const type = this.meta.vectors.type;  // 'vector' or 'halfvec': checked by checkMeta when opened
    const run = async () => (await this.client.query(`SELECT e.chunk_id AS id, c.doc_id AS doc_id, e.embedding <=> $1::${type} AS d
      FROM ${this._t.embeddings} e JOIN ${this._t.chunks} c ON c.id = e.chunk_id
      ORDER BY e.embedding <=> $1::${type}${exact ? ', e.chunk_id COLLATE "C"' : ''} LIMIT $2`, [v, k])).rows;
    let rows;
    if (exact) {
      // Without this the planner may still walk the HNSW index (then sort ties), which returns only
      // hnsw.ef_search rows: exact means a sequential scan.
      rows = await this.#withSettings('SET LOCAL enable_indexscan = off', run);
    } else {
      const ef = this.config.indexes.dense?.hnsw?.efSearch;
      const efSearch = Math.min(1000, Math.max(Number.isInteger(ef) && ef > 0 ? ef : 64, Math.min(k, 1000)));  // an integer: interpolated
      rows = await this.#withSettings(`SET LOCAL hnsw.ef_search = ${efSearch}`, run);
    }
    // pgvector's cosine distance with a zero vector (a query of unknown words) is NaN: the in-browser
    // index scores it 0, so does this; any other non-finite distance is CORRUPT_INDEX.
    return rows.map((row) => {
      const d = Number(row.d);
      return { id: row.id, docId: row.doc_id, score: Number.isNaN(d) && row.d !== null ? 0 : this.#finite(1 - d, row.id, 'cosine distance') };
    });
  }

  async #withSettings(sql, fn) {
    await this.client.query('BEGIN');
    try {
      await this.client.query(sql);
      const r = await fn();
      await this.client.query('COMMIT');
      return r;
    } catch (e) {
      await this.client.query('ROLLBACK').catch(() => {});
      throw e;
    }
  }

  /**
   * Searches like Collection.search: retriever default = the exported config's (hybrid when it has
   * two); the legs' lists (each `candidates` long) are fused with the config's fusion (scores as
   * Collection.search gives them; searchBm25/searchDense return the raw scores).
   * The label-free leg check of the in-browser hybrid is not run here (docs/postgres.md).
   * @param {string} query
   * @param {{k?: number, retriever?: 'bm25'|'dense'|'hybrid', exact?: boolean}} [options]
   * @returns {Promise<{id: string, docId: string, score: number}[]>}
   * @throws {RagwasmError} INVALID_ARGUMENT (empty query, only stopwords, bad option), UNSUPPORTED_ENVIRONMENT (dense without embeddings)
   */
  async search(query, options = {}) {
    const o = expectOptions(options, 'search options', ['k', 'retriever', 'exact']);
    expectString(query, 'query');
    if (query.trim() === '') throw invalid('query', 'a non-empty query', query);
    const k = o.k === undefined ? this.config.retrieval.k : expectSearchK(o.k);
    const exact = o.exact === undefined ? false : expectBoolean(o.exact, 'options.exact');
    const configured = this.config.retrieval.retrievers;
    const retriever = o.retriever === undefined ? (configured.length > 1 ? 'hybrid' : configured[0]) : expectEnum(o.retriever, 'options.retriever', RETRIEVERS);
    // As Collection.search: one leg keeps its own ranking and raw scores (no fusion); several legs
    // are fused with the config's fusion, or the default fusion of the legs asked for.
    const legs = retriever === 'hybrid' ? (configured.length > 1 ? configured : ['bm25', 'dense']) : [retriever];
    const same = legs.length === configured.length && legs.every((r, i) => r === configured[i]);
    const f = same ? this.config.retrieval.fusion : parsePipelineConfig(legs.length > 1 ? {} : { indexes: { [legs[0]]: {} } }).retrieval.fusion;
    const n = Math.max(this.config.retrieval.candidates, k);
    const lists = [];
    const docOf = new Map();
    for (const r of legs) {
      const hits = r === 'bm25' ? await this.searchBm25(query, n) : await this.searchDense(query, n, { exact });
      for (const h of hits) docOf.set(h.id, h.docId);
      lists.push({ retriever: r, hits: hits.map((h) => ({ id: h.id, score: h.score })) });
    }
    if (lists.length === 1) return lists[0].hits.slice(0, k).map((h) => ({ id: h.id, docId: docOf.get(h.id), score: h.score }));
    const fused = fuse(lists, { mode: f.mode, normalization: f.normalization, weights: f.weights, rrfK: f.rrfK });
    return fused.hits.slice(0, k).map((h) => ({ id: h.id, docId: docOf.get(h.id), score: h.score }));
  }

  /** Frees the query analyzer (the client stays open: the caller owns it). */
  dispose() {
    this._analyzer?.dispose();
    this._analyzer = null;
  }
}
