// ragwasm clarify: measures query clarification (ask() with clarify: 'ask') on a labelled set of
// ambiguous and clear questions (examples/corpus/ambiguous.jsonl): detected-ambiguity precision/recall,
// interpretation grounding and coverage (clarificationMetrics in web/src/goldens/clarify.js). Needs a
// real LLM endpoint to say anything about a model; against a test double it checks only the protocol.
import { readFileSync, writeFileSync } from 'node:fs';
import { Collection, PRESETS } from '../../src/index.js';
import { clarificationMetrics, clarifyQuestion, parseAmbiguitySet } from '../../src/llm.js';
import { DatasetError, loadTuneDataset, readDocuments } from '../datasets.mjs';
import { LLM_OPTIONS, ledgerLine, llmClients } from '../lib/llm.mjs';
import { intOption, UsageError } from '../lib/options.mjs';
import { datasetOptions, FILE_LIMIT_OPTIONS } from '../lib/files.mjs';

const fmt = (v) => (v === null ? 'n/a' : v.toFixed(3));

export default {
  name: 'clarify',
  summary: 'measure query clarification on labelled ambiguous questions (detection precision/recall, grounding)',
  usage: 'clarify --dataset DIR --set FILE.jsonl --base-url URL --model NAME [--k 10] [--answer-chunks 5] [--out FILE.jsonl]',
  description: 'DIR holds the documents (a folder like examples/corpus, a BEIR folder or .md/.txt/.html/.pdf/.docx files), indexed with '
    + 'PRESETS.docChatBm25 as `ragwasm ask` does. FILE is JSONL {id, question, ambiguous, interpretations: [{question, doc_ids}]} '
    + '(examples/corpus/ambiguous.jsonl). Each question is retrieved and its top --answer-chunks chunks shown to the clarification step ask() runs with clarify; detection counts a question as '
    + 'flagged when the model named at least 2 interpretations grounded in the shown chunks. A reply that does not parse '
    + 'counts as not flagged and is reported.',
  options: {
    ...FILE_LIMIT_OPTIONS,
    dataset: { type: 'string', help: 'documents folder' },
    set: { type: 'string', help: 'labelled questions JSONL' },
    k: { type: 'string', help: 'chunks retrieved', default: '10' },
    'answer-chunks': { type: 'string', help: 'chunks shown to the clarification step', default: '5' },
    out: { type: 'string', help: 'write per-question results as JSONL' },
    'dry-run': { type: 'boolean', help: 'retrieve only (no LLM call): print the reachable share (the retrieval ceiling of coverage)' },
    ...LLM_OPTIONS,
  },
  async run(values, positionals, io) {
    let set;
    let documents;
    let clients;
    let k;
    let answerChunks;
    try {
      if (!values.dataset || !values.set || positionals.length) throw new UsageError('expected --dataset DIR --set FILE (see --help)');
      if (!values.model && !values['dry-run']) throw new UsageError('--model is required');
      k = intOption(values.k, 'k');
      answerChunks = intOption(values['answer-chunks'], 'answer-chunks');
      set = parseAmbiguitySet(readFileSync(values.set, 'utf8'));
      try {
        documents = (await loadTuneDataset(values.dataset, datasetOptions(values, io, 'clarify', UsageError))).documents;
      } catch (e) {
        if (!(e instanceof DatasetError)) throw e;
        documents = await readDocuments(values.dataset, datasetOptions(values, io, 'clarify', UsageError));
      }
      if (!values['dry-run']) clients = llmClients(values);
    } catch (e) {
      if (!(e instanceof UsageError) && e.code !== 'PARSE_ERROR') throw e;
      io.stderr.write(`ragwasm clarify: ${e.message.replace(/^ragwasm: /, '')}\n`);
      return 2;
    }
    const client = values['dry-run'] ? null : clients.clientFor(values.model);
    const col = await Collection.create(PRESETS.docChatBm25);
    const cases = [];
    const rows = [];
    try {
      await col.add(documents.map((d) => ({ id: d.id, title: d.title ?? '', text: d.text })));
      for (const item of set) {
        // The step ask({clarify}) runs, without the answer calls: retrieve, show the top chunks, ask.
        const hits = (await col.search(item.question, { k })).slice(0, answerChunks);
        let c;
        try {
          c = values['dry-run'] ? { ambiguous: false, interpretations: [], rejected: [], error: null } : hits.length ? await clarifyQuestion(client, { question: item.question, passages: hits.map((h) => ({ id: h.id, text: h.text })) })
            : { ambiguous: false, interpretations: [], rejected: [], error: 'nothing retrieved' };
        } catch (e) {
          if (e.code === 'INVALID_ARGUMENT' || e.code === 'ABORTED' || !e.code) throw e;
          c = { ambiguous: null, interpretations: [], rejected: [], error: `${e.code}: ${e.message}` };  // counted as not flagged, reported
        }
        const docOf = new Map(hits.map((h) => [h.id, h.docId]));
        cases.push({ expected: item, result: c, docOf: (id) => docOf.get(id) ?? '?', shown: hits.map((h) => h.docId) });
        rows.push({ id: item.id, question: item.question, expected: item.ambiguous, ambiguous: c.ambiguous, error: c.error,
          interpretations: c.interpretations.map((it) => ({ question: it.question, chunkIds: it.chunkIds, docIds: [...new Set(it.chunkIds.map((x) => docOf.get(x)))] })),
          rejected: c.rejected });
      }
    } finally {
      col.dispose();
      if (values.ledger && clients) writeFileSync(values.ledger, clients.ledger.toJsonl());
    }
    const m = clarificationMetrics(cases);
    if (values.out) writeFileSync(values.out, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const labelled = set.filter((s) => s.ambiguous).length;
    const reach = `expected interpretations with a document among the ${answerChunks} shown chunks (retrieval ceiling): ${fmt(m.reachable)}`;
    if (values['dry-run']) {
      io.stdout.write(`${m.n} questions (${labelled} labelled ambiguous); dry run, no LLM call\n${reach}\n`);
      return 0;
    }
    io.stdout.write([
      `${m.n} questions (${labelled} labelled ambiguous), model ${values.model}`,
      `detection: precision ${fmt(m.precision)}  recall ${fmt(m.recall)}  F1 ${fmt(m.f1)}  (tp ${m.tp} fp ${m.fp} fn ${m.fn} tn ${m.tn}); unparsed or failed ${m.unparsed}`,
      `interpretations: grounding ${fmt(m.grounding)}  coverage ${fmt(m.coverage)}; rejected (cited a chunk not shown, or none) ${m.rejected}`,
      reach,
      ledgerLine(clients.ledger),
    ].join('\n') + '\n');
    return 0;
  },
};
