// @ts-check
// Experiment grids (issue 16): one JSON document naming the configurations to compare — a base
// pipeline config, the fields to vary (cartesian product) or a listed set of cells, the answer
// models x prompts, the baselines (no retrieval, oracle context) and the baseline cell for the paired
// tests. Parsed strictly: every error names the JSON path inside the grid
// (`vary["chunker.chunkSize"][2]: expected an integer in [1, 100000000], got -5`). docs/experiments.md.
import { RagwasmError } from '../core/errors.js';
import { describe, expectJsonValue, isArray, isPlainObject } from '../core/validate.js';
import { parsePipelineConfig } from '../pipeline/pipeline.js';
import { setConfigPath } from '../pipeline/overrides.js';
import { llmContextSteps } from '../pipeline/collection.js';
import { checkAssemblyRead } from '../context/prompt.js';
import { resolvePivot } from './pivot.js';

const GRID_KEYS = ['base', 'vary', 'cells', 'baselines', 'answer', 'baseline', 'evaluation', 'report'];
const ANSWER_KEYS = ['models', 'prompts', 'judge', 'reranker', 'context', 'outputTokens'];
const MODEL_KEYS = ['name', 'provider', 'baseUrl', 'model', 'price', 'apiKeyEnv', 'maxRetries', 'retryBaseMs', 'retryMaxMs', 'timeoutMs', 'concurrency'];
const EVALUATION_KEYS = ['cutoffs', 'maxK', 'threshold', 'samples', 'trials', 'seed', 'minGain'];
const BASELINES = ['no-retrieval', 'oracle'];
const MAX_CELLS = 10000;

function gridError(path, message) {
  return new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${path}: ${message}`, { path });
}
function expected(path, what, value) {
  return gridError(path, `expected ${what}, got ${describe(value)}`);
}
function keysOf(obj, path, known) {
  if (!isPlainObject(obj)) throw expected(path, 'an object', obj);
  for (const k of Object.keys(obj)) {
    if (!known.includes(k)) throw gridError(path ? `${path}.${k}` : k, `unknown key (known: ${known.join(', ')})`);
  }
  return obj;
}
const quote = (s) => JSON.stringify(s);

// A pipeline-config error re-addressed to the grid path the value came from: the config's own path
// is dropped when it is the varied path itself, kept otherwise.
function relocate(e, gridPath, configPath) {
  if (!(e instanceof RagwasmError)) throw e;
  let msg = e.message.replace(/^ragwasm: /, '');
  if (configPath && msg.startsWith(`${configPath}: `)) msg = msg.slice(configPath.length + 2);
  return new RagwasmError(e.code, `ragwasm: ${gridPath}: ${msg}`, { path: gridPath });
}

/** Deep copy of JSON data. */
const copy = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

// Objects merge key by key, null deletes, anything else replaces.
function mergeConfig(base, over) {
  const out = copy(base) ?? {};
  for (const [k, v] of Object.entries(over)) {
    if (v === null) delete out[k];
    else if (isPlainObject(v) && isPlainObject(out[k])) out[k] = mergeConfig(out[k], v);
    else out[k] = copy(v);
  }
  return out;
}

function labelOf(value) {
  const s = value === null ? 'none' : typeof value === 'string' ? value : JSON.stringify(value);
  return s.length > 40 ? `${s.slice(0, 39)}…` : s;
}

function parseModel(m, path) {
  keysOf(m, path, MODEL_KEYS);
  const str = (k, required) => {
    if (m[k] === undefined && !required) return undefined;
    if (typeof m[k] !== 'string' || m[k] === '') throw expected(`${path}.${k}`, 'a non-empty string', m[k]);
    return m[k];
  };
  const out = { provider: m.provider === undefined ? 'openai' : str('provider', true), baseUrl: str('baseUrl', true), model: str('model', true) };
  if (!['openai', 'anthropic'].includes(out.provider)) throw expected(`${path}.provider`, '"openai" or "anthropic"', m.provider);
  out.name = m.name === undefined ? out.model : str('name', true);
  if (m.apiKeyEnv !== undefined) out.apiKeyEnv = str('apiKeyEnv', true);
  if (m.price !== undefined) {
    keysOf(m.price, `${path}.price`, ['inputPerMTok', 'outputPerMTok']);
    for (const k of ['inputPerMTok', 'outputPerMTok']) {
      const v = m.price[k];
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw expected(`${path}.price.${k}`, 'a number >= 0', v);
    }
    out.price = { inputPerMTok: m.price.inputPerMTok, outputPerMTok: m.price.outputPerMTok };
  }
  for (const [k, min, max] of [['maxRetries', 0, 20], ['retryBaseMs', 0, 600000], ['retryMaxMs', 0, 600000], ['timeoutMs', 1, 3600000], ['concurrency', 1, 64]]) {
    if (m[k] === undefined) continue;
    if (!Number.isInteger(m[k]) || m[k] < min || m[k] > max) throw expected(`${path}.${k}`, `an integer in [${min}, ${max}]`, m[k]);
    out[k] = m[k];
  }
  return out;
}

function parsePromptEntry(p, path) {
  if (p === 'built-in') return { name: 'built-in', template: null };
  if (!isPlainObject(p)) throw expected(path, '"built-in" or a prompt object {id, version, variables, messages} (the CLI reads a file path)', p);
  if (typeof p.id !== 'string' || !p.id) throw expected(`${path}.id`, 'a non-empty string', p.id);
  if (!Number.isInteger(p.version) || p.version < 1) throw expected(`${path}.version`, 'an integer >= 1', p.version);
  return { name: `${p.id}@v${p.version}`, template: p };
}

function parseEvaluation(e) {
  const out = { cutoffs: [1, 5, 10], maxK: 20, threshold: 0.8, samples: 2000, trials: 2000, seed: 42, minGain: 0.01 };
  if (e === undefined) return out;
  keysOf(e, 'evaluation', EVALUATION_KEYS);
  if (e.cutoffs !== undefined) {
    if (!isArray(e.cutoffs) || e.cutoffs.length === 0 || e.cutoffs.length > 100) throw expected('evaluation.cutoffs', 'an array of 1 to 100 integers >= 1', e.cutoffs);
    e.cutoffs.forEach((v, i) => { if (!Number.isInteger(v) || v < 1 || v > 1000) throw expected(`evaluation.cutoffs[${i}]`, 'an integer in [1, 1000]', v); });
    out.cutoffs = [...e.cutoffs];
  }
  const int = (k, min, max) => {
    if (e[k] === undefined) return;
    if (!Number.isInteger(e[k]) || e[k] < min || e[k] > max) throw expected(`evaluation.${k}`, `an integer in [${min}, ${max}]`, e[k]);
    out[k] = e[k];
  };
  int('maxK', 1, 1000); int('samples', 1, 1000000); int('trials', 1, 1000000); int('seed', 0, 2 ** 31);
  /** @type {[string, number, number][]} */
  const ranges = [['threshold', 0, 1], ['minGain', 0, 1]];
  for (const [k, lo, hi] of ranges) {
    if (e[k] === undefined) continue;
    if (typeof e[k] !== 'number' || !(e[k] > lo || (k === 'minGain' && e[k] === 0)) || e[k] > hi) throw expected(`evaluation.${k}`, `a number in ${k === 'minGain' ? '[0' : '(0'}, ${hi}]`, e[k]);
    out[k] = e[k];
  }
  return out;
}

/**
 * Parses and validates an experiment grid into its cells (docs/experiments.md "Grid file").
 * @example
 * const g = parseExperimentGrid({ base: { indexes: { bm25: {} } }, vary: { 'retrieval.k': [1, 5] } });
 * g.cells.map((c) => c.name); // ['retrieval.k=1', 'retrieval.k=5']
 * @param {object|string} grid the grid object or its JSON text
 * @returns {import('./experiment.js').ParsedExperimentGrid} (experiment.d.ts) each cell
 *   `{name, kind: 'pipeline'|'no-retrieval'|'oracle', settings: {path: label}, config (normalized
 *   pipeline config), answerer: 'extractive'|'llm'|'none', model: object|null, prompt: object|null}`
 * @throws {RagwasmError} PARSE_ERROR (malformed JSON text); INVALID_ARGUMENT naming the grid's JSON
 *   path (unknown key, wrong type, a varied value the pipeline config rejects, an unknown baseline
 *   name); LIMIT_EXCEEDED (more than 10,000 cells)
 */
export function parseExperimentGrid(grid) {
  let g = grid;
  if (typeof grid === 'string') {
    try {
      g = JSON.parse(grid);
    } catch (e) {
      throw new RagwasmError('PARSE_ERROR', `ragwasm: grid: malformed JSON (${e.message})`);
    }
  }
  if (!isPlainObject(g)) throw expected('grid', 'an object {base, vary | cells, answer, baseline}', g);
  expectJsonValue(g, 'grid');
  keysOf(g, '', GRID_KEYS);
  const base = g.base === undefined ? {} : g.base;
  if (!isPlainObject(base)) throw expected('base', 'a pipeline config object', base);
  try {
    parsePipelineConfig(base);
  } catch (e) {
    throw relocate(e, 'base', null);
  }
  if (g.vary !== undefined && g.cells !== undefined) throw gridError('cells', 'give either "vary" (the product) or "cells" (a listed set), not both');

  // The pipeline variants, before answer models x prompts.
  let variants = [];
  if (g.cells !== undefined) {
    if (!isArray(g.cells) || g.cells.length === 0) throw expected('cells', 'a non-empty array of {name, config}', g.cells);
    const names = new Set();
    g.cells.forEach((c, i) => {
      const p = `cells[${i}]`;
      keysOf(c, p, ['name', 'config']);
      if (typeof c.name !== 'string' || c.name === '') throw expected(`${p}.name`, 'a non-empty string', c.name);
      if (names.has(c.name)) throw gridError(`${p}.name`, `${quote(c.name)} is used by an earlier cell`);
      names.add(c.name);
      if (c.config !== undefined && !isPlainObject(c.config)) throw expected(`${p}.config`, 'a pipeline config object (merged over base)', c.config);
      variants.push({ name: c.name, settings: {}, raw: mergeConfig(base, c.config ?? {}), path: `${p}.config` });
    });
  } else {
    variants = [{ name: '', settings: {}, raw: copy(base), path: 'base' }];
    if (g.vary !== undefined) {
      if (!isPlainObject(g.vary)) throw expected('vary', 'an object {"json.path": [values] or {label: value}}', g.vary);
      for (const [path, values] of Object.entries(g.vary)) {
        const vp = `vary[${quote(path)}]`;
        if (!/^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)*$/.test(path)) throw gridError(vp, 'expected a dotted config path such as "chunker.chunkSize"');
        let entries;
        if (isArray(values)) entries = values.map((v, i) => ({ label: labelOf(v), value: v, at: `${vp}[${i}]` }));
        else if (isPlainObject(values)) entries = Object.entries(values).map(([label, v]) => ({ label, value: v, at: `${vp}[${quote(label)}]` }));
        else throw expected(vp, 'an array of values or an object {label: value}', values);
        if (entries.length === 0) throw gridError(vp, 'expected at least one value, got none');
        const seen = new Set();
        for (const e of entries) {
          if (seen.has(e.label)) throw gridError(e.at, `label ${quote(e.label)} appears twice`);
          seen.add(e.label);
          try {
            parsePipelineConfig(setConfigPath(base, path, e.value));
          } catch (err) {
            throw relocate(err, e.at, path);
          }
        }
        const next = [];
        for (const v of variants) {
          for (const e of entries) {
            next.push({ name: v.name ? `${v.name}, ${path}=${e.label}` : `${path}=${e.label}`, settings: { ...v.settings, [path]: e.label },
              raw: setConfigPath(v.raw, path, e.value), path: 'vary' });
            if (next.length > MAX_CELLS) throw new RagwasmError('LIMIT_EXCEEDED', `ragwasm: vary: at most ${MAX_CELLS} cells allowed`);
          }
        }
        variants = next;
      }
    }
    if (variants.length === 1 && variants[0].name === '') variants[0].name = 'base';
  }

  // Answer models x prompts (and the judge).
  const answer = { models: [], prompts: [{ name: 'built-in', template: null }], judge: null, reranker: null, context: null, outputTokens: 200 };
  if (g.answer !== undefined) {
    keysOf(g.answer, 'answer', ANSWER_KEYS);
    if (g.answer.models !== undefined) {
      if (!isArray(g.answer.models)) throw expected('answer.models', 'an array of model endpoints', g.answer.models);
      answer.models = g.answer.models.map((m, i) => parseModel(m, `answer.models[${i}]`));
      const names = new Set();
      answer.models.forEach((m, i) => {
        if (names.has(m.name)) throw gridError(`answer.models[${i}].name`, `${quote(m.name)} is used by an earlier model (give each a distinct "name")`);
        names.add(m.name);
      });
    }
    if (g.answer.prompts !== undefined) {
      if (!isArray(g.answer.prompts) || g.answer.prompts.length === 0) throw expected('answer.prompts', 'a non-empty array', g.answer.prompts);
      answer.prompts = g.answer.prompts.map((p, i) => parsePromptEntry(p, `answer.prompts[${i}]`));
    }
    if (g.answer.judge !== undefined) answer.judge = parseModel(g.answer.judge, 'answer.judge');
    if (g.answer.reranker !== undefined) answer.reranker = parseModel(g.answer.reranker, 'answer.reranker');
    if (g.answer.context !== undefined) answer.context = parseModel(g.answer.context, 'answer.context');
    if (g.answer.outputTokens !== undefined) {
      if (!Number.isInteger(g.answer.outputTokens) || g.answer.outputTokens < 1 || g.answer.outputTokens > 100000) {
        throw expected('answer.outputTokens', 'an integer in [1, 100000]', g.answer.outputTokens);
      }
      answer.outputTokens = g.answer.outputTokens;
    }
  }

  const baselines = g.baselines === undefined ? [] : g.baselines;
  if (!isArray(baselines)) throw expected('baselines', `an array of ${BASELINES.map(quote).join(', ')}`, baselines);
  baselines.forEach((b, i) => { if (!BASELINES.includes(b)) throw expected(`baselines[${i}]`, `one of ${BASELINES.map(quote).join(', ')}`, b); });
  if (baselines.includes('no-retrieval')) variants.push({ name: 'no retrieval (k 0)', settings: {}, raw: setConfigPath(base, 'retrieval.k', 0), path: 'base', kind: 'no-retrieval' });
  if (baselines.includes('oracle')) variants.push({ name: 'oracle context', settings: {}, raw: copy(base), path: 'base', kind: 'oracle' });

  const cells = [];
  variants.forEach((v, i) => {
    let config;
    try {
      config = parsePipelineConfig(v.raw);
    } catch (e) {
      throw relocate(e, v.path === 'vary' ? `vary (cell ${i}: ${v.name})` : v.path, null);
    }
    const answerer = config.answerer.type;
    // The assembly section is read by the llm answer prompt only (issue 32): refused for other answerers.
    checkAssemblyRead(v.raw, answerer, `${v.path === 'vary' ? `vary (cell ${i}: ${v.name})` : v.path}.assembly`);
    const common = { kind: v.kind ?? 'pipeline', settings: v.settings, config, answerer };
    if (answerer === 'llm') {
      if (answer.models.length === 0) throw gridError(v.path === 'vary' ? 'answer.models' : `${v.path}.answerer.type`, 'the llm answerer needs answer.models (at least one endpoint)');
      for (const m of answer.models) {
        for (const p of answer.prompts) {
          const suffix = answer.models.length > 1 || answer.prompts.length > 1 ? ` | ${m.name}${answer.prompts.length > 1 ? ` / ${p.name}` : ''}` : '';
          cells.push({ name: `${v.name}${suffix}`, ...common, model: m, prompt: p });
        }
      }
    } else {
      cells.push({ name: v.name, ...common, model: null, prompt: null });
    }
  });
  const llmRerank = cells.find((c) => c.config.rerank.enabled && c.config.rerank.type === 'llm' && c.config.retrieval.k > 0);
  if (llmRerank && !answer.reranker) throw gridError('answer.reranker', `cell ${quote(llmRerank.name)} enables rerank type "llm": give the reranking endpoint (same fields as a model)`);
  const llmContext = cells.find((c) => llmContextSteps(c.config).length > 0);
  if (llmContext && !answer.context) {
    throw gridError('answer.context', `cell ${quote(llmContext.name)} sets ${llmContextSteps(llmContext.config)[0].path}: give the endpoint that writes it (same fields as a model)`);
  }
  const triad = cells.find((c) => c.config.judges?.triad && c.answerer !== 'none');
  if (triad && !answer.judge) throw gridError('answer.judge', `cell ${quote(triad.name)} sets judges.triad: give the judge endpoint (same fields as a model)`);
  if (cells.length > MAX_CELLS) throw new RagwasmError('LIMIT_EXCEEDED', `ragwasm: grid: at most ${MAX_CELLS} cells allowed, got ${cells.length}`);
  const seenNames = new Set();
  for (const c of cells) {
    if (seenNames.has(c.name)) throw gridError('cells', `two cells are both named ${quote(c.name)}`);
    seenNames.add(c.name);
  }

  // baseline: one cell every other cell is tested against, or {path, label}: each cell against the
  // cell that differs from it only in that varied path, set to that label (same model and prompt).
  let baseline = null;
  let pairs = [];
  if (g.baseline !== undefined) {
    if (isPlainObject(g.baseline)) {
      keysOf(g.baseline, 'baseline', ['path', 'label']);
      const { path, label } = g.baseline;
      if (!isPlainObject(g.vary) || typeof path !== 'string' || !Object.hasOwn(g.vary, path)) {
        throw expected('baseline.path', `a path of vary (${isPlainObject(g.vary) ? Object.keys(g.vary).map(quote).join(', ') : 'no vary'})`, path);
      }
      if (typeof label !== 'string' || !cells.some((c) => c.settings[path] === label)) {
        const labels = [...new Set(cells.map((c) => c.settings[path]).filter((x) => x !== undefined))];
        throw expected('baseline.label', `a label of vary[${quote(path)}] (${labels.map(quote).join(', ')})`, label);
      }
      const key = (c, over) => canonicalKey({ ...c.settings, ...over }, c);
      const byKey = new Map(cells.filter((c) => c.kind === 'pipeline').map((c) => [key(c, {}), c]));
      for (const c of cells) {
        if (c.kind !== 'pipeline' || c.settings[path] === label) continue;
        const b = byKey.get(key(c, { [path]: label }));
        if (b) pairs.push({ cell: c.name, baseline: b.name });
      }
      baseline = `${path}=${label}`;
    } else {
      if (typeof g.baseline !== 'string' || !seenNames.has(g.baseline)) {
        const list = cells.slice(0, 8).map((c) => quote(c.name)).join(', ');
        throw expected('baseline', `the name of a cell (${list}${cells.length > 8 ? ', …' : ''}) or {path, label}`, g.baseline);
      }
      baseline = g.baseline;
      pairs = cells.filter((c) => c.name !== baseline).map((c) => ({ cell: c.name, baseline }));
    }
  }
  // report: the factors of the report's line charts (x, series, panels), checked against the cells' factors.
  let report = null;
  if (g.report !== undefined) {
    keysOf(g.report, 'report', ['x', 'series', 'panels']);
    for (const k of ['series', 'panels']) {
      const v = g.report[k];
      if (v !== undefined && !(isArray(v) && v.every((n) => typeof n === 'string'))) throw expected(`report.${k}`, 'an array of factor names', v);
    }
    resolvePivot(cells.map((c) => ({ settings: c.settings, model: c.model?.name ?? null, prompt: c.prompt?.name ?? null })), g.report);
    report = copy(g.report);
  }
  return { cells, baseline, pairs, answer, evaluation: parseEvaluation(g.evaluation), report };
}

function canonicalKey(settings, cell) {
  const keys = Object.keys(settings).sort();
  return JSON.stringify([keys.map((k) => [k, settings[k]]), cell.model?.name ?? null, cell.prompt?.name ?? null]);
}
