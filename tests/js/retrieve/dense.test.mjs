// VectorIndex through the JS API: scores, ties, storage kinds, HNSW vs exact, filters, save/load,
// and every bad input rejected with a RagwasmError that leaves the index as it was.
import test from 'node:test';
import assert from 'node:assert/strict';
import { init, VectorIndex, RagwasmError, denseSimdEnabled } from '../../../web/src/index.js';
import { build, seededRandom } from '../helpers.mjs';

await init();

const debug = build === 'debug';

const rng = seededRandom;
function gaussian(n, dim, seed) {
  const r = rng(seed);
  const out = new Float32Array(n * dim);
  for (let i = 0; i < out.length; i++) out[i] = Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
  return out;
}
const ids = (n, p = 'd') => Array.from({ length: n }, (_, i) => `${p}${i}`);
// [{id, vector}] from ids and vectors (one flat Float32Array or one vector per id).
function items(idList, data) {
  const dim = data instanceof Float32Array ? data.length / idList.length : 0;
  return idList.map((id, i) => ({ id, vector: data instanceof Float32Array ? data.subarray(i * dim, (i + 1) * dim) : data[i] }));
}

function rejects(fn, code, pattern) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof RagwasmError, `expected RagwasmError, got ${e}`);
    assert.equal(e.code, code, e.message);
    if (pattern) assert.match(e.message, pattern);
    return true;
  });
}

test('SIMD kernels are in the build', () => {
  assert.equal(denseSimdEnabled(), true);
});

test('cosine dot and l2 scores follow their formulas', () => {
  const data = [[1, 0], [0, 1], [1, 1], [-2, 0]];
  const q = [2, 0];
  const cos = VectorIndex.create({ dimension: 2 });
  cos.add(items(['a', 'b', 'c', 'd'], data.map((v) => new Float32Array(v))));
  const hc = cos.search(q, { k: 4 });
  assert.deepEqual(hc.map((h) => h.id), ['a', 'c', 'b', 'd']);
  assert.ok(Math.abs(hc[1].score - Math.SQRT1_2) < 1e-6);  // cos 45 degrees
  const dot = VectorIndex.create({ dimension: 2, metric: 'dot' });
  dot.add(items(['a', 'b', 'c', 'd'], new Float32Array(data.flat())));
  // dots a 2, b 0, c 2, d -4: a and c tie, insertion order puts a first
  assert.deepEqual(dot.search(q, { k: 4 }), [{ id: 'a', score: 2 }, { id: 'c', score: 2 }, { id: 'b', score: 0 }, { id: 'd', score: -4 }]);
  const l2 = VectorIndex.create({ dimension: 2, metric: 'l2' });
  l2.add(items(['a', 'b', 'c', 'd'], data));
  // squared distances a 1, c 2, b 5, d 16
  assert.deepEqual(l2.search(q, { k: 4 }).map((h) => h.score), [-1, -2, -5, -16]);
  for (const ix of [cos, dot, l2]) ix.dispose();
});

test('WASM dot scores equal the documented 16-lane summation bit for bit', () => {
  const dim = 40;  // padded to 48
  const data = gaussian(50, dim, 3);
  const q = gaussian(1, dim, 4);
  const ix = VectorIndex.create({ dimension: dim, metric: 'dot' });
  ix.add(items(ids(50), data));
  const f = Math.fround;
  const expected = new Map();
  for (let r = 0; r < 50; r++) {
    const p = new Array(16).fill(0);
    for (let i = 0; i < 48; i += 16) {
      for (let j = 0; j < 16; j++) {
        const a = i + j < dim ? q[i + j] : 0;
        const b = i + j < dim ? data[r * dim + i + j] : 0;
        p[j] = f(p[j] + f(a * b));
      }
    }
    const s = [0, 1, 2, 3].map((l) => f(f(p[l] + p[4 + l]) + f(p[8 + l] + p[12 + l])));
    expected.set(`d${r}`, f(f(s[0] + s[1]) + f(s[2] + s[3])));
  }
  for (const h of ix.search(q, { k: 50 })) assert.equal(h.score, expected.get(h.id), h.id);
  ix.dispose();
});

test('flat search returns the exact top k for every storage', () => {
  const dim = 48;
  const n = 1000;
  const data = gaussian(n, dim, 5);
  const queries = gaussian(10, dim, 6);
  const f32 = VectorIndex.create({ dimension: dim });
  f32.add(items(ids(n), data));
  // brute force in JS (double precision cosine)
  const norms = Array.from({ length: n }, (_, i) => Math.hypot(...data.subarray(i * dim, (i + 1) * dim)));
  for (let qi = 0; qi < 10; qi++) {
    const q = queries.subarray(qi * dim, (qi + 1) * dim);
    const qn = Math.hypot(...q);
    const ref = [];
    for (let i = 0; i < n; i++) {
      let d = 0;
      for (let j = 0; j < dim; j++) d += q[j] * data[i * dim + j];
      ref.push([d / (qn * norms[i]), i]);
    }
    ref.sort((a, b) => b[0] - a[0] || a[1] - b[1]);
    const hits = f32.search(q, { k: 10 });
    assert.deepEqual(hits.map((h) => h.id), ref.slice(0, 10).map((r) => `d${r[1]}`));
    hits.forEach((h, i) => assert.ok(Math.abs(h.score - ref[i][0]) < 1e-5, `score ${h.score} vs ${ref[i][0]}`));
  }
  for (const storage of ['int8', 'binary']) {
    const ix = VectorIndex.create({ dimension: dim, storage });
    ix.add(items(ids(n), data));
    let overlap = 0;
    for (let qi = 0; qi < 10; qi++) {
      const q = queries.subarray(qi * dim, (qi + 1) * dim);
      const exact = new Set(f32.search(q, { k: 10 }).map((h) => h.id));
      overlap += ix.search(q, { k: 10, rescore: 20 }).filter((h) => exact.has(h.id)).length;
    }
    assert.ok(overlap / 100 >= 0.8, `${storage} recall@10 ${overlap / 100}`);  // int8 measured ~0.95, binary+int8 ~0.9
    ix.dispose();
  }
  f32.dispose();
});

test('HNSW agrees with its exact scan and survives save and load', () => {
  const dim = 32;
  const n = debug ? 1500 : 4000;
  const data = gaussian(n, dim, 7);
  const queries = gaussian(50, dim, 8);
  const ix = VectorIndex.create({ dimension: dim, index: 'hnsw', hnsw: { M: 16, efConstruction: 100, seed: 3 } });
  ix.add(items(ids(n), data));
  let found = 0;
  for (let i = 0; i < 50; i++) {
    const q = queries.subarray(i * dim, (i + 1) * dim);
    const exact = new Set(ix.search(q, { k: 10, exact: true }).map((h) => h.id));
    found += ix.search(q, { k: 10, efSearch: 128 }).filter((h) => exact.has(h.id)).length;
  }
  assert.ok(found / 500 >= 0.9, `recall@10 ${found / 500}`);
  const bytes = ix.toBytes();
  const loaded = VectorIndex.fromBytes(bytes);
  assert.deepEqual(loaded.options, ix.options);
  assert.equal(loaded.size, n);
  for (let i = 0; i < 50; i++) {
    const q = queries.subarray(i * dim, (i + 1) * dim);
    assert.deepEqual(loaded.search(q, { k: 10 }), ix.search(q, { k: 10 }));
  }
  assert.deepEqual(loaded.toBytes(), bytes);
  loaded.dispose();
  ix.dispose();
});

test('filters return k hits when at least k ids pass', () => {
  const dim = 16;
  const n = 3000;
  const data = gaussian(n, dim, 9);
  const q = gaussian(1, dim, 10);
  for (const index of ['flat', 'hnsw']) {
    const ix = VectorIndex.create({ dimension: dim, index });
    ix.add(items(ids(n), data));
    const even = ix.search(q, { k: 10, filter: (id) => Number(id.slice(1)) % 2 === 0 });
    assert.equal(even.length, 10);
    assert.ok(even.every((h) => Number(h.id.slice(1)) % 2 === 0));
    const few = ix.search(q, { k: 10, filter: (id) => Number(id.slice(1)) % 250 === 0 });  // 12 pass
    assert.equal(few.length, 10);
    const listed = ix.search(q, { k: 5, filter: ['d1', 'd2', 'nope'] });
    assert.deepEqual(listed.map((h) => h.id).sort(), ['d1', 'd2']);
    assert.deepEqual(ix.search(q, { k: 5, filter: new Set(['d7']) }).map((h) => h.id), ['d7']);
    // the id cache follows removals
    ix.remove(['d0', 'd2']);
    assert.ok(ix.search(q, { k: 3000, filter: () => true }).every((h) => h.id !== 'd0' && h.id !== 'd2'));
    assert.equal(ix.search(q, { k: 3000, filter: () => true }).length, n - 2);
    ix.dispose();
  }
});

test('remove and add again by id', () => {
  for (const index of ['flat', 'hnsw']) {
    const ix = VectorIndex.create({ dimension: 4, index });
    ix.add(items(['x', 'y', 'z'], [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]]));
    assert.deepEqual(ix.remove(['y']), { added: 0, updated: 0, removed: 1, skipped: 0 });
    assert.equal(ix.size, 2);
    assert.equal(ix.has('y'), false);
    assert.deepEqual(ix.search([0, 1, 0, 0], { k: 3 }).map((h) => h.id), ['x', 'z']);
    ix.add(items(['y'], [[0, 1, 0, 0]]));
    assert.equal(ix.search([0, 1, 0, 0], { k: 1 })[0].id, 'y');
    assert.equal(ix.size, 3);
    ix.dispose();
  }
});

test('bad input throws a named RagwasmError and nothing indexed is lost', () => {
  const ix = VectorIndex.create({ dimension: 3, index: 'hnsw' });
  ix.add(items(['a', 'b'], [[1, 2, 3], [3, 2, 1]]));
  const before = ix.search([1, 1, 1], { k: 2 });
  rejects(() => ix.add(items(['c'], [[1, 2]])), 'DIMENSION_MISMATCH', /has 2 values, the index expects dimension 3/);
  rejects(() => ix.add(items(['c'], [[1, NaN, 3]])), 'INVALID_ARGUMENT', /\[1\].*got nan/i);
  rejects(() => ix.add(items(['c', 'd'], [[1, 2, 3], [1, 2, Infinity]])), 'INVALID_ARGUMENT', /\[2\].*inf/i);
  rejects(() => ix.add(items(['a'], [[1, 1, 1]])), 'DUPLICATE_ID', /'a' is already in the index/);
  rejects(() => ix.add(items(['e', 'e'], [[1, 1, 1], [1, 1, 1]])), 'DUPLICATE_ID', /twice/);
  rejects(() => ix.add(items([''], [[1, 1, 1]])), 'INVALID_ARGUMENT', /id/);
  rejects(() => ix.add(items(['\uD800'], [[1, 1, 1]])), 'INVALID_ARGUMENT', /lone surrogates/);
  // #28: the positional add(ids, vectors) of before 0.1.0 is gone: an id string is not an item
  rejects(() => ix.add(['c'], [[1, 1, 1]]), 'INVALID_ARGUMENT', /items\[0\]: expected an object \{id, vector\}/);
  rejects(() => ix.add(items(['c'], ['x'])), 'INVALID_ARGUMENT', /vector/);
  rejects(() => ix.remove(['a', 'missing']), 'NOT_FOUND', /'missing' is not in the index/);
  assert.deepEqual(ix.remove([]), { added: 0, updated: 0, removed: 0, skipped: 0 });  // an empty batch is a no-op (docs/api.md)
  for (const k of [0, -1, 1.5, NaN, '3', 100001]) rejects(() => ix.search([1, 1, 1], { k }), 'INVALID_ARGUMENT', /options\.k/);
  rejects(() => ix.search([1, 1], { k: 1 }), 'DIMENSION_MISMATCH', /query: has 2 values/);
  rejects(() => ix.search([1, NaN, 1]), 'INVALID_ARGUMENT', /query\[1\]/);
  rejects(() => ix.search([1, 1, 1], { top: 3 }), 'INVALID_ARGUMENT', /unknown option 'top'/);
  rejects(() => ix.search([1, 1, 1], { filter: 42 }), 'INVALID_ARGUMENT', /options\.filter/);
  rejects(() => ix.search([1, 1, 1], { efSearch: 0 }), 'INVALID_ARGUMENT', /efSearch/);
  assert.equal(ix.size, 2);
  assert.deepEqual(ix.search([1, 1, 1], { k: 2 }), before);
  ix.dispose();
  rejects(() => VectorIndex.create({}), 'INVALID_ARGUMENT', /options\.dimension/);
  rejects(() => VectorIndex.create(), 'INVALID_ARGUMENT', /dimension/);
  rejects(() => VectorIndex.create({ dimension: 8193 }), 'INVALID_ARGUMENT', /\[1, 8192\]/);
  rejects(() => VectorIndex.create({ dimension: 4, metric: 'euclid' }), 'INVALID_ARGUMENT', /options\.metric/);
  rejects(() => VectorIndex.create({ dimension: 4, storage: 'binary', index: 'hnsw' }), 'INVALID_ARGUMENT', /binary/);
  rejects(() => VectorIndex.create({ dimension: 4, index: 'hnsw', hnsw: { M: 1 } }), 'INVALID_ARGUMENT', /hnsw\.M/);
  rejects(() => VectorIndex.create({ dimension: 4, hnsw: { m: 16 } }), 'INVALID_ARGUMENT', /unknown option 'm'/);
});

test('corrupt or foreign bytes are rejected by load', () => {
  const ix = VectorIndex.create({ dimension: 8, storage: 'int8', index: 'hnsw' });
  ix.add(items(ids(30), gaussian(30, 8, 11)));
  const bytes = ix.toBytes();
  rejects(() => VectorIndex.fromBytes(bytes.subarray(0, bytes.length - 1)), 'CORRUPT_INDEX', /corrupt/);
  rejects(() => VectorIndex.fromBytes(new Uint8Array(0)), 'CORRUPT_INDEX');
  const r = rng(12);
  for (let t = 0; t < (debug ? 50 : 300); t++) {
    const b = bytes.slice();
    const at = 12 + Math.floor(r() * (b.length - 12));  // past magic and version
    b[at] ^= 1 << Math.floor(r() * 8);
    rejects(() => VectorIndex.fromBytes(b), 'CORRUPT_INDEX');
  }
  const v2 = bytes.slice();
  v2[8] = 9;
  rejects(() => VectorIndex.fromBytes(v2), 'UNSUPPORTED_VERSION', /version 9 is not supported \(this build reads version 2\)/);
  rejects(() => VectorIndex.fromBytes('RWDV'), 'INVALID_ARGUMENT', /Uint8Array/);
  // the original still loads and searches
  const ok = VectorIndex.fromBytes(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  assert.equal(ok.size, 30);
  ok.dispose();
  ix.dispose();
});

test('a disposed index throws DISPOSED', () => {
  const ix = VectorIndex.create({ dimension: 2 });
  ix.add(items(['a'], [[1, 0]]));
  ix.dispose();
  assert.equal(ix.disposed, true);
  rejects(() => ix.search([1, 0]), 'DISPOSED');
  rejects(() => ix.add([{ id: 'b', vector: [0, 1] }]), 'DISPOSED');
  ix.dispose();  // twice is fine
});

test('options report the defaults and survive save and load', () => {
  const ix = VectorIndex.create({ dimension: 5, index: 'hnsw', hnsw: { M: 8 } });
  const expected = {
    dimension: 5, metric: 'cosine', storage: 'f32', binaryRescore: 'int8', index: 'hnsw',
    hnsw: { M: 8, efConstruction: 200, efSearch: 64, seed: 42 },
  };
  assert.deepEqual(ix.options, expected);
  const loaded = VectorIndex.fromBytes(ix.toBytes());
  assert.deepEqual(loaded.options, expected);
  assert.equal(loaded.size, 0);
  assert.deepEqual(loaded.search([1, 2, 3, 4, 5]), []);
  loaded.dispose();
  ix.dispose();
});

// The blocked batch kernels (4 rows per step, WASM SIMD only) must give every row the same value as
// the single-row kernel the HNSW walk uses. referencePass sums the per-row values in row order, so
// equal sums mean bit-equal rows here (a difference would have to cancel exactly in a float64 sum).
test('WASM batch kernels equal the single-row kernels for every row count and storage', async () => {
  const { callWasm } = await import('../../../web/src/core/errors.js');
  const r = rng(99);
  const rnd = () => r() - 0.5;
  let checked = 0;
  // int8 rows of up to 192 bytes take the 4-row kernel, longer ones the single-row one (kernels.cpp)
  for (const dim of [16, 100, 192, 200, 384]) {
    for (const n of [1, 2, 3, 4, 5, 7, 8, 9, 37, 300]) {
      const data = Float32Array.from({ length: n * dim }, rnd);
      const q = Float32Array.from({ length: dim }, rnd);
      for (const [storage, metric] of [['f32', 'dot'], ['f32', 'l2'], ['int8', 'dot'], ['int8', 'cosine'], ['binary', 'dot']]) {
        const ix = VectorIndex.create({ dimension: dim, metric, storage });
        try {
          ix.add(items(Array.from({ length: n }, (_, i) => `r${i}`), data));
          const kernel = callWasm(() => ix.native.referencePass(q, 'kernel'));
          const batch = callWasm(() => ix.native.referencePass(q, 'batch'));
          assert.equal(batch.checksum, kernel.checksum, `${storage}/${metric} n=${n} dim=${dim}`);
          assert.ok(Number.isFinite(kernel.checksum) && kernel.bytes > 0);
          checked++;
        } finally {
          ix.dispose();
        }
      }
    }
  }
  assert.equal(checked, 250);
});

test('searchMany equals search per query (flat f32 / int8 / binary, HNSW; filters; ties) and names the bad query', () => {
  const rand = seededRandom(2718);
  const dim = 12;
  const items = Array.from({ length: 600 }, (_, i) => ({ id: `r${i}`, vector: Float32Array.from({ length: dim }, () => Math.round(rand() * 6) - 3) }));
  const queries = Array.from({ length: 7 }, () => Array.from({ length: dim }, () => Math.round(rand() * 6) - 2.5));
  for (const opts of [{ metric: 'dot' }, { metric: 'l2', storage: 'int8' }, { metric: 'cosine', storage: 'binary' }, { metric: 'cosine', index: 'hnsw' }]) {
    const ix = VectorIndex.create({ dimension: dim, ...opts });
    try {
      ix.add(items);
      ix.remove(['r5', 'r400']);
      const allowed = items.filter((_, i) => i % 4 !== 1).map((it) => it.id);
      for (const o of [{ k: 1 }, { k: 25 }, { k: 700 }, { k: 25, filter: allowed }, { k: 9, filter: (id) => id.endsWith('3') }]) {
        assert.deepEqual(ix.searchMany(queries, o), queries.map((q) => ix.search(q, o)), `${JSON.stringify(opts)} ${JSON.stringify(o.k)}`);
      }
      assert.deepEqual(ix.searchMany([]), []);
      assert.throws(() => ix.searchMany([queries[0], [1, 2]]), (e) => e instanceof RagwasmError && e.code === 'DIMENSION_MISMATCH' && /queries\[1\]/.test(e.message));
    } finally {
      ix.dispose();
    }
  }
});

test('compact() drops HNSW tombstones: toBytes equals a fresh build of the live vectors in order (flat: nothing to do)', () => {
  const dim = 12;
  const data = gaussian(600, dim, 91);
  for (const storage of ['f32', 'int8']) {
    const opts = { dimension: dim, storage, index: 'hnsw', hnsw: { M: 8, efConstruction: 48, seed: 5 } };
    const ix = VectorIndex.create(opts);
    ix.add(items(ids(600), data));
    ix.upsert(items(['d8'], [Array.from(data.subarray(9 * dim, 10 * dim))]));  // a replaced id leaves a tombstone too
    const gone = ids(600).filter((_, i) => i % 5 === 2);
    ix.remove(gone);
    const before = ix.toBytes().length;
    assert.equal(ix.compact(), gone.length + 1);
    assert.equal(ix.compact(), 0);
    const fresh = VectorIndex.create(opts);
    const live = ids(600).filter((id, i) => i % 5 !== 2 && id !== 'd8');
    fresh.add(items(live, Float32Array.from(live.flatMap((id) => Array.from(data.subarray(Number(id.slice(1)) * dim, (Number(id.slice(1)) + 1) * dim))))));
    fresh.add(items(['d8'], [Array.from(data.subarray(9 * dim, 10 * dim))]));
    const after = ix.toBytes();
    assert.deepEqual(after, fresh.toBytes(), storage);
    assert.ok(after.length < before, `${after.length} < ${before}`);
    assert.equal(ix.size, 600 - gone.length);
    const q = Array.from(data.subarray(0, dim));
    assert.deepEqual(ix.search(q, { k: 5, filter: (id) => id !== 'd0' }), fresh.search(q, { k: 5, filter: (id) => id !== 'd0' }));
    ix.dispose();
    fresh.dispose();
  }
  const flat = VectorIndex.create({ dimension: dim });
  flat.add(items(ids(20), data.subarray(0, 20 * dim)));
  flat.remove(['d3']);
  const bytes = flat.toBytes();
  assert.equal(flat.compact(), 0);
  assert.deepEqual(flat.toBytes(), bytes);
  flat.dispose();
});
