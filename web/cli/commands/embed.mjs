// ragwasm embed: texts -> vectors, as JSON lines or a binary float32 matrix. Default model: the static
// GloVe model of the ragwasm-static-model package (built by `node scripts/build-assets.mjs`).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createStaticEmbedder, Tokenizer } from '../../src/index.js';
import { createOnnxEmbedder } from '../../src/onnx.js';

import { DEFAULT_MODEL } from '../lib/retrievers.mjs';
const MANIFEST = fileURLToPath(new URL('../../../models/manifest.json', import.meta.url));

export default {
  name: 'embed',
  summary: 'embed texts into vectors (JSON lines or binary float32)',
  usage: 'embed [--input FILE|-] [--format jsonl|binary] [--output FILE] [--model FILE | --onnx FILE --tokenizer FILE] [TEXT...]',
  description: 'Texts are the positional arguments, or one per line of --input (- = stdin). JSON lines: '
    + '{"index": i, "vector": [...]}. Binary: u32 rows, u32 dims (little-endian), then rows*dims float32. '
    + 'Without --onnx the static model is used (default: the ragwasm-static-model package; in a checkout '
    + 'build it with `node scripts/build-assets.mjs`). --onnx runs a sentence-embedding model with onnxruntime '
    + '(tokenizer.json from --tokenizer) with mean pooling and L2 normalization; --model-name NAME takes the '
    + 'pooling, max length and query/document prefixes of that models/manifest.json entry (options given win).',
  options: {
    input: { type: 'string', help: 'file with one text per line, - for stdin' },
    format: { type: 'string', help: 'jsonl or binary', default: 'jsonl' },
    output: { type: 'string', help: 'write here instead of stdout (binary needs it unless stdout is a pipe)' },
    model: { type: 'string', help: 'static model file (RWSTATIC)', default: DEFAULT_MODEL },
    onnx: { type: 'string', help: 'ONNX sentence-embedding model instead of the static model' },
    tokenizer: { type: 'string', help: 'tokenizer.json for --onnx' },
    'model-name': { type: 'string', help: 'with --onnx: a models/manifest.json model whose settings are the defaults' },
    pooling: { type: 'string', help: 'mean, cls or none (with --onnx; default mean)' },
    'max-length': { type: 'string', help: 'tokens per text with --onnx (default 512)' },
    kind: { type: 'string', help: 'query or document (selects --query-prefix / --document-prefix)', default: 'document' },
    'query-prefix': { type: 'string', help: 'prefix for queries with --onnx (e.g. "query: "; default none)' },
    'document-prefix': { type: 'string', help: 'prefix for documents with --onnx (e.g. "passage: "; default none)' },
  },
  async run(values, positionals, io) {
    let texts = positionals;
    if (values.input !== undefined) {
      if (positionals.length) {
        io.stderr.write('ragwasm embed: give texts either as arguments or with --input, not both\n');
        return 2;
      }
      const raw = values.input === '-' ? readFileSync(0, 'utf8') : readFileSync(values.input, 'utf8');
      texts = raw.split(/\r?\n/);
      if (texts.length && texts[texts.length - 1] === '') texts.pop();
    }
    if (texts.length === 0) {
      io.stderr.write('ragwasm embed: no texts (give TEXT arguments or --input FILE)\n');
      return 2;
    }
    if (!['jsonl', 'binary'].includes(values.format)) {
      io.stderr.write(`ragwasm embed: --format: expected jsonl or binary, got '${values.format}'\n`);
      return 2;
    }
    let vectors;
    if (values.onnx !== undefined) {
      if (values.tokenizer === undefined) {
        io.stderr.write('ragwasm embed: --onnx needs --tokenizer tokenizer.json\n');
        return 2;
      }
      const maxLength = values['max-length'] === undefined ? undefined : Number(values['max-length']);
      const tokenizer = Tokenizer.fromTokenizerJson(readFileSync(values.tokenizer));
      let ort;
      try {
        ort = await import('onnxruntime-node');
      } catch {
        ort = undefined;  // falls back to onnxruntime-web
      }
      const settings = { pooling: values.pooling, maxLength, queryPrefix: values['query-prefix'], documentPrefix: values['document-prefix'] };
      for (const k of Object.keys(settings)) if (settings[k] === undefined) delete settings[k];
      if (values['model-name'] !== undefined) {
        settings.name = values['model-name'];
        settings.manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'));
      }
      const e = await createOnnxEmbedder({ model: pathToFileURL(resolve(values.onnx)), tokenizer, ...settings, ...(ort ? { ort } : {}) });
      vectors = await e.embed(texts, { kind: values.kind });
      await e.dispose();
      tokenizer.dispose();
    } else {
      if (!existsSync(values.model)) {
        io.stderr.write(`ragwasm embed: static model not found at ${values.model}; install the default model with \`npm install ragwasm-static-model\` (in a repository checkout: \`node scripts/build-assets.mjs\`)\n`);
        return 1;
      }
      const e = await createStaticEmbedder({ model: readFileSync(values.model) });
      vectors = await e.embed(texts, { kind: values.kind });  // the embedder contract; the static model has no prefixes
      e.dispose();
    }
    let out;
    if (values.format === 'jsonl') {
      out = vectors.map((v, i) => JSON.stringify({ index: i, vector: Array.from(v) })).join('\n') + '\n';
    } else {
      const dims = vectors[0].length;
      const buf = new ArrayBuffer(8 + 4 * dims * vectors.length);
      const dv = new DataView(buf);
      dv.setUint32(0, vectors.length, true);
      dv.setUint32(4, dims, true);
      const f = new Float32Array(buf, 8);
      vectors.forEach((v, i) => f.set(v, i * dims));
      out = new Uint8Array(buf);
    }
    if (values.output !== undefined) writeFileSync(values.output, out);
    else io.stdout.write(out);
    return 0;
  },
};
