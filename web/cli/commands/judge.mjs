// ragwasm judge: calibrate an LLM judge against human labels (JSONL) and print agreement: Cohen's
// kappa, binary precision/recall/F1, exact and off-by-one accuracy, confusion matrix, per slice;
// optionally compare a second prompt. The API key comes from an environment variable, never a flag.
import { readFileSync, writeFileSync } from 'node:fs';
import { calibrateJudge, comparePrompts, createLlmClient, definePrompt, judgeGrid, parseLabels, PriceTable, RequestLedger } from '../../src/llm.js';
import { parsePool, poolLabels } from '../../src/eval.js';
import { DatasetError, readQrelsTsv } from '../datasets.mjs';

const JUDGE_NAMES = ['context_relevance', 'answer_relevance', 'answer_correctness', 'groundedness'];

function fmt(v, digits = 3) {
  if (v === null || v === undefined) return 'n/a';
  return typeof v === 'number' ? v.toFixed(digits) : String(v);
}

function statsLines(title, s) {
  const lines = [`${title}: ${s.n} items, ${s.scored} scored, ${s.unscored} without a score`];
  if (s.scored === 0) return lines;
  lines.push(`  kappa ${fmt(s.kappa)}  kappa(quadratic) ${fmt(s.kappaQuadratic)}  exact ${fmt(s.exact)}  off-by-one ${fmt(s.offByOne)}  spearman ${fmt(s.spearman)}`);
  const b = s.binary;
  lines.push(`  binary: precision ${fmt(b.precision)}  recall ${fmt(b.recall)}  F1 ${fmt(b.f1)}  accuracy ${fmt(b.accuracy)}  (tp ${b.tp} fp ${b.fp} fn ${b.fn} tn ${b.tn})`);
  const c = s.confusion;
  lines.push(`  confusion (rows: judge, columns: human) labels ${c.labels.join(' ')}`);
  c.matrix.forEach((row, i) => lines.push(`    ${String(c.labels[i]).padStart(3)} | ${row.map((x) => String(x).padStart(4)).join(' ')}`));
  return lines;
}

// The grid as a markdown table: one row per (model, prompt) cell, agreement on the test half.
function gridTable(g) {
  const percent = g.judge === 'answer_correctness';
  const head = ['model', 'prompt', 'scored', 'kappa', 'exact', 'binary F1',
    ...(percent ? ['|pred% - gold%| per item', '|pred% - gold%| set', 'set, train-calibrated'] : ['off-by-one'])];
  const lines = [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`];
  for (const c of g.cells) {
    const s = c.test.overall;
    const row = [c.model, c.prompt, `${s.scored}/${s.n}`, fmt(s.kappa), fmt(s.exact), fmt(s.binary?.f1)];
    if (percent) row.push(fmt(c.percent.meanAbsoluteError, 1), fmt(c.percent.setError, 1), c.calibrated ? fmt(c.calibrated.setError, 1) : 'n/a');
    else row.push(fmt(s.offByOne));
    lines.push(`| ${row.join(' | ')} |`);
  }
  return lines.join('\n');
}

function report(r) {
  const lines = [`judge ${r.judge}, prompt ${r.prompt ? `${r.prompt.id} v${r.prompt.version}` : '(none)'}; scale ${r.scale.min}-${r.scale.max}, binary threshold ${r.scale.binaryThreshold}`];
  lines.push(...statsLines('overall', r.overall));
  for (const [name, s] of Object.entries(r.slices)) lines.push(...statsLines(`slice ${name}`, s));
  lines.push(`calls failed or unparsed: ${r.failures}; tokens in ${r.usage.inputTokens}, out ${r.usage.outputTokens}; cost ${r.cost === null ? 'unknown (no price for the model)' : r.cost.toFixed(6)}`);
  return lines.join('\n');
}

export default {
  name: 'judge',
  summary: 'calibrate an LLM judge against human labels (kappa, F1, off-by-one, confusion matrix); --models x --prompts grid',
  usage: 'judge (--labels FILE | --pool POOL.jsonl --qrels QRELS) --judge NAME --provider openai|anthropic --base-url URL (--model NAME | --models A,B [--prompts P1.json,builtin]) [options]',
  description: 'FILE is JSONL: one object per line with the judge\'s inputs (context_relevance: question, passage; '
    + 'answer_relevance: question, answer; answer_correctness: question, answer, reference; groundedness: answer, '
    + 'contexts) and an integer label (0-3; 0-100 for answer_correctness). The API key is read from the environment '
    + 'variable named by --api-key-env (default OPENAI_API_KEY or ANTHROPIC_API_KEY). Every request is recorded in the '
    + 'ledger (--ledger FILE writes it as JSONL). --pool POOL.jsonl --qrels QRELS (context_relevance): human grades from the '
    + 'grading mode of web/demo/metrics.html (chunk-level qrels) over the pool `ragwasm label --pool-only` wrote, instead of --labels. '
    + 'Grid mode (--models and/or --prompts): every model x prompt on a seeded train/test split of FILE (--seed, --train-fraction); '
    + 'few-shot examples (--few-shot N, context_relevance) and the bias calibration of percentage judges (--calibrate, '
    + 'answer_correctness) come from the train half only; agreement, and for answer_correctness |predicted% - gold%|, on the test half.',
  options: {
    labels: { type: 'string', help: 'human labels, JSONL' },
    pool: { type: 'string', help: 'with --qrels: the pool JSONL of `ragwasm label --pool-only` (context_relevance)' },
    qrels: { type: 'string', help: 'with --pool: chunk-level TREC qrels of human grades (the metrics classroom\'s export)' },
    judge: { type: 'string', help: `one of ${JUDGE_NAMES.join(', ')}` },
    provider: { type: 'string', help: 'openai (any Chat Completions server) or anthropic', default: 'openai' },
    'base-url': { type: 'string', help: 'e.g. http://127.0.0.1:11434/v1 (Ollama) or https://api.openai.com/v1' },
    model: { type: 'string', help: 'model name' },
    'api-key-env': { type: 'string', help: 'environment variable holding the API key' },
    prompt: { type: 'string', help: 'a prompt JSON file replacing the built-in judge prompt' },
    'compare-prompt': { type: 'string', help: 'a second prompt JSON file to compare with' },
    samples: { type: 'string', help: 'self-consistency samples per item', default: '1' },
    aggregate: { type: 'string', help: 'mean or majority', default: 'majority' },
    slice: { type: 'string', help: 'label field to report slices by (e.g. type)' },
    concurrency: { type: 'string', help: 'requests in flight', default: '4' },
    'timeout-ms': { type: 'string', help: 'per request', default: '60000' },
    'max-retries': { type: 'string', help: 'retries on 429/5xx/network errors', default: '3' },
    limit: { type: 'string', help: 'only the first N labelled items' },
    'price-in': { type: 'string', help: 'price per million input tokens (for cost)' },
    'price-out': { type: 'string', help: 'price per million output tokens (for cost)' },
    out: { type: 'string', help: 'write per-item predictions as JSONL' },
    ledger: { type: 'string', help: 'write the request ledger (what was sent where) as JSONL' },
    json: { type: 'boolean', help: 'print the report as JSON' },
    models: { type: 'string', help: 'grid: comma list of judge models on the --base-url endpoint' },
    prompts: { type: 'string', help: 'grid: comma list of prompt JSON files; "builtin" is the built-in prompt' },
    seed: { type: 'string', help: 'grid: train/test split seed', default: '16' },
    'train-fraction': { type: 'string', help: 'grid: share of items in the train half', default: '0.5' },
    'validation-fraction': { type: 'string', help: 'grid: share of items in a validation part (e.g. 0.25 with --train-fraction 0.5: 40/20/20); each model\'s prompt is chosen there and reported on test' },
    'few-shot': { type: 'string', help: 'grid: graded examples from the train half (context_relevance)', default: '0' },
    calibrate: { type: 'boolean', help: 'grid: subtract the train-half bias of a percentage judge (answer_correctness)' },
  },
  async run(values, positionals, io) {
    const grid = values.models !== undefined || values.prompts !== undefined;
    const fromPool = values.pool !== undefined || values.qrels !== undefined;
    if (fromPool && (!values.pool || !values.qrels || values.labels || (values.judge && values.judge !== 'context_relevance'))) {
      io.stderr.write('ragwasm judge: --pool and --qrels go together, replace --labels, and grade --judge context_relevance\n');
      return 2;
    }
    if (fromPool && !values.judge) values.judge = 'context_relevance';
    for (const k of [...(fromPool ? [] : ['labels']), 'judge', 'base-url', ...(grid ? [] : ['model'])]) {
      if (!values[k]) {
        io.stderr.write(`ragwasm judge: --${k} is required (see --help)\n`);
        return 2;
      }
    }
    if (!JUDGE_NAMES.includes(values.judge)) {
      io.stderr.write(`ragwasm judge: --judge: expected one of ${JUDGE_NAMES.join(', ')}, got '${values.judge}'\n`);
      return 2;
    }
    const int = (name) => {
      const v = Number(values[name]);
      if (!Number.isInteger(v) || v < 0) throw Object.assign(new Error(`--${name}: expected a non-negative integer, got '${values[name]}'`), { usage: true });
      return v;
    };
    let items;
    let samples;
    let concurrency;
    let timeoutMs;
    let maxRetries;
    try {
      if (fromPool) {
        try {
          items = poolLabels(parsePool(readFileSync(values.pool, 'utf8')), readQrelsTsv(values.qrels));
        } catch (e) {
          if (e instanceof DatasetError) throw Object.assign(new Error(e.message), { usage: true });
          throw e;
        }
      } else {
        items = parseLabels(readFileSync(values.labels, 'utf8'), values.judge);
      }
      if (values.limit !== undefined) items = items.slice(0, int('limit'));
      samples = int('samples');
      concurrency = int('concurrency');
      timeoutMs = int('timeout-ms');
      maxRetries = int('max-retries');
    } catch (e) {
      if (!e.usage) throw e;
      io.stderr.write(`ragwasm judge: ${e.message}\n`);
      return 2;
    }
    const keyEnv = values['api-key-env'] ?? (values.provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY');
    const prices = new PriceTable();
    if (values.model && (values['price-in'] !== undefined || values['price-out'] !== undefined)) {
      prices.set(values.model, { inputPerMTok: Number(values['price-in'] ?? 0), outputPerMTok: Number(values['price-out'] ?? 0) });
    }
    const ledger = new RequestLedger();
    const loadPromptFile = (f) => definePrompt(JSON.parse(readFileSync(f, 'utf8')));
    if (grid) return runGrid(values, items, { samples, loadPromptFile, io, clientFor: (model) => createLlmClient({ provider: values.provider,
      baseUrl: values['base-url'], model, apiKey: process.env[keyEnv] || undefined, concurrency, timeoutMs, maxRetries, prices, ledger }), ledger, prices });
    const client = createLlmClient({ provider: values.provider, baseUrl: values['base-url'], model: values.model,
      apiKey: process.env[keyEnv] || undefined, concurrency, timeoutMs, maxRetries, prices, ledger });
    const common = { judge: values.judge, samples, aggregate: values.aggregate };
    if (values.slice) common.sliceField = values.slice;
    let out;
    let text;
    try {
      if (values['compare-prompt']) {
        const cmp = await comparePrompts(client, items, { ...common, ...(values.prompt ? { promptA: loadPromptFile(values.prompt) } : {}),
          promptB: loadPromptFile(values['compare-prompt']) });
        out = cmp;
        text = [`== prompt A ==`, report(cmp.a), '', `== prompt B ==`, report(cmp.b), '',
          `exact on both ${cmp.both}, only A ${cmp.onlyA}, only B ${cmp.onlyB}, neither ${cmp.neither}`].join('\n');
      } else {
        out = await calibrateJudge(client, items, { ...common, ...(values.prompt ? { prompt: loadPromptFile(values.prompt) } : {}) });
        text = report(out);
      }
    } finally {
      if (values.ledger) writeFileSync(values.ledger, ledger.toJsonl());
    }
    if (values.out) {
      const preds = out.predictions ?? out.a.predictions.map((p, i) => ({ ...p, predictionB: out.b.predictions[i].prediction }));
      writeFileSync(values.out, preds.map((p) => JSON.stringify({ id: p.id, label: p.label, prediction: p.prediction, predictionB: p.predictionB, score: p.score, slice: p.slice, error: p.error })).join('\n') + '\n');
    }
    io.stdout.write((values.json ? JSON.stringify(out, null, 1) : text) + '\n');
    io.stdout.write(`requests sent: ${ledger.entries.length} to ${Object.entries(ledger.bytesByHost()).map(([h, b]) => `${h} (${b} bytes)`).join(', ') || 'nobody'}\n`);
    return 0;
  },
};

async function runGrid(values, items, { samples, loadPromptFile, io, clientFor, ledger, prices }) {
  const list = (v) => (v ?? '').split(',').map((x) => x.trim()).filter(Boolean);
  const modelNames = list(values.models).length ? list(values.models) : (values.model ? [values.model] : []);
  if (modelNames.length === 0) {
    io.stderr.write('ragwasm judge: grid mode needs --models A,B (or --model NAME)\n');
    return 2;
  }
  const seed = Number(values.seed);
  const trainFraction = Number(values['train-fraction']);
  const fewShot = Number(values['few-shot']);
  const validationFraction = values['validation-fraction'] === undefined ? undefined : Number(values['validation-fraction']);
  const bad = !Number.isInteger(seed) || seed < 0 ? `--seed: expected an integer >= 0, got '${values.seed}'`
    : !(trainFraction > 0 && trainFraction < 1) ? `--train-fraction: expected a number between 0 and 1, got '${values['train-fraction']}'`
      : !Number.isInteger(fewShot) || fewShot < 0 ? `--few-shot: expected an integer >= 0, got '${values['few-shot']}'`
        : validationFraction !== undefined && !(validationFraction > 0 && validationFraction + trainFraction < 1)
          ? `--validation-fraction: expected a number > 0 with --train-fraction + --validation-fraction < 1, got '${values['validation-fraction']}'` : null;
  if (bad) {
    io.stderr.write(`ragwasm judge: ${bad}\n`);
    return 2;
  }
  const promptFiles = list(values.prompts).length ? list(values.prompts) : (values.prompt ? [values.prompt] : ['builtin']);
  const prompts = promptFiles.map((f) => (f === 'builtin' ? { name: 'builtin' } : { name: f, prompt: loadPromptFile(f) }));
  if (values['price-in'] !== undefined || values['price-out'] !== undefined) {
    for (const m of modelNames) prices.set(m, { inputPerMTok: Number(values['price-in'] ?? 0), outputPerMTok: Number(values['price-out'] ?? 0) });
  }
  const options = { judge: values.judge, seed, trainFraction, samples, aggregate: values.aggregate };
  if (fewShot > 0) options.fewShot = fewShot;
  if (values.calibrate) options.calibrate = true;
  if (validationFraction !== undefined) options.validationFraction = validationFraction;
  let g;
  try {
    g = await judgeGrid({ models: modelNames.map((name) => ({ name, client: clientFor(name) })), prompts, items }, options);
  } finally {
    if (values.ledger) writeFileSync(values.ledger, ledger.toJsonl());
  }
  if (values.out) {
    writeFileSync(values.out, g.cells.flatMap((c) => c.test.predictions.map((p) => JSON.stringify({ model: c.model, prompt: c.prompt, id: p.id,
      label: p.label, prediction: p.prediction, score: p.score, error: p.error })).join('\n')).join('\n') + '\n');
  }
  const failures = g.cells.reduce((n, c) => n + c.test.failures, 0);
  const cost = g.cells.some((c) => c.test.cost === null) ? null : g.cells.reduce((n, c) => n + c.test.cost, 0);
  const selection = (g.selection ?? []).map((s) => `  ${s.model}: prompt ${s.prompt} (validation ${s.metric} ${fmt(s.validationValue)}); on test: kappa ${fmt(s.test.overall.kappa)}, `
    + `F1 ${fmt(s.test.overall.binary?.f1)}, off-by-one ${fmt(s.test.overall.offByOne)}, n ${s.test.overall.n}`);
  const text = [`judge ${g.judge}: ${g.cells.length} cells; split seed ${g.split.seed}: ${g.split.train} train, `
    + (g.split.validation === undefined ? '' : `${g.split.validation} validation, `) + `${g.split.test} test items`
    + (g.examples.length ? `; ${g.examples.length} few-shot examples from train` : ''), '', gridTable(g), '',
  ...(selection.length ? ['prompt chosen on validation, reported on test:', ...selection, ''] : []),
  `calls failed or unparsed (test half): ${failures}; test-half cost ${cost === null ? 'unknown (no price for a model)' : cost.toFixed(6)}`].join('\n');
  io.stdout.write((values.json ? JSON.stringify(g, null, 1) : text) + '\n');
  io.stdout.write(`requests sent: ${ledger.entries.length} to ${Object.entries(ledger.bytesByHost()).map(([h, b]) => `${h} (${b} bytes)`).join(', ') || 'nobody'}\n`);
  return 0;
}
