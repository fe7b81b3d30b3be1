// ragwasm experiment: runs an experiment grid (pipeline configs x answer models x prompts, docs/experiments.md)
// over a QA dataset folder. Only flags, files and the terminal here: parsing, running, scoring and the
// report are the library's (ragwasm/eval: planExperiment, runExperiment, experimentMarkdown,
// experimentReportHtml, FileReplyCache).
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { experimentMarkdown, experimentReportHtml, FileReplyCache, parseExperimentGrid, planExperiment, runExperiment } from '../../src/eval.js';
import { loadQaDataset } from '../datasets.mjs';
import { commandConfig, configFileBase, configReranker } from '../lib/config.mjs';
import { intOption, UsageError } from '../lib/options.mjs';
import { datasetOptions, FILE_LIMIT_OPTIONS } from '../lib/files.mjs';

// A grid's prompts may be file paths (relative to the grid file): read them here. (Its rerank.model, a
// path too, is resolved from the grid file's folder when the cross-encoder is loaded: configReranker.)
function readGrid(path) {
  let grid;
  try {
    grid = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    if (e.code === 'ENOENT') throw e;
    throw new UsageError(`--grid ${path}: malformed JSON (${e.message})`);
  }
  const prompts = grid?.answer?.prompts;
  if (Array.isArray(prompts)) {
    grid.answer.prompts = prompts.map((p, i) => {
      if (typeof p !== 'string' || p === 'built-in') return p;
      try {
        return JSON.parse(readFileSync(resolve(dirname(path), p), 'utf8'));
      } catch (e) {
        throw new UsageError(`--grid ${path}: answer.prompts[${i}]: cannot read prompt file ${p} (${e.code ?? e.message})`);
      }
    });
  }
  return grid;
}

// --split FILE:NAME -> the id list under NAME.
function readSplit(spec) {
  const at = spec.lastIndexOf(':');
  if (at <= 0) throw new UsageError(`--split: expected FILE:NAME (e.g. examples/corpus/split.json:reporting), got '${spec}'`);
  const [file, name] = [spec.slice(0, at), spec.slice(at + 1)];
  let ids;
  try {
    ids = JSON.parse(readFileSync(file, 'utf8'))[name];
  } catch (e) {
    throw new UsageError(`--split: cannot read ${file} (${e.code ?? e.message})`);
  }
  if (!Array.isArray(ids) || !ids.every((x) => typeof x === 'string')) throw new UsageError(`--split: ${file} has no list of question ids under '${name}'`);
  return ids;
}

// Records of an earlier run; a last line cut by a kill is ignored (its question runs again).
function readRecords(path) {
  if (!path || !existsSync(path)) return [];
  const out = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line));
    } catch { /* an incomplete last line */ }
  }
  return out;
}

function progress(stderr) {
  let last = -1;
  return (e) => {
    const width = 24;
    const frac = (e.cellIndex + e.question / Math.max(1, e.questions)) / e.cells;
    const filled = Math.round(frac * width);
    const line = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] cell ${e.cellIndex + 1}/${e.cells} question ${e.question + 1}/${e.questions} ${e.cell}`;
    if (stderr.isTTY) stderr.redraw ? stderr.redraw(line.slice(0, 160).padEnd(160)) : stderr.write(`\r${line.slice(0, 160).padEnd(160)}`);
    else if (e.cellIndex !== last) stderr.write(`${line}\n`);
    last = e.cellIndex;
  };
}

export default {
  name: 'experiment',
  summary: 'run an experiment grid (configs x models x prompts) over a dataset: tables, JSONL results and an HTML report',
  usage: 'experiment (--grid GRID.json | --config FILE) [--dataset DIR] [--out results.jsonl] [--report report.html] [--x F --series F,G --panels H] [--dry-run] [--budget USD]',
  description: 'GRID.json: {base, vary | cells, baselines, answer: {models, prompts, judge, reranker, context}, baseline, evaluation, report: {x, series, panels}} (docs/experiments.md; '
    + 'answer.context: the endpoint of the config\'s chunker.context.llmSummary / llmChunkContext; judges.triad uses answer.judge). '
    + 'DIR holds manifest.json, the documents and questions.jsonl as examples/corpus. Records are appended to --out one per '
    + 'question per cell; a re-run with the same --out skips what is there (resume). LLM replies are cached in --cache '
    + '(default: the --out path + .cache.jsonl), so a grown grid pays only for new requests. API keys come from each '
    + "endpoint's apiKeyEnv. --config FILE is a pipeline config (the same file as for `eval`, `rag`, `tune` and "
    + 'Collection.create): the grid\'s base (replacing a base the grid has), or alone the one cell of a grid {base}. Cells '
    + 'whose rerank type is cross-encoder use rerank.model (an .onnx file; one model per run; tokenizer.json beside it or '
    + '--rerank-tokenizer). Exit status: 0 done, 1 a cell failed, 3 stopped by --budget.',
  options: {
    ...FILE_LIMIT_OPTIONS,
    grid: { type: 'string', help: 'the grid file (JSON)' },
    config: { type: 'string', help: 'pipeline config JSON file: the grid\'s base (alone: a one-cell grid)' },
    'rerank-tokenizer': { type: 'string', help: 'tokenizer.json of the cross-encoder of rerank.model (default: found beside it)' },
    dataset: { type: 'string', help: 'dataset folder', default: 'examples/corpus' },
    out: { type: 'string', help: 'results JSONL (appended; resumed from)' },
    report: { type: 'string', help: 'write the self-contained HTML report here' },
    cache: { type: 'string', help: 'LLM reply cache file (JSONL)' },
    'dry-run': { type: 'boolean', help: 'print the cells, LLM calls and estimated cost; send nothing' },
    budget: { type: 'string', help: 'stop before the estimated spending of this run exceeds this amount' },
    split: { type: 'string', help: 'FILE:NAME: only the question ids listed under NAME in the JSON FILE (e.g. examples/corpus/split.json:reporting)' },
    limit: { type: 'string', help: 'only the first N questions' },
    title: { type: 'string', help: 'report title' },
    x: { type: 'string', help: 'report: the factor on the x axis of the line charts (a varied path or its last segment, e.g. k; default the grid\'s report.x, else retrieval.k)' },
    series: { type: 'string', help: 'report: the factors drawn as one line each, comma-separated (e.g. chunker.strategy,context; default the other varied paths)' },
    panels: { type: 'string', help: 'report: the factors drawn as one panel each, comma-separated (e.g. model)' },
  },
  async run(values, positionals, io) {
    let grid, limit, budget, questionIds, baseRerankModel;
    try {
      if (!values.grid && !values.config) throw new UsageError('--grid: required (a grid file, docs/experiments.md), or --config FILE (a pipeline config: one cell)');
      if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
      limit = intOption(values.limit, 'limit');
      if (values.budget !== undefined) {
        budget = Number(values.budget);
        if (!/^\d+(\.\d+)?$/.test(values.budget) || !Number.isFinite(budget)) throw new UsageError(`--budget: expected an amount >= 0, got '${values.budget}'`);
      }
      grid = values.grid ? readGrid(values.grid) : {};
      if (values.config !== undefined) {
        const { raw } = commandConfig(values, [], { stderr: io.stderr, command: 'ragwasm experiment' });
        if (grid.base !== undefined) io.stderr.write(`ragwasm experiment: --config ${values.config} replaces the base of ${values.grid}\n`);
        grid.base = raw;
        baseRerankModel = raw?.rerank?.model;
      }
      if (values.split !== undefined) questionIds = readSplit(values.split);
      // The report's pivot (the flags over the grid's report section), checked against the grid's factors before anything runs.
      if (values.x !== undefined || values.series !== undefined || values.panels !== undefined) {
        grid.report = { ...(grid.report ?? {}) };
        for (const k of ['x', 'series', 'panels']) if (values[k] !== undefined) grid.report[k] = k === 'x' ? values[k] : values[k].split(',').map((s) => s.trim()).filter(Boolean);
        try {
          parseExperimentGrid(grid);
        } catch (e) {
          if (e.code === 'INVALID_ARGUMENT' && /^ragwasm: report/.test(e.message)) throw new UsageError(e.message.replace(/^ragwasm: /, '').replace(/^report\.(x|series|panels)/, '--$1'));
          throw e;
        }
      }
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      io.stderr.write(`ragwasm experiment: ${e.message}\n`);
      return 2;
    }
    const dataset = await loadQaDataset(values.dataset, datasetOptions(values, io, 'experiment'));
    const done = readRecords(values.out);
    const common = { done };
    if (limit !== undefined) common.limit = limit;
    if (questionIds !== undefined) common.questionIds = questionIds;
    if (values['dry-run']) {
      const plan = await planExperiment(grid, dataset, common);
      const rows = plan.cells.map((c) => `| ${c.name.replace(/\|/g, '\\|')} | ${c.answerer}${c.model ? ` (${c.model})` : ''} | ${c.questions} | ${c.done} | ${c.llmCalls} | ${c.estimatedCost.toFixed(6)} |`);
      io.stdout.write([`dry run: ${plan.cells.length} cells x ${plan.questions} questions; nothing sent`, '',
        '| cell | answerer | questions | already done | LLM calls | estimated cost |', '|---|---|---|---|---|---|', ...rows, '',
        `LLM calls to make: ${plan.llmCalls}`,
        `estimated cost: ${plan.estimatedCost === null ? 'unknown (no prices)' : plan.estimatedCost.toFixed(6)}${plan.unpricedCalls ? ` (+ ${plan.unpricedCalls} calls without a price)` : ''}`,
        `(estimates: ceil(characters / 4) input tokens, answer.outputTokens output tokens per call; cached replies cost nothing)`, ''].join('\n'));
      return 0;
    }
    // The cross-encoder of the cells whose rerank type is cross-encoder (rerank type llm is the grid's answer.reranker).
    let rerank;
    try {
      const models = new Map();
      for (const c of parseExperimentGrid(grid).cells) {
        if (c.config.rerank.enabled && c.config.rerank.type === 'cross-encoder' && c.config.retrieval.k > 0) models.set(c.config.rerank.model ?? '', c.config);
      }
      if (models.size > 1) throw new UsageError(`rerank.model: one cross-encoder per run, the grid names ${models.size} (${[...models.keys()].join(', ')})`);
      if (models.size === 1) {
        // a relative rerank.model is resolved from the file that names it: the --config file when the
        // model is its base's, otherwise the grid file
        const [model, config] = [...models][0];
        const file = values.config !== undefined && model === baseRerankModel ? values.config : values.grid;
        rerank = await configReranker(config, { tokenizer: values['rerank-tokenizer'], baseDir: configFileBase(values, file) });
      }
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      io.stderr.write(`ragwasm experiment: ${e.message}\n`);
      return 2;
    }
    const cachePath = values.cache ?? (values.out ? `${values.out}.cache.jsonl` : undefined);
    const options = {
      ...common,
      onProgress: progress(io.stderr),
      apiKey: (m) => (m.apiKeyEnv ? process.env[m.apiKeyEnv] || undefined : undefined),
    };
    if (cachePath) options.cache = new FileReplyCache(cachePath);
    if (budget !== undefined) options.budget = budget;
    if (rerank) options.reranker = rerank.reranker;
    const records = [...done];
    options.onRecord = (r) => {
      records.push(r);
      if (values.out) appendFileSync(values.out, `${JSON.stringify(r)}\n`);
    };
    if (done.length) io.stderr.write(`resuming: ${done.length} records in ${values.out}\n`);
    let result;
    try {
      result = await runExperiment(grid, dataset, options);
    } finally {
      await rerank?.dispose();
    }
    if (io.stderr.isTTY) io.stderr.write('\n');
    io.stdout.write(experimentMarkdown(result));
    if (values.report) {
      // The pivot of the line charts: the flags over the grid's report section.
      const pivot = parseExperimentGrid(grid).report ?? {};
      let html;
      try {
        html = experimentReportHtml(result, records.filter((r) => result.cells.some((c) => c.id === r.cellId)), { pivot, ...(values.title ? { title: values.title } : {}) });
      } catch (e) {
        if (e.code !== 'INVALID_ARGUMENT') throw e;
        io.stderr.write(`ragwasm experiment: --report: ${e.message.replace(/^ragwasm: /, '')}\n`);
        return 2;
      }
      writeFileSync(values.report, html);
      io.stderr.write(`report: ${values.report}\n`);
    }
    if (result.stopped) return 3;
    return result.cells.some((c) => c.status === 'failed') ? 1 : 0;
  },
};
