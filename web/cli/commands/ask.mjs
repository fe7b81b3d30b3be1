// ragwasm ask --docs DIR "question": doc chat from the command line, through the library's ask()
// (web/src/answer/ask.js), the code path of the demo: files -> fileToDocument -> Collection
// (PRESETS.docChat, BM25 only, or PRESETS.docChatHybrid with --embed-model) -> ask() -> the answer with numbered citations.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, relative } from 'node:path';
import { ask, Collection, createStaticEmbedder, PRESETS } from '../../src/index.js';
import { commandConfig } from '../lib/config.mjs';
import { fileToDocument } from '../../src/parse.js';
import { createLlmClient } from '../../src/llm.js';
import { SUPPORTED_FORMATS } from '../../src/parse.js';

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

// A folder of documents: a dataset (manifest.json: [{id, file, title}]) or every supported file below it.
async function readDocs(dir, io) {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--docs: ${dir} is not a folder`);
  const manifestPath = join(dir, 'manifest.json');
  if (existsSync(manifestPath)) {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    if (!Array.isArray(manifest)) throw new UsageError(`${manifestPath}: expected a JSON array of {id, file, title}`);
    const docs = [];
    for (const m of manifest) {
      const d = await fileToDocument({ name: m.file, data: readFileSync(join(dir, m.file)) }, { id: String(m.id) });
      if (typeof m.title === 'string') d.title = m.title;
      docs.push(d);
    }
    return docs;
  }
  const files = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.name.startsWith('.')) continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else files.push(p);
    }
  };
  walk(dir);
  const docs = [];
  for (const p of files) {
    const ext = extname(p).slice(1).toLowerCase();
    if (!SUPPORTED_FORMATS[ext]) {
      io.stderr.write(`ragwasm ask: skipped ${relative(dir, p)} (unsupported file type; supported: ${Object.keys(SUPPORTED_FORMATS).map((x) => '.' + x).join(' ')})\n`);
      continue;
    }
    try {
      docs.push(await fileToDocument({ name: relative(dir, p), data: readFileSync(p) }));
    } catch (e) {
      io.stderr.write(`ragwasm ask: skipped ${relative(dir, p)} (${e.code ?? 'ERROR'}: ${e.message})\n`);
    }
  }
  return docs;
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

// The --json object of the issue: {id, question, answer, abstained, citations, hits}.
export function jsonResult(id, r) {
  return {
    id, question: r.question, answer: r.answer, abstained: r.abstained,
    citations: r.citations.map((c) => ({ n: c.n, docId: c.docId, chunkId: c.chunkId, start: c.start, end: c.end, text: c.text })),
    hits: r.hits.slice(0, 10).map((h) => ({ docId: h.docId, chunkId: h.chunkId, start: h.start, end: h.end, score: h.score, text: h.text })),
  };
}

function printText(io, r, streamed) {
  if (r.query !== r.question) io.stdout.write(`(searched for: ${r.query})\n`);
  if (!streamed) io.stdout.write(`${r.answer}\n`);
  else io.stdout.write('\n');
  for (const c of r.citations) {
    const snippet = c.text.replace(/\s+/g, ' ').trim();
    io.stdout.write(`  [${c.n}] ${c.docId} ${c.start}-${c.end}: ${snippet.length > 160 ? snippet.slice(0, 157) + '...' : snippet}\n`);
  }
}

export default {
  name: 'ask',
  summary: 'answer questions from a folder of documents (extractive, or an LLM with --base-url) with citations',
  usage: 'ask (--docs DIR | --load NAME) ["question" | --questions FILE.jsonl] [--json] [--config FILE] [--base-url URL --model M] [--save NAME]',
  description: 'DIR holds .md/.txt/.html/.pdf/.docx files (other files are skipped with a message) or is a dataset folder '
    + 'with manifest.json ([{id, file, title}], as examples/corpus). Documents are chunked and indexed with the doc-chat '
    + 'preset (PRESETS.docChat, BM25 only; PRESETS.docChatHybrid with --embed-model FILE, a static model). Without --base-url the answer '
    + 'is extractive (plain-text sentences or table rows of the documents, or "Your documents don\'t say."); with '
    + '--base-url and --model an LLM writes it, streamed, with [n] citations. --json prints one object per question: '
    + '{id, question, answer, abstained, citations: [{n, docId, chunkId, start, end, text}], hits: [{docId, chunkId, start, '
    + 'end, score, text}]} (start/end: UTF-16 offsets into the document text; hits: the top 10 chunks). --save/--load keep '
    + 'the collection in --store (default ./.ragwasm-store).',
  options: {
    docs: { type: 'string', help: 'folder of documents or a dataset folder with manifest.json' },
    questions: { type: 'string', help: 'JSONL file of {"id", "question"} lines' },
    json: { type: 'boolean', help: 'one JSON object per question' },
    k: { type: 'string', short: 'k', default: '10', help: 'hits retrieved (1..100)' },
    'answer-chunks': { type: 'string', help: 'top hits the answerer reads (default 5)' },
    threshold: { type: 'string', help: 'extractive abstention threshold in [0, 1] (default: the preset\'s)' },
    'embed-model': { type: 'string', help: 'static model file: index with PRESETS.docChatHybrid instead of BM25 only (PRESETS.docChat)' },
    config: { type: 'string', help: 'pipeline config JSON file to index with instead of PRESETS.docChat (e.g. PRESETS.docChatExpansion\'s; '
      + 'a relative retrieval.expansion.model is read from the config file\'s folder)' },
    'base-url': { type: 'string', help: 'LLM endpoint (OpenAI-compatible or Anthropic) for generated answers' },
    model: { type: 'string', help: 'LLM model name (with --base-url)' },
    provider: { type: 'string', default: 'openai', help: 'openai or anthropic' },
    'api-key-env': { type: 'string', help: 'environment variable holding the API key (default OPENAI_API_KEY / ANTHROPIC_API_KEY)' },
    save: { type: 'string', help: 'save the collection under this name' },
    load: { type: 'string', help: 'load a saved collection instead of indexing --docs' },
    store: { type: 'string', help: 'folder of saved collections (default ./.ragwasm-store)' },
  },
  async run(values, positionals, io) {
    let col;
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
      const questions = values.questions !== undefined ? readQuestions(values.questions) : [{ id: '1', question: positionals[0] }];
      const storage = values.store === undefined ? {} : { dir: values.store };

      let embedder;
      if (values['embed-model'] !== undefined) {
        if (!existsSync(values['embed-model'])) throw new UsageError(`--embed-model: ${values['embed-model']} not found`);
        embedder = await createStaticEmbedder({ model: readFileSync(values['embed-model']), cache: false });
      }
      if (values.load !== undefined) {
        col = await Collection.load(values.load, { ...storage, ...(embedder ? { embedder } : {}) });
      } else {
        const docs = await readDocs(values.docs, io);
        if (docs.length === 0) throw new UsageError(`--docs: no readable documents in ${values.docs}`);
        const config = values.config === undefined ? (embedder ? PRESETS.docChatHybrid : PRESETS.docChat) : askConfig(values, io);
        col = await Collection.create(config, embedder && (config.indexes.dense || config.chunker.strategy === 'semantic') ? { embedder } : {});
        await col.add(docs);
      }
      if (values.save !== undefined) await col.save(values.save, storage);

      for (const q of questions) {
        const stream = !!askOptions.llm && !values.json;
        const r = await ask(col, q.question, { ...askOptions, ...(stream ? { onText: (t) => io.stdout.write(t) } : {}) });
        if (values.json) io.stdout.write(JSON.stringify(jsonResult(q.id, r)) + '\n');
        else {
          if (questions.length > 1) io.stdout.write(`\n${q.id}. ${q.question}\n`);
          printText(io, r, stream);
        }
      }
      return 0;
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      io.stderr.write(`ragwasm ask: ${e.message}\n`);
      return 2;
    } finally {
      col?.dispose();
    }
  },
};
