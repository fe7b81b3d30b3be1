// Tokenizer and static-embedder JS API: results, errors (RagwasmError with stable codes), usability
// after errors, dispose; the static model's SciFact quality and its ONNX export through onnxruntime-web.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { init, createStaticEmbedder, poolEmbeddings, RagwasmError, Tokenizer } from '../../../web/src/index.js';
import { createOnnxEmbedder } from '../../../web/src/onnx.js';
import { repoRoot, skipUnlessShared } from '../helpers.mjs';

await init();

const TINY_VOCAB = '[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nun\n##aff\n##able\nhello\n,\nworld\n!\n';
const isCode = (code) => (e) => e instanceof RagwasmError && e.code === code;

test('tokenizer encodes batches with padding masks and truncation', () => {
  const tok = Tokenizer.fromVocab(TINY_VOCAB);
  assert.equal(tok.vocabSize, 12);
  assert.deepEqual(tok.specialIds, { cls: 2, sep: 3, pad: 0, unk: 1 });
  assert.deepEqual(Array.from(tok.tokenize('Unaffable, WORLD!')), [5, 6, 7, 9, 10, 11]);
  assert.deepEqual(Array.from(tok.encode('hello world', { maxLength: 3 })), [2, 8, 3]);
  const b = tok.encodeBatch(['hello world', 'hello'], { padding: 'max_length', maxLength: 5 });
  assert.equal(b.rows, 2);
  assert.equal(b.cols, 5);
  assert.deepEqual(Array.from(b.inputIds), [2, 8, 10, 3, 0, 2, 8, 3, 0, 0]);
  assert.deepEqual(Array.from(b.attentionMask), [1, 1, 1, 1, 0, 1, 1, 1, 0, 0]);
  assert.deepEqual(Array.from(b.tokenTypeIds), new Array(10).fill(0));
  assert.deepEqual(Array.from(b.lengths), [4, 3]);
  assert.equal(tok.normalize('Ünaffable'), 'unaffable');
  assert.equal(tok.tokenToId('##aff'), 6);
  assert.equal(tok.tokenToId('nope'), -1);
  assert.equal(tok.idToToken(8), 'hello');
  tok.dispose();
});

test('tokenizer errors are RagwasmErrors and the tokenizer stays usable', () => {
  assert.throws(() => Tokenizer.fromTokenizerJson('{nope'), isCode('PARSE_ERROR'));
  assert.throws(() => Tokenizer.fromTokenizerJson({ model: { type: 'BPE' } }), isCode('INVALID_ARGUMENT'));
  assert.throws(() => Tokenizer.fromVocab('a\nb\n'), (e) => isCode('INVALID_ARGUMENT')(e) && /unk_token/.test(e.message));
  assert.throws(() => Tokenizer.fromVocab(42), isCode('INVALID_ARGUMENT'));
  const tok = Tokenizer.fromVocab(TINY_VOCAB);
  assert.throws(() => tok.encodeBatch([]), isCode('INVALID_ARGUMENT'));
  assert.throws(() => tok.encodeBatch(['a', null]), (e) => isCode('INVALID_ARGUMENT')(e) && /texts\[1\]/.test(e.message));
  assert.throws(() => tok.encodeBatch(['a'], { padding: 'left' }), isCode('INVALID_ARGUMENT'));
  assert.throws(() => tok.encodeBatch(['a'], { maxLength: 1.5 }), isCode('INVALID_ARGUMENT'));
  assert.throws(() => tok.encode('hello world hello', { maxLength: 3, truncation: false }), isCode('LIMIT_EXCEEDED'));
  assert.throws(() => tok.idToToken(12), isCode('INVALID_ARGUMENT'));
  assert.deepEqual(Array.from(tok.encode('hello')), [2, 8, 3]);
  tok.dispose();
  assert.throws(() => tok.encode('hello'), isCode('DISPOSED'));
});

test('poolEmbeddings averages masked tokens in WASM', () => {
  // rows 1, tokens 3 (last masked), dim 2: mean of (1,0), (3,4) = (2,2).
  const v = poolEmbeddings(new Float32Array([1, 0, 3, 4, 100, 100]), new Int32Array([1, 1, 0]), { rows: 1, tokens: 3, dim: 2, normalize: false });
  assert.deepEqual(Array.from(v), [2, 2]);
  assert.throws(() => poolEmbeddings(new Float32Array(5), new Int32Array(3), { rows: 1, tokens: 3, dim: 2 }), isCode('INVALID_ARGUMENT'));
  assert.throws(() => poolEmbeddings(new Float32Array(6), new Int32Array(3), { rows: 1, tokens: 3, dim: 2, pooling: 'max' }), isCode('INVALID_ARGUMENT'));
  assert.throws(() => poolEmbeddings(new Float32Array([NaN, 0, 0, 0, 0, 0]), new Int32Array([1, 1, 1]), { rows: 1, tokens: 3, dim: 2 }), isCode('INVALID_ARGUMENT'));
});

// The default model is built, not committed: build it when missing (about 20 s).
const MODEL = join(repoRoot, 'models/build/static-model.bin');
function staticModelBytes() {
  if (!existsSync(MODEL)) execFileSync(process.execPath, ['--max-old-space-size=6000', join(repoRoot, 'models/build-static-model.mjs')], { stdio: 'ignore' });
  return readFileSync(MODEL);
}

test('static model embeds unit vectors and rejects corrupt bytes', async () => {
  const bytes = staticModelBytes();
  const e = await createStaticEmbedder({ model: bytes });
  assert.equal(e.dimension, 100);
  assert.match(e.id, /^static-100d-[0-9a-f]{8}$/);
  assert.equal(e.vocabSize, 100000);
  const [a, b, c, z] = await e.embed(['The cat sat on the mat.', 'A kitten slept on the rug.', 'Interest rates rose sharply.', 'qqqzzzxx']);
  const dot = (x, y) => x.reduce((s, v, i) => s + v * y[i], 0);
  assert.ok(Math.abs(dot(a, a) - 1) < 1e-5);  // unit length up to float32 rounding
  assert.ok(dot(a, b) > dot(a, c), `cat/kitten ${dot(a, b)} vs cat/rates ${dot(a, c)}`);
  assert.deepEqual(Array.from(z), new Array(100).fill(0));  // no known word
  assert.deepEqual(e.words("Don't STOP!"), ['don', 't', 'stop']);
  const bad = new Uint8Array(bytes);
  bad[5000] ^= 0xff;
  await assert.rejects(createStaticEmbedder({ model: bad }), isCode('CORRUPT_INDEX'));
  await assert.rejects(createStaticEmbedder({ model: bytes.subarray(0, 1000) }), isCode('CORRUPT_INDEX'));
  const newer = new Uint8Array(bytes);
  newer[8] = 3;  // the model is format version 2; 3 is a version this build does not read
  await assert.rejects(createStaticEmbedder({ model: newer }), isCode('UNSUPPORTED_VERSION', /reads versions 1 to 2/));
  // No model: the default one (package ragwasm-static-model, the same file).
  const byDefault = await createStaticEmbedder({});
  assert.deepEqual([...byDefault.embedSync(['protein folding'])[0]], [...e.embedSync(['protein folding'])[0]]);
  byDefault.dispose();
  await assert.rejects(createStaticEmbedder({ model: 12 }), isCode('INVALID_ARGUMENT'));
  await assert.rejects(e.embed([]), isCode('INVALID_ARGUMENT'));
  const progress = [];
  const many = await e.embed(new Array(2500).fill('protein folding'), { onProgress: (p) => progress.push(p.done) });
  assert.deepEqual(progress, [1024, 2048, 2500]);
  assert.deepEqual(Array.from(many[2499]), Array.from(many[0]));
  const ac = new AbortController();
  ac.abort();
  await assert.rejects(e.embed(['x'], { signal: ac.signal }), isCode('ABORTED'));
  assert.equal(e.embedSync(['still works'])[0].length, 100);
  e.dispose();
});

test('static model SciFact nDCG@10 stays above 0.25', async (t) => {
  if (!skipUnlessShared(t, 'data/scifact/corpus.jsonl')) return;
  const { evaluateScifact } = await import('../../../models/eval-scifact.mjs');
  const e = await createStaticEmbedder({ model: staticModelBytes() });
  const r = await evaluateScifact(async (x) => e.embedSync(x), async (x) => e.embedSync(x));
  t.diagnostic(`SciFact test (300 queries): nDCG@10 ${r.ndcg10.toFixed(4)}, recall@100 ${r.recall100.toFixed(4)}`);
  // Measured 0.2657 with the default build (100k words); the floor catches a broken model or tokenizer.
  assert.ok(r.ndcg10 > 0.25, `nDCG@10 ${r.ndcg10}`);
  e.dispose();
});

test('the static table exported to ONNX runs through onnxruntime-web and mean-pools exactly', async (t) => {
  const py = '/usr/bin/python3';
  try {
    execFileSync(py, ['-c', 'import onnx, numpy'], { stdio: 'ignore' });
  } catch {
    t.skip('needs Debian python3-onnx and python3-numpy for /usr/bin/python3');
    return;
  }
  const bytes = staticModelBytes();
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-static-onnx-'));
  try {
    const onnxPath = join(dir, 'static.onnx');
    execFileSync(py, [join(repoRoot, 'models/export-static-onnx.py'), MODEL, onnxPath], { stdio: 'ignore' });
    const s = await createStaticEmbedder({ model: bytes });
    const e = await createOnnxEmbedder({ model: pathToFileURL(onnxPath), tokenizer: s, normalize: false, batchSize: 3 });
    const texts = ['the cat sat on the mat', 'Proteins fold.', 'qqqzzz unknown words only', 'a'];
    const got = await e.embed(texts);
    // Reference: the mean of the dequantized int8 rows, read straight from the file format (version 2,
    // the container of docs/formats.md: sections 1 header, 2 words, 4 scales, 6 int8 rows).
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    assert.equal(dv.getUint32(8, true), 2);
    const section = new Map();
    for (let i = 0, at = 16; i < dv.getUint32(12, true); i++) {
      const len = Number(dv.getBigUint64(at + 4, true));
      section.set(dv.getUint32(at, true), { at: at + 12, len });
      at += 12 + len;
    }
    const dims = dv.getUint32(section.get(1).at, true);
    const words = new TextDecoder().decode(bytes.subarray(section.get(2).at, section.get(2).at + section.get(2).len)).split('\n');
    const index = new Map(words.map((w, i) => [w, i]));
    const scaleAt = (i) => dv.getFloat32(section.get(4).at + 4 * i, true);
    const tableAt = section.get(6).at;
    for (let k = 0; k < texts.length; k++) {
      const ids = s.words(texts[k]).map((w) => index.get(w)).filter((i) => i !== undefined);
      const want = new Float64Array(dims);
      for (const i of ids) for (let d = 0; d < dims; d++) want[d] += scaleAt(i) * dv.getInt8(tableAt + i * dims + d) / ids.length;
      for (let d = 0; d < dims; d++) assert.ok(Math.abs(got[k][d] - want[d]) < 1e-6, `text ${k} dim ${d}: ${got[k][d]} vs ${want[d]}`);
    }
    await assert.rejects(createOnnxEmbedder({ model: pathToFileURL(onnxPath), tokenizer: s, pooling: 'cls' }), isCode('INVALID_ARGUMENT'));
    await e.dispose();
    s.dispose();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** FNV-1a 64 (the static model checksum) with two 32-bit halves: h * (2^40 + 0x1b3) mod 2^64. */
function fnv1a64Bytes(bytes) {
  let lo = 0x84222325, hi = 0xcbf29ce4;
  for (let i = 0; i < bytes.length; i++) {
    lo = (lo ^ bytes[i]) >>> 0;
    const p = lo * 0x1b3;
    const carry = Math.floor(p / 0x100000000);
    hi = (Math.imul(hi, 0x1b3) + carry + (lo << 8)) >>> 0;
    lo = p >>> 0;
  }
  return [lo, hi];
}

/** A RWSTATIC v1 file (docs/embed.md): zero probabilities, unit scales, int8 vectors all `fill`. */
function craftStaticModel(words, dims, { vectorBytes = words.length * dims, fill = 1 } = {}) {
  const w = new TextEncoder().encode(words.map((x) => `${x}\n`).join(''));
  const pos = Math.ceil((32 + w.length) / 4) * 4;
  const body = Math.ceil((pos + 4 * (2 * words.length + dims) + vectorBytes) / 8) * 8;
  const out = new Uint8Array(body + 8);
  const v = new DataView(out.buffer);
  out.set(new TextEncoder().encode('RWSTATIC'), 0);
  v.setUint32(8, 1, true);
  v.setUint32(12, dims, true);
  v.setUint32(16, words.length, true);
  v.setFloat32(20, 1e-3, true);
  v.setUint32(24, w.length, true);
  out.set(w, 32);
  for (let i = 0; i < words.length; i++) v.setFloat32(pos + 4 * (words.length + i), 1, true);  // scales
  out.fill(fill, pos + 4 * (2 * words.length + dims), pos + 4 * (2 * words.length + dims) + vectorBytes);
  const [lo, hi] = fnv1a64Bytes(out.subarray(0, body));
  v.setUint32(body, lo, true);
  v.setUint32(body + 4, hi, true);
  return out;
}

test('a static model whose words x dims wraps 32 bits is CORRUPT_INDEX', async () => {
  // control: the same writer with 2 words x 4 dims gives a model that loads and embeds
  const small = await createStaticEmbedder({ model: craftStaticModel(['alpha', 'beta'], 4), cache: false });
  const [va] = small.embedSync(['alpha']);
  assert.ok(va.some((x) => x !== 0));
  small.dispose();
  // 2^22 words x 1024 dims = 2^32 int8 values: in wasm32 size_t arithmetic that is 0, so a file with
  // no vector table at all matched the expected size and embedding read outside the table.
  const words = ['alpha', ...new Array((1 << 22) - 1).fill('')];
  const bytes = craftStaticModel(words, 1024, { vectorBytes: 0 });
  await assert.rejects(createStaticEmbedder({ model: bytes, cache: false }), isCode('CORRUPT_INDEX'));
});

test('a static model whose word list has CRLF line ends is CORRUPT_INDEX, not a model that embeds every text to zero (#30 F-5)', async () => {
  await assert.rejects(createStaticEmbedder({ model: craftStaticModel(['alpha\r', 'beta\r'], 4), cache: false }),
    (e) => e.code === 'CORRUPT_INDEX' && /word 0 holds a carriage return/.test(e.message));
});

test('poolEmbeddings rejects shapes whose size wraps 32 bits instead of trapping', () => {
  // 65536 x 65536 x 1 = 2^32 floats: a wrapped size_t matched the empty tensor and the loop read
  // outside WASM memory (a trap surfacing as INTERNAL "memory access out of bounds").
  for (const shape of [{ rows: 65536, tokens: 65536, dim: 1 }, { rows: 1, tokens: 65536, dim: 65536, pooling: 'cls' },
    { rows: 1e10, tokens: 1, dim: 1 }, { rows: 2, tokens: 2, dim: 2 ** 32 }]) {
    assert.throws(() => poolEmbeddings(new Float32Array(0), new Int32Array(0), shape), isCode('INVALID_ARGUMENT'), JSON.stringify(shape));
  }
  const [x, y] = poolEmbeddings(new Float32Array([3, 4]), new Int32Array([1]), { rows: 1, tokens: 1, dim: 2 });
  assert.deepEqual([x, y], [0.6000000238418579, 0.800000011920929]);  // still usable: (3,4)/5 in float32
});
