// Bench suite `boundary`: the cost of handing a Uint8Array to C++ (issue #18). A `Bytes` parameter
// (wasm/bind_common.h) goes through Embind's std::string wire type: malloc, one TypedArray.set
// (wasm/library_std_string.js; Emscripten 3.1.6's own glue copies a byte per JS loop iteration), and
// C++ reads that buffer in place (a std::string parameter copied it once more, in WASM). Timed on
// bindings that reject the bytes at once (text_findInvalidUtf8 on a leading 0xFF; sparse_loadIndex /
// sparse_checkSaved on a wrong magic), so the time is the crossing; the floor row is the copy alone
// (malloc + HEAPU8.set + free from JS). Heap growth: WASM memory grown by the first call of each, in
// table order after the floor (0 = no copy beyond the one the floor already made room for).
// RAGWASM_DIST=<folder of another build> times that build (before/after a glue or binding change).
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { init } from '../../../web/src/index.js';
import { wasm } from '../../../web/src/core/module.js';

export default {
  name: 'boundary',
  description: 'ms to pass a Uint8Array into C++ through a Bytes parameter, against the bare heap copy',
  async run(ctx) {
    await init();
    const m = wasm();
    const mb = ctx.quick ? 10 : 100;
    const bytes = new Uint8Array(mb * 1e6);
    for (let i = 0; i < bytes.length; i += 4096) bytes[i] = i & 0xff;
    bytes[0] = 0xff;  // invalid UTF-8 at 0; not a saved index's magic
    const heapMB = () => m.heap_stats().value.heapBytes / 1e6;
    const expectCode = (r, what) => { if (r.ok) throw new Error(`boundary: ${what} accepted the test bytes`); };
    const cases = [
      ['floor: malloc + HEAPU8.set + free (JS)', () => { const p = m._malloc(bytes.length + 5); m.HEAPU8.set(bytes, p + 4); m._free(p); }],
      ['sparse_checkSaved', () => expectCode(m.sparse_checkSaved(bytes, () => {}), 'sparse_checkSaved')],
      ['sparse_loadIndex', () => expectCode(m.sparse_loadIndex(bytes), 'sparse_loadIndex')],
      ['text_findInvalidUtf8', () => { if (m.text_findInvalidUtf8(bytes).value !== 0) throw new Error('boundary: expected 0'); }],
    ];
    // one untimed call each (heap growth), then rounds that run every case in turn (paired under load)
    const grew = cases.map(([, fn]) => { const before = heapMB(); fn(); return heapMB() - before; });
    const reps = ctx.quick ? 3 : 9;
    const ms = cases.map(() => []);
    for (let r = 0; r < reps; r++) {
      cases.forEach(([, fn], i) => {
        const t0 = performance.now();
        fn();
        ms[i].push(performance.now() - t0);
      });
    }
    const rows = cases.map(([label], i) => {
      const t = ctx.stats(ms[i]);
      const ratio = ctx.stats(ms[i].map((x, r) => x / ms[0][r])).median;
      ctx.record(label, { mb, medianMs: t.median, minMs: t.min, maxMs: t.max, vsFloor: ratio, heapGrowthMB: grew[i], samples: t.samples });
      return [label, mb, t.median, t.min, t.max, mb / (t.median / 1000), ratio, Math.round(grew[i])];
    });
    ctx.table(`Passing ${mb} MB into C++ (Node ${process.version}, load ${os.loadavg()[0].toFixed(2)})`, ['binding', 'MB', 'median ms', 'min ms', 'max ms', 'MB/s', 'time / floor (median of rounds)', 'heap growth MB (first call)'], rows);
  },
};
