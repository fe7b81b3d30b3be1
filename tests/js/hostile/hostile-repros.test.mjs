// Issue #19: the specific hostile inputs from the issue, each rejected with a RagwasmError naming the
// problem and each followed by a good call proving the module still works (a WASM abort would leave
// every later call failing). The generated harness (hostile.test.mjs) covers the rest.
import test from 'node:test';
import assert from 'node:assert/strict';
import { init, RagwasmError, Bm25Index, VectorIndex, estimateTokens, parsePipelineConfig, splitSentences } from '../../../web/src/index.js';
import { metrics, pickProbes, chunkStats, weightsAfterLegCheck } from '../../../web/src/eval.js';
import { formatPassages, formatClaims, agreementStats, parseJudgeScore } from '../../../web/src/llm.js';
import { describe } from '../../../web/src/core/validate.js';

await init();

function rejects(fn, code, pattern) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof RagwasmError, `expected a RagwasmError, got ${e?.name}: ${e?.message}`);
    assert.equal(e.code, code, e.message);
    if (pattern) assert.match(e.message, pattern);
    return true;
  });
}

function moduleStillWorks() {
  assert.equal(metrics.exactMatch('a', ['a']), 1);
  const ix = Bm25Index.create();
  ix.add([{ id: 'd', text: 'hello world' }]);
  assert.deepEqual(ix.search('hello', { k: 1 }).map((h) => h.id), ['d']);
  ix.dispose();
}

function hugeSparse() {
  const a = [];
  a.length = 2 ** 32 - 1;
  return a;
}

test('#19 a hole in exactMatch references is rejected by index and the module keeps working', () => {
  rejects(() => metrics.exactMatch('a', [, 'a']), 'INVALID_ARGUMENT', /references\[0\]: expected a string, got undefined \(a hole\)/); // eslint-disable-line no-sparse-arrays
  moduleStillWorks();
});

test('#19 holes in the references of tokenF1 anls rougeL and sentenceBleu are rejected', () => {
  for (const fn of [metrics.tokenF1, metrics.anls, metrics.rougeL, metrics.sentenceBleu]) {
    rejects(() => fn('a b', ['a b', , 'c']), 'INVALID_ARGUMENT', /references\[1\].*\(a hole\)/); // eslint-disable-line no-sparse-arrays
  }
  moduleStillWorks();
  assert.equal(metrics.tokenF1('a b', ['a b']), 1);
});

test('#19 evaluateRun and formatTrecEval with a hole in measures are rejected', () => {
  rejects(() => metrics.evaluateRun({ q1: { d1: 1 } }, { q1: { d1: 1 } }, { measures: [, 'map'] }), 'INVALID_ARGUMENT', /measures\[0\].*\(a hole\)/); // eslint-disable-line no-sparse-arrays
  rejects(() => metrics.formatTrecEval({ q1: { d1: 1 } }, { q1: { d1: 1 } }, { measures: [, 'map'] }), 'INVALID_ARGUMENT', /\(a hole\)/); // eslint-disable-line no-sparse-arrays
  moduleStillWorks();
  assert.equal(metrics.evaluateRun({ q1: { d1: 1 } }, { q1: { d1: 1 } }, { measures: ['map'] }).aggregate.map, 1);
});

test('#19 citationMetrics splitSentences and parseJudgeScore with holes are rejected', () => {
  rejects(() => metrics.citationMetrics('See [1].', { relevantIds: [, '1'], contextIds: ['1'] }), 'INVALID_ARGUMENT', /\(a hole\)/); // eslint-disable-line no-sparse-arrays
  rejects(() => metrics.citationMetrics('See [1].', { relevantIds: ['1'], contextIds: [, '1'] }), 'INVALID_ARGUMENT', /\(a hole\)/); // eslint-disable-line no-sparse-arrays
  rejects(() => splitSentences('Dr. Who came.', { abbreviations: [, 'dr'] }), 'INVALID_ARGUMENT', /abbreviations\[0\].*\(a hole\)/); // eslint-disable-line no-sparse-arrays
  rejects(() => parseJudgeScore('Score: 1', { labels: [, 'no', 'yes'] }), 'INVALID_ARGUMENT', /\(a hole\)/); // eslint-disable-line no-sparse-arrays
  moduleStillWorks();
});

test('#19 precisionAt with a hole is rejected instead of counting it as non-relevant', () => {
  rejects(() => metrics.precisionAt([, 1, 0], 2), 'INVALID_ARGUMENT', /relevances\[0\].*\(a hole\)/); // eslint-disable-line no-sparse-arrays
  assert.equal(metrics.precisionAt([1, 1, 0], 2), 1);
});

test('#19 formatPassages with a hole is rejected instead of numbering the next passage 2', () => {
  rejects(() => formatPassages([, { text: 'x' }]), 'INVALID_ARGUMENT', /passages\[0\].*\(a hole\)/); // eslint-disable-line no-sparse-arrays
  assert.equal(formatPassages([{ text: 'x' }]), '[1] x');
  rejects(() => formatClaims(['a', , 'b']), 'INVALID_ARGUMENT', /claims\[1\].*\(a hole\)/); // eslint-disable-line no-sparse-arrays
});

test('#19 evaluateEvidence does not count a hole as a retrieved chunk', () => {
  rejects(() => metrics.evaluateEvidence([{ evidence: [{ text: 'cat' }], chunks: [, { text: 'cat' }] }]), 'INVALID_ARGUMENT', /chunks\[0\].*\(a hole\)/); // eslint-disable-line no-sparse-arrays
  const r = metrics.evaluateEvidence([{ evidence: [{ text: 'cat' }], chunks: [{ text: 'the cat' }] }], { cutoffs: [1], maxK: 1 });
  assert.equal(r.recall[1], 1);
});

test('#19 a huge sparse array into VectorIndex search is refused by its length before any copy', () => {
  const kinds = [{ storage: 'f32' }, { storage: 'int8' }, { storage: 'binary' }, { index: 'hnsw' }];
  for (const kind of kinds) {
    const ix = VectorIndex.create({ dimension: 8, ...kind });
    ix.add([{ id: 'a', vector: [1, 0, 0, 0, 0, 0, 0, 0] }]);
    rejects(() => ix.search(hugeSparse()), 'DIMENSION_MISMATCH', /4294967295 values/);
    assert.equal(ix.search([1, 0, 0, 0, 0, 0, 0, 0], { k: 1 })[0].id, 'a');
    ix.dispose();
  }
});

test('#19 huge sparse arrays into Bm25Index remove pickProbes chunkStats and the other JS helpers are refused by length', () => {
  const ix = Bm25Index.create();
  ix.add([{ id: 'd', text: 'hello world' }]);
  rejects(() => ix.remove(hugeSparse()), 'LIMIT_EXCEEDED', /4294967295/);
  assert.equal(ix.remove(['d']).removed, 1);
  ix.dispose();
  rejects(() => pickProbes(hugeSparse()), 'LIMIT_EXCEEDED', /4294967295/);
  rejects(() => chunkStats('abc', hugeSparse()), 'LIMIT_EXCEEDED', /4294967295/);
  rejects(() => weightsAfterLegCheck(hugeSparse(), ['a'], null), 'LIMIT_EXCEEDED', /4294967295/);
  rejects(() => agreementStats(hugeSparse(), { kind: 'rating', binaryThreshold: 2 }), 'LIMIT_EXCEEDED', /4294967295/);
  rejects(() => formatClaims(hugeSparse()), 'LIMIT_EXCEEDED', /4294967295/);
  rejects(() => formatPassages(hugeSparse()), 'LIMIT_EXCEEDED', /4294967295/);
  assert.equal(pickProbes([{ id: 'p', text: 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen' }]).length, 1);
  moduleStillWorks();
});

test('#19 estimateTokens(12345) is rejected instead of counting the digits of a number', () => {
  rejects(() => estimateTokens(12345), 'INVALID_ARGUMENT', /text: expected a string, got 12345/);
  let deep = [];
  for (let i = 0; i < 20000; i++) deep = [deep];
  rejects(() => estimateTokens(deep), 'INVALID_ARGUMENT', /text: expected a string/);
  assert.equal(estimateTokens('12345'), estimateTokens('12345'));
  assert.ok(estimateTokens('the cat sat') > 0);
});

test('#19 an object whose Symbol.toStringTag getter throws gets a RagwasmError naming the argument', () => {
  const evil = Object.defineProperty({}, Symbol.toStringTag, { get() { throw new Error('boom'); } });
  assert.equal(describe(evil), 'an object');
  rejects(() => metrics.exactMatch(evil, ['a']), 'INVALID_ARGUMENT', /prediction: expected a string, got an object/);
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  rejects(() => metrics.exactMatch('a', revoked.proxy), 'INVALID_ARGUMENT', /references/);
  moduleStillWorks();
});

test('#19 cyclic and 20000-deep pipeline configs are rejected without overflowing the stack', () => {
  const cyclic = { indexes: {} };
  cyclic.indexes.self = cyclic;
  rejects(() => parsePipelineConfig(cyclic), 'INVALID_ARGUMENT', /cycle/);
  let deep = {};
  for (let i = 0; i < 20000; i++) deep = { a: deep };
  rejects(() => parsePipelineConfig(deep), 'LIMIT_EXCEEDED', /JSON nested deeper than 256 levels/);
  assert.ok(parsePipelineConfig({}));
  moduleStillWorks();
});

test('#19 statistics that are undefined for constant inputs are null never NaN', () => {
  assert.equal(metrics.cohensKappa([1, 1], [1, 1]), null);
  assert.equal(metrics.cohensKappa([1, 1], [1, 1], { weights: 'quadratic' }), null);
  assert.equal(metrics.spearman([1, 1, 1], [1, 2, 3]), null);
  assert.equal(metrics.kendallTau([1, 1, 1], [1, 2, 3]), null);
  assert.equal(metrics.cohensKappa([0, 1, 1, 0], [0, 1, 0, 0]), 0.5);
  const stats = chunkStats('abc', [{ start: 0, end: 3 }]);
  assert.equal(stats.histogram.at(-1).max, null, 'the open last bucket has max null, not Infinity');
  assert.equal(stats.histogram.reduce((s, b) => s + b.count, 0), 1);
});

// Issue #33 H-1: the sharded indexes' fromBytes handed null, undefined, a long string or a sparse
// array straight to the WASM container reader (each printed thousands of "Aborted()" lines and came
// back INTERNAL "Maximum call stack size exceeded"); a revoked Proxy was a plain TypeError.
test('#33 ShardedBm25Index and ShardedVectorIndex fromBytes refuse non-bytes with INVALID_ARGUMENT before any WASM call', async () => {
  await init();
  const { ShardedBm25Index, ShardedVectorIndex } = await import('../../../web/src/parallel.js');
  const sparse = [];
  sparse.length = 2 ** 32 - 1;
  const revoked = Proxy.revocable([], {});
  revoked.revoke();
  const stderrWrite = process.stderr.write;
  let aborted = 0;
  process.stderr.write = function (chunk, ...rest) {
    if (/Aborted\(/.test(String(chunk))) aborted++;
    return stderrWrite.call(this, chunk, ...rest);
  };
  try {
    for (const Cls of [ShardedBm25Index, ShardedVectorIndex]) {
      for (const bad of [null, undefined, 'lorem ipsum '.repeat(87382), sparse, revoked.proxy, 12, {}]) {
        await assert.rejects(Cls.fromBytes(bad), (e) => e instanceof RagwasmError && e.code === 'INVALID_ARGUMENT' && /^ragwasm: bytes: expected a Uint8Array or ArrayBuffer/.test(e.message),
          `${Cls.name}.fromBytes(${describe(bad)})`);
      }
      assert.throws(() => new Cls(revoked.proxy), (e) => e instanceof RagwasmError && e.code === 'INVALID_ARGUMENT', `new ${Cls.name}(revoked Proxy)`);
      // Still a CORRUPT_INDEX for bytes that are not a saved index (the checks did not hide that path).
      await assert.rejects(Cls.fromBytes(new Uint8Array(16)), (e) => e instanceof RagwasmError && e.code === 'CORRUPT_INDEX');
    }
  } finally {
    process.stderr.write = stderrWrite;
  }
  assert.equal(aborted, 0, '"Aborted(" printed');
  assert.equal(metrics.exactMatch('a', ['a']), 1);
});
