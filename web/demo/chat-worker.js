// Module Worker of doc chat, its entry: begins the WASM module's download and compile at once, then loads
// the worker's code (chat-worker-main.js, the library's JS) beside it, so the two overlap instead of
// running in turn (in the coldstart bench the imports and init() each took ~0.3 s). An app does the same
// with init({ wasmModule }). Messages that arrive meanwhile are kept and handled in order.

const WASM_URL = new URL('../dist/ragwasm.wasm', import.meta.url);

/** @type {Promise<WebAssembly.Module>} */
const wasmModule = fetch(WASM_URL).then((r) => {
  if (!r.ok) throw new Error(`HTTP ${r.status} for ${WASM_URL}`);
  // Streaming compile needs the application/wasm type; any other type is compiled from the bytes.
  return (r.headers.get('content-type') ?? '').startsWith('application/wasm') ? WebAssembly.compileStreaming(r)
    : r.arrayBuffer().then((b) => WebAssembly.compile(b));
});
wasmModule.catch(() => {});  // chat-worker-main.js falls back to init()'s own fetch, whose error names the fix
const timing = { wasmCompiled: null };  // ms since this worker started (the page's performance marks)
wasmModule.then(() => { timing.wasmCompiled = performance.now(); }, () => {});

/** @type {MessageEvent[]} */
const queued = [];
self.onmessage = (e) => { queued.push(e); };

import('./chat-worker-main.js').then((m) => m.run({ wasmModule, queued, timing }), (e) => {
  // The worker's code did not load: every message gets the reason (the page shows it).
  const error = { code: 'NOT_FOUND', message: `doc chat's worker could not load its code: ${e?.message ?? e}` };
  const fail = (/** @type {MessageEvent} */ { data }) => self.postMessage({ type: 'error', id: data?.id, error });
  self.onmessage = fail;
  for (const q of queued.splice(0)) fail(q);
});
