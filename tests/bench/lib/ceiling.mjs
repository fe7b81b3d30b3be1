// The 2-core ceiling of this machine, measured beside the `parallel` suite's ratios (issue #18): what
// two busy Workers get from the VM compared with one, for
//   cpu:    a pure CPU kernel (a WASM loop of integer multiply-adds in locals, no memory traffic);
//   simd:   a SIMD throughput kernel (WASM, 12 independent f32x4 multiply-add chains in locals, no
//           memory traffic): it keeps the core's vector units busy, as the flat scan's dot products do,
//           where `cpu` is one dependent integer chain that leaves most of a core idle (so two threads
//           sharing one physical core, SMT siblings on the host, still run it at ~2x; they cannot run
//           `simd` at 2x);
//   memory: a read pass (WASM, 128-bit loads) over as many bytes as the flat scan reads; each Worker
//           reads its own WebAssembly.Memory, as each scan shard reads its own.
// Same Worker setup as the pool (node worker_threads; the work is posted and the reply awaited), same
// split (one Worker does all the work, two Workers half each), so `1 Worker ms / 2 Workers ms` is the
// best ratio this machine gives the pool at that moment. It never changes a verdict: a goal's
// verdict stays its own ratio against its target; the ceiling says whether the VM left headroom.
import { Worker } from 'node:worker_threads';

// ---- a tiny WASM module, assembled here (no toolchain needed):
//   spin(n: i32) -> i32        n iterations of x = x * 1664525 + 1013904223 (locals only)
//   read(p: i32, end: i32) -> i64   sum of the i64 lanes of every 16-byte block in [p, end), end - p a multiple of 64
//   simd(n: i32) -> f32        n iterations of acc_j = acc_j * 0.999 + 0.001 (f32x4) for 12 accumulators j in locals
//   memory "mem" (1 page, growable)
function uleb(n) {
  const out = [];
  do {
    let b = n & 0x7F;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}
function sleb(n) {
  const out = [];
  for (;;) {
    const b = n & 0x7F;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) { out.push(b); return out; }
    out.push(b | 0x80);
  }
}
const section = (id, body) => [id, ...uleb(body.length), ...body];
const vec = (items) => [...uleb(items.length), ...items.flat()];
const str = (s) => [...uleb(s.length), ...Buffer.from(s, 'utf8')];
const I32 = 0x7F;
const I64 = 0x7E;
const V128 = 0x7B;
const F32 = 0x7D;
const f32const = (x) => { const b = Buffer.alloc(4); b.writeFloatLE(x); return [0x43, ...b]; };
const SIMD_CHAINS = 12;

function kernelModule() {
  const types = vec([[0x60, ...vec([I32]), ...vec([I32])], [0x60, ...vec([I32, I32]), ...vec([I64])], [0x60, ...vec([I32]), ...vec([F32])]]);
  const funcs = vec([[0], [1], [2]]);
  const memory = vec([[0x00, 1]]);
  const exports = vec([[...str('spin'), 0x00, 0], [...str('read'), 0x00, 1], [...str('simd'), 0x00, 2], [...str('mem'), 0x02, 0]]);
  const spin = [
    ...vec([[1, I32]]),                       // local 1: x
    0x20, 0, 0x21, 1,                          // x = n
    0x03, 0x40,                                // loop
    0x20, 1, 0x41, ...sleb(1664525), 0x6C, 0x41, ...sleb(1013904223), 0x6A, 0x21, 1,  // x = x * a + c
    0x20, 0, 0x41, 1, 0x6B, 0x22, 0, 0x0D, 0,  // n = n - 1; br_if n
    0x0B,                                      // end loop
    0x20, 1, 0x0B,
  ];
  const load = (offset) => [0x20, 0, 0xFD, 0x00, 4, ...uleb(offset)];   // v128.load align=16 offset
  const add = (acc, offset) => [0x20, acc, ...load(offset), 0xFD, ...uleb(206), 0x21, acc];  // acc = i64x2.add(acc, load)
  const read = [
    ...vec([[2, V128]]),                       // locals 2, 3: two accumulators
    0x03, 0x40,
    ...add(2, 0), ...add(3, 16), ...add(2, 32), ...add(3, 48),
    0x20, 0, 0x41, ...sleb(64), 0x6A, 0x22, 0,  // p += 64
    0x20, 1, 0x49, 0x0D, 0,                    // br_if p < end (unsigned)
    0x0B,
    0x20, 2, 0x20, 3, 0xFD, ...uleb(206), 0x21, 2,
    0x20, 2, 0xFD, ...uleb(29), 0, 0x20, 2, 0xFD, ...uleb(29), 1, 0x7C,  // lane 0 + lane 1
    0x0B,
  ];
  // simd: locals 1..12 the accumulators, 13 = splat(0.999), 14 = splat(0.001)
  const splat = (x, local) => [...f32const(x), 0xFD, ...uleb(19), 0x21, local];  // f32x4.splat
  const simd = [
    ...vec([[SIMD_CHAINS + 2, V128]]),
    ...splat(0.999, SIMD_CHAINS + 1), ...splat(0.001, SIMD_CHAINS + 2),
    ...Array.from({ length: SIMD_CHAINS }, (_, j) => splat(0.1 * (j + 1), j + 1)).flat(),
    0x03, 0x40,
    ...Array.from({ length: SIMD_CHAINS }, (_, j) => [0x20, j + 1, 0x20, SIMD_CHAINS + 1, 0xFD, ...uleb(230), 0x20, SIMD_CHAINS + 2, 0xFD, ...uleb(228), 0x21, j + 1]).flat(),  // acc = acc * c + d (f32x4.mul, f32x4.add)
    0x20, 0, 0x41, 1, 0x6B, 0x22, 0, 0x0D, 0,  // n = n - 1; br_if n
    0x0B,
    ...Array.from({ length: SIMD_CHAINS - 1 }, (_, j) => [0x20, 1, 0x20, j + 2, 0xFD, ...uleb(228), 0x21, 1]).flat(),
    0x20, 1, 0xFD, ...uleb(31), 0,  // f32x4.extract_lane 0
    0x0B,
  ];
  const code = vec([[...uleb(spin.length), ...spin], [...uleb(read.length), ...read], [...uleb(simd.length), ...simd]]);
  return Uint8Array.from([0x00, 0x61, 0x73, 0x6D, 0x01, 0x00, 0x00, 0x00,
    ...section(1, types), ...section(3, funcs), ...section(5, memory), ...section(7, exports), ...section(10, code)]);
}

const WORKER = `
const { parentPort } = require('node:worker_threads');
let ex = null, base = 0, end = 0;
parentPort.on('message', ({ op, bytes, n }) => {
  if (op === 'setup') {
    ex = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports;
    const len = Math.floor(n / 64) * 64;
    base = 65536;
    end = base + len;
    if (len > 0) { ex.mem.grow(Math.ceil(len / 65536)); new Uint8Array(ex.mem.buffer, base, len).fill(1); }  // touched: real pages, not the zero page
    ex.spin(1e6);
    ex.simd(1e6);
    if (len > 0) ex.read(base, end);
    parentPort.postMessage(len);
  } else if (op === 'spin') {
    parentPort.postMessage(ex.spin(n));
  } else if (op === 'simd') {
    parentPort.postMessage(ex.simd(n));
  } else {
    parentPort.postMessage(String(ex.read(base, end)));
  }
});`;

function call(w, msg) {
  return new Promise((resolve, reject) => {
    const onError = (e) => { w.off('message', onMessage); reject(e); };
    const onMessage = (v) => { w.off('error', onError); resolve(v); };
    w.once('message', onMessage);
    w.once('error', onError);
    w.postMessage(msg);
  });
}

/**
 * Starts 1 + 2 Workers, each with the kernel and its share of `readBytes` (touched), and returns a
 * measure function: one interleaved round of the CPU kernel and the read pass, 1 Worker then 2 Workers.
 * @param {{spinIterations: number, readBytes: number, simdIterations?: number}} sizes work of the 1-Worker side (2 Workers do half each)
 */
export async function startCeiling({ spinIterations, readBytes, simdIterations = Math.round(spinIterations * 2 / 3) }) {
  const bytes = kernelModule();
  const one = [new Worker(WORKER, { eval: true })];
  const two = [new Worker(WORKER, { eval: true }), new Worker(WORKER, { eval: true })];
  await Promise.all([call(one[0], { op: 'setup', bytes, n: readBytes }), ...two.map((w) => call(w, { op: 'setup', bytes, n: readBytes / 2 }))]);
  const timed = async (workers, msg) => {
    const t0 = performance.now();
    await Promise.all(workers.map((w) => call(w, msg)));
    return performance.now() - t0;
  };
  return {
    /** One round: {cpu: {w1, w2, ratio}, simd: {w1, w2, ratio}, memory: {w1, w2, ratio, gbps1, gbps2}} (ms; medians of `reps` kernel runs and 3 × `reps` read passes, 1 and 2 Workers alternating). */
    async round(reps = 3) {
      const med = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
      const s = { c1: [], c2: [], v1: [], v2: [], m1: [], m2: [] };
      for (let r = 0; r < reps; r++) {
        s.c1.push(await timed(one, { op: 'spin', n: spinIterations }));
        s.c2.push(await timed(two, { op: 'spin', n: Math.floor(spinIterations / 2) }));
        s.v1.push(await timed(one, { op: 'simd', n: simdIterations }));
        s.v2.push(await timed(two, { op: 'simd', n: Math.floor(simdIterations / 2) }));
        // a read pass is short (40 ms for 400 MB): three of each per repetition
        for (let k = 0; k < 3; k++) {
          s.m1.push(await timed(one, { op: 'read' }));
          s.m2.push(await timed(two, { op: 'read' }));
        }
      }
      const [c1, c2, v1, v2, m1, m2] = [s.c1, s.c2, s.v1, s.v2, s.m1, s.m2].map(med);
      const gb = (ms) => readBytes / (ms / 1000) / 1e9;
      return { cpu: { w1: c1, w2: c2, ratio: c1 / c2 }, simd: { w1: v1, w2: v2, ratio: v1 / v2 }, memory: { w1: m1, w2: m2, ratio: m1 / m2, gbps1: gb(m1), gbps2: gb(m2) } };
    },
    async stop() {
      await Promise.all([...one, ...two].map((w) => w.terminate()));
    },
  };
}

export { kernelModule };
