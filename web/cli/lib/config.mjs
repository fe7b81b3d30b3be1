// One pipeline config for every command (issue 16): `--config FILE` is read here, and each command's
// flags that name a setting of the pipeline are overrides of a config path, from the one table
// below. A flag that replaces a value the config file set is said once on stderr ("flag wins").
// The merging and validation are the library's (applyConfigOverrides); this only maps flags.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { applyConfigOverrides, llmContextSteps, RagwasmError } from '../../src/index.js';
import { createLlmClient } from '../../src/llm.js';
import { intOption, parseChunker, UsageError } from './options.mjs';

const NONE_CHUNKER = { strategy: 'recursive', chunkSize: 100000000, chunkOverlap: 0 };

/**
 * Flag -> config paths. `paths(value, raw)` returns [[path, value], ...] for the flag's value (raw =
 * the config as written, for flags whose meaning depends on what it already has).
 */
export const CONFIG_FLAGS = {
  chunker: {
    help: 'chunker.strategy/chunkSize/chunkOverlap: NAME[:SIZE[/OVERLAP]] (e.g. recursive:1800/300, markdown-header:1000) or none (whole documents)',
    paths: (v) => {
      const c = parseChunker(v);
      const o = c ?? NONE_CHUNKER;
      const out = [['chunker.strategy', o.strategy]];
      if (o.chunkSize !== undefined) out.push(['chunker.chunkSize', o.chunkSize]);
      if (o.chunkOverlap !== undefined) out.push(['chunker.chunkOverlap', o.chunkOverlap]);
      return out;
    },
  },
  'chunk-size': { help: 'chunker.chunkSize', paths: (v) => [['chunker.chunkSize', intOption(v, 'chunk-size')]] },
  k: { help: 'retrieval.k: chunks retrieved and given to the answerer (0 = no retrieval)', paths: (v) => [['retrieval.k', intOption(v, 'k', { min: 0 })]] },
  retriever: {
    help: 'retrieval.retrievers and indexes: bm25, dense or hybrid (the config\'s options of those indexes are kept)',
    paths: (v, raw) => {
      const legs = { bm25: ['bm25'], dense: ['dense'], hybrid: ['bm25', 'dense'] }[v];
      if (!legs) throw new UsageError(`--retriever: expected one of bm25, dense, hybrid, got '${v}'`);
      // Exactly the indexes of these legs, with the options the config gives them.
      const out = [['retrieval.retrievers', legs], ['indexes', Object.fromEntries(legs.map((l) => [l, raw?.indexes?.[l] ?? {}]))]];
      return out;
    },
  },
  answerer: {
    help: 'answerer.type: extractive, llm or none',
    paths: (v) => {
      if (!['extractive', 'llm', 'none'].includes(v)) throw new UsageError(`--answerer: expected extractive, llm or none, got '${v}'`);
      return [['answerer.type', v]];
    },
  },
  judges: {
    help: 'judges.triad: triad (context relevance, answer relevance, groundedness; needs the judge endpoint) or none',
    paths: (v) => {
      if (!['triad', 'none'].includes(v)) throw new UsageError(`--judges: expected triad or none, got '${v}'`);
      return [['judges.triad', v === 'triad']];
    },
  },
  'rerank-model': {
    help: 'rerank with this cross-encoder (.onnx file; tokenizer.json beside it or in its parent folder): rerank.enabled, rerank.type cross-encoder, rerank.model',
    paths: (v) => [['rerank.enabled', true], ['rerank.type', 'cross-encoder'], ['rerank.model', v]],
  },
};

/** The option declarations of `names` (for a command's `options`), with their config paths in the help. */
export function configOptions(names, extraHelp = {}) {
  const out = { config: { type: 'string', help: 'pipeline config JSON file (parsePipelineConfig; docs/fusion.md); the flags below override its paths' } };
  for (const n of names) out[n] = { type: 'string', help: `${extraHelp[n] ? `${extraHelp[n]}; ` : ''}overrides ${CONFIG_FLAGS[n].help}` };
  return out;
}

/**
 * The pipeline config of a command: --config FILE (or `base` when there is none) with the given
 * flags applied as overrides. Writes one line per flag that replaced a value of the file to `stderr`.
 * @param {object} values parsed flags
 * @param {string[]} names the flags of CONFIG_FLAGS this command maps
 * @param {{base?: object, stderr?: {write: Function}, command?: string}} [o] base: the command's own default
 *   config, used without --config
 * @returns {{config: object, raw: object, changed: object[], file: string|undefined}}
 * @throws {UsageError} unreadable file, malformed config or flag (the message names the JSON path or the flag)
 */
export function commandConfig(values, names, { base, stderr, command = 'ragwasm' } = {}) {
  let text;
  if (values.config !== undefined) {
    try {
      text = readFileSync(values.config, 'utf8');
    } catch (e) {
      throw new UsageError(`--config ${values.config}: cannot read (${e.code ?? e.message})`);
    }
  }
  const given = text === undefined ? base : text;
  let raw = {};
  if (typeof given === 'string') {
    try { raw = JSON.parse(given); } catch { raw = {}; }
  } else if (given) raw = given;
  const overrides = [];
  for (const n of names) {
    if (values[n] === undefined) continue;
    for (const [path, value] of CONFIG_FLAGS[n].paths(values[n], raw)) overrides.push({ path, value, source: `--${n}` });
  }
  let r;
  try {
    r = applyConfigOverrides(given, overrides);
  } catch (e) {
    if (!(e instanceof RagwasmError)) throw e;
    const where = values.config !== undefined ? `--config ${values.config}: ` : '';
    throw new UsageError(`${where}${e.message.replace(/^ragwasm: /, '')} [${e.code}]`);
  }
  if (values.config !== undefined) {
    const said = new Set();
    for (const c of r.changed) {
      const line = `${command}: ${c.source} overrides ${c.path} ${JSON.stringify(c.from)} of ${values.config} with ${JSON.stringify(c.to)}`;
      if (!said.has(line)) stderr?.write(`${line}\n`);
      said.add(line);
    }
  }
  return { ...r, file: values.config };
}

/**
 * The tokenizer.json of a cross-encoder model file: beside it or in its parent folder (the Hugging
 * Face layout MODEL/onnx/model.onnx + MODEL/tokenizer.json).
 * @throws {UsageError} not found
 */
export function rerankTokenizerPath(modelPath, explicit) {
  if (explicit !== undefined) return explicit;
  for (const dir of [dirname(modelPath), dirname(dirname(modelPath))]) {
    const p = join(dir, 'tokenizer.json');
    if (existsSync(p)) return p;
  }
  throw new UsageError(`rerank.model ${modelPath}: no tokenizer.json beside it or in its parent folder (give --rerank-tokenizer FILE)`);
}

/**
 * The folder a config's relative `rerank.model` is resolved from: the folder of the file that set it
 * (`file`), unless the --rerank-model flag set it (then the working folder, as every flag's path).
 * @param {object} values parsed flags
 * @param {string} [file] the config or grid file the model path came from
 * @returns {string|undefined} undefined: the working folder
 */
export function configFileBase(values, file) {
  return values['rerank-model'] === undefined && file !== undefined ? dirname(file) : undefined;
}

/**
 * The reranker function the config's rerank section describes, or undefined when rerank is off.
 * cross-encoder: rerank.model (an .onnx file) through ragwasm/onnx, a relative path resolved from
 * `baseDir` (the folder of the file that set it: configFileBase) or the working folder; llm:
 * `llmClient()` (the command's endpoint flags) through createLlmReranker. Returns {reranker, dispose}.
 * @throws {UsageError} rerank enabled without what it needs
 */
export async function configReranker(config, { tokenizer, llmClient, baseDir } = {}) {
  const r = config.rerank;
  if (!r.enabled || config.retrieval.k === 0) return undefined;
  if (r.type === 'cross-encoder') {
    if (!r.model) throw new UsageError('rerank.type cross-encoder: rerank.model names no model file (set it in the config or give --rerank-model FILE)');
    const model = baseDir === undefined || isAbsolute(r.model) ? r.model : join(baseDir, r.model);
    if (!existsSync(model)) {
      throw new UsageError(`rerank.model: ${r.model} not found${model === r.model ? '' : ` (relative to the file that sets it: ${resolve(model)})`}`);
    }
    const { createCrossEncoderReranker } = await import('../../src/onnx.js');
    const ce = await createCrossEncoderReranker({ model: readFileSync(model), tokenizer: { tokenizerJson: readFileSync(rerankTokenizerPath(model, tokenizer), 'utf8') }, cache: false });
    return { reranker: ce.reranker, dispose: () => ce.dispose?.() };
  }
  if (r.type === 'llm') {
    if (!llmClient) throw new UsageError('rerank.type llm: this command has no LLM endpoint for it (use ragwasm experiment with answer.reranker)');
    const { createLlmReranker } = await import('../../src/llm.js');
    return { reranker: createLlmReranker(llmClient()).reranker, dispose: () => {} };
  }
  throw new UsageError(`rerank.type ${r.type}: a custom reranker is a function given through the API (Collection.search({reranker})), not a config file`);
}

/** The flags of the endpoint that writes a config's LLM context steps (eval, tune). */
export const CONTEXT_ENDPOINT_OPTIONS = Object.freeze({
  'context-url': { type: 'string', help: 'an OpenAI-protocol endpoint (e.g. http://127.0.0.1:8080/v1) for the config\'s LLM context steps (chunker.context.llmSummary / llmChunkContext)' },
  'context-model': { type: 'string', help: 'with --context-url: the model name', default: 'context' },
  'context-api-key-env': { type: 'string', help: 'with --context-url: environment variable holding its API key' },
});

/**
 * The config's first LLM context step (llmContextSteps), or undefined; a step needs --context-url.
 * @throws {UsageError} the config asks for a step and --context-url is not given (names the key)
 */
export function contextStep(values, config) {
  const step = llmContextSteps(config)[0];
  if (step && values['context-url'] === undefined) throw new UsageError(`${step.path}: the config asks for an LLM step: give its endpoint with --context-url (and --context-model)`);
  return step;
}

/** The LlmClient of --context-url (CONTEXT_ENDPOINT_OPTIONS), or undefined without it. */
export function contextClient(values) {
  if (values['context-url'] === undefined) return undefined;
  return createLlmClient({
    provider: 'openai', baseUrl: values['context-url'], model: values['context-model'],
    apiKey: values['context-api-key-env'] ? process.env[values['context-api-key-env']] || undefined : undefined,
  });
}
