// Entry points of the package, discovered from the exports of its entry files (ENTRY_FILES: ragwasm,
// ragwasm/parallel, ragwasm/eval, ragwasm/llm, ragwasm/onnx, ragwasm/parse, ragwasm/postgres; loadApi merges them): every exported function, every function of an exported namespace (`metrics`),
// every class's statics and constructor, and the instance methods of the objects FACTORIES can
// build with valid arguments. A new export is covered without anyone adding it here; GOOD only
// makes the other argument positions valid so a hostile value reaches deeper positions.
export const ENTRY_FILES = ['index.js', 'parallel.js', 'eval.js', 'llm.js', 'onnx.js', 'parse.js', 'postgres.js'];
/** The entries a browser loads (ragwasm/postgres is for Node servers). */
export const BROWSER_ENTRY_FILES = ENTRY_FILES.filter((f) => f !== 'postgres.js');

/**
 * Every export of every entry file as one object (the first entry naming an export wins).
 * @param {string} base URL of the web/src/ folder (ending in /)
 * @param {string[]} [files] entry files to load (default ENTRY_FILES)
 */
export async function loadApi(base, files = ENTRY_FILES) {
  const api = {};
  for (const f of files) {
    const mod = await import(new URL(f, base).href);
    for (const [k, v] of Object.entries(mod)) if (!(k in api)) api[k] = v;
  }
  return api;
}

// Valid arguments per entry point (all positions). Position i of a call gets the hostile value;
// the others come from here (or 'a' when an entry point has no row).
const qrels = { q1: { d1: 1, d2: 0 } };
const run = { q1: { d1: 2, d2: 1 } };
const passages = [{ id: 'p1', text: 'The cat sat on the mat.' }, { id: 'p2', text: 'Dogs bark at night.' }];
// Entry points that hand back the caller's own items, regrouped but unchanged (a seeded shuffle, a
// train/test split): a non-finite number in their result that is one of the hostile array's own
// elements is an echo of the input, not something the library computed. Nothing else is exempt.
export const ITEM_ECHOES = new Set(['splitTrainTest', 'splitTrainValidationTest', 'seededShuffle']);

export const GOOD = {
  'metrics.exactMatch': ['a', ['a']],
  'metrics.tokenF1': ['a b', ['a b']],
  'metrics.anls': ['abc', ['abd']],
  'metrics.rougeL': ['a b c', ['a b d']],
  'metrics.sentenceBleu': ['a b c d', ['a b c d']],
  'metrics.squadNormalize': ['The cat.'],
  'metrics.evaluateRun': [qrels, run, { measures: ['map'] }],
  'metrics.formatTrecEval': [qrels, run, { measures: ['map'] }],
  'metrics.compareRuns': [qrels, run, run],
  'metrics.precisionAt': [[1, 0, 1], 2],
  'metrics.recallAt': [[1, 0, 1], 2, { judged: [1, 0, 1] }],
  'metrics.successAt': [[1, 0, 1], 2],
  'metrics.ndcgCut': [[1, 0, 1], 2],
  'metrics.ndcgExpCut': [[1, 0, 1], 2],
  'metrics.averagePrecision': [[1, 0, 1], { judged: [1, 0, 1] }],
  'metrics.reciprocalRank': [[0, 1]],
  'metrics.ndcg': [[1, 0, 1]],
  'metrics.citationMetrics': ['See [1].', { relevantIds: ['1'], contextIds: ['1'] }],
  'metrics.evidenceContainment': ['cat sat', 'The cat sat on the mat.'],
  'metrics.confusionMatrix': [[1, 0], [1, 1]],
  'metrics.cohensKappa': [[1, 0, 1], [1, 1, 1]],
  'metrics.spearman': [[1, 2, 3], [1, 3, 2]],
  'metrics.kendallTau': [[1, 2, 3], [1, 3, 2]],
  'metrics.randomizationTest': [[0.1, 0.5, 0.3], [0.2, 0.4, 0.6], { trials: 100, seed: 1 }],
  'metrics.bootstrapCI': [[0.1, 0.5, 0.3], [0.2, 0.4, 0.6], { samples: 100, seed: 1 }],
  'metrics.winTieLoss': [[0.1, 0.5], [0.2, 0.5]],
  'metrics.summarize': [[0.1, 0.5, 0.3]],
  'metrics.withinAccuracy': [[1, 2], [1, 3]],
  'metrics.binaryScores': [[1, 0], [1, 1]],
  chunk: [{ id: 'd', text: 'The cat sat. The dog ran.' }, { strategy: 'fixed', chunkSize: 8, chunkOverlap: 0 }],
  chunkTexts: ['The cat sat. The dog ran.', { strategy: 'fixed', chunkSize: 8, chunkOverlap: 0 }],
  chunkStats: ['ab cd', [{ text: 'ab', start: 0, end: 2 }]],
  estimateTokens: ['the cat sat'],
  splitSentences: ['Dr. Who came. He left.', { abbreviations: ['dr'] }],
  foldText: ['Café'],
  htmlToTextFallback: ['<p>a</p>'],
  stripCitations: ['a [1] b'],
  extractCitations: ['a [1] b', passages],
  formatPassages: [passages],
  formatClaims: [['a', 'b']],
  parseJudgeScore: ['Score: 2', { min: 0, max: 3 }],
  parseClaimScores: ['1: yes\n2: no', 2],
  pickProbes: [passages, { sample: 1 }],
  weightsAfterLegCheck: [[1, 1], ['bm25', 'dense'], { weak: ['dense'] }],
  agreementStats: [[{ label: 1, prediction: 1 }, { label: 0, prediction: 1 }, { label: 3, prediction: null }], { kind: 'rating', binaryThreshold: 2 }],
  retryAfterMs: [new Headers({ 'retry-after': '2' }), 0],
  loadApiKey: [{ setItem() {}, getItem() { return null; }, removeItem() {} }, 'k'],
  saveApiKey: [{ setItem() {}, getItem() { return null; }, removeItem() {} }, 'k', 'sk-1'],
  forgetApiKey: [{ setItem() {}, getItem() { return null; }, removeItem() {} }, 'k'],
  fuse: [[{ retriever: 'a', hits: [{ id: 'a', score: 1 }] }, { retriever: 'b', hits: [{ id: 'b', score: 2 }] }]],
  tuneFusion: [[{ queryId: 'q1', lists: [{ retriever: 'a', hits: [{ id: 'd1', score: 1 }] }, { retriever: 'b', hits: [{ id: 'd2', score: 1 }] }] }], qrels],
  mmr: [[{ id: 'a', score: 1 }, { id: 'b', score: 0.5 }], { vectors: [[1, 0], [0, 1]], k: 1 }],
  assembleContext: [[{ chunkId: 'a', docId: 'd', text: 'the cat', score: 1 }], { tokenBudget: 100 }],
  estimateContextTokens: ['the cat'],
  parsePipelineConfig: [{}],
  poolEmbeddings: [new Float32Array(8), new Int32Array([1, 1]), { rows: 1, tokens: 2, dim: 4 }],
  renderContext: [{ id: 'd', text: 'x', metadata: { title: 'T' } }, { template: 'Title: {title}' }],
  renderPrompt: [{ id: 't', version: 1, variables: ['name'], messages: [{ role: 'user', content: 'Hello {{name}}' }] }, { name: 'x' }],
  createDocument: [{ id: 'd', text: 'x' }],
  openFolder: ['.', {}],
  readDocumentFolder: ['.', {}],
  poolCandidates: [{ r: { q: [{ id: 'c1', docId: 'd1', text: 'x' }] } }, { depth: 2 }],
  judgmentsToQrels: [[{ questionId: 'q', chunkId: 'c', docId: 'd', grade: 2 }], { level: 'doc' }],
  formatQrels: [qrels],
  parseClarification: ['{"ambiguous": false, "interpretations": []}', ['c1']],
  parseAmbiguitySet: ['{"id": "a", "question": "q?", "ambiguous": false, "interpretations": []}'],
  clarificationMetrics: [[{ expected: { ambiguous: true, interpretations: [{ docIds: ['d'] }, { docIds: ['e'] }] },
    result: { ambiguous: true, interpretations: [{ chunkIds: ['d#0'] }] }, docOf: (c) => c.split('#')[0] }]],
  percentError: [[{ label: 50, prediction: 40 }], 0],
  seededShuffle: [[1, 2, 3], 1],
  splitTrainTest: [[1, 2, 3], { seed: 1 }],
  sampleChunks: [[{ id: 'c', docId: 'd', text: 'x'.repeat(100) }], { n: 1 }],
  tuneAgreement: [{ table: [{ index: 0, value: 1 }], best: { index: 0 }, metric: 'm' }, { table: [{ index: 0, value: 1 }], best: { index: 0 }, metric: 'm' }],
  'Tokenizer.fromVocab': ['[PAD]\n[UNK]\n[CLS]\n[SEP]\na'],
  'Bm25Index#add': [[{ id: 'x', text: 'hello world' }]],
  'Bm25Index#upsert': [[{ id: 'x', text: 'hello world' }]],
  'Bm25Index#remove': [['d1']],
  'Bm25Index#search': ['cat', { k: 3 }],
  'VectorIndex#add': [[{ id: 'x', vector: [1, 0, 0, 0] }]],
  'VectorIndex#search': [[1, 0, 0, 0], { k: 2 }],
  'VectorIndex#remove': [['v1']],
  'SentenceSplitter#split': ['A b. C d.'],
  'RequestLedger#record': [{ host: 'example.com', bytesSent: 1, bytesReceived: 1 }],
  'ResponseCache#set': ['k', 'v'],
  'ResponseCache#get': ['k'],
  'PriceTable#set': ['m', { inputPerMTok: 1, outputPerMTok: 2 }],
  'PriceTable#cost': ['m', { inputTokens: 1, outputTokens: 1 }],
  'PriceTable#get': ['m'],
};

// Objects whose instance methods are exercised: each built fresh for every call (a hostile call may
// dispose or fill it). Classes without a factory (they need a model file or a server) are covered
// through their constructor and statics only.
export const FACTORIES = {
  Bm25Index: (api) => { const ix = api.Bm25Index.create(); ix.add([{ id: 'd1', text: 'the cat sat' }, { id: 'd2', text: 'a dog' }]); return ix; },
  VectorIndex: (api) => { const ix = api.VectorIndex.create({ dimension: 4 }); ix.add([{ id: 'v1', vector: [1, 0, 0, 0] }, { id: 'v2', vector: [0, 1, 0, 0] }]); return ix; },
  SentenceSplitter: (api) => api.SentenceSplitter.create(),
  Tokenizer: (api) => api.Tokenizer.fromVocab('[PAD]\n[UNK]\n[CLS]\n[SEP]\nthe\ncat'),
  RequestLedger: (api) => new api.RequestLedger(),
  ResponseCache: (api) => new api.ResponseCache(),
  PriceTable: (api) => new api.PriceTable({ m: { inputPerMTok: 1, outputPerMTok: 2 } }),
};

const SKIP = new Set(['init']); // re-initialising is covered by the module tests

function isClass(v) {
  return typeof v === 'function' && /^class\b/.test(Function.prototype.toString.call(v));
}

/**
 * Lists entry points: {id, kind: 'fn'|'ctor'|'static'|'method', path: [exportName, member?], arity}.
 * `arity` is the number of argument positions tried: fn.length + 1 (default parameters are not
 * counted by fn.length, so the trailing options object is tried too), at most 4.
 */
export function discoverEntries(api) {
  const out = [];
  const positions = (fn) => Math.min(4, Math.max(1, fn.length + 1));
  for (const name of Object.keys(api).sort()) {
    const v = api[name];
    if (SKIP.has(name)) continue;
    if (isClass(v)) {
      out.push({ id: `new ${name}`, kind: 'ctor', path: [name], arity: positions(v) });
      for (const s of Object.getOwnPropertyNames(v).sort()) {
        if (['length', 'name', 'prototype'].includes(s) || s.startsWith('_') || typeof v[s] !== 'function') continue;
        out.push({ id: `${name}.${s}`, kind: 'static', path: [name, s], arity: positions(v[s]) });
      }
      if (FACTORIES[name]) {
        for (const m of Object.getOwnPropertyNames(v.prototype).sort()) {
          if (m === 'constructor' || m.startsWith('_')) continue;
          const d = Object.getOwnPropertyDescriptor(v.prototype, m);
          if (typeof d.value !== 'function') continue;
          out.push({ id: `${name}#${m}`, kind: 'method', path: [name, m], arity: positions(d.value) });
        }
      }
    } else if (typeof v === 'function') {
      out.push({ id: name, kind: 'fn', path: [name], arity: positions(v) });
    } else if (v && typeof v === 'object' && !Array.isArray(v) && !Object.isFrozen(v)) {
      for (const f of Object.keys(v).sort()) {
        const g = v[f];
        if (isClass(g)) continue;
        if (typeof g === 'function') out.push({ id: `${name}.${f}`, kind: 'fn', path: [name, f], arity: positions(g) });
      }
    }
  }
  return out;
}

/** Calls entry point `e` with `args`; returns whatever it returns (a Promise is awaited by the caller). */
export function invoke(api, e, args) {
  const [a, b] = e.path;
  if (e.kind === 'ctor') return new api[a](...args);
  if (e.kind === 'static') return api[a][b](...args);
  if (e.kind === 'method') {
    const obj = FACTORIES[a](api);
    return obj[b](...args);
  }
  return b === undefined ? api[a](...args) : api[a][b](...args);
}

/** Arguments for a call with the hostile value at `position`. */
export function argsFor(e, position, hostile) {
  const good = GOOD[e.id] ?? [];
  const args = [];
  for (let i = 0; i < position; i++) args.push(i < good.length ? good[i] : 'a');
  args.push(hostile);
  return args;
}

/** A known-good call run after every hostile one: the module must still answer correctly. */
export function canary(api) {
  if (api.metrics.exactMatch('a', ['a']) !== 1) throw new Error('canary: exactMatch gave a wrong answer');
  const ix = api.Bm25Index.create();
  try {
    ix.add([{ id: 'd', text: 'hello world' }]);
    const hits = ix.search('hello', { k: 1 });
    if (hits.length !== 1 || hits[0].id !== 'd') throw new Error('canary: Bm25Index search gave a wrong answer');
  } finally {
    ix.dispose();
  }
  const chunks = api.chunk({ id: 'c', text: 'abcdefgh' }, { strategy: 'fixed', chunkSize: 4, chunkOverlap: 0, unit: 'codepoints' });
  if (!Array.isArray(chunks) || chunks.length !== 2) throw new Error(`canary: chunk gave ${chunks.length} chunks`);
}
