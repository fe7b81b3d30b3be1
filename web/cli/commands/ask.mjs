// ragwasm ask --docs DIR "question": doc chat from the command line, through the library's ask()
// (web/src/answer/ask-question.js), the code path of the demo: files -> fileToDocument -> Collection
// (PRESETS.docChat, BM25 only; PRESETS.docChatNeural with --neural NAME; PRESETS.docChatHybrid with --embed-model; or
// --config FILE) -> ask() -> the answer with numbered citations.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { ask, Collection, createStaticEmbedder, createWordNeighbours, PRESETS, suggestWords } from '../../src/index.js';
import { readDocumentFolder } from '../../src/parse.js';
import { commandConfig } from '../lib/config.mjs';
import { createLlmClient } from '../../src/llm.js';
import { FILE_LIMIT_OPTIONS, fileLimitsFrom } from '../lib/files.mjs';

class UsageError extends Error {}

// --config FILE: the pipeline config (lib/config.mjs), a relative expansion model path read from the file's folder.
function askConfig(values, io) {
  let config;
  try {
    ({ config } = commandConfig(values, [], { stderr: io.stderr, command: 'ragwasm ask' }));
  } catch (e) {
    throw new UsageError(e.message);
  }
  const x = config.retrieval.expansion;
  if (x?.model && !isAbsolute(x.model) && !/^[a-z][a-z0-9+.-]*:/i.test(x.model)) {
    return { ...config, retrieval: { ...config.retrieval, expansion: { ...x, model: join(dirname(values.config), x.model) } } };
  }
  return config;
}

// A folder of documents: a dataset (manifest.json: [{id, file, title}]) or every supported file below
// it, through the library's folder reader (paths confined to the folder, regular files only, size and
// decompression limits: issue #33); a file that cannot be read is named on stderr and left out.
async function readDocs(dir, io, limits) {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--docs: ${dir} is not a folder`);
  const { documents, errors } = await readDocumentFolder(dir, limits ? { limits } : {});
  for (const f of errors) io.stderr.write(`ragwasm ask: skipped ${f.file} (${f.code === 'INVALID_ARGUMENT' && /^unsupported file type/.test(f.message) ? f.message : `${f.code}: ${f.message}`})\n`);
  return documents;
}

function readQuestions(path) {
  return readFileSync(path, 'utf8').split(/\r?\n/).map((l, i) => [l, i]).filter(([l]) => l.trim()).map(([l, i]) => {
    let q;
    try {
      q = JSON.parse(l);
    } catch (e) {
      throw new UsageError(`${path}:${i + 1}: not JSON (${e.message})`);
    }
    if (typeof q?.question !== 'string' || !q.question.trim()) throw new UsageError(`${path}:${i + 1}: expected {"id"?, "question": "..."}`);
    return { id: q.id === undefined ? String(i + 1) : String(q.id), question: q.question };
  });
}

// The --json object: {id, question, answer, outcome, abstained, evidence, unmatched, suggestions (--suggest), citations, passages, hits}.
export function jsonResult(id, r, suggestions) {
  return {
    id, question: r.question, answer: r.answer, outcome: r.outcome, abstained: r.abstained, evidence: r.evidence, unmatched: r.unmatched,
    ...(suggestions ? { suggestions } : {}),
    citations: r.citations.map((c) => ({ n: c.n, docId: c.docId, chunkId: c.chunkId, start: c.start, end: c.end, text: c.text })),
    passages: r.passages.map((p) => ({ docId: p.docId, chunkId: p.chunkId, start: p.start, end: p.end, best: p.best })),
    hits: r.hits.slice(0, 10).map((h) => ({ docId: h.docId, chunkId: h.chunkId, start: h.start, end: h.end, score: h.score, text: h.text })),
  };
}

const oneLine = (text, max = 160) => {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? t.slice(0, max - 3) + '...' : t;
};

// The three outcomes of ask() (docs/docchat.md, "Three outcomes"): an answer with its citations; the closest
// passages with their best sentence; or "Your documents don't say." with what was searched.
function printText(io, r, streamed, suggestions) {
  if (r.query !== r.question) io.stdout.write(`(searched for: ${r.query})\n`);
  if (r.outcome === 'answer') {
    io.stdout.write(streamed ? '\n' : `${r.answer}\n`);
    for (const c of r.citations) io.stdout.write(`  [${c.n}] ${c.docId} ${c.start}-${c.end}: ${oneLine(c.text)}\n`);
    return;
  }
  if (streamed) io.stdout.write('\n');
  const unused = (r.unmatched?.length ? `  (no document uses: ${r.unmatched.join(', ')}; ask with the words your documents use)\n` : '')
    + (suggestions ?? []).map((s) => `  ${s.word} -> ${s.suggestions.length ? s.suggestions.map((x) => x.word).join(', ') : '(no close word in the documents)'}\n`).join('');
  if (r.outcome === 'passages') {
    io.stdout.write(`${r.answer}\n`);
    r.passages.forEach((p, i) => {
      const where = p.best ? `${p.best.start}-${p.best.end}` : `${p.start}-${p.end}`;
      io.stdout.write(`  ${i + 1}. ${p.docId} ${where}: > ${oneLine(p.best ? p.best.text : p.text)}\n`);
    });
    io.stdout.write(unused);
    return;
  }
  io.stdout.write(`${r.answer}\n  (nothing in the documents matches: searched for "${r.query}")\n${unused}`);
}

export default {
  name: 'ask',
  summary: 'answer questions from a folder of documents (extractive, or an LLM with --base-url) with citations',
  usage: 'ask (--docs DIR | --load NAME) ["question" | --questions FILE.jsonl] [--json] [--config FILE] [--neural NAME] [--base-url URL --model M] [--save NAME] [--suggest]',
  description: 'DIR holds .md/.txt/.html/.pdf/.docx files (other files are skipped with a message) or is a dataset folder '
    + 'with manifest.json ([{id, file, title}], as examples/corpus). Documents are chunked and indexed with the doc-chat '
    + 'preset (PRESETS.docChat, BM25 only; PRESETS.docChatNeural with --neural NAME, a neural model of models/manifest.json fetched '
    + 'from the model hub once and cached; PRESETS.docChatHybrid with --embed-model FILE, a static model; or the pipeline config of --config FILE). Without --base-url the answer '
    + 'is extractive (a plain-text sentence or table row of the documents); with --base-url and --model an LLM writes it, '
    + 'streamed, with [n] citations. Each question has one of three outcomes: answer (with its citations), passages (no '
    + 'sentence answers it: the closest passages, each with its best sentence, and no claim about the documents) or '
    + 'not-found ("Your documents don\'t say.": nothing in the documents matches the question). --json prints one object per '
    + 'question: {id, question, answer, outcome, abstained, evidence, unmatched (the question\'s words no document uses), citations: [{n, docId, chunkId, start, end, text}], '
    + 'passages: [{docId, chunkId, start, end, best: {start, end, text}|null}], hits: [{docId, chunkId, start, end, score, '
    + 'text}]} (start/end: UTF-16 offsets into the document text; hits: the top 10 chunks; evidence: the share of the '
    + 'question\'s terms found in the passages read). --save/--load keep '
    + 'the collection in --store (default ./.ragwasm-store).',
  options: {
    docs: { type: 'string', help: 'folder of documents or a dataset folder with manifest.json' },
    questions: { type: 'string', help: 'JSONL file of {"id", "question"} lines' },
    json: { type: 'boolean', help: 'one JSON object per question' },
    k: { type: 'string', short: 'k', default: '10', help: 'hits retrieved (1..100)' },
    'answer-chunks': { type: 'string', help: 'top hits the answerer reads (default 5)' },
    threshold: { type: 'string', help: 'extractive abstention threshold in [0, 1] (default: the preset\'s)' },
    neural: { type: 'string', help: 'a neural model of models/manifest.json by name (e.g. bge-small-en-v1.5): downloaded from the model hub once, '
      + 'cached ($RAGWASM_CACHE, else ~/.cache/ragwasm), indexed with PRESETS.docChatNeural (BM25 + its dense leg)' },
    'hub-url': { type: 'string', help: 'with --neural: the model hub (default https://huggingface.co; a mirror laid out like it)' },
    'embed-model': { type: 'string', help: 'static model file: index with PRESETS.docChatHybrid instead of BM25 only (PRESETS.docChat)' },
    config: { type: 'string', help: 'pipeline config JSON file to index with instead of PRESETS.docChat (e.g. PRESETS.docChatExpansion\'s; '
      + 'a relative retrieval.expansion.model is read from the config file\'s folder)' },
    'base-url': { type: 'string', help: 'LLM endpoint (OpenAI-compatible or Anthropic) for generated answers' },
    model: { type: 'string', help: 'LLM model name (with --base-url)' },
    provider: { type: 'string', default: 'openai', help: 'openai or anthropic' },
    'llm-expansion': { type: 'string', help: 'hyde or query2doc: the LLM (--base-url) writes a passage searched with the question (pipeline config retrieval.llmExpansion; with --docs)' },
    'api-key-env': { type: 'string', help: 'environment variable holding the API key (default OPENAI_API_KEY / ANTHROPIC_API_KEY)' },
    save: { type: 'string', help: 'save the collection under this name' },
    load: { type: 'string', help: 'load a saved collection instead of indexing --docs' },
    store: { type: 'string', help: 'folder of saved collections (default ./.ragwasm-store)' },
    suggest: { type: 'boolean', help: 'for a question without an answer, words the documents use for each of its words they do not (the default static model\'s nearest words: suggestWords)' },
    ...FILE_LIMIT_OPTIONS,
  },
  async run(values, positionals, io) {
    let col, embedder;
    try {
      if ((values.docs === undefined) === (values.load === undefined)) throw new UsageError('expected exactly one of --docs DIR / --load NAME');
      if ((positionals.length === 1) === (values.questions !== undefined) || positionals.length > 1) {
        throw new UsageError('expected one question (in quotes) or --questions FILE.jsonl');
      }
      const k = Number(values.k);
      if (!Number.isInteger(k) || k < 1 || k > 100) throw new UsageError(`-k: expected an integer in 1..100, got '${values.k}'`);
      const askOptions = { k, ...PRESETS.docChatAnswer };
      if (askOptions.answerChunks > k) askOptions.answerChunks = k;
      if (values['answer-chunks'] !== undefined) {
        const n = Number(values['answer-chunks']);
        if (!Number.isInteger(n) || n < 1 || n > k) throw new UsageError(`--answer-chunks: expected an integer in 1..${k}, got '${values['answer-chunks']}'`);
        askOptions.answerChunks = n;
      }
      if (values.threshold !== undefined) {
        const t = Number(values.threshold);
        if (!(t >= 0 && t <= 1)) throw new UsageError(`--threshold: expected a number in [0, 1], got '${values.threshold}'`);
        askOptions.threshold = t;
      }
      if ((values['base-url'] === undefined) !== (values.model === undefined)) throw new UsageError('--base-url and --model go together');
      if (values['base-url'] !== undefined) {
        const apiKey = process.env[values['api-key-env'] ?? (values.provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY')] || undefined;
        askOptions.llm = createLlmClient({ provider: values.provider, baseUrl: values['base-url'], model: values.model, apiKey });
      }
      if (values['llm-expansion'] !== undefined && (values['base-url'] === undefined || values.docs === undefined)) {
        throw new UsageError('--llm-expansion needs --base-url/--model and --docs (a --load collection keeps the config it was saved with)');
      }
      const questions = values.questions !== undefined ? readQuestions(values.questions) : [{ id: '1', question: positionals[0] }];
      const storage = values.store === undefined ? {} : { dir: values.store };

      if (values.neural !== undefined && values['embed-model'] !== undefined) throw new UsageError('give one of --neural NAME / --embed-model FILE');
      if (values['hub-url'] !== undefined && values.neural === undefined) throw new UsageError('--hub-url goes with --neural NAME');
      // --config is read before any model is fetched, so a config with no use for --neural fails first.
      const fileConfig = values.config !== undefined && values.docs !== undefined ? askConfig(values, io) : undefined;
      const usesModel = (config) => !!(config.indexes.dense || config.chunker?.strategy === 'semantic');
      if (values.neural !== undefined && fileConfig && !usesModel(fileConfig)) {
        throw new UsageError('--neural: the --config has no dense index (indexes.dense) or semantic chunker to use the model for');
      }
      if (values.neural !== undefined) {
        const { createOnnxEmbedder, MODEL_MANIFEST } = await import('../../src/onnx.js');
        if (!Object.hasOwn(MODEL_MANIFEST.models, values.neural)) {
          throw new UsageError(`--neural: unknown model '${values.neural}' (one of ${Object.keys(MODEL_MANIFEST.models).join(', ')})`);
        }
        let last = '';
        const onProgress = values.json ? undefined : ({ file, loaded, total, cached }) => {
          const line = `${cached ? 'cached' : 'downloading'} ${file}${total ? ` ${Math.round((100 * loaded) / total)} %` : ''}`;
          if (line !== last) io.stderr.write(`ragwasm ask: ${line}\n`);
          last = line;
        };
        embedder = await createOnnxEmbedder(values.neural, { ...(values['hub-url'] !== undefined ? { hubUrl: values['hub-url'] } : {}), ...(onProgress ? { onProgress } : {}) });
      } else if (values['embed-model'] !== undefined) {
        if (!existsSync(values['embed-model'])) throw new UsageError(`--embed-model: ${values['embed-model']} not found`);
        embedder = await createStaticEmbedder({ model: readFileSync(values['embed-model']), cache: false });
      }
      if (values.load !== undefined) {
        col = await Collection.load(values.load, { ...storage, ...(embedder ? { embedder } : {}) });
      } else {
        const docs = await readDocs(values.docs, io, fileLimitsFrom(values, UsageError));
        if (docs.length === 0) throw new UsageError(`--docs: no readable documents in ${values.docs}`);
        const preset = values.neural !== undefined ? PRESETS.docChatNeural : embedder ? PRESETS.docChatHybrid : PRESETS.docChat;
        const base = fileConfig ?? preset;
        const config = values['llm-expansion'] === undefined ? base
          : { ...base, retrieval: { ...base.retrieval, llmExpansion: values['llm-expansion'] } };  // validated by Collection.create
        col = await Collection.create(config, embedder && usesModel(config) ? { embedder } : {});
        await col.add(docs);
      }
      if (values.save !== undefined) await col.save(values.save, storage);

      let words = null;  // --suggest: the default static model's word table, read at the first question that needs it
      for (const q of questions) {
        const stream = !!askOptions.llm && !values.json;
        const r = await ask(col, q.question, { ...askOptions, ...(stream ? { onText: (t) => io.stdout.write(t) } : {}) });
        let suggestions;
        if (values.suggest && r.outcome !== 'answer' && r.unmatched?.length) {
          words ??= await createWordNeighbours();
          suggestions = suggestWords(col, r.query, { words });
        }
        if (values.json) io.stdout.write(JSON.stringify(jsonResult(q.id, r, suggestions)) + '\n');
        else {
          if (questions.length > 1) io.stdout.write(`\n${q.id}. ${q.question}\n`);
          printText(io, r, stream, suggestions);
        }
      }
      words?.dispose();
      return 0;
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      io.stderr.write(`ragwasm ask: ${e.message}\n`);
      return 2;
    } finally {
      col?.dispose();
      await embedder?.dispose?.();
    }
  },
};
