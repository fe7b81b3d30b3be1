// ragwasm label: goldens without hand labels. Pools the top chunks of several retrieval
// configurations per question, grades each (question, chunk) with the LLM context-relevance judge
// (0-3) and writes TREC qrels. The library does the work (poolCandidates, labelPool,
// judgmentsToQrels, formatQrels in web/src/goldens/label-pool.js); this command reads files and builds collections.
import { readFileSync, writeFileSync } from 'node:fs';
import { Collection, parsePipelineConfig, RagwasmError } from '../../src/index.js';
import { formatQrels, judgmentsToQrels, labelPool, poolCandidates } from '../../src/llm.js';
import { formatPool } from '../../src/eval.js';
import { DatasetError, loadTuneDataset, readDocuments, readJsonl, readQueries } from '../datasets.mjs';
import { LLM_OPTIONS, ledgerLine, llmClients } from '../lib/llm.mjs';
import { intOption, UsageError } from '../lib/options.mjs';
import { datasetOptions, FILE_LIMIT_OPTIONS } from '../lib/files.mjs';
import { embedderFor, RETRIEVERS } from '../lib/retrievers.mjs';

/** --retrievers / --configs -> [{name, config}] (pipeline configs, errors naming the JSON path). */
function poolConfigs(values) {
  const out = [];
  for (const r of (values.retrievers ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    if (!RETRIEVERS.includes(r)) throw new UsageError(`--retrievers: expected names from ${RETRIEVERS.join(', ')}, got '${r}'`);
    out.push({ name: r, config: parsePipelineConfig(r === 'bm25' ? { indexes: { bm25: {} } } : r === 'dense' ? { indexes: { dense: {} } } : {}) });
  }
  for (const f of (values.configs ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    try {
      out.push({ name: f, config: parsePipelineConfig(readFileSync(f, 'utf8')) });
    } catch (e) {
      if (e instanceof RagwasmError) throw new UsageError(`--configs ${f}: ${e.message.replace(/^ragwasm: /, '')} [${e.code}]`);
      throw e;
    }
  }
  if (out.length === 0) throw new UsageError('give --retrievers (e.g. bm25,dense,hybrid) and/or --configs a.json,b.json: the configurations whose top chunks are pooled');
  return out;
}

/** Few-shot examples: JSONL of {question, passage, score 0-3}. */
function readExamples(path) {
  const rows = readJsonl(path);
  rows.forEach((r, i) => {
    if (typeof r?.question !== 'string' || typeof r?.passage !== 'string' || !Number.isInteger(r?.score) || r.score < 0 || r.score > 3) {
      throw new UsageError(`--examples ${path}:${i + 1}: expected {"question", "passage", "score": 0-3}`);
    }
  });
  return rows.map((r) => ({ question: r.question, passage: r.passage, score: r.score }));
}

export default {
  name: 'label',
  summary: 'LLM-labelled qrels: pool the top chunks of several retrieval configs per question and grade them 0-3',
  usage: 'label --dataset DIR (--retrievers bm25,dense,hybrid | --configs a.json,b.json) (--base-url URL --model NAME --out QRELS | --pool-only --out POOL.jsonl) [options]',
  description: 'DIR is a BEIR folder, a folder like examples/corpus (manifest.json + questions.jsonl) or a folder of .md/.txt/.html/.pdf/.docx files '
    + '(then --questions is required). Questions default to the dataset\'s; --questions FILE (JSONL {id, question} as `ragwasm questions` '
    + 'writes, or {_id, text}) labels others. Each configuration retrieves --depth chunks per question; the pool (each chunk once) is '
    + 'graded by the context-relevance judge (web/src/llm/prompts/judge_context_relevance.js). QRELS is TREC format '
    + '"qid 0 docid grade" (document level = best chunk grade; --level chunk for chunk ids). A failed call or a reply without a score '
    + 'is counted as unlabelled and left out, never written as 0. --dry-run prints the number of judge calls and spends nothing. '
    + '--pool-only writes the pool to --out as JSON lines {questionId, question, chunkId, docId, text} for people to grade (no LLM: the '
    + 'grading mode of web/demo/metrics.html reads it and exports qrels).',
  options: {
    ...FILE_LIMIT_OPTIONS,
    dataset: { type: 'string', help: 'dataset folder' },
    questions: { type: 'string', help: 'questions JSONL (default: the dataset\'s)' },
    retrievers: { type: 'string', help: `comma list of ${RETRIEVERS.join(', ')}` },
    configs: { type: 'string', help: 'comma list of pipeline config JSON files' },
    'model-file': { type: 'string', help: 'static model file for dense legs (default: the ragwasm-static-model file)' },
    depth: { type: 'string', help: 'chunks per configuration per question', default: '5' },
    'max-queries': { type: 'string', help: 'only the first N questions' },
    examples: { type: 'string', help: 'few-shot examples JSONL {question, passage, score}' },
    samples: { type: 'string', help: 'judge samples per pair (self-consistency)', default: '1' },
    level: { type: 'string', help: 'doc (default) or chunk', default: 'doc' },
    out: { type: 'string', help: 'qrels file to write' },
    judgments: { type: 'string', help: 'also write every (question, chunk) grade with the reply as JSONL' },
    'dry-run': { type: 'boolean', help: 'print the pool size (judge calls) and stop' },
    'pool-only': { type: 'boolean', help: 'write the pooled (question, passage) pairs to --out as JSONL for human grading; no LLM' },
    ...LLM_OPTIONS,
  },
  async run(values, positionals, io) {
    let configs;
    let documents;
    let questions;
    let depth;
    let samples;
    let examples;
    let clients;
    try {
      if (!values.dataset || positionals.length) throw new UsageError('expected --dataset DIR (see --help)');
      if (!['doc', 'chunk'].includes(values.level)) throw new UsageError(`--level: expected doc or chunk, got '${values.level}'`);
      depth = intOption(values.depth, 'depth');
      samples = intOption(values.samples, 'samples');
      const maxQueries = intOption(values['max-queries'], 'max-queries');
      configs = poolConfigs(values);
      try {
        const d = await loadTuneDataset(values.dataset, datasetOptions(values, io, 'label', UsageError));
        documents = d.documents;
        questions = d.queries;
      } catch (e) {
        if (!(e instanceof DatasetError) || !values.questions) throw e instanceof DatasetError ? new UsageError(e.message) : e;
        documents = await readDocuments(values.dataset, datasetOptions(values, io, 'label', UsageError));
      }
      if (values.questions) questions = readQueries(values.questions);
      questions = questions.filter((q) => q.text.trim());
      if (maxQueries) questions = questions.slice(0, maxQueries);
      if (questions.length === 0) throw new UsageError('no questions to label');
      if (values.examples) examples = readExamples(values.examples);
      if (values['pool-only'] && !values.out) throw new UsageError('--pool-only: --out POOL.jsonl is required');
      if (!values['dry-run'] && !values['pool-only']) {
        if (!values.out) throw new UsageError('--out QRELS is required');
        if (!values.model) throw new UsageError('--model is required');
        clients = llmClients(values);
      }
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      io.stderr.write(`ragwasm label: ${e.message}\n`);
      return 2;
    }
    const runs = {};
    for (const { name, config } of configs) {
      const embedder = await embedderFor(config, values['model-file']);
      const col = await Collection.create(config, embedder ? { embedder } : {});
      try {
        await col.add(documents.map((d) => ({ id: d.id, title: d.title ?? '', text: d.text })));
        const byQ = {};
        for (const q of questions) {
          try {
            byQ[q.id] = (await col.search(q.text, { k: depth })).map((h) => ({ id: h.id, docId: h.docId, text: h.text }));
          } catch (e) {
            if (!(e instanceof RagwasmError) || e.code !== 'INVALID_ARGUMENT') throw e;
            byQ[q.id] = [];  // e.g. only stopwords for this retriever
          }
        }
        runs[name] = byQ;
      } finally {
        col.dispose();
        embedder?.dispose?.();
      }
    }
    const pool = poolCandidates(runs, { depth });
    const pairs = Object.values(pool).reduce((n, c) => n + c.length, 0);
    io.stderr.write(`pool: ${questions.length} questions x ${configs.length} configurations x depth ${depth} -> ${pairs} (question, chunk) pairs; `
      + `${pairs * samples} judge calls\n`);
    if (values['dry-run']) return 0;
    if (values['pool-only']) {
      writeFileSync(values.out, formatPool({ questions, pool }));
      io.stdout.write(`wrote ${pairs} (question, passage) pairs of ${Object.keys(pool).length} questions to ${values.out} for grading\n`);
      return pairs > 0 ? 0 : 1;
    }
    const client = clients.clientFor(values.model);
    let r;
    try {
      r = await labelPool(client, { questions, pool }, { samples, ...(examples ? { examples } : {}),
        onProgress: ({ done, total }) => { if (done === total || done % 50 === 0) io.stderr.write(`judged ${done}/${total}\n`); } });
    } finally {
      if (values.ledger) writeFileSync(values.ledger, clients.ledger.toJsonl());
    }
    const qrels = judgmentsToQrels(r.judgments, { level: values.level });
    writeFileSync(values.out, formatQrels(qrels));
    if (values.judgments) writeFileSync(values.judgments, r.judgments.map((j) => JSON.stringify(j)).join('\n') + '\n');
    const grades = [0, 1, 2, 3].map((g) => r.judgments.filter((j) => j.grade === g).length);
    io.stdout.write(`labelled ${r.labelled} of ${r.judgments.length} pairs (${r.unlabelled} unlabelled: failed call or unparsed reply); `
      + `grades 0/1/2/3: ${grades.join('/')}; ${Object.keys(qrels).length} questions in ${values.out}\n`
      + `tokens in ${r.usage.inputTokens}, out ${r.usage.outputTokens}; cost ${r.cost === null ? 'unknown (no price for the model)' : r.cost.toFixed(6)}\n`
      + `${ledgerLine(clients.ledger)}\n`);
    return r.labelled > 0 ? 0 : 1;
  },
};
