// ragwasm rag: retrieval (BM25 over chunks), answering (LLM with [n] citations, or the extractive
// answerer) and judging over a dataset folder (manifest.json, docs, questions.jsonl as in
// examples/corpus), printed as per-configuration tables: correctness, token F1, rank of the
// reference document, latency and cost. Configurations = answerer x model x answer prompt.
import { readFileSync, writeFileSync } from 'node:fs';
import { answerContext, checkAssemblyRead, Collection, llmContextSteps } from '../../src/index.js';
import { metrics } from '../../src/eval.js';
import { createLlmClient, definePrompt, extractiveAnswer, generateAnswer, judgeAnswerCorrectness, judgeRagTriad, PriceTable, RequestLedger } from '../../src/llm.js';
import { commandConfig, configFileBase, configOptions, configReranker } from '../lib/config.mjs';
import { UsageError } from '../lib/options.mjs';
import { datasetOptions, FILE_LIMIT_OPTIONS } from '../lib/files.mjs';
import { embedderFor } from '../lib/retrievers.mjs';
import { loadQaDataset } from '../datasets.mjs';

// The flags of rag that are pipeline-config paths (web/cli/lib/config.mjs).
const CONFIG_FLAG_NAMES = ['chunker', 'chunk-size', 'k', 'retriever', 'rerank-model', 'judges'];
// rag's own config when no --config is given: recursive chunks of 1000 characters, BM25 (title + text), k 5.
export const RAG_BASE_CONFIG = Object.freeze({ chunker: { strategy: 'recursive', chunkSize: 1000 }, indexes: { bm25: {} }, retrieval: { k: 5 } });
// Hits searched per question: deep enough for the rank of the reference document (as ragwasm experiment).
const REF_RANK_DEPTH = 100;

function table(title, columns, rows) {
  const head = `| ${columns.join(' | ')} |`;
  const sep = `|${columns.map(() => '---').join('|')}|`;
  return [`### ${title}`, head, sep, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

const f = (v, d = 3) => (v === null || v === undefined || Number.isNaN(v) ? 'n/a' : Number(v).toFixed(d));

// Mean with its 95% bootstrap CI (metrics.bootstrapCI of the values against 0; seed 1, 1000 samples).
function meanCI(values) {
  if (values.length === 0) return 'n/a';
  const m = values.reduce((s, v) => s + v, 0) / values.length;
  if (values.length < 2) return `${f(m)} (n 1)`;
  const b = metrics.bootstrapCI(values, values.map(() => 0), { samples: 1000, seed: 1 });
  return `${f(m)} [${f(b.low)}, ${f(b.high)}]`;
}
const TRIAD = ['contextRelevance', 'answerRelevance', 'groundedness'];

function summaryRow(name, values, digits = 3) {
  if (values.length === 0) return [name, '0', 'n/a', 'n/a', 'n/a', 'n/a', 'n/a', 'n/a'];
  const s = metrics.summarize(values);
  return [name, String(s.count), f(s.min, digits), f(s.max, digits), f(s.mean, digits), f(s.p50, digits), f(s.p90, digits), f(s.p95, digits)];
}

export default {
  name: 'rag',
  summary: 'run retrieval, answering and judges over a dataset and print per-configuration tables',
  usage: 'rag [--dataset DIR] [--config FILE] [--answerer llm|extractive|both] [--provider P --base-url URL --models a,b] [options]',
  description: 'DIR holds manifest.json ([{id, file, title}]), the documents and questions.jsonl ({id, question, answer, '
    + 'doc_ids, answerable}). Retrieval is the pipeline config (--config FILE, the same file as for `eval`, `tune`, '
    + '`experiment` and Collection.create: every chunker, chunk context (indexText), BM25 / dense / hybrid, rerank); '
    + 'without --config: recursive chunks of 1000 characters, BM25 over title + text, k 5. --chunker, --chunk-size, --k, '
    + '--retriever and --rerank-model override its paths (a replaced value is said on stderr). The answerer reads the top '
    + 'min(retrieval.k, answerer.chunks) chunks; --k 0 is the no-retrieval baseline. Correctness (0-100) needs an LLM judge '
    + 'endpoint (--base-url; --judge-model defaults to the first model); token F1 against the reference and the rank of '
    + 'the first chunk of a reference document in the top 100 hits are always reported. Without --base-url only the '
    + 'extractive answerer runs. --judges triad (or the config\'s judges.triad) adds the RAG triad per question (context '
    + 'relevance, answer relevance, groundedness; 0-1, means with 95% bootstrap CIs) from the judge model. A config whose '
    + 'chunker.context sets llmSummary or llmChunkContext runs those steps on --base-url with --context-model (default the '
    + 'judge model). The API key is read from --api-key-env (default OPENAI_API_KEY or ANTHROPIC_API_KEY).',
  options: {
    ...FILE_LIMIT_OPTIONS,
    dataset: { type: 'string', help: 'dataset folder', default: 'examples/corpus' },
    answerer: { type: 'string', help: 'llm, extractive or both (default: the config\'s answerer.type when --config sets it, else llm with --base-url, else extractive)' },
    provider: { type: 'string', help: 'openai or anthropic', default: 'openai' },
    'base-url': { type: 'string', help: 'LLM endpoint base URL' },
    models: { type: 'string', help: 'answer models, comma-separated (a grid dimension)' },
    'judge-model': { type: 'string', help: 'model for the correctness judge (default: the first model)' },
    'context-model': { type: 'string', help: 'model on --base-url for the config\'s LLM context steps (chunker.context.llmSummary / llmChunkContext; default: the judge model)' },
    prompts: { type: 'string', help: 'answer prompt JSON files, comma-separated (a grid dimension; default built-in)' },
    'api-key-env': { type: 'string', help: 'environment variable holding the API key' },
    ...configOptions(CONFIG_FLAG_NAMES, { k: 'default 5', 'chunk-size': 'default 1000' }),
    'rerank-tokenizer': { type: 'string', help: 'tokenizer.json of the cross-encoder (default: found beside rerank.model)' },
    model: { type: 'string', help: 'static model file for a dense index (default: the ragwasm-static-model package)' },
    limit: { type: 'string', help: 'only the first N questions' },
    concurrency: { type: 'string', help: 'LLM requests in flight', default: '4' },
    'timeout-ms': { type: 'string', help: 'per LLM request', default: '60000' },
    'price-in': { type: 'string', help: 'price per million input tokens (all models)' },
    'price-out': { type: 'string', help: 'price per million output tokens (all models)' },
    out: { type: 'string', help: 'write per-question results as JSONL' },
    ledger: { type: 'string', help: 'write the request ledger as JSONL' },
  },
  async run(values, positionals, io) {
    const int = (name, min = 1) => {
      const v = Number(values[name]);
      if (!Number.isInteger(v) || v < min) throw Object.assign(new Error(`--${name}: expected an integer >= ${min}, got '${values[name]}'`), { usage: true });
      return v;
    };
    let limit, concurrency, timeoutMs, resolved;
    try {
      resolved = commandConfig(values, CONFIG_FLAG_NAMES, { base: RAG_BASE_CONFIG, stderr: io.stderr, command: 'ragwasm rag' });
      limit = values.limit === undefined ? Infinity : int('limit');
      concurrency = int('concurrency');
      timeoutMs = int('timeout-ms');
    } catch (e) {
      if (!e.usage && !(e instanceof UsageError)) throw e;
      io.stderr.write(`ragwasm rag: ${e.message}\n`);
      return 2;
    }
    const config = resolved.config;
    const k = config.retrieval.k;
    const hasLlm = !!values['base-url'];
    const configAnswerer = values.config !== undefined ? resolved.raw.answerer?.type : undefined;
    if (values.answerer !== undefined && configAnswerer !== undefined && configAnswerer !== values.answerer) {
      io.stderr.write(`ragwasm rag: --answerer overrides answerer.type ${JSON.stringify(configAnswerer)} of ${values.config} with ${JSON.stringify(values.answerer)}\n`);
    }
    const answerer = values.answerer ?? (configAnswerer === 'none' ? undefined : configAnswerer) ?? (hasLlm ? 'llm' : 'extractive');
    if (!['llm', 'extractive', 'both'].includes(answerer)) {
      io.stderr.write(`ragwasm rag: --answerer: expected llm, extractive or both, got '${answerer}'\n`);
      return 2;
    }
    try {
      // The assembly section is read by the llm answer prompt (answerContext); refused when only the extractive answerer runs.
      checkAssemblyRead(resolved.raw, answerer === 'extractive' ? 'extractive' : 'llm');
    } catch (e) {
      if (e.code !== 'INVALID_ARGUMENT') throw e;
      io.stderr.write(`ragwasm rag: ${values.config ?? 'config'}: ${e.message.replace(/^ragwasm: /, '')}\n`);
      return 2;
    }
    const models = (values.models ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    if (answerer !== 'extractive' && (!hasLlm || models.length === 0)) {
      io.stderr.write('ragwasm rag: the llm answerer needs --base-url and --models\n');
      return 2;
    }
    const triad = config.judges?.triad === true;
    if (triad && !hasLlm) {
      io.stderr.write('ragwasm rag: judges.triad: the RAG-triad judges need the judge endpoint: give --base-url (and --judge-model)\n');
      return 2;
    }
    const steps = llmContextSteps(config);
    if (steps.length > 0 && !hasLlm) {
      io.stderr.write(`ragwasm rag: ${steps[0].path}: the config asks for an LLM step: give the endpoint with --base-url (and --context-model)\n`);
      return 2;
    }
    const ledger = new RequestLedger();
    const apiKey = process.env[values['api-key-env'] ?? (values.provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY')] || undefined;
    const prices = new PriceTable();
    const clientFor = (model) => {
      if (values['price-in'] !== undefined || values['price-out'] !== undefined) {
        prices.set(model, { inputPerMTok: Number(values['price-in'] ?? 0), outputPerMTok: Number(values['price-out'] ?? 0) });
      }
      return createLlmClient({ provider: values.provider, baseUrl: values['base-url'], model, apiKey, concurrency, timeoutMs, prices, ledger });
    };
    const dir = values.dataset;
    const dataset = await loadQaDataset(dir, datasetOptions(values, io, 'rag', UsageError));  // the one folder reader (#33)
    const questions = dataset.questions.slice(0, limit);

    // Retrieval: the same for every configuration, through a Collection built from the config.
    let embedder;
    let rerank;
    let col;
    try {
      embedder = await embedderFor(config.indexes.dense || config.chunker.strategy === 'semantic' ? { indexes: { dense: {} } } : config, values.model);
      rerank = await configReranker(config, { tokenizer: values['rerank-tokenizer'], baseDir: configFileBase(values, values.config) });
    } catch (e) {
      embedder?.dispose();
      if (!(e instanceof UsageError)) throw e;
      io.stderr.write(`ragwasm rag: ${e.message}\n`);
      return 2;
    }
    try {
      const copts = embedder ? { embedder } : {};
      // The config's LLM context steps (chunker.context.llmSummary / llmChunkContext) on --base-url.
      const contextClient = steps.length > 0 ? clientFor(values['context-model'] ?? values['judge-model'] ?? models[0] ?? 'context') : null;
      if (contextClient) copts.llm = contextClient;
      col = await Collection.create(config, copts);
      await col.add(dataset.documents);
      const contextCalls = contextClient ? contextClient.stats.calls : 0;
      const indexingCost = contextClient ? contextClient.stats.cost : 0;  // null: unknown (a call had no price)
      const depth = Math.min(Math.max(REF_RANK_DEPTH, k), Math.max(1, col.chunks.size));
      const passagesOf = Math.min(k, config.answerer.chunks);
      const retrieved = [];
      for (const q of questions) {
        let hits = [];
        if (k > 0) {
          try {
            hits = await col.search(q.question, rerank ? { k: depth, reranker: rerank.reranker } : { k: depth });
          } catch (e) {
            // A question the retrievers cannot search (only stopwords): nothing retrieved.
            if (e.code !== 'INVALID_ARGUMENT' || !/query/.test(e.message)) throw e;
          }
        }
        const docIds = new Set(q.doc_ids ?? []);
        const at = hits.findIndex((h) => docIds.has(h.docId));
        retrieved.push({ top: hits.slice(0, passagesOf), ids: hits.slice(0, k).map((h) => h.id), refRank: at < 0 ? null : at + 1 });
      }

      const judgeClient = hasLlm ? clientFor(values['judge-model'] ?? models[0] ?? 'judge') : null;
      const promptFiles = (values.prompts ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      const prompts = promptFiles.length ? promptFiles.map((p) => ({ name: p, template: definePrompt(JSON.parse(readFileSync(p, 'utf8'))) })) : [{ name: 'built-in', template: undefined }];

      const configs = [];
      if (answerer !== 'llm') configs.push({ name: 'extractive', kind: 'extractive' });
      if (answerer !== 'extractive') {
        for (const model of models) for (const p of prompts) configs.push({ name: `${model} / ${p.name}`, kind: 'llm', client: clientFor(model), prompt: p.template });
      }

      const rows = [];
      for (const cfg of configs) {
        const results = await Promise.all(questions.map(async (q, i) => {
          const passages = retrieved[i].top;
          let answer;
          let latencyMs;
          let cost = 0;
          let error = null;
          const t0 = Date.now();
          try {
            if (cfg.kind === 'extractive') {
              const a = config.answerer;
              answer = extractiveAnswer(q.question, passages.map((p) => ({ id: p.id, text: p.text, score: p.score, context: p.title ?? '' })),
                { maxChunks: Math.max(1, passages.length), threshold: a.threshold, maxSentences: a.maxSentences }).text;
              latencyMs = Date.now() - t0;
            } else {
              const r = await generateAnswer(cfg.client, { question: q.question, passages: answerContext(col, passages).passages },
                cfg.prompt ? { prompt: cfg.prompt } : {});
              answer = r.text;
              latencyMs = r.latencyMs;
              cost = r.cost;
            }
          } catch (e) {
            error = `${e.code ?? 'ERROR'}: ${e.message}`;
            return { id: q.id, error, answer: null, f1: null, correctness: null, ...(triad ? { contextRelevance: null, answerRelevance: null, groundedness: null } : {}),
              latencyMs: null, cost: null, refRank: retrieved[i].refRank, retrieved: retrieved[i].ids };
          }
          const reference = q.answerable === false ? 'The documents do not answer this question.' : q.answer;
          const f1 = metrics.tokenF1(answer.replace(/\s*\[\d+\]/g, ''), reference);
          let correctness = null;
          let rule = null;
          if (judgeClient) {
            try {
              const j = await judgeAnswerCorrectness(judgeClient, { question: q.question, answer, reference: q.answer, referenceAnswerable: q.answerable !== false });
              correctness = j.score;
              rule = j.rule;
              cost = cost === null || j.cost === null ? null : cost + j.cost;
            } catch (e) {
              error = `judge ${e.code ?? 'ERROR'}: ${e.message}`;
            }
          }
          // The RAG triad (judges.triad): context relevance of the passages the answerer read, answer relevance, groundedness.
          const scores = {};
          if (triad) {
            try {
              const t = await judgeRagTriad(judgeClient, { question: q.question, answer, passages: cfg.kind === 'llm' ? answerContext(col, passages).passages : passages.map((p) => ({ id: p.id, text: p.text })) });
              for (const key of TRIAD) scores[key] = t[key];
              cost = cost === null || t.cost === null ? null : cost + t.cost;
            } catch (e) {
              for (const key of TRIAD) scores[key] = null;
              error = `triad judge ${e.code ?? 'ERROR'}: ${e.message}`;
            }
          }
          return { id: q.id, answer, f1, correctness, rule, ...scores, latencyMs, cost, refRank: retrieved[i].refRank, retrieved: retrieved[i].ids, error };
        }));
        rows.push({ cfg, results });
      }

      const out = [];
      const head = ['configuration', 'count', 'min', 'max', 'mean', 'p50', 'p90', 'p95'];
      out.push(table('answer correctness (0-100, LLM judge)', head, rows.map(({ cfg, results }) => summaryRow(cfg.name, results.filter((r) => r.correctness !== null).map((r) => r.correctness), 1))));
      if (triad) {
        out.push(table('RAG triad (LLM judge, 0-1; mean [95% bootstrap CI])', ['configuration', 'questions', 'context relevance', 'answer relevance', 'groundedness'],
          rows.map(({ cfg, results }) => [cfg.name, String(results.length),
            ...TRIAD.map((key) => meanCI(results.map((r) => r[key]).filter((v) => v !== null && v !== undefined)))])));
      }
      out.push(table('token F1 vs the reference answer', head, rows.map(({ cfg, results }) => summaryRow(cfg.name, results.filter((r) => r.f1 !== null).map((r) => r.f1)))));
      const answerable = questions.map((q, i) => ({ q, rank: retrieved[i].refRank })).filter((x) => x.q.answerable !== false);
      const ranks = answerable.filter((x) => x.rank !== null).map((x) => x.rank);
      const legs = config.retrieval.retrievers.join(' + ') + (rerank ? ` + rerank ${config.rerank.type}` : '');
      out.push(table(`rank of the first chunk of a reference document (${legs} top ${k === 0 ? 0 : Math.max(REF_RANK_DEPTH, k)}; ${answerable.length - ranks.length} of ${answerable.length} answerable not found)`,
        head, [summaryRow(legs, ranks, 1)]));
      out.push(table('answer latency (ms)', head, rows.map(({ cfg, results }) => summaryRow(cfg.name, results.filter((r) => r.latencyMs !== null).map((r) => r.latencyMs), 0))));
      out.push(table('cost and failures', ['configuration', 'questions', 'failed', 'cost'], rows.map(({ cfg, results }) => {
        const known = results.every((r) => r.cost !== null);
        return [cfg.name, String(results.length), String(results.filter((r) => r.error).length),
          cfg.kind === 'extractive' && !judgeClient ? '0 (local)' : known ? results.reduce((s, r) => s + r.cost, 0).toFixed(6) : 'unknown (no price)'];
      })));
      io.stdout.write(out.join('\n\n') + '\n');
      const money = (v) => (v === null ? 'unknown (no price)' : v.toFixed(6));
      if (contextClient) io.stdout.write(`LLM context steps (${steps.map((st) => st.path).join(', ')}): ${contextCalls} calls to ${contextClient.model}, indexing cost ${money(indexingCost)}\n`);
      // The study's cost as one number: indexing (once, shared by every configuration) + every configuration's questions.
      const all = rows.flatMap(({ results }) => results.map((r) => r.cost));
      const questionsCost = all.some((c) => c === null) ? null : all.reduce((a, c) => a + c, 0);
      const total = indexingCost === null || questionsCost === null ? null : indexingCost + questionsCost;
      io.stdout.write(`LLM cost: indexing ${money(indexingCost)} + questions (answering, judging; every configuration) ${money(questionsCost)} = total ${money(total)}\n`);
      io.stdout.write(`requests sent: ${ledger.entries.length}${ledger.entries.length ? ` to ${Object.entries(ledger.bytesByHost()).map(([h, b]) => `${h} (${b} bytes)`).join(', ')}` : ''}\n`);
      if (values.out) writeFileSync(values.out, rows.flatMap(({ cfg, results }) => results.map((r) => JSON.stringify({ configuration: cfg.name, ...r }))).join('\n') + '\n');
      if (values.ledger) writeFileSync(values.ledger, ledger.toJsonl());
      return rows.some(({ results }) => results.some((r) => r.error)) ? 1 : 0;
    } finally {
      col?.dispose();
      embedder?.dispose();
      await rerank?.dispose();
    }
  },
};
