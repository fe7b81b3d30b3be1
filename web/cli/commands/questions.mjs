// ragwasm questions: generate evaluation questions from sampled chunks with an LLM (question_generate
// prompt), written in the dataset questions format (examples/corpus/questions.jsonl) with the source
// chunk as the evidence. The work is the library's (sampleChunks, generateQuestions in web/src/goldens/).
import { writeFileSync } from 'node:fs';
import { chunk } from '../../src/index.js';
import { generateQuestions, sampleChunks } from '../../src/llm.js';
import { DatasetError, loadTuneDataset, readDocuments } from '../datasets.mjs';
import { LLM_OPTIONS, ledgerLine, llmClients } from '../lib/llm.mjs';
import { configChunker, intOption, UsageError } from '../lib/options.mjs';
import { datasetOptions, FILE_LIMIT_OPTIONS } from '../lib/files.mjs';

export default {
  name: 'questions',
  summary: 'generate questions from sampled chunks with an LLM (questions.jsonl format, the chunk as evidence)',
  usage: 'questions --dataset DIR --n N --base-url URL --model NAME --out FILE.jsonl [--seed S] [--chunker recursive:1200/0] [options]',
  description: 'DIR is a BEIR folder, a folder like examples/corpus or a folder of .md/.txt/.html/.pdf/.docx files. Chunks are cut with --chunker, '
    + 'sampled with a seeded shuffle (--seed, at most --per-document per document, chunks shorter than --min-length skipped), and '
    + 'each is sent once to the model. Each line of FILE is {id, question, answer, doc_ids, evidence: [chunk text], answerable, '
    + 'type: "generated", source: {chunkId, docId, start, end, quote}}; chunks the model declines (NONE) or whose reply has no '
    + '"Question:" line are reported as skipped. --dry-run prints the sample and spends nothing.',
  options: {
    ...FILE_LIMIT_OPTIONS,
    dataset: { type: 'string', help: 'dataset folder' },
    n: { type: 'string', help: 'chunks to sample (one question each)', default: '20' },
    seed: { type: 'string', help: 'sampling seed', default: '16' },
    'per-document': { type: 'string', help: 'at most this many chunks per document' },
    'min-length': { type: 'string', help: 'skip chunks shorter than this (characters)', default: '80' },
    chunker: { type: 'string', help: 'NAME[:SIZE[/OVERLAP]] or none', default: 'recursive:1200/0' },
    'id-prefix': { type: 'string', help: 'question id prefix', default: 'gen' },
    out: { type: 'string', help: 'questions JSONL to write' },
    'dry-run': { type: 'boolean', help: 'print the sampled chunk ids and stop' },
    ...LLM_OPTIONS,
  },
  async run(values, positionals, io) {
    let sample;
    let clients;
    try {
      if (!values.dataset || positionals.length) throw new UsageError('expected --dataset DIR (see --help)');
      const n = intOption(values.n, 'n');
      const seed = intOption(values.seed, 'seed', { min: 0 });
      const perDocument = intOption(values['per-document'], 'per-document');
      const minLength = intOption(values['min-length'], 'min-length', { min: 0 });
      const chunker = configChunker(values.chunker);
      let documents;
      try {
        documents = (await loadTuneDataset(values.dataset, datasetOptions(values, io, 'questions', UsageError))).documents;
      } catch (e) {
        if (!(e instanceof DatasetError)) throw e;
        documents = await readDocuments(values.dataset, datasetOptions(values, io, 'questions', UsageError));
      }
      const chunks = [];
      for (const d of documents) {
        for (const c of chunk({ id: d.id, text: d.text }, chunker)) chunks.push({ id: c.id, docId: d.id, text: c.text, start: c.start, end: c.end, title: d.title ?? '' });
      }
      sample = sampleChunks(chunks, { n, seed, minLength, ...(perDocument ? { perDocument } : {}) });
      if (sample.length === 0) throw new UsageError(`no chunk of at least ${minLength} characters to sample`);
      if (!values['dry-run']) {
        if (!values.out) throw new UsageError('--out FILE is required');
        if (!values.model) throw new UsageError('--model is required');
        clients = llmClients(values);
      }
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      io.stderr.write(`ragwasm questions: ${e.message}\n`);
      return 2;
    }
    io.stderr.write(`sampled ${sample.length} chunks from ${new Set(sample.map((c) => c.docId)).size} documents; ${sample.length} LLM calls\n`);
    if (values['dry-run']) {
      io.stdout.write(sample.map((c) => c.id).join('\n') + '\n');
      return 0;
    }
    let r;
    try {
      r = await generateQuestions(clients.clientFor(values.model), sample, { idPrefix: values['id-prefix'] });
    } finally {
      if (values.ledger) writeFileSync(values.ledger, clients.ledger.toJsonl());
    }
    writeFileSync(values.out, r.questions.map((q) => JSON.stringify(q)).join('\n') + (r.questions.length ? '\n' : ''));
    for (const s of r.skipped) io.stderr.write(`skipped ${s.chunkId}: ${s.reason}\n`);
    io.stdout.write(`${r.questions.length} questions written to ${values.out}; ${r.skipped.length} chunks skipped\n`
      + `tokens in ${r.usage.inputTokens}, out ${r.usage.outputTokens}; cost ${r.cost === null ? 'unknown (no price for the model)' : r.cost.toFixed(6)}\n`
      + `${ledgerLine(clients.ledger)}\n`);
    return r.questions.length > 0 ? 0 : 1;
  },
};
