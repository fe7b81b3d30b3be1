// Bench suite `onnx`: neural embedding throughput of ragwasm's ONNX embedder (ragwasm/onnx: C++ WordPiece
// in WASM, length-bucketed batches, pooling in WASM) vs transformers.js's feature-extraction pipeline, in
// the same Node process on the SAME onnxruntime-web module (transformers.js picks up the module set at
// globalThis[Symbol.for('onnxruntime')]), WASM backend, same thread count, same batch size and maximum
// length. Model: a MiniLM-L6-shaped BERT with random weights (tests/bench/lib/minilm-model.mjs), float32
// and dynamic int8. Texts: the first 1,000 SciFact passages ("title text").
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { createOnnxEmbedder } from '../../../web/src/onnx.js';
import { chunk, Tokenizer } from '../../../web/src/index.js';
import { readScifact } from '../../js/embed-fixtures.mjs';
import { ensureMinilmModel } from '../lib/minilm-model.mjs';

const BATCH = 32;
const MAX_LENGTH = 256;
// The padded-token budget per run docs/embed.md recommends for dynamic-int8 models (RAGWASM_BENCH_ONNX_INT8_TOKENS=N).
const INT8_BATCH_TOKENS = Number(process.env.RAGWASM_BENCH_ONNX_INT8_TOKENS ?? 2048);  // all-MiniLM-L6-v2's max_seq_length; the generated tokenizer_config.json says the same

// Max |a - b| over the rows not in `skip` (texts cut at maxLength: transformers.js 4.3.1 then drops the
// final [SEP], where ragwasm, like Hugging Face tokenizers, keeps [CLS] ... [SEP]).
function maxAbsDiff(a, b, skip = new Set()) {
  let m = 0;
  for (let i = 0; i < a.length; i++) if (!skip.has(i)) for (let k = 0; k < a[i].length; k++) m = Math.max(m, Math.abs(a[i][k] - b[i][k]));
  return m;
}

// Padded tokens of a batch plan: sum over batches of rows x longest row.
function paddedTokens(lengths, order) {
  let total = 0;
  for (let s = 0; s < order.length; s += BATCH) {
    let longest = 0;
    for (let k = s; k < Math.min(order.length, s + BATCH); k++) longest = Math.max(longest, lengths[order[k]]);
    total += longest * (Math.min(order.length, s + BATCH) - s);
  }
  return total;
}

export default {
  name: 'onnx',
  description: 'MiniLM-L6-shaped ONNX embedding passages/s: ragwasm/onnx vs transformers.js, same onnxruntime-web, WASM backend',
  async run(ctx) {
    const tokPath = ctx.shared('models/bert-base-uncased/tokenizer.json');
    const corpus = ctx.shared('data/scifact/corpus.jsonl');
    if (!tokPath || !corpus) {
      ctx.table('ONNX embedding', ['status'], [['skipped: ../shared models/bert-base-uncased or data/scifact missing']]);
      return;
    }
    const model = ensureMinilmModel(ctx.repoRoot, tokPath);
    if (model.skip) {
      ctx.table('ONNX embedding', ['status'], [[`skipped: ${model.skip}`]]);
      return;
    }
    // One ORT thread per runner: onnxruntime-web's own default on this 2-core machine (min(4, ceil(cores / 2))).
    const threads = Number(process.env.RAGWASM_BENCH_THREADS ?? 1);
    // --quick: 64 passages (two batches), all six variants, two timed runs. The full run: 1,000 passages, the
    // four headline variants (ragwasm length-bucketed vs transformers.js, fp32 and int8), one timed run each
    // after a warm-up, and the Node and Chromium legs at the same time (one core each; ragwasm and
    // transformers.js alternate inside each leg, so both meet the same conditions): about 9 minutes on an
    // idle 2-core machine. RAGWASM_BENCH_ONNX_VARIANTS=all adds the input-order variants,
    // RAGWASM_BENCH_ONNX_REPS=N sets the timed runs, RAGWASM_BENCH_ONNX_SEQUENTIAL=1 runs Chromium after Node.
    const n = Number(process.env.RAGWASM_BENCH_ONNX_PASSAGES ?? (ctx.quick ? 64 : 1000));
    const reps = Number(process.env.RAGWASM_BENCH_ONNX_REPS ?? (ctx.quick ? 2 : 1));
    // 'headline', 'all', or a comma-separated list of variant keys (e.g. ragwasm-int8-length,ragwasm-int8-length32,tjs-int8).
    const variantChoice = process.env.RAGWASM_BENCH_ONNX_VARIANTS ?? (ctx.quick ? 'all' : 'headline');
    const concurrent = process.env.RAGWASM_BENCH_ONNX_SEQUENTIAL !== '1';
    // Passages as doc chat makes them: SciFact "title. abstract" cut by ragwasm's recursive chunker into
    // chunks of at most 500 characters (no overlap), in corpus order.
    const { docs } = readScifact(corpus.replace(/corpus\.jsonl$/, ''));
    const texts = [];
    for (const d of docs) {
      for (const c of chunk({ id: d.id, text: `${d.title}. ${d.text}` }, { strategy: 'recursive', chunkSize: 500, chunkOverlap: 0 })) texts.push(c.text);
      if (texts.length >= n) break;
    }
    texts.length = Math.min(texts.length, n);

    const ortNs = await import('onnxruntime-web');
    const ort = ortNs.default ?? ortNs;
    ort.env.wasm.numThreads = threads;
    // transformers.js uses the ONNX Runtime module found at this symbol when it is first imported; it then
    // points wasmPaths at a CDN, which we undo (the module loads its .wasm from node_modules).
    const symbol = Symbol.for('onnxruntime');
    if (!(symbol in globalThis)) globalThis[symbol] = ort;
    const wasmPaths = ort.env.wasm.wasmPaths;
    const tf = await import('@huggingface/transformers');
    ort.env.wasm.wasmPaths = wasmPaths;
    tf.env.allowRemoteModels = false;
    tf.env.allowLocalModels = true;
    tf.env.localModelPath = `${model.root}/`;
    tf.env.useBrowserCache = false;
    const tfOrt = tf.env.backends.onnx?.versions ?? {};
    const sameOrt = globalThis[symbol] === ort && tfOrt.web === ort.env.versions.web;
    const tfVersion = JSON.parse(readFileSync(new URL('../../../node_modules/@huggingface/transformers/package.json', import.meta.url))).version;

    const tokenizerJson = readFileSync(tokPath);
    const tokenizer = Tokenizer.fromTokenizerJson(tokenizerJson);
    const lengths = tokenizer.encodeBatch(texts, { padding: 'none', maxLength: MAX_LENGTH }).lengths;
    const realTokens = lengths.reduce((a, b) => a + b, 0);
    const truncated = new Set(Array.from(lengths.keys()).filter((i) => lengths[i] >= MAX_LENGTH));
    const inputOrder = Array.from(lengths.keys());
    const sortedOrder = [...inputOrder].sort((a, b) => lengths[a] - lengths[b] || a - b);
    const padInput = paddedTokens(lengths, inputOrder);
    const padSorted = paddedTokens(lengths, sortedOrder);

    // ragwasm's fp32 '-length' variant runs the embedder's defaults (length-sorted, 32 texts per run); int8 adds
    // the documented batchTokens for int8 (docs/embed.md); '-length32' = length-sorted, 32 texts, no budget.
    const ours = (path, batching, extra = {}) => createOnnxEmbedder({ model: pathToFileURL(path), tokenizer, ort, batchSize: BATCH, maxLength: MAX_LENGTH, batching, ...extra });
    const theirs = (dtype) => tf.pipeline('feature-extraction', model.name, { dtype, device: 'auto' });
    const runTheirs = (ex) => async (list) => {
      const out = [];
      for (let i = 0; i < list.length; i += BATCH) {
        const r = await ex(list.slice(i, i + BATCH), { pooling: 'mean', normalize: true });
        const [rows, dim] = r.dims;
        for (let k = 0; k < rows; k++) out.push(r.data.slice(k * dim, (k + 1) * dim));
        r.dispose?.();
      }
      return out;
    };
    const variants = selectVariants([
      { key: 'ragwasm-fp32-length', runner: 'ragwasm/onnx', dtype: 'fp32', batching: 'length (sorted by tokens)', make: () => ours(model.fp32, 'length'), peer: 'tjs-fp32' },
      { key: 'ragwasm-fp32-length32', runner: 'ragwasm/onnx', dtype: 'fp32', batching: 'length, 32 texts (no token budget)', make: () => ours(model.fp32, 'length', { batchTokens: 0 }), peer: 'tjs-fp32' },
      { key: 'ragwasm-fp32-input', runner: 'ragwasm/onnx', dtype: 'fp32', batching: 'input order', make: () => ours(model.fp32, 'input'), peer: 'tjs-fp32' },
      { key: 'tjs-fp32', runner: `transformers.js ${tfVersion}`, dtype: 'fp32', batching: 'input order', make: () => theirs('fp32'), theirs: true },
      { key: 'ragwasm-int8-length', runner: 'ragwasm/onnx', dtype: 'int8', batching: `length, <= ${INT8_BATCH_TOKENS} padded tokens per run`, make: () => ours(model.int8, 'length', { batchTokens: INT8_BATCH_TOKENS }), peer: 'tjs-int8' },
      { key: 'ragwasm-int8-length32', runner: 'ragwasm/onnx', dtype: 'int8', batching: 'length, 32 texts (no token budget)', make: () => ours(model.int8, 'length', { batchTokens: 0 }), peer: 'tjs-int8' },
      // Dynamic int8 picks one activation scale per batch: with the same batches as transformers.js the
      // vectors agree; sorted batches move them (docs/embed.md).
      { key: 'ragwasm-int8-input', runner: 'ragwasm/onnx', dtype: 'int8', batching: 'input order', make: () => ours(model.int8, 'input'), peer: 'tjs-int8' },
      { key: 'tjs-int8', runner: `transformers.js ${tfVersion}`, dtype: 'q8 (int8)', batching: 'input order', make: () => theirs('q8'), theirs: true },
    ], variantChoice);
    const labels = Object.fromEntries(variants.map((v) => [v.key, v]));
    // The Chromium leg starts now and runs beside the Node leg (its own process, one ORT thread).
    const wantBrowser = process.env.RAGWASM_BENCH_BROWSER !== '0' && existsSync('/usr/bin/chromium');  // RAGWASM_BENCH_BROWSER=0 skips Chromium
    const browserArgs = { texts, threads, reps, skip: [...truncated], keys: variants.map((v) => v.key) };
    let browser = wantBrowser && concurrent ? startBrowserRun(browserArgs).then((r) => ({ r }), (error) => ({ error })) : null;
    // Tokenization alone (batches of 32 in input order, padded, as each runner feeds ORT), median of 3:
    // the share of the run that is not ONNX Runtime.
    const tokMs = { ours: [], theirs: [] };
    const tfTokenizer = await tf.AutoTokenizer.from_pretrained(model.name);
    for (let r = 0; r < 3; r++) {
      let t0 = performance.now();
      for (let i = 0; i < n; i += BATCH) tokenizer.encodeBatch(texts.slice(i, i + BATCH), { maxLength: MAX_LENGTH });
      tokMs.ours.push(performance.now() - t0);
      t0 = performance.now();
      for (let i = 0; i < n; i += BATCH) tfTokenizer(texts.slice(i, i + BATCH), { padding: true, truncation: true, max_length: MAX_LENGTH });
      tokMs.theirs.push(performance.now() - t0);
    }
    const tokOurs = ctx.stats(tokMs.ours).median;
    const tokTheirs = ctx.stats(tokMs.theirs).median;
    for (const v of variants) {
      const t0 = performance.now();
      const made = await v.make();
      v.loadMs = performance.now() - t0;
      v.embed = v.theirs ? runTheirs(made) : (list) => made.embed(list);
      v.dispose = () => made.dispose();
      await v.embed(texts.slice(0, 8));  // warm-up: the first run allocates and compiles kernels
      v.samples = [];
    }
    // Runs alternate between the variants, so that load changes on a shared machine hit all alike.
    for (let r = 0; r < reps; r++) {
      for (const v of variants) {
        const t0 = performance.now();
        const out = await v.embed(texts);
        v.samples.push(performance.now() - t0);
        process.stderr.write(`onnx bench: Node ${v.key} run ${r + 1}/${reps}: ${(v.samples.at(-1) / 1000).toFixed(1)} s\n`);
        if (r === 0) v.vectors = out;
      }
    }
    const byKey = Object.fromEntries(variants.map((v) => [v.key, v]));
    const rows = [];
    const result = {};
    for (const v of variants) {
      const st = ctx.stats(v.samples);
      const pps = n / (st.median / 1000);
      const peer = v.peer ? byKey[v.peer] : null;
      const speedup = peer ? ctx.stats(peer.samples).median / st.median : 1;
      const diff = peer ? maxAbsDiff(v.vectors, peer.vectors, truncated) : null;
      rows.push([v.runner, v.dtype, v.batching, st.median / 1000, pps, speedup, diff === null ? '' : diff.toExponential(2), v.loadMs / 1000]);
      result[v.key] = { medianMs: st.median, p95Ms: st.p95, samples: st.samples, passagesPerS: pps, speedupVsTransformersJs: peer ? speedup : null, maxAbsDiffVsTransformersJs: diff, loadMs: v.loadMs };
    }
    const both = byKey['ragwasm-int8-length'] && byKey['ragwasm-fp32-length'];  // a listed subset may lack one
    const quantError = both ? maxAbsDiff(byKey['ragwasm-int8-length'].vectors, byKey['ragwasm-fp32-length'].vectors) : NaN;
    const nodeSeconds = variants.reduce((a, v) => a + v.samples.reduce((x, y) => x + y, 0), 0) / 1000;
    let minCos = both ? 1 : NaN;
    for (let i = 0; both && i < n; i++) {
      let dot = 0;
      const a = byKey['ragwasm-int8-length'].vectors[i];
      const b = byKey['ragwasm-fp32-length'].vectors[i];
      for (let k = 0; k < a.length; k++) dot += a[k] * b[k];
      minCos = Math.min(minCos, dot);
    }
    const load = os.loadavg().map((x) => x.toFixed(2)).join(' ');
    ctx.table(`ONNX embedding, ${n} SciFact passages (chunks of <= 500 characters, ${realTokens} tokens, max ${MAX_LENGTH}), batches of ${BATCH}, onnxruntime-web ${ort.env.versions.web} WASM, ${threads} thread(s)${sameOrt ? ', one ORT module for both' : `, transformers.js ran ONNX Runtime ${JSON.stringify(tfOrt)}`}; load ${load}`,
      ['runner', 'weights', 'batching', 'median s', 'passages/s', 'speed-up vs transformers.js (same weights)', 'max |diff| vs transformers.js', 'model load s'], rows);
    ctx.table('Padding and quantization',
      ['measure', 'value'],
      [['padded tokens, input-order batches of 32', padInput], ['padded tokens, length-sorted batches of 32', padSorted],
        [`tokenization of the ${n} passages in batches of 32, ragwasm (C++ WordPiece in WASM), median of 3, ms`, tokOurs],
        [`the same, transformers.js ${tfVersion} tokenizer, ms`, tokTheirs],
        ['real tokens', realTokens], [`passages cut at ${MAX_LENGTH} tokens (left out of the |diff| columns)`, truncated.size], ['padding saved by sorting', `${(100 * (1 - padSorted / padInput)).toFixed(1)}%`],
        ['int8 vs fp32 (ragwasm): max |diff|', quantError.toExponential(2)], ['int8 vs fp32 (ragwasm): min cosine', minCos.toFixed(5)]]);
    ctx.record('onnx', {
      passages: n, tokens: realTokens, int8BatchTokens: INT8_BATCH_TOKENS, longestPassageTokens: Math.max(...lengths), maxLength: MAX_LENGTH, batchSize: BATCH, transformersJsBatchSize: BATCH, threads, reps,
      browserConcurrentWithNode: Boolean(browser), nodeTimedSeconds: nodeSeconds, tokenizationMs: { ragwasm: tokOurs, transformersJs: tokTheirs },
      onnxruntimeWeb: ort.env.versions.web, transformersJs: tfVersion, transformersJsOrt: tfOrt, sameOrtModule: sameOrt,
      paddedTokens: { input: padInput, lengthSorted: padSorted }, truncatedPassages: truncated.size, int8VsFp32: both ? { maxAbsDiff: quantError, minCosine: minCos } : null,
      loadavg: os.loadavg(), variants: result,
    });
    for (const [key, label] of [['ragwasm-fp32-length', 'fp32'], ['ragwasm-int8-length', 'int8']]) {
      const v = result[key];
      if (!v?.speedupVsTransformersJs) continue;
      ctx.speed({
        id: `onnx-${label}-node`, what: `neural embedding, MiniLM-L6-shaped BERT (random weights, real vocab), ${n} SciFact passages, ${label}, Node, ${threads} thread(s), length-bucketed`,
        ragwasm: `${v.passagesPerS.toFixed(2)} passages/s`, peer: `transformers.js ${tfVersion} ${(n / (v.medianMs * v.speedupVsTransformersJs / 1000)).toFixed(2)} passages/s (same ORT module: ${sameOrt})`,
        ratio: v.speedupVsTransformersJs, ratioText: `${v.speedupVsTransformersJs.toFixed(2)}×`, target: { min: 1.3 }, targetText: '≥ 1.3×',
        note: `max |diff| ${v.maxAbsDiffVsTransformersJs?.toExponential(1)}; sorting by length saves ${(100 * (1 - padSorted / padInput)).toFixed(0)} % of padded tokens${browser ? '; Chromium leg ran beside it, one core each' : ''}`,
      });
    }
    for (const v of variants) await v.dispose();
    tokenizer.dispose();
    if (wantBrowser) {
      browser = await (browser ?? startBrowserRun(browserArgs).then((r) => ({ r }), (error) => ({ error })));
      if (browser.error) throw browser.error;
      reportBrowser(ctx, { r: browser.r, texts, threads, labels, concurrent: concurrent });
    }
  },
};

// scripts/serve.mjs's startServer in a child Node process; resolves to {url, close}.
function childServer(extraAllowed) {
  const serve = new URL('../../../scripts/serve.mjs', import.meta.url).href;
  const code = `const { startServer } = await import(${JSON.stringify(serve)});
const s = await startServer({ port: 0, quiet: true, extraAllowed: ${JSON.stringify(extraAllowed)} });
process.stdout.write(s.url + '\\n');`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('error', reject);
    child.once('exit', (c) => reject(new Error(`onnx bench: the page server exited (${c}) before it listened`)));
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) {
        child.removeAllListeners('exit');
        resolve({ url: out.trim(), close: () => new Promise((r) => { child.once('exit', () => r()); child.kill(); }) });
      }
    });
  });
}

// The headline variants (ragwasm length-bucketed and transformers.js, per weight type), all eight, or the
// keys listed (comma-separated).
function selectVariants(list, choice) {
  if (choice === 'all') return list;
  if (choice === 'headline') return list.filter((v) => v.theirs || v.key.endsWith('-length'));
  const keys = choice.split(',').map((k) => k.trim());
  const unknown = keys.filter((k) => !list.some((v) => v.key === k));
  if (unknown.length) throw new Error(`RAGWASM_BENCH_ONNX_VARIANTS: unknown variant(s) ${unknown.join(', ')}; known: ${list.map((v) => v.key).join(', ')}`);
  return list.filter((v) => keys.includes(v.key));
}

// The same variants in headless Chromium (tests/bench/browser/onnx.html), one onnxruntime-web module.
async function startBrowserRun({ texts, threads, reps, skip, keys }) {
  const { chromium } = await import('playwright-core');
  // The page's files come from a server in a child process: this process's event loop is busy with the
  // Node leg's ONNX Runtime runs (synchronous WASM between awaits) and would starve the model downloads.
  const server = await childServer(['/tests/bench/browser/', '/node_modules/@huggingface/transformers/dist/']);
  const { CHROMIUM_ARGS } = await import('../../browser/harness.mjs');
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  let r;
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => { if (m.text().startsWith('onnx bench:')) process.stderr.write(`${m.text()}\n`); });
    await page.goto(`${server.url}tests/bench/browser/onnx.html`);
    await page.waitForFunction(() => document.getElementById('status').textContent !== 'loading' || !window.runOnnxBench, null, { timeout: 60000 });
    if (errors.length) throw new Error(errors.join('; '));
    r = await page.evaluate((args) => window.runOnnxBench(args),
      { texts, threads, batch: BATCH, maxLength: MAX_LENGTH, reps, modelDir: '/models/build/', modelName: 'minilm-l6-random', skip, keys, int8BatchTokens: INT8_BATCH_TOKENS });
  } finally {
    await browser.close();
    await server.close();
  }
  return r;
}

function reportBrowser(ctx, { r, texts, threads, labels, concurrent }) {
  const med = Object.fromEntries(r.variants.map((v) => [v.key, ctx.stats(v.samples).median]));
  const peers = { 'ragwasm-fp32-length': 'tjs-fp32', 'ragwasm-fp32-length32': 'tjs-fp32', 'ragwasm-fp32-input': 'tjs-fp32', 'ragwasm-int8-length': 'tjs-int8', 'ragwasm-int8-length32': 'tjs-int8', 'ragwasm-int8-input': 'tjs-int8' };
  const rows = r.variants.map((v) => {
    const l = labels[v.key];
    return [l.runner, l.dtype, l.batching, med[v.key] / 1000, texts.length / (med[v.key] / 1000), peers[v.key] ? med[peers[v.key]] / med[v.key] : 1,
      v.maxAbsDiff === null ? '' : v.maxAbsDiff.toExponential(2)];
  });
  const load = os.loadavg().map((x) => x.toFixed(2)).join(' ');
  ctx.table(`The same in headless Chromium (${r.userAgent.match(/Chrome\/[\d.]+/)?.[0] ?? 'Chromium'}), onnxruntime-web ${r.ortVersion} WASM, ${threads} thread(s)${concurrent ? ', run beside the Node leg' : ''}; load ${load}`,
    ['runner', 'weights', 'batching', 'median s', 'passages/s', 'speed-up vs transformers.js (same weights)', 'max |diff| vs transformers.js'], rows);
  const diffs = Object.fromEntries(r.variants.map((v) => [v.key, v.maxAbsDiff]));
  for (const label of ['fp32', 'int8']) {
    const ours = med[`ragwasm-${label}-length`];
    const theirs = med[`tjs-${label}`];
    if (!ours || !theirs) continue;
    const ratio = theirs / ours;
    ctx.speed({
      id: `onnx-${label}-chromium`, what: `neural embedding, the same ${label} model, ${texts.length} passages, headless Chromium, ${threads} thread(s), length-bucketed`,
      ragwasm: `${(texts.length / (ours / 1000)).toFixed(2)} passages/s`, peer: `transformers.js ${(texts.length / (theirs / 1000)).toFixed(2)} passages/s`,
      ratio, ratioText: `${ratio.toFixed(2)}×`, target: { min: 1.3 }, targetText: '≥ 1.3×',
      note: `max |diff| ${diffs[`ragwasm-${label}-length`]?.toExponential(1)}${concurrent ? '; run beside the Node leg, one core each' : ''}`,
    });
  }
  ctx.json.results.onnx.chromium = { concurrentWithNode: concurrent, userAgent: r.userAgent, onnxruntimeWeb: r.ortVersion, transformersJsOrt: r.tfOrt, loadavg: os.loadavg(),
    variants: Object.fromEntries(r.variants.map((v) => [v.key, { medianMs: med[v.key], samples: v.samples, passagesPerS: texts.length / (med[v.key] / 1000), maxAbsDiffVsTransformersJs: v.maxAbsDiff }])) };
}
