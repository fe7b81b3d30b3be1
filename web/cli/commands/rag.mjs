// ragwasm rag: retrieval (BM25 over chunks), answering (LLM with [n] citations, or the extractive
// answerer) and judging over a dataset folder (manifest.json, docs, questions.jsonl as in
// examples/corpus), printed as per-configuration tables: correctness, token F1, rank of the
// reference document, latency and cost. Configurations = answerer x model x answer prompt.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Bm25Index, chunkTexts, metrics } from '../../src/index.js';
import { createLlmClient, definePrompt, extractiveAnswer, generateAnswer, judgeAnswerCorrectness, PriceTable, RequestLedger } from '../../src/llm.js';

function table(title, columns, rows) {
  const head = `| ${columns.join(' | ')} |`;
  const sep = `|${columns.map(() => '---').join('|')}|`;
  return [`### ${title}`, head, sep, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

const f = (v, d = 3) => (v === null || v === undefined || Number.isNaN(v) ? 'n/a' : Number(v).toFixed(d));

function summaryRow(name, values, digits = 3) {
  if (values.length === 0) return [name, '0', 'n/a', 'n/a', 'n/a', 'n/a', 'n/a', 'n/a'];
  const s = metrics.summarize(values);
  return [name, String(s.count), f(s.min, digits), f(s.max, digits), f(s.mean, digits), f(s.p50, digits), f(s.p90, digits), f(s.p95, digits)];
}

export default {
  name: 'rag',
  summary: 'run retrieval, answering and judges over a dataset and print per-configuration tables',
  usage: 'rag [--dataset DIR] [--answerer llm|extractive|both] [--provider P --base-url URL --models a,b] [options]',
  description: 'DIR holds manifest.json ([{id, file, title}]), the documents and questions.jsonl ({id, question, answer, '
    + 'doc_ids, answerable}). Documents are split into chunks (recursive, --chunk-size characters) and indexed with '
    + 'BM25 (title + text); the top --k chunks go to the answerer. Correctness (0-100) needs an LLM judge endpoint '
    + '(--base-url; --judge-model defaults to the first model); token F1 against the reference and the rank of the '
    + 'first chunk of a reference document in the BM25 top 100 are always reported. Without --base-url only the '
    + 'extractive answerer runs. The API key is read from --api-key-env (default OPENAI_API_KEY or ANTHROPIC_API_KEY).',
  options: {
    dataset: { type: 'string', help: 'dataset folder', default: 'examples/corpus' },
    answerer: { type: 'string', help: 'llm, extractive or both (default: llm with --base-url, else extractive)' },
    provider: { type: 'string', help: 'openai or anthropic', default: 'openai' },
    'base-url': { type: 'string', help: 'LLM endpoint base URL' },
    models: { type: 'string', help: 'answer models, comma-separated (a grid dimension)' },
    'judge-model': { type: 'string', help: 'model for the correctness judge (default: the first model)' },
    prompts: { type: 'string', help: 'answer prompt JSON files, comma-separated (a grid dimension; default built-in)' },
    'api-key-env': { type: 'string', help: 'environment variable holding the API key' },
    k: { type: 'string', help: 'chunks given to the answerer', default: '5' },
    'chunk-size': { type: 'string', help: 'chunk size in characters', default: '1000' },
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
    let k, chunkSize, limit, concurrency, timeoutMs;
    try {
      k = int('k');
      chunkSize = int('chunk-size');
      limit = values.limit === undefined ? Infinity : int('limit');
      concurrency = int('concurrency');
      timeoutMs = int('timeout-ms');
    } catch (e) {
      if (!e.usage) throw e;
      io.stderr.write(`ragwasm rag: ${e.message}\n`);
      return 2;
    }
    const hasLlm = !!values['base-url'];
    const answerer = values.answerer ?? (hasLlm ? 'llm' : 'extractive');
    if (!['llm', 'extractive', 'both'].includes(answerer)) {
      io.stderr.write(`ragwasm rag: --answerer: expected llm, extractive or both, got '${answerer}'\n`);
      return 2;
    }
    const models = (values.models ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    if (answerer !== 'extractive' && (!hasLlm || models.length === 0)) {
      io.stderr.write('ragwasm rag: the llm answerer needs --base-url and --models\n');
      return 2;
    }
    const dir = values.dataset;
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    const questions = readFileSync(join(dir, 'questions.jsonl'), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l)).slice(0, limit);

    // Retrieval: the same for every configuration.
    const index = Bm25Index.create({ fields: ['title', 'text'] });
    const chunks = new Map();
    try {
      for (const d of manifest) {
        const text = readFileSync(join(dir, d.file), 'utf8');
        chunkTexts(text, { strategy: 'recursive', chunkSize }).forEach((t, i) => {
          const id = `${d.id}#${i}`;
          chunks.set(id, { id, docId: d.id, text: t });
          index.add({ id, title: d.title ?? '', text: t });
        });
      }
      const retrieved = questions.map((q) => {
        const hits = index.search(q.question, { k: 100 });
        const docIds = new Set(q.doc_ids ?? []);
        const at = hits.findIndex((h) => docIds.has(chunks.get(h.id).docId));
        return { top: hits.slice(0, k).map((h) => ({ ...chunks.get(h.id), score: h.score })), refRank: at < 0 ? null : at + 1 };
      });

      const ledger = new RequestLedger();
      const apiKey = process.env[values['api-key-env'] ?? (values.provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY')] || undefined;
      const prices = new PriceTable();
      const clientFor = (model) => {
        if (values['price-in'] !== undefined || values['price-out'] !== undefined) {
          prices.set(model, { inputPerMTok: Number(values['price-in'] ?? 0), outputPerMTok: Number(values['price-out'] ?? 0) });
        }
        return createLlmClient({ provider: values.provider, baseUrl: values['base-url'], model, apiKey, concurrency, timeoutMs, prices, ledger });
      };
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
              answer = extractiveAnswer(q.question, passages.map((p) => ({ id: p.id, text: p.text, score: p.score }))).text;
              latencyMs = Date.now() - t0;
            } else {
              const r = await generateAnswer(cfg.client, { question: q.question, passages: passages.map((p) => ({ id: p.id, text: p.text })) },
                cfg.prompt ? { prompt: cfg.prompt } : {});
              answer = r.text;
              latencyMs = r.latencyMs;
              cost = r.cost;
            }
          } catch (e) {
            error = `${e.code ?? 'ERROR'}: ${e.message}`;
            return { id: q.id, error, answer: null, f1: null, correctness: null, latencyMs: null, cost: null, refRank: retrieved[i].refRank };
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
          return { id: q.id, answer, f1, correctness, rule, latencyMs, cost, refRank: retrieved[i].refRank, error };
        }));
        rows.push({ cfg, results });
      }

      const out = [];
      const head = ['configuration', 'count', 'min', 'max', 'mean', 'p50', 'p90', 'p95'];
      out.push(table('answer correctness (0-100, LLM judge)', head, rows.map(({ cfg, results }) => summaryRow(cfg.name, results.filter((r) => r.correctness !== null).map((r) => r.correctness), 1))));
      out.push(table('token F1 vs the reference answer', head, rows.map(({ cfg, results }) => summaryRow(cfg.name, results.filter((r) => r.f1 !== null).map((r) => r.f1)))));
      const answerable = questions.map((q, i) => ({ q, rank: retrieved[i].refRank })).filter((x) => x.q.answerable !== false);
      const ranks = answerable.filter((x) => x.rank !== null).map((x) => x.rank);
      out.push(table(`rank of the first chunk of a reference document (BM25 top 100; ${answerable.length - ranks.length} of ${answerable.length} answerable not found)`,
        head, [summaryRow('bm25', ranks, 1)]));
      out.push(table('answer latency (ms)', head, rows.map(({ cfg, results }) => summaryRow(cfg.name, results.filter((r) => r.latencyMs !== null).map((r) => r.latencyMs), 0))));
      out.push(table('cost and failures', ['configuration', 'questions', 'failed', 'cost'], rows.map(({ cfg, results }) => {
        const known = results.every((r) => r.cost !== null);
        return [cfg.name, String(results.length), String(results.filter((r) => r.error).length),
          cfg.kind === 'extractive' && !judgeClient ? '0 (local)' : known ? results.reduce((s, r) => s + r.cost, 0).toFixed(6) : 'unknown (no price)'];
      })));
      io.stdout.write(out.join('\n\n') + '\n');
      io.stdout.write(`requests sent: ${ledger.entries.length}${ledger.entries.length ? ` to ${Object.entries(ledger.bytesByHost()).map(([h, b]) => `${h} (${b} bytes)`).join(', ')}` : ''}\n`);
      if (values.out) writeFileSync(values.out, rows.flatMap(({ cfg, results }) => results.map((r) => JSON.stringify({ configuration: cfg.name, ...r }))).join('\n') + '\n');
      if (values.ledger) writeFileSync(values.ledger, ledger.toJsonl());
      return rows.some(({ results }) => results.some((r) => r.error)) ? 1 : 0;
    } finally {
      index.dispose();
    }
  },
};
